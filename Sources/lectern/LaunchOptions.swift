import ArgumentParser
import Glibc
import LecternCore
import LecternDocuments
import LecternKiosk
import LecternLinux
import LecternPolicy
import LecternRender
import LecternWayland
import Logging

/// What one command line asks of Lectern, however it was parsed: by swift-argument-parser
/// (`Lectern`) or on the short path (`FastCommandLine`). An option not given is nil: the policy
/// file, or else the default, decides.
struct LaunchOptions: Equatable {
    /// The documents: one is shown; several go on the shelf.
    var files: [String] = []
    var password: String?
    var frameDump: String?
    var config: String?
    var checkConfig: String?
    var spreads: SpreadOption?
    var scroll: ScrollOption?
    var direction: DirectionOption?
    var binding: BindingOption?
    var transition: TransitionOption?
    var contrast: Contrast.Mode?
    var largePrint: SwitchOption?
    /// Counts from 1, as the user types it.
    var page: Int?
    var idleReset: Int?
    var cacheMegabytes: Int?
    /// Percent of a book's own type size.
    var fontSize: Int?
    var mirror: MirrorOption?
    var language: LanguageOption?
    var renderProcess: RenderProcessOption?
    /// Seconds.
    var renderDeadline: Double?
    /// An ALSA device, or a `.wav` file speech is written to.
    var speechOutput: String?

    /// The checks `Lectern.validate()` makes, with its messages.
    func validate() throws {
        if let page, page < 1 { throw ValidationError("--page counts from 1") }
        if let idleReset, idleReset < 0 { throw ValidationError("--idle-reset needs 0 (never) or a number of seconds") }
        if let cacheMegabytes, cacheMegabytes < 1 || cacheMegabytes > 4096 {
            throw ValidationError("--cache-mb must be between 1 and 4096")
        }
        if let fontSize, !(50...400).contains(fontSize) {
            throw ValidationError("--font-size must be between 50 and 400 (percent)")
        }
        if let frameDump, frameDump.isEmpty { throw ValidationError("--frame-dump needs a path") }
        if let speechOutput, speechOutput.isEmpty {
            throw ValidationError("--speech-output needs an ALSA device or a .wav file")
        }
        if let renderDeadline, !(0.1...600).contains(renderDeadline) {
            throw ValidationError("--render-deadline must be between 0.1 and 600 seconds")
        }
    }

    /// The command line's settings by policy key (every option has one): they override the
    /// policy file's.
    var overrides: [String: PolicyValue] {
        var overrides: [String: PolicyValue] = [:]
        if files.count == 1 { overrides["document"] = .string(files[0]) }
        if files.count > 1 { overrides["documents"] = .strings(files) }
        overrides["password"] = password.map(PolicyValue.string)
        overrides["frame-dump"] = frameDump.map(PolicyValue.string)
        overrides["cache-mb"] = cacheMegabytes.map(PolicyValue.integer)
        overrides["text.font-size"] = fontSize.map(PolicyValue.integer)
        overrides["layout.spreads"] = spreads.map { .string($0.rawValue) }
        overrides["layout.scroll"] = scroll.map { .string($0.rawValue) }
        overrides["layout.direction"] = direction.map { .string($0.rawValue) }
        overrides["layout.binding"] = binding.map { .string($0.rawValue) }
        overrides["page-turn.transition"] = transition.map { .string($0.rawValue) }
        overrides["accessibility.contrast"] = contrast.map { .string($0.rawValue) }
        overrides["accessibility.large-print"] = largePrint.map { .boolean($0 == .on) }
        overrides["start.page"] = page.map(PolicyValue.integer)
        overrides["idle.reset"] = idleReset.map(PolicyValue.integer)
        overrides["mirror"] = mirror.map { .string($0.rawValue) }
        overrides["language"] = language.map { .string($0.rawValue) }
        overrides["render.process"] = renderProcess.map { .string($0.rawValue) }
        overrides["render.deadline"] = renderDeadline.map(PolicyValue.number)
        overrides["speech.output"] = speechOutput.map(PolicyValue.string)
        return overrides
    }

    /// The configuration these options give without a policy file (the settings' defaults,
    /// `PolicySettings`, for the options not given).
    func configuration(documentPath: String) -> KioskConfiguration {
        var configuration = KioskConfiguration(documentPath: documentPath, password: password, frameDumpPath: frameDump)
        if let spreads { configuration.spreadMode = spreads.mode }
        if let scroll { configuration.scrollMode = scroll.mode }
        if let direction { configuration.scrollDirection = direction.axis }
        if let binding { configuration.pageBinding = binding.binding }
        if let transition { configuration.transition = transition.transition }
        if let contrast { configuration.contrast = contrast }
        if let largePrint { configuration.largePrint = largePrint == .on }
        if let cacheMegabytes { configuration.cacheBudget = cacheMegabytes << 20 }
        if let fontSize { configuration.fontSizePercent = fontSize }
        if let page { configuration.startPage = page - 1 }
        if let idleReset { configuration.idleResetSeconds = idleReset }
        if let mirror { configuration.mirror = mirror == .off ? .off : .auto }
        if let language { configuration.language = language.rawValue }
        configuration.shelfPaths = files.count > 1 ? files : []
        // The reader draws in its render worker process unless told otherwise.
        if let renderProcess { configuration.usesRenderProcess = renderProcess != .off }
        if let renderDeadline { configuration.renderDeadline = renderDeadline }
        // The worker's binary by path (valgrind, profiling: kiosk/link-order); default its own.
        if let worker = getenv("LECTERN_RENDER_WORKER") {
            configuration.renderProcess.executable = String(cString: worker)
        }
        if let speechOutput { configuration.speechOutput = speechOutput }
        configuration.overrides = overrides
        return configuration
    }

    /// `--check-config PATH`: prints the file's problems to standard error (exit status 1), or
    /// that it is fine (0). The command line's other options are checked with it, as they would
    /// be applied over it.
    func checkPolicy(_ path: String) -> Int32 {
        do {
            let policy = try PolicyFile.load(path: path, over: configuration(documentPath: files.first ?? ""))
            // Warnings: what works, but not for every visitor.
            let screen = PhysicalScreen(
                width: Double(policy.screenWidthMillimetres), height: Double(policy.screenHeightMillimetres),
                viewingDistance: Double(policy.viewingDistanceMillimetres))
            let reach = Reach(screen: screen, bottom: Double(policy.mountBottomMillimetres))
            let warnings = [screen?.problem.map { "screen: " + $0 }, reach?.problem.map { "mount: " + $0 }]
            for warning in warnings.compactMap({ $0 }) {
                let line = "\(path): warning: \(warning)\n"
                _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            }
            print("\(path): no problems")
            return 0
        } catch {
            for problem in error.problems {
                let line = "\(problem)\n"
                _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            }
            return 1
        }
    }

    /// Logs go to standard error, at `LECTERN_LOG_LEVEL` (default info): the reader's and the
    /// render worker's.
    static func bootstrapLogging(level standard: Logger.Level = .info) {
        // getenv, not ProcessInfo's environment, which copies every variable into a dictionary first.
        let level = getenv("LECTERN_LOG_LEVEL").flatMap { Logger.Level(rawValue: String(cString: $0)) } ?? standard
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// Sets up logging and runs the reader until it ends.
    /// - Returns: the exit status for the process.
    func launch() -> Int32 {
        if let checkConfig { return checkPolicy(checkConfig) }
        // The render worker, forked first (while this process has one thread, and before the
        // logging's set-up, which the worker does for itself): it waits while the policy is read
        // (which may turn it off: it is then let go). Not for an explicit "off". Not either for
        // a start likely to show the frame kept at the last run: the fork (0.3 ms) and the
        // worker's own start came before that frame, which needs no worker; the document opens
        // once it is on screen, in a worker started then (`RenderProcess` execs one).
        if renderProcess != .off,
            !KioskApp.keepsFirstFrame(variable: { getenv($0).map { String(cString: $0) } }, document: files.first)
        {
            RenderWorkerMain.forkAtStart(channels: RenderProcess.defaultChannels) { Self.bootstrapLogging() }
        }
        mapLargeBlocks()
        Self.bootstrapLogging()
        // The compositor's globals asked for now (after the fork: the worker must not hold the
        // connection), answered while the policy and the saved view are read.
        Display.connectEarly()
        // The chrome's catalogs: beside the binary (kiosk/run), else the system's (the package).
        GettextTranslator.install(catalogs: GettextTranslator.besideExecutable())
        let logger = Logger(label: "lectern")
        var configuration = configuration(documentPath: files.first ?? Lectern.bundledSamplePath())
        configuration.policyPath = config ?? (access(PolicyFile.defaultPath, F_OK) == 0 ? PolicyFile.defaultPath : nil)
        logger.info(
            "Lectern \(Lectern.version) showing \(configuration.documentPath)\(configuration.policyPath.map { " unless the policy \($0) says otherwise" } ?? "")"
        )
        let app: KioskApp
        do {
            app = try KioskApp(configuration: configuration, logger: logger)
        } catch {
            logger.critical("\(error)")
            return 1
        }
        return app.run()
    }
}
