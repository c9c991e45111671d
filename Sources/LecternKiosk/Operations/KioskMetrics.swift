import CoreMetrics
import Glibc
import LecternCore
import LecternDocuments
import LecternLinux
import LecternPolicy
import Logging
import Prometheus

/// The kiosk's health for the monitoring an operator already runs: counters, gauges and a
/// histogram through swift-metrics, rendered by swift-prometheus's registry as a Prometheus text
/// file for node_exporter's textfile collector (the policy's `metrics.textfile`), replaced
/// atomically every 15 s of the loop's clock and on exit. The reader opens no network listener.
///
/// Why these libraries: swift-metrics is the Swift server ecosystem's metrics API (an integrator
/// can point the same counters at another backend), and swift-prometheus writes the exposition
/// format (names, label escaping, histogram buckets, `_sum` and `_count`) we would otherwise write
/// by hand; neither imports Foundation. The metrics are made with this app's own factory and
/// registry, not through the process-wide `MetricsSystem.bootstrap`: tests run several apps in
/// one process, and each file must hold one kiosk's numbers.
///
/// - `lectern_pages_shown_total`: pages that became the page on screen
/// - `lectern_touches_total`: fingers put down
/// - `lectern_gestures_total{component="fastScroll"|…}`: interaction components that acted
/// - `lectern_documents_opened_total`, `lectern_documents_failed_total` (a document that cannot
///   be opened, a new version refused)
/// - `lectern_render_errors_total`: tiles whose render failed
/// - `lectern_idle_resets_total`
/// - `lectern_frame_latency_seconds`: from a change to the commit of the frame that shows it
/// - `lectern_input_to_present_seconds{input="touch"|"pointer"|"key"}`: from an input (the
///   compositor's time) to when the frame that shows what it did reached the screen
///   (`wp_presentation`, where the compositor offers it)
/// - `lectern_resident_memory_bytes`, `lectern_uptime_seconds`
/// - `lectern_dwell_seconds_total{document,page}`: seconds the page was on screen with a visitor
///   there; `lectern_attract_seconds_total{document,page}`: while the attract loop showed it
///   (`DwellTime`)
/// - `lectern_open`: 1 inside the opening hours (always without them), 0 outside
/// - the last audit of the document on screen (`DocumentAudits`): `lectern_audits_total`,
///   `lectern_audit_pages`, `lectern_audit_slow_pages`, `lectern_audit_pages_without_text`,
///   `lectern_audit_figures_without_alt`, `lectern_audit_substituted_fonts`,
///   `lectern_audit_smallest_text_millimetres` (0: no text)
final class KioskMetrics {
    /// Seconds between two writes of the file (node_exporter reads it when Prometheus scrapes).
    static let interval = 15.0

    let loop: EventLoop
    /// The reader on screen.
    let current: CurrentReader
    /// The document on screen (how far it got, how many opened).
    let shown: any DocumentOnScreen
    let reloader: DocumentReloader
    let idle: IdleReset
    /// Open or closed.
    let schedule: OpeningSchedule
    let audits: DocumentAudits
    private let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory
    private let pagesShown: CoreMetrics.Counter
    private let touches: CoreMetrics.Counter
    private let documentsOpened: CoreMetrics.Counter
    private let documentsFailed: CoreMetrics.Counter
    private let renderErrors: CoreMetrics.Counter
    private let idleResets: CoreMetrics.Counter
    private let frameLatency: CoreMetrics.Timer
    private let residentMemory: CoreMetrics.Gauge
    private let uptime: CoreMetrics.Gauge
    private let open: CoreMetrics.Gauge
    private var gestures: [String: CoreMetrics.Counter] = [:]
    private var inputToPresent: [FrameInput.Kind: CoreMetrics.Timer] = [:]
    private let auditsFinished: CoreMetrics.Counter
    /// The last audit's numbers, by metric.
    private let audit: [(CoreMetrics.Gauge, (DocumentAudit) -> Double)]
    private let logger: Logger
    private let startTime: Double
    private let work: BackgroundWork
    private var timer: EventLoop.Timer?
    /// Where the file goes under the policy in force (nil: nowhere, the default).
    private let path: () -> String?
    /// What the parts had counted at the last look (they keep plain counters; this compares).
    private var seen = Seen()
    /// Files written so far (counted once the file is in place).
    private(set) var writes = 0
    /// The page on screen for dwell time, and its counters (`DwellTime`).
    var dwell = DwellTime()
    var dwellCounters: [DwellTime.Place: CoreMetrics.FloatingPointCounter] = [:]
    /// The last document's path and file name (`dwellPlace()` asks at every turn of the loop).
    var dwellDocument = (path: "", name: "")
    /// A visitor is there: something was pressed since the last idle reset.
    private(set) var isVisitorPresent = false
    /// The attract loop is turning the pages; the shelf is on screen (wired by the app).
    var isAttracting: () -> Bool = { false }
    var isShelfShown: () -> Bool = { false }

    private struct Seen {
        var opened = 0
        var page: Int?
        var renderErrors = 0
        var failure = false
        var refusals = 0
        var resets = 0
        var audits = 0
    }

    init(
        path: @escaping () -> String?, current: CurrentReader, shown: any DocumentOnScreen, reloader: DocumentReloader,
        idle: IdleReset, schedule: OpeningSchedule, audits: DocumentAudits, loop: EventLoop, logger: Logger
    ) {
        self.schedule = schedule
        self.path = path
        self.current = current
        self.shown = shown
        self.reloader = reloader
        self.idle = idle
        self.audits = audits
        self.loop = loop
        self.logger = logger
        startTime = loop.clock.now
        work = BackgroundWork(label: "lectern.metrics", loop: loop)
        var factory = PrometheusMetricsFactory(registry: registry)
        // A frame is due every 16.7 ms: buckets around that, up to what a visitor notices.
        factory.defaultDurationHistogramBuckets = [5, 10, 17, 25, 33, 50, 100, 250, 500, 1000].map {
            Duration.milliseconds($0)
        }
        self.factory = factory
        pagesShown = CoreMetrics.Counter(label: "lectern_pages_shown_total", factory: factory)
        touches = CoreMetrics.Counter(label: "lectern_touches_total", factory: factory)
        documentsOpened = CoreMetrics.Counter(label: "lectern_documents_opened_total", factory: factory)
        documentsFailed = CoreMetrics.Counter(label: "lectern_documents_failed_total", factory: factory)
        renderErrors = CoreMetrics.Counter(label: "lectern_render_errors_total", factory: factory)
        idleResets = CoreMetrics.Counter(label: "lectern_idle_resets_total", factory: factory)
        frameLatency = CoreMetrics.Timer(label: "lectern_frame_latency_seconds", factory: factory)
        residentMemory = CoreMetrics.Gauge(label: "lectern_resident_memory_bytes", factory: factory)
        uptime = CoreMetrics.Gauge(label: "lectern_uptime_seconds", factory: factory)
        open = CoreMetrics.Gauge(label: "lectern_open", factory: factory)
        auditsFinished = CoreMetrics.Counter(label: "lectern_audits_total", factory: factory)
        let numbers: [(String, (DocumentAudit) -> Double)] = [
            ("pages", { Double($0.pages.count) }), ("slow_pages", { Double($0.slowPages.count) }),
            ("pages_without_text", { Double($0.pagesWithoutText.count) }),
            ("figures_without_alt", { Double($0.figuresWithoutAlt) }),
            ("substituted_fonts", { Double($0.substitutedFonts.count) }),
            ("smallest_text_millimetres", { $0.smallestTextMillimetres ?? 0 }),
        ]
        audit = numbers.map { (CoreMetrics.Gauge(label: "lectern_audit_\($0.0)", factory: factory), $0.1) }
        scheduleWrite()
    }

    /// Whether a write is under way.
    var isBusy: Bool { work.isBusy }

    // MARK: Hooks

    /// An input event arrived.
    func inputArrived(_ event: InputEvent) {
        if case .touchDown = event.kind { touches.increment() }
        if event.startsAction { isVisitorPresent = true }
    }

    /// Counts each interaction component of `controller` that acts (after the policy's
    /// conditions: a component the policy turns off does not act and is not counted).
    func install(on controller: InteractionController) {
        controller.onEveryActivation { [unowned self] name in gesture(name) }
    }

    private func gesture(_ component: String) {
        if let counter = gestures[component] { return counter.increment() }
        let counter = CoreMetrics.Counter(
            label: "lectern_gestures_total", dimensions: [("component", component)], factory: factory)
        gestures[component] = counter
        counter.increment()
    }

    /// A frame that shows what an input did reached the screen `seconds` after the input.
    func presented(_ input: FrameInput.Kind, seconds: Double) {
        let timer =
            inputToPresent[input]
            ?? CoreMetrics.Timer(
                label: "lectern_input_to_present_seconds", dimensions: [("input", input.rawValue)], factory: factory)
        inputToPresent[input] = timer
        timer.recordNanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// A frame was committed `latency` seconds after the change it shows; a page that became
    /// the page on screen is counted.
    func frameCommitted(latency: Double, hasShownPage: Bool) {
        frameLatency.recordNanoseconds(Int64((latency * 1e9).rounded()))
        guard hasShownPage, let page = current.reader?.view.dominantPage(), page != seen.page else { return }
        seen.page = page
        pagesShown.increment()
    }

    /// The end of a loop iteration: the parts' own counters are compared with the last look.
    func afterIteration(dominantPage: DominantPage = DominantPage()) {
        if shown.documentsOpened != seen.opened {
            documentsOpened.increment(by: Int64(shown.documentsOpened - seen.opened))
            seen.opened = shown.documentsOpened
            seen.renderErrors = 0
            seen.page = nil
        }
        if let reader = current.reader {
            if reader.failedRenders != seen.renderErrors {
                renderErrors.increment(by: Int64(reader.failedRenders - seen.renderErrors))
                seen.renderErrors = reader.failedRenders
            }
        }
        if case .failed = shown.phase, !seen.failure {
            seen.failure = true
            documentsFailed.increment()
        }
        if reloader.refusals != seen.refusals {
            documentsFailed.increment(by: Int64(reloader.refusals - seen.refusals))
            seen.refusals = reloader.refusals
        }
        if audits.finished != seen.audits, let last = audits.last {
            auditsFinished.increment(by: Int64(audits.finished - seen.audits))
            seen.audits = audits.finished
            for (gauge, number) in audit { gauge.record(number(last)) }
        }
        if idle.resets != seen.resets {
            idleResets.increment(by: Int64(idle.resets - seen.resets))
            seen.resets = idle.resets
            isVisitorPresent = false
        }
        updateDwell(dominantPage: dominantPage)
    }

    // MARK: The file

    private func scheduleWrite() {
        timer = loop.schedule(after: Self.interval) { [unowned self] in
            write()
            scheduleWrite()
        }
    }

    /// The metrics in Prometheus's text format, as the file holds them.
    func text() -> [UInt8] {
        afterIteration()
        flushDwell()
        residentMemory.record(Self.residentBytes())
        uptime.record(loop.clock.now - startTime)
        open.record(schedule.isClosed ? 0 : 1)
        return registry.emitToBuffer()
    }

    /// Writes the file now, off the loop's thread (`BackgroundWork`): its fsync never holds up
    /// a frame.
    private func write() {
        guard let path = path() else { return }
        let bytes = text()
        work.submit({ () -> SystemError? in
            do throws(SystemError) {
                try writeFileAtomically(bytes, to: path, mode: 0o644)
                return nil
            } catch {
                return error
            }
        }) { [unowned self] error in
            if let error {
                logger.error("cannot write the metrics file: \(error)")
            } else {
                writes += 1
            }
        }
    }

    /// Writes a last time and waits for the writes (shutdown).
    func close() {
        timer?.cancel()
        timer = nil
        write()
        work.waitUntilDone()
    }

    /// The process's resident memory now (`/proc/self/statm`'s second field, in pages).
    static func residentBytes() -> Int {
        guard let text = PolicyFile.readFile("/proc/self/statm") else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
