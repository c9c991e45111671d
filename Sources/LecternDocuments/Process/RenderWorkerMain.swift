import CFontLibraries
import CLecternLinux
import CSeccomp
import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// The render worker process. The reader's first worker is forked at the top of `lectern`'s
/// start, before any thread exists (`forkAtStart(channels:)`): it costs no exec and no second
/// start of the Swift runtime, and waits while the reader reads its policy. A worker started
/// later (after a crash, a deadline, in tests, or once the frame kept at the last run is on
/// screen: `lectern` forks none then) is `lectern --render-worker CHANNELS`, exec'd by
/// `RenderProcess` with its channels as descriptors 3, 4, …
///
/// Either way it waits for the open request on channel 0, limits itself (address space, no
/// core dumps; it dies with its parent), opens the document, installs its seccomp filter, and
/// from then on answers requests on every channel, one thread per channel, until the reader
/// closes them.
public enum RenderWorkerMain {
    /// The hidden option that makes `lectern` a render worker.
    public static let option = "--render-worker"

    /// Runs the exec'd worker with the arguments after `option` (logging set up); returns the
    /// exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        guard let count = arguments.first.flatMap({ Int($0) }), count > 0, count <= 64 else {
            Logger(label: "lectern-render-worker").critical("usage: lectern \(option) CHANNELS")
            return 2
        }
        if !ChildProcess.limitSelf(addressSpace: 0) { return 1 }
        return serve((0..<count).map { MessageChannel(descriptor: Int32(3 + $0)) })
    }

    /// Forks the reader's first render worker with `channels` channels, unless one was forked
    /// already. Call it only while this process has a single thread (the child goes on running
    /// this process's code, and a lock another thread held would stay held there). In the child
    /// this never returns; in the reader the worker waits for `RenderProcess` to take it
    /// (`ChildProcess.take(role:channels:)`) or to let it go (`discardForkedWorker()`). Without a fork (it
    /// failed) `RenderProcess` execs its worker as after a crash.
    /// HarfBuzz and FreeType start loading in the child at once, beside the reader's start: it
    /// asks for the document within a millisecond, and MuPDF needs them for the first page.
    /// - Parameter setUp: runs first in the child (the reader forks before it sets up logging).
    public static func forkAtStart(channels: Int, setUp: () -> Void = {}) {
        ChildProcess.fork(role: role, channels: channels) {
            setUp()
            _ = CFontLibraries_start_loading()
            return serve($0)
        }
    }

    /// The free memory each of the worker's heaps keeps for the next tiles, and the largest block
    /// served from them (a bigger one is mapped and unmapped each time).
    static let keptFreeMemory = 32 << 20

    /// The name the worker forked at start is kept under (`ChildProcess.take(role:channels:)`).
    static let role = "render"

    /// Lets the worker `forkAtStart(channels:)` forked go, if no `RenderProcess` took it (the
    /// reader draws in process): it ends and is reaped.
    public static func discardForkedWorker() { ChildProcess.discard(role: role) }

    /// Opens the document asked for on `channels[0]`, then answers on every channel.
    private static func serve(_ channels: [MessageChannel]) -> Int32 {
        // Each tile's temporaries (a photo's decoded rows, scaled rows) are freed and asked for
        // again by the next: kept, they are not faulted in afresh each time (on a photo page
        // that was 150,000 page faults over the isolation benchmark's tiles, and 12,000 kept).
        keepFreedMemory(upTo: Self.keptFreeMemory)
        let worker = WorkerChannels(server: DocumentServer(logger: Logger(label: "lectern-render-worker")))
        guard let request = worker.receiveOpen(on: channels[0]) else { return 1 }
        // The other channels' threads once the open is answered: a thread started while HarfBuzz
        // and FreeType load waits for the dynamic linker's lock, and the open waited with it
        // (3 to 5 ms at start); after the answer that wait is the libraries' own, which the
        // filter waits for anyway. They start before the filter (it forbids new threads) and
        // answer nothing until the first page is ready (`DocumentServer.finishOpening`).
        guard
            worker.open(
                request, on: channels[0],
                beforeLockingDown: {
                    for (index, channel) in channels.enumerated().dropFirst() {
                        startDetachedThread(named: "lectern.worker.\(index)") { worker.serve(channel) }
                    }
                })
        else { return 1 }
        worker.serve(channels[0])
        return 0
    }
}

/// The worker's side of its channels: the open request on channel 0, then each channel's
/// requests handed to the worker's `DocumentServer`, with the tile memory that came with them.
private struct WorkerChannels {
    let server: DocumentServer
    var logger: Logger { server.logger }

    /// The reader's first message on `channel`: the open request (nil: the reader is gone).
    func receiveOpen(on channel: MessageChannel) -> [UInt8]? {
        guard let (bytes, fd) = channel.receive() else { return nil }
        if fd >= 0 { close(fd) }
        return bytes
    }

    /// Limits the process, opens the document `request` asks for, answers on `channel`, runs
    /// `beforeLockingDown`, locks the process down and interprets the first page. False when the
    /// reader is gone or sent something else.
    func open(_ request: [UInt8], on channel: MessageChannel, beforeLockingDown: () -> Void) -> Bool {
        guard let (path, password, preparePage, edits, limits) = DocumentRequest.decodeOpen(request) else {
            logger.critical("the reader's first message is not an open request")
            return false
        }
        // HarfBuzz and FreeType on a thread of their own while MuPDF opens the file (a worker
        // forked at start began at the fork), and waited for before the seccomp filter forbids
        // opening files: MuPDF calls them first when it reads the page's fonts.
        if CFontLibraries_start_loading() != 0 { CFontLibraries_load() }
        if !ChildProcess.limitSelf(addressSpace: limits.addressSpace) {
            logger.critical("cannot limit the render worker: \(errnoText(errno))")
            return false
        }
        // An audit's worker: the reader's workers come first (a failure leaves it as it was).
        if limits.niceness > 0 { _ = nice(Int32(limits.niceness)) }
        let answer = server.open(path: path, password: password, edits: edits, limits: limits)
        // The answer at once, before the libraries are waited for and the filter installed: the
        // reader lays out the first page and asks for its tile meanwhile. Nothing it asks is
        // answered before `finishOpening` below, so nothing is drawn before the filter. (The
        // reader opens the file itself only once the worker has: a file that crashes MuPDF's
        // parser then takes only the worker down.)
        guard channel.send(DocumentServer.encode(answer)) else { return false }
        beforeLockingDown()
        CFontLibraries_load()
        // From here on the worker reads only the file it has open: no new files, no sockets,
        // no processes (unless it is a worker that saves a copy).
        let status = limits.isFiltered ? CSeccomp_install_render_filter() : 0
        if status != 0 {
            logger.critical("cannot install the render worker's seccomp filter: \(errnoText(-status))")
            return false
        }
        // Then the first page (not for a restarted worker: -1), so that its first tile only
        // rasterizes; requests wait for it.
        server.finishOpening(preparePage: preparePage)
        return true
    }

    /// Answers requests on `channel` until the reader closes it, then ends the process.
    func serve(_ channel: MessageChannel) {
        // The channel's buffer, kept from the request that brought it.
        var kept: SharedTileBuffer?
        while let (bytes, fd) = channel.receive() {
            // A render's descriptor is its tile's memory (or a batch's: the channel's buffer),
            // mapped (the buffer then owns it); any other request's (a reflow's font file) is lent
            // to the server and closed after.
            var sent: SharedTileBuffer?
            var descriptor = fd
            func mapSent() {
                guard descriptor >= 0 else { return }
                var info = stat()
                fstat(descriptor, &info)
                sent = try? SharedTileBuffer(fd: descriptor, size: Int(info.st_size))
                descriptor = -1
                // Mapped: the descriptor is not needed again.
                sent?.closeDescriptor()
            }
            let isAnswered = server.answer(
                bytes,
                memory: { request, index in
                    var offset = 0
                    switch request {
                    case .render(_, _, true):
                        // Drawn into and let go after the answer (`sent` ends with this turn).
                        mapSent()
                        return sent.map { TileSlot(buffer: $0, offset: 0, isOwn: true) }
                    case .render: mapSent()
                    case .renderBatch(let batch):
                        mapSent()
                        offset = batch.tiles[index].offset
                    default: break
                    }
                    // The channel's buffer: kept from the request that brought it.
                    if let sent { kept = sent }
                    return kept.map { TileSlot(buffer: $0, offset: offset, isOwn: false) }
                }, descriptor: fd, reply: { channel.send($0) })
            if descriptor >= 0 { close(descriptor) }
            guard isAnswered else { break }
        }
        // The reader closed its end (or is gone): nothing more will be asked.
        exit(0)
    }
}
