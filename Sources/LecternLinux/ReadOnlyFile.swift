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
        try readFully(descriptor, path: path, into: buffer, at: offset)
    }

    /// `count` bytes from `offset` (fewer where the file ends).
    public func read(count: Int, at offset: Int64) throws(SystemError) -> [UInt8] {
        try readFully(descriptor, path: path, count: count, at: offset)
    }

    deinit { close(descriptor) }
}

/// A regular file opened read-write to be mapped by another process too: a compositor maps a
/// `wl_shm` pool's descriptor read-write, and the kept first frame's file is handed to it as it
/// is (`KeptFrame`). Read here with `pread`; its descriptor goes to whoever takes it, else it
/// is closed with this object.
public final class SharedFile {
    public let path: String
    /// Its size when opened.
    public let size: Int
    private var descriptor: Int32

    /// Opens the regular file at `path` read-write (O_CLOEXEC). ENOENT when there is none.
    public init(path: String) throws(SystemError) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open \(path)") }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            let code = errno == 0 ? EINVAL : errno
            close(fd)
            throw SystemError("\(path) is not a regular file", errno: code)
        }
        self.path = path
        size = Int(info.st_size)
        descriptor = fd
    }

    /// `count` bytes from `offset` (fewer where the file ends). Corresponding C function: `pread`.
    public func read(count: Int, at offset: Int64) throws(SystemError) -> [UInt8] {
        precondition(descriptor >= 0, "the descriptor was taken")
        return try readFully(descriptor, path: path, count: count, at: offset)
    }

    /// The descriptor, which the caller owns from now on (this object no longer closes it).
    public func takeDescriptor() -> Int32 {
        precondition(descriptor >= 0, "the descriptor was taken")
        defer { descriptor = -1 }
        return descriptor
    }

    deinit { if descriptor >= 0 { close(descriptor) } }
}

/// Reads into `buffer` from `offset` of `descriptor` until it is full or the file ends; the
/// bytes read.
private func readFully(
    _ descriptor: Int32, path: String, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64
) throws(SystemError) -> Int {
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

/// `count` bytes from `offset` of `descriptor` (fewer where the file ends).
private func readFully(_ descriptor: Int32, path: String, count: Int, at offset: Int64) throws(SystemError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let read = bytes.withUnsafeMutableBytes { buffer in
        Result { () throws(SystemError) in try readFully(descriptor, path: path, into: buffer, at: offset) }
    }
    bytes.removeLast(count - (try read.get()))
    return bytes
}
