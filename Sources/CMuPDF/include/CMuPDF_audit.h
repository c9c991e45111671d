// CMuPDF audit: what a document audit reads that the other entry points do not (shim_audit.c):
// whether the document is tagged and encrypted, its /Lang as written, and per page the size of its
// smallest text and the fonts it names without embedding them. Included at the end of CMuPDF.h.
#ifndef CMUPDF_AUDIT_H
#define CMUPDF_AUDIT_H

#ifdef __cplusplus
extern "C" {
#endif

/// The most font names CMuPDF_page_audit_read keeps for a page (the count goes on past them).
#define CMUPDF_AUDIT_FONTS_MAX 16
/// The most bytes of a font's name kept (NUL included).
#define CMUPDF_AUDIT_FONT_NAME_MAX 64

/// The document-wide facts of an audit.
typedef struct CMuPDF_document_audit {
    /// 1 when the catalog's /MarkInfo /Marked is true or it has a /StructTreeRoot.
    int tagged;
    /// 1 when the file is encrypted (it has an /Encrypt dictionary), whether or not it needs a
    /// password to open.
    int encrypted;
    /// The catalog's /Lang as written, in UTF-8 ("" when none), cut at 63 bytes.
    char language[64];
} CMuPDF_document_audit;

/// Reads the document-wide facts. PDFs only (another format: all zero). Returns a status.
int CMuPDF_document_audit_read(CMuPDF_document *document, CMuPDF_document_audit *audit, CMuPDF_error *error);

/// A page's facts of an audit.
typedef struct CMuPDF_page_audit {
    /// Characters of the page's structured text that draw something (not spaces), inside its
    /// media box.
    int characters;
    /// The smallest size of those characters, in points (0 when there are none).
    float smallest_size;
    /// The fonts in the page's resources (and those of its form XObjects, four levels deep) that
    /// are not embedded (no /FontFile, /FontFile2 or /FontFile3; a Type0 font's descendant's), so
    /// MuPDF draws a substitute: how many, and the first CMUPDF_AUDIT_FONTS_MAX names (/BaseFont).
    int substituted_count;
    char substituted[CMUPDF_AUDIT_FONTS_MAX][CMUPDF_AUDIT_FONT_NAME_MAX];
} CMuPDF_page_audit;

/// Reads page `index`'s facts: its text from the structured text, its fonts from its resources.
/// Returns a status.
int CMuPDF_page_audit_read(CMuPDF_document *document, int index, CMuPDF_page_audit *audit, CMuPDF_error *error);

#ifdef __cplusplus
}
#endif

#endif
