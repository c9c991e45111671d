/// How many buffer pixels one surface (logical) unit is on the screen Lectern draws for: 1 on
/// an ordinary screen, 2 on a `wl_output` of scale 2, 1.25 or 1.5 from `wp_fractional_scale_v1`.
///
/// Kept as a multiple of 1/120, as the fractional-scale protocol sends it, so buffer sizes are
/// computed in integers and every part of the app rounds the same way.
public struct DisplayScale: Hashable, Sendable, CustomStringConvertible {
    /// The scale times 120 (`wp_fractional_scale_v1.preferred_scale`).
    public let numerator: Int

    /// The scale `numerator` / 120 (at least 1/120).
    public init(numerator: Int) {
        self.numerator = max(1, numerator)
    }

    /// A whole scale (`wl_output.scale`).
    public init(integer: Int) {
        self.init(numerator: max(1, integer) * 120)
    }

    /// One buffer pixel per surface unit.
    public static let one = DisplayScale(integer: 1)

    /// The scale as a number.
    public var factor: Double { Double(numerator) / 120 }

    /// The scale is a whole number (`wl_surface.set_buffer_scale` can say it).
    public var isInteger: Bool { numerator % 120 == 0 }

    /// Buffer pixels for `length` surface units: rounded up, so the buffer covers the surface
    /// (the fractional-scale protocol's rule; exact for whole scales).
    public func pixels(_ length: Int) -> Int {
        (length * numerator + 119) / 120
    }

    /// `box` (surface units) in buffer pixels, each edge rounded to the nearest pixel: boxes
    /// that touch in surface units touch in pixels.
    public func pixels(_ box: PixelBox) -> PixelBox {
        guard numerator != 120 else { return box }
        let x0 = edge(box.x), y0 = edge(box.y)
        return PixelBox(x: x0, y: y0, width: edge(box.maxX) - x0, height: edge(box.maxY) - y0)
    }

    /// `box` (surface units) in buffer pixels with its origin and its size rounded each on its
    /// own: the same size wherever it moves (a thumbnail scrolling keeps its rendered size).
    public func pixelsKeepingSize(_ box: PixelBox) -> PixelBox {
        guard numerator != 120 else { return box }
        return PixelBox(x: edge(box.x), y: edge(box.y), width: edge(box.width), height: edge(box.height))
    }

    /// The smallest pixel box covering `box` (surface units): for damage and clips.
    public func enclosingPixels(_ box: PixelBox) -> PixelBox {
        guard numerator != 120 else { return box }
        let f = factor
        return PixelBox(
            enclosing: Rect(
                x: Double(box.x) * f, y: Double(box.y) * f, width: Double(box.width) * f,
                height: Double(box.height) * f))
    }

    /// `rect` (surface units) in buffer pixels, unrounded.
    public func pixels(_ rect: Rect) -> Rect {
        let f = factor
        return Rect(x: rect.minX * f, y: rect.minY * f, width: rect.width * f, height: rect.height * f)
    }

    /// A pixel box back in surface units, each edge rounded (for status and hit tests).
    public func units(_ box: PixelBox) -> PixelBox {
        guard numerator != 120 else { return box }
        func unit(_ value: Int) -> Int { Int((Double(value) / factor).rounded()) }
        let x0 = unit(box.x), y0 = unit(box.y)
        return PixelBox(x: x0, y: y0, width: unit(box.maxX) - x0, height: unit(box.maxY) - y0)
    }

    private func edge(_ value: Int) -> Int {
        // Round half away from zero, in integers: (2·v·n + 120·sign) / 240.
        let doubled = 2 * value * numerator
        return doubled >= 0 ? (doubled + 120) / 240 : -((-doubled + 120) / 240)
    }

    public var description: String {
        isInteger ? "\(numerator / 120)" : "\(factor)"
    }
}

extension SpreadLayoutAttributes {
    /// The same spread with every frame in buffer pixels of `scale` (the layout works in surface
    /// units; tiles are rendered and placed in pixels).
    public func scaled(by scale: DisplayScale) -> SpreadLayoutAttributes {
        guard scale != .one else { return self }
        var copy = self
        copy.frame = scale.pixels(frame)
        copy.clipRect = scale.pixels(clipRect)
        copy.pages = pages.map { page in
            var scaled = page
            scaled.frame = scale.pixels(page.frame)
            scaled.visibleRect = scale.pixels(page.visibleRect)
            scaled.pageToView = page.pageToView.concatenating(.scale(scale.factor))
            return scaled
        }
        return copy
    }
}
