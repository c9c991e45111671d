import LecternCore
import LecternRender

extension Annotations {
    /// Adds the selection's frame, the annotation bar and the keyboard to a frame's overlays.
    func decorate(_ overlays: inout Scene.Overlays, reader: Reader, plan: TilePlanner.Plan) {
        if let selection, let item = plan.pages.first(where: { $0.page == selection.page }) {
            let box = PixelBox(enclosing: reader.pageToPixels(item).apply(to: selection.rect))
            let movable =
                !selection.annotation.isLocked && !selection.annotation.isReadOnly
                && policy.annotations.allows(.move, selection.annotation)
            overlays.annotationFrame = Scene.AnnotationFrame(
                box: box, clip: item.frame.intersection(item.clip), showsHandles: movable)
        }
        overlays.annotationBar = bar
        if case .typing = editing?.kind { overlays.keyboard = keyboard.scene }
    }

    /// The annotation bar: the text being typed, the list being chosen from, or the selected
    /// annotation's text.
    private var bar: Scene.AnnotationBar? {
        if let editing {
            let annotation = editing.annotation
            switch editing.kind {
            case .typing(let text):
                return Scene.AnnotationBar(title: Self.title(of: annotation), text: text, mode: .typing)
            case .choosing:
                return Scene.AnnotationBar(
                    title: Self.title(of: annotation), text: annotation.value, mode: .choosing,
                    options: annotation.options, chosen: annotation.options.firstIndex(of: annotation.value))
            }
        }
        guard let annotation = selection?.annotation else { return nil }
        let text = annotation.isFormField ? annotation.value : annotation.contents
        return Scene.AnnotationBar(title: Self.title(of: annotation), text: text, mode: .reading)
    }

    /// A field's name, a note's author, else its kind.
    static func title(of annotation: AnnotationInfo) -> String {
        if annotation.isFormField { return annotation.fieldName }
        return annotation.author.isEmpty ? annotation.subtype : annotation.author
    }

    /// The annotations' part of `KioskApp.status`.
    func status(reader: Reader?) -> AnnotationStatus {
        var status = AnnotationStatus()
        status.selected = selection.map {
            .init(
                page: $0.page, objectNumber: $0.annotation.objectNumber, subtype: $0.annotation.subtype, rect: $0.rect)
        }
        switch editing?.kind {
        case .typing(let text)?: status.editing = .typing(text)
        case .choosing?: status.editing = .choosing(editing?.annotation.options ?? [])
        case nil: break
        }
        status.bar = bar.map { "\($0.title): \($0.text)" }
        for annotations in (reader?.pageText.values).map(Array.init) ?? [] {
            for annotation in annotations.annotations where annotation.isFormField {
                status.fieldValues[annotation.fieldName] = annotation.value
            }
        }
        status.hasUnsavedChanges = reader.map { editor.hasUnsavedChanges($0.document) } ?? false
        status.edits = editor.edits
        status.lastSavePath = lastSave?.path
        status.lastSaveError = lastSave?.error
        status.saves = saves
        return status
    }
}

/// The annotations and form fields in `KioskStatus`.
public struct AnnotationStatus: Equatable, Sendable {
    /// The selected annotation.
    public struct Selected: Equatable, Sendable {
        public var page: Int
        public var objectNumber: Int
        public var subtype: String
        /// Where its frame is (page space; where a drag has put it).
        public var rect: Rect
    }

    /// What the editor does.
    public enum Editing: Equatable, Sendable {
        /// Text is typed: what it says so far.
        case typing(String)
        /// A choice field's options are listed.
        case choosing([String])
    }

    public var selected: Selected?
    public var editing: Editing?
    /// The annotation bar as shown: "title: text".
    public var bar: String?
    /// Every form field's value on the pages read so far, by field name.
    public var fieldValues: [String: String] = [:]
    /// The document holds edits not saved.
    public var hasUnsavedChanges = false
    /// Edits tried so far (made or refused), the reading direction's included.
    public var edits = 0
    /// Where the last save went, and why it failed (nil: it did not).
    public var lastSavePath: String?
    public var lastSaveError: String?
    /// Saves that succeeded.
    public var saves = 0
}
