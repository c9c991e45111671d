import CLecternLinux
import Glibc

/// The memory of an shm buffer without its `wl_buffer`: a sealed memfd of `ShmBuffer.layout`'s
/// size, mapped read-write. It makes no Wayland request, so it can be made and written on any
/// thread (a frame read from a file straight into it, its pages faulted in there, not on the
/// loop's thread); `ShmBufferPool.adopt` then makes it a buffer.
public final class ShmMemory: @unchecked Sendable {
    // Sendable: its fields never change; its bytes are written by one thread, then handed over.
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (`ShmBuffer.layout`).
    public let stride: Int
    /// The pixels, `stride` bytes a row.
    public let pixels: UnsafeMutableRawPointer
    let byteCount: Int
    let fd: Int32
    /// A buffer took the descriptor and the mapping: they are its to free.
    private var isAdopted = false

    public init(width: Int, height: Int) throws(WaylandError) {
        self.width = width
        self.height = height
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
        pixels = map
    }

    /// Hands the descriptor and the mapping to a buffer (`ShmBuffer`), which frees them.
    func adopt() {
        precondition(!isAdopted, "one buffer per memory")
        isAdopted = true
    }

    deinit {
        guard !isAdopted else { return }
        munmap(pixels, byteCount)
        close(fd)
    }
}
