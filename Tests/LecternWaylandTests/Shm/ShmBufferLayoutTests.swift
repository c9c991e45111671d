import LecternWayland
import Testing

@Suite("Shm buffer layout")
struct ShmBufferLayoutTests {
    @Test("rows are a multiple of 256 bytes apart, at least width × 4")
    func strideAlignment() {
        #expect(ShmBuffer.layout(width: 1, height: 1, pageSize: 4096).stride == 256)
        #expect(ShmBuffer.layout(width: 64, height: 1, pageSize: 4096).stride == 256)
        #expect(ShmBuffer.layout(width: 65, height: 1, pageSize: 4096).stride == 512)
        #expect(ShmBuffer.layout(width: 1366, height: 768, pageSize: 4096).stride == 5632)
        #expect(ShmBuffer.layout(width: 1920, height: 1080, pageSize: 4096).stride == 7680)
    }

    @Test("the memory is a whole number of pages, and holds every row")
    func pageAlignedSize() {
        #expect(ShmBuffer.layout(width: 1, height: 1, pageSize: 4096).byteCount == 4096)
        #expect(ShmBuffer.layout(width: 1920, height: 1080, pageSize: 4096).byteCount == 7680 * 1080)
        let odd = ShmBuffer.layout(width: 1366, height: 769, pageSize: 16384)
        #expect(odd.byteCount % 16384 == 0)
        #expect(odd.byteCount >= 5632 * 769 && odd.byteCount < 5632 * 769 + 16384)
    }
}
