import Glibc
import LecternCore

/// How a contrast mode maps a rendered page's pixels, once, when its tile is drawn (so a cached
/// tile costs nothing more per frame). Pixels are opaque BGRA as MuPDF draws a page.
extension Contrast {
    /// The gamma that thickens thin strokes in `.high`: the ink's antialiased coverage c becomes
    /// c^(1/gamma) before the two tones are chosen, so a stroke a quarter of a pixel wide is drawn
    /// as ink, not as a pale grey that the two tones would turn to paper (zathura's recolouring
    /// with a darkening gamma).
    public static let strokeGamma = 3.0

    /// What the paper of a page is drawn in: what white maps to.
    public var paper: Color {
        switch mode {
        case .normal, .high: Color(rgb: 0xFFFFFF)
        case .invert, .yellowOnBlack: Color(rgb: 0x000000)
        }
    }

    /// What black ink is drawn in.
    public var ink: Color {
        switch mode {
        case .normal, .high: Color(rgb: 0x000000)
        case .invert: Color(rgb: 0xFFFFFF)
        case .yellowOnBlack: Color(rgb: 0xFFFF00)
        }
    }

    /// Recolours `width` × `height` pixels at `pixels` (`stride` bytes a row), except those in
    /// `kept` (the page's images, left in their own colours).
    public func recolor(
        _ pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, keeping kept: [PixelBox] = []
    ) {
        guard mode != .normal, width > 0, height > 0 else { return }
        let table = mode == .invert ? nil : luminanceTable()
        let bounds = PixelBox(x: 0, y: 0, width: width, height: height)
        let kept = kept.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        if kept.isEmpty, stride == width * 4 {
            // Rows end to end, nothing kept: one run over all the pixels.
            let all = pixels.assumingMemoryBound(to: UInt32.self)
            if let table {
                Self.map(all, count: width * height, through: table)
            } else {
                Self.turnLightness(all, count: width * height)
            }
            return
        }
        for y in 0..<height {
            let row = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            for span in Self.spans(ofRow: y, width: width, outside: kept) {
                if let table {
                    Self.map(row + span.lowerBound, count: span.count, through: table)
                } else {
                    Self.turnLightness(row + span.lowerBound, count: span.count)
                }
            }
        }
    }

    /// The x ranges of row `y` outside every box of `kept`.
    static func spans(ofRow y: Int, width: Int, outside kept: [PixelBox]) -> [Range<Int>] {
        let cuts = kept.filter { y >= $0.y && y < $0.maxY }.map { $0.x..<$0.maxX }.sorted {
            $0.lowerBound < $1.lowerBound
        }
        guard !cuts.isEmpty else { return [0..<width] }
        var spans: [Range<Int>] = []
        var x = 0
        for cut in cuts {
            if cut.lowerBound > x { spans.append(x..<cut.lowerBound) }
            x = max(x, cut.upperBound)
        }
        if x < width { spans.append(x..<width) }
        return spans
    }

    /// The pixel each luminance (0 black … 255 white) becomes: paper for white, ink for black,
    /// blended between; in `.high` the ink's coverage thickened and pushed to two tones.
    func luminanceTable() -> [UInt32] {
        let paper = self.paper, ink = self.ink
        return (0..<256).map { luminance in
            var coverage = 1 - Double(luminance) / 255
            if mode == .high {
                coverage = pow(coverage, 1 / Self.strokeGamma)
                // Two tones: a steep ramp around the middle keeps only a pixel of antialiasing.
                coverage = min(1, max(0, (coverage - 0.5) * 4 + 0.5))
            }
            func blend(_ p: UInt8, _ i: UInt8) -> UInt32 {
                UInt32((Double(p) + (Double(i) - Double(p)) * coverage).rounded())
            }
            return 0xFF00_0000 | blend(paper.red, ink.red) << 16 | blend(paper.green, ink.green) << 8
                | blend(paper.blue, ink.blue)
        }
    }

    /// Maps `count` pixels through `table` by their luminance (Rec. 601 weights in 8 bits).
    private static func map(_ pixels: UnsafeMutablePointer<UInt32>, count: Int, through table: [UInt32]) {
        table.withUnsafeBufferPointer { table in
            mapEach(pixels, count: count, white: table[255]) { eight in
                let luminance =
                    ((eight &>> 16 & 0xFF) &* 77 &+ (eight &>> 8 & 0xFF) &* 150 &+ (eight & 0xFF) &* 29) &>> 8
                var mapped = SIMD8<UInt32>()
                for lane in 0..<8 { mapped[lane] = table[Int(luminance[lane])] }
                return mapped
            }
        }
    }

    /// Turns each pixel's lightness over (HSL: L becomes 1 - L) and keeps its hue and saturation:
    /// every channel moves by the same 255 - max - min. White becomes black, black white, pure red
    /// stays red, dark blue becomes light blue.
    private static func turnLightness(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        mapEach(pixels, count: count, white: 0xFF00_0000) { eight in
            let r = eight &>> 16 & 0xFF, g = eight &>> 8 & 0xFF, b = eight & 0xFF
            let high = pointwiseMax(pointwiseMax(r, g), b), low = pointwiseMin(pointwiseMin(r, g), b)
            // 255 - max - min, added to each channel, in 32-bit lanes (wrapping: a negative shift
            // is its two's complement, and every channel stays within 0…255).
            let shift = 255 &- high &- low
            return 0xFF00_0000 | (r &+ shift) &<< 16 | (g &+ shift) &<< 8 | (b &+ shift)
        }
    }

    /// Replaces each of `count` pixels with `map` of it, eight at a time, where white becomes
    /// `white`: a page is mostly paper, and sixteen white pixels are recognised (and, unless
    /// white stays white, written) at once. The last few pixels go through `map` in a block of
    /// eight padded with white.
    @inline(__always)
    private static func mapEach(
        _ pixels: UnsafeMutablePointer<UInt32>, count: Int, white: UInt32,
        _ map: (SIMD8<UInt32>) -> SIMD8<UInt32>
    ) {
        let eightWhite = SIMD8<UInt32>(repeating: 0xFFFF_FFFF), eightMapped = SIMD8<UInt32>(repeating: white)
        // White that stays white (the high contrast's paper) is not written at all.
        let keepsWhite = white == 0xFFFF_FFFF
        @inline(__always) func eight(at index: Int) {
            let pixels = UnsafeMutableRawPointer(pixels + index)
            let eight = pixels.loadUnaligned(as: SIMD8<UInt32>.self)
            // (`all(.==)` compares the lanes at once; `==` on SIMD types goes lane by lane.)
            if all(eight .== eightWhite) {
                if !keepsWhite { pixels.storeBytes(of: eightMapped, as: SIMD8<UInt32>.self) }
            } else {
                pixels.storeBytes(of: map(eight), as: SIMD8<UInt32>.self)
            }
        }
        var i = 0
        while i + 16 <= count {
            let first = UnsafeRawPointer(pixels + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let second = UnsafeRawPointer(pixels + i + 8).loadUnaligned(as: SIMD8<UInt32>.self)
            if all((first & second) .== eightWhite) {
                if !keepsWhite {
                    UnsafeMutableRawPointer(pixels + i).storeBytes(of: eightMapped, as: SIMD8<UInt32>.self)
                    UnsafeMutableRawPointer(pixels + i + 8).storeBytes(of: eightMapped, as: SIMD8<UInt32>.self)
                }
            } else {
                eight(at: i)
                eight(at: i + 8)
            }
            i += 16
        }
        if i + 8 <= count {
            eight(at: i)
            i += 8
        }
        guard i < count else { return }
        var tail = eightWhite
        for lane in 0..<(count - i) { tail[lane] = pixels[i + lane] }
        let mapped = map(tail)
        for lane in 0..<(count - i) { pixels[i + lane] = mapped[lane] }
    }
}
