import LecternCore
import Logging

/// The contrast the reader shows in (issue 30): the operator's default (`accessibility.contrast`,
/// `accessibility.recolor-images`, `--contrast`) until a visitor chooses another (the
/// accessibility panel, `KioskApp.setContrast`), and again after the idle reset.
/// `Screen.contrast` carries it to the parts that draw: the reader's tiles, thumbnails and
/// previews are rendered in it (it is part of each tile's key), the presenter mirror follows the
/// reader, and the frame's palette (`Palette`) is chosen by it.
final class ContrastSetting {
    private let screen: Screen
    private let frame: FrameRequest
    private let policy: PolicyInForce
    private let logger: Logger

    init(screen: Screen, frame: FrameRequest, policy: PolicyInForce, logger: Logger) {
        self.screen = screen
        self.frame = frame
        self.policy = policy
        self.logger = logger
        screen.contrast = policy.defaultContrast
        // A new default applies at once unless a visitor chose another contrast meanwhile.
        policy.observe { [unowned self] old, new in
            if new.defaultContrast != old.defaultContrast, contrast == old.defaultContrast {
                choose(new.defaultContrast)
            }
        }
    }

    /// The contrast in force.
    var contrast: Contrast { screen.contrast }

    /// Whether a visitor chose a contrast other than the operator's default (accessibility mode).
    /// (Not `policy.defaultContrast`: a key path to a computed property copies the whole
    /// configuration, and the idle reset asks at every input event.)
    var isVisitorChoice: Bool { screen.contrast != policy.configuration.defaultContrast }

    /// Shows the pages and the chrome in `contrast` from the next frame: its tiles are rendered
    /// (those of a contrast shown before are found in the cache while they last).
    func choose(_ contrast: Contrast) {
        guard contrast != screen.contrast else { return }
        logger.info("contrast: \(contrast)")
        screen.contrast = contrast
        frame.request()
    }

    /// Back to the operator's default (the idle reset).
    func reset() {
        choose(policy.defaultContrast)
    }
}

extension KioskApp {
    /// The contrast the pages and the chrome are shown in (`.normal` before `start()`).
    public var contrast: Contrast { parts?.contrast.contrast ?? .normal }

    /// Shows the pages and the chrome in `contrast` (the accessibility panel's choice); the idle
    /// reset goes back to the operator's default.
    public func setContrast(_ contrast: Contrast) {
        parts?.contrast.choose(contrast)
    }
}
