import CLecternLinux
import Dispatch
import Glibc
import LecternPDF
import Logging

/// Writes what the screen shows to a PNG, atomically replaced: whenever the committed
/// frame changes (at most `interval` apart, the last change always written) and on exit.
/// Encoding happens on its own queue; the Wayland thread only copies the pixels.
final class FrameDumper {
    private struct Snapshot: @unchecked Sendable {
        let pixels: UnsafeMutableRawPointer
        let width: Int, height: Int, stride: Int
    }

    let path: String
    private let queue = DispatchQueue(label: "lectern.frame-dump", qos: .utility)
    private let logger: Logger
    private let interval: Duration
    private var lastWrite: ContinuousClock.Instant?
    private var pending: Snapshot?
    /// Armed when a frame arrives too soon after the last write.
    let timerFD: Int32

    init(path: String, interval: Duration = .milliseconds(250), logger: Logger) throws(KioskError) {
        self.path = path
        self.interval = interval
        self.logger = logger
        let fd = CLecternLinux_timerfd()
        guard fd >= 0 else { throw .system("timerfd_create", errno: errno) }
        timerFD = fd
    }

    /// Takes a copy of a committed frame.
    func frameCommitted(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) {
        if let pending { pending.pixels.deallocate() }
        let copy = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        copy.copyMemory(from: pixels, byteCount: stride * height)
        pending = Snapshot(pixels: copy, width: width, height: height, stride: stride)
        let now = ContinuousClock.now
        if let lastWrite, now - lastWrite < interval {
            let wait = interval - (now - lastWrite)
            let ms = max(1, Int64(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000))
            _ = CLecternLinux_timerfd_arm(timerFD, ms)
        } else {
            writePending()
        }
    }

    /// The rate-limit timer fired.
    func timerFired() {
        _ = CLecternLinux_timerfd_drain(timerFD)
        writePending()
    }

    private func writePending() {
        guard let snapshot = pending else { return }
        pending = nil
        lastWrite = .now
        queue.async { [path, logger] in
            defer { snapshot.pixels.deallocate() }
            do {
                try PNGWriter.write(
                    bgra: snapshot.pixels, width: snapshot.width, height: snapshot.height, stride: snapshot.stride,
                    to: path)
            } catch {
                logger.error("cannot write frame dump: \(error)")
            }
        }
    }

    /// Writes the last frame and waits for every write to finish (on exit).
    func flush() {
        writePending()
        queue.sync {}
    }

    deinit {
        if let pending { pending.pixels.deallocate() }
        close(timerFD)
    }
}
