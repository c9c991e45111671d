import CWaylandClient
import Glibc

/// A poll(2) loop around the Wayland connection that also wakes for other file
/// descriptors (render results, signals, timers).
///
/// Per iteration: `prepare_read` (dispatching what is queued), flush (EAGAIN is
/// back-pressure: poll for POLLOUT), poll, `read_events` or `cancel_read`,
/// `dispatch_pending`, then the other sources' handlers. After every dispatch the display
/// delivers the input still waiting for a frame (`Display.flushInput`), and the display's own
/// timers (key repeat) are watched with the other sources.
public final class EventLoop {
    private struct Source {
        let fd: Int32
        let handler: () -> Void
    }

    private let display: Display
    private var sources: [Int: Source] = [:]
    private var nextToken = 0
    private var running = false

    /// Runs once per iteration after events were dispatched: the place to draw.
    public var onIdle: (() -> Void)?
    /// How long one wait for events may last, in milliseconds (-1: until something happens).
    /// Set it while an animation runs that has nothing new to commit yet.
    public var pollTimeout: Int32 = -1

    public init(display: Display) { self.display = display }

    /// Watches `fd` for input; `handler` runs on the loop's thread. - Returns: a token for `remove`.
    @discardableResult
    public func add(fd: Int32, handler: @escaping () -> Void) -> Int {
        nextToken += 1
        sources[nextToken] = Source(fd: fd, handler: handler)
        return nextToken
    }

    public func remove(_ token: Int) { sources[token] = nil }

    /// Makes `run` return after the current iteration.
    public func stop() { running = false }

    /// Runs until `stop()`. Throws when the compositor connection is lost.
    public func run() throws(WaylandError) {
        running = true
        while running { try runOnce(timeout: pollTimeout) }
    }

    /// Runs one iteration, waiting at most `timeout` milliseconds for something to happen
    /// (-1: until something does; 0: not at all). For tests driving a compositor in the same
    /// thread, and for callers that interleave other work.
    public func runOnce(timeout: Int32) throws(WaylandError) {
        let wl = display.display
        while wl_display_prepare_read(wl) != 0 {
            if wl_display_dispatch_pending(wl) < 0 { throw display.connectionError() }
            display.flushInput()
        }
        var wantWrite = false
        if wl_display_flush(wl) < 0 {
            if errno == EAGAIN {
                wantWrite = true
            } else {
                wl_display_cancel_read(wl)
                throw display.connectionError()
            }
        }
        // The display's own timers (negative keys) come first; they check themselves when they fire.
        let timers = display.timerSources.enumerated().map { index, timer in
            (key: -1 - index, value: Source(fd: timer.fd, handler: timer.handler))
        }
        let ordered = timers + sources.sorted { $0.key < $1.key }
        var fds = [
            pollfd(fd: wl_display_get_fd(wl), events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0)
        ]
        fds += ordered.map { pollfd(fd: $0.value.fd, events: Int16(POLLIN), revents: 0) }
        var ready: Int32
        repeat { ready = poll(&fds, nfds_t(fds.count), timeout) } while ready < 0 && errno == EINTR
        if ready < 0 {
            let code = errno
            wl_display_cancel_read(wl)
            throw .system(call: "poll", errno: code)
        }
        let displayEvents = Int32(fds[0].revents)
        if displayEvents & Int32(POLLIN) != 0 {
            if wl_display_read_events(wl) < 0 { throw display.connectionError() }
        } else {
            wl_display_cancel_read(wl)
        }
        if displayEvents & Int32(POLLHUP | POLLERR) != 0 && displayEvents & Int32(POLLIN) == 0 {
            throw .connectionLost("the compositor hung up")
        }
        if wl_display_dispatch_pending(wl) < 0 { throw display.connectionError() }
        display.flushInput()
        for (index, entry) in ordered.enumerated() where fds[index + 1].revents != 0 {
            // A handler may have removed a later source.
            if entry.key < 0 || sources[entry.key] != nil { entry.value.handler() }
        }
        onIdle?()
    }
}
