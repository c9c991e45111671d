import LecternCore
import LecternRender
import Testing

/// The palettes the contrast modes choose for the chrome (their pixels on screen are tested in
/// LecternKioskTests' ContrastTests).
@Suite("Palettes")
struct PaletteTests {
    @Test("each mode's chrome text and typed text stand out from their ground")
    func palettes() {
        for mode in Contrast.Mode.allCases {
            let palette = Palette(Contrast(mode))
            func luminance(_ color: Color) -> Double {
                0.2126 * Double(color.red) + 0.7152 * Double(color.green) + 0.0722 * Double(color.blue)
            }
            #expect(abs(luminance(palette.text) - luminance(palette.chrome)) > 150, "\(mode): text on the chrome")
            #expect(abs(luminance(palette.fieldText) - luminance(palette.field)) > 150, "\(mode): a field")
        }
        #expect(Palette(Contrast(.yellowOnBlack)).text == Color(rgb: 0xFFFF00))
        #expect(Palette(Contrast(.high)).chrome == Color(rgb: 0x000000))
    }
}
