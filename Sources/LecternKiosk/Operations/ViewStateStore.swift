import Glibc
import LecternCore
import LecternLinux
import LecternPolicy
import Logging

/// The reader's place, kept across restarts: after a power cut or a crash the kiosk comes back
/// to the document and view it showed (`SavedView`, `state.json`).
///
/// At start, `restoredView(for:)` says whether the saved view applies (the policy names the same
/// document, the shown file is the same version); then, once the first page is on screen, the
/// view is written at once, again at most once a second while it changes, and on exit. Writes
/// are atomic (write, fsync, rename, fsync the directory) and happen off the loop's thread
/// (`BackgroundWork`): an SD card's fsync never holds up a frame. The policy's
/// `state.persist = false` stops them.
final class ViewStateStore {
    /// The shortest time between two writes, in seconds of the loop's clock.
    static let interval = 1.0

    let loop: EventLoop
    /// The reader on screen, whose view is kept.
    let current: CurrentReader
    /// The policy in force: whether views are kept, and the document it names, which a saved
    /// view records (`restoredView` compares it with the policy's at the next start).
    let policy: PolicyInForce
    /// Where the view is kept (nil: nowhere to keep it; nothing is written).
    let path: String?
    private let logger: Logger
    private let work: BackgroundWork
    private var lastWritten: SavedView?
    private var lastWriteTime: Double?
    private var timer: EventLoop.Timer?
    /// The version of the shown document, read once per reader (a reload brings a new one).
    private var version: (reader: ObjectIdentifier, version: FileVersion?)?
    /// Views written so far.
    private(set) var writes = 0
    /// What became of the view saved before this start (`restoredView(at:for:logger:)`).
    let restored: KioskStatus.SavedViewRestore

    init(
        path: String?, restored: KioskStatus.SavedViewRestore, current: CurrentReader, policy: PolicyInForce,
        loop: EventLoop, logger: Logger
    ) {
        self.path = path
        self.restored = restored
        self.current = current
        self.policy = policy
        self.loop = loop
        self.logger = logger
        work = BackgroundWork(label: "lectern.state", loop: loop)
    }

    /// The view saved before this start, and what became of it.
    struct Restore {
        /// The view to start from (nil: the start page).
        var view: ViewState?
        var outcome = KioskStatus.SavedViewRestore.nothingSaved
    }

    /// The saved view to start from, if there is one that applies to `configuration` (the
    /// configuration's document is then the saved one: a document opened over the control
    /// socket comes back too). A corrupt or truncated file is logged and ignored.
    static func restoredView(
        at path: String?, for configuration: inout KioskConfiguration, logger: Logger
    ) -> Restore {
        guard configuration.persistsState, let path else { return Restore() }
        let saved: SavedView
        do {
            guard let loaded = try SavedView.load(from: path) else { return Restore() }
            saved = loaded
        } catch {
            logger.error("\(error); starting at the start page")
            return Restore(outcome: .ignored(error.description))
        }
        let allowed =
            saved.document == configuration.documentPath
            || ControlCommands.isAllowed(document: saved.document, by: configuration)
        guard allowed, saved.restores(policyDocument: configuration.documentPath) else {
            logger.info("the saved view is for another document or version: starting at the start page")
            return Restore(outcome: .otherDocumentOrVersion)
        }
        logger.info("restoring the saved view: page \(saved.view.pageIndex + 1) of \(saved.document)")
        configuration.documentPath = saved.document
        return Restore(view: saved.view, outcome: .restored(page: saved.view.pageIndex))
    }

    /// What would be saved now: nil before the first page is on screen.
    private func current(
        hasShownPage: Bool, dominantPage: DominantPage = DominantPage()
    ) -> SavedView? {
        guard hasShownPage, let reader = current.reader else { return nil }
        let id = ObjectIdentifier(reader)
        if version?.reader != id { version = (id, FileVersion(path: reader.document.path)) }
        guard let fileVersion = version?.version else { return nil }
        return SavedView(
            document: reader.document.path, version: fileVersion,
            view: reader.view.viewState(dominantPage: dominantPage.of(reader)),
            policyDocument: policy.documentPath)
    }

    /// Writes the view if it changed and the last write is a second old, else makes sure it is
    /// written when the second is up (loop idle handler: cheap when nothing changed).
    func viewMayHaveChanged(hasShownPage: Bool, dominantPage: DominantPage) {
        guard path != nil, policy.persistsState, timer == nil,
            let saved = current(hasShownPage: hasShownPage, dominantPage: dominantPage), saved != lastWritten
        else { return }
        let now = loop.clock.now
        if let last = lastWriteTime, now - last < Self.interval {
            timer = loop.schedule(at: last + Self.interval) { [unowned self] in
                timer = nil
                if let saved = current(hasShownPage: true), saved != lastWritten { write(saved) }
            }
        } else {
            write(saved)
        }
    }

    private func write(_ saved: SavedView) {
        guard let path else { return }
        lastWritten = saved
        lastWriteTime = loop.clock.now
        writes += 1
        let bytes = saved.encoded()
        work.submit({ () -> SystemError? in
            do throws(SystemError) {
                try Self.makeDirectory(for: path)
                try writeFileAtomically(bytes, to: path, mode: 0o600)
                return nil
            } catch {
                return error
            }
        }) { [logger] error in
            if let error { logger.error("cannot save the view state: \(error)") }
        }
    }

    /// Creates the directory the file goes in, and its parents (`~/.local/state` may not exist
    /// yet on a fresh kiosk user; systemd's `StateDirectory=` does).
    static func makeDirectory(for path: String) throws(SystemError) {
        var directory = ""
        for component in path.split(separator: "/").dropLast() {
            directory += "/" + component
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw SystemError("mkdir \(directory)") }
        }
    }

    /// Writes the view a last time and waits for every write (shutdown).
    func close(hasShownPage: Bool) {
        timer?.cancel()
        timer = nil
        if policy.persistsState, let saved = current(hasShownPage: hasShownPage),
            saved != lastWritten
        {
            write(saved)
        }
        work.waitUntilDone()
    }

    /// Whether a write is under way.
    var isBusy: Bool { work.isBusy }
}
