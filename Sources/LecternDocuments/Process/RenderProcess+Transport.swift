import CLecternLinux
import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The render worker process as the document service's transport: how a request goes over a
/// channel and comes back. The worker is started (it opens the document: its answer comes
/// first on channel 0), a request waits for its turn (a page suspected of crashing the worker
/// goes alone) and a free channel, and is asked again of a new worker when one dies; a page
/// the worker died on twice is not asked for again.
extension RenderProcess: DocumentTransport {
    /// Starts the worker now, so it opens the document while the window comes up.
    public func start() {
        lock.lock()
        defer { lock.unlock() }
        _ = runningWorker()
    }

    /// Waits until the worker has opened its document, or failed to (its reason then comes with
    /// each request). A worker that dies opening it, as one whose MuPDF crashes on the file
    /// does, is the failure returned: the reader must not open the file itself then. Any thread
    /// but the main one.
    public func awaitOpen() -> Result<DocumentSummary, PDFError> {
        let path = settings.documentPath
        lock.lock()
        guard let worker = runningWorker() else {
            lock.unlock()
            return .failure(
                PDFError(.unreadable, path: path, message: "cannot show \(path): the render worker cannot start"))
        }
        let channel = worker.takeFirstChannel(lock)
        lock.unlock()
        let died = !receiveOpenAnswer(on: channel, of: worker)
        lock.lock()
        defer { lock.unlock() }
        worker.returnChannel(channel, lock)
        if !died {
            if let summary = worker.summary { return .success(summary) }
            return .failure(
                worker.openError ?? PDFError(.damaged, path: path, message: "cannot show \(path): it did not open"))
        }
        let status = worker.isDead ? -1 : worker.kill()
        logger.error("render worker \(worker.pid) ended (\(ChildProcess.describe(status))) opening \(path)")
        return .failure(
            PDFError(
                .damaged, path: path,
                message: "cannot show \(path): MuPDF crashed opening it (\(ChildProcess.describe(status)))"))
    }

    /// The channel's buffer for a small tile (a 256-px grid tile, a thumbnail), copied out
    /// while the channel is still the caller's; memory of its own for a bigger one (a page that
    /// is one tile), which becomes its image (no copy; let go in the worker after the answer).
    /// Fresh shared memory costs twice what a copy does per byte on this machine, and channel
    /// buffers for the biggest tiles would stay resident.
    public func tileMemory(size: Int) throws(SystemError) -> TileMemory {
        size > Self.channelBufferSize ? .own(try SharedTileBuffer(size: size)) : .channel
    }

    public func countDrawnTile() {
        lock.lock()
        state.tilesDrawn += 1
        lock.unlock()
    }

    /// Asks `request` about `page` of a running worker (starting one if none runs), with the
    /// tile's memory; `read` reads the answer (and that memory) while the channel is still this
    /// thread's. Asks a new worker once more when the worker dies, unless the page is to blame.
    public func exchange<Value>(
        _ request: [UInt8], page: Int, cookie: RenderCookie?, memory: TileMemory,
        read: ([UInt8], SharedTileBuffer?) -> Value
    ) -> Exchange<Value> {
        while true {
            lock.lock()
            if state.undrawable.contains(page) {
                lock.unlock()
                return .undrawable
            }
            if !waitForTurn(page, cookie: cookie) {
                lock.unlock()
                return .cancelled
            }
            guard !state.undrawable.contains(page), let worker = runningWorker() else {
                let undrawable = state.undrawable.contains(page)
                endTurn(page)
                lock.unlock()
                return undrawable ? .undrawable : .failed("the render worker cannot start")
            }
            let channel = worker.takeChannel(lock)
            let id = begin(page: page, on: worker)
            lock.unlock()
            events.signal()

            var outcome: Exchange<Value>?
            do throws(SystemError) {
                var tile: SharedTileBuffer?
                var descriptor: Int32 = -1
                switch memory {
                case .none: break
                case .descriptor(let fd): descriptor = fd
                case .own(let own): tile = own
                case .channel: tile = try channel.tileBuffer()
                }
                switch send(request, on: channel, worker: worker, tile: tile, descriptor: descriptor, cookie: cookie) {
                case .answer(let answer)?: outcome = .answered(read(answer, tile))
                case .failed(let reason)?: outcome = .failed(reason)
                case nil: break
                }
            } catch {
                outcome = .failed("cannot share tiles with the render worker: \(error)")
            }

            lock.lock()
            let expired = end(id)
            if outcome == nil { workerDied(worker, page: page) }
            // Asked alone and answered: not to blame.
            if outcome != nil, state.isolating == page { state.suspects.remove(page) }
            endTurn(page)
            worker.returnChannel(channel, lock)
            lock.unlock()
            events.signal()
            if let outcome { return outcome }
            if expired { return .undrawable }
            if cookie?.isCancelled == true { return .cancelled }
        }
    }

    /// What came back on a channel.
    private enum Reply {
        case answer([UInt8])
        /// The worker did not open the document: why.
        case failed(String)
    }

    /// Sends `request` on `channel` (with the tile's memory, or `descriptor`) and waits for the
    /// answer, passing a cancel of `cookie` on to the worker through the tile's shared cookie. Nil
    /// when the worker died.
    private func send(
        _ request: [UInt8], on channel: Channel, worker: Worker, tile: SharedTileBuffer?, descriptor: Int32,
        cookie: RenderCookie?
    ) -> Reply? {
        guard receiveOpenAnswer(on: channel, of: worker) else { return nil }

        if let error = worker.openError { return .failed(error.description) }
        var shared: RenderCookie?
        if let tile { shared = RenderCookie(clearing: tile.memory) }
        // The channel's buffer goes once; a tile's own memory each time.
        let isChannelBuffer = tile != nil && tile === channel.buffer
        let fd = tile.map { isChannelBuffer && channel.bufferSent ? -1 : $0.fd } ?? descriptor
        guard channel.socket.send(request, fd: fd) else { return nil }
        if isChannelBuffer {
            // Sent for good (a new worker has new channels): the mappings keep the memory.
            channel.bufferSent = true
            tile?.closeDescriptor()
        }
        if let cookie, let shared {
            while !channel.socket.waitReadable(milliseconds: 5) {
                if cookie.isCancelled && !shared.isCancelled { shared.cancel() }
            }
        }
        guard let (answer, fd) = channel.socket.receive() else { return nil }
        if fd >= 0 { close(fd) }
        return .answer(answer)
    }

    /// Reads the answer to the open request if `channel` (channel 0 of a new worker) still has
    /// it coming, keeping a failure to open for the worker's requests. False when the worker died.
    func receiveOpenAnswer(on channel: Channel, of worker: Worker) -> Bool {
        guard channel.awaitsOpen else { return true }
        guard let opened = receive(on: channel.socket) else { return false }
        channel.awaitsOpen = false
        let path = settings.documentPath
        switch opened {
        case .opened(let summary): worker.summary = summary
        case .openFailed(let error): worker.openError = error
        case .failed(let reason): worker.openError = PDFError(.damaged, path: path, message: reason)
        default:
            worker.openError = PDFError(
                .damaged, path: path, message: "the render worker answered the open with something else")
        }
        return true
    }

    private func receive(on socket: MessageChannel) -> DocumentResponse? {
        guard let (bytes, fd) = socket.receive() else { return nil }
        if fd >= 0 { close(fd) }
        var reader = WireReader(bytes)
        do throws(WireError) {
            return try DocumentResponse.decode(&reader)
        } catch {
            return .failed(error.description)
        }
    }

    // MARK: The process (under `lock`)

    /// The running worker, started if none runs. Nil when it cannot start or after `stop()`.
    func runningWorker() -> Worker? {
        if let worker = state.worker, !worker.isDead { return worker }
        guard !state.stopped else { return nil }
        do throws(SystemError) {
            let worker = try Worker(settings: settings, edits: state.edits, isFirst: state.starts == 0)
            state.worker = worker
            state.starts += 1
            let how = worker.wasForked ? " (forked at start)" : state.starts > 1 ? " (restart \(state.starts - 1))" : ""
            logger.info("render worker \(worker.pid) started\(how)")
            return worker
        } catch {
            logger.error("cannot start the render worker \(settings.executable): \(error)")
            return nil
        }
    }

    /// Waits (on `lock`, held) until a request about `page` may go to the worker: a suspect
    /// goes alone, once nothing else is in flight, and the others wait while one does or waits.
    /// False when `cookie` was cancelled meanwhile.
    func waitForTurn(_ page: Int, cookie: RenderCookie?) -> Bool {
        let isSuspect = state.suspects.contains(page)
        if isSuspect { state.waitingSuspects += 1 }
        defer { if isSuspect { state.waitingSuspects -= 1 } }
        while true {
            if cookie?.isCancelled == true { return false }
            if let isolating = state.isolating {
                if isolating == page { return true }
            } else if isSuspect {
                if state.inFlight.isEmpty {
                    state.isolating = page
                    return true
                }
            } else if state.waitingSuspects == 0 {
                return true
            }
            lock.wait()
        }
    }

    /// A request about `page` is done: if it was the suspect asked alone and nothing more of it
    /// is in flight, the others may go (`lock` held).
    func endTurn(_ page: Int) {
        guard state.isolating == page, !state.inFlight.values.contains(where: { $0.page == page }) else { return }
        state.isolating = nil
        lock.broadcast()
    }

    /// `worker` died (or was killed) while `page` and perhaps others were in flight. A page in
    /// flight alone is blamed (once per worker; blamed twice, it is undrawable); pages in flight
    /// together become suspects, each asked again alone, so a page that crashes the worker
    /// takes no innocent page down with it.
    func workerDied(_ worker: Worker, page: Int) {
        guard !worker.isDead else { return }
        let status = worker.kill()
        logger.error(
            "render worker \(worker.pid) ended (\(ChildProcess.describe(status))) while drawing page \(page + 1)")
        // A worker killed for a deadline is the overrunning page's fault alone.
        guard !worker.overran else { return }
        let pages = Set([page] + state.inFlight.values.filter { $0.worker === worker }.map(\.page))
        guard pages.count == 1 else {
            state.suspects.formUnion(pages)
            logger.info("pages \(pages.sorted().map { $0 + 1 }) were drawn together: each is asked again alone")
            return
        }
        state.crashes[page, default: []].insert(ObjectIdentifier(worker))
        if state.crashes[page]!.count >= 2 {
            state.undrawable.insert(page)
            state.suspects.remove(page)
        }
    }
}

/// One channel to the worker: its socket, and its buffer for small tiles.
final class Channel: @unchecked Sendable {
    // Sendable: used by one render thread at a time (the worker hands it out under its lock).
    let socket: MessageChannel
    var buffer: SharedTileBuffer?
    /// Whether the worker has this buffer's descriptor (sent with the first render using it).
    var bufferSent = false
    /// Channel 0 of a new worker: the answer to the open request comes first.
    var awaitsOpen = false

    init(socket: MessageChannel) { self.socket = socket }
    deinit { socket.close() }

    /// The buffer for small tiles and batches, made on its first use.
    func tileBuffer() throws(SystemError) -> SharedTileBuffer {
        if let buffer { return buffer }
        let made = try SharedTileBuffer(size: RenderProcess.channelBufferSize)
        buffer = made
        bufferSent = false
        return made
    }
}

/// One started worker process and the reader's ends of its channels.
final class Worker: @unchecked Sendable {
    // Sendable: mutable state is guarded by the `RenderProcess` lock passed in.
    let pid: Int32
    private var free: [Channel]
    private(set) var isDead = false
    /// The document as the worker opened it, or why it did not open.
    var summary: DocumentSummary?
    var openError: PDFError?
    /// It was killed because a request overran its deadline.
    var overran = false
    /// It is the worker forked at this process's start (not exec'd).
    let wasForked: Bool
    /// Channel 0: the open request went there.
    let first: Channel

    /// The first worker interprets the start page as it opens; a restarted one does not (that
    /// page may be what crashed the last one).
    init(settings: RenderProcess.Settings, edits: [DocumentEdit], isFirst: Bool) throws(SystemError) {
        let channels = max(1, settings.channels)
        let child: ChildProcess
        if settings.mayTakeForkedWorker, let forked = ChildProcess.take(role: RenderWorkerMain.role, channels: channels)
        {
            child = forked
            wasForked = true
        } else {
            child = try ChildProcess.spawn(
                settings.executable, arguments: [settings.executable, RenderWorkerMain.option, String(channels)],
                channels: channels)
            wasForked = false
        }
        pid = child.pid
        let ours = child.channels.map(Channel.init)
        // The password goes in a message, not on the command line (`ps` shows that).
        let limits = WorkerLimits(
            addressSpace: settings.addressSpace, renderDelayMilliseconds: settings.renderDelayMilliseconds,
            crashPage: settings.crashPage, isFiltered: settings.isFiltered, niceness: settings.niceness)
        guard
            ours[0].socket.send(
                .open(
                    path: settings.documentPath, password: settings.password,
                    preparePage: isFirst ? settings.startPage : -1, edits: edits, limits: limits))
        else {
            ChildProcess.killAndReap(pid)
            throw SystemError("sendmsg")
        }
        ours[0].awaitsOpen = true
        first = ours[0]
        free = ours
    }

    /// Channel 0, the one the open answer comes on, once it is free (`lock` held).
    func takeFirstChannel(_ lock: ConditionLock) -> Channel {
        while !free.contains(where: { $0 === first }) { lock.wait() }
        free.removeAll { $0 === first }
        return first
    }

    /// A free channel, waiting for one (on `lock`, held) while all are in use.
    func takeChannel(_ lock: ConditionLock) -> Channel {
        while free.isEmpty { lock.wait() }
        return free.removeLast()
    }

    /// Gives `channel` back (`lock` held).
    func returnChannel(_ channel: Channel, _ lock: ConditionLock) {
        free.append(channel)
        lock.broadcast()
    }

    /// Kills the process and reaps it; returns its wait status.
    @discardableResult
    func kill() -> Int32 {
        isDead = true
        return ChildProcess.killAndReap(pid)
    }
}

extension MessageChannel {
    /// Sends `message`; false when the peer is gone.
    func send(_ message: DocumentRequest, fd: Int32 = -1) -> Bool {
        var writer = WireWriter()
        message.encode(into: &writer)
        return send(writer.bytes, fd: fd)
    }
}
