import LecternLinux
import LecternWayland

/// Why the app could not start or had to stop, with messages an operator can act on.
public enum KioskError: Error, CustomStringConvertible {
    /// The system refused something the app needs (a descriptor, a thread).
    case system(SystemError)
    /// The compositor could not be reached, or lacks something Lectern needs.
    case wayland(WaylandError)

    public var description: String {
        switch self {
        case .system(let error): error.description
        case .wayland(let error): error.description
        }
    }
}
