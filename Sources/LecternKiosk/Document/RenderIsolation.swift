import LecternDocuments
import LecternLinux
import LecternPolicy
import Logging

/// The backend `configuration` asks for. Without the worker process, the worker `lectern`
/// forked at its start (if it did) is let go.
func makeDocumentBackend(
    _ configuration: KioskConfiguration, startsWorker: Bool = true, loop: EventLoop, logger: Logger
) -> DocumentBackend {
    let worker = configuration.renderProcess
    guard configuration.usesRenderProcess else {
        RenderWorkerMain.discardForkedWorker()
        return DocumentBackend(inProcessOn: loop, logger: logger)
    }
    var settings = RenderProcess.Settings(
        executable: worker.executable ?? "/proc/self/exe", documentPath: configuration.documentPath,
        password: configuration.password, startPage: configuration.startPage,
        channels: RenderProcess.defaultChannels, addressSpace: configuration.renderAddressSpace)
    settings.renderDelayMilliseconds = worker.renderDelayMilliseconds
    settings.crashPage = worker.crashPage
    do {
        return try DocumentBackend(
            settings: settings, deadline: configuration.renderDeadline, startsWorker: startsWorker, loop: loop,
            logger: logger)
    } catch {
        // A reader without its worker still shows the document.
        logger.error("cannot start the render worker, drawing in process: \(error)")
        RenderWorkerMain.discardForkedWorker()
        return DocumentBackend(inProcessOn: loop, logger: logger)
    }
}
