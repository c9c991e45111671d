import CMuPDF
import Glibc
import LecternCore
import LecternLinux

/// Editing annotations and form fields, and saving the edits.
///
/// Every edit runs in the shim under the document lock (like recording a page), lets MuPDF
/// regenerate the appearances, and drops every cached display list, so the next render of any page
/// shows it; a render already rasterizing finishes with the pixels from before the edit.
/// JavaScript stays disabled: a form's keystroke, format, validate and calculate actions do not run
/// (MuPDF 1.21 runs them only as JavaScript, which has no time limit: a hostile form could hold the
/// document lock forever).
extension PDFDocument {
    /// Moves or resizes an annotation; `rect` in PDF user space (unrotated, y up), as PDFAnnotation.rect.
    ///
    /// Most subtypes take `rect` as their /Rect. Ink, Line, Polygon, PolyLine and text markup
    /// (Highlight, Underline, StrikeOut, Squiggly), whose /Rect MuPDF derives from their points,
    /// have every point mapped from their current /Rect onto `rect` (translated and scaled per
    /// axis); MuPDF then recomputes /Rect as the points' bounds plus its padding for the stroke, so
    /// the rect read back is close to `rect`, not equal: a move shifts the rect MuPDF computes for
    /// the unmoved points by exactly the delta.
    /// - Throws: `.editRefused` for a locked or read-only annotation, a read-only field, a subtype
    ///   that cannot be moved (Watermark, 3D, Screen…), points that would land more than 1,000,000 points out,
    ///   or a rect that is not finite, inverted or more than 1,000,000 points out;
    ///   `.annotationNotFound`; `.pageOutOfRange`.
    /// Corresponding C function: `CMuPDF_annotation_set_rect` (`pdf_set_annot_rect`,
    /// `pdf_set_annot_ink_list`, `pdf_set_annot_line`, `pdf_set_annot_vertices`,
    /// `pdf_set_annot_quad_points`).
    public func setAnnotationRect(_ rect: Rect, objectNumber: Int, page: Int) throws(PDFError) {
        let corners = [rect.minX, rect.minY, rect.maxX, rect.maxY]
        guard corners.allSatisfy(\.isFinite), rect.size.width >= 0, rect.size.height >= 0 else {
            throw refused("move annotation \(objectNumber)", page, "the rectangle \(rect) is not finite or inverted")
        }
        let floats = corners.map { Float($0) }
        try edit("move annotation \(objectNumber)", page) { error in
            floats.withUnsafeBufferPointer {
                CMuPDF_annotation_set_rect(handle, Int32(page), try32(objectNumber), $0.baseAddress, &error)
            }
        }
    }

    /// Replaces an annotation's /Contents (a note's or free-text box's text).
    ///
    /// - Throws: `.editRefused` for a read-only annotation, locked contents, a form field (use
    ///   `setFieldValue`), text over 65,536 bytes or with a NUL; `.annotationNotFound`;
    ///   `.pageOutOfRange`.
    /// Corresponding C function: `CMuPDF_annotation_set_contents` (`pdf_set_annot_contents`).
    public func setAnnotationContents(_ text: String, objectNumber: Int, page: Int) throws(PDFError) {
        try checkText(text, "change the text of annotation \(objectNumber)", page)
        try edit("change the text of annotation \(objectNumber)", page) { error in
            CMuPDF_annotation_set_contents(handle, Int32(page), try32(objectNumber), text, &error)
        }
    }

    /// Sets a text or choice field's value, running the field's keystroke/format/validate actions where MuPDF
    /// supports them (pdf_set_text_field_value / pdf_set_choice_field_value; JS is enabled or not: say which),
    /// regenerating its appearance. Returns the value the field holds afterwards (a validate action may refuse).
    ///
    /// JavaScript is not enabled, so no action runs: the value is stored as given. A text field
    /// refuses more characters than its /MaxLen; a list (or a combo box that is not editable) takes
    /// only one of its options (display text or export value).
    ///
    /// - Throws: `.editRefused` for a read-only field or annotation, a signature, a checkbox or radio
    ///   button (use `toggleField`), a push button, text past /MaxLen or over 65,536 bytes or with a
    ///   NUL, an unknown option; `.annotationNotFound` (also for an annotation that is not a widget:
    ///   `.editRefused`); `.pageOutOfRange`.
    /// Corresponding C function: `CMuPDF_field_set_value`.
    @discardableResult
    public func setFieldValue(_ value: String, objectNumber: Int, page: Int) throws(PDFError) -> String {
        try checkText(value, "fill in field \(objectNumber)", page)
        var result: UnsafeMutablePointer<CChar>?
        try edit("fill in field \(objectNumber)", page) { error in
            CMuPDF_field_set_value(handle, Int32(page), try32(objectNumber), value, &result, &error)
        }
        defer { free(result) }
        return Self.text(result)
    }

    /// Toggles a checkbox or radio button (pdf_toggle_widget); returns the field's new value.
    ///
    /// The value is the export name of the checked state ("Yes", a radio button's option) or "Off".
    /// A radio group whose /Ff says NoToggleToOff stays on when its checked button is toggled.
    /// - Throws: `.editRefused` for a read-only field or annotation or another kind of field;
    ///   `.annotationNotFound`; `.pageOutOfRange`.
    /// Corresponding C function: `CMuPDF_field_toggle`.
    @discardableResult
    public func toggleField(objectNumber: Int, page: Int) throws(PDFError) -> String {
        var result: UnsafeMutablePointer<CChar>?
        try edit("toggle field \(objectNumber)", page) { error in
            CMuPDF_field_toggle(handle, Int32(page), try32(objectNumber), &result, &error)
        }
        defer { free(result) }
        return Self.text(result)
    }

    /// Whether edits were made since opening or the last save.
    /// Corresponding C function: `CMuPDF_document_has_unsaved_changes`.
    public var hasUnsavedChanges: Bool { CMuPDF_document_has_unsaved_changes(handle) != 0 }

    /// Writes the document with its edits to `path` as an incremental update of the original bytes
    /// (source bytes + appended update), atomically: temp file in the same directory, fsync, rename, fsync dir.
    /// The source file is never modified unless `path` is the source's own path. On failure nothing at `path`
    /// changes and the error says why (read-only directory, disk full…).
    ///
    /// Every save holds every edit since the document was opened (MuPDF keeps them in one update
    /// section). Blocks the document lock while MuPDF writes: call it off the main thread.
    /// - Throws: `.writeFailed`: the directory cannot be written, the disk is full, the file was
    ///   repaired when opened (MuPDF cannot append to a repaired file), the file is not a PDF.
    /// Corresponding C function: `CMuPDF_document_save_incremental` (`pdf_save_document`).
    public func saveIncrementally(to path: String) throws(PDFError) {
        func failed(_ reason: String) -> PDFError {
            PDFError(.writeFailed, path: path, message: "cannot save \(self.path) to \(path): \(reason)")
        }
        var savedEdits: UInt = 0
        try replaceFileAtomically(at: path, failure: { failed($0.description) }) { temporary throws(PDFError) in
            var error = CMuPDF_error()
            guard CMuPDF_document_save_incremental(handle, temporary, &savedEdits, &error) == 0 else {
                throw failed(error.text)
            }
            // MuPDF only warns when the last buffered bytes cannot be written (fclose): a file that
            // does not end with its trailer was cut short (disk full).
            guard Self.endsWithTrailer(temporary) else {
                throw failed("the file written was cut short (is the disk full?)")
            }
        }
        CMuPDF_document_mark_saved(handle, savedEdits)
        MuPDFLog.logger.info("\(self.path): saved with its edits to \(path)")
    }

    /// Sets /ViewerPreferences /Direction (/R2L or /L2R) in the catalog; saved like any other edit.
    /// `isRightToLeft` reads it back at once.
    /// Corresponding C function: `CMuPDF_document_set_right_to_left`.
    public func setReadingDirection(rightToLeft: Bool) throws(PDFError) {
        var error = CMuPDF_error()
        guard CMuPDF_document_set_right_to_left(handle, rightToLeft ? 1 : 0, &error) == 0 else {
            throw PDFError(
                .editRefused, path: path,
                message: "cannot change the reading direction of \(path) (MuPDF: \(error.text))")
        }
        direction.store(rightToLeft, ordering: .relaxed)
    }

    /// Runs one shim edit and turns its status into a `PDFError`.
    private func edit(
        _ action: String, _ page: Int, _ call: (inout CMuPDF_error) throws(PDFError) -> Int32
    ) throws(PDFError) {
        try checkIndex(page)
        var error = CMuPDF_error()
        let status = try call(&error)
        switch status {
        case 0:
            return
        case Int32(CMUPDF_ERROR_NOT_FOUND.rawValue):
            throw PDFError(
                .annotationNotFound, path: path,
                message: "cannot \(action) on page \(page + 1) of \(path): \(error.text)")
        case Int32(CMUPDF_ERROR_REFUSED.rawValue), Int32(CMUPDF_ERROR_ARGUMENT.rawValue):
            throw refused(action, page, error.text)
        default:
            throw PDFError(
                .damaged, path: path,
                message: "cannot \(action) on page \(page + 1) of \(path) (MuPDF: \(error.text))")
        }
    }

    private func refused(_ action: String, _ page: Int, _ reason: String) -> PDFError {
        PDFError(.editRefused, path: path, message: "cannot \(action) on page \(page + 1) of \(path): \(reason)")
    }

    private func checkText(_ text: String, _ action: String, _ page: Int) throws(PDFError) {
        guard text.utf8.count <= Int(CMUPDF_EDIT_STRING_MAX.rawValue) else {
            throw refused(action, page, "the text is longer than 65,536 bytes")
        }
        guard !text.utf8.contains(0) else { throw refused(action, page, "the text contains a NUL character") }
    }

    /// Whether the file at `path` ends with "%%EOF" (and optional line ends), as MuPDF ends a save.
    private static func endsWithTrailer(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let size = lseek(fd, 0, SEEK_END)
        guard size >= 8 else { return false }
        var tail = [UInt8](repeating: 0, count: 8)
        let n = tail.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 8, size - 8) }
        guard n == 8 else { return false }
        var end = tail.count
        while end > 0, tail[end - 1] == 0x0A || tail[end - 1] == 0x0D { end -= 1 }
        return end >= 5 && tail[(end - 5)..<end].elementsEqual("%%EOF".utf8)
    }
}

/// An object number as the shim takes it: out of range becomes -1, which names no object.
private func try32(_ value: Int) -> Int32 { Int32(exactly: value) ?? -1 }
