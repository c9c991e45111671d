import LecternCore
import LecternRender
import Logging

/// Stub (replaced below in this branch).
final class OutlinePanel: NavigationPart {
    let session: DocumentSession
    private let logger: Logger
    var onChange: (() -> Void)?
    private(set) var isOpen = false
    private(set) var scroll = KineticScroll()
    init(session: DocumentSession, logger: Logger) {
        self.session = session
        self.logger = logger
    }
    var hasEntries: Bool { false }
    var visibleTitles: [String] { [] }
    func load(for reader: Reader) {}
    func toggle() {}
    func close() {}
    func advance(to now: Double) -> Bool { false }
    func handle(_ key: Key) -> Bool { false }
    func scene(for reader: Reader) -> Scene.OutlinePanel? { nil }
    func touchBegan(_ id: Int, at point: Point, time: Double, reader: Reader) {}
    func touchMoved(_ id: Int, to point: Point, time: Double, reader: Reader) {}
    func touchEnded(_ id: Int, time: Double, reader: Reader) {}
    func touchCancelled(_ id: Int, reader: Reader) {}
}
