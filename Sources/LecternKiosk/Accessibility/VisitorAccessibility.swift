/// What a visitor chose to read more easily, beyond the operator's defaults: more time (the
/// countdown's "More time"), speech (`Narrator`), the contrast (`ContrastSetting`) and large
/// print with its text size (`LargePrint`); the lowered reading area joins them as it lands. While any of it is in use the kiosk is in accessibility
/// mode: the idle reset waits `accessibility.idle-factor` times as long. The idle reset puts
/// everything back to the operator's defaults (`reset()`), so the next visitor starts from them.
final class VisitorAccessibility {
    /// The contrast the pages and chrome are shown in.
    let contrast: ContrastSetting
    /// The screen: the reading area a seated visitor lowered (`Screen.isLowered`).
    let screen: Screen
    /// The page's text in one column, large.
    let largePrint: LargePrint

    init(contrast: ContrastSetting, screen: Screen, largePrint: LargePrint) {
        self.contrast = contrast
        self.screen = screen
        self.largePrint = largePrint
    }

    /// The reading area is lowered below a band at the top, for a seated visitor ("Lower").
    var isLowered: Bool {
        get { screen.isLowered }
        set { screen.isLowered = newValue }
    }

    /// The visitor asked for more time: the idle reset waits the longer time until it runs out.
    private(set) var hasMoreTime = false

    /// The visitor is having the document read aloud (`Narrator`).
    var isListening = false
    /// Called by `reset()`, for the parts that hold a setting (speech stops, its voice goes back).
    var onReset: (() -> Void)?

    /// Whether the kiosk is in accessibility mode (a setting differs from the operator's default).
    var isInUse: Bool {
        hasMoreTime || isListening || contrast.isVisitorChoice || largePrint.isVisitorChoice || isLowered
    }

    /// The visitor asked for more time.
    func grantMoreTime() {
        hasMoreTime = true
    }

    /// Back to the operator's defaults (the idle reset).
    func reset() {
        hasMoreTime = false
        contrast.reset()
        isLowered = false
        largePrint.reset()
        onReset?()
    }
}
