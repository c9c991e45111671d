import Foundation
import LecternCore
import LecternKiosk
import LecternLinux
import LecternPDF
import LecternPolicy
import LecternTestSupport
import Logging
import Testing

/// `KioskApp` in this process, against the test compositor, on the test's thread and a manual
/// clock: the compositor and the app take turns (`turn()`), time moves only when a test moves
/// it (`pump(_:)`, `advance(by:)`; event timestamps follow the clock), and what the app does is
/// read through `KioskApp.status` and the committed pixels.
///
/// Waiting happens only for real work on other threads (MuPDF opening a file, rendering tiles):
/// `settle()` turns until the app is at rest, playing animations out frame by frame on the clock.
final class KioskHarness {
    let compositor: TestCompositor
    let clock = ManualClock(start: 1000)
    /// The date and time of day the opening hours follow: moves with `clock`, from Monday
    /// 2026-11-30 10:00 UTC unless a test says otherwise; never the machine's own.
    let wallClock: ManualWallClock
    let app: KioskApp
    /// One frame time: how far the clock moves per frame while something animates.
    static let frame = 1.0 / 60

    /// What the app logged at info level and above ("error: cannot write frame dump: …").
    var logs: [String] { logCapture.lines }
    private let logCapture = LogCapture()

    /// Starts the app with `arguments` as on the command line (a PDF, then options).
    /// - Parameters:
    ///   - width, height: the output's mode in pixels (the window gets it divided by the scale).
    ///   - scale: the output's `wl_output.scale`.
    ///   - preferredScale: offers `wp_viewporter` and `wp_fractional_scale_manager_v1` with this
    ///     preferred scale × 120 (180: 1.5); nil: neither is offered.
    ///   - millimetres: the output's physical size (`wl_output.geometry`); nil: 0 × 0, not known.
    ///   - autoConfigure: whether the compositor configures the window by itself (else the test does).
    ///   - seatVersion: the `wl_seat` version the compositor offers.
    ///   - dataDevice: offers `wl_data_device_manager` (the selection).
    ///   - configure: runs before the app starts (an integrator's hooks).
    ///   - headphones: the headphone jack (default: none; never the machine's own).
    ///   - variables: the app's environment (default: `STATE_DIRECTORY` and `XDG_RUNTIME_DIR` in
    ///     the compositor's private directory, so no test sees another's saved view or socket).
    ///   - wallClock: the wall clock's start (seconds since the epoch) and zone.
    ///   - singlePixelBuffers: offers `wp_single_pixel_buffer_manager_v1` and `wp_viewporter`.
    ///   - viewporter: offers `wp_viewporter` (with `wl_subcompositor`, always offered: the pages
    ///     on a subsurface that pans move).
    init(
        _ arguments: [String], width: Int32 = 1280, height: Int32 = 720, scale: Int32 = 1,
        preferredScale: Int32? = nil, millimetres: (width: Int32, height: Int32)? = nil, autoConfigure: Bool = true,
        seatVersion: Int32 = TestCompositor.newestSeatVersion, variables: [String: String]? = nil,
        dataDevice: Bool = false, configure: ((KioskApp) -> Void)? = nil,
        headphones: ((EventLoop) -> (any HeadphoneDetector)?)? = nil,
        wallClock: (start: Double, zone: ManualWallClock.Zone) = (KioskHarness.mondayMorning, .init(utcOffset: 0)),
        singlePixelBuffers: Bool = false, viewporter: Bool = false, pansOnSubsurface: Bool? = nil
    ) throws {
        self.wallClock = ManualWallClock(clock: clock, start: wallClock.start, zone: wallClock.zone)
        compositor = try TestCompositor(
            outputWidth: width, outputHeight: height, outputScale: scale, seatVersion: seatVersion)
        compositor.autoConfigure = autoConfigure
        compositor.outputMillimetres = millimetres
        if dataDevice { compositor.offerDataDevice() }
        if let preferredScale { compositor.setPreferredScale(preferredScale) }
        if singlePixelBuffers { compositor.offerSinglePixelBuffers() }
        if viewporter { compositor.offerViewporter() }
        var configuration = try Self.configuration(arguments)
        // The policy's `render.pans`: on with `wp_viewporter` unless a test says otherwise.
        configuration.pansOnSubsurface = pansOnSubsurface ?? viewporter
        configuration.displayName = compositor.runtimeDirectory.path + "/" + compositor.socketName
        let clock = clock
        compositor.eventTimestamp = { UInt32(truncatingIfNeeded: Int64((clock.now * 1000).rounded())) }
        let compositor = compositor
        app = try KioskApp(
            configuration: configuration, logger: Self.logger(capture: logCapture),
            environment: .init(
                clock: clock, whileWaiting: { compositor.dispatch(timeout: .zero) }, handlesSignals: false,
                variables: variables ?? [
                    "STATE_DIRECTORY": compositor.runtimeDirectory.path,
                    "XDG_RUNTIME_DIR": compositor.runtimeDirectory.path,
                ], headphones: headphones ?? { _ in nil }, wallClock: self.wallClock))
        configure?(app)
        try app.start()
    }

    /// Logs into `capture` (info and above) and to standard error at `LECTERN_TEST_LOG_LEVEL`
    /// (default: nothing).
    static func logger(capture: LogCapture) -> Logger {
        let level = ProcessInfo.processInfo.environment["LECTERN_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
        var logger = Logger(label: "lectern-in-test") { label in
            var handlers: [any LogHandler] = [LogCapture.Handler(capture: capture)]
            if let level {
                var stream = StreamLogHandler.standardError(label: label)
                stream.logLevel = level
                handlers.append(stream)
            }
            return MultiplexLogHandler(handlers)
        }
        logger.logLevel = min(level ?? .info, .info)
        return logger
    }

    /// The configuration the command line `arguments` give (the options the tests use).
    static func configuration(_ arguments: [String]) throws -> KioskConfiguration {
        var configuration = KioskConfiguration(documentPath: "")
        // The transport that ships: pages drawn in the render worker, the built `lectern` run as
        // it (`--render-process off`: in process, for the tests about that transport).
        configuration.usesRenderProcess = true
        configuration.renderProcess.executable = try LecternProcess.lecternExecutable().path
        // Speech (started by F1 or a keypad key) into ALSA's null device: tests have no sound card.
        configuration.speechOutput = "null"
        // No audit of each document opened (a worker of its own per document): the audit's tests
        // ask for one (`--audit-pages`).
        configuration.auditPages = 0
        var index = 0
        func value() throws -> String {
            index += 1
            guard index < arguments.count else { throw HarnessError("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--page": configuration.startPage = (Int(try value()) ?? 1) - 1
            case "--spreads":
                configuration.spreadMode = ["double": .double, "cover": .cover][try value()] ?? .single
            case "--scroll": configuration.scrollMode = try value() == "continuous" ? .continuous : .perSpread
            case "--direction": configuration.scrollDirection = try value() == "vertical" ? .vertical : .horizontal
            case "--binding":
                configuration.pageBinding = ["left": .leftEdge, "right": .rightEdge][try value()]
            case "--transition": configuration.transition = PageTurnTransition(rawValue: try value()) ?? .slide
            case "--idle-reset": configuration.idleResetSeconds = Int(try value()) ?? 120
            case "--contrast": configuration.contrast = Contrast.Mode(rawValue: try value()) ?? .normal
            case "--large-print": configuration.largePrint = try value() == "on"
            case "--cache-mb": configuration.cacheBudget = (Int(try value()) ?? 0) << 20
            case "--font-size": configuration.fontSizePercent = Int(try value()) ?? 100
            case "--password": configuration.password = try value()
            case "--frame-dump": configuration.frameDumpPath = try value()
            case "--speech-output": configuration.speechOutput = try value()
            case "--speech-language": configuration.speechLanguage = try value()
            // `accessibility.button = false`: pixel comparisons of whole pages, which the button
            // at the bottom left would cover.
            case "--no-accessibility-button": configuration.accessibilityButton = false
            // Speech written to its WAV file as fast as espeak-ng makes it.
            case "--speech-unpaced": configuration.pacesSpeechFile = false
            case "--config": configuration.policyPath = try value()
            case "--mirror": configuration.mirror = try value() == "off" ? .off : .auto
            case "--language": configuration.language = try value()
            // The languages the title bar's language button offers (comma-separated).
            case "--languages": configuration.languages = try value().split(separator: ",").map(String.init)
            case "--render-process":
                configuration.usesRenderProcess = try value() == "on"
                configuration.renderProcess.executable = try LecternProcess.lecternExecutable().path
            case "--render-deadline": configuration.renderDeadline = Double(try value()) ?? 4
            case "--audit-pages": configuration.auditPages = Int(try value()) ?? 0
            case "--audit-budget-ms": configuration.auditBudgetMilliseconds = Int(try value()) ?? 250
            case "--render-delay-ms": configuration.renderProcess.renderDelayMilliseconds = Int(try value()) ?? 0
            case "--open-answer-delay-ms":
                configuration.renderProcess.openAnswerDelayMilliseconds = Int(try value()) ?? 0
            case "--render-crash-page": configuration.renderProcess.crashPage = (Int(try value()) ?? 0) - 1
            // WorkerLimits.crashesOpening: the worker crashes as it opens the document.
            case "--render-crash-opening": configuration.renderProcess.crashPage = -2
            case let option where option.hasPrefix("--"): throw HarnessError("unknown option \(option)")
            case let path: configuration.documentPath = path
            }
            index += 1
        }
        return configuration
    }

    struct HarnessError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Driving

    /// One turn each: the compositor dispatches (answering frame callbacks, delivering
    /// events), then the app's loop runs once, waiting at most `wait` for its descriptors.
    func turn(wait: Duration = .zero) {
        compositor.dispatch(timeout: .zero)
        do { try app.runOnce(timeout: wait) } catch { Issue.record("the app's loop failed: \(error)") }
        compositor.dispatch(timeout: .zero)
    }

    /// Turns until the app is at rest and no commit arrived for a few turns: the document is
    /// open (or failed), every tile wanted is drawn, animations are played out (the clock moves
    /// one frame per turn while one runs). False after `timeout` of real time.
    @discardableResult
    func settle(timeout: Duration = .seconds(20)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var quietTurns = 0
        while ContinuousClock.now < deadline {
            // Buffers committed to any surface: the pages' subsurface takes new ones too.
            let commits = compositor.bufferCommitCount
            let before = app.status
            if before.isAnimating { clock.advance(by: Self.frame) }
            turn(wait: before.isAtRest || before.isAnimating ? .zero : .milliseconds(2))
            let status = app.status
            if status.document != .opening, status.isAtRest, compositor.bufferCommitCount == commits {
                quietTurns += 1
                if quietTurns >= 3 { return true }
            } else {
                quietTurns = 0
            }
        }
        return false
    }

    /// Lets `duration` pass on the clock, a frame at a time, turning at each frame; then
    /// settles (only animations move the clock further).
    func pump(_ duration: Duration = .milliseconds(16)) {
        advance(by: duration.seconds)
    }

    /// Moves the clock on by `seconds`, a frame at a time, turning at each frame; then settles.
    func advance(by seconds: Double) {
        var left = seconds
        while left > 1e-9 {
            let step = min(Self.frame, left)
            clock.advance(by: step)
            left -= step
            turn()
        }
        settle()
    }

    // MARK: What the app shows

    var status: KioskStatus { app.status }

    /// The view state, as "page 5" or "page 5 viewport x y w h" (for messages).
    var viewState: String? {
        guard let state = status.viewState else { return nil }
        var text = "page \(state.pageIndex + 1)"
        if let v = state.viewport { text += " viewport \(v.minX) \(v.minY) \(v.width) \(v.height)" }
        return text
    }

    /// The dominant page, 1-based.
    var dominantPage: Int? { status.viewState.map { $0.pageIndex + 1 } }

    /// The zoomed viewport in PDF points, nil when not zoomed in.
    var viewport: (x: Double, y: Double, width: Double, height: Double)? {
        status.viewState?.viewport.map { ($0.minX, $0.minY, $0.width, $0.height) }
    }

    /// The reader window's last commit (not the presenter mirror's).
    var lastCommit: Commit? { compositor.commits.last { $0.title != "Lectern mirror" } }

    /// Which page of colors-8pages.pdf (1-based) shows at (x, y) of the last commit, if any.
    func page(atX x: Int, y: Int) -> Int? {
        lastCommit.flatMap { LecternHarness.page(ofColor: $0.pixel(x: x, y: y)) }
    }

    /// The pages of colors-8pages.pdf met along row `y` (or column `x`) of the last commit, in order.
    func pages(alongRow y: Int) -> [Int] {
        guard let commit = lastCommit else { return [] }
        return Self.runs((0..<commit.width).map { LecternHarness.page(ofColor: commit.pixel(x: $0, y: y)) })
    }

    func pages(alongColumn x: Int) -> [Int] {
        guard let commit = lastCommit else { return [] }
        return Self.runs((0..<commit.height).map { LecternHarness.page(ofColor: commit.pixel(x: x, y: $0)) })
    }

    private static func runs(_ values: [Int?]) -> [Int] {
        var result: [Int] = []
        for case let page? in values where result.last != page { result.append(page) }
        return result
    }

    /// Turns (playing animations out on the clock) until `condition` holds; false after
    /// `timeout` of real time. For what takes real work on other threads, or a few frames.
    @discardableResult
    func wait(timeout: Duration = .seconds(10), until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            if status.isAnimating { clock.advance(by: Self.frame) }
            turn(wait: .milliseconds(1))
        }
        return true
    }

    /// Configures the window to `width` × `height` surface units (as a rotated or resized output
    /// would) and settles on a frame of that size (in pixels at the window's scale).
    func resize(to width: Int32, _ height: Int32) -> Bool {
        compositor.configure(width: width, height: height)
        let resized = wait {
            let scale = DisplayScale(numerator: Int((status.scale * 120).rounded()))
            return status.windowSize == Size(width: Double(width), height: Double(height))
                && lastCommit.map {
                    $0.width == scale.pixels(Int(width)) && $0.height == scale.pixels(Int(height))
                } == true
        }
        return resized && settle()
    }

    /// Settles, then tells whether the view rests on `page` (1-based).
    func waitForPage(_ page: Int) -> Bool {
        settle()
        return dominantPage == page
    }

    // MARK: Input (timestamps from the clock)

    /// A one-finger tap: down, 40 ms, up. No `wl_touch.frame` unless `frames` (cage never sends one).
    func tap(x: Double, y: Double, id: Int32 = 0, frames: Bool = false) {
        compositor.touchDown(id: id, x: x, y: y)
        if frames { compositor.touchFrame() }
        advanceWithoutSettling(by: 0.04)
        compositor.touchUp(id: id)
        if frames { compositor.touchFrame() }
        turn()
    }

    /// Two fingers 600 px apart on row 360 pinched together in ten frames, then lifted.
    func pinchTogether() {
        compositor.touchDown(id: 0, x: 340, y: 360)
        compositor.touchDown(id: 1, x: 940, y: 360)
        advanceWithoutSettling(by: Self.frame)
        for step in 1...10 {
            compositor.touchMotion(id: 0, x: 340 + 30.0 * Double(step), y: 360)
            compositor.touchMotion(id: 1, x: 940 - 30.0 * Double(step), y: 360)
            advanceWithoutSettling(by: Self.frame)
        }
        compositor.touchUp(id: 0)
        compositor.touchUp(id: 1)
    }

    /// A one-finger drag from `start` to `end` in `steps` moves `interval` apart, then release.
    func drag(
        from start: (Double, Double), to end: (Double, Double), steps: Int = 10,
        interval: Duration = .nanoseconds(16_666_667), release: Bool = true, frames: Bool = false
    ) {
        let interval = interval.seconds
        compositor.touchDown(id: 0, x: start.0, y: start.1)
        if frames { compositor.touchFrame() }
        advanceWithoutSettling(by: interval)
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            compositor.touchMotion(id: 0, x: start.0 + (end.0 - start.0) * t, y: start.1 + (end.1 - start.1) * t)
            if frames { compositor.touchFrame() }
            advanceWithoutSettling(by: interval)
        }
        if release {
            compositor.touchUp(id: 0)
            if frames { compositor.touchFrame() }
            turn()
        }
    }

    /// Monday 2026-11-30 10:00 UTC.
    static let mondayMorning = 1_796_032_800.0

    /// Moves the clock on by `seconds` at once (hours of a kiosk's day: the timers due fire in
    /// order in one turn), then settles.
    func jump(by seconds: Double) {
        clock.advance(by: seconds)
        turn()
        settle()
    }

    /// Moves the clock a frame at a time, turning at each, without waiting for anything.
    func advanceWithoutSettling(by seconds: Double) {
        var left = seconds
        repeat {
            let step = min(Self.frame, left)
            clock.advance(by: step)
            left -= step
            turn()
        } while left > 1e-9
    }

    /// Advertises a keyboard too, lets the app bind it and focuses the app's surface.
    func enableKeyboard() -> Bool {
        compositor.setSeatCapabilities([.touch, .pointer, .keyboard])
        for _ in 0..<200 where compositor.keyboardResourceCount == 0 { turn(wait: .milliseconds(1)) }
        guard compositor.keyboardResourceCount > 0 else { return false }
        turn()
        guard compositor.keyboardEnter() else { return false }
        turn()
        return true
    }

    /// Presses and releases the key with evdev code `code` (see `LecternHarness.Key`).
    func press(_ code: UInt32) {
        compositor.keyboardKey(code, pressed: true)
        advanceWithoutSettling(by: 0.01)
        compositor.keyboardKey(code, pressed: false)
        advanceWithoutSettling(by: 0.01)
    }

    /// Types the digits of `number` then Enter.
    func type(page number: Int) {
        for character in String(number) { press(LecternHarness.Key.digit(Int(String(character))!)) }
        press(LecternHarness.Key.enter)
    }

    /// A left click at (x, y): the pointer moves there, presses and releases.
    func click(x: Double, y: Double) {
        compositor.pointerMotion(x: x, y: y)
        compositor.pointerFrame()
        turn()
        compositor.pointerButton(LecternHarness.leftButton, pressed: true)
        compositor.pointerFrame()
        advanceWithoutSettling(by: 0.04)
        compositor.pointerButton(LecternHarness.leftButton, pressed: false)
        compositor.pointerFrame()
        turn()
    }

    /// Writes the last commit as a PNG (for looking at a failure); returns the path, or nil.
    @discardableResult
    func saveLastCommit(_ name: String) -> String? {
        lastCommit.flatMap { save($0, name) }
    }

    /// Writes `commit` as a PNG named after `name` in the temporary directory; returns the path, or nil.
    @discardableResult
    func save(_ commit: Commit, _ name: String) -> String? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-\(name).png").path
        let written = commit.pixels.withUnsafeBytes { raw in
            (try? PNGWriter.write(
                bgra: raw.baseAddress!, width: commit.width, height: commit.height, stride: commit.width * 4, to: path))
                != nil
        }
        return written ? path : nil
    }

    /// Shuts the app down and the compositor, which checks that the app left nothing behind.
    func stop() throws {
        app.shutdown()
        turn()
        try compositor.teardown()
    }
}

/// The log lines of one app (info and above), kept for a test to read.
final class LogCapture: @unchecked Sendable {
    // Sendable: `lines` is guarded by `lock` (MuPDF's warnings may log from a worker thread).
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] { lock.withLock { stored } }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.lock.withLock { capture.stored.append("\(event.level): \(event.message)") }
        }
    }
}
