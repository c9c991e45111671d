import LecternDocuments
import LecternLinux
import LecternPolicy
import LecternRender
import Logging

/// The audit of each document the reader opens or reloads (`DocumentAuditor`: a render worker
/// of its own, niced, so a visitor's pages come first), started once the document is on screen,
/// on a background job of its own; its findings are logged (a line per class), and kept for
/// `lectern ctl status` and the metrics file. The pages it finds slow are kept as drawn, at the
/// size the reader shows them (`PrerenderedPages`), and the reader takes them from there.
/// Loop thread.
final class DocumentAudits {
    let current: CurrentReader
    let shown: any DocumentOnScreen
    let policy: PolicyInForce
    let screen: Screen
    /// The slow pages kept (nil: no state directory).
    let prerendered: PrerenderedPages?
    private let work: BackgroundWork
    private let logger: Logger
    /// The last audit that ended (nil: none yet).
    private(set) var last: DocumentAudit?
    /// The document audited last started, while an audit runs or waits (nil: none does).
    private(set) var running: String?
    /// Audits started and not ended (a new version opened during an audit waits for it).
    private var pending = 0
    /// Audits that ended.
    private(set) var finished = 0
    /// `shown.documentsOpened` when the last audit was started.
    private var seenOpened = 0

    /// - Parameter directory: where the slow pages are kept (nil: nowhere).
    init(
        current: CurrentReader, shown: any DocumentOnScreen, policy: PolicyInForce, screen: Screen,
        directory: String?, loop: EventLoop, logger: Logger
    ) {
        self.current = current
        self.shown = shown
        self.policy = policy
        self.screen = screen
        self.logger = logger
        prerendered = directory.flatMap { PrerenderedPages(directory: $0, logger: logger) }
        work = BackgroundWork(label: "lectern.audit", qos: .background, loop: loop)
    }

    /// The end of a loop iteration: a document opened (or a new version installed) since the
    /// last look takes its kept pages from `prerendered` at once, and is audited once a page of it
    /// is on screen (the audit's worker never competes with the visitor's first frame) and the
    /// screen has its size.
    func afterIteration(hasShownPage: Bool) {
        guard case .open = shown.phase, let reader = current.reader else { return }
        if shown.documentsOpened != seenOpened {
            seenOpened = shown.documentsOpened
            // A book is laid out for this screen in its reader's worker; the audit's worker would
            // measure and keep pages of another layout.
            guard !reader.document.isReflowable else {
                waiting = nil
                return
            }
            let identity = PrerenderedPages.identity(of: reader.document.path)
            if let prerendered, let identity {
                reader.planner.prerendered = { [prerendered] in prerendered.lookup($0, identity: identity) }
            }
            waiting = (ObjectIdentifier(reader), identity)
        }
        guard hasShownPage, screen.hasSize, let waiting, waiting.reader == ObjectIdentifier(reader) else { return }
        self.waiting = nil
        start(reader, identity: waiting.identity)
    }

    /// The document opened last, to be audited once its page is on screen.
    private var waiting: (reader: ObjectIdentifier, identity: String?)?

    /// The key of each page of `pages` drawn whole as the reader shows it at rest (nil for a page
    /// it shows in several tiles: not kept).
    private func keys(of reader: Reader, pages: [Int]) -> [Int: TileKey] {
        var keys: [Int: TileKey] = [:]
        for page in pages {
            let frame = screen.scale.pixels(reader.view.frame(forPage: page))
            let grid = TileGrid(frameWidth: frame.width, frameHeight: frame.height)
            guard grid.columns == 1, grid.rows == 1 else { continue }
            keys[page] = TileKey(page: page, grid: grid, column: 0, row: 0)
        }
        return keys
    }

    /// The auditor for the policy in force and the screen as it is now; nil when audits are off
    /// (`render.audit-pages` 0) or documents are drawn in process (no worker to audit in).
    var auditor: DocumentAuditor? {
        guard policy.auditPages > 0, policy.usesRenderProcess else { return nil }
        let configuration = policy.configuration
        let size = screen.pixelSize
        let settings = RenderProcess.Settings(
            executable: configuration.renderProcess.executable ?? "/proc/self/exe", documentPath: "", password: nil,
            startPage: -1, channels: 1, addressSpace: configuration.renderAddressSpace)
        return DocumentAuditor(
            settings: settings,
            screen: AuditScreen(
                width: size.width, height: size.height, widthMillimetres: screen.physical(configuration)?.width),
            budgetMilliseconds: Double(policy.auditBudgetMilliseconds), deadline: policy.renderDeadline,
            logger: logger)
    }

    private func start(_ reader: Reader, identity: String?) {
        guard let auditor else {
            if policy.auditPages > 0 { logger.info("no audit of \(reader.document.path): it needs the render process") }
            return
        }
        let path = reader.document.path, password = policy.password, sample = policy.auditPages
        let keys = keys(of: reader, pages: DocumentAuditor.pages(of: reader.document.pageCount, sample: sample))
        let prerendered = identity == nil ? nil : prerendered
        running = path
        pending += 1
        logger.info("auditing \(path) (at most \(sample) pages) in a worker of its own")
        work.submit({
            auditor.audit(path: path, password: password, sample: sample, keys: keys) { key, image in
                prerendered?.store(image, key: key, identity: identity ?? "")
            }
        }) { [weak self] report in self?.ended(report) }
    }

    private func ended(_ report: DocumentAudit) {
        pending -= 1
        if pending == 0 { running = nil }
        last = report
        finished += 1
        logger.info("audit of \(report.path): \(report.pages.count) pages in \(Int(report.auditMilliseconds)) ms")
        for finding in report.findings { logger.notice("audit of \(report.path): \(finding)") }
    }

    /// Forgets the audit under way (shutdown): its worker ends with the reader.
    func close() { work.abandon() }
}

/// The audit of the document on screen, as `lectern ctl status` and `KioskStatus` report it.
public struct AuditStatus: Codable, Equatable, Sendable {
    /// The document audited last (or being audited).
    public var document: String
    /// An audit is under way (of `document` when `pagesAudited` is 0, else of the next one).
    public var isRunning: Bool
    public var pagesAudited: Int
    /// Pages (from 1) drawn slower than the budget at the screen's size.
    public var slowPages: [Int]
    /// Pages (from 1) without text.
    public var pagesWithoutText: [Int]
    public var smallestTextMillimetres: Double?
    public var substitutedFonts: [String]
    public var figuresWithoutAlt: Int
    public var tagged: Bool
    public var language: String?
    /// Its findings, a line per class, as the log says them.
    public var findings: [String]
}

extension DocumentAudits {
    /// The last audit and whether one runs now (nil: none started yet).
    var status: AuditStatus? {
        guard let last else {
            return running.map {
                AuditStatus(
                    document: $0, isRunning: true, pagesAudited: 0, slowPages: [], pagesWithoutText: [],
                    substitutedFonts: [], figuresWithoutAlt: 0, tagged: false, findings: [])
            }
        }
        return AuditStatus(
            document: last.path, isRunning: running != nil, pagesAudited: last.pages.count, slowPages: last.slowPages,
            pagesWithoutText: last.pagesWithoutText, smallestTextMillimetres: last.smallestTextMillimetres,
            substitutedFonts: last.substitutedFonts, figuresWithoutAlt: last.figuresWithoutAlt, tagged: last.tagged,
            language: last.language, findings: last.findings)
    }
}
