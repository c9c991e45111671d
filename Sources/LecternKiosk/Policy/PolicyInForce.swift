import LecternCore
import LecternPolicy
import Logging

/// The configuration in force, and its one owner: the launch's (the command line over the
/// defaults), then the operator's policy file over it, read at start and followed while the app
/// runs. A valid change is in force within a second (a quarter second after the writes stop);
/// an invalid one (a syntax error, an unknown key, a wrong type, a missing document) is logged
/// with its line and key, and the policy in force stays: the visitor never sees it.
///
/// The parts that read the policy hold this and read it when they act
/// (`policy.idleResetSeconds`, `policy.chrome`: the configuration's members, among them every
/// setting `PolicySettings` declares), so a change reaches them without being handed on; a part
/// for which a change must act at once (a new layout, the idle times) says so with
/// `observe(_:)`. What the session shows is not here: the policy's document is only the first
/// one (the session holds its `documentPath`).
@dynamicMemberLookup
final class PolicyInForce {
    /// The configuration in force.
    private(set) var configuration: KioskConfiguration
    private let files: FileWatcher
    private let logger: Logger
    /// The configuration the app was launched with (the command line's overrides in it).
    private let launch: KioskConfiguration
    private var subscription: FileWatcher.Subscription?
    /// Called on the loop with the old and the new configuration when a change applies, in the
    /// order the parts were built.
    private var observers: [(_ old: KioskConfiguration, _ new: KioskConfiguration) -> Void] = []
    /// Policies applied since start (the first read counts).
    private(set) var generation = 0
    /// Why the last change was refused (nil once a valid one applied).
    private(set) var lastError: PolicyError?
    /// The configuration the file gives, before the show of the opening hours.
    private var fromFile: KioskConfiguration
    /// What the opening hours' range shows (`OpeningSchedule`): its documents and attract loop
    /// over the policy's (nil: the policy's own).
    private(set) var show: HoursShow?

    /// The layouts and spreadings an integrator registered, by name (`layout.custom` picks one).
    private let customizations: [String: ViewCustomization]

    /// How long the file must stay unchanged before it is read: editors and deploy scripts
    /// write in bursts; a second is the budget from the last write to the policy in force.
    static let quietPeriod = 0.25

    /// Puts `launch` in force, then the policy file it names over it (if it names one and the
    /// file is valid), and follows the file.
    init(
        launch: KioskConfiguration, files: FileWatcher, logger: Logger,
        customizations: [String: ViewCustomization] = [:]
    ) {
        self.launch = launch
        self.customizations = customizations
        self.files = files
        self.logger = logger
        configuration = launch
        fromFile = launch
        guard let path = launch.policyPath else { return }
        if let configuration = read(path) {
            self.configuration = configuration
            fromFile = configuration
            generation = 1
            logger.info("policy \(path) in force")
        }
        checkCustomLayout()
        subscription = files.follow(path, quietPeriod: Self.quietPeriod) { [unowned self] in reload(path) }
    }

    subscript<Value>(dynamicMember field: KeyPath<KioskConfiguration, Value>) -> Value {
        configuration[keyPath: field]
    }

    /// A setting `PolicySettings` declares (`policy.idleResetSeconds`), read through its own key
    /// path. Through `KioskConfiguration`'s it would be a key path with a key path argument,
    /// which Swift builds anew at every read (its types found by demangling): 5–10 µs, read on
    /// every touch and frame.
    subscript<Value>(dynamicMember setting: KeyPath<PolicySettings, PolicySetting<Value>>) -> Value {
        configuration[dynamicMember: setting]
    }

    /// Whether the policy lets the interaction component named `name` act.
    func enables(_ name: String) -> Bool { configuration.enables(name) }

    /// The document view's configuration for a document whose PDF says `rightToLeft`, with the
    /// integrator's layout the policy names.
    func viewConfiguration(rightToLeft: Bool) -> ViewConfiguration {
        viewConfiguration(of: configuration, rightToLeft: rightToLeft)
    }

    /// The document view's configuration `configuration` describes (one in force now, or the one
    /// a change replaced), with the integrator's layout it names.
    func viewConfiguration(of configuration: KioskConfiguration, rightToLeft: Bool) -> ViewConfiguration {
        var view = configuration.viewConfiguration(rightToLeft: rightToLeft)
        if let name = configuration.customLayout { view.customization = customizations[name] }
        return view
    }

    /// Says when the policy names a layout nobody registered: the built-in one is used.
    private func checkCustomLayout() {
        guard let name = configuration.customLayout, customizations[name] == nil else { return }
        let known = customizations.keys.sorted().joined(separator: ", ")
        logger.warning(
            "layout.custom names \"\(name)\", which this program does not have (\(known.isEmpty ? "none" : known)): the built-in layout is used"
        )
    }

    /// Calls `handler` with the old and the new configuration each time a change applies.
    func observe(_ handler: @escaping (_ old: KioskConfiguration, _ new: KioskConfiguration) -> Void) {
        observers.append(handler)
    }

    /// Reads the file again now (the control socket's `reload`); false without a policy file.
    @discardableResult
    func reloadNow() -> Bool {
        guard let path = launch.policyPath else { return false }
        reload(path)
        return true
    }

    /// Stops following the file (shutdown).
    func close() {
        subscription?.cancel()
        subscription = nil
        observers = []
    }

    private func read(_ path: String) -> KioskConfiguration? {
        do {
            let configuration = try PolicyFile.load(path: path, over: launch)
            lastError = nil
            return configuration
        } catch {
            lastError = error
            for problem in error.problems { logger.error("policy not applied: \(problem)") }
            return nil
        }
    }

    private func reload(_ path: String) {
        guard let new = read(path) else {
            logger.error("the policy in force stays until \(path) is fixed")
            return
        }
        generation += 1
        fromFile = new
        logger.info("policy \(path) changed: in force")
        apply()
    }

    /// Puts `show` in force over the file's configuration (the opening hours' range changed).
    func put(show: HoursShow?) {
        guard show != self.show else { return }
        self.show = show
        apply()
    }

    /// The file's configuration with the show, in force; the observers are told.
    private func apply() {
        let old = configuration
        configuration = fromFile.showing(show)
        if configuration.customLayout != old.customLayout { checkCustomLayout() }
        for observer in observers { observer(old, configuration) }
    }
}
