import Foundation
import Glibc
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
        format[8] = 1  // a file of the format before (its checksum in one lane)
        #expect(throws: CachedFrame.Refusal.notAFrame("format 1")) { try CachedFrame(decoding: format, keyPrefix: "") }
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

    @Test("the checksum fed row by row is the checksum of the whole; two words swapped change it")
    func checksumInParts() {
        // 13 rows of 40 bytes (five words: rows start in every lane) and 3 bytes more.
        let bytes = (0..<523).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ $0 >> 3) }
        let whole = CachedFrame.checksum(key: [1, 2, 3], pixels: bytes)
        var hasher = CachedFrame.Hasher64()
        [UInt8]([1, 2, 3]).withUnsafeBytes { hasher.add($0) }
        hasher.end(count: 3)
        bytes.withUnsafeBytes { raw in
            for start in stride(from: 0, to: raw.count, by: 40) {
                hasher.add(UnsafeRawBufferPointer(rebasing: raw[start..<min(start + 40, raw.count)]))
            }
        }
        hasher.end(count: bytes.count)
        #expect(hasher.hash == whole)
        var swapped = bytes
        swapped.replaceSubrange(0..<8, with: bytes[32..<40])
        swapped.replaceSubrange(32..<40, with: bytes[0..<8])
        #expect(CachedFrame.checksum(key: [1, 2, 3], pixels: swapped) != whole)
    }
}

/// The kept frame's file mapped as a frame buffer's memory (`KeptFrame`): the same pixels as
/// written, in the buffer's rows (256 bytes apart), for any width; checked as the file is.
@Suite("Kept frame mapped as a buffer's memory")
struct KeptFrameTests {
    /// A frame of `width` × 3 whose every byte differs from its neighbours, written to a file.
    private func written(width: Int) throws -> (CachedFrame, String) {
        let frame = CachedFrame(
            key: "lectern test\nframe \(width)x3\n", width: width, height: 3,
            pixels: (0..<(width * 12)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 256) })
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-kept-\(UUID()).bin").path
        try Data(frame.encoded()).write(to: URL(fileURLWithPath: path))
        return (frame, path)
    }

    @Test(
        "the pixels come back row by row where the buffer wants them",
        arguments: [3, 64, 70, 1366])
    func rows(width: Int) throws {
        let (frame, path) = try written(width: width)
        defer { unlink(path) }
        let kept = try KeptFrame.read(from: path, keyPrefix: "lectern test\n")
        #expect(kept.key == frame.key && kept.width == width && kept.height == 3)
        #expect(kept.memory.stride % 256 == 0 && kept.memory.stride >= width * 4)
        for row in 0..<3 {
            let bytes = Array(
                UnsafeRawBufferPointer(start: kept.memory.pixels + row * kept.memory.stride, count: width * 4))
            #expect(bytes == Array(frame.pixels[(row * width * 4)..<((row + 1) * width * 4)]), "row \(row)")
        }
    }

    @Test("the frame's memory is the file's own pages, not a copy, and only read here")
    func filePages() throws {
        let (_, path) = try written(width: 64)
        defer { unlink(path) }
        let kept = try KeptFrame.read(from: path, keyPrefix: "lectern test\n")
        #expect(!kept.memory.isWritable)
        // A byte written to the file after the read shows in the frame's memory.
        let fd = open(path, O_WRONLY)
        defer { close(fd) }
        var byte: UInt8 = 0xA5
        #expect(pwrite(fd, &byte, 1, off_t(4096 + kept.memory.stride + 5)) == 1)
        #expect(kept.memory.pixels.load(fromByteOffset: kept.memory.stride + 5, as: UInt8.self) == 0xA5)
    }

    @Test("a changed pixel, another key and a missing file are refused", arguments: [3, 70])
    func refusals(width: Int) throws {
        let (frame, path) = try written(width: width)
        defer { unlink(path) }
        #expect(throws: CachedFrame.Refusal.otherKey) { try KeptFrame.read(from: path, keyPrefix: "lectern other\n") }
        var bytes = frame.encoded()
        bytes[bytes.count - 5] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: CachedFrame.Refusal.corrupt("checksum")) { try KeptFrame.read(from: path, keyPrefix: "") }
        #expect(throws: CachedFrame.Refusal.missing) { try KeptFrame.read(from: path + ".gone", keyPrefix: "") }
    }
}
