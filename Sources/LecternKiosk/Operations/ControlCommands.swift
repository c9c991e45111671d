import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternPolicy
import LecternWayland
import Logging

/// What the control socket's commands do (`ControlSocket` carries them): `status`, `goto` a
/// page, `open` a document the policy allows, `reset` to the start view, `reload` the policy and
/// the document, `screenshot` to a PNG in the allowed directory. A command that cannot be done
/// (no document open, a page out of range, a path outside the allowed directories) is refused
/// with a message; nothing a request holds reaches MuPDF or the file system unchecked.
final class ControlCommands {
    enum ScreenshotResult: Sendable {
        case written(path: String, id: Int)
        case failed(String, id: Int)
    }

    let loop: EventLoop
    /// The reader on screen.
    let current: CurrentReader
    /// The document on screen, and the way to show another.
    let shown: any DocumentShowing
    let reloader: DocumentReloader
    let policy: PolicyInForce
    let presenter: FramePresenter
    /// The keypad focus, which `status` reports.
    let focus: KeypadFocus
    let idle: IdleReset
    /// Open or closed, and when that changes.
    let schedule: OpeningSchedule
    /// The audit of the document on screen, which `status` reports.
    let audits: DocumentAudits
    /// The directory `screenshot` writes into when the policy names none.
    let defaultScreenshotDirectory: String?
    private let logger: Logger
    private let startTime: Double
    /// When the last input event came (for `idleSeconds`).
    var lastActivity: Double
    private let worker: BackgroundWork
    private var pendingScreenshots: [Int: (ControlReply) -> Void] = [:]
    private var nextScreenshot = 0

    init(
        current: CurrentReader, shown: any DocumentShowing, reloader: DocumentReloader, policy: PolicyInForce,
        presenter: FramePresenter, focus: KeypadFocus, idle: IdleReset, schedule: OpeningSchedule,
        audits: DocumentAudits,
        defaultScreenshotDirectory: String?,
        loop: EventLoop, logger: Logger
    ) {
        self.current = current
        self.shown = shown
        self.reloader = reloader
        self.policy = policy
        self.presenter = presenter
        self.focus = focus
        self.idle = idle
        self.schedule = schedule
        self.audits = audits
        self.defaultScreenshotDirectory = defaultScreenshotDirectory
        self.loop = loop
        self.logger = logger
        startTime = loop.clock.now
        lastActivity = startTime
        worker = BackgroundWork(label: "lectern.screenshot", qos: .userInitiated, loop: loop)
    }

    /// Stops taking screenshot results (shutdown); a screenshot being written finishes unanswered.
    func close() {
        worker.abandon()
        pendingScreenshots = [:]
    }

    /// Does `request`; `reply` is called now, or once a screenshot is written.
    func handle(_ request: ControlRequest, reply: @escaping (ControlReply) -> Void) {
        logger.info(
            "control: \(request.command)\(request.page.map { " page \($0)" } ?? "")\(request.path.map { " \($0)" } ?? "")"
        )
        switch request.command {
        case "status": reply(ControlReply(ok: true, status: status))
        case "goto": reply(goTo(page: request.page, label: request.label))
        case "open": reply(open(request.path))
        case "reset":
            guard current.reader != nil else { return reply(.failure("no document is open")) }
            idle.reset()
            reply(ControlReply(ok: true, status: status))
        case "reload":
            policy.reloadNow()
            shown.reload(page: nil)
            reply(ControlReply(ok: true, status: status))
        case "screenshot": screenshot(to: request.path, reply: reply)
        case "speech":
            switch request.path {
            case "start":
                guard presenter.narrator.start() else {
                    return reply(.failure("speech cannot start: it is off in the policy, or no document is open"))
                }
            case "stop": presenter.narrator.stop()
            default: return reply(.failure("speech needs start or stop"))
            }
            reply(ControlReply(ok: true, status: status))
        case "binding":
            guard let binding = request.binding, ["left", "right"].contains(binding) else {
                return reply(.failure("binding needs left or right"))
            }
            guard presenter.annotations.setReadingDirection(rightToLeft: binding == "right") else {
                return reply(.failure("no document is open"))
            }
            reply(ControlReply(ok: true, status: status))
        default: reply(.failure("unknown command \"\(request.command)\""))
        }
    }

    /// What the kiosk shows and how it is.
    var status: ControlStatus {
        let reader = current.reader
        let state: String
        var lastError = reloader.lastError ?? policy.lastError?.description
        switch shown.phase {
        case .opening: state = "opening"
        case .open: state = "open"
        case .failed(let failure):
            state = "failed"
            lastError = failure.description
        }
        let now = loop.clock.now
        var status = ControlStatus(
            document: reader?.document.path ?? shown.documentPath, state: state,
            page: reader.map { $0.view.dominantPage() + 1 } ?? 0, pageCount: reader?.view.pages.count ?? 0,
            viewState: reader?.view.viewState(), zoom: reader?.view.currentZoomScale ?? 1,
            idleSeconds: now - lastActivity, uptimeSeconds: now - startTime, framesCommitted: presenter.frameCount,
            lastError: lastError, version: KioskApp.version, speech: ControlStatus.Speech(presenter.narrator.status),
            focus: ControlStatus.Focus(focus.status),
            hours: ControlStatus.Hours(
                isOpen: !schedule.isClosed, nextChange: schedule.nextChange.map { "\($0.local)" },
                show: schedule.show), audit: audits.status)
        status.inputToPresent = presenter.latencies.percentiles
        status.memory = ControlStatus.Memory(
            readerKiB: residentKiB(),
            workerKiB: presenter.session.backend.workerStatus?.pid.flatMap { residentKiB(ofProcess: $0) })
        status.language = Translation.language.code
        return status
    }

    private func goTo(page: Int?, label: String?) -> ControlReply {
        guard let reader = current.reader else { return .failure("no document is open") }
        let count = reader.view.pages.count
        guard let page = page ?? label.flatMap({ reader.document.pageIndex(forLabel: $0).map { $0 + 1 } }) else {
            // A number too large to be a page number (the client sends it as a label).
            if let label, !label.isEmpty, label.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return .failure("page \(label) is out of range (1–\(count))")
            }
            if let label { return .failure("no page is labelled \"\(label)\"") }
            return .failure("goto needs a page (counting from 1) or a label")
        }
        guard page >= 1, page <= count else { return .failure("page \(page) is out of range (1–\(count))") }
        reader.view.stopAnimations()
        do {
            try reader.view.goToPage(page - 1)
        } catch {
            return .failure("cannot go to page \(page): \(error)")
        }
        idle.restart()
        presenter.frame.request()
        return ControlReply(ok: true, status: status)
    }

    private func open(_ path: String?) -> ControlReply {
        guard let path, !path.isEmpty else { return .failure("open needs a path") }
        guard path == policy.documentPath || Self.isAllowed(document: path, by: policy.configuration) else {
            let directory = policy.openDirectory.map { "in \($0)" } ?? "(the policy's control.documents names none)"
            return .failure("\(path) is not the policy's document nor a PDF \(directory)")
        }
        guard access(path, R_OK) == 0 else { return .failure("cannot read \(path): \(errnoText(errno))") }
        shown.show(path: path, page: policy.startPage)
        idle.restart()
        // The status of the document being opened, not of the one still on screen.
        var opening = status
        opening.document = path
        opening.state = "opening"
        opening.page = 0
        opening.pageCount = 0
        opening.viewState = nil
        opening.zoom = 1
        return ControlReply(ok: true, status: opening)
    }

    /// What `open` takes: the names of the documents Lectern shows (a PDF, a book, a comic, a picture;
    /// what it is is told by its first bytes when it opens).
    static let documentSuffixes = [
        ".pdf", ".epub", ".fb2", ".xhtml", ".xps", ".oxps", ".cbz", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".gif",
        ".bmp", ".jp2",
    ]

    /// Whether `document` lies in the policy's `control.documents` directory (symbolic links and
    /// `..` resolved: a path that leads out of it is not in it) and is named as a document.
    static func isAllowed(document: String, by configuration: KioskConfiguration) -> Bool {
        let name = document.lowercased()
        guard let directory = configuration.openDirectory, documentSuffixes.contains(where: name.hasSuffix) else {
            return false
        }
        return isInside(document, directory: directory, resolvingFile: true)
    }

    /// Whether `path` is inside `directory` once both are resolved; `resolvingFile`: `path`
    /// itself must exist (else only its directory must).
    static func isInside(_ path: String, directory: String, resolvingFile: Bool) -> Bool {
        guard let base = realPath(directory) else { return false }
        let resolved: String?
        if resolvingFile {
            resolved = realPath(path)
        } else {
            guard let slash = path.lastIndex(of: "/") else { return false }
            let name = path[path.index(after: slash)...]
            guard !name.isEmpty, name != ".", name != ".." else { return false }
            resolved = realPath(String(path[..<slash])).map { $0 + "/" + name }
        }
        guard let resolved else { return false }
        return resolved.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    // MARK: Screenshots

    private func screenshot(to path: String?, reply: @escaping (ControlReply) -> Void) {
        guard let path, path.hasSuffix(".png") else { return reply(.failure("screenshot needs a path ending in .png")) }
        let directory = policy.screenshotDirectory ?? defaultScreenshotDirectory
        guard let directory, Self.isInside(path, directory: directory, resolvingFile: false) else {
            let allowed = policy.screenshotDirectory.map { "\($0) (control.screenshots)" }
            return reply(
                .failure(
                    "screenshots go in "
                        + (allowed ?? defaultScreenshotDirectory.map { "\($0) (control.screenshots names none)" }
                            ?? "the directory control.screenshots names (it names none)")))
        }
        guard let copy = presenter.lastCommitted.map(FrameCopy.init) ?? presenter.panSurface.flatMap(FrameCopy.init)
        else { return reply(.failure("nothing is on screen yet")) }
        nextScreenshot += 1
        let id = nextScreenshot
        pendingScreenshots[id] = reply
        worker.submit {
            defer { copy.free() }
            do {
                try PNGWriter.write(
                    bgra: copy.pixels, width: copy.width, height: copy.height, stride: copy.stride, to: path)
                return ScreenshotResult.written(path: path, id: id)
            } catch {
                return .failed("\(error)", id: id)
            }
        } then: { [unowned self] in
            finished($0)
        }
    }

    private func finished(_ result: ScreenshotResult) {
        switch result {
        case .written(let path, let id): pendingScreenshots.removeValue(forKey: id)?(ControlReply(ok: true, path: path))
        case .failed(let message, let id): pendingScreenshots.removeValue(forKey: id)?(.failure(message))
        }
    }
}

/// A copy of a frame's pixels, handed whole to the thread that encodes it, which frees it.
private struct FrameCopy: @unchecked Sendable {
    // Sendable: the copy is only touched by one thread at a time (made here, freed there).
    let pixels: UnsafeMutableRawPointer
    let width: Int, height: Int, stride: Int

    init(_ buffer: ShmBuffer) {
        width = buffer.width
        height = buffer.height
        stride = buffer.stride
        pixels = .allocate(byteCount: stride * height, alignment: 64)
        pixels.copyMemory(from: buffer.pixels, byteCount: stride * height)
    }

    /// What the pages' surface and the chrome over it show (nil: they show nothing).
    init?(_ pan: PanSurface) {
        guard let size = pan.screenSize else { return nil }
        (width, height, stride) = (size.width, size.height, size.width * 4)
        pixels = .allocate(byteCount: stride * height, alignment: 64)
        guard pan.copyScreen(into: pixels, stride: stride) else {
            pixels.deallocate()
            return nil
        }
    }

    func free() { pixels.deallocate() }
}
