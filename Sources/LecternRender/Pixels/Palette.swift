import CPixman
import LecternCore

/// Every colour the frame compositor draws with besides the pages' own: the background, the
/// chrome (title bar, scrubber, thumbnail bar and grid, panels, notices, the on-screen keyboard),
/// the highlights laid over the pages. One palette per contrast (issue 30), chosen with the
/// pages' contrast so the chrome follows them; the compositor takes every colour of a frame from
/// its scene's palette. Not in it: the QR code's black on white (a phone must read it in every
/// mode) and the white ring of an annotation's handles.
public struct Palette: Equatable, Sendable {
    /// Around the pages.
    public var background: Color
    /// Under a spread, offset down and right.
    public var pageShadow: Color
    /// A page where no tile is drawn yet, and the back of a sheet the page curl lifts.
    public var paper: Color
    /// The ground of the title bar, the scrubber and the thumbnail bar and grid: solid, the same
    /// for all of them, so the chrome reads as one thing over any page.
    public var chrome: Color
    /// The ground of the outline, the search bar, the keyboard and the annotation bar.
    public var panel: Color
    /// A button or key, and the current row of the outline.
    public var button: Color
    /// A message card, the back button, a shelf cover that cannot be shown.
    public var card: Color
    public var text: Color
    /// Less important text: details, labels under thumbnails, the scrubber's track.
    public var secondaryText: Color
    /// What marks the current spread, the pressed key, the selected annotation.
    public var accent: Color
    /// Marks an error card and a cover that cannot be opened.
    public var errorAccent: Color
    /// A notice along the bottom edge.
    public var banner: Color
    /// A text field and what is typed in it.
    public var field: Color
    public var fieldText: Color
    /// A search hit and the current one, and selected text, laid over the page with
    /// `highlightOperator`.
    public var searchHit: Color
    public var currentSearchHit: Color
    public var textSelection: Color
    /// The selection handles, and a handle's knob (see-through enough that the line under it
    /// stays readable).
    public var selectionHandle: Color
    public var selectionKnob: Color
    /// A tile that failed to render.
    public var errorTile: Color

    /// The palette of `contrast`.
    public init(_ contrast: Contrast) {
        self = Self.normal
        paper = contrast.paper
        switch contrast.mode {
        case .normal:
            break
        case .invert:
            // The chrome is dark already; the background goes black around the dark pages.
            background = Color(rgb: 0x000000)
            searchHit = Color(rgb: 0x806A00)
            currentSearchHit = Color(rgb: 0x9A4A00)
            textSelection = Color(rgb: 0x1E4F8A)
            errorTile = Color(rgb: 0x5A2020)
        case .high:
            background = Color(rgb: 0x000000)
            chrome = Color(rgb: 0x000000)
            panel = Color(rgb: 0x000000)
            button = Color(rgb: 0x404040)
            card = Color(rgb: 0x404040)
            text = Color(rgb: 0xFFFFFF)
            secondaryText = Color(rgb: 0xFFFFFF)
            accent = Color(rgb: 0xFFFF00)
            errorAccent = Color(rgb: 0xFFFF00)
            banner = Color(rgb: 0x000000)
            field = Color(rgb: 0xFFFFFF)
            fieldText = Color(rgb: 0x000000)
            selectionHandle = Color(rgb: 0x0000FF)
            selectionKnob = Color(rgb: 0x0000FF, alpha: 0xA0)
        case .yellowOnBlack:
            let yellow = Color(rgb: 0xFFFF00)
            background = Color(rgb: 0x000000)
            chrome = Color(rgb: 0x000000)
            panel = Color(rgb: 0x000000)
            button = Color(rgb: 0x333333)
            card = Color(rgb: 0x333333)
            text = yellow
            secondaryText = yellow
            accent = Color(rgb: 0xFFFFFF)
            errorAccent = Color(rgb: 0xFFFFFF)
            banner = Color(rgb: 0x000000)
            field = Color(rgb: 0x333300)
            fieldText = yellow
            // Screened onto black paper: the paper turns blue, the yellow text near white.
            searchHit = Color(rgb: 0x0040C0)
            currentSearchHit = Color(rgb: 0x0060FF)
            textSelection = Color(rgb: 0x0030A0)
            selectionHandle = Color(rgb: 0xFFFFFF)
            selectionKnob = Color(rgb: 0xFFFFFF, alpha: 0xA0)
            errorTile = Color(rgb: 0x5A2020)
        }
    }

    private init() {
        background = Color(rgb: 0x2B2F36)
        pageShadow = Color(red: 0, green: 0, blue: 0, alpha: 90)
        paper = Color(rgb: 0xFFFFFF)
        chrome = Color(rgb: 0x1B1E23)
        panel = Color(rgb: 0x23272E)
        button = Color(rgb: 0x3A404A)
        card = Color(rgb: 0x3A3F48)
        text = Color(rgb: 0xF2F2F2)
        secondaryText = Color(rgb: 0xB8BEC8)
        accent = Color(rgb: 0x4FA3FF)
        errorAccent = Color(rgb: 0xE5A50A)
        banner = Color(rgb: 0x5C3D00, alpha: 235)
        field = Color(rgb: 0xF2F2F2)
        fieldText = Color(rgb: 0x1B1E23)
        // Multiplied onto the page: white paper turns yellow (light blue), black text stays black.
        searchHit = Color(rgb: 0xFFE24D)
        currentSearchHit = Color(rgb: 0xFF9A3D)
        textSelection = Color(rgb: 0x9CC8FF)
        selectionHandle = Color(rgb: 0x1E6FD9)
        selectionKnob = Color(rgb: 0x1E6FD9, alpha: 0xA0)
        errorTile = Color(rgb: 0xF4D6D6)
    }

    /// The document's own colours, and the chrome as it always was.
    public static let normal = Palette()

    /// How highlights meet the page: multiplied onto light paper (the paper takes the colour, dark
    /// text stays dark), screened onto dark paper (the paper takes the colour, light text stays
    /// light).
    var highlightOperator: pixman_op_t {
        Int(paper.red) + Int(paper.green) + Int(paper.blue) < 3 * 128 ? PIXMAN_OP_SCREEN : PIXMAN_OP_MULTIPLY
    }
}
