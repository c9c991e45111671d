import Glibc

/// App-level failures, with messages an operator can act on.
public enum KioskError: Error, CustomStringConvertible {
    case system(String, errno: Int32)

    public var description: String {
        switch self {
        case let .system(call, code):
            return "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
