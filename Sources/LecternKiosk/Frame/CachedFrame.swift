import Glibc
import LecternLinux

/// A frame kept on disk for the next start (`FirstFrame`), and its file's format, checked
/// field by field when read: a file of another format, for another key, of the wrong length
/// or whose checksum does not match is refused, never shown.
///
/// The file, little-endian: the magic `LCTNFRM1`; the format (UInt32, 1); the key's length,
/// the width and the height in pixels (UInt32 each); the checksum (UInt64) of the key and the
/// pixels; the key (UTF-8); the pixels, XRGB8888, rows of `width` pixels without padding.
struct CachedFrame: Equatable {
    /// What the frame shows, as `FirstFrameKey.text` says it.
    var key: String
    var width: Int
    var height: Int
    /// `width` × `height` × 4 bytes.
    var pixels: [UInt8]

    static let magic = Array("LCTNFRM1".utf8)
    static let format: UInt32 = 1
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

    /// The file's bytes.
    func encoded() -> [UInt8] {
        let keyBytes = Array(key.utf8)
        var bytes = Self.magic
        bytes.reserveCapacity(Self.headerSize + keyBytes.count + pixels.count)
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        put(Self.format)
        put(UInt32(keyBytes.count))
        put(UInt32(width))
        put(UInt32(height))
        put(Self.checksum(key: keyBytes, pixels: pixels))
        bytes += keyBytes
        bytes += pixels
        return bytes
    }

    /// The frame in `bytes` (a whole file), if it is one kept for a key that starts with
    /// `keyPrefix` (the rest says the frame's size: `FirstFrame.frameLine`).
    init(decoding bytes: [UInt8], keyPrefix: String) throws(Refusal) {
        try self.init(size: bytes.count, keyPrefix: keyPrefix) { count, offset in
            Array(bytes[min(offset, bytes.count)..<min(offset + count, bytes.count)])
        }
    }

    /// The frame in a file of `size` bytes, read part by part with `read(count, offset)`: the
    /// header, the key, then the pixels, each checked before the next is read.
    private init(
        size: Int, keyPrefix: String, read: (_ count: Int, _ offset: Int) throws(Refusal) -> [UInt8]
    ) throws(Refusal) {
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
        let checksum = number(at: 24, bytes: 8)
        let pixelBytes = width * height * 4
        guard width > 0, height > 0, Self.headerSize + keyLength + pixelBytes == size else {
            throw .corrupt("\(size) bytes for a \(width)x\(height) frame")
        }
        let keyBytes = try read(keyLength, Self.headerSize)
        let prefix = Array(keyPrefix.utf8)
        guard keyBytes.count >= prefix.count, Array(keyBytes[..<prefix.count]) == prefix else { throw .otherKey }
        let pixels = try read(pixelBytes, Self.headerSize + keyLength)
        guard Self.checksum(key: keyBytes, pixels: pixels) == checksum else { throw .corrupt("checksum") }
        self.init(key: String(decoding: keyBytes, as: UTF8.self), width: width, height: height, pixels: pixels)
    }

    init(key: String, width: Int, height: Int, pixels: [UInt8]) {
        self.key = key
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The frame kept at `path` for a key that starts with `keyPrefix`. Files larger than
    /// `maximumBytes` are not read.
    static func read(from path: String, keyPrefix: String) throws(Refusal) -> CachedFrame {
        let file: ReadOnlyFile
        let size: Int64
        do throws(SystemError) {
            file = try ReadOnlyFile(path: path)
            size = try file.identity().size
        } catch {
            throw error.code == ENOENT ? .missing : .unreadable(error.description)
        }
        guard size <= maximumBytes else { throw .notAFrame("\(size) bytes") }
        // Each part straight into its array: a frame's megabytes are neither zeroed first nor
        // copied out of the file's bytes.
        return try CachedFrame(size: Int(size), keyPrefix: keyPrefix) { count, offset throws(Refusal) in
            var failure: SystemError?
            let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                do throws(SystemError) {
                    initialized = try file.read(into: UnsafeMutableRawBufferPointer(buffer), at: Int64(offset))
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            if let failure { throw .unreadable(failure.description) }
            return bytes
        }
    }

    /// A checksum of the key and the pixels, eight bytes at a time (a frame of a 1080p screen is
    /// checked in about a millisecond): any one changed word changes it.
    static func checksum(key: [UInt8], pixels: [UInt8]) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for bytes in [key, pixels] {
            bytes.withUnsafeBytes { raw in
                let words = raw.count / 8
                for index in 0..<words {
                    hash = (hash ^ raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* prime
                }
                for index in (words * 8)..<raw.count { hash = (hash ^ UInt64(raw[index])) &* prime }
            }
            hash = (hash ^ UInt64(bytes.count)) &* prime
        }
        return hash
    }
}
