import Glibc
import LecternCore
import LecternDocuments
import LecternLinux
import LecternPolicy
import LecternRender
import LecternWayland
import Logging

/// Lectern's app: wiring and lifecycle only. `start()` builds the parts in order, `shutdown()`
/// tears them down in reverse; `run()` is both around the event loop.
///
/// The parts, one concern each: `DocumentSession` (the document: opening, the reader, tiles
/// arriving, page sizes and text), `FramePresenter` (window, buffers, frame pacing, frame
/// dump), `Chrome` (title bar, scrubber, typed page numbers, notices), `InputRouter` (seat
/// events to the chrome and the interaction controller), `IdleReset`. They all run on the
/// `EventLoop`, which owns every descriptor and timer, on the one injected clock.
public final class KioskApp {
    /// Lectern's version, as `lectern --version` prints it.
    public static let version = "0.2.0"

    /// How the app meets the world: production uses the defaults; tests run the app on their
    /// own thread against an in-process compositor, on a manual clock.
    public struct Environment {
        /// The time of everything: animations, gesture deadlines, key repeat, idle reset.
        public var clock: any MonotonicClock
        /// Runs while a Wayland round trip waits: for a compositor on the same thread.
        public var whileWaiting: (() -> Void)?
        /// Whether SIGTERM, SIGINT and SIGHUP end the app (tests leave the process's signals alone).
        public var handlesSignals: Bool
        /// The environment variables the operations parts read (`NOTIFY_SOCKET`, `WATCHDOG_USEC`,
        /// `STATE_DIRECTORY`, `XDG_STATE_HOME`, `XDG_RUNTIME_DIR`, `HOME`); nil: the process's.
        /// Tests give each app its own.
        public var variables: [String: String]?
        /// The headphone jack, on the app's loop (nil: the kernel's, `HeadphoneJack.open`). Tests
        /// plug in their own.
        public var headphones: ((EventLoop) -> (any HeadphoneDetector)?)?
        /// The date and time of day the opening hours follow (tests: a `ManualWallClock`).
        public var wallClock: any WallClock

        public init(
            clock: any MonotonicClock = SystemClock(), whileWaiting: (() -> Void)? = nil, handlesSignals: Bool = true,
            variables: [String: String]? = nil, headphones: ((EventLoop) -> (any HeadphoneDetector)?)? = nil,
            wallClock: any WallClock = SystemWallClock()
        ) {
            self.wallClock = wallClock
            self.clock = clock
            self.whileWaiting = whileWaiting
            self.handlesSignals = handlesSignals
            self.variables = variables
            self.headphones = headphones
        }

        /// The variable `name` (an empty value counts as unset).
        func variable(_ name: String) -> String? {
            let value = variables.map { $0[name] } ?? getenv(name).map { String(cString: $0) }
            return value?.isEmpty == false ? value : nil
        }
    }

    /// The running parts, built in this order by `start()`.
    struct Parts {
        let backend: DocumentBackend
        let files: FileWatcher
        let policy: PolicyInForce
        let schedule: OpeningSchedule
        let session: DocumentSession
        let reloader: DocumentReloader
        let home: Home
        let display: Display
        let chrome: Chrome
        let navigation: Navigation
        let annotations: Annotations
        let presenter: FramePresenter
        let mirror: PresenterMirror
        let selectedText: SelectedText
        let input: InputRouter
        let operatorPanel: OperatorPanel
        let focus: KeypadFocus
        let idle: IdleReset
        let contrast: ContrastSetting
        let operations: Operations
        let closed: ClosedKiosk
        /// Closes every part, in reverse order of building (`shutdown()`).
        let teardown: Teardown
    }

    public let configuration: KioskConfiguration
    let logger: Logger
    let environment: Environment
    let loop: EventLoop
    /// The parts while running (`status` reads them: KioskStatus.swift).
    private(set) var parts: Parts?

    /// Lets an integrator change what gestures do without touching Lectern: called on the
    /// loop's thread with the interaction controller each time one is set up (when the
    /// document opens, and after an idle reset). Add activation conditions and callbacks to
    /// its components, custom gesture recognizers, failure requirements… Set it before `start()`.
    public var configureInteractions: ((InteractionController) -> Void)?

    /// Layouts and spreadings registered by name (`register(_:)`).
    private(set) var customizations: [String: ViewCustomization] = [:]

    /// Registers an integrator's layout or spreading under its name, before `start()`. The policy
    /// puts it in force with `layout.custom = "NAME"` (or the launch configuration's
    /// `customLayout`), and every view of every document uses it from then on: after a document
    /// opens, a reload, a resize, a policy change and in the presenter mirror.
    public func register(_ customization: ViewCustomization) {
        customizations[customization.name] = customization
    }

    /// The kiosk's events (a document loaded, a spread shown, the page or zoom changed, a
    /// component acted…): observe them, before `start()` to hear the first document load.
    public let events = KioskEvents()

    /// Told what to say as keypad focus moves (`KeypadFocus.onSpeech`: `.interrupt` at every
    /// navigation key, then the focused item or the help as `.say`). Set it before `start()`.
    public var onSpeech: ((SpeechRequest) -> Void)?

    public init(
        configuration: KioskConfiguration, logger: Logger, environment: Environment = Environment()
    ) throws(KioskError) {
        self.configuration = configuration
        self.logger = logger
        self.environment = environment
        do {
            loop = try EventLoop(clock: environment.clock)
        } catch {
            throw .system(error)
        }
    }

    /// Runs until SIGTERM/SIGINT (exit status 0) or until the compositor goes away (non-zero).
    public func run() -> Int32 {
        do {
            try start()
        } catch {
            logger.critical("\(error)")
            shutdown()
            return 1
        }
        defer { shutdown() }
        do {
            try loop.run()
        } catch {
            logger.critical("\(error)")
            return 1
        }
        return 0
    }

    /// Builds the parts: signals first (before any thread starts), the document opening on
    /// the worker while the display connects, then the window, chrome and input.
    public func start() throws(KioskError) {
        guard parts == nil else { return }
        if environment.handlesSignals {
            do {
                try loop.handleTerminationSignals { [unowned self] signal in
                    logger.info("received signal \(signal), shutting down")
                    loop.stop()
                }
            } catch {
                throw .system(error)
            }
        }
        // Each part pushes its close as it is built: a failed start and `shutdown()` run the
        // same stack, in reverse.
        let teardown = Teardown()
        // The request for the next frame, which every part that changes the screen sets and the
        // frame presenter takes when it draws (foot's render_refresh).
        let frame = FrameRequest(clock: loop.clock)
        // Where the pointer is: the input router follows every event, the parts read it.
        let pointer = Pointer()
        func failing<T>(_ error: T) -> T {
            teardown.run()
            return error
        }
        let files: FileWatcher
        let session: DocumentSession
        let display: Display
        do {
            files = try FileWatcher(loop: loop, logger: logger)
        } catch {
            throw .system(error)
        }
        teardown.push { files.close() }
        let policy = PolicyInForce(
            launch: configuration, files: files, logger: logger, customizations: customizations)
        teardown.push { policy.close() }
        // The chrome speaks gettext's catalogs (lectern's main says where they are), in the
        // policy's language (`ChromeLanguage`).
        GettextTranslator.install(catalogs: nil)
        // Open or closed, and the open range's show in force before the document is chosen.
        let schedule = OpeningSchedule(policy: policy, clock: environment.wallClock, loop: loop, logger: logger)
        teardown.push { schedule.close() }
        // A restart comes back to the view saved before it (the document's same version only).
        let statePath = SavedView.path(variable: environment.variable)
        var opening = policy.configuration
        let restored = ViewStateStore.restoredView(at: statePath, for: &opening, logger: logger)
        // The home view kept at the last run, read while the worker opens the document and the
        // display connects; shown at the first configure if it is this start's first frame.
        let firstFrame = FirstFrame(statePath: statePath, loop: loop, logger: logger)
        teardown.push { firstFrame.close() }
        // With a frame kept, the document opens once it is on screen (or known not to be): the
        // worker's opening (MuPDF, the first page's display list) would take a core from this
        // start, which shows that page already.
        let opensAfterFirstFrame =
            FirstFrame.applies(to: opening, restoring: restored.view, policy: policy.configuration)
            && firstFrame.load(document: opening.documentPath, configuration: policy.configuration)
        // Else the render worker starts before the display connects and opens the document
        // meanwhile: the one the policy names, at the page the saved view restores.
        let backend = makeDocumentBackend(opening, startsWorker: !opensAfterFirstFrame, loop: loop, logger: logger)
        // The screen's size and scale: the frame presenter sets them, the parts read them.
        let screen = Screen()
        teardown.push { backend.close() }
        // The contrast pages and chrome are drawn in: the operator's default to start with.
        let contrast = ContrastSetting(screen: screen, frame: frame, policy: policy, logger: logger)
        let reloader = DocumentReloader(
            policy: policy, backend: backend, screen: screen, files: files, loop: loop, logger: logger)
        teardown.push { reloader.close() }
        session = DocumentSession(
            policy: policy, documentPath: opening.documentPath, backend: backend, reloader: reloader,
            screen: screen, frame: frame, loop: loop, logger: logger)
        teardown.push { session.close() }
        session.restoredView = restored.view
        firstFrame.whenDecided { [unowned session] in session.open() }
        // The first configure decides; a compositor that never sends one must not keep the
        // document shut.
        let openAnyway = loop.schedule(after: 0.1) { [unowned firstFrame] in firstFrame.decide() }
        teardown.push { openAnyway.cancel() }
        let shelf = Shelf(
            shown: session, current: session.current, backend: backend, policy: policy, screen: screen,
            frame: frame, pointer: pointer, loop: loop, logger: logger)
        teardown.push { shelf.close() }
        let transitions = TransitionPlayer(logger: logger)
        let home = Home(
            shelf: shelf, current: session.current, policy: policy, transitions: transitions, frame: frame,
            loop: loop, logger: logger)
        teardown.push { home.close() }
        do {
            // A frame kept: the outputs' and the seat's first events come with the window's
            // configure, one round trip for both (`commitEarly`).
            display = try Display(
                name: configuration.displayName, loop: loop, logger: logger, whileWaiting: environment.whileWaiting,
                awaitsBoundState: !opensAfterFirstFrame)
        } catch {
            throw failing(.wayland(error))
        }
        // The window now: configured while the other parts are built, or (a frame kept) at once.
        let window = XdgToplevel(display: display, title: "Lectern", appID: "lectern", logger: logger)
        let pool = display.makeBufferPool()
        let keptFrame = opensAfterFirstFrame ? firstFrame.commitEarly(in: window, pool: pool, display: display) : nil
        if let seat = display.seat { logger.info("input devices: \(seat.devices)") }
        let chrome = Chrome(loop: loop, frame: frame, pointer: pointer, policy: policy, screen: screen, logger: logger)
        teardown.push { chrome.close() }
        let navigation = Navigation(
            loop: loop, frame: frame, pointer: pointer, current: session.current, screen: screen, chrome: chrome,
            logger: logger)
        teardown.push { navigation.close() }
        let selectedText = SelectedText(
            current: session.current, policy: policy, chrome: chrome, display: display, frame: frame, logger: logger)
        let annotations = Annotations(
            loop: loop, current: session.current, shown: session, policy: policy, screen: screen, chrome: chrome,
            frame: frame, logger: logger)
        teardown.push { annotations.close() }
        let dumper = policy.frameDumpPath.map { FrameDumper(path: $0, loop: loop, logger: logger) }
        let largePrint = LargePrint(
            policy: policy, current: session.current, session: session, screen: screen, pointer: pointer,
            chrome: chrome,
            frame: frame, loop: loop, logger: logger)
        teardown.push { largePrint.close() }
        let accessibility = VisitorAccessibility(contrast: contrast, screen: screen, largePrint: largePrint)
        let narrator = Narrator(
            policy: policy, current: session.current, frame: frame, accessibility: accessibility,
            executable: configuration.renderProcess.executable, pacesFile: configuration.pacesSpeechFile, loop: loop,
            logger: logger)
        teardown.push { narrator.close() }
        narrator.document = session
        narrator.isShelfShown = { [unowned home] in home.shelf.isShown }
        if policy.speechHeadphones != .off {
            narrator.headphones = (environment.headphones ?? { HeadphoneJack.open(loop: $0) })(loop)
            logger.info(narrator.headphones == nil ? "no headphone jack to watch" : "watching the headphone jack")
        }
        let panel = AccessibilityPanel(
            policy: policy, narrator: narrator, accessibility: accessibility, chrome: chrome, screen: screen,
            pointer: pointer, frame: frame, logger: logger)
        panel.keyboardTop = { [unowned navigation, unowned annotations] in
            if let keyboard = navigation.search.keyboard { return keyboard.layout.frame.minY }
            guard case .typing = annotations.editing?.kind else { return nil }
            return annotations.keyboard.layout.frame.minY
        }
        navigation.bar.accessibilityButton = { [unowned panel] in panel.buttonBox }
        let operatorPanel = OperatorPanel(
            policy: policy, current: session.current, annotations: annotations, chrome: chrome, screen: screen,
            frame: frame, logger: logger)
        accessibility.onReset = { [unowned narrator, unowned panel, unowned operatorPanel] in
            narrator.resetToDefaults()
            panel.close()
            operatorPanel.close()
        }
        let presenter = FramePresenter(
            display: display, loop: loop, frame: frame, session: session, policy: policy, screen: screen,
            chrome: chrome, navigation: navigation,
            annotations: annotations, shelf: home.shelf, transitions: transitions, selectedText: selectedText,
            narrator: narrator, panel: panel, largePrint: largePrint, dumper: dumper, firstFrame: firstFrame,
            window: window, pool: pool, keptFrame: keptFrame, logger: logger)
        teardown.push { presenter.close() }
        let mirror = PresenterMirror(
            display: display, loop: loop, current: session.current, presenter: presenter,
            isEnabled: policy.mirror != .off, logger: logger)
        teardown.push { mirror.close() }
        let input = InputRouter(
            loop: loop, current: session.current, chrome: chrome, navigation: navigation, annotations: annotations,
            shelf: home.shelf, selectedText: selectedText, pointer: pointer, frame: frame,
            policy: policy, narrator: narrator, panel: panel, logger: logger)
        teardown.push { input.close() }
        input.lowering = { [unowned screen] in screen.lowering }
        input.operatorPanel = operatorPanel
        // A language chosen: the shelf's versions in it, and the shown document's.
        chrome.language.observe { [unowned session, unowned home, unowned chrome] _ in
            home.shelf.languageChanged()
            session.showVersion(in: chrome.language.current.code)
        }
        let gate = ChromeGate()
        gate.allows = { [unowned input] in input.allows($0, at: $1) }
        chrome.gate = gate
        navigation.gate = gate
        presenter.operatorOverlay = { [unowned operatorPanel] in operatorPanel.scene }
        let focus = KeypadFocus(
            current: session.current, chrome: chrome, navigation: navigation, annotations: annotations,
            shelf: home.shelf, panel: panel, screen: screen, frame: frame, loop: loop, policy: policy, logger: logger)
        input.focus = focus
        // What the focus moved to is said (an integrator or a test hears it too: `onSpeech`).
        focus.onSpeech = { [unowned narrator, onSpeech] request in
            switch request {
            case .interrupt: narrator.interrupt()
            case .say(let text): narrator.announce(text)
            }
            onSpeech?(request)
        }
        focus.interactions = { [unowned input] in input.interactions }
        focus.saysFieldValues = { [unowned narrator] in narrator.saysFieldValues }
        presenter.focusRing = { [unowned focus] in focus.ring(for: $0, plan: $1, scale: $2) }
        let idle = IdleReset(
            loop: loop, frame: frame, current: session.current, policy: policy, chrome: chrome, input: input,
            accessibility: accessibility, logger: logger)
        teardown.push { idle.cancel() }
        let operations: Operations
        do {
            operations = try Operations(
                statePath: statePath, current: session.current, shown: session, policy: policy, reloader: reloader,
                presenter: presenter, focus: focus,
                restored: restored.outcome, idle: idle, schedule: schedule, screen: screen, events: events,
                variable: environment.variable, loop: loop,
                logger: logger)
        } catch {
            throw failing(.system(error))
        }
        teardown.push { operations.close() }
        operations.metrics.isAttracting = { [unowned home] in home.attract.isRunning }
        operations.eventSource.isAttracting = { [unowned home] in home.attract.isRunning }
        operations.metrics.isShelfShown = { [unowned home] in home.shelf.isShown }
        let closed = ClosedKiosk(
            schedule: schedule, presenter: presenter, idle: idle, home: home, policy: policy, loop: loop, logger: logger
        )
        teardown.push { closed.close() }
        presenter.onCurtain = { [unowned operations] in operations.curtainShown() }
        input.configureInteractions = {
            [unowned session, unowned policy, unowned operations, configureInteractions] controller in
            InteractionPolicy.install(on: controller, current: session.current, policy: policy)
            operations.install(on: controller)
            configureInteractions?(controller)
        }
        chrome.isVisible = policy.chrome == .always
        annotations.connect(chrome: chrome, navigation: navigation)
        navigation.partsAbove.append { [unowned selectedText] in selectedText.part(at: $0) }
        home.connect(
            current: session.current, reloader: reloader, chrome: chrome, input: input, idle: idle)
        presenter.onAnimationEnd = { [unowned idle] in idle.restart() }
        panel.onChange = { [unowned idle] in idle.restart() }
        idle.onCountdown = { [unowned narrator] text in narrator.sayIfOn(text) }
        idle.onCue = { [unowned narrator] in narrator.cue() }
        // Every notice, and what a search found, is said to a visitor listening.
        chrome.onNotice = { [unowned narrator] text in narrator.sayIfOn(text) }
        navigation.search.onSay = { [unowned narrator] text in narrator.sayIfOn(text) }
        largePrint.search = { [unowned navigation] in navigation.search.marked }
        largePrint.follow = { [unowned input] in input.follow($0) }
        largePrint.spoken = { [unowned narrator] in narrator.spokenSentence }
        idle.isSpeaking = { [unowned narrator] in narrator.isSpeaking }
        presenter.onCommit = { [unowned operations] in operations.frameCommitted(latency: $0) }
        presenter.onPresented = { [unowned operations] in operations.metrics.presented($0, seconds: $1) }
        display.onInput = { [unowned input, unowned operations, unowned closed] event in
            guard !closed.swallows(event) else { return }
            operations.inputArrived(event)
            input.handle(event)
        }
        teardown.push { display.onInput = nil }
        let idleHandler = loop.addIdleHandler {
            [unowned presenter, unowned mirror, unowned session, unowned operations] in
            presenter.drawIfNeeded()
            mirror.update()
            session.logViewStateIfResting(hasShownPage: presenter.hasShownPage)
            operations.afterIteration()
        }
        teardown.push { idleHandler.cancel() }
        if !closed.isCurtainDown { idle.restart() }
        parts = Parts(
            backend: backend, files: files, policy: policy, schedule: schedule, session: session, reloader: reloader,
            home: home,
            display: display, chrome: chrome, navigation: navigation, annotations: annotations, presenter: presenter,
            mirror: mirror, selectedText: selectedText, input: input, operatorPanel: operatorPanel, focus: focus,
            idle: idle, contrast: contrast,
            operations: operations, closed: closed,
            teardown: teardown)
    }

    /// One turn of the event loop (tests drive the app with it).
    public func runOnce(timeout: Duration?) throws {
        try loop.runOnce(timeout: timeout)
    }

    /// Ends `run()` as SIGTERM does (exit status 0). Any thread.
    public func stop() {
        loop.stop()
    }

    /// Tears the parts down in reverse order of building: input first, the document's
    /// threads and worker processes last.
    public func shutdown() {
        guard let parts else { return }
        self.parts = nil
        parts.teardown.run()
    }
}

/// What `KioskApp.start()` built, closed in reverse: each part pushes its close once it is
/// built, so a start that fails halfway and `shutdown()` close the same things the same way
/// (cage's one cleanup path).
final class Teardown {
    private var steps: [() -> Void] = []

    /// Adds the close of a part just built.
    func push(_ step: @escaping () -> Void) { steps.append(step) }

    /// Closes everything pushed, last first; running it again does nothing.
    func run() {
        while let step = steps.popLast() { step() }
    }
}
