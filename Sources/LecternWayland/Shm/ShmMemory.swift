import CLecternLinux
import Glibc

/// The memory of an shm buffer without its `wl_buffer`: a sealed memfd of `ShmBuffer.layout`'s
/// size, mapped read-write, or a file's pages (`init(file:…)`), mapped read-only. It makes no
/// Wayland request, so it can be made and read or written on any thread; a buffer is then made
/// of it (`ShmBuffer`; a file's: `ShmBufferPool.standalone`).
public final class ShmMemory: @unchecked Sendable {
    // Sendable: its fields never change; its bytes are written by one thread, then handed over.
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (`ShmBuffer.layout`).
    public let stride: Int
    /// The pixels, `stride` bytes a row. Read-only unless `isWritable`.
    public let pixels: UnsafeMutableRawPointer
    /// Whether this process may write the pixels: a memfd's are, a file's are not (its pages are
    /// the file's: a write would change the file).
    public let isWritable: Bool
    /// The descriptor's size, which the compositor maps, and where in it the pixels start.
    let poolSize: Int
    let offset: Int
    /// What this process mapped: the descriptor's bytes from 0 to `poolSize`.
    let mapping: UnsafeMutableRawPointer
    let fd: Int32
    /// A buffer took the descriptor and the mapping: they are its to free.
    private var isAdopted = false

    public init(width: Int, height: Int) throws(WaylandError) {
        self.width = width
        self.height = height
        let byteCount: Int
        (stride, byteCount) = ShmBuffer.layout(width: width, height: height)
        let fd = CLecternLinux_memfd_create("lectern-shm")
        guard fd >= 0 else { throw .system(call: "memfd_create", errno: errno) }
        var rc: Int32
        repeat { rc = ftruncate(fd, off_t(byteCount)) } while rc < 0 && errno == EINTR
        guard rc == 0 else {
            let code = errno
            close(fd)
            throw .system(call: "ftruncate(\(byteCount))", errno: code)
        }
        guard CLecternLinux_seal_memfd(fd) == 0 else {
            let code = errno
            close(fd)
            throw .system(call: "fcntl(F_ADD_SEALS)", errno: code)
        }
        guard let map = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            let code = errno
            close(fd)
            throw .system(call: "mmap(\(byteCount))", errno: code)
        }
        self.fd = fd
        mapping = map
        pixels = map
        poolSize = byteCount
        offset = 0
        isWritable = true
    }

    /// The `size` bytes of the file open (read-write: the compositor maps it so) as `descriptor`,
    /// which this memory owns from now on (closed on failure too), mapped read-only: a frame of
    /// `width` × `height` whose rows, `stride` bytes apart, start at `offset` (a multiple of the
    /// page size). The file must not shrink while a compositor holds the buffer: replace it by
    /// renaming another over it.
    public init(
        file descriptor: Int32, size: Int, offset: Int, width: Int, height: Int, stride: Int
    ) throws(WaylandError) {
        guard offset >= 0, stride >= width * 4, offset + stride * height <= size, size <= Int(Int32.max) else {
            close(descriptor)
            throw .system(call: "mmap(\(size)): the frame does not fit", errno: EINVAL)
        }
        guard let map = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), map != MAP_FAILED else {
            let code = errno
            close(descriptor)
            throw .system(call: "mmap(\(size))", errno: code)
        }
        self.width = width
        self.height = height
        self.stride = stride
        fd = descriptor
        mapping = map
        pixels = map + offset
        poolSize = size
        self.offset = offset
        isWritable = false
    }

    /// Hands the descriptor and the mapping to a buffer (`ShmBuffer`), which frees them.
    func adopt() {
        precondition(!isAdopted, "one buffer per memory")
        isAdopted = true
    }

    deinit {
        guard !isAdopted else { return }
        munmap(mapping, poolSize)
        close(fd)
    }
}
