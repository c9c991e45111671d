import ArgumentParser
import Glibc
import LecternKiosk
import Logging

/// What one command line asks of Lectern, however it was parsed: by swift-argument-parser
/// (`Lectern`) or on the short path (`FastCommandLine`). The defaults are `Lectern`'s.
struct LaunchOptions: Equatable {
    var file: String?
    var password: String?
    var frameDump: String?
    var spreads: SpreadOption = .single
    var scroll: ScrollOption = .perSpread
    var direction: DirectionOption = .horizontal
    var binding: BindingOption = .auto
    /// Counts from 1, as the user types it.
    var page = 1
    var idleReset = 120
    var cacheMegabytes: Int?

    /// The checks `Lectern.validate()` makes, with its messages.
    func validate() throws {
        if page < 1 { throw ValidationError("--page counts from 1") }
        if idleReset < 0 { throw ValidationError("--idle-reset needs 0 (never) or a number of seconds") }
        if let cacheMegabytes, cacheMegabytes < 1 || cacheMegabytes > 4096 {
            throw ValidationError("--cache-mb must be between 1 and 4096")
        }
        if let frameDump, frameDump.isEmpty { throw ValidationError("--frame-dump needs a path") }
    }

    /// Sets up logging and runs the reader until it ends.
    /// - Returns: the exit status for the process.
    func launch() -> Int32 {
        // getenv, not ProcessInfo's environment, which copies every variable into a dictionary first.
        let level = getenv("LECTERN_LOG_LEVEL").flatMap { Logger.Level(rawValue: String(cString: $0)) } ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "lectern")
        let path = file ?? Lectern.bundledSamplePath()
        logger.info("Lectern \(Lectern.version) showing \(path)")
        var configuration = KioskConfiguration(documentPath: path, password: password, frameDumpPath: frameDump)
        configuration.spreadMode = spreads.mode
        configuration.scrollMode = scroll.mode
        configuration.scrollDirection = direction.axis
        configuration.pageBinding = binding.binding
        configuration.cacheBudget = cacheMegabytes.map { $0 << 20 }
        configuration.startPage = page - 1
        configuration.idleResetSeconds = idleReset
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
