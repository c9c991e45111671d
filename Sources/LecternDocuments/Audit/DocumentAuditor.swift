import Dispatch
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging
import Synchronization

/// Audits documents (`DocumentAudit`), each in a render worker process of its own, started as
/// the reader's are (same executable, address space and seccomp filter) but nicer (`niceness`),
/// so that an audit beside a visitor delays none of the visitor's pages. Each page's facts come
/// from the worker; its render time is that of the whole page fitted to the screen, asked of
/// the worker as the reader asks for a tile; a render that has not ended by the deadline
/// stops the audit's worker (the next page gets a new one). Blocks: call it off the main thread.
public struct DocumentAuditor: Sendable {
    /// How the audit's worker starts (its document, password, page and channels are set here).
    public var settings: RenderProcess.Settings
    public var screen: AuditScreen
    /// A page whose render takes longer is slow.
    public var budgetMilliseconds: Double
    /// A render not ended after this many seconds is stopped (the page is reported not drawn).
    public var deadline: Double
    public var logger: Logger

    /// The worker's niceness (`nice(2)`): the reader's workers come first.
    public static let niceness = 10
    /// The budget when none is configured.
    public static let defaultBudgetMilliseconds = 250.0

    public init(
        settings: RenderProcess.Settings, screen: AuditScreen, budgetMilliseconds: Double = defaultBudgetMilliseconds,
        deadline: Double, logger: Logger
    ) {
        self.settings = settings
        self.screen = screen
        self.budgetMilliseconds = budgetMilliseconds
        self.deadline = deadline
        self.logger = logger
    }

    /// Audits `path`: every page, or `sample` of them spread evenly (the first and the last
    /// included). A page is drawn whole as `keys` says (the reader's key for it: its size as
    /// shown), else fitted to the screen. `slowPage` is given each slow page's pixels (on this
    /// thread).
    public func audit(
        path: String, password: String? = nil, sample: Int? = nil, keys: [Int: TileKey] = [:],
        slowPage: ((TileKey, RasterImage) -> Void)? = nil
    ) -> DocumentAudit {
        let clock = ContinuousClock()
        let start = clock.now
        var report = DocumentAudit(path: path, screen: screen, budgetMilliseconds: budgetMilliseconds)
        audit(&report, password: password, sample: sample, keys: keys, slowPage: slowPage)
        report.auditMilliseconds = (clock.now.milliseconds(since: start) * 10).rounded() / 10
        return report
    }

    private func audit(
        _ report: inout DocumentAudit, password: String?, sample: Int?, keys: [Int: TileKey],
        slowPage: ((TileKey, RasterImage) -> Void)?
    ) {
        let path = report.path
        var settings = self.settings
        settings.documentPath = path
        settings.password = password
        settings.startPage = -1
        settings.channels = 1
        settings.niceness = Self.niceness
        let process: RenderProcess
        let document: ShownDocument
        do {
            process = try RenderProcess(settings: settings, logger: logger)
            document = try ShownDocument.open(process)
        } catch {
            report.error = "\(error)"
            return
        }
        defer { process.stop() }
        report.pageCount = document.pageCount
        do throws(PDFError) {
            let facts = try document.documentFacts()
            report.tagged = facts.isTagged
            report.language = facts.language
            report.encrypted = facts.isEncrypted
            report.repairedXref = facts.wasRepaired
            report.claimedPageCount = facts.claimedPageCount
            report.pageCount = facts.pageCount
        } catch {
            report.error = error.message
        }
        for page in Self.pages(of: report.pageCount, sample: sample) {
            report.pages.append(
                audit(page: page, of: document, process: process, key: keys[page], slowPage: slowPage))
        }
    }

    /// The pages (from 0) of a document of `count` pages an audit of `sample` of them looks at.
    public static func pages(of count: Int, sample: Int?) -> [Int] {
        guard let sample, sample > 0, sample < count else { return Array(0..<max(0, count)) }
        if sample == 1 { return [0] }
        return (0..<sample).map { $0 * (count - 1) / (sample - 1) }
    }

    private func audit(
        page: Int, of document: ShownDocument, process: RenderProcess, key: TileKey?,
        slowPage: ((TileKey, RasterImage) -> Void)?
    ) -> PageAudit {
        let facts: PageFacts
        do throws(PDFError) {
            facts = try document.pageFacts(page: page)
        } catch {
            var entry = PageAudit(page: page, facts: nil, screen: screen)
            entry.error = error.message
            return entry
        }
        var entry = PageAudit(page: page, facts: facts, screen: screen)
        let key = key ?? screen.fittedKey(page: page, size: facts.size)
        // The render's cost is the worker's CPU time for it, what it takes on an idle kiosk: the
        // audit's worker is nice, and beside a visitor (or a busy machine) its wall time grows
        // with what the others do. The wall time stands in if the worker's clock cannot be read.
        let worker = process.status.pid
        let cpuBefore = worker.flatMap { cpuMilliseconds(ofProcess: $0) }
        let clock = ContinuousClock()
        let start = clock.now
        let content = renderWithDeadline(key, of: document, process: process)
        let wall = clock.now.milliseconds(since: start)
        var elapsed = wall
        if let worker, let cpuBefore, let cpuAfter = cpuMilliseconds(ofProcess: worker) {
            elapsed = cpuAfter - cpuBefore
        }
        switch content {
        case .image(let image, _)?:
            entry.renderMilliseconds = (elapsed * 10).rounded() / 10
            entry.isSlow = elapsed > budgetMilliseconds
            if entry.isSlow { slowPage?(key, image) }
        case .failed(let reason)?:
            entry.isSlow = reason == TileContent.undrawableReason
            entry.renderFailure =
                entry.isSlow ? "not drawn within the deadline (\(deadline) s) or it crashed the worker" : reason
        case nil:
            entry.renderFailure = "cancelled"
        }
        return entry
    }

    /// `key` drawn by the audit's worker, which is stopped if the render has not ended by the
    /// deadline (MuPDF does not look at the cookie in every loop: a tiling pattern of millions
    /// of cells draws to its end).
    private func renderWithDeadline(
        _ key: TileKey, of document: ShownDocument, process: RenderProcess
    )
        -> TileContent?
    {
        let rendering = RenderingFlag()
        let overrun = DispatchWorkItem { [rendering] in
            if rendering.isOn.load(ordering: .acquiring) { process.expireInFlight() }
        }
        rendering.isOn.store(true, ordering: .releasing)
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: overrun)
        let content = document.renderTile(key, cookie: RenderCookie())
        rendering.isOn.store(false, ordering: .releasing)
        overrun.cancel()
        return content
    }
}

/// Whether the audit's render is still on, for the deadline's timer.
private final class RenderingFlag: Sendable {
    let isOn = Atomic<Bool>(false)
}

extension ContinuousClock.Instant {
    /// Milliseconds from `start` to this instant.
    func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = self - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
