import CMuPDF
import Glibc
import LecternCore

extension PDFDocument {
    /// The most annotations `annotations(page:)` returns for one page; the rest are left out.
    public static let maxAnnotationsPerPage = Int(CMUPDF_ANNOTATIONS_MAX.rawValue)

    /// The annotations and form fields of page `index`. Loads the page (its annotations) without
    /// running its content. An annotation MuPDF cannot read is skipped and logged; strings that are
    /// not valid UTF-8 are repaired (U+FFFD), so a hostile file gives odd text, never a crash.
    ///
    /// - Throws: `.pageOutOfRange`, or `.damaged` when the page cannot be loaded.
    /// Corresponding C functions: `pdf_first_annot`, `pdf_first_widget`, `pdf_annot_rect`,
    /// `pdf_annot_flags`, `pdf_annot_contents`, `pdf_annot_author`, `pdf_annot_color`,
    /// `pdf_widget_type`, `pdf_field_value`, `pdf_choice_widget_options`, `pdf_text_widget_max_len`
    /// (`CMuPDF_page_annotations`).
    public func annotations(page index: Int) throws(PDFError) -> PageAnnotations {
        try checkIndex(index)
        var error = CMuPDF_error()
        var list: UnsafeMutablePointer<CMuPDF_annotation>?
        var count: Int32 = 0
        var truncated: Int32 = 0
        guard CMuPDF_page_annotations(handle, Int32(index), &list, &count, &truncated, &error) == 0 else {
            throw PDFError(
                .damaged, path: path,
                message:
                    "cannot read the annotations of page \(index + 1) of \(path): the page is damaged (MuPDF: \(error.text))"
            )
        }
        defer { CMuPDF_annotations_free(list, count) }
        guard let list else { return PageAnnotations(annotations: [], isTruncated: truncated != 0) }
        let annotations = (0..<Int(count)).map { Self.annotation(list[$0]) }
        return PageAnnotations(annotations: annotations, isTruncated: truncated != 0)
    }

    private static func annotation(_ entry: CMuPDF_annotation) -> PDFAnnotation {
        let r = entry.rect
        let color = withUnsafeBytes(of: entry.color) { raw in
            Array(raw.bindMemory(to: Float.self).prefix(Int(entry.color_count))).map(Double.init)
        }
        var field: PDFAnnotation.Field?
        if entry.field_type != CMUPDF_FIELD_NONE.rawValue {
            let type = fieldType(entry.field_type)
            let options = (0..<Int(entry.option_count)).compactMap { i in entry.options?[i].map(text) }
            field = PDFAnnotation.Field(
                type: type, name: text(entry.field_name), value: text(entry.value), options: options,
                maxLength: entry.max_length > 0 ? Int(entry.max_length) : nil,
                isReadOnly: entry.field_flags & Int32(CMUPDF_FIELD_FLAG_READ_ONLY) != 0 || type == .signature,
                rawFlags: Int(entry.field_flags))
        }
        return PDFAnnotation(
            objectNumber: Int(entry.object), subtype: text(entry.subtype),
            rect: Rect(corner: Point(x: Double(r.0), y: Double(r.1)), corner: Point(x: Double(r.2), y: Double(r.3))),
            flags: PDFAnnotation.Flags(rawValue: Int(entry.flags)), color: color, contents: text(entry.contents),
            author: text(entry.author), field: field)
    }

    /// A C string from the shim as Swift text; invalid UTF-8 becomes U+FFFD.
    static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
    }

    private static func fieldType(_ type: Int32) -> PDFAnnotation.FieldType {
        switch type {
        case CMUPDF_FIELD_TEXT.rawValue: .text
        case CMUPDF_FIELD_MULTILINE_TEXT.rawValue: .multilineText
        case CMUPDF_FIELD_CHECKBOX.rawValue: .checkbox
        case CMUPDF_FIELD_RADIO.rawValue: .radio
        case CMUPDF_FIELD_COMBO_CHOICE.rawValue: .comboChoice
        case CMUPDF_FIELD_LIST_CHOICE.rawValue: .listChoice
        case CMUPDF_FIELD_PUSH_BUTTON.rawValue: .pushButton
        case CMUPDF_FIELD_SIGNATURE.rawValue: .signature
        default: .unknown
        }
    }
}
