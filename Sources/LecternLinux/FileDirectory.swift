import Glibc
import SystemPackage

/// A directory of files kept by the reader (the audit's pages drawn ahead): list, read, touch,
/// remove. The descriptors it opens are closed before each call returns.
public struct FileDirectory: Sendable {
    /// A file in the directory.
    public struct Entry: Equatable, Sendable {
        public var name: String
        public var bytes: Int
        /// When it was last written or touched, in seconds since the epoch.
        public var modified: Double
    }

    public let path: String

    /// The directory at `path`, made (with its parents) if missing.
    public init(path: String) throws(SystemError) {
        self.path = path
        var made = ""
        for part in path.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o755) != 0 && errno != EEXIST { throw SystemError("mkdir \(made)") }
        }
    }

    /// The regular files in it (not those whose names start with a dot).
    public func entries() -> [Entry] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), let info = status(name), info.st_mode & S_IFMT == S_IFREG else { continue }
            entries.append(
                Entry(
                    name: name, bytes: Int(info.st_size),
                    modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
        }
        return entries
    }

    private func status(_ name: String) -> stat? {
        var info = stat()
        return stat(path + "/" + name, &info) == 0 ? info : nil
    }

    /// Fills `buffer` with the first bytes of file `name`; false when it cannot be read or is
    /// shorter.
    public func read(_ name: String, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let file = try? FileDescriptor.open(path + "/" + name, .readOnly, options: [.closeOnExec]) else {
            return false
        }
        defer { try? file.close() }
        var filled = 0
        while filled < buffer.count {
            guard let count = try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])),
                count > 0
            else { return false }
            filled += count
        }
        return true
    }

    /// Writes file `name` atomically (`writeFileAtomically`).
    public func write(_ name: String, _ bytes: [UInt8]) throws(SystemError) {
        try writeFileAtomically(bytes, to: path + "/" + name)
    }

    /// Marks file `name` used now (its modification time).
    public func touch(_ name: String) { utimensat(AT_FDCWD, path + "/" + name, nil, 0) }

    public func remove(_ name: String) { unlink(path + "/" + name) }
}
