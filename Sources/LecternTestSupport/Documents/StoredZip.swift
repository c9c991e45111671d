import Foundation

/// A zip archive written with every entry stored (not compressed), for tests and benchmarks that
/// need an EPUB or a comic book archive without a fixture file. Entries keep the order given (an
/// EPUB's `mimetype` must come first).
public struct StoredZip: Sendable {
    public private(set) var entries: [(name: String, data: [UInt8])] = []

    public init() {}

    public mutating func add(_ name: String, _ text: String) { add(name, Array(text.utf8)) }

    public mutating func add(_ name: String, _ data: [UInt8]) { entries.append((name, data)) }

    /// The archive: a local header and the data of each entry, then the central directory.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for (name, data) in entries {
            let offset = out.count
            let crc = CRC32.checksum(data)
            let nameBytes = Array(name.utf8)
            // Local file header: version 10, no flags, stored, no time, CRC, sizes, name.
            out += le32(0x0403_4B50) + le16(10) + le16(0) + le16(0) + le16(0) + le16(0x21)
            out += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count))
            out += le16(UInt16(nameBytes.count)) + le16(0) + nameBytes + data
            central += le32(0x0201_4B50) + le16(20) + le16(10) + le16(0) + le16(0) + le16(0) + le16(0x21)
            central += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count))
            central += le16(UInt16(nameBytes.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0)
            central += le32(UInt32(offset)) + nameBytes
        }
        let directory = out.count
        out += central
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(central.count)) + le32(UInt32(directory)) + le16(0)
        return out
    }

    public func write(to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

/// CRC-32 (ISO 3309, as zip and PNG use it).
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return ~c
    }
}

func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

func be32(_ value: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) } }
