/// What an integrator changes about how a document is laid out, kept by the view through
/// configuration changes: a layout of their own, a grouping of pages into spreads of their own.
///
/// Two customizations are the same when their names are: a view compares configurations to
/// know whether to lay out again, and closures cannot be compared.
public struct ViewCustomization: Hashable, Sendable {
    /// Makes the layout for a configuration (the built-in layouts are a good start:
    /// `configuration.builtInLayout()`).
    public typealias MakeLayout = @Sendable (ViewConfiguration) -> any DocumentViewLayout

    /// The name that identifies it (a policy's `layout` names a registered one).
    public let name: String
    /// The layout, in place of the one the configuration describes (nil: that one).
    public var makeLayout: MakeLayout?
    /// The grouping of pages into spreads, in place of the configuration's spread mode (nil:
    /// the mode).
    public var spreading: (any SpreadingStrategy)?

    /// Creates a customization.
    public init(name: String, layout: MakeLayout? = nil, spreading: (any SpreadingStrategy)? = nil) {
        self.name = name
        self.makeLayout = layout
        self.spreading = spreading
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
