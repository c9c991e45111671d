import CLecternLinux
import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The requests the reader sends the worker (tiles, text, search, the page tree, edits, saves),
/// and how one goes over a channel and comes back.
extension RenderProcess {
    /// Draws tile `key` in the worker; nil when `cookie` cancelled it. A page the worker died
    /// on twice, or that overran its deadline, is `TileContent.undrawable`. Render threads.
    public func render(_ key: TileKey, cookie: RenderCookie) -> TileContent? {
        let rect = key.rect
        guard rect.width > 0, rect.height > 0 else { return .failed("\(key) is outside its page") }
        let stride = rect.width * 4
        let size = SharedTileBuffer.pixelOffset + stride * rect.height
        // A small tile (a 256-px grid tile, a thumbnail) is drawn into the channel's buffer and
        // copied out while the channel is still this thread's. A bigger one (a page that is one
        // tile) gets shared memory of its own, which becomes its image (no copy; let go in the
        // worker after the answer). Fresh shared memory costs twice what a copy does per byte
        // on this machine, and channel buffers for the biggest tiles would stay resident.
        var own: SharedTileBuffer?
        if size > Self.channelBufferSize {
            do throws(SystemError) {
                own = try SharedTileBuffer(size: size)
            } catch {
                return .failed("cannot share tiles with the render worker: \(error)")
            }
        }
        var image: RasterImage?
        let outcome = ask(
            .render(key, stride: stride, ownMemory: own != nil), page: key.page, cookie: cookie,
            memory: own.map(TileMemory.own) ?? .channel
        ) { drawn in
            if let own {
                // Not to be sent again (a retry after the worker died would).
                own.closeDescriptor()
                image = RasterImage(width: rect.width, height: rect.height, pixels: own.pixels, owner: own)
            } else {
                let copy = RasterImage(width: rect.width, height: rect.height)
                copy.pixels.copyMemory(from: drawn.pixels, byteCount: stride * rect.height)
                image = copy
            }
        }
        switch outcome {
        case .answer(.drawn(.drawn(let isDamaged))):
            guard let image else { return .failed("the render worker drew into no memory") }
            lock.lock()
            state.tilesDrawn += 1
            lock.unlock()
            return .image(image, isDamaged: isDamaged)
        case .answer(.drawn(.cancelled)): return nil
        case .answer(.drawn(.failed(let reason))), .answer(.failed(let reason)), .failed(let reason):
            return .failed(reason)
        case .answer: return .failed("the render worker answered a render with something else")
        case .undrawable: return .undrawable
        }
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
        logger.error("render worker \(worker.pid) ended (\(Self.describe(status))) opening \(path)")
        return .failure(
            PDFError(
                .damaged, path: path,
                message: "cannot show \(path): MuPDF crashed opening it (\(Self.describe(status)))"))
    }

    /// Walks the page tree in the worker: the number of pages it holds. Any thread but the main one.
    public func pageTree() -> Result<Int, WireError> {
        call(.pageTree) { if case .pageCount(let count) = $0 { count } else { nil } }
    }

    /// The geometry and labels of the pages in `range` (nil: that page's cannot be read).
    public func pageInfos(in range: Range<Int>) -> Result<[PageInfo?], WireError> {
        call(.pageInfos(range)) {
            if case .pageInfos(let infos) = $0, infos.count == range.count { infos } else { nil }
        }
    }

    /// Frees the page objects reading every page's info kept in the worker.
    public func releasePageObjects() {
        _ = call(.releasePageObjects) { if case .done = $0 { () } else { nil } }
    }

    /// A page's annotations and form fields, read in the worker.
    public func annotations(page: Int) -> Result<[AnnotationInfo], WireError> {
        call(.annotations(page: page), page: page) { if case .annotations(let found) = $0 { found } else { nil } }
    }

    /// The document's outline, read in the worker.
    public func outline() -> Result<[OutlineEntry], WireError> {
        call(.outline) { if case .outline(let entries) = $0 { entries } else { nil } }
    }

    /// A page's presentation keys, read in the worker.
    public func presentation(page: Int) -> Result<PagePresentation, WireError> {
        call(.presentation(page: page), page: page) { if case .presentation(let keys) = $0 { keys } else { nil } }
    }

    /// Saves the document with the edits made so far incrementally to `path`, in a worker of
    /// its own: the file opened again, the edits applied again, and the copy written there (the
    /// render worker's seccomp filter forbids writing files, so that worker runs without it; it
    /// ends with the save). Any thread but the main one.
    public func save(to path: String) -> Result<Void, WireError> {
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
            return saver.call(.save(path: path)) { if case .done = $0 { () } else { nil } }
        } catch {
            return .failure(WireError("cannot start a worker to save: \(error)"))
        }
    }

    /// Asks `request` (about `page`; -1: the document's) and reads its answer with `answer`
    /// (nil: an answer of another kind).
    private func call<T>(
        _ request: WorkerRequest, page: Int = -1, answer: (WorkerResponse) -> T?
    ) -> Result<T, WireError> {
        switch ask(request, page: page, cookie: nil, memory: .none) {
        case .answer(.failed(let reason)), .failed(let reason): return .failure(WireError(failure: reason))
        case .answer(let response):
            guard let value = answer(response) else {
                return .failure(WireError("the render worker answered \(request) with something else"))
            }
            return .success(value)
        case .undrawable: return .failure(WireError(failure: TileContent.undrawableReason))
        }
    }

    /// The text blocks, links and characters of `page`, read in the worker. Any thread but the main one.
    public func pageText(
        page: Int
    ) -> Result<
        (blocks: [Rect], links: [PDFLink], characters: [PageCharacter]), WireError
    > {
        call(.pageText(page: page), page: page) {
            if case .pageText(let blocks, let links, let characters) = $0 { (blocks, links, characters) } else { nil }
        }
    }

    /// Where `query` is found on `page`, searched in the worker. Any thread but the main one.
    public func search(_ query: SearchQuery, page: Int) -> Result<[SearchHit], WireError> {
        call(.search(query: query.text, page: page), page: page) {
            if case .searchHits(let hits) = $0 { hits } else { nil }
        }
    }

    /// Applies `edit` in the worker (and in every worker started after it); returns the field's
    /// value afterwards for field edits. Any thread but the main one.
    public func edit(_ edit: DocumentEdit) -> Result<String?, WireError> {
        let result = call(.edit(edit), page: edit.page ?? -1) { response -> String?? in
            if case .edited(let value) = response { .some(value) } else { nil }
        }
        if case .success = result {
            lock.lock()
            state.edits.append(edit)
            lock.unlock()
        }
        return result
    }

    private enum Outcome {
        case answer(WorkerResponse)
        case failed(String)
        case undrawable
    }

    /// Where a render request's tile is drawn.
    private enum TileMemory {
        case none
        /// The channel's buffer (made on its first use, sent once).
        case channel
        /// Memory of the tile's own, sent with the request.
        case own(SharedTileBuffer)
    }

    /// Asks `request` about `page` of a running worker (starting one if none runs), with the
    /// tile's memory; `drawn` reads that memory after a drawn answer, while the channel is
    /// still this thread's. Asks a new worker once more when the worker dies, unless the page is
    /// to blame.
    private func ask(
        _ request: WorkerRequest, page: Int, cookie: RenderCookie?, memory: TileMemory,
        drawn: (SharedTileBuffer) -> Void = { _ in }
    ) -> Outcome {
        while true {
            lock.lock()
            if state.undrawable.contains(page) {
                lock.unlock()
                return .undrawable
            }
            if !waitForTurn(page, cookie: cookie) {
                lock.unlock()
                return .answer(.drawn(.cancelled))
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

            var answer: WorkerResponse?
            var tile: SharedTileBuffer?
            do throws(SystemError) {
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
                answer = exchange(request, on: channel, worker: worker, tile: tile, cookie: cookie)
                if case .drawn(.drawn)? = answer, let tile { drawn(tile) }
            } catch {
                answer = .failed("cannot share tiles with the render worker: \(error)")
            }

            lock.lock()
            state.inFlight[id] = nil
            state.finished.append(id)
            let expired = state.expired.remove(id) != nil
            if answer == nil { workerDied(worker, page: page) }
            // Asked alone and answered: not to blame.
            if answer != nil, state.isolating == page { state.suspects.remove(page) }
            endTurn(page)
            worker.returnChannel(channel, lock)
            lock.unlock()
            events.signal()
            if let answer { return .answer(answer) }
            if expired || cookie?.isCancelled == true {
                return expired ? .undrawable : .answer(.drawn(.cancelled))
            }
        }
    }

    /// Sends `request` on `channel` and waits for the answer, passing a cancel of `cookie` on to
    /// the worker through the tile's shared cookie. Nil when the worker died.
    private func exchange(
        _ request: WorkerRequest, on channel: Channel, worker: Worker, tile: SharedTileBuffer?, cookie: RenderCookie?
    ) -> WorkerResponse? {
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
        return receive(on: channel.socket)
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

    private func receive(on socket: WorkerChannel) -> WorkerResponse? {
        guard let (bytes, fd) = socket.receive() else { return nil }
        if fd >= 0 { close(fd) }
        var reader = WireReader(bytes)
        do throws(WireError) {
            return try WorkerResponse.decode(&reader)
        } catch {
            return .failed(error.description)
        }
    }
}
