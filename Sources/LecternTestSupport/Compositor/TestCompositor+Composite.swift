import CWaylandServer

// What the screen shows of a window: its surface's buffer and its subsurfaces' buffers, each
// placed at its position, cropped and scaled by its viewport (nearest pixel) and blended
// (premultiplied alpha) in stacking order, as a compositor would draw them.

/// A picture of a window as the screen would show it, one `0xAARRGGBB` per pixel, row by row.
public struct Screenshot: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt32]

    /// The pixel at (x, y).
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "(\(x), \(y)) is outside \(width)x\(height)")
        return pixels[y * width + x]
    }
}

extension TestCompositor {
    /// What the newest toplevel (or the one titled `title`) shows: its surface and subsurfaces
    /// composited over black, at the surface's size times its buffer scale (in surface units when
    /// a viewport sets its size). Nil before it shows a buffer.
    public func composited(title: String? = nil) -> Screenshot? {
        let toplevels = liveObjects.values.compactMap { $0 as? XdgToplevel }
        let toplevel =
            title.map { title in toplevels.filter { $0.state.title == title }.max { $0.serialNumber < $1.serialNumber }
            }
            ?? currentToplevel
        guard let surface = toplevel?.xdgSurface?.surface, let shown = surface.shown else { return nil }
        let size = Self.surfaceSize(of: shown)
        let scale = shown.viewportDestination == nil && shown.viewportSource == nil ? Int(shown.bufferScale) : 1
        var picture = Screenshot(
            width: Int(size.width * Double(scale)), height: Int(size.height * Double(scale)),
            pixels: [UInt32](
                repeating: 0xFF00_0000, count: Int(size.width * Double(scale)) * Int(size.height * Double(scale))))
        draw(surface, content: shown, at: (0, 0), into: &picture, scale: Double(scale))
        return picture
    }

    /// The size of a surface showing `content`, in surface units: the viewport's destination,
    /// else its source's size, else the buffer's size over its scale.
    static func surfaceSize(of content: SubsurfaceState) -> (width: Double, height: Double) {
        if let destination = content.viewportDestination {
            return (Double(destination.width), Double(destination.height))
        }
        if let source = content.viewportSource { return (source.width, source.height) }
        let scale = Double(max(1, content.bufferScale))
        return (Double(content.width) / scale, Double(content.height) / scale)
    }

    /// Draws `surface` (showing `content`) at `origin` (surface units) and its subsurfaces in
    /// stacking order, bottom first.
    private func draw(
        _ surface: Surface, content: SubsurfaceState?, at origin: (x: Double, y: Double),
        into picture: inout Screenshot, scale: Double
    ) {
        let children = subsurfaces(of: surface)
        var order = surface.stackOrder
        for child in children where !order.contains(child.surface?.serialNumber ?? -1) {
            order.append(child.surface?.serialNumber ?? -1)
        }
        for serial in order {
            if serial == surface.serialNumber {
                if let content { blend(content, at: origin, into: &picture, scale: scale) }
                continue
            }
            guard let child = children.first(where: { $0.surface?.serialNumber == serial }),
                let childSurface = child.surface
            else { continue }
            let state = child.publicState
            guard state.isMapped else { continue }
            draw(
                childSurface, content: state, at: (origin.x + Double(state.x), origin.y + Double(state.y)),
                into: &picture, scale: scale)
        }
    }

    /// Blends `content` over `picture` with its surface's top left corner at `origin`.
    private func blend(
        _ content: SubsurfaceState, at origin: (x: Double, y: Double), into picture: inout Screenshot, scale: Double
    ) {
        guard content.width > 0, content.height > 0 else { return }
        let size = Self.surfaceSize(of: content)
        let bufferScale = Double(max(1, content.bufferScale))
        let source =
            content.viewportSource
            ?? ViewportSource(
                x: 0, y: 0, width: Double(content.width) / bufferScale, height: Double(content.height) / bufferScale)
        // The buffer pixel each picture column and row shows (nil: outside the surface).
        func map(_ index: Int, origin: Double, size: Double, start: Double, extent: Double, limit: Int) -> Int? {
            let local = (Double(index) + 0.5) / scale - origin
            guard local >= 0, local < size else { return nil }
            let pixel = Int(((start + local * extent / size) * bufferScale).rounded(.down))
            return min(max(pixel, 0), limit - 1)
        }
        let columns = (0..<picture.width).map {
            map($0, origin: origin.x, size: size.width, start: source.x, extent: source.width, limit: content.width)
        }
        let opaque = content.format == .xrgb8888
        for y in 0..<picture.height {
            guard
                let row = map(
                    y, origin: origin.y, size: size.height, start: source.y, extent: source.height,
                    limit: content.height)
            else { continue }
            for x in 0..<picture.width {
                guard let column = columns[x] else { continue }
                let pixel = content.pixels[row * content.width + column]
                let alpha = opaque ? 255 : pixel >> 24
                if alpha == 255 {
                    picture.pixels[y * picture.width + x] = pixel | (opaque ? 0xFF00_0000 : 0)
                } else if alpha > 0 {
                    picture.pixels[y * picture.width + x] = Self.over(pixel, picture.pixels[y * picture.width + x])
                }
            }
        }
    }

    /// `top` over `bottom`, both premultiplied `0xAARRGGBB`.
    static func over(_ top: UInt32, _ bottom: UInt32) -> UInt32 {
        let keep = 255 - (top >> 24)
        var result: UInt32 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            let channel = (top >> shift & 0xFF) + ((bottom >> shift & 0xFF) * keep + 127) / 255
            result |= min(channel, 255) << shift
        }
        return result
    }
}
