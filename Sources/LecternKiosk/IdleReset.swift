import LecternCore
import LecternWayland
import Logging

/// Back to where a new visitor should start when nobody has used the reader for a while:
/// the start page, zoomed out, the chrome hidden, nothing typed.
///
/// The countdown starts over with every input event and when an animation or fling plays
/// out, and does not run out while a visitor is still touching the screen, holding a button,
/// in the middle of a gesture or the page moves (`InputRouter.isInteracting`): it waits a
/// whole period more then, and starts over at the lift, release or last frame.
final class IdleReset {
    let loop: EventLoop
    let session: DocumentSession
    let chrome: Chrome
    let input: InputRouter
    private let logger: Logger
    private let seconds: Double
    private var timer: EventLoop.Timer?

    init(
        seconds: Int, loop: EventLoop, session: DocumentSession, chrome: Chrome, input: InputRouter, logger: Logger
    ) {
        self.seconds = Double(seconds)
        self.loop = loop
        self.session = session
        self.chrome = chrome
        self.input = input
        self.logger = logger
    }

    /// Starts the countdown over (0 seconds: never reset).
    func restart() {
        guard seconds > 0 else { return }
        timer?.cancel()
        timer = loop.schedule(after: seconds) { [unowned self] in expired() }
    }

    /// Stops the countdown (shutdown).
    func cancel() {
        timer?.cancel()
        timer = nil
    }

    /// When the countdown runs out next, on the loop's clock (nil: it is not running).
    var deadline: Double? { timer?.isScheduled == true ? timer?.deadline : nil }

    private func expired() {
        timer = nil
        if input.isInteracting {
            restart()
            return
        }
        guard let reader = session.reader else { return }
        let start = session.configuration.startPage
        logger.info("no input for \(Int(seconds)) s: back to page \(start + 1)")
        chrome.reset()
        input.resetInteractions()
        reader.view.stopAnimations()
        try? reader.view.goToPage(min(start, reader.view.pages.count - 1))
        session.onChange?()
    }
}
