import Glibc

/// A file opened for reading and kept open: its descriptor is sent to another process (the font
/// file the render worker measures large print with: its seccomp filter forbids opening files).
/// Closed when the object goes.
public final class ReadOnlyFile: Sendable {
    public let path: String
    /// The descriptor (O_RDONLY | O_CLOEXEC): borrowed by whoever sends it, owned by this object.
    public let descriptor: Int32

    /// Opens `path` for reading.
    public init(path: String) throws(SystemError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open \(path)") }
        self.path = path
        descriptor = fd
    }

    /// Which file this is, and which version of it: what `fstat` says.
    public struct Identity: Equatable, Sendable {
        public var device: UInt64
        public var inode: UInt64
        public var size: Int64
        /// Modification time, nanoseconds since the epoch.
        public var modified: Int64
    }

    /// The file's identity now. Corresponding C function: `fstat`.
    public func identity() throws(SystemError) -> Identity {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemError("fstat \(path)") }
        return Identity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Reads into `buffer` from `offset` until it is full or the file ends; the bytes read.
    /// Corresponding C function: `pread`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError("read \(path)")
            }
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// `count` bytes from `offset` (fewer where the file ends).
    public func read(count: Int, at offset: Int64) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) in try self.read(into: buffer, at: offset) }
        }
        bytes.removeLast(count - (try read.get()))
        return bytes
    }

    deinit { close(descriptor) }
}
