import LecternTestSupport
import Testing

/// The frame buffers' rows are 256 bytes apart (issue 33, item 2): a window whose width is not a
/// multiple of 64 pixels gets padded rows, and the picture is still drawn row by row at the
/// stride the buffer says, not sheared.
@Suite("Frame buffer layout", .serialized)
struct FrameBufferLayoutTests {
    @Test("a 1000-pixel-wide window: 4096-byte rows, the page centred with background at both edges")
    func paddedRows() throws {
        let lectern = try KioskHarness(
            [LecternHarness.fixture("colors-8pages.pdf"), "--no-accessibility-button"], width: 1000, height: 700)
        defer { try? lectern.stop() }
        #expect(lectern.settle())
        let frame = try #require(lectern.lastCommit)
        #expect(frame.width == 1000)
        #expect(frame.bufferStride == 4096)
        let background = frame.pixel(x: 0, y: frame.height / 2)
        for y in stride(from: 0, to: frame.height, by: 7) {
            #expect(frame.pixel(x: 0, y: y) == background, "left edge, row \(y)")
            #expect(frame.pixel(x: frame.width - 1, y: y) == background, "right edge, row \(y)")
        }
        #expect(frame.pixel(x: frame.width / 2, y: frame.height / 2) != background, "the page is in the middle")
    }
}
