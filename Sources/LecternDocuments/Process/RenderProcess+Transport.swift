import CLecternLinux
import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The render worker process as the document service's transport: how a request goes over a
/// channel and comes back, asked again of a new worker when one dies.
extension RenderProcess: DocumentTransport {
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
        logger.error("render worker \(worker.pid) ended (\(Self.describe(status))) opening \(path)")
        return .failure(
            PDFError(
                .damaged, path: path,
                message: "cannot show \(path): MuPDF crashed opening it (\(Self.describe(status)))"))
    }

    /// The channel's buffer for a small tile (a 256-px grid tile, a thumbnail), copied out
    /// while the channel is still the caller's; memory of its own for a bigger one (a page that
    /// is one tile), which becomes its image (no copy; let go in the worker after the answer).
    /// Fresh shared memory costs twice what a copy does per byte on this machine, and channel
    /// buffers for the biggest tiles would stay resident.
    public func tileMemory(size: Int) throws(SystemError) -> TileMemory {
        size > Self.channelBufferSize ? .own(try SharedTileBuffer(size: size)) : .channel
    }

    /// Asks a worker of its own to write: the file opened again, the edits applied again, and
    /// the request answered there (the render worker's seccomp filter forbids writing files, so
    /// that worker runs without it; it ends with the request). Any thread but the main one.
    public func exchangeWriting<Value>(_ request: [UInt8], read: ([UInt8]) -> Value) -> Exchange<Value> {
        var saving = settings
        lock.lock()
        saving.edits = state.edits
        lock.unlock()
        saving.isFiltered = false
        saving.channels = 1
        saving.startPage = -1
        do throws(SystemError) {
            let saver = try RenderProcess(settings: saving, logger: logger)
            defer { saver.stop() }
            return saver.exchange(request, page: -1, cookie: nil, memory: .none) { answer, _ in read(answer) }
        } catch {
            return .failed("cannot start a worker to save: \(error)")
        }
    }

    public func applied(_ edit: DocumentEdit) {
        lock.lock()
        state.edits.append(edit)
        lock.unlock()
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
            let id = state.nextID
            state.nextID += 1
            state.inFlight[id] = (page, worker)
            state.started.append(id)
            lock.unlock()
            events.signal()

            var outcome: Exchange<Value>?
            do throws(SystemError) {
                var tile: SharedTileBuffer?
                switch memory {
                case .none: break
                case .own(let own): tile = own
                case .channel:
                    if channel.buffer == nil {
                        channel.buffer = try SharedTileBuffer(size: Self.channelBufferSize)
                        channel.bufferSent = false
                    }
                    tile = channel.buffer
                }
                switch send(request, on: channel, worker: worker, tile: tile, cookie: cookie) {
                case .answer(let answer)?: outcome = .answered(read(answer, tile))
                case .failed(let reason)?: outcome = .failed(reason)
                case nil: break
                }
            } catch {
                outcome = .failed("cannot share tiles with the render worker: \(error)")
            }

            lock.lock()
            state.inFlight[id] = nil
            state.finished.append(id)
            let expired = state.expired.remove(id) != nil
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

    /// Sends `request` on `channel` and waits for the answer, passing a cancel of `cookie` on to
    /// the worker through the tile's shared cookie. Nil when the worker died.
    private func send(
        _ request: [UInt8], on channel: Channel, worker: Worker, tile: SharedTileBuffer?, cookie: RenderCookie?
    ) -> Reply? {
        guard receiveOpenAnswer(on: channel, of: worker) else { return nil }

        if let error = worker.openError { return .failed(error.description) }
        var shared: RenderCookie?
        if let tile { shared = RenderCookie(clearing: tile.memory) }
        // The channel's buffer goes once; a tile's own memory each time.
        let isChannelBuffer = tile != nil && tile === channel.buffer
        let fd = tile.map { isChannelBuffer && channel.bufferSent ? -1 : $0.fd } ?? -1
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
    private func receiveOpenAnswer(on channel: Channel, of worker: Worker) -> Bool {
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

    private func receive(on socket: WorkerChannel) -> DocumentResponse? {
        guard let (bytes, fd) = socket.receive() else { return nil }
        if fd >= 0 { close(fd) }
        var reader = WireReader(bytes)
        do throws(WireError) {
            return try DocumentResponse.decode(&reader)
        } catch {
            return .failed(error.description)
        }
    }
}
