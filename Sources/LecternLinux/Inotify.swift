import CLecternLinux
import Glibc
import SystemPackage

/// A non-blocking inotify instance this object owns, watching directories for files written,
/// replaced (renamed over), created and deleted. Watching the directory rather than the file
/// sees an editor's or a deploy script's atomic rename, which replaces the file's inode.
/// Corresponding C function: `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`.
public final class Inotify {
    /// One change in a watched directory.
    public struct Event: Equatable, Sendable {
        /// The watch it belongs to (`watch(directory:)`'s result).
        public var watch: Int32
        /// The file's name in the directory ("" for the directory itself).
        public var name: String
        /// The directory itself went away, or events were lost (queue overflow): watch again.
        public var isWatchLost: Bool
        /// A file was renamed onto this name: the whole new file is there at once (an atomic
        /// replace), unlike a write, which may be followed by more.
        public var isRenamedOver: Bool = false
    }

    /// The descriptor, for a poller to watch (borrowed: this object closes it).
    public let descriptor: FileDescriptor
    /// inotify's events are variable-length records aligned like `struct inotify_event`.
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: 16 * 1024, alignment: 8)

    public init() throws(SystemError) {
        let fd = CLecternLinux_inotify()
        guard fd >= 0 else {
            buffer.deallocate()
            throw SystemError("inotify_init1")
        }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit {
        try? descriptor.close()
        buffer.deallocate()
    }

    /// Starts watching `directory`; returns the watch's number (the same one for a directory
    /// already watched). Corresponding C function: `inotify_add_watch`.
    public func watch(directory: String) throws(SystemError) -> Int32 {
        let watch = CLecternLinux_inotify_watch_directory(descriptor.rawValue, directory)
        guard watch >= 0 else { throw SystemError("inotify_add_watch \(directory)") }
        return watch
    }

    /// The events pending now (none when nothing happened since the last call).
    public func read() -> [Event] {
        var events: [Event] = []
        let lost = CLecternLinux_inotify_lost_mask()
        while true {
            let count = CLecternLinux_inotify_read(descriptor.rawValue, buffer, 16 * 1024)
            guard count > 0 else { return events }
            var offset = 0
            while offset < count {
                var watch: Int32 = 0
                var mask: UInt32 = 0
                var name: UnsafePointer<CChar>?
                offset = CLecternLinux_inotify_event(buffer, offset, &watch, &mask, &name)
                events.append(
                    Event(
                        watch: watch, name: name.map { String(cString: $0) } ?? "", isWatchLost: mask & lost != 0,
                        isRenamedOver: mask & UInt32(IN_MOVED_TO) != 0))
            }
        }
    }
}
