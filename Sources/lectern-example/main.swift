// An example of embedding Lectern (README, "Embedding Lectern"): a kiosk app of its own that
// shows a document as fold-out leaflets (the cover, then three pages side by side), one under the
// other at 80 % of the width, lets a tap at the edge turn every way but back to the cover, and
// prints the kiosk's events as JSON lines on standard output.
//
//     lectern-example DOCUMENT.pdf
import Foundation
import LecternCore
import LecternDocuments
import LecternKiosk
import LecternPolicy
import Logging

let arguments = Array(CommandLine.arguments.dropFirst())
// Lectern draws pages in a render worker process: a worker started after a crash runs this
// program again with `--render-worker`; the first one is forked now, while there is one thread.
if arguments.first == RenderWorkerMain.option {
    exit(RenderWorkerMain.run(Array(arguments.dropFirst())))
}
RenderWorkerMain.forkAtStart(channels: RenderProcess.defaultChannels)

// Logs go to standard error; standard output is for the events.
LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
let logger = Logger(label: "lectern-example")
guard let document = arguments.first else {
    logger.critical("usage: lectern-example DOCUMENT.pdf")
    exit(2)
}

var configuration = KioskConfiguration(documentPath: document)
configuration.scrollMode = .continuous
configuration.scrollDirection = .vertical
// The layout registered below, by its name (a policy file's `layout.custom` may name it too).
configuration.customLayout = "fold-out-leaflets"

do {
    let app = try KioskApp(configuration: configuration, logger: logger)
    app.register(
        ViewCustomization(
            name: "fold-out-leaflets",
            layout: { configuration in
                Centred(
                    base: ContinuousScrollingLayout(
                        axis: .vertical, interitemSpacing: configuration.spacing,
                        contentInsets: configuration.contentInsets),
                    fraction: 0.8)
            }, spreading: FoldOut()))
    // Taps at the edges turn the page, except back to the cover: it is seen once.
    app.configureInteractions = { controller in
        controller.fastScroll.addActivationCondition { context, _, _ in context.targetSpread != 0 }
    }
    // Every event, as `lectern ctl events` would print it.
    app.events.observe { event in FileHandle.standardOutput.write(Data(event.line())) }
    exit(app.run())
} catch {
    logger.critical("\(error)")
    exit(1)
}
