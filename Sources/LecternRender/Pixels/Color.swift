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
}

extension Color {
    public func withAlpha(_ alpha: UInt8) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }
}
