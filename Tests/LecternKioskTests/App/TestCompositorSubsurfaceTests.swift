import LecternTestSupport
import Testing

/// The test compositor's subsurfaces and viewports, composited into what the screen shows
/// (`TestCompositor.composited`), driven by a real libwayland client (`TestSubsurface`).
@Suite(.serialized)
struct TestCompositorSubsurfaceTests {
    static let red: UInt32 = 0xFFFF_0000, green: UInt32 = 0xFF00_FF00, blue: UInt32 = 0xFF00_00FF
    static let white: UInt32 = 0xFFFF_FFFF

    /// A compositor offering `wp_viewporter`, a client whose 64×48 toplevel shows `parent(x, y)`
    /// (argb8888), and a subsurface of it.
    private func window(
        parent: @escaping (Int, Int) -> UInt32 = { _, _ in TestCompositorSubsurfaceTests.red }
    ) throws -> (TestCompositor, TestClient, TestSubsurface) {
        let compositor = try TestCompositor(outputWidth: 64, outputHeight: 48)
        compositor.offerViewporter()
        let client = try TestClient(compositor: compositor)
        #expect(TestClient.run(client, with: compositor) { client.hasGlobals && client.outputSize != nil })
        client.createFullscreenToplevel(title: "subsurfaces")
        #expect(TestClient.run(client, with: compositor) { client.configureCount == 1 })
        client.ackConfigure()
        let subsurface = try #require(TestSubsurface(of: client))
        try client.draw(width: 64, height: 48, format: 0, pixel: parent)
        #expect(TestClient.run(client, with: compositor) { client.frameDoneCount == 1 })
        return (compositor, client, subsurface)
    }

    /// Commits the parent and waits for its frame callback (the `frames`-th).
    private func commitParent(_ client: TestClient, _ compositor: TestCompositor, frames: Int) {
        client.commit()
        #expect(TestClient.run(client, with: compositor) { client.frameDoneCount == frames })
    }

    @Test func aCroppedSubsurfaceShowsAtItsPositionWithTheParentsCommit() throws {
        let (compositor, client, subsurface) = try window()
        // Quadrants of a 40×40 buffer: green, blue / white, black.
        try subsurface.draw(width: 40, height: 40) { x, y in
            y < 20 ? (x < 20 ? Self.green : Self.blue) : (x < 20 ? Self.white : 0)
        }
        subsurface.setViewport(source: (20, 0, 20, 20), destination: nil)
        subsurface.setPosition(x: 10, y: 5)
        subsurface.commit()
        TestClient.run(client, with: compositor, timeout: .milliseconds(50)) { false }
        #expect(compositor.composited()?.pixel(x: 15, y: 10) == Self.red, "synchronized: not before the parent commits")
        commitParent(client, compositor, frames: 2)
        let screen = try #require(compositor.composited())
        #expect(screen.width == 64 && screen.height == 48)
        #expect(screen.pixel(x: 9, y: 10) == Self.red)
        #expect(screen.pixel(x: 10, y: 5) == Self.blue, "the source's top left corner")
        #expect(screen.pixel(x: 29, y: 24) == Self.blue, "20×20 surface units from the source's size")
        #expect(screen.pixel(x: 30, y: 24) == Self.red)
        #expect(screen.pixel(x: 29, y: 25) == Self.red)
        // The source moves, nothing is attached: no new frame, another picture.
        let commits = compositor.commits.count
        subsurface.setViewport(source: (0, 20, 20, 20), destination: nil)
        subsurface.commit()
        commitParent(client, compositor, frames: 3)
        #expect(compositor.commits.count == commits, "no buffer was committed")
        #expect(compositor.composited()?.pixel(x: 20, y: 15) == Self.white)
        subsurface.destroy()
        client.disconnect()
        try compositor.teardown()
    }

    @Test func aViewportDestinationScalesTheSource() throws {
        let (compositor, client, subsurface) = try window()
        try subsurface.draw(width: 2, height: 2) { x, y in [Self.green, Self.blue, Self.white, 0xFF00_0000][y * 2 + x] }
        subsurface.setViewport(source: nil, destination: (20, 10))
        subsurface.commit()
        commitParent(client, compositor, frames: 2)
        let screen = try #require(compositor.composited())
        #expect(screen.pixel(x: 0, y: 0) == Self.green)
        #expect(screen.pixel(x: 9, y: 4) == Self.green)
        #expect(screen.pixel(x: 10, y: 4) == Self.blue)
        #expect(screen.pixel(x: 9, y: 5) == Self.white)
        #expect(screen.pixel(x: 19, y: 9) == 0xFF00_0000)
        #expect(screen.pixel(x: 20, y: 9) == Self.red)
        subsurface.destroy()
        client.disconnect()
        try compositor.teardown()
    }

    @Test func belowTheParentItShowsThroughItsTransparentPixelsAboveItCovers() throws {
        // The parent: transparent on its left half, half-transparent white on the right half.
        let (compositor, client, subsurface) = try window { x, _ in x < 32 ? 0 : 0x8080_8080 }
        try subsurface.draw(width: 64, height: 48) { _, _ in Self.blue }
        subsurface.placeBelowParent()
        subsurface.commit()
        commitParent(client, compositor, frames: 2)
        var screen = try #require(compositor.composited())
        #expect(screen.pixel(x: 10, y: 10) == Self.blue, "through the parent's transparent pixels")
        #expect(screen.pixel(x: 40, y: 10) == 0xFF80_80FF, "half white over blue")
        subsurface.placeAboveParent()
        subsurface.commit()
        commitParent(client, compositor, frames: 3)
        screen = try #require(compositor.composited())
        #expect(screen.pixel(x: 40, y: 10) == Self.blue, "above the parent it covers it")
        subsurface.destroy()
        client.disconnect()
        try compositor.teardown()
    }
}
