import Glibc
import LecternCore
import LecternLinux
import LecternPolicy
import LecternWayland
import Logging

/// The home view's pixels kept across restarts: every kiosk start (a boot, a crash, a deploy)
/// shows the same document at the same size, so the frame kept at the last run is committed at
/// the first configure, before the document is open, and stays until the live frame is sharp.
///
/// The frame is kept for a key (`key(document:settings:)` and `frameLine`): the document's file
/// and version (device, inode, size, modification time, a hash of its first and last 64 KiB),
/// the policy's settings (`KioskConfiguration.fingerprint`), the frame's pixel size and scale,
/// and Lectern's version. A file kept for another key, truncated or corrupt is ignored
/// (`CachedFrame`). One file, `first-frame.bin` beside the saved view, written atomically off the
/// loop's thread whenever the home view is committed and what is kept is not already it (at
/// start, after the idle reset); `close()` waits for the write (exit).
final class FirstFrame {
    /// The file's name, in the saved view's directory.
    static let fileName = "first-frame.bin"
    /// Where the frame is kept (nil: nowhere).
    let path: String?
    private let work: BackgroundWork
    private let logger: Logger
    /// The start's reading of the file: the key of the document and settings, and the frame.
    private var loaded: (prefix: String, frame: Result<KeptFrame, CachedFrame.Refusal>)?
    private var isLoading = false
    /// What runs once the kept frame is shown or known not to be (`whenDecided`).
    private var onDecided: (() -> Void)?
    /// The key of the frame in the file (nil: not known to be any).
    private var kept: String?
    /// The key of the shown document and settings, read once per reader and fingerprint.
    private var documentKey: (reader: ObjectIdentifier, fingerprint: String, key: String?)?
    /// What became of the frame kept at the last run.
    private(set) var outcome = KioskStatus.FirstFrameCache.none
    /// The kept frame is what the window shows: the live frame replaces it only once it is sharp.
    private(set) var isOnScreen = false
    /// Frames written so far.
    private(set) var writes = 0

    /// - Parameter statePath: the saved view's file (`SavedView.path`): the frame goes beside it.
    init(statePath: String?, loop: EventLoop, logger: Logger) {
        path = statePath.map(Self.path(beside:))
        self.logger = logger
        work = BackgroundWork(label: "lectern.first-frame", qos: .userInitiated, loop: loop)
    }

    /// The kept frame's file, beside the saved view's `statePath`.
    static func path(beside statePath: String) -> String {
        (statePath.lastIndex(of: "/").map { String(statePath[..<$0]) } ?? ".") + "/" + fileName
    }

    /// Whether a frame is kept in the state directory the environment's `variable`s name, by
    /// this version of Lectern, for its document as that file is now (the key's file line:
    /// device, inode, size, modification time): a start is then likely to show it (`lectern`
    /// forks its render worker knowing it). A replaced document says no: that start opens it at
    /// once; so does a frame for another document than `document` (the command line's, when it
    /// names one). The key's header read and checked (`CachedFrame.header`) and a stat; the
    /// settings and the size are checked at the configure, as before.
    static func isKept(variable: (String) -> String?, document: String? = nil) -> Bool {
        guard let state = SavedView.path(variable: variable),
            let file = try? ReadOnlyFile(path: path(beside: state)), let size = try? file.identity().size,
            let header = try? CachedFrame.header(
                size: Int(size),
                keyPrefix: "lectern \(KioskApp.version)\n" + (document.map { "document \($0)\n" } ?? ""),
                read: { count, offset throws(CachedFrame.Refusal) in
                    do throws(SystemError) {
                        return try file.read(count: count, at: Int64(offset))
                    } catch {
                        throw .unreadable(error.description)
                    }
                })
        else { return false }
        let lines = String(decoding: header.key, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 2, lines[1].hasPrefix("document "),
            let identity = try? ReadOnlyFile(path: String(lines[1].dropFirst(9))).identity()
        else { return false }
        return lines[2].hasPrefix(fileLine(identity))
    }

    /// The start of the key's line for a document's file: which file, which version of it.
    private static func fileLine(_ identity: ReadOnlyFile.Identity) -> String {
        "file device \(identity.device) inode \(identity.inode) size \(identity.size) modified \(identity.modified) "
    }

    /// The key's part that the document at `document` and the `settings` fingerprint give.
    static func key(document: String, settings: String) throws(SystemError) -> String {
        let file = try ReadOnlyFile(path: document)
        let identity = try file.identity()
        let sample = 64 << 10
        var content = try file.read(count: sample, at: 0)
        if identity.size > Int64(sample) {
            content += try file.read(count: sample, at: max(Int64(sample), identity.size - Int64(sample)))
        }
        let contentHash = CachedFrame.checksum(key: [], pixels: content)
        let settingsHash = CachedFrame.checksum(key: [], pixels: Array(settings.utf8))
        return """
            lectern \(KioskApp.version)
            document \(document)
            \(fileLine(identity))content \(String(contentHash, radix: 16))
            settings \(String(settingsHash, radix: 16))

            """
    }

    /// The key's last line: the frame's size in pixels and its scale.
    static func frameLine(width: Int, height: Int, scale: DisplayScale) -> String {
        "frame \(width)x\(height) scale \(scale.numerator)/120\n"
    }

    /// Whether a start that opens `opening` on the view `restoring` (nil: the start page) under
    /// `policy` starts on the home view, which is all that is kept.
    static func applies(to opening: KioskConfiguration, restoring: ViewState?, policy: KioskConfiguration) -> Bool {
        policy.persistsState && !policy.hasShelf && opening.documentPath == policy.documentPath
            && (restoring == nil || restoring == ViewState(pageIndex: policy.startPage))
    }

    /// Starts reading the frame kept for `document` under `configuration`, off the loop's thread
    /// (start, while the display connects). False when no frame is kept.
    @discardableResult
    func load(document: String, configuration: KioskConfiguration) -> Bool {
        guard let path, access(path, F_OK) == 0 else { return false }
        isLoading = true
        let settings = configuration.fingerprint
        work.submit { () -> (String, Result<KeptFrame, CachedFrame.Refusal>) in
            let prefix: String
            do throws(SystemError) {
                prefix = try Self.key(document: document, settings: settings)
            } catch {
                return ("", .failure(.unreadable(error.description)))
            }
            return (
                prefix, Result { () throws(CachedFrame.Refusal) in try KeptFrame.read(from: path, keyPrefix: prefix) }
            )
        } then: { [unowned self] in
            loaded = $0
        }
        return true
    }

    /// Runs once the kept frame is on screen, or once it is known that it will not be (then at
    /// once, if that is known already): `KioskApp` opens the document then.
    func whenDecided(_ action: @escaping () -> Void) {
        if isLoading { onDecided = action } else { action() }
    }

    /// Runs what waits for the kept frame's fate, once (also after a deadline: `KioskApp`).
    func decide() {
        let action = onDecided
        onDecided = nil
        action?()
    }

    /// The frame kept for a first frame of `width` × `height` pixels at `scale`, waiting for the
    /// reading to end; nil when none applies (said in the log and in `outcome`). Once only.
    func take(width: Int, height: Int, scale: DisplayScale) -> KeptFrame? {
        guard isLoading else { return nil }
        isLoading = false
        work.waitUntilDone()
        let frame = matching(width: width, height: height, scale: scale)
        // Not to be shown: what waits for it goes on now (shown: once committed, `shown()`).
        if frame == nil { decide() }
        return frame
    }

    /// Commits the kept frame in `window` as soon as the compositor has configured it, before
    /// the rest of the reader is built (it took 0.6 ms of a repeat start after the window was
    /// made): one or two round trips (wlroots sends the configure after the first's answer).
    /// The buffer committed, for `FramePresenter`, which takes it from there; nil when none was
    /// (the frame still loading: none kept; not configured yet: at the configure, as before).
    func commitEarly(in window: XdgToplevel, pool: ShmBufferPool, display: Display) -> ShmBuffer? {
        guard isLoading else { return nil }
        for _ in 0..<2 where window.size == nil {
            do { try display.roundtrip() } catch { return nil }
        }
        guard let size = window.bufferSize,
            let kept = take(width: size.width, height: size.height, scale: window.scale),
            let buffer = window.commit(kept, from: pool, logger: logger)
        else { return nil }
        // Sent now, not when the loop first polls.
        display.flush()
        return buffer
    }

    /// The frame read, if it is for this first frame's size and scale.
    private func matching(width: Int, height: Int, scale: DisplayScale) -> KeptFrame? {
        guard let (prefix, result) = loaded else { return nil }
        loaded = nil
        switch result {
        case .success(let frame) where frame.key == prefix + Self.frameLine(width: width, height: height, scale: scale):
            kept = frame.key
            return frame
        case .success(let frame):
            kept = frame.key
            ignore("kept for a \(frame.width)x\(frame.height) frame or another scale")
        case .failure(.missing):
            break
        case .failure(let refusal):
            ignore(refusal.description)
        }
        return nil
    }

    private func ignore(_ reason: String) {
        outcome = .ignored(reason)
        logger.info("first frame: not shown: \(reason)")
    }

    /// The kept frame was committed.
    func shown() {
        outcome = .shown
        isOnScreen = true
        decide()
    }

    /// A live frame replaced it (or was the first): the kept frame is not wanted any more.
    func replaced() {
        isOnScreen = false
        isLoading = false
        loaded = nil
    }

    /// The home view of `reader`'s document, under `configuration`, was committed in `buffer` at
    /// `scale`: kept, unless what is kept is already this frame.
    func homeCommitted(
        _ buffer: ShmBuffer, scale: DisplayScale, document: String, reader: ObjectIdentifier,
        configuration: KioskConfiguration
    ) {
        guard let path, configuration.persistsState else { return }
        let fingerprint = configuration.fingerprint
        if documentKey?.reader != reader || documentKey?.fingerprint != fingerprint {
            documentKey = (reader, fingerprint, try? Self.key(document: document, settings: fingerprint))
        }
        guard let prefix = documentKey?.key else { return }
        let key = prefix + Self.frameLine(width: buffer.width, height: buffer.height, scale: scale)
        guard key != kept,
            CachedFrame.layout(width: buffer.width, height: buffer.height, keyLength: key.utf8.count).size
                <= CachedFrame.maximumBytes
        else { return }
        kept = key
        writes += 1
        let rowBytes = buffer.width * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * buffer.height) { target, count in
            for row in 0..<buffer.height {
                (UnsafeMutableRawPointer(target.baseAddress!) + row * rowBytes).copyMemory(
                    from: buffer.pixels + row * buffer.stride, byteCount: rowBytes)
            }
            count = rowBytes * buffer.height
        }
        let frame = CachedFrame(key: key, width: buffer.width, height: buffer.height, pixels: pixels)
        work.submit({ () -> SystemError? in
            do throws(SystemError) {
                try ViewStateStore.makeDirectory(for: path)
                try writeFileAtomically(frame.encoded(), to: path, mode: 0o600)
                return nil
            } catch {
                return error
            }
        }) { [logger] error in
            if let error { logger.error("cannot keep the first frame: \(error)") }
        }
    }

    /// Whether the file is being read or written.
    var isBusy: Bool { work.isBusy }

    /// Waits for the write under way (exit).
    func close() { work.waitUntilDone() }
}

extension KioskApp {
    /// Whether a first frame is kept in the state directory the environment's `variable`s name,
    /// for its document as the file is now, and that is `document` if it is given
    /// (`FirstFrame.isKept`): a start is then likely to show it before the document opens.
    public static func keepsFirstFrame(variable: (String) -> String?, document: String? = nil) -> Bool {
        FirstFrame.isKept(variable: variable, document: document)
    }
}
