/// What the policy file says about running a kiosk in a fleet (`[state]`, `[control]`,
/// `[metrics]`): whether the view survives a restart, where the control socket listens and who
/// may use it, what it may open and where it may write screenshots.
public struct OperationsPolicy: Equatable, Sendable {
    /// Where the control socket listens.
    public enum Socket: Equatable, Sendable {
        /// `$XDG_RUNTIME_DIR/lectern.sock` (none without `XDG_RUNTIME_DIR`).
        case standard
        /// No control socket.
        case off
        case path(String)
    }

    /// Write the view state (`ViewStateStore`) and restore it at start.
    public var persistsState = true
    public var controlSocket = Socket.standard
    /// A group whose members may use the control socket besides the kiosk's own user and root
    /// (the socket is then mode 0660 and owned by that group).
    public var controlGroup: String?
    /// A directory whose PDFs `open` may show (besides the policy's document).
    public var openDirectory: String?
    /// The directory `screenshot` writes into (nil: the control socket's directory).
    public var screenshotDirectory: String?
    /// The Prometheus text file the metrics are written to every 15 s (`KioskMetrics`; nil: none).
    public var metricsTextfile: String?

    public init() {}
}
