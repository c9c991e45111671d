import LecternLinux
import LecternPDF
import Logging

/// Writes what the screen shows to a PNG, atomically replaced: whenever the committed
/// frame changes (at most `interval` apart, the last change always written) and on exit.
/// Encoding happens off the loop's thread (`BackgroundWork`); the Wayland thread only copies
/// the pixels. A dump that cannot be written is logged, and the reader carries on.
final class FrameDumper {
    private struct Snapshot: @unchecked Sendable {
        // Sendable: handed whole to the encoding job, which frees it.
        let pixels: UnsafeMutableRawPointer
        let width: Int, height: Int, stride: Int
    }

    let path: String
    let loop: EventLoop
    private let work: BackgroundWork
    private let logger: Logger
    private let interval: Double
    private var lastWrite: Double?
    private var pending: Snapshot?
    private var timer: EventLoop.Timer?
    /// Why the last write failed (nil while none has).
    private(set) var lastError: String?

    /// - Parameter interval: the shortest time between two writes, in seconds.
    init(path: String, loop: EventLoop, interval: Double = 0.25, logger: Logger) {
        self.path = path
        self.loop = loop
        self.interval = interval
        self.logger = logger
        work = BackgroundWork(label: "lectern.frame-dump", loop: loop)
    }

    /// Takes a copy of a committed frame.
    func frameCommitted(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) {
        if let pending { pending.pixels.deallocate() }
        let copy = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        copy.copyMemory(from: pixels, byteCount: stride * height)
        pending = Snapshot(pixels: copy, width: width, height: height, stride: stride)
        let now = loop.clock.now
        if let lastWrite, now - lastWrite < interval {
            guard timer?.isScheduled != true else { return }
            timer = loop.schedule(at: lastWrite + interval) { [unowned self] in writePending() }
        } else {
            writePending()
        }
    }

    private func writePending() {
        timer?.cancel()
        timer = nil
        guard let snapshot = pending else { return }
        pending = nil
        lastWrite = loop.clock.now
        work.submit({ [path] () -> String? in
            defer { snapshot.pixels.deallocate() }
            do {
                try PNGWriter.write(
                    bgra: snapshot.pixels, width: snapshot.width, height: snapshot.height, stride: snapshot.stride,
                    to: path)
                return nil
            } catch {
                return "\(error)"
            }
        }) { [unowned self] error in
            guard let error else { return }
            logger.error("cannot write frame dump: \(error)")
            lastError = error
        }
    }

    /// Writes the last frame and waits for every write to finish (on exit).
    func flush() {
        writePending()
        work.waitUntilDone()
    }

    deinit {
        timer?.cancel()
        if let pending { pending.pixels.deallocate() }
    }
}
