import CPixman
import LecternCore

/// A pixman image over memory someone else owns (it must outlive this object), unref'd on
/// deinit. Corresponding C function: `pixman_image_create_bits`.
final class PixmanSurface {
    let image: OpaquePointer

    /// Nil when pixman refuses the size or stride.
    init?(pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        guard width > 0, height > 0, stride >= width * 4, stride % 4 == 0,
            let image = pixman_image_create_bits(
                PIXMAN_a8r8g8b8, Int32(width), Int32(height), pixels.assumingMemoryBound(to: UInt32.self),
                Int32(stride))
        else { return nil }
        self.image = image
    }

    deinit { pixman_image_unref(image) }
}

/// A pixman region of boxes, freed on deinit.
final class Region {
    var region = pixman_region32_t()

    init() { pixman_region32_init(&region) }

    convenience init(_ boxes: [PixelBox]) {
        self.init()
        var rects = boxes.filter { !$0.isEmpty }.map {
            pixman_box32_t(x1: Int32($0.x), y1: Int32($0.y), x2: Int32($0.maxX), y2: Int32($0.maxY))
        }
        if !rects.isEmpty {
            pixman_region32_fini(&region)
            pixman_region32_init_rects(&region, &rects, Int32(rects.count))
        }
    }

    deinit { pixman_region32_fini(&region) }

    var isEmpty: Bool { pixman_region32_not_empty(&region) == 0 }

    /// The region as non-overlapping boxes.
    var boxes: [PixelBox] {
        var count: Int32 = 0
        guard let rects = pixman_region32_rectangles(&region, &count) else { return [] }
        return (0..<Int(count)).map {
            let r = rects[$0]
            return PixelBox(x: Int(r.x1), y: Int(r.y1), width: Int(r.x2 - r.x1), height: Int(r.y2 - r.y1))
        }
    }

    func subtracting(_ other: Region) -> Region {
        let result = Region()
        pixman_region32_subtract(&result.region, &region, &other.region)
        return result
    }

    func intersecting(_ other: Region) -> Region {
        let result = Region()
        pixman_region32_intersect(&result.region, &region, &other.region)
        return result
    }

    func intersecting(_ box: PixelBox) -> Region {
        let result = Region()
        pixman_region32_intersect_rect(
            &result.region, &region, Int32(box.x), Int32(box.y), UInt32(max(0, box.width)), UInt32(max(0, box.height)))
        return result
    }

    /// Makes this region the target's clip.
    func clip(_ target: OpaquePointer) {
        pixman_image_set_clip_region32(target, &region)
    }
}
