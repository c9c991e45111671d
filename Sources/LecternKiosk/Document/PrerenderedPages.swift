import Glibc
import LecternCore
import LecternLinux
import LecternRender
import Logging
import Synchronization

/// The pages an audit found slow, drawn at the size the reader shows them and kept on disk in the
/// state directory (`prerendered/` beside `state.json`; at most `byteLimit`, the least recently
/// used first out), so that a visitor never waits for them: the reader's planner takes a page
/// from here (`TilePlanner.prerendered`) before it would ask the worker for it. Keyed by the
/// document's identity (its path, inode, size and modification time: a new version is another
/// document), the page and its size in pixels. Thread safe: the audit's job stores, the loop's
/// thread looks up.
final class PrerenderedPages: Sendable {
    /// The most bytes kept on disk.
    static let byteLimit = 64 << 20

    private let directory: FileDirectory
    private let logger: Logger
    /// The files kept, least recently used first, and their bytes.
    private let index: Mutex<[(name: String, bytes: Int)]>
    /// Pages taken from here (not rendered) so far.
    let served = Atomic<Int>(0)

    /// The pages kept in `directory` (made if missing); nil when it cannot be made.
    init?(directory path: String, logger: Logger) {
        do {
            directory = try FileDirectory(path: path)
        } catch {
            logger.error("no pages drawn ahead: \(error)")
            return nil
        }
        self.logger = logger
        index = Mutex(directory.entries().sorted { $0.modified < $1.modified }.map { ($0.name, $0.bytes) })
    }

    /// The identity of the document at `path` as it is now (nil: it cannot be read).
    static func identity(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        // FNV-1a of the path: a name of a fixed length for any path.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        return String(hash, radix: 16) + "-\(info.st_ino)-\(info.st_size)-\(modified)"
    }

    private static func name(_ key: TileKey, identity: String) -> String {
        "\(identity)-p\(key.page)-\(key.pageWidth)x\(key.pageHeight).bgra"
    }

    /// Whether `key` is a whole page in normal colours: what is kept.
    private static func isWholePage(_ key: TileKey) -> Bool {
        key.contrast == .normal && key.rect == PixelBox(x: 0, y: 0, width: key.pageWidth, height: key.pageHeight)
    }

    /// Keeps `image`, the whole page `key` of the document `identity`, dropping the least
    /// recently used pages beyond `byteLimit`. Any thread.
    func store(_ image: RasterImage, key: TileKey, identity: String) {
        guard Self.isWholePage(key), image.width == key.pageWidth, image.height == key.pageHeight else { return }
        let rowBytes = image.width * 4
        var bytes = [UInt8](repeating: 0, count: rowBytes * image.height)
        bytes.withUnsafeMutableBytes { target in
            for row in 0..<image.height {
                target.baseAddress!.advanced(by: row * rowBytes).copyMemory(
                    from: image.pixels.advanced(by: row * image.stride), byteCount: rowBytes)
            }
        }
        let name = Self.name(key, identity: identity)
        do {
            try directory.write(name, bytes)
        } catch {
            logger.error("cannot keep page \(key.page + 1) drawn ahead: \(error)")
            return
        }
        let evicted = index.withLock { index -> [String] in
            index.removeAll { $0.name == name }
            index.append((name, bytes.count))
            var total = index.reduce(0) { $0 + $1.bytes }, evicted: [String] = []
            while total > Self.byteLimit, let oldest = index.first {
                index.removeFirst()
                total -= oldest.bytes
                evicted.append(oldest.name)
            }
            return evicted
        }
        for name in evicted { directory.remove(name) }
    }

    /// Page `key` of the document `identity` as kept, or nil. Loop thread: a miss costs no
    /// system call, a hit one read of the page's pixels (a few milliseconds for a screen's page,
    /// once: the tile cache keeps it).
    func lookup(_ key: TileKey, identity: String) -> TileContent? {
        guard Self.isWholePage(key) else { return nil }
        let name = Self.name(key, identity: identity)
        let isKept = index.withLock { index in
            guard let at = index.firstIndex(where: { $0.name == name }) else { return false }
            index.append(index.remove(at: at))
            return true
        }
        guard isKept else { return nil }
        // Read straight into the image (its rows are `width * 4` bytes, as the file's are).
        let image = RasterImage(width: key.pageWidth, height: key.pageHeight)
        let buffer = UnsafeMutableRawBufferPointer(start: image.pixels, count: image.stride * image.height)
        guard directory.read(name, into: buffer) else { return nil }
        directory.touch(name)
        served.add(1, ordering: .relaxed)
        return .image(image, isDamaged: false)
    }
}
