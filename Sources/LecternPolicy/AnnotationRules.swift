import LecternCore

/// What the policy lets a visitor do with annotations: which kinds a tap selects, a drag moves
/// and a tap edits, whose annotations are left alone, and what becomes of the edits
/// (`[annotations]` in the policy file: `KioskConfiguration.annotations` reads those settings).
/// The interaction components read it through activation conditions (`AnnotationPolicy`).
///
/// A kind is an annotation subtype in lower case (`freetext`, `text`, `ink`, `square`, …),
/// `form` for every form field, `form.TYPE` for one kind of field (`form.text`,
/// `form.multiline`, `form.checkbox`, `form.radio`, `form.combo`, `form.list`), or `*`.
public struct AnnotationRules: Sendable {
    /// What the edits of a visit become.
    public enum SaveMode: String, Sendable, CaseIterable {
        /// Dropped at the idle reset: the next visitor sees the document as the file has it.
        case discard
        /// Saved (incrementally) to a copy in `annotations.save-directory` with a timestamped name at the
        /// idle reset; then dropped from the screen, as with `discard`.
        case copy
        /// Saved into the document's own file at the idle reset.
        case inPlace = "in-place"
    }

    /// The configuration whose `annotations.*` settings these are (`selectableAnnotations`, …).
    let configuration: KioskConfiguration

    /// What a component does with an annotation.
    public enum Action: Sendable { case select, move, edit }

    /// Whether the policy lets `action` happen to `annotation`.
    public func allows(_ action: Action, _ annotation: AnnotationInfo) -> Bool {
        if configuration.excludedAnnotationAuthors.contains(annotation.author) && !annotation.author.isEmpty {
            return false
        }
        if configuration.ignoresLockedAnnotations && annotation.isLocked { return false }
        let kinds: [String]
        switch action {
        case .select: kinds = configuration.selectableAnnotations
        case .move: kinds = configuration.movableAnnotations
        case .edit: kinds = configuration.editableAnnotations
        }
        return kinds.contains { Self.kind($0, matches: annotation) }
    }

    /// Whether the kind named `kind` in the policy covers `annotation`.
    public static func kind(_ kind: String, matches annotation: AnnotationInfo) -> Bool {
        switch kind {
        case "*": return true
        case "form": return annotation.isFormField
        case let name where name.hasPrefix("form."):
            return annotation.fieldType?.rawValue == name.dropFirst(5).lowercased()
        default: return !annotation.isFormField && annotation.subtype.lowercased() == kind.lowercased()
        }
    }

    /// Whether `kind` names something `kind(_:matches:)` can match (the policy file's check).
    static func isKnownKind(_ kind: String) -> Bool {
        if kind == "*" || kind == "form" { return true }
        if kind.hasPrefix("form.") {
            return AnnotationInfo.FieldType.allCases.contains { $0.rawValue == kind.dropFirst(5) }
        }
        return !kind.isEmpty && kind.allSatisfy { $0.isLetter || $0.isNumber }
    }
}
