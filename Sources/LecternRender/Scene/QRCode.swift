import CQRencode

/// A QR code's modules (dark or light), encoded by libqrencode: the standard encoder, with
/// the error correction a phone needs to read it off a screen at arm's length.
public struct QRCode: Equatable, Sendable {
    /// The modules per side.
    public let size: Int
    /// Row by row, `size` × `size`; true is dark.
    public let modules: [Bool]
    /// The text it encodes.
    public let text: String

    /// Encodes `text` (8-bit mode, error correction level M); nil when it is too long for a
    /// QR code or the encoder fails. Corresponding C function: `QRcode_encodeString8bit`.
    public init?(_ text: String) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour (the others say what the module is for).
        modules = (0..<size * size).map { code.pointee.data[$0] & 1 == 1 }
        self.size = size
        self.text = text
    }

    /// Whether the module at (`x`, `y`) is dark.
    public func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }
}
