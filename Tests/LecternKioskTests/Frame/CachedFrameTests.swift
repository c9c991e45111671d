import Testing

@testable import LecternKiosk

/// The kept first frame's file (`CachedFrame`): read back whole, refused for another key, and
/// checked rather than trusted.
@Suite("Kept frame file")
struct CachedFrameTests {
    static let frame = CachedFrame(
        key: "lectern test\nframe 3x2 scale 120/120\n", width: 3, height: 2, pixels: (0..<24).map { UInt8($0 * 7) })

    @Test("a frame reads back as it was written, for a key it starts with")
    func roundTrip() throws {
        let read = try CachedFrame(decoding: Self.frame.encoded(), keyPrefix: "lectern test\n")
        #expect(read == Self.frame)
    }

    @Test("another key, another format, a wrong length or a changed byte is refused")
    func refusals() {
        let bytes = Self.frame.encoded()
        #expect(throws: CachedFrame.Refusal.otherKey) { try CachedFrame(decoding: bytes, keyPrefix: "lectern other\n") }
        var format = bytes
        format[8] = 2
        #expect(throws: CachedFrame.Refusal.notAFrame("format 2")) { try CachedFrame(decoding: format, keyPrefix: "") }
        #expect(throws: CachedFrame.Refusal.notAFrame("empty")) { try CachedFrame(decoding: [], keyPrefix: "") }
        #expect(throws: CachedFrame.Refusal.corrupt("\(bytes.count - 1) bytes for a 3x2 frame")) {
            try CachedFrame(decoding: Array(bytes.dropLast()), keyPrefix: "")
        }
        for index in CachedFrame.headerSize..<bytes.count {
            var changed = bytes
            changed[index] ^= 1
            #expect(throws: (any Error).self) { try CachedFrame(decoding: changed, keyPrefix: "") }
        }
    }
}
