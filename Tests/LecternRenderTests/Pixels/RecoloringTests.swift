import LecternCore
import LecternRender
import Testing

/// How each contrast mode maps a tile's pixels (opaque BGRA as MuPDF draws them, read here as
/// 0xAARRGGBB words), and the boxes it leaves alone.
@Suite("Recolouring")
struct RecoloringTests {
    static let white: UInt32 = 0xFFFF_FFFF, black: UInt32 = 0xFF00_0000
    static let darkBlue: UInt32 = 0xFF20_3090, red: UInt32 = 0xFFFF_0000

    /// `pixels` (one row) recoloured in `contrast`, keeping `kept`.
    static func recolored(_ pixels: [UInt32], _ contrast: Contrast, keeping kept: [PixelBox] = []) -> [UInt32] {
        var row = pixels
        row.withUnsafeMutableBytes { bytes in
            contrast.recolor(
                bytes.baseAddress!, width: pixels.count, height: 1, stride: pixels.count * 4, keeping: kept)
        }
        return row
    }

    @Test("normal leaves every pixel as it is")
    func normal() {
        let pixels = [Self.white, Self.black, Self.darkBlue]
        #expect(Self.recolored(pixels, .normal) == pixels)
    }

    @Test("invert turns lightness over and keeps the hue: white to black, dark blue to light blue, red stays red")
    func invert() {
        #expect(
            Self.recolored([Self.white, Self.black, Self.darkBlue, Self.red], Contrast(.invert))
                == [Self.black, Self.white, 0xFF6F_7FDF, Self.red])
    }

    @Test("high contrast: two tones, and a pale stroke's coverage thickened to ink")
    func high() {
        // Luminance 191: a quarter covered by ink, as a hairline drawn antialiased is.
        let paleGrey: UInt32 = 0xFFBF_BFBF, faint: UInt32 = 0xFFF8_F8F8
        #expect(
            Self.recolored([Self.white, Self.black, paleGrey, faint, Self.darkBlue], Contrast(.high))
                == [Self.white, Self.black, Self.black, Self.white, Self.black])
    }

    @Test("yellow on black: paper black, ink yellow, greys between")
    func yellowOnBlack() {
        let mid: UInt32 = 0xFF80_8080
        let result = Self.recolored([Self.white, Self.black, mid], Contrast(.yellowOnBlack))
        #expect(result[0] == Self.black && result[1] == 0xFFFF_FF00)
        #expect(result[2] & 0xFF == 0 && result[2] >> 16 & 0xFF == result[2] >> 8 & 0xFF, "a darker yellow")
    }

    @Test("the kept boxes (a page's images) keep their colours; overlapping boxes too")
    func kept() {
        let pixels = [UInt32](repeating: Self.white, count: 10)
        let kept = [PixelBox(x: 2, y: 0, width: 3, height: 1), PixelBox(x: 4, y: 0, width: 2, height: 1)]
        let result = Self.recolored(pixels, Contrast(.invert), keeping: kept)
        #expect(
            result == [Self.black, Self.black] + Array(repeating: Self.white, count: 4)
                + Array(repeating: Self.black, count: 4))
    }

    @Test("a long row, paper eight pixels at a time and ink between, maps as pixel by pixel")
    func longRows() {
        // Whites in runs of every length around eight, other colours between, an odd tail.
        var pixels: [UInt32] = []
        for run in 1...19 {
            pixels += Array(repeating: Self.white, count: run)
            pixels += [Self.black, Self.darkBlue, Self.darkBlue][..<(run % 3 + 1)]
        }
        for mode in [Contrast.Mode.invert, .high, .yellowOnBlack] {
            let contrast = Contrast(mode)
            let one = pixels.map { Self.recolored([$0], contrast)[0] }
            #expect(Self.recolored(pixels, contrast) == one, "\(mode)")
        }
    }
}
