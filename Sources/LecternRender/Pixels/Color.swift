import CPixman

/// A colour as 8-bit straight RGBA, convertible to pixman's 16-bit premultiplied form.
public struct Color: Equatable, Sendable {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// From 0xRRGGBB.
    public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(red: UInt8(rgb >> 16 & 0xFF), green: UInt8(rgb >> 8 & 0xFF), blue: UInt8(rgb & 0xFF), alpha: alpha)
    }

    /// 0xAARRGGBB premultiplied, as it sits in an a8r8g8b8 buffer.
    public var argb: UInt32 {
        let a = UInt32(alpha)
        func pre(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
        return a << 24 | pre(red) << 16 | pre(green) << 8 | pre(blue)
    }

    var pixman: pixman_color_t {
        let a = UInt32(alpha)
        func pre(_ c: UInt8) -> UInt16 { UInt16((UInt32(c) * a + 127) / 255 * 257) }
        return pixman_color_t(red: pre(red), green: pre(green), blue: pre(blue), alpha: UInt16(a * 257))
    }

    public static let background = Color(rgb: 0x2B2F36)
    public static let pageShadow = Color(red: 0, green: 0, blue: 0, alpha: 90)
    public static let text = Color(rgb: 0xF2F2F2)
    public static let secondaryText = Color(rgb: 0xB8BEC8)
    public static let errorCard = Color(rgb: 0x3A3F48)
    public static let errorAccent = Color(rgb: 0xE5A50A)
    public static let banner = Color(rgb: 0x5C3D00, alpha: 235)
}

extension Color {
    /// The title bar's and scrubber's ground: solid, the same as the thumbnail bar's between
    /// them, so the chrome reads as one thing over any page.
    public static let chrome = Color(rgb: 0x1B1E23)

    public func withAlpha(_ alpha: UInt8) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }
}
