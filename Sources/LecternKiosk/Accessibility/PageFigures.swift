import LecternCore
import LecternDocuments
import LecternPDF

/// The figures of a tagged page for a visitor who cannot see them: what is said of each
/// ("Figure: a map of the ground floor."), and where it goes among the page's paragraphs. Only
/// the structure tree's Figure elements are figures: an untagged image says nothing. And the
/// page's text as it is read, with /ActualText in place of what it replaces (`spokenCharacters`).
enum PageFigures {
    /// What is said of a figure without /Alt or /ActualText.
    static var noDescription: String { tr("Figure with no description.") }

    /// What is said of `figure`: its /Alt, else its /ActualText, else that it has no description.
    static func label(of figure: TaggedElement) -> String {
        let said = [figure.alt, figure.actualText].compactMap { $0?.trimmingWhitespace }.first { !$0.isEmpty }
        guard let said else { return noDescription }
        return said.last.map { ".!?".contains($0) } == true ? tr("Figure: %s", said) : tr("Figure: %s.", said)
    }

    /// `page`'s items as `FocusOrder.items` orders them, with the page's tagged figures among the
    /// `extras` (each where its box falls in the reading order); a figure whose box is not known
    /// comes after the page's other items.
    static func items(
        onPage page: Int, text: PageText, blocks: [ReadingBlock], extras: [FocusItem], toDisplay: AffineTransform
    ) -> [FocusItem] {
        let figures = text.tagged.filter { $0.kind == .figure }
        let placed = figures.compactMap { figure in
            figure.box.map { FocusItem(kind: .figure, label: label(of: figure), rect: $0) }
        }
        let after = figures.filter { $0.box == nil }.map {
            FocusItem(kind: .figure, label: label(of: $0), page: page, rect: .zero)
        }
        return FocusOrder.items(onPage: page, blocks: blocks, extras: extras + placed, toDisplay: toDisplay) + after
    }
}

extension PageText {
    /// The characters as they are read aloud: the artifacts' (running heads, page numbers) and
    /// the text inside figures that have a description (their label says it) left out, and those
    /// of the page's other /ActualText elements replaced by the element's text.
    var spokenCharacters: PageCharacters {
        let unread = tagged.filter { element in
            element.kind == .artifact
                || (element.kind == .figure && PageFigures.label(of: element) != PageFigures.noDescription)
        }
        return characters.replacing(
            unread.map { ActualText(text: "", glyphs: $0.glyphs) }
                + tagged.compactMap { element in
                    guard element.kind != .figure, let text = element.actualText, !element.glyphs.isEmpty else {
                        return nil
                    }
                    return ActualText(text: text, glyphs: element.glyphs)
                })
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
