import LecternCore
import LecternLinux
import LecternRender
import LecternWayland
import Logging

/// Stub (replaced below in this branch).
final class Search {
    var onChange: (() -> Void)?
    init(loop: EventLoop, session: DocumentSession, logger: Logger) throws(SystemError) {}
    var isEditing: Bool { false }
    var isBusy: Bool { false }
    func status(for reader: Reader) -> SearchStatus? { nil }
    func open() {}
    func close() {}
    func shutdown() {}
    func handle(_ key: Key, reader: Reader) -> Bool { false }
    func highlights(in plan: TilePlanner.Plan, reader: Reader) -> [Scene.Highlight] { [] }
    var bar: Scene.SearchBar? { nil }
    var keyboard: Scene.Keyboard? { nil }
    func part(at point: Point) -> (any NavigationPart)? { nil }
}
