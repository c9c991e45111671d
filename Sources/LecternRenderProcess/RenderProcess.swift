import CLecternLinux
import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The reader's side of the render worker process: takes the worker `lectern` forked at its
/// start (`RenderWorkerMain.forkAtStart`) or starts `lectern --render-worker` (the same binary,
/// exec'd: a fork of a process whose Swift runtime and threads are running is not safe to keep
/// running), asks it for tiles and page text over one channel per render thread, and starts it
/// again (exec'd) when it dies.
///
/// Thread safe: render threads call `render(_:cookie:)` and `pageText(page:)`, which block
/// until the worker answers (never on the main thread). The main thread runs the deadline
/// watchdog: it learns of requests through `eventDescriptor`/`takeEvents()` and calls
/// `expire(_:)` for one that overran; the worker is then killed, that page shows as undrawable,
/// and the other requests in flight are asked again of a new worker.
public final class RenderProcess: @unchecked Sendable {
    // Sendable: all mutable state is guarded by `lock`.
    /// How to start the worker.
    public struct Settings: Sendable {
        /// The `lectern` executable (by default this process's own).
        public var executable: String
        public var documentPath: String
        public var password: String?
        /// The page the worker interprets as soon as the document is open.
        public var startPage: Int
        /// Channels, one per render thread (a render waits for a free one).
        public var channels: Int
        /// The worker's RLIMIT_AS in bytes.
        public var addressSpace: Int
        /// Tests: milliseconds each render waits in the worker first (0: none).
        public var renderDelayMilliseconds = 0
        /// Tests: the page (0-based) whose render crashes the worker (-1: none).
        public var crashPage = -1
        /// Whether the worker installs its seccomp filter (a worker that saves a copy writes a
        /// file: it does not).
        public var isFiltered = true
        /// Edits the worker applies as it opens the document (a worker that saves a copy is
        /// given those the document's render worker applied).
        public var edits: [DocumentEdit] = []
        /// Whether the worker forked at this process's start may serve as the first worker
        /// (the executable is this process's own).
        var mayTakeForkedWorker: Bool { executable == "/proc/self/exe" && isFiltered }

        public init(
            executable: String, documentPath: String, password: String?, startPage: Int, channels: Int,
            addressSpace: Int
        ) {
            self.executable = executable
            self.documentPath = documentPath
            self.password = password
            self.startPage = startPage
            self.channels = channels
            self.addressSpace = addressSpace
        }
    }

    /// What the worker is doing, for `KioskStatus`.
    public struct Status: Equatable, Sendable {
        /// The running worker's pid (nil: none runs now).
        public var pid: Int32?
        /// Workers started after the first (after a crash or a deadline).
        public var restarts = 0
        /// Pages shown as "could not be drawn" (0-based): not asked for again.
        public var failedPages: [Int] = []
        /// Requests the worker is working on now.
        public var requestsInFlight = 0
        /// Tiles drawn (its restarts included).
        public var tilesDrawn = 0
    }

    /// The channels a reader asks for: one per render thread, and one for page text and search.
    public static var defaultChannels: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) + 1 }

    private let settings: Settings
    private let logger: Logger
    private let lock = ConditionLock()
    private var state = State()
    private let events: EventFD

    private struct State {
        var worker: Worker?
        var starts = 0
        var nextID: UInt64 = 1
        var inFlight: [UInt64: (page: Int, worker: Worker)] = [:]
        var started: [UInt64] = []
        var finished: [UInt64] = []
        var expired: Set<UInt64> = []
        /// The workers each page was in flight in when they died.
        var crashes: [Int: Set<ObjectIdentifier>] = [:]
        /// Pages in flight beside others when a worker died: any of them may be to blame, so
        /// each is asked again alone.
        var suspects: Set<Int> = []
        /// The suspect being asked alone now (nothing else is in flight meanwhile).
        var isolating: Int?
        /// Requests for suspects waiting their turn (others wait behind them).
        var waitingSuspects = 0
        var undrawable: Set<Int> = []
        var tilesDrawn = 0
        var stopped = false
        /// The edits applied so far, replayed to each new worker after it opens the document.
        var edits: [DocumentEdit] = []
    }

    /// The size of a channel's buffer for small tiles: a 256-px grid tile, previews and
    /// thumbnails up to 1 MiB of pixels. Bigger tiles get memory of their own.
    static let channelBufferSize = SharedTileBuffer.pixelOffset + (1 << 20)

    /// The document the worker draws.
    public var documentPath: String { settings.documentPath }

    public init(settings: Settings, logger: Logger) throws(SystemError) {
        self.settings = settings
        self.logger = logger
        state.edits = settings.edits
        events = try EventFD()
    }

    deinit { stop() }

    /// Readable when requests started or ended (`takeEvents()`), for the main loop to watch.
    public var eventDescriptor: Int32 { events.descriptor.rawValue }

    /// Starts the worker now, so it opens the document while the window comes up.
    public func start() {
        lock.lock()
        defer { lock.unlock() }
        _ = runningWorker()
    }

    /// Kills the worker (shutdown); requests after this fail.
    public func stop() {
        lock.lock()
        state.stopped = true
        let worker = state.worker
        state.worker = nil
        lock.unlock()
        worker?.kill()
    }

    public var status: Status {
        lock.lock()
        defer { lock.unlock() }
        return Status(
            pid: state.worker.flatMap { $0.isDead ? nil : $0.pid }, restarts: max(0, state.starts - 1),
            failedPages: state.undrawable.sorted(), requestsInFlight: state.inFlight.count, tilesDrawn: state.tilesDrawn
        )
    }

    /// The requests started and ended since the last call (the watchdog's timers). Main thread.
    public func takeEvents() -> (started: [UInt64], finished: [UInt64]) {
        events.drain()
        lock.lock()
        defer {
            state.started.removeAll()
            state.finished.removeAll()
            lock.unlock()
        }
        return (state.started, state.finished)
    }

    /// Request `id` overran its deadline: its page is not asked for again, and the worker is
    /// killed (the requests in flight with it are asked again of a new one). Main thread.
    public func expire(_ id: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        guard let request = state.inFlight[id] else { return }
        state.expired.insert(id)
        state.undrawable.insert(request.page)
        request.worker.overran = true
        logger.error("page \(request.page + 1) took longer than its deadline: stopping the render worker")
        Glibc.kill(request.worker.pid, SIGKILL)
    }

    // MARK: Requests

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

    // MARK: The process (under `lock`)

    /// The running worker, started if none runs. Nil when it cannot start or after `stop()`.
    private func runningWorker() -> Worker? {
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
    private func waitForTurn(_ page: Int, cookie: RenderCookie?) -> Bool {
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
    private func endTurn(_ page: Int) {
        guard state.isolating == page, !state.inFlight.values.contains(where: { $0.page == page }) else { return }
        state.isolating = nil
        lock.broadcast()
    }

    /// `worker` died (or was killed) while `page` and perhaps others were in flight. A page in
    /// flight alone is blamed (once per worker; blamed twice, it is undrawable); pages in flight
    /// together become suspects, each asked again alone, so a page that crashes the worker
    /// takes no innocent page down with it.
    private func workerDied(_ worker: Worker, page: Int) {
        guard !worker.isDead else { return }
        let status = worker.kill()
        logger.error("render worker \(worker.pid) ended (\(Self.describe(status))) while drawing page \(page + 1)")
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

    private static func describe(_ status: Int32) -> String {
        if status < 0 { return "status unknown" }
        if status & 0x7f == 0 { return "exit status \((status >> 8) & 0xff)" }
        return "signal \(status & 0x7f)"
    }
}

/// One channel to the worker: its socket, and its buffer for small tiles.
final class Channel: @unchecked Sendable {
    // Sendable: used by one render thread at a time (the worker hands it out under its lock).
    let socket: WorkerChannel
    var buffer: SharedTileBuffer?
    /// Whether the worker has this buffer's descriptor (sent with the first render using it).
    var bufferSent = false
    /// Channel 0 of a new worker: the answer to the open request comes first.
    var awaitsOpen = false

    init(socket: WorkerChannel) { self.socket = socket }
    deinit { socket.close() }
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
        var ours: [Channel] = []
        if settings.mayTakeForkedWorker, let forked = ForkedWorker.take(channels: channels) {
            pid = forked.pid
            ours = forked.channels.map(Channel.init)
            wasForked = true
        } else {
            var theirs: [WorkerChannel] = []
            defer { for channel in theirs { channel.close() } }
            for _ in 0..<channels {
                let (reader, worker) = try WorkerChannel.pair()
                ours.append(Channel(socket: reader))
                theirs.append(worker)
            }
            let arguments = [settings.executable, RenderWorkerMain.option, String(ours.count)]
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { for pointer in argv { Glibc.free(pointer) } }
            let fds = theirs.map(\.descriptor)
            let pid = CLecternLinux_spawn(settings.executable, &argv, fds, Int32(fds.count))
            guard pid > 0 else { throw SystemError("posix_spawn") }
            self.pid = pid
            wasForked = false
        }
        // The password goes in a message, not on the command line (`ps` shows that).
        let limits = WorkerLimits(
            addressSpace: settings.addressSpace, renderDelayMilliseconds: settings.renderDelayMilliseconds,
            crashPage: settings.crashPage, isFiltered: settings.isFiltered)
        guard
            ours[0].socket.send(
                .open(
                    path: settings.documentPath, password: settings.password,
                    preparePage: isFirst ? settings.startPage : -1, edits: edits, limits: limits))
        else {
            _ = CLecternLinux_kill_and_reap(pid)
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
        return CLecternLinux_kill_and_reap(pid)
    }
}
