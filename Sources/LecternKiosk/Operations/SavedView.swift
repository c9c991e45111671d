import FoundationEssentials
import Glibc
import LecternCore
import LecternLinux
import LecternPolicy

/// Which version of a file a saved view belongs to: a file replaced (a new inode), rewritten
/// (a new size or modification time) or touched is another version, and the view saved for the
/// old one is not restored on it.
struct FileVersion: Codable, Equatable, Sendable {
    var size: Int64
    /// Modification time, nanoseconds since the epoch.
    var modified: Int64
    var inode: UInt64

    init(size: Int64, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    /// The version of the file at `path` now, or nil when it cannot be read.
    /// Corresponding C function: `stat`.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        inode = UInt64(info.st_ino)
    }
}

/// What `state.json` holds: the document on screen, its version, where the reader was in it,
/// and the policy's document when it was saved (a policy that names another document since
/// wins over the saved view).
struct SavedView: Codable, Equatable, Sendable {
    /// The file's format; a file of another format is ignored.
    var format = 1
    var document: String
    var version: FileVersion
    var view: ViewState
    var policyDocument: String

    /// Where the view is kept: `$STATE_DIRECTORY/lectern/state.json` under systemd
    /// (`StateDirectory=`; the first one if there are several), else
    /// `$XDG_STATE_HOME/lectern/state.json`, else `~/.local/state/lectern/state.json`.
    static func path(variable: (String) -> String?) -> String? {
        let base =
            variable("STATE_DIRECTORY").flatMap { $0.split(separator: ":").first.map(String.init) }
            ?? variable("XDG_STATE_HOME") ?? variable("HOME").map { $0 + "/.local/state" }
        return base.map { $0 + "/lectern/state.json" }
    }

    /// Why a saved view cannot be used.
    enum LoadError: Error, CustomStringConvertible {
        case unreadable(path: String, SystemError)
        case invalid(path: String, reason: String)

        var description: String {
            switch self {
            case .unreadable(let path, let error): "cannot read the saved view \(path): \(error)"
            case .invalid(let path, let reason): "ignoring the saved view \(path): \(reason)"
            }
        }
    }

    /// Reads the file at `path`; nil when there is none.
    static func load(from path: String) throws(LoadError) -> SavedView? {
        guard let text = PolicyFile.readFile(path) else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, SystemError("open", errno: errno))
        }
        let saved: SavedView
        if let read = SavedViewJSON.decode(Array(text.utf8)) {
            // What Lectern wrote, read without the decoder's first use (`SavedViewJSON`).
            saved = read
        } else {
            do {
                saved = try JSONDecoder().decode(SavedView.self, from: Data(text.utf8))
            } catch {
                throw .invalid(
                    path: path, reason: "not a saved view (\(text.isEmpty ? "empty" : "truncated or corrupt"))")
            }
        }
        guard saved.format == 1 else { throw .invalid(path: path, reason: "format \(saved.format) is not 1") }
        guard saved.view.pageIndex >= 0 else { throw .invalid(path: path, reason: "negative page") }
        if let viewport = saved.view.viewport {
            let values = [viewport.minX, viewport.minY, viewport.width, viewport.height]
            guard values.allSatisfy(\.isFinite), viewport.width > 0, viewport.height > 0 else {
                throw .invalid(path: path, reason: "an empty viewport")
            }
        }
        return saved
    }

    /// The file's bytes (JSON, one line).
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // A value of plain numbers and strings always encodes.
        return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }

    /// Whether this view may be restored at a start whose policy names `policyDocument`: the
    /// policy still names the document it named then, and the shown document is the very same
    /// version it was.
    func restores(policyDocument: String) -> Bool {
        self.policyDocument == policyDocument && FileVersion(path: document) == version
    }
}
