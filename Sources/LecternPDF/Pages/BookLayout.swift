import CMuPDF

/// The page and font size a reflowable document (EPUB, FB2, XHTML) is laid out at: MuPDF breaks
/// its text into pages of `width` x `height` points with `fontSize` points to the em.
public struct BookLayout: Sendable, Equatable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    /// Points to the em; MuPDF's own (the book's size at 100 %) is `defaultFontSize`.
    public var fontSize: Double
    /// Points at the bottom of every page where no text goes (the page's bottom margin, over the
    /// book's own): what stays clear of a control always drawn over the page.
    public var bottomMargin: Double

    /// The em MuPDF lays a book out at when nobody says otherwise: 100 % of the book's size.
    public static let defaultFontSize = 12.0
    /// A capital H's height in ems, about, in the fonts books are set in: what turns large print's
    /// capital height into a type size.
    public static let capitalHeightPerEm = 0.7

    public init(width: Double, height: Double, fontSize: Double, bottomMargin: Double = 0) {
        self.width = width
        self.height = height
        self.fontSize = fontSize
        self.bottomMargin = bottomMargin
    }

    /// Pages the size of `points` (a screen's, or a spread's page), at `percent` of the book's own
    /// font size; sizes rounded to whole points (a layout that differs by less is the same).
    public init(page points: (width: Double, height: Double), fontSizePercent percent: Int) {
        self.init(
            width: max(72, points.width.rounded()), height: max(72, points.height.rounded()),
            fontSize: (Self.defaultFontSize * Double(percent) / 100 * 10).rounded() / 10)
    }

    public var description: String {
        "\(Int(width)) × \(Int(height)) pt, \(fontSize) pt type"
            + (bottomMargin > 0 ? ", \(Int(bottomMargin)) pt clear at the bottom" : "")
    }
}

/// What a layout gave: the page count, and the page that holds what the kept page began with.
public struct LaidOutBook: Sendable, Equatable {
    public var pageCount: Int
    public var page: Int

    public init(pageCount: Int, page: Int) {
        self.pageCount = pageCount
        self.page = page
    }
}

extension PDFDocument {
    /// Whether MuPDF lays the document out at a size of the reader's choosing (EPUB, FB2, XHTML;
    /// not a PDF, an XPS, a comic or an image). Corresponding C function:
    /// `CMuPDF_document_is_reflowable`.
    public var isReflowable: Bool { CMuPDF_document_is_reflowable(handle) != 0 }

    /// Lays the document out again at `layout`, keeping page `page` (-1: none) by its place in the
    /// text, not its number: the page count changes, and what the kept page began with is on the
    /// page returned. Renders after it draw the new pages. A document that is not reflowable is
    /// left as it is. Call on a worker: it lays the whole book out (every chapter).
    /// Corresponding C function: `CMuPDF_document_layout`.
    /// Without a page to keep, only the chapters through page `through` are laid out (the rest
    /// when the page tree is read: `readPageTree`), so its first pages show at once; nil: all.
    public func layOut(
        _ layout: BookLayout, keeping page: Int = -1, through: Int? = nil
    ) throws(PDFError)
        -> LaidOutBook
    {
        var count: Int32 = 0, found: Int32 = 0
        var error = CMuPDF_error()
        guard
            layout.width.isFinite, layout.height.isFinite, layout.fontSize.isFinite, layout.width > 0,
            layout.height > 0, layout.fontSize > 0, layout.bottomMargin >= 0, layout.bottomMargin < layout.height / 2
        else {
            throw PDFError(.renderFailed, path: path, message: "cannot lay \(path) out at \(layout)")
        }
        let status = CMuPDF_document_layout(
            handle, Float(layout.width), Float(layout.height), Float(layout.fontSize), Float(layout.bottomMargin),
            Int32(clamping: page),
            Int32(clamping: through ?? Int.max), &count, &found, &error)
        guard status == 0, count > 0 else {
            throw PDFError(
                .damaged, path: path,
                message: "cannot lay \(path) out at \(layout) (MuPDF: \(status == 0 ? "no pages" : error.text))")
        }
        return LaidOutBook(pageCount: Int(count), page: Int(found))
    }
}
