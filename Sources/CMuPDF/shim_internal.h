// Private to the CMuPDF target (not under include/: Swift never sees MuPDF types): what the shim's
// other C files (shim_text.c) borrow from shim.c, which owns the document and its locks.
#ifndef CMUPDF_SHIM_INTERNAL_H
#define CMUPDF_SHIM_INTERNAL_H

#include "CMuPDF.h"

#include <mupdf/fitz.h>

/// Reads what it needs out of a page's structured text; called inside fz_try (it may throw: the
/// caller's fz_catch reports it) with the structured text in fitz page space and `to_user`, the
/// matrix to PDF user space (unrotated, y up). It must free what it allocated itself on a throw:
/// keep it reachable from `user`.
typedef void (*CMuPDF_stext_visitor)(fz_context *ctx, fz_stext_page *text, fz_matrix to_user, void *user);

/// Makes page `index`'s structured text with `flags` (FZ_STEXT_…) from its cached display list
/// (recorded under doc_lock if missing), on a context checked out of the pool WITHOUT doc_lock,
/// as CMuPDF_page_text_blocks does, and runs `visit` on it. Returns a status (`error` filled).
int CMuPDF_internal_visit_stext(CMuPDF_document *document, int index, int flags, CMuPDF_stext_visitor visit,
                                void *user, CMuPDF_error *error);

#endif
