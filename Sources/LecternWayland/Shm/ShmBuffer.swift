import CLecternLinux
import CWaylandClient
import Glibc

/// One `wl_buffer` backed by its own sealed memfd, mapped read-write.
///
/// Whether it is busy (attached and not yet released) is the pool's `SwapChainState`;
/// `age`, set when the pool hands the buffer out, counts the frames since its contents
/// were last committed (0: undefined) and drives partial repaint as in foot's `shm.c`.
///
/// Its rows are `stride` bytes apart, a multiple of 256 (`layout`), and its memory a whole
/// number of pages: what a compositor needs to import the memory as a texture (udmabuf, a GPU's
/// host-pointer import) instead of copying it every frame.
public final class ShmBuffer {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next: `width * 4` rounded up to a multiple of 256.
    public let stride: Int
    /// The pixels: premultiplied ARGB32, little endian (B, G, R, A in memory), opaque; the
    /// `wl_buffer` says `format` (`WL_SHM_FORMAT_XRGB8888` or `WL_SHM_FORMAT_ARGB8888`).
    public let pixels: UnsafeMutableRawPointer
    public internal(set) var age = 0
    let byteCount: Int
    let fd: Int32
    /// What this process mapped (`ShmMemory.mapping`): freed with the buffer.
    private let mapping: UnsafeMutableRawPointer
    private let mappingSize: Int
    private(set) var proxy: OpaquePointer?
    weak var pool: ShmBufferPool?
    /// Told when the compositor releases it (a buffer outside a pool: the curtain's).
    var onRelease: (() -> Void)?
    private let listener: Listener<wl_buffer_listener>

    /// The `wl_shm` format of the buffer.
    public let format: UInt32

    convenience init(shm: OpaquePointer, width: Int, height: Int, format: UInt32) throws(WaylandError) {
        self.init(shm: shm, memory: try ShmMemory(width: width, height: height), format: format)
    }

    /// A buffer of `memory` (which it frees).
    init(shm: OpaquePointer, memory: ShmMemory, format: UInt32) {
        memory.adopt()
        self.format = format
        width = memory.width
        height = memory.height
        stride = memory.stride
        byteCount = memory.poolSize - memory.offset
        fd = memory.fd
        pixels = memory.pixels
        mapping = memory.mapping
        mappingSize = memory.poolSize
        let pool = wl_shm_create_pool(shm, fd, Int32(memory.poolSize))
        proxy = wl_shm_pool_create_buffer(
            pool, Int32(memory.offset), Int32(width), Int32(height), Int32(stride), format)
        // The buffer keeps the memory alive; the pool object is not needed any more.
        wl_shm_pool_destroy(pool)
        listener = Listener(
            wl_buffer_listener(release: { data, _ in
                guard let data else { return }
                Unmanaged<ShmBuffer>.fromOpaque(data).takeUnretainedValue().didRelease()
            }))
        wl_buffer_add_listener(proxy, listener.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// A buffer of `memory` outside any pool (a file's frame, `ShmMemory.init(file:…)`, which is
    /// never drawn into): it keeps itself until the compositor releases it, then is destroyed.
    public static func standalone(shm: OpaquePointer, memory: ShmMemory, format: UInt32) -> ShmBuffer {
        let buffer = ShmBuffer(shm: shm, memory: memory, format: format)
        buffer.onRelease = {
            buffer.onRelease = nil
            buffer.destroy()
        }
        return buffer
    }

    /// The row alignment, in bytes, that lets GPUs import the memory (256: every common
    /// texture pitch alignment divides it).
    public static let rowAlignment = 256

    /// The stride of a `width`-pixel ARGB32 buffer (`width * 4` rounded up to `rowAlignment`)
    /// and the size of its memory (`stride * height` rounded up to whole pages of `pageSize`).
    public static func layout(
        width: Int, height: Int, pageSize: Int = Int(sysconf(Int32(_SC_PAGESIZE)))
    ) -> (stride: Int, byteCount: Int) {
        func roundedUp(_ value: Int, to multiple: Int) -> Int { (value + multiple - 1) / multiple * multiple }
        let stride = roundedUp(width * 4, to: rowAlignment)
        return (stride, roundedUp(stride * height, to: max(1, pageSize)))
    }

    /// The `wl_buffer` proxy to attach.
    var wlBuffer: OpaquePointer? { proxy }

    /// Faults in every page of the pixels, so that the first frame drawn into this buffer does
    /// not: in one call (`MADV_POPULATE_WRITE`), about 30 % less CPU than writing every byte, as
    /// this did (1280×720: 2.0 against 2.8 ms). The pixels stay as they are.
    public func prefault() {
        _ = CLecternLinux_populate_write(pixels, byteCount)
    }

    private func didRelease() {
        pool?.bufferReleased(self)
        onRelease?()
    }

    /// Destroys the proxy and unmaps the memory. Only for a buffer that is not busy.
    func destroy() {
        guard let proxy else { return }
        wl_buffer_destroy(proxy)
        self.proxy = nil
        munmap(mapping, mappingSize)
        close(fd)
    }

    deinit {
        destroy()
    }
}
