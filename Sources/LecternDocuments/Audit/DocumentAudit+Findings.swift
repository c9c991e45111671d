import LecternCore

extension DocumentAudit {
    /// A line for each class of finding (slow pages, pages without text, the smallest text,
    /// substituted fonts, annotations and fields, figures without /Alt, untagged, no /Lang, a
    /// repaired xref, encryption, a page count that lies), for the log and `lectern audit`.
    public var findings: [String] {
        if let error { return ["cannot be audited: \(error)"] }
        var lines: [String] = []
        func listing(_ list: [Int]) -> String {
            let shown = list.prefix(12).map(String.init).joined(separator: ", ")
            return (list.count == 1 ? "page " : "pages ") + shown + (list.count > 12 ? ", … (\(list.count))" : "")
        }
        let slow = pages.filter(\.isSlow)
        if !slow.isEmpty {
            let times = slow.prefix(12).map { page in
                page.renderMilliseconds.map { "\(Int($0.rounded())) ms" } ?? "not drawn"
            }
            lines.append(
                "slow pages (over \(Int(budgetMilliseconds)) ms at \(screen.width)x\(screen.height)): "
                    + "\(listing(slow.map(\.page))) (\(times.joined(separator: ", ")))")
        }
        let failed = pages.filter { !$0.isSlow && $0.renderFailure != nil }
        if !failed.isEmpty {
            lines.append("not drawn: \(listing(failed.map(\.page))) (\(failed[0].renderFailure ?? ""))")
        }
        let unreadable = pages.filter { $0.error != nil }
        if !unreadable.isEmpty {
            lines.append("unreadable: \(listing(unreadable.map(\.page))) (\(unreadable[0].error ?? ""))")
        }
        if !pagesWithoutText.isEmpty { lines.append("without text (scans?): \(listing(pagesWithoutText))") }
        let withText = pages.filter { $0.smallestTextMillimetres != nil }
        if let smallest = withText.min(by: { $0.smallestTextMillimetres ?? 0 < $1.smallestTextMillimetres ?? 0 }),
            let millimetres = smallest.smallestTextMillimetres, let points = smallest.smallestTextPoints
        {
            lines.append(
                "smallest text: \(Self.decimal(millimetres)) mm on screen (\(Self.decimal(points)) pt, page \(smallest.page))"
            )
        }
        if !substitutedFonts.isEmpty {
            let using = pages.filter { !$0.substitutedFonts.isEmpty }.map(\.page)
            lines.append(
                "fonts substituted (not embedded): \(substitutedFonts.joined(separator: ", ")) (\(listing(using)))")
        }
        let annotated = pages.filter { $0.annotations > 0 || $0.fields > 0 }
        if !annotated.isEmpty {
            let annotations = pages.reduce(0) { $0 + $1.annotations }, fields = pages.reduce(0) { $0 + $1.fields }
            lines.append("annotations: \(annotations), form fields: \(fields) (\(listing(annotated.map(\.page))))")
        }
        if figuresWithoutAlt > 0 {
            let missing = pages.filter { $0.figuresWithoutAlt > 0 }.map(\.page)
            lines.append("figures without /Alt: \(figuresWithoutAlt) (\(listing(missing)))")
        }
        if !tagged { lines.append("not tagged (no /MarkInfo /Marked, no /StructTreeRoot)") }
        if language == nil { lines.append("no /Lang in the catalog") }
        if repairedXref { lines.append("the cross-reference table was repaired") }
        if encrypted { lines.append("encrypted") }
        if claimedPageCount != pageCount {
            lines.append("the page tree claims \(claimedPageCount) pages and holds \(pageCount)")
        }
        return lines
    }

    /// The report for a person: what the document is, then one line per finding.
    public var text: String {
        var head = "\(path): "
        if error == nil {
            let sampled = pages.count < pageCount ? ", \(pages.count) audited" : ""
            head +=
                "\(pageCount) pages\(sampled), \(tagged ? "tagged" : "untagged"), /Lang \(language ?? "none"), "
                + "audited in \(Int(auditMilliseconds.rounded())) ms"
            if let slowest = pages.compactMap(\.renderMilliseconds).max() {
                head += " (the slowest page drawn in \(Int(slowest.rounded())) ms)"
            }
        }
        return ([head] + findings.map { "  " + $0 }).joined(separator: "\n")
    }

    /// `value` with at most one decimal.
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(abs(tenths % 10))"
    }
}
