import LecternLinux

/// Errors a kiosk operator can act on, raised by the Wayland layer.
public enum WaylandError: Error, CustomStringConvertible, Equatable {
    /// No compositor could be reached (wl_display_connect failed).
    case cannotConnect(display: String, errno: Int32)
    /// The compositor does not offer a global Lectern cannot work without.
    case missingGlobal(interface: String, requiredVersion: UInt32)
    /// The connection to the compositor broke (protocol error, compositor exit).
    case connectionLost(String)
    /// A system call failed.
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case let .cannotConnect(display, code):
            return "cannot connect to the Wayland compositor at '\(display)': \(errnoText(code)) "
                + "(is cage/weston running, and are WAYLAND_DISPLAY and XDG_RUNTIME_DIR set?)"
        case let .missingGlobal(interface, version):
            return "the compositor does not offer \(interface) version \(version) or later, which Lectern needs"
        case let .connectionLost(reason):
            return "lost the connection to the Wayland compositor: \(reason)"
        case let .system(call, code):
            return "\(call) failed: \(errnoText(code))"
        }
    }
}
