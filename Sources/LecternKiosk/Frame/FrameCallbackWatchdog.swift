import LecternLinux
import LecternWayland
import Logging

/// Draws without the compositor's frame callback when it has held one for `grace` seconds
/// while a frame waits: a screen that follows a tap late beats one that stops.
///
/// A compositor answers a frame callback when it next draws the output the surface is on; one
/// that skips it (a hidden surface, or one it forgot while outputs came and went) holds every
/// later frame of the window back until something else makes it draw. The grace is many frames
/// long, so a hidden window is drawn at most once in it, and a compositor that is merely slow
/// (a second late) still paces the frames.
final class FrameCallbackWatchdog {
    static let grace = 2.0
    private let window: XdgToplevel
    private let loop: EventLoop
    private let logger: Logger
    private let name: String
    private var timer: EventLoop.Timer?

    init(window: XdgToplevel, loop: EventLoop, logger: Logger, name: String) {
        self.window = window
        self.loop = loop
        self.logger = logger
        self.name = name
    }

    /// A frame is wanted: if the window waits for its frame callback, watches that wait (once;
    /// the loop's idle handlers draw when it ends).
    func frameWanted() {
        guard window.isWaitingForFrame, timer?.isScheduled != true else { return }
        let commit = window.framesCommitted
        timer = loop.schedule(after: Self.grace) { [weak self] in
            guard let self else { return }
            timer = nil
            guard window.isWaitingForFrame, window.framesCommitted == commit else { return }
            logger.warning(
                "\(name): no frame callback from the compositor \(Self.grace) s after a commit; drawing without it")
            window.stopWaitingForFrame()
        }
    }

    func close() { timer?.cancel() }

    deinit { timer?.cancel() }
}
