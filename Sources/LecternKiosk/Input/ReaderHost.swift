import LecternCore
import LecternRender
import Logging

/// What the interaction controller acts on: the open document's view, its text and links,
/// and the chrome.
final class ReaderHost: InteractionHost {
    let reader: Reader
    let chrome: Chrome
    let navigation: Navigation
    let annotationState: Annotations
    let selectedText: SelectedText
    private let logger: Logger

    init(
        reader: Reader, chrome: Chrome, navigation: Navigation, annotations: Annotations,
        selectedText: SelectedText, logger: Logger
    ) {
        self.reader = reader
        self.chrome = chrome
        self.navigation = navigation
        annotationState = annotations
        self.selectedText = selectedText
        self.logger = logger
    }

    var documentView: DocumentView {
        get { reader.view }
        set { reader.view = newValue }
    }

    var isUserInterfaceVisible: Bool {
        get { chrome.isVisible }
        set { chrome.isVisible = newValue }
    }

    var isChromeTrackingInput: Bool { chrome.isScrubbing || navigation.isTracking || navigation.isAnimating }

    func textBlocks(onPage page: Int) -> [Rect] {
        // Read on a worker while the page was on screen; none yet → smart zoom zooms about the finger.
        reader.pageText[page]?.blocks ?? []
    }

    func pageCharacters(onPage page: Int) -> PageCharacters? {
        // Read with the blocks on a worker while the page was on screen; none yet → no selection there.
        reader.pageText[page]?.characters
    }

    func textSelectionDidChange(_ selection: TextSelection?, isSettled: Bool) {
        selectedText.changed(selection, isSettled: isSettled)
    }

    func link(at point: Point, onPage page: Int) -> LinkTarget? {
        reader.pageText[page]?.links.first { $0.rect.contains(point) }?.target
    }

    func annotations(onPage page: Int) -> [AnnotationInfo] {
        // Read on a worker with the page's text; none yet → a tap there finds no annotation.
        reader.pageText[page]?.annotations ?? []
    }

    var annotationSelection: AnnotationSelection? {
        get { annotationState.selection }
        set { annotationState.selection = newValue }
    }

    func edit(_ annotation: AnnotationInfo, onPage page: Int) {
        annotationState.edit(annotation, onPage: page)
    }

    func setRect(_ rect: Rect, of annotation: AnnotationInfo, onPage page: Int) {
        annotationState.setRect(rect, of: annotation, onPage: page)
    }

    func follow(_ link: LinkTarget) {
        switch link {
        case .page(let page):
            logger.info("link to page \(page + 1)")
            try? reader.view.goToPage(page, animated: true, at: chrome.loop.clock.now)
        case .uri(let address):
            // A kiosk has no browser: say where the link goes, with a QR code to take it along
            // on a phone (the policy's links rule let this link through: `InteractionPolicy`).
            logger.info("link to \(address) (not opened on a kiosk: shown with a QR code)")
            chrome.showNotice(
                tr("This link leads to %s, which cannot be opened here.", address),
                seconds: Double(chrome.policy.qrSeconds),
                qrCode: QRCode(address))
        }
    }
}
