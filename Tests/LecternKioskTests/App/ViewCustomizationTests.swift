import Foundation
import LecternCore
import LecternKiosk
import LecternTestSupport
import Testing

/// Issue 32: a layout an integrator registers is in force wherever the kiosk builds a view:
/// the document's first open, a reload of a new version, a resize and the presenter mirror.
@Suite("An integrator's layout in the kiosk", .serialized)
struct ViewCustomizationTests {
    /// The pages three by three, from the first.
    struct Triptych: SpreadingStrategy {
        func spreadCount(pageCount: Int) -> Int { (pageCount + 2) / 3 }
        func spreadIndex(forPage page: Int, pageCount: Int) -> Int { page / 3 }
        func pageRange(forSpread spread: Int, pageCount: Int) -> Range<Int> {
            (3 * spread)..<min(3 * spread + 3, pageCount)
        }
        var typicalPagesPerSpread: Int { 3 }
    }

    static let triptych = ViewCustomization(name: "triptych", spreading: Triptych())

    /// A policy file that names `custom` (and the shown document's layout: per spread).
    static func policy(custom: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-custom-\(UUID()).toml").path
        try "[layout]\nscroll = \"per-spread\"\ncustom = \"\(custom)\"\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a registered spreading named by the policy survives a reload, a resize and shows in the mirror")
    func customSpreadingEverywhere() throws {
        let shelf = try DocumentReloadTests.Shelf()
        let policy = try Self.policy(custom: "triptych")
        defer { try? FileManager.default.removeItem(atPath: policy) }
        let lectern = try KioskHarness([shelf.path, "--page", "3", "--config", policy, "--no-accessibility-button"]) {
            $0.register(Self.triptych)
        }
        #expect(lectern.settle())
        // Pages 1, 2 and 3 (1-based) are the first spread: side by side on screen.
        #expect(lectern.pages(alongRow: 360) == [1, 2, 3])
        // A new version of the file: the same spreads.
        try shelf.replace(with: "colors-8pages.pdf")
        #expect(lectern.wait { lectern.status.hasPendingFileChanges })
        lectern.advance(by: 0.1)
        #expect(lectern.settle())
        #expect(lectern.status.documentReloads == 1)
        #expect(lectern.pages(alongRow: 360) == [1, 2, 3], "after the reload")
        // Another size.
        #expect(lectern.resize(to: 1000, 600))
        #expect(lectern.pages(alongRow: 300) == [1, 2, 3], "after the resize")
        // The presenter mirror on a second output groups the pages the same way.
        let second = lectern.compositor.plugOutput(width: 1920, height: 1080)
        lectern.advance(by: 1)
        #expect(lectern.settle())
        let mirror = try #require(lectern.compositor.commits.last { $0.title == "Lectern mirror" })
        let row = (0..<mirror.width).compactMap {
            LecternHarness.page(ofColor: mirror.pixel(x: $0, y: mirror.height / 2))
        }
        #expect(Set(row) == [1, 2, 3], "the mirror's middle row")
        lectern.compositor.unplug(second)
        try lectern.stop()
    }

    @Test("a policy naming a layout nobody registered keeps the built-in one and says so")
    func unknownCustomLayout() throws {
        let policy = try Self.policy(custom: "nowhere")
        defer { try? FileManager.default.removeItem(atPath: policy) }
        let lectern = try KioskHarness(
            [LecternHarness.fixture("colors-8pages.pdf"), "--page", "3", "--config", policy]
        ) { $0.register(Self.triptych) }
        #expect(lectern.settle())
        #expect(lectern.pages(alongRow: 360) == [3])
        #expect(lectern.logs.contains { $0.contains("layout.custom names \"nowhere\"") && $0.contains("triptych") })
        try lectern.stop()
    }
}
