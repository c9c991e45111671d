/// What the policy file says about running a kiosk in a fleet (`[state]`): whether the view
/// survives a restart.
public struct OperationsPolicy: Equatable, Sendable {
    /// Write the view state (`ViewStateStore`) and restore it at start (`state.persist`).
    public var persistsState = true

    public init() {}
}
