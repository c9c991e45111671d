import LecternCore

/// Where the reader is, in words: "Page 4 of 320", "iv (4 of 320)" where the document's page
/// labels differ from the page numbers, "12–13 of 320" for a two-page spread.
enum PagePosition {
    /// The text for the spread of `pages` (reading order) in a document of `count` pages.
    /// - Parameter label: the page label of a page (0-based), if the document has one.
    static func text(pages: Range<Int>, count: Int, label: (Int) -> String?) -> String {
        guard let first = pages.first else { return "" }
        let last = pages.last ?? first
        // A label that says what the number says adds nothing.
        let labels = [first, last].map { page in label(page).flatMap { $0 == "\(page + 1)" ? nil : $0 } }
        guard labels.contains(where: { $0 != nil }) else {
            return first == last ? tr("Page %s of %s", first + 1, count) : tr("%s–%s of %s", first + 1, last + 1, count)
        }
        let language = Translation.language
        let named = [first, last].enumerated().map {
            language.label(labels[$0.offset] ?? label($0.element) ?? "\($0.element + 1)")
        }
        return first == last
            ? tr("%s (%s of %s)", named[0], first + 1, count)
            : tr("%s–%s (%s–%s of %s)", named[0], named[1], first + 1, last + 1, count)
    }

    /// The page a visitor means by `entry`, typed into "Go to page": a page label first ("iv",
    /// "A-7"), else a page number (past the end: the last page). Nil when it is neither.
    static func page(forEntry entry: String, count: Int, pageForLabel: (String) -> Int?) -> Int? {
        if let page = pageForLabel(entry), page < count { return page }
        guard !entry.isEmpty, entry.allSatisfy(\.isASCII), let number = Int(entry), number >= 1 else { return nil }
        return min(number, count) - 1
    }
}
