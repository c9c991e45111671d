import LecternCore
import LecternLinux
import LecternWayland
import Logging

/// What an operator of a fleet needs from each kiosk, built after the reader's parts and torn
/// down before them: the view kept across restarts (`ViewStateStore`).
///
/// It learns what happens from the hooks `KioskApp` wires: the end of every loop iteration.
final class Operations {
    let loop: EventLoop
    let session: DocumentSession
    let presenter: FramePresenter
    let store: ViewStateStore
    private let logger: Logger

    init(
        statePath: String?, session: DocumentSession, policy: PolicyWatcher, presenter: FramePresenter,
        loop: EventLoop, logger: Logger
    ) {
        self.session = session
        self.presenter = presenter
        self.loop = loop
        self.logger = logger
        store = ViewStateStore(
            path: statePath, session: session, policyDocument: { [unowned policy] in policy.current.documentPath },
            loop: loop, logger: logger)
    }

    // MARK: Hooks

    /// The end of a loop iteration: the view may be saved.
    func afterIteration() {
        store.viewMayHaveChanged(hasShownPage: presenter.hasShownPage)
    }

    /// Tears down in reverse: the view is written a last time.
    func close() {
        store.close(hasShownPage: presenter.hasShownPage)
    }
}
