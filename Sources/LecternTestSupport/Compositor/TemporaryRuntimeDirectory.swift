import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private `XDG_RUNTIME_DIR` (mode 0700) for one test compositor; removed with everything in it
/// by `remove()`.
public final class TemporaryRuntimeDirectory {
    /// Absolute path of the directory.
    public let path: String
    private var isRemoved = false

    /// Creates a fresh directory under `$TMPDIR` (or `/tmp`). Corresponding C function: `mkdtemp`
    /// (which creates it with mode 0700, as `XDG_RUNTIME_DIR` requires).
    public init(prefix: String = "lectern-tc") throws {
        // Keep the path short: a Unix socket path must fit in 108 bytes.
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard created != nil else {
            throw TestCompositorError.system(call: "mkdtemp", errno: errno)
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard chmod(path, 0o700) == 0 else {
            let error = errno
            rmdir(path)
            throw TestCompositorError.system(call: "chmod", errno: error)
        }
    }

    /// Removes the directory and everything in it. Idempotent.
    public func remove() {
        guard !isRemoved else { return }
        isRemoved = true
        try? FileManager.default.removeItem(atPath: path)
    }

    deinit { remove() }
}
