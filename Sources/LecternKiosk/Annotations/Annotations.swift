import Glibc
import LecternCore
import LecternLinux
import LecternPDF
import LecternRender
import Logging

/// Annotations and form fields on screen: the selected one (its frame, and its text in the
/// annotation bar), the field being filled (typed on the on-screen keyboard or a hardware one,
/// picked from a list, or toggled at once), the edits going to the document through
/// `AnnotationEditor`, and what the policy makes of them at the idle reset (`annotations.save`).
///
/// The interaction components decide what a touch does (InteractionController+Annotations.swift,
/// through `ReaderHost`); this keeps the state they act on and draws it.
final class Annotations {
    /// What is being edited.
    struct Editing: Equatable {
        enum Kind: Equatable {
            /// Text typed so far (a text field's value, a note's contents).
            case typing(String)
            /// A choice field's list is open.
            case choosing
        }

        var page: Int
        var annotation: AnnotationInfo
        var kind: Kind
    }

    /// The reader on screen (its document's annotations are edited).
    let current: CurrentReader
    /// The document on screen, opened again when its edits are dropped.
    let shown: any DocumentShowing
    /// The policy in force.
    let policy: PolicyInForce
    let screen: Screen
    let chrome: Chrome
    let editor: AnnotationEditor
    let keyboard: OnScreenKeyboard
    let logger: Logger
    /// The selected annotation (the frame; its text in the bar).
    var selection: AnnotationSelection? {
        didSet {
            guard let editing, selection?.annotation.objectNumber != editing.annotation.objectNumber else { return }
            finishEditing(commit: true)
        }
    }
    private(set) var editing: Editing?
    /// The last save: where it went, or why it failed.
    private(set) var lastSave: (path: String, error: String?)?
    /// Saves that succeeded.
    private(set) var saves = 0
    /// Asked for when what is shown changed outside input (an edit came back).
    let frame: FrameRequest

    init(
        loop: EventLoop, current: CurrentReader, shown: any DocumentShowing, policy: PolicyInForce, screen: Screen,
        chrome: Chrome, frame: FrameRequest, logger: Logger
    ) {
        self.current = current
        self.shown = shown
        self.frame = frame
        self.policy = policy
        self.screen = screen
        self.chrome = chrome
        self.logger = logger
        editor = AnnotationEditor(loop: loop, logger: logger)
        keyboard = OnScreenKeyboard(screen: screen)
        keyboard.onKey = { [unowned self] action in
            switch action {
            case .character(let character): type(character)
            case .backspace: type(nil)
            case .done: finishEditing(commit: true)
            }
        }
        editor.onResult = { [unowned self] in received($0) }
    }

    /// Wires the annotations to the rest of the app: the chrome's reset (the idle reset, back to
    /// the shelf) ends the visit, the bar and keyboard take touches before the other overlays.
    func connect(chrome: Chrome, navigation: Navigation) {
        chrome.onReset = { [unowned self, unowned navigation] in
            navigation.reset()
            reset()
        }
        navigation.partsAbove.append { [unowned self] in part(at: $0) }
    }

    /// Stops watching the editor's worker (shutdown).
    func close() {
        editing = nil
        selection = nil
        editor.close()
    }

    /// Whether an edit or a save is under way.
    var isBusy: Bool { editor.isBusy }

    // MARK: What the components ask for (ReaderHost)

    /// Edits `annotation`: a checkbox or radio button toggles at once, a choice opens its list,
    /// text opens the keyboard with the text it has.
    func edit(_ annotation: AnnotationInfo, onPage page: Int) {
        guard let document = current.reader?.document else { return }
        switch annotation.fieldType {
        case .checkbox, .radio:
            editor.apply(.toggle, objectNumber: annotation.objectNumber, page: page, of: document)
        case .comboChoice, .listChoice:
            editing = Editing(page: page, annotation: annotation, kind: .choosing)
        case .text, .multilineText:
            editing = Editing(page: page, annotation: annotation, kind: .typing(annotation.value))
        case nil:
            editing = Editing(page: page, annotation: annotation, kind: .typing(annotation.contents))
        case .pushButton, .signature, .unknown:
            break
        }
    }

    /// Moves or resizes `annotation` (a transform's finger lifted).
    func setRect(_ rect: Rect, of annotation: AnnotationInfo, onPage page: Int) {
        guard let document = current.reader?.document else { return }
        editor.apply(.rect(rect), objectNumber: annotation.objectNumber, page: page, of: document)
    }

    // MARK: Editing

    /// Types `character` (nil: deletes the last one) into the text being edited.
    private func type(_ character: Character?) {
        guard var editing, case .typing(var text) = editing.kind else { return }
        if let character {
            guard text.count < editing.annotation.maxLength ?? Int.max else { return }
            text.append(character)
        } else if !text.isEmpty {
            text.removeLast()
        }
        editing.kind = .typing(text)
        self.editing = editing
    }

    /// Picks option `index` of the choice being edited, and closes the list.
    private func choose(_ index: Int) {
        guard let editing, let document = current.reader?.document, editing.annotation.options.indices.contains(index)
        else { return }
        self.editing = nil
        editor.apply(
            .value(editing.annotation.options[index]), objectNumber: editing.annotation.objectNumber,
            page: editing.page, of: document)
    }

    /// Closes the editor; `commit` writes what was typed into the document.
    func finishEditing(commit: Bool) {
        guard let editing else { return }
        self.editing = nil
        keyboard.release()
        guard commit, case .typing(let text) = editing.kind, let document = current.reader?.document else { return }
        let annotation = editing.annotation
        let edit: AnnotationEditor.Edit
        if annotation.isFormField {
            guard text != annotation.value else { return }
            edit = .value(text)
        } else {
            guard text != annotation.contents else { return }
            edit = .contents(text)
        }
        editor.apply(edit, objectNumber: annotation.objectNumber, page: editing.page, of: document)
    }

    // MARK: Input

    /// A key while text is edited: characters type, Backspace deletes, Enter is Done (a new
    /// line in a multi-line field), Escape closes without keeping what was typed.
    func handle(_ key: Key) -> Bool {
        guard let editing, case .typing = editing.kind else { return false }
        switch key {
        case .escape: finishEditing(commit: false)
        case .backspace: type(nil)
        case .enter where editing.annotation.fieldType == .multilineText || !editing.annotation.isFormField:
            type("\n")
        case .enter: finishEditing(commit: true)
        default:
            guard let character = key.character else { return false }
            type(character)
        }
        return true
    }

    /// The part of the annotation bar, keyboard or option list under `point` (Navigation).
    func part(at point: Point) -> (any NavigationPart)? {
        guard editing != nil || selection != nil else { return nil }
        let (width, height) = (screen.width, screen.height)
        if case .typing = editing?.kind, keyboard.layout.frame.contains(point) { return keyboard }
        if editing?.kind == .choosing, let options = editing?.annotation.options,
            let index = options.indices.first(where: {
                Scene.AnnotationBar.option($0, width: width, metrics: screen.metrics).contains(point)
            })
        {
            return TapTarget { [unowned self] _, _ in choose(index) }
        }
        guard Scene.AnnotationBar.box(width: width, height: height, metrics: screen.metrics).contains(point) else {
            return nil
        }
        return TapTarget { [unowned self] start, _ in
            guard Scene.AnnotationBar.doneButton(width: width, height: height, metrics: screen.metrics).contains(start)
            else { return }
            if editing != nil { finishEditing(commit: true) } else { selection = nil }
        }
    }

    // MARK: Results and the idle reset

    private func received(_ result: AnnotationEditor.Result) {
        switch result {
        case let .edited(document, page, annotations, error):
            guard let reader = current.reader, ObjectIdentifier(reader.document) == document else { return }
            reader.pageText[page]?.annotations = annotations
            reader.dropTiles(ofPage: page)
            if let selected = selection, selected.page == page {
                selection?.annotation =
                    annotations.first { $0.objectNumber == selected.annotation.objectNumber } ?? selected.annotation
            }
            if error != nil { chrome.showNotice(tr("This could not be changed."), seconds: 5) }
        case let .directionSet(document, error):
            guard let reader = current.reader, ObjectIdentifier(reader.document) == document else { return }
            if error != nil { chrome.showNotice(tr("The reading direction could not be changed."), seconds: 5) }
            // The view follows the document's direction unless the policy fixes the binding.
            reader.view.stopAnimations()
            reader.view.setConfiguration(
                policy.viewConfiguration(rightToLeft: reader.document.isRightToLeft))
        case let .saved(document, path, error):
            lastSave = (path, error)
            if error != nil {
                chrome.showNotice(tr("The changes could not be saved: the last saved file is kept."), seconds: 10)
            } else {
                saves += 1
                if policy.annotationSave == .copy,
                    let reader = current.reader, ObjectIdentifier(reader.document) == document
                {
                    revert(reader)
                }
            }
        }
        frame.request()
    }

    /// Sets the open document's reading direction (`lectern ctl binding`): saved or discarded at
    /// the idle reset as the visitor's changes are. False when no document is open.
    func setReadingDirection(rightToLeft: Bool) -> Bool {
        guard let reader = current.reader else { return false }
        editor.setReadingDirection(rightToLeft: rightToLeft, of: reader.document)
        return true
    }

    /// The visit is over (the idle reset): the editor closes, the selection goes, and the
    /// edits are dropped, saved to a copy or saved in place, as the policy says.
    func reset() {
        finishEditing(commit: false)
        selection = nil
        guard let reader = current.reader, editor.hasUnsavedChanges(reader.document) else { return }
        switch policy.annotationSave {
        case .discard:
            logger.info("idle reset: the visitor's changes are dropped")
            revert(reader)
        case .copy:
            guard let directory = policy.annotationSaveDirectory else {
                logger.error("annotations.save is copy but annotations.save-directory is not set: changes dropped")
                return revert(reader)
            }
            editor.save(reader.document, to: Self.copyPath(of: reader.document.path, in: directory))
        case .inPlace:
            editor.save(reader.document, to: reader.document.path)
        }
    }

    /// Saves the open document's edits now as `[annotations] save` says, but drops nothing (the
    /// operator's panel); what happened, for a notice. A failed save says so when it fails.
    func saveByPolicy() -> String {
        guard let reader = current.reader, editor.hasUnsavedChanges(reader.document) else {
            return tr("Nothing to save.")
        }
        switch policy.annotationSave {
        case .discard:
            return tr("Not saved: the policy keeps the file as it is ([annotations] save).")
        case .copy:
            guard let directory = policy.annotationSaveDirectory else {
                return tr("Not saved: the policy names no directory for copies.")
            }
            editor.save(reader.document, to: Self.copyPath(of: reader.document.path, in: directory))
            return tr("Saved as a copy.")
        case .inPlace:
            editor.save(reader.document, to: reader.document.path)
            return tr("Saved.")
        }
    }

    /// Shows the document as its file has it again, on the start page.
    private func revert(_ reader: Reader) {
        editor.discard(reader.document)
        shown.reload(page: min(policy.startPage, reader.view.pages.count - 1))
    }

    /// `directory`/NAME-YYYYMMDD-HHMMSS.pdf for the document at `path` (UTC), with -2, -3… when
    /// two visits end in the same second.
    static func copyPath(of path: String, in directory: String) -> String {
        var name = String(path.split(separator: "/").last ?? "document")
        if name.lowercased().hasSuffix(".pdf") { name.removeLast(4) }
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &parts)
        let stamp = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var candidate = "\(directory)/\(name)-\(stamp).pdf"
        var suffix = 2
        while access(candidate, F_OK) == 0 {
            candidate = "\(directory)/\(name)-\(stamp)-\(suffix).pdf"
            suffix += 1
        }
        return candidate
    }
}
