import CLecternLinux
import Glibc
import LecternLinux

/// Memory shared between the reader and the worker for one tile: a memfd mapped in both, a
/// render cookie at its start (the reader cancels a render by writing to it), the pixels after
/// it. The worker draws into it and lets it go; the reader keeps it as the tile's image. In
/// process (`DirectTransport`) it is memory of this process alone, laid out the same way.
public final class SharedTileBuffer: @unchecked Sendable {
    // Sendable: used by one channel's thread at a time; the mapping lives as long as the object.
    /// Where the pixels start: the cookie's bytes, rounded up to a cache line.
    static let pixelOffset = 256

    /// The memfd (-1 once closed: the mapping stays).
    private(set) var fd: Int32
    let size: Int
    let memory: UnsafeMutableRawPointer

    /// A new buffer of `size` bytes (made by the reader).
    convenience init(size: Int) throws(SystemError) {
        let fd = CLecternLinux_memfd_create("lectern-tiles")
        guard fd >= 0 else { throw SystemError("memfd_create") }
        guard ftruncate(fd, off_t(size)) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SystemError("ftruncate", errno: code)
        }
        try self.init(fd: fd, size: size)
    }

    /// Maps the buffer `fd` (of `size` bytes) the reader sent; the buffer owns `fd`.
    init(fd: Int32, size: Int) throws(SystemError) {
        guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            let code = errno
            Glibc.close(fd)
            throw SystemError("mmap", errno: code)
        }
        self.fd = fd
        self.size = size
        self.memory = memory
        isMapped = true
    }

    /// A buffer of `size` bytes in this process alone (no memfd), for a server in this process.
    init(inProcess size: Int) {
        fd = -1
        self.size = size
        memory = .allocate(byteCount: size, alignment: 64)
        isMapped = false
    }

    /// Whether `memory` is a mapping (else this process's heap).
    private let isMapped: Bool

    var pixels: UnsafeMutableRawPointer { memory + Self.pixelOffset }

    /// Closes the memfd once nothing more is sent: the mapping keeps the memory.
    func closeDescriptor() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit {
        if isMapped { munmap(memory, size) } else { memory.deallocate() }
        if fd >= 0 { Glibc.close(fd) }
    }
}

/// Where one tile is drawn: `buffer` from `offset` on, laid out as a buffer is (a render cookie,
/// then the pixels after `SharedTileBuffer.pixelOffset`). A batch's tiles share the worker
/// channel's buffer, each at its offset.
public struct TileSlot: @unchecked Sendable {
    // Sendable: as its buffer.
    let buffer: SharedTileBuffer
    let offset: Int
    /// The memory is the tile's own, which becomes its image (else the caller copies it out).
    let isOwn: Bool

    /// Where the slot starts: the cookie's bytes.
    var memory: UnsafeMutableRawPointer { buffer.memory + offset }
    var pixels: UnsafeMutableRawPointer { memory + SharedTileBuffer.pixelOffset }

    /// Whether a tile `stride` bytes a row and `height` rows high fits from `offset` on.
    func fits(stride: Int, height: Int) -> Bool {
        offset >= 0 && offset + SharedTileBuffer.pixelOffset + stride * height <= buffer.size
    }
}
