import CWaylandClient
import Glibc
import LecternLinux
import Logging
import SystemPackage

/// The Wayland selection ("copy"): `wl_data_device_manager` → the seat's `wl_data_device` →
/// `set_selection` with a `wl_data_source` offering the text as `text/plain;charset=utf-8`,
/// `UTF8_STRING` and `text/plain`. When another client pastes, the compositor passes a pipe in
/// `wl_data_source.send`; the text is written to it without blocking, through the event loop
/// (a slow reader never stalls a frame), and the pipe is closed when done.
///
/// Offers from other clients (`wl_data_device.data_offer`) are not read: a kiosk pastes nothing.
final class DataDevice {
    /// The types the text is offered as.
    static let mimeTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain"]

    private unowned let display: Display
    private let device: OpaquePointer
    private let deviceListener: Listener<wl_data_device_listener>
    private let sourceListener: Listener<wl_data_source_listener>
    /// The source set as the selection, and its text.
    private var source: OpaquePointer?
    private var text: [UInt8] = []
    /// Offers the compositor made (other clients' selections), destroyed when replaced.
    private var offers: Set<OpaquePointer> = []
    /// Pipes being written to.
    private var writes: [ObjectIdentifier: PipeWrite] = [:]

    init?(manager: OpaquePointer, seat: Seat, display: Display) {
        guard let device = wl_data_device_manager_get_data_device(manager, seat.proxy) else { return nil }
        self.display = display
        self.device = device
        deviceListener = Listener(
            wl_data_device_listener(
                data_offer: { data, _, offer in
                    guard let data, let offer else { return }
                    Unmanaged<DataDevice>.fromOpaque(data).takeUnretainedValue().offers.insert(offer)
                },
                enter: { _, _, _, _, _, _, _ in },
                leave: { _, _ in },
                motion: { _, _, _, _, _ in },
                drop: { _, _ in },
                selection: { data, _, offer in
                    guard let data else { return }
                    Unmanaged<DataDevice>.fromOpaque(data).takeUnretainedValue().selectionOffered(offer)
                }))
        sourceListener = Listener(
            wl_data_source_listener(
                target: { _, _, _ in },
                send: { data, source, mimeType, fd in
                    guard let data else {
                        close(fd)
                        return
                    }
                    Unmanaged<DataDevice>.fromOpaque(data).takeUnretainedValue().send(from: source, fd: fd)
                },
                cancelled: { data, source in
                    guard let data else { return }
                    Unmanaged<DataDevice>.fromOpaque(data).takeUnretainedValue().cancelled(source)
                },
                dnd_drop_performed: { _, _ in },
                dnd_finished: { _, _ in },
                action: { _, _, _ in }))
        wl_data_device_add_listener(device, deviceListener.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        for write in writes.values { write.finish() }
        if let source { wl_data_source_destroy(source) }
        for offer in offers { wl_data_offer_destroy(offer) }
        if wl_proxy_get_version(device) >= 2 { wl_data_device_release(device) } else { wl_data_device_destroy(device) }
    }

    /// Offers `text` as the selection (nil: withdraws Lectern's selection, if it holds it).
    func offer(_ text: String?, serial: UInt32) {
        if let old = source {
            wl_data_source_destroy(old)
            source = nil
        }
        guard let text, let manager = display.dataDeviceManager,
            let source = wl_data_device_manager_create_data_source(manager)
        else {
            wl_data_device_set_selection(device, nil, serial)
            return
        }
        self.text = Array(text.utf8)
        self.source = source
        wl_data_source_add_listener(source, sourceListener.pointer, Unmanaged.passUnretained(self).toOpaque())
        for type in Self.mimeTypes { wl_data_source_offer(source, type) }
        wl_data_device_set_selection(device, source, serial)
    }

    private func selectionOffered(_ offer: OpaquePointer?) {
        // Another client's selection (or ours, as the compositor shows it to every client): keep
        // only the newest offer.
        for old in offers where old != offer { wl_data_offer_destroy(old) }
        offers = offer.map { [$0] } ?? []
    }

    private func cancelled(_ cancelled: OpaquePointer?) {
        // Another client took the selection.
        guard let cancelled, cancelled == source else {
            if let cancelled { wl_data_source_destroy(cancelled) }
            return
        }
        wl_data_source_destroy(cancelled)
        source = nil
        display.logger.debug("the selection was taken by another client")
    }

    private func send(from requester: OpaquePointer?, fd: Int32) {
        guard requester == source else {
            close(fd)
            return
        }
        let write = PipeWrite(descriptor: FileDescriptor(rawValue: fd), bytes: text, loop: display.loop)
        let key = ObjectIdentifier(write)
        writes[key] = write
        write.onDone = { [unowned self] in writes[key] = nil }
        write.start()
    }
}

/// The selected text going down one pipe, a chunk at a time as the pipe has room.
final class PipeWrite {
    private let descriptor: FileDescriptor
    private let bytes: [UInt8]
    private var written = 0
    private unowned let loop: EventLoop
    private var watch: EventLoop.Watch?
    var onDone: (() -> Void)?

    init(descriptor: FileDescriptor, bytes: [UInt8], loop: EventLoop) {
        self.descriptor = descriptor
        self.bytes = bytes
        self.loop = loop
    }

    func start() {
        let flags = fcntl(descriptor.rawValue, F_GETFL)
        _ = fcntl(descriptor.rawValue, F_SETFL, flags | O_NONBLOCK)
        writeSome()
    }

    /// Writes what fits; watches for room while something is left.
    private func writeSome() {
        while written < bytes.count {
            let count = PipeWrite.writeWithoutSIGPIPE(descriptor.rawValue, bytes, from: written)
            if count > 0 {
                written += count
            } else if count < 0 && errno == EAGAIN {
                if watch == nil { watch = loop.watchWritable(descriptor) { [unowned self] in writeSome() } }
                return
            } else {
                break  // the reader went away (EPIPE) or another error: give up on this paste
            }
        }
        finish()
        onDone?()
    }

    func finish() {
        watch?.cancel()
        watch = nil
        try? descriptor.close()
    }

    /// `write(2)` with SIGPIPE blocked on this thread (a reader that went away is EPIPE, not a
    /// signal that ends the process), a pending SIGPIPE taken back.
    private static func writeWithoutSIGPIPE(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> Int {
        var block = sigset_t()
        var old = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &block, &old)
        var count: Int
        repeat {
            count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        } while count < 0 && errno == EINTR
        let code = errno
        if count < 0 && code == EPIPE {
            var none = timespec()
            _ = sigtimedwait(&block, nil, &none)
        }
        pthread_sigmask(SIG_SETMASK, &old, nil)
        errno = code
        return count
    }
}
