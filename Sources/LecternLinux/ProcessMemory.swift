/// The resident memory of a process, `VmRSS` in `/proc/PID/status`, in KiB (this process's
/// when `pid` is nil); nil when it cannot be read (the process is gone).
public func residentKiB(ofProcess pid: Int32? = nil) -> Int? {
    let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
    // A /proc file says it is empty: read a page, which holds the whole status.
    guard let file = try? ReadOnlyFile(path: path), let bytes = try? file.read(count: 8192, at: 0) else { return nil }
    let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
    // "VmRSS:\t   23456 kB"
    return line.flatMap { $0.dropFirst(6).split { $0 == " " || $0 == "\t" }.first }.flatMap { Int($0) }
}
