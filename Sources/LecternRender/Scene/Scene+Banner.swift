import LecternCore

extension Scene {
    /// A banner with a button (`bannerAction`) is at least this high, for a button of
    /// `bannerButtonHeight`: large enough for a finger (about 15 mm on a 24-inch 1080p screen).
    public static let actionBannerHeight = 72
    public static let bannerButtonHeight = 56
    public static let bannerButtonWidth = 220

    /// The banner along the bottom edge, above the chrome's bar and the overlays, for text
    /// `textHeight` high.
    public func bannerBox(textHeight: Int) -> PixelBox {
        let height = max(textHeight + 16, bannerAction == nil ? 0 : bannerHeightWithAction)
        let bottom =
            self.height
            - max(
                metrics.reachBottom + (chrome == nil ? 0 : metrics.barHeight),
                overlays.bottomInset(width: width, height: self.height, metrics: metrics))
        return PixelBox(x: 0, y: bottom - height, width: width, height: height)
    }

    /// The banner's button at its right end (its left end in a right-to-left language), when it
    /// has one.
    public func bannerButtonBox(textHeight: Int) -> PixelBox? {
        guard bannerAction != nil else { return nil }
        let banner = bannerBox(textHeight: textHeight)
        let width = metrics.scaled(Scene.bannerButtonWidth), height = bannerHeightWithAction - 16
        return metrics.placed(
            PixelBox(
                x: banner.maxX - 16 - width, y: banner.y + (banner.height - height) / 2, width: width, height: height))
    }

    /// A banner with a button is this high on this screen: `actionBannerHeight` for a button of
    /// `bannerButtonHeight`, or a bar and 8 more.
    var bannerHeightWithAction: Int { max(Scene.actionBannerHeight, metrics.barHeight + 8) }
}
