import CLecternLinux
import Glibc
import Synchronization
import SystemPackage

/// Replaces the file at `path` with `bytes` so that a reader, or a power cut, finds either the
/// old contents or the new ones whole: write a temporary file beside it, fsync, rename it over
/// `path`, fsync the directory.
/// Corresponding C function: `CLecternLinux_write_file_atomically`.
public func writeFileAtomically(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644) throws(SystemError) {
    let status = bytes.withUnsafeBytes { raw in
        CLecternLinux_write_file_atomically(path, raw.baseAddress, raw.count, mode)
    }
    guard status == 0 else { throw SystemError("writing \(path)") }
}

/// Replaces the file at `path` with the one `write` makes at a temporary path beside it, so that
/// a reader, or a power cut, finds either the old file or the new one whole: the temporary file
/// is created (exclusively, `mode`), written by `write`, fsynced, renamed over `path`, and the
/// directory fsynced. On any failure the temporary file is removed and `path` is left as it was.
/// `failure` turns a failed system call into the caller's error type.
public func replaceFileAtomically<E: Error>(
    at path: String, mode: UInt32 = 0o644, failure: (SystemError) -> E,
    write: (_ temporaryPath: String) throws(E) -> Void
) throws(E) {
    let temporary = "\(path).tmp-\(getpid())-\(temporaryFileCounter.add(1, ordering: .relaxed).newValue)"
    let created: FileDescriptor
    do {
        created = try FileDescriptor.open(
            temporary, .writeOnly, options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
            permissions: FilePermissions(rawValue: CModeT(mode)))
    } catch {
        throw failure(SystemError("creating \(temporary)", errno: code(of: error)))
    }
    // `mode` exactly, whatever the umask.
    let chmodFailed = fchmod(created.rawValue, mode_t(mode)) != 0 ? SystemError("fchmod \(temporary)") : nil
    try? created.close()
    var committed = false
    defer { if !committed { unlink(temporary) } }
    if let chmodFailed { throw failure(chmodFailed) }
    try write(temporary)
    let written: FileDescriptor
    do {
        written = try FileDescriptor.open(temporary, .readOnly, options: [.closeOnExec])
    } catch {
        throw failure(SystemError("opening \(temporary)", errno: code(of: error)))
    }
    let synced = fsync(written.rawValue) == 0 ? nil : SystemError("fsync \(temporary)")
    try? written.close()
    if let synced { throw failure(synced) }
    guard rename(temporary, path) == 0 else { throw failure(SystemError("renaming \(temporary) to \(path)")) }
    committed = true
    // The rename itself survives a power cut only once the directory is on disk.
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    if let fd = try? FileDescriptor.open(directory, .readOnly, options: [.directory, .closeOnExec]) {
        _ = fsync(fd.rawValue)
        try? fd.close()
    }
}

/// The errno of a swift-system error (EIO for anything else).
private func code(of error: any Error) -> Int32 { (error as? Errno)?.rawValue ?? EIO }

/// Makes the temporary names of concurrent replacements in one process differ.
private let temporaryFileCounter = Atomic<Int>(0)
