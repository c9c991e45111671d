import LecternCore
import LecternLinux
import LecternWayland
import Logging

/// Where a visitor starts and how the kiosk comes back there: the shelf when the policy names
/// several documents (`Shelf`), the attract loop once nobody has been there for a while
/// (`AttractLoop`), both driven by the idle reset (`IdleReset`) and by input.
///
/// Built with the document (the shelf's covers start reading at once), connected once the
/// window, chrome and input exist.
final class Home {
    let shelf: Shelf
    let attract: AttractLoop

    init(
        session: DocumentSession, policy: PolicyInForce, screen: Screen, transitions: TransitionPlayer,
        loop: EventLoop, logger: Logger
    ) throws(SystemError) {
        shelf = try Shelf(
            session: session, policy: policy, screen: screen, loop: loop, logger: logger)
        do {
            attract = try AttractLoop(
                current: session.current, policy: policy, transitions: transitions, loop: loop, logger: logger)
        } catch {
            shelf.close()
            throw error
        }
    }

    /// Wires the shelf and the attract loop to the rest of the app.
    func connect(
        session: DocumentSession, reloader: DocumentReloader, chrome: Chrome, input: InputRouter, idle: IdleReset,
        presenter: FramePresenter
    ) {
        session.onOpen = { [unowned input, unowned shelf] _ in
            input.resetInteractions()
            shelf.documentOpened()
        }
        reloader.onRefuse = { [unowned shelf] reason in shelf.documentFailed(reason) }
        chrome.onBack = { [unowned shelf, unowned chrome] in
            chrome.reset()
            shelf.show()
        }
        shelf.onChange = { [unowned presenter] in presenter.setNeedsFrame() }
        attract.onChange = { [unowned presenter] in presenter.setNeedsFrame() }
        idle.onChange = { [unowned presenter] in presenter.setNeedsFrame() }
        // A touch, click, key or wheel while pages turn by themselves stops them and goes home,
        // and does nothing else; a pointer that only moves does not stop them.
        input.onActivity = { [unowned idle, unowned attract] isPress in
            if attract.isRunning, !isPress { return idle.restart() }
            let stopped = attract.stop()
            if stopped { idle.goHome() }
            return idle.restart() || stopped
        }
        idle.onReset = { [unowned shelf, unowned attract] in
            shelf.show(scrolledToTop: true)
            attract.idleReset()
        }
    }

    /// Whether covers or page keys are being read.
    var isBusy: Bool { shelf.isBusy || attract.isBusy }

    /// Stops the attract loop and the shelf's covers (shutdown).
    func close() {
        attract.close()
        shelf.close()
    }

    /// The shelf's and the attract loop's part of `KioskApp.status`.
    func report(into status: inout KioskStatus, transitions: TransitionPlayer) {
        status.isShelfShown = shelf.isShown
        status.shelf = shelf.covers
        status.shelfScroll = shelf.scroll
        status.isAttractRunning = attract.isRunning
        status.attractAdvances = attract.advances
        status.attractDeadline = attract.deadline
        status.transitionProgress = transitions.progress
    }
}
