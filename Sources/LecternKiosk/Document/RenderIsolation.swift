import LecternDocuments
import LecternLinux
import LecternPolicy
import Logging

/// The backend `configuration` asks for. Without the worker process, the worker `lectern`
/// forked at its start (if it did) is let go.
func makeDocumentBackend(_ configuration: KioskConfiguration, loop: EventLoop, logger: Logger) -> DocumentBackend {
    let policy = configuration.renderProcess
    guard policy.isEnabled else {
        RenderWorkerMain.discardForkedWorker()
        return DocumentBackend(inProcessOn: loop, logger: logger)
    }
    var settings = RenderProcess.Settings(
        executable: policy.executable ?? "/proc/self/exe", documentPath: configuration.documentPath,
        password: configuration.password, startPage: configuration.startPage,
        channels: RenderProcess.defaultChannels, addressSpace: policy.addressSpace)
    settings.renderDelayMilliseconds = policy.renderDelayMilliseconds
    settings.crashPage = policy.crashPage
    do {
        return try DocumentBackend(settings: settings, deadline: policy.deadline, loop: loop, logger: logger)
    } catch {
        // A reader without its worker still shows the document.
        logger.error("cannot start the render worker, drawing in process: \(error)")
        RenderWorkerMain.discardForkedWorker()
        return DocumentBackend(inProcessOn: loop, logger: logger)
    }
}
