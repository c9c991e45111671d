// CMuPDF text for selection: a page's characters with their quads and line/block ids
// (shim_selection.c). Included at the end of CMuPDF.h, whose types it uses.
#ifndef CMUPDF_TEXT_H
#define CMUPDF_TEXT_H

#ifdef __cplusplus
extern "C" {
#endif

/// The most characters CMuPDF_page_chars returns for one page; the rest are left out (`*truncated`).
#define CMUPDF_PAGE_CHARS_MAX 200000

/// One character of a page for text selection, in MuPDF's structured-text order (blocks, their
/// lines, each line's characters in the order they are drawn: right-to-left scripts usually in
/// visual order, left to right; the reader puts them in reading order).
typedef struct CMuPDF_page_char {
    /// The Unicode scalar value (ligatures expanded).
    int c;
    /// Which line of the page it is on (0, 1, … in structured-text order).
    int line;
    /// Which text block of the page it is in (0, 1, …).
    int block;
    /// Its quad in PDF user space (unrotated, y up): upper-left, upper-right, lower-left,
    /// lower-right corners as x, y pairs (fz_quad's order; "upper" is the glyph's top).
    float quad[8];
} CMuPDF_page_char;

/// The characters of page `index` for text selection, from structured text made from the page's
/// cached display list (the page is on screen: no doc_lock is held while the text is read; see
/// CMuPDF_page_text_blocks). What lies wholly outside the crop box is left out. On success
/// `*chars` is a malloc'd array of `*count` characters that the caller frees (NULL and 0 for a
/// page without text); `*truncated` is 1 when the page had more than CMUPDF_PAGE_CHARS_MAX.
int CMuPDF_page_chars(CMuPDF_document *document, int index, CMuPDF_page_char **chars, int *count, int *truncated,
                      CMuPDF_error *error);

#ifdef __cplusplus
}
#endif

#endif
