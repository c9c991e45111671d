import LecternRender
import LecternWayland
import Logging

extension XdgToplevel {
    /// What became of a frame: committed in `buffer`, or not (`allBusy`: every buffer is with
    /// the compositor and a release wakes the loop, so try again; else none could be made).
    struct SceneCommit {
        var buffer: ShmBuffer?
        var allBusy = false
    }

    /// Draws `scene` with `compositor` into a free buffer of `pool` (at the scene's pixel size)
    /// and commits it with its damage: the steps of every surface's frame (the reader's, the
    /// presenter mirror's). With a `band`, the scene is drawn below a band of that many pixel
    /// rows filled with its colour (a seated visitor lowered the reading area). `presented` hears
    /// when the frame reached the screen (`XdgToplevel.commit`).
    func commit(
        _ scene: Scene, drawnBy compositor: FrameCompositor, from pool: ShmBufferPool,
        below band: (height: Int, colour: Color) = (0, Color(rgb: 0)), logger: Logger,
        presented: ((Presented?) -> Void)? = nil
    ) -> SceneCommit {
        let buffer: ShmBuffer?
        do {
            buffer = try pool.acquire(width: scene.pixelWidth, height: scene.pixelHeight + band.height)
        } catch {
            logger.error("cannot allocate a frame buffer: \(error)")
            return SceneCommit()
        }
        guard let buffer else { return SceneCommit(allBusy: true) }
        let drawn = compositor.draw(
            scene, into: buffer.pixels + band.height * buffer.stride, stride: buffer.stride, bufferAge: buffer.age)
        var damage = drawn.map { ($0.x, $0.y + band.height, $0.width, $0.height) }
        if band.height > 0 {
            // Filled every frame (a buffer may hold an older frame there); reported when the whole
            // scene is (its size changed: the band came, or the window changed).
            let pixel =
                0xFF00_0000 | UInt32(band.colour.red) << 16 | UInt32(band.colour.green) << 8
                | UInt32(band.colour.blue)
            for row in 0..<band.height {
                (buffer.pixels + row * buffer.stride).initializeMemory(
                    as: UInt32.self, repeating: pixel, count: scene.pixelWidth)
            }
            if drawn.contains(where: { $0.width >= scene.pixelWidth && $0.height >= scene.pixelHeight }) {
                damage.append((0, 0, scene.pixelWidth, band.height))
            }
        }
        commit(buffer, scale: scene.scale, damage: damage, presented: presented)
        pool.committed(buffer)
        return SceneCommit(buffer: buffer)
    }
}
