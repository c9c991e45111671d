import LecternLinux
import LecternPolicy
import LecternWayland
import Logging

/// The operator's policy file, read at start and followed while the app runs: a valid change
/// is put in force (`PolicyInForce`) within a second (a quarter second after the writes stop);
/// an invalid one (a syntax error, an unknown key, a wrong type, a missing document) is logged
/// with its line and key, and the policy in force stays: the visitor never sees it.
final class PolicyWatcher {
    let loop: EventLoop
    /// The configuration in force, which this replaces when the file changes.
    let policy: PolicyInForce
    private let files: FileWatcher
    private let logger: Logger
    /// The configuration the app was launched with (the command line's overrides in it).
    private let launch: KioskConfiguration
    private var subscription: FileWatcher.Subscription?
    /// Policies applied since start (the first read counts).
    private(set) var generation = 0
    /// Why the last change was refused (nil once a valid one applied).
    private(set) var lastError: PolicyError?
    /// Called on the loop with the old and the new configuration when a change applies.
    var onChange: ((_ old: KioskConfiguration, _ new: KioskConfiguration) -> Void)?

    /// How long the file must stay unchanged before it is read: editors and deploy scripts
    /// write in bursts; a second is the budget from the last write to the policy in force.
    static let quietPeriod = 0.25

    /// Reads the policy file over the launch configuration `policy` holds, and follows it.
    init(policy: PolicyInForce, files: FileWatcher, loop: EventLoop, logger: Logger) {
        self.policy = policy
        launch = policy.configuration
        self.files = files
        self.loop = loop
        self.logger = logger
        guard let path = launch.policyPath else { return }
        if let configuration = read(path) {
            _ = policy.replace(with: configuration)
            generation = 1
            logger.info("policy \(path) in force")
        }
        subscription = files.follow(path, quietPeriod: Self.quietPeriod) { [unowned self] in reload(path) }
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
        guard let configuration = read(path) else {
            logger.error("the policy in force stays until \(path) is fixed")
            return
        }
        generation += 1
        let old = policy.replace(with: configuration)
        logger.info("policy \(path) changed: in force")
        onChange?(old, configuration)
    }
}

/// What a new policy changes in the running app, applied at once: the layout (the view keeps
/// its page), the chrome's mode, the idle times. Conditions on gestures read the policy when
/// they are evaluated (`InteractionPolicy`); a new document path goes through the document's
/// reload, which keeps the old one on screen until the new one shows.
struct PolicyChange {
    var old: KioskConfiguration
    var new: KioskConfiguration

    func apply(session: DocumentSession, chrome: Chrome, idle: IdleReset, shelf: Shelf) {
        let shown = session.documentPath
        // The document opened from the shelf stays open while the shelf still holds it.
        let path = new.shelfPaths.contains(shown) ? shown : new.documentPath
        shelf.setDocuments(new.shelfPaths)
        if path != shown || new.password != old.password {
            session.show(path: path, page: nil)
        } else {
            session.follow()
        }
        if let reader = session.reader {
            let layout = new.viewConfiguration(rightToLeft: reader.document.isRightToLeft)
            if layout != reader.view.configuration {
                reader.view.stopAnimations()
                reader.view.setConfiguration(layout)
            }
        }
        if new.policy.chrome != old.policy.chrome {
            chrome.isVisible = new.policy.chrome == .always
        }
        if new.idleResetSeconds != old.idleResetSeconds
            || new.policy.idleCountdownSeconds != old.policy.idleCountdownSeconds
        {
            idle.restart()
        }
        session.onChange?()
    }
}
