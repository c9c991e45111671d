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
    /// presenter mirror's).
    func commit(
        _ scene: Scene, drawnBy compositor: FrameCompositor, from pool: ShmBufferPool, logger: Logger
    ) -> SceneCommit {
        let buffer: ShmBuffer?
        do {
            buffer = try pool.acquire(width: scene.pixelWidth, height: scene.pixelHeight)
        } catch {
            logger.error("cannot allocate a frame buffer: \(error)")
            return SceneCommit()
        }
        guard let buffer else { return SceneCommit(allBusy: true) }
        let damage = compositor.draw(scene, into: buffer.pixels, stride: buffer.stride, bufferAge: buffer.age)
        commit(buffer, scale: scene.scale, damage: damage.map { ($0.x, $0.y, $0.width, $0.height) })
        pool.committed(buffer)
        return SceneCommit(buffer: buffer)
    }
}
