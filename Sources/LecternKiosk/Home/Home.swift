import LecternCore
import LecternLinux
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

    /// - Parameter shelf: the shelf, built with the document (its covers start reading at once).
    init(
        shelf: Shelf, current: CurrentReader, policy: PolicyInForce, transitions: TransitionPlayer,
        frame: FrameRequest, loop: EventLoop, logger: Logger
    ) {
        self.shelf = shelf
        attract = AttractLoop(
            current: current, policy: policy, transitions: transitions, frame: frame, loop: loop, logger: logger)
    }

    /// Wires the shelf and the attract loop to the rest of the app.
    func connect(
        current: CurrentReader, reloader: DocumentReloader, chrome: Chrome, input: InputRouter, idle: IdleReset
    ) {
        current.onOpen = { [unowned input, unowned shelf] _ in
            input.resetInteractions()
            shelf.documentOpened()
        }
        reloader.onRefuse = { [unowned shelf] reason in shelf.documentFailed(reason) }
        chrome.onBack = { [unowned shelf, unowned chrome] in
            chrome.reset()
            shelf.show()
        }
        // A touch, click, key or wheel while pages turn by themselves stops them and goes home,
        // and does nothing else; a pointer that only moves does not stop them, nor take the
        // countdown away (a pointer moves onto its "More time" before it presses). A press on
        // "More time" gives the visitor the longer wait.
        input.onActivity = { [unowned idle, unowned attract, unowned chrome] event in
            if idle.isCountingDown, !event.startsAction { return false }
            if attract.isRunning, !event.startsAction { return idle.restart() }
            let stopped = attract.stop()
            if stopped { idle.goHome() }
            if idle.isCountingDown, chrome.isOnNoticeButton(event) {
                idle.grantMoreTime()
                return true
            }
            return idle.restart() || stopped
        }
        idle.onReset = { [unowned shelf, unowned attract] in
            shelf.show(scrolledToTop: true)
            attract.idleReset()
        }
    }

    /// Whether covers or page keys are being read.
    var isBusy: Bool { shelf.isBusy || attract.isBusy }

    /// Stops the attract loop (shutdown; the shelf is closed after it, as it was built before).
    func close() {
        attract.close()
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
