import LecternCore

extension TilePlanner {
    /// Plans a page-curl frame: both spreads where they rest, each shown in part, so the tiles
    /// of both are pinned and rendered as the screen's (the spread beneath was prefetched as
    /// the neighbour before the turn began, so it is usually cached already).
    /// - Parameters:
    ///   - curl: the document view's `pageCurl()`.
    ///   - prefetch, viewport, thumbnails: as for `plan(spreads:prefetch:viewport:zoomChanging:thumbnails:)`.
    public func plan(
        curl: PageCurl, prefetch: [Placement], viewport: PixelBox, thumbnails: [Thumbnail] = [],
        scale: DisplayScale = .one
    ) -> Plan {
        var plan = self.plan(
            spreads: [curl.top, curl.under], prefetch: prefetch, viewport: viewport, zoomChanging: false,
            thumbnails: thumbnails, scale: scale)
        let lifting = Set(curl.top.pages.map(\.page))
        let under = plan.pages.filter { !lifting.contains($0.page) }
        let shadow = under.first.map { first in
            Scene.Shadow(
                frame: under.dropFirst().reduce(first.frame) { $0.union($1.frame) },
                clip: Self.pixels(scale.pixels(curl.under.clipRect)).intersection(viewport))
        }
        plan.curl = Scene.Curl(
            top: plan.pages.filter { lifting.contains($0.page) }, under: under, underShadow: shadow,
            progress: curl.progress, liftsFromLeft: curl.liftsFromLeft, leaf: curl.leaf)
        return plan
    }
}
