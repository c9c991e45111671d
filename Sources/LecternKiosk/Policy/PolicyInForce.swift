import LecternCore
import LecternPolicy

/// The configuration in force: the launch's (the command line over the defaults), then the
/// policy file's over it, replaced whole when the file changes (`PolicyWatcher`). Its one owner:
/// the parts that read the policy hold it and read it when they act, so a change reaches them
/// without being handed on. What the session shows is not here: the policy's document is only
/// the first one (`DocumentSession.documentPath`).
///
/// Reads go straight to the configuration's fields and its `KioskPolicy`'s
/// (`policy.idleResetSeconds`, `policy.chrome`).
@dynamicMemberLookup
final class PolicyInForce {
    /// The configuration in force.
    private(set) var configuration: KioskConfiguration

    init(_ configuration: KioskConfiguration) {
        self.configuration = configuration
    }

    subscript<Value>(dynamicMember field: KeyPath<KioskConfiguration, Value>) -> Value {
        configuration[keyPath: field]
    }

    subscript<Value>(dynamicMember field: KeyPath<KioskPolicy, Value>) -> Value {
        configuration.policy[keyPath: field]
    }

    /// Whether the policy lets the interaction component named `name` act.
    func enables(_ name: String) -> Bool { configuration.policy.enables(name) }

    /// The document view's configuration for a document whose PDF says `rightToLeft`.
    func viewConfiguration(rightToLeft: Bool) -> ViewConfiguration {
        configuration.viewConfiguration(rightToLeft: rightToLeft)
    }

    /// Puts `new` in force (the watcher, when the file changed) and returns what it replaces.
    func replace(with new: KioskConfiguration) -> KioskConfiguration {
        let old = configuration
        configuration = new
        return old
    }
}
