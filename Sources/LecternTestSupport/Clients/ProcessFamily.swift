import Foundation

/// A process and its children (the reader and its render worker), read from /proc.
public enum ProcessFamily {
    /// The pids whose parent is `pid`, but for those started with the argument `excluded`.
    public static func children(of pid: Int32, excluding excluded: String? = nil) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { child in
            if let excluded, let arguments = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/cmdline")),
                arguments.split(separator: 0).contains(Data(excluded.utf8))
            {
                return false
            }
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return false }
            // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
    }

    /// `pid` and its children.
    public static func members(_ pid: Int32) -> [Int32] { [pid] + children(of: pid) }

    /// A `/proc/PID/status` field in KiB (`VmRSS`, `VmHWM`), nil when the process is gone.
    public static func statusKiB(_ field: String, of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first }.flatMap {
            Int($0)
        }
    }

    /// The sum of `field` over `pid` and its children (but those started with `excluded`; nil
    /// when `pid` is gone).
    public static func totalKiB(_ field: String, of pid: Int32, excluding excluded: String? = nil) -> Int? {
        guard let own = statusKiB(field, of: pid) else { return nil }
        return children(of: pid, excluding: excluded).reduce(own) { $0 + (statusKiB(field, of: $1) ?? 0) }
    }

    /// Open descriptors of `pid` and its children (but those started with `excluded`; nil when
    /// `pid` is gone).
    public static func openDescriptors(of pid: Int32, excluding excluded: String? = nil) -> Int? {
        func count(_ pid: Int32) -> Int? {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
        }
        guard let own = count(pid) else { return nil }
        return children(of: pid, excluding: excluded).reduce(own) { $0 + (count($1) ?? 0) }
    }
}
