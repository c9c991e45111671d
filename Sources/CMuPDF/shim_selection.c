// CMuPDF text for selection (CMuPDF_text.h): a page's characters, quads, lines and blocks. The
// document, its display lists and locks stay in shim.c; this file only reads the structured text
// that CMuPDF_internal_visit_stext hands it, inside that function's fz_try.
#include "CMuPDF.h"
#include "shim_internal.h"

#include <stdlib.h>
#include <string.h>

/// What the visitor fills; `out` is freed by the caller when the visit throws.
typedef struct chars_visit {
    CMuPDF_page_char *out;
    int count;
    int truncated;
} chars_visit;

static void copy_user_point(float out[2], fz_point point, fz_matrix to_user) {
    fz_point user = fz_transform_point(point, to_user);
    out[0] = user.x;
    out[1] = user.y;
}

static void visit_chars(fz_context *ctx, fz_stext_page *text, fz_matrix to_user, void *user) {
    chars_visit *visit = user;
    size_t n = 0;
    for (fz_stext_block *block = text->first_block; block; block = block->next) {
        if (block->type != FZ_STEXT_BLOCK_TEXT) continue;
        for (fz_stext_line *line = block->u.t.first_line; line; line = line->next)
            for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) n++;
    }
    if (n > CMUPDF_PAGE_CHARS_MAX) {
        fz_warn(ctx, "a page with %zu characters: only the first %d can be selected", n, CMUPDF_PAGE_CHARS_MAX);
        n = CMUPDF_PAGE_CHARS_MAX;
        visit->truncated = 1;
    }
    if (n == 0) return;
    // Plain malloc: the caller frees it without a MuPDF context.
    visit->out = malloc(sizeof *visit->out * n);
    if (!visit->out) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory listing %zu characters", n);
    size_t i = 0;
    int block_id = 0, line_id = 0;
    for (fz_stext_block *block = text->first_block; block && i < n; block = block->next) {
        if (block->type != FZ_STEXT_BLOCK_TEXT) continue;
        for (fz_stext_line *line = block->u.t.first_line; line && i < n; line = line->next) {
            for (fz_stext_char *ch = line->first_char; ch && i < n; ch = ch->next) {
                CMuPDF_page_char *out = &visit->out[i++];
                out->c = ch->c;
                out->line = line_id;
                out->block = block_id;
                copy_user_point(out->quad + 0, ch->quad.ul, to_user);
                copy_user_point(out->quad + 2, ch->quad.ur, to_user);
                copy_user_point(out->quad + 4, ch->quad.ll, to_user);
                copy_user_point(out->quad + 6, ch->quad.lr, to_user);
            }
            line_id++;
        }
        block_id++;
    }
    visit->count = (int)i;
}

int CMuPDF_page_chars(CMuPDF_document *document, int index, CMuPDF_page_char **chars, int *count, int *truncated,
                      CMuPDF_error *error) {
    *chars = NULL;
    *count = 0;
    *truncated = 0;
    chars_visit visit = {0};
    // Characters wholly outside the crop box are not shown, so they cannot be selected either.
    int status = CMuPDF_internal_visit_stext(document, index, FZ_STEXT_MEDIABOX_CLIP, visit_chars, &visit, error);
    if (status != CMUPDF_OK) {
        free(visit.out);
        return status;
    }
    *chars = visit.out;
    *count = visit.count;
    *truncated = visit.truncated;
    return CMUPDF_OK;
}
