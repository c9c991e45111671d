import CLecternLinux
import CSeccomp
import Glibc
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The render worker process: `lectern --render-worker CHANNELS ADDRESS-SPACE [DELAY-MS]`, which
/// the reader starts (`RenderProcess`) with its channels as descriptors 3, 4, …
///
/// It limits itself (address space, no core dumps, dies with its parent), waits for the
/// document on channel 0, opens it, installs its seccomp filter, and from then on answers
/// requests on every channel, one thread per channel, until the reader closes them.
public enum RenderWorkerMain {
    /// The hidden option that makes `lectern` a render worker.
    public static let option = "--render-worker"

    /// Runs the worker with the arguments after `option` (logging set up); returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        let logger = Logger(label: "lectern-render-worker")
        guard arguments.count >= 2, let channels = Int(arguments[0]), channels > 0, channels <= 64,
            let addressSpace = Int(arguments[1])
        else {
            logger.critical("usage: lectern \(option) CHANNELS ADDRESS-SPACE-BYTES [DELAY-MS]")
            return 2
        }
        if CLecternLinux_limit_worker(addressSpace) != 0 {
            logger.critical("cannot limit the render worker: \(errnoText(errno))")
            return 1
        }
        let worker = WorkerDocument(logger: logger, delay: arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0)
        for index in 1..<channels {
            let channel = WorkerChannel(descriptor: Int32(3 + index))
            startDetachedThread(named: "lectern.worker.\(index)") { worker.serve(channel) }
        }
        let first = WorkerChannel(descriptor: 3)
        guard worker.open(on: first) else { return 1 }
        worker.serve(first)
        return 0
    }
}

/// The worker's document, shared by its channel threads.
private final class WorkerDocument: @unchecked Sendable {
    // Sendable: `document` and `failure` are written once under `lock`, before `isOpen`.
    private let lock = ConditionLock()
    private var document: PDFDocument?
    private var failure: String?
    private var isOpen = false
    let logger: Logger
    /// Tests: milliseconds each render waits first (so a test can kill the worker mid-render).
    let delay: Int

    init(logger: Logger, delay: Int) {
        self.logger = logger
        self.delay = delay
    }

    /// Reads the open request on `channel`, opens the document, locks the process down, and
    /// answers. False when the reader is gone or sent something else.
    func open(on channel: WorkerChannel) -> Bool {
        guard let (bytes, fd) = channel.receive() else { return false }
        if fd >= 0 { close(fd) }
        var reader = WireReader(bytes)
        guard case .open(let path, let password, let preparePage, let edits)? = try? WorkerRequest.decode(&reader)
        else {
            logger.critical("the reader's first message is not an open request")
            return false
        }
        let answer: WorkerResponse
        do throws(PDFError) {
            let document = try PDFDocument(path: path, password: password)
            // The edits an earlier worker applied (each succeeded there, so each should here).
            for edit in edits {
                do throws(PDFError) {
                    try edit.apply(to: document)
                } catch {
                    logger.error("cannot apply an earlier edit again: \(error)")
                }
            }
            try? document.prepare(page: min(max(0, preparePage), document.pageCount - 1))
            publish(document: document, failure: nil)
            answer = .opened(pageCount: document.pageCount, isRightToLeft: document.isRightToLeft)
        } catch {
            publish(document: nil, failure: error.description)
            answer = .failed(error.description)
        }
        // From here on the worker reads only the file it has open: no new files, no sockets,
        // no processes.
        let status = CSeccomp_install_render_filter()
        if status != 0 {
            logger.critical("cannot install the render worker's seccomp filter: \(errnoText(-status))")
            return false
        }
        return send(answer, on: channel)
    }

    private func publish(document: PDFDocument?, failure: String?) {
        lock.lock()
        self.document = document
        self.failure = failure
        isOpen = true
        lock.broadcast()
        lock.unlock()
    }

    /// The open document, once it is; else why it did not open.
    private func waitForDocument() -> Result<PDFDocument, WireError> {
        lock.lock()
        defer { lock.unlock() }
        while !isOpen { lock.wait() }
        if let document { return .success(document) }
        return .failure(WireError(failure ?? "the document is not open"))
    }

    /// Answers requests on `channel` until the reader closes it, then ends the process.
    func serve(_ channel: WorkerChannel) {
        var buffer: SharedTileBuffer?
        while let (bytes, fd) = channel.receive() {
            if fd >= 0 {
                var info = stat()
                fstat(fd, &info)
                buffer = try? SharedTileBuffer(fd: fd, size: Int(info.st_size))
            }
            var reader = WireReader(bytes)
            let answer: WorkerResponse
            do throws(WireError) {
                let request = try WorkerRequest.decode(&reader)
                answer = respond(to: request, buffer: buffer)
            } catch {
                answer = .failed(error.description)
            }
            guard send(answer, on: channel) else { break }
        }
        // The reader closed its end (or is gone): nothing more will be asked.
        exit(0)
    }

    private func respond(to request: WorkerRequest, buffer: SharedTileBuffer?) -> WorkerResponse {
        let document: PDFDocument
        switch waitForDocument() {
        case .success(let open): document = open
        case .failure(let error): return .failed(error.description)
        }
        switch request {
        case .open:
            return .failed("the document is already open")
        case let .render(key, stride):
            let rect = key.rect
            guard let buffer, stride >= rect.width * 4,
                SharedTileBuffer.pixelOffset + stride * rect.height <= buffer.size
            else { return .failed("\(key) does not fit the tile buffer") }
            if delay > 0 { usleep(useconds_t(delay * 1000)) }
            let cookie = RenderCookie(sharedAt: buffer.memory)
            return .drawn(TileContent.draw(key, of: document, into: buffer.pixels, stride: stride, cookie: cookie))
        case let .pageText(page):
            do throws(PDFError) {
                let characters = try document.pageCharacters(page: page).characters
                return .pageText(
                    blocks: try document.textBlocks(page: page), links: try document.links(page: page),
                    characters: Array(characters.prefix(WorkerResponse.maximumCharacters)))
            } catch {
                return .failed(error.description)
            }
        case let .edit(edit):
            do throws(PDFError) {
                return .edited(try edit.apply(to: document))
            } catch {
                return .failed(error.description)
            }
        case let .search(text, page):
            guard let query = SearchQuery(text) else { return .searchHits([]) }
            do throws(PDFError) {
                return .searchHits(try document.search(query, page: page))
            } catch {
                return .failed(error.description)
            }
        }
    }

    private func send(_ answer: WorkerResponse, on channel: WorkerChannel) -> Bool {
        var writer = WireWriter()
        answer.encode(into: &writer)
        let length = writer.bytes.count
        if length > WorkerChannel.maximumMessage {
            writer = WireWriter()
            WorkerResponse.failed("the answer is too long (\(length) bytes)").encode(into: &writer)
        }
        return channel.send(writer.bytes)
    }
}
