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

    deinit { close(descriptor) }
}
