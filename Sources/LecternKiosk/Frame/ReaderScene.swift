import LecternCore
import LecternPDF
import LecternRender

/// The frame to show, as a pure function of what the reader is doing: nothing here reads a
/// clock, touches the cache or asks for tiles (planning did that).
struct ReaderScene {
    /// Where the document is.
    enum Document {
        /// Still opening; `isLate` once it took long enough to say so.
        case opening(title: String, isLate: Bool)
        /// Open: the tiles planned for this frame.
        case open(TilePlanner.Plan, wasRepaired: Bool)
        /// It cannot be shown, and why (the card says `onScreen`).
        case failed(DocumentFailure)
    }

    /// The frame's size in surface units, and its buffer's pixels per unit.
    var width: Int
    var height: Int
    var scale = DisplayScale.one
    /// The chrome's sizes on this screen.
    var metrics = ChromeMetrics.standard
    var document: Document
    var chrome: Scene.Chrome?
    var notice: String?
    /// The notice's button ("More time").
    var noticeAction: String?
    /// The accessibility button and its panel.
    var accessibility: Scene.Accessibility?
    /// The page's text in large print, instead of the page (`LargePrint`).
    var largePrint: Scene.LargePrint?
    var qrCode: QRCode?
    /// The thumbnail bar and grid, the outline, search (`Navigation`).
    var overlays = Scene.Overlays()
    /// The selected text's highlight, handles and QR-code button (`SelectedText`).
    var textSelection: Scene.TextSelection?
    /// A page was on screen before, or the first one is late (300 ms): frames show whatever
    /// they have. Until then the first frame waits for the sharp page.
    var showsPartialPages: Bool
    /// The kept first frame is on screen and not late yet: it gives way to a frame whose thumbnail
    /// bar, if shown, has every thumbnail drawn, as the kept one had (`isHomeView`).
    var waitsForThumbnails = false

    /// The frame, or nil while there is nothing worth a frame yet.
    func scene() -> Scene? {
        var scene = Scene(width: width, height: height, scale: scale)
        scene.metrics = metrics
        switch document {
        case let .opening(title, isLate):
            guard isLate else { return nil }
            scene.message = .init(title: tr("Opening…"), detail: title, isError: false)
        case let .failed(failure):
            scene.message = .init(title: tr("This document cannot be shown"), detail: failure.onScreen, isError: true)
        case let .open(plan, wasRepaired):
            let isWhole = plan.isSharp && !(waitsForThumbnails && overlays.thumbnailBar?.isComplete == false)
            guard isWhole || showsPartialPages || largePrint != nil else { return nil }
            scene.shadows = plan.shadows
            scene.pages = plan.pages
            scene.curl = plan.curl
            scene.chrome = chrome
            scene.qrCode = qrCode
            scene.overlays = overlays
            scene.textSelection = textSelection
            scene.accessibility = accessibility
            scene.largePrint = largePrint
            if let notice {
                scene.banner = notice
                scene.bannerAction = noticeAction
            } else if wasRepaired {
                scene.banner = tr("This file is damaged: showing what could be recovered.")
            } else if plan.showsUndrawable {
                scene.banner = tr("This page could not be drawn.")
            } else if plan.showsFailure {
                scene.banner = tr("Part of this page cannot be shown: it is damaged.")
            } else if plan.showsDamage {
                scene.banner = tr("This page is damaged: parts of it may be missing.")
            }
        }
        return scene
    }
}

extension DocumentFailure {
    /// What the screen tells a visitor: the file's name and a plain sentence. The full path
    /// and MuPDF's own words ("invalid key in dict") are for the log (`description`).
    var onScreen: String {
        guard case .document(let error) = self else { return tr("Something went wrong on this kiosk.") }
        let name = fileName(error.path)
        let reason =
            switch error.kind {
            case .fileNotFound: tr("the file is missing.")
            case .unreadable: tr("the file cannot be read.")
            case .notAPDF: tr("it is not a PDF document.")
            case .passwordRequired, .wrongPassword: tr("it is protected by a password.")
            case .noPages: tr("it has no pages.")
            default: tr("the file is damaged.")
            }
        return name.isEmpty ? tr("The document cannot be shown: %s", reason) : tr("%s: %s", name, reason)
    }
}
