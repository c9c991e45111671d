import LecternCore

/// A message that does not decode (a bug, or a child process that is not ours).
public struct WireError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = "worker message: \(description)" }
    /// A request the other side answered with a failure: `reason` as it said it.
    public init(failure reason: String) { description = reason }
}

/// Appends fixed-size little-endian fields and length-prefixed strings: the messages between
/// the reader and its child processes (the render worker, speech).
public struct WireWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func put(_ value: UInt8) { bytes.append(value) }
    /// A message's tag: its byte.
    public mutating func put<Tag: RawRepresentable>(_ tag: Tag) where Tag.RawValue == UInt8 {
        bytes.append(tag.rawValue)
    }
    public mutating func put(_ value: Bool) { bytes.append(value ? 1 : 0) }
    public mutating func put(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }
    public mutating func put(_ value: Double) { put(Int(Int64(bitPattern: value.bitPattern))) }
    public mutating func put(_ value: String) {
        put(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }
    public mutating func put(_ rect: Rect) {
        for value in [rect.minX, rect.minY, rect.width, rect.height] { put(value) }
    }
}

/// Reads what `WireWriter` wrote, checking every length against what is left.
public struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public mutating func byte() throws(WireError) -> UInt8 {
        guard offset < bytes.count else { throw WireError("truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }
    public mutating func bool() throws(WireError) -> Bool { try byte() != 0 }
    public mutating func int() throws(WireError) -> Int {
        guard offset + 8 <= bytes.count else { throw WireError("truncated") }
        var value: Int64 = 0
        for index in 0..<8 { value |= Int64(bytes[offset + index]) << (8 * index) }
        offset += 8
        return Int(value)
    }
    /// A count of items that follow (each at least one byte).
    public mutating func count() throws(WireError) -> Int {
        let value = try int()
        guard value >= 0, value <= bytes.count - offset else { throw WireError("bad count \(value)") }
        return value
    }
    public mutating func double() throws(WireError) -> Double {
        Double(bitPattern: UInt64(bitPattern: Int64(try int())))
    }
    public mutating func string() throws(WireError) -> String {
        let length = try count()
        defer { offset += length }
        return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
    }
    public mutating func rect() throws(WireError) -> Rect {
        Rect(x: try double(), y: try double(), width: try double(), height: try double())
    }
}
