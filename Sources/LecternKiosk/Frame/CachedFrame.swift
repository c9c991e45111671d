import Glibc
import LecternLinux
import LecternWayland

/// A frame kept on disk for the next start (`FirstFrame`), and its file's format, checked
/// field by field when read: a file of another format, for another key, of the wrong length
/// or whose checksum does not match is refused, never shown.
///
/// The file, little-endian: the magic `LCTNFRM1`; the format (UInt32, 3); the key's length,
/// the width and the height in pixels (UInt32 each); the checksum (UInt64) of the key and the
/// pixel rows; the key (UTF-8); zeros to the next 4 KiB; the pixels, XRGB8888, rows `stride`
/// bytes apart as a frame buffer's (`ShmBuffer.layout`), padded with zeros. The pixels are laid
/// out as a `wl_shm` buffer wants them: the next start hands the file itself to the compositor
/// (`KeptFrame`), with nothing copied.
struct CachedFrame: Equatable {
    /// What the frame shows, as `FirstFrameKey.text` says it.
    var key: String
    var width: Int
    var height: Int
    /// `width` × `height` × 4 bytes.
    var pixels: [UInt8]

    static let magic = Array("LCTNFRM1".utf8)
    /// 3: the pixels page-aligned in a buffer's rows (2: rows without padding after the key; 1:
    /// the checksum in one lane).
    static let format: UInt32 = 3
    static let headerSize = 8 + 4 * 4 + 8
    /// The largest file written or read: a 4K screen's frame (33 MB) and its key fit; a larger
    /// screen's first frame is not kept.
    static let maximumBytes = 40 << 20

    /// Why a file is not used.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case missing
        case unreadable(String)
        case notAFrame(String)
        case otherKey
        case corrupt(String)

        var description: String {
            switch self {
            case .missing: "no frame kept"
            case .unreadable(let reason): "cannot read the kept frame: \(reason)"
            case .notAFrame(let reason): "not a kept frame (\(reason))"
            case .otherKey: "kept for another document, version, setting or screen"
            case .corrupt(let reason): "corrupt (\(reason))"
            }
        }
    }

    /// Where a file's pixels start (after the header and a key of `keyLength` bytes, at a page
    /// boundary), the bytes from one row to the next, and the file's size.
    static func layout(width: Int, height: Int, keyLength: Int) -> (pixelOffset: Int, stride: Int, size: Int) {
        let pixelOffset = (headerSize + keyLength + 4095) / 4096 * 4096
        let stride = ShmBuffer.layout(width: width, height: height, pageSize: 1).stride
        return (pixelOffset, stride, pixelOffset + stride * height)
    }

    /// The file's bytes.
    func encoded() -> [UInt8] {
        let keyBytes = Array(key.utf8)
        let (pixelOffset, stride, size) = Self.layout(width: width, height: height, keyLength: keyBytes.count)
        var rows = [UInt8](repeating: 0, count: stride * height)
        for row in 0..<height {
            rows.replaceSubrange(
                (row * stride)..<(row * stride + width * 4), with: pixels[(row * width * 4)..<((row + 1) * width * 4)])
        }
        var bytes = Self.magic
        bytes.reserveCapacity(size)
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        put(Self.format)
        put(UInt32(keyBytes.count))
        put(UInt32(width))
        put(UInt32(height))
        put(Self.checksum(key: keyBytes, pixels: rows))
        bytes += keyBytes
        bytes += [UInt8](repeating: 0, count: pixelOffset - bytes.count)
        bytes += rows
        return bytes
    }

    /// The frame in `bytes` (a whole file), if it is one kept for a key that starts with
    /// `keyPrefix` (the rest says the frame's size: `FirstFrame.frameLine`).
    init(decoding bytes: [UInt8], keyPrefix: String) throws(Refusal) {
        try self.init(size: bytes.count, keyPrefix: keyPrefix) { count, offset in
            Array(bytes[min(offset, bytes.count)..<min(offset + count, bytes.count)])
        }
    }

    /// What a file's header and key say, checked: the frame's size, the key, the checksum and
    /// where the pixel rows start and how far apart they are.
    struct Header {
        var key: [UInt8]
        var width: Int
        var height: Int
        var checksum: UInt64
        var pixelOffset: Int
        var stride: Int
        /// The rows, padding included: what the checksum covers.
        var pixelBytes: Int { stride * height }
    }

    /// The header and key of a file of `size` bytes read with `read(count, offset)`, each
    /// checked before the next part is read.
    static func header(
        size: Int, keyPrefix: String, read: (_ count: Int, _ offset: Int) throws(Refusal) -> [UInt8]
    ) throws(Refusal) -> Header {
        let header = try read(Self.headerSize, 0)
        guard header.count == Self.headerSize, Array(header[0..<8]) == Self.magic else {
            throw .notAFrame(size == 0 ? "empty" : "no magic")
        }
        func number(at offset: Int, bytes count: Int = 4) -> UInt64 {
            header[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard number(at: 8) == Self.format else { throw .notAFrame("format \(number(at: 8))") }
        let keyLength = Int(number(at: 12))
        let width = Int(number(at: 16))
        let height = Int(number(at: 20))
        // Sizes no screen has are refused before they are multiplied (and could overflow).
        guard (1...32768).contains(width), (1...32768).contains(height), keyLength <= size else {
            throw .corrupt("a \(width)x\(height) frame with a key of \(keyLength) bytes")
        }
        let layout = Self.layout(width: width, height: height, keyLength: keyLength)
        guard layout.size == size else {
            throw .corrupt("\(size) bytes for a \(width)x\(height) frame")
        }
        // The key and the zeros after it, up to the pixels: one read, every byte checked.
        let keyAndZeros = try read(layout.pixelOffset - Self.headerSize, Self.headerSize)
        guard keyAndZeros.count == layout.pixelOffset - Self.headerSize else { throw .corrupt("short read") }
        let keyBytes = Array(keyAndZeros[..<keyLength])
        let prefix = Array(keyPrefix.utf8)
        guard keyBytes.count >= prefix.count, Array(keyBytes[..<prefix.count]) == prefix else { throw .otherKey }
        guard keyAndZeros[keyLength...].allSatisfy({ $0 == 0 }) else { throw .corrupt("not zeros after the key") }
        return Header(
            key: keyBytes, width: width, height: height, checksum: number(at: 24, bytes: 8),
            pixelOffset: layout.pixelOffset, stride: layout.stride)
    }

    /// The frame in a file of `size` bytes, read part by part with `read(count, offset)`: the
    /// header, the key, then the pixels, each checked before the next is read.
    private init(
        size: Int, keyPrefix: String, read: (_ count: Int, _ offset: Int) throws(Refusal) -> [UInt8]
    ) throws(Refusal) {
        let header = try Self.header(size: size, keyPrefix: keyPrefix, read: read)
        let rows = try read(header.pixelBytes, header.pixelOffset)
        guard Self.checksum(key: header.key, pixels: rows) == header.checksum else { throw .corrupt("checksum") }
        let rowBytes = header.width * 4
        self.init(
            key: String(decoding: header.key, as: UTF8.self), width: header.width, height: header.height,
            pixels: (0..<header.height).flatMap { rows[($0 * header.stride)..<($0 * header.stride + rowBytes)] })
    }

    init(key: String, width: Int, height: Int, pixels: [UInt8]) {
        self.key = key
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A checksum of the key and the pixels, eight bytes at a time in four lanes (a frame of a
    /// 1080p screen is checked in about a quarter of a millisecond): any one changed word changes
    /// it.
    static func checksum(key: [UInt8], pixels: [UInt8]) -> UInt64 {
        var hasher = Hasher64()
        for bytes in [key, pixels] {
            bytes.withUnsafeBytes { hasher.add($0) }
            hasher.end(count: bytes.count)
        }
        return hasher.hash
    }

    /// `checksum(key:pixels:)`'s arithmetic, fed in parts: each part but a stream's last a
    /// multiple of eight bytes (so that a frame's rows, apart in memory, hash as one stream).
    /// FNV-1a on 64-bit words, the words dealt in turn to four lanes: four multiplications
    /// that do not wait for each other (one lane waits for its last, three cycles, per word).
    /// `end(count:)` folds the lanes and the stream's length into the hash.
    struct Hasher64 {
        private static let prime: UInt64 = 0x0000_0100_0000_01B3
        private static let basis: UInt64 = 0xCBF2_9CE4_8422_2325
        private(set) var hash: UInt64 = Self.basis
        private var lanes: (UInt64, UInt64, UInt64, UInt64) = Self.freshLanes
        /// The lane of the stream's next word.
        private var next = 0

        private static let freshLanes: (UInt64, UInt64, UInt64, UInt64) = (basis, basis ^ 1, basis ^ 2, basis ^ 3)

        mutating func add(_ raw: UnsafeRawBufferPointer) {
            let words = raw.count / 8
            var index = 0
            func word(_ index: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
            // Word by word to lane 0, then four at a time, then the rest word by word.
            while index < words, next != 0 {
                addWord(word(index))
                index += 1
            }
            var (a, b, c, d) = lanes
            while index + 4 <= words {
                a = (a ^ word(index)) &* Self.prime
                b = (b ^ word(index + 1)) &* Self.prime
                c = (c ^ word(index + 2)) &* Self.prime
                d = (d ^ word(index + 3)) &* Self.prime
                index += 4
            }
            lanes = (a, b, c, d)
            while index < words {
                addWord(word(index))
                index += 1
            }
            // A stream's last bytes, one at a time, each to the next lane.
            for offset in (words * 8)..<raw.count { addWord(UInt64(raw[offset])) }
        }

        private mutating func addWord(_ value: UInt64) {
            switch next {
            case 0: lanes.0 = (lanes.0 ^ value) &* Self.prime
            case 1: lanes.1 = (lanes.1 ^ value) &* Self.prime
            case 2: lanes.2 = (lanes.2 ^ value) &* Self.prime
            default: lanes.3 = (lanes.3 ^ value) &* Self.prime
            }
            next = (next + 1) % 4
        }

        /// A stream of `count` bytes ended.
        mutating func end(count: Int) {
            for value in [lanes.0, lanes.1, lanes.2, lanes.3, UInt64(count)] {
                hash = (hash ^ value) &* Self.prime
            }
            lanes = Self.freshLanes
            next = 0
        }
    }
}
