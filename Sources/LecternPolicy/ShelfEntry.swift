/// One document on the shelf as `[[shelf]]` names it: a version per language (the chrome's
/// language picks one), and a title of the operator's over the document's own.
///
/// ```toml
/// [[shelf]]
/// title = "The harbour"
/// documents = { en = "harbour.pdf", de = "hafen.pdf" }
/// [[shelf]]
/// document = "lighthouse.pdf"          # one version for every language
/// ```
public struct ShelfEntry: Equatable, Sendable {
    /// The document's versions by language code; "" is the one for every language.
    public var versions: [String: String]
    /// What the shelf writes under the cover (nil: the document's /Title, else its file name).
    public var title: String?

    public init(versions: [String: String], title: String? = nil) {
        self.versions = versions
        self.title = title
    }

    /// The version for `language`, else the one for every language, else `fallback`'s, else
    /// the first by code.
    public func path(in language: String, fallback: String) -> String {
        versions[language] ?? versions[""] ?? versions[fallback] ?? versions.min { $0.key < $1.key }?.value ?? ""
    }
}

extension KioskConfiguration {
    /// The shelf's documents in `language` (`[[shelf]]`: each entry's version in it), or the
    /// shelf as `documents` names it.
    public func shelfPaths(in language: String) -> [String] {
        guard !shelfEntries.isEmpty else { return shelfPaths }
        let paths = shelfEntries.map { $0.path(in: language, fallback: self.language) }
        return paths.count > 1 ? paths : []
    }

    /// The `[[shelf]]` entry that has `path` as one of its versions, if any.
    public func shelfEntry(holding path: String) -> ShelfEntry? {
        shelfEntries.first { $0.versions.values.contains(path) }
    }

    /// The versions of the shelf entry that holds `path` (nil: no `[[shelf]]` entry does).
    public func versions(of path: String) -> [String: String]? { shelfEntry(holding: path)?.versions }

    /// The operator's title for the document at `path` (`[[shelf]] title`), if any.
    public func shelfTitle(of path: String) -> String? { shelfEntry(holding: path)?.title }
}
