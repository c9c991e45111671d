import CWaylandClient
import Glibc
import LecternLinux

/// The event loop polls the Wayland connection with its own descriptors: before the poll,
/// `prepare_read` (dispatching what is queued) and a flush (EAGAIN is back-pressure: poll for
/// POLLOUT); after it, `read_events` or `cancel_read`, `dispatch_pending`, and the input still
/// waiting for a frame event (`flushInput()`). Errors are `WaylandError`s.
extension Display: LoopConnection {
    public func prepareToPoll() throws -> (descriptor: Int32, waitsToWrite: Bool) {
        while wl_display_prepare_read(connection) != 0 {
            if wl_display_dispatch_pending(connection) < 0 { throw connectionError() }
            flushInput()
        }
        var waitsToWrite = false
        if wl_display_flush(connection) < 0 {
            if errno == EAGAIN {
                waitsToWrite = true
            } else {
                wl_display_cancel_read(connection)
                throw connectionError()
            }
        }
        return (wl_display_get_fd(connection), waitsToWrite)
    }

    public func cancelPoll() { wl_display_cancel_read(connection) }

    public func finishPoll(events: Int16) throws {
        let events = Int32(events)
        if events & Int32(POLLIN) != 0 {
            if wl_display_read_events(connection) < 0 { throw connectionError() }
        } else {
            wl_display_cancel_read(connection)
        }
        if events & Int32(POLLHUP | POLLERR) != 0 && events & Int32(POLLIN) == 0 {
            throw WaylandError.connectionLost("the compositor hung up")
        }
        if wl_display_dispatch_pending(connection) < 0 { throw connectionError() }
        flushInput()
    }

    public func flush() { wl_display_flush(connection) }
}
