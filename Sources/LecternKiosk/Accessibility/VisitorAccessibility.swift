/// What a visitor chose to read more easily, beyond the operator's defaults: for now more time
/// (the countdown's "More time"); contrast, large print, speech, the lowered reading area and
/// the text size join it as they land. While any of it is in use the kiosk is in accessibility
/// mode: the idle reset waits `accessibility.idle-factor` times as long. The idle reset puts
/// everything back to the operator's defaults (`reset()`), so the next visitor starts from them.
final class VisitorAccessibility {
    /// The visitor asked for more time: the idle reset waits the longer time until it runs out.
    private(set) var hasMoreTime = false

    /// Whether the kiosk is in accessibility mode (a setting differs from the operator's default).
    var isInUse: Bool { hasMoreTime }

    /// The visitor asked for more time.
    func grantMoreTime() {
        hasMoreTime = true
    }

    /// Back to the operator's defaults (the idle reset).
    func reset() {
        hasMoreTime = false
    }
}
