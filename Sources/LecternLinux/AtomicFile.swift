import CLecternLinux

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
