#if canImport(Glibc)
    import Glibc
#endif

/// Why a test compositor or a Lectern process could not be set up, or was not clean at teardown.
public enum TestCompositorError: Error, CustomStringConvertible, Equatable {
    /// A system call failed.
    case system(call: String, errno: Int32)
    /// A libwayland-server call failed.
    case wayland(call: String)
    /// `teardown()` found objects or listeners that were never released.
    case notCleanAtTeardown([String])
    /// The `lectern` executable was not found; the message says where we looked.
    case executableNotFound(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .wayland(let call): "\(call) failed"
        case .notCleanAtTeardown(let leaks): "test compositor not clean at teardown: \(leaks.joined(separator: "; "))"
        case .executableNotFound(let message): message
        }
    }
}
