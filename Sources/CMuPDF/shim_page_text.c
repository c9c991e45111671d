// CMuPDF: text blocks, links and the text search reads.
// The document, its locks and its contexts are shim.c's (shim_internal.h).
#include "CMuPDF.h"
#include "shim_internal.h"
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// MARK: - Text

/// What the text-blocks visitor fills; `out` is freed by the caller when the visit throws.
typedef struct blocks_visit {
    float *out;
    int count;
} blocks_visit;

static void visit_blocks(fz_context *ctx, fz_stext_page *text, fz_matrix to_user, void *user) {
    blocks_visit *visit = user;
    int n = 0;
    for (fz_stext_block *block = text->first_block; block; block = block->next)
        if (block->type == FZ_STEXT_BLOCK_TEXT) n++;
    // Plain malloc: the caller frees it without a MuPDF context.
    visit->out = malloc(sizeof *visit->out * 4 * (size_t)(n ? n : 1));
    if (!visit->out) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory listing %d text blocks", n);
    // The text is in fitz page space (rotated, y down); the caller wants PDF user space.
    int i = 0;
    for (fz_stext_block *block = text->first_block; block; block = block->next) {
        if (block->type != FZ_STEXT_BLOCK_TEXT) continue;
        shim_copy_user_rect(visit->out + 4 * i++, block->bbox, to_user);
    }
    visit->count = n;
}

int CMuPDF_page_text_blocks(CMuPDF_document *document, int index, float **rects, int *count,
                                   CMuPDF_error *error) {
    *rects = NULL;
    *count = 0;
    blocks_visit visit = {0};
    // Characters wholly outside the crop box are not shown, so they do not make blocks either.
    int status = CMuPDF_internal_visit_stext(document, index, FZ_STEXT_MEDIABOX_CLIP, visit_blocks, &visit, error);
    if (status != CMUPDF_OK) {
        free(visit.out);
        return status;
    }
    *rects = visit.out;
    *count = visit.count;
    return CMUPDF_OK;
}

int CMuPDF_internal_visit_stext(CMuPDF_document *document, int index, int flags, CMuPDF_stext_visitor visit,
                                void *user, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    fz_context *ctx = NULL;
    fz_cookie cookie = {0};
    list_ref ref;
    int status = shim_checkout_list(document, index, &cookie, &ctx, &ref, error);
    if (status != CMUPDF_OK) return status;
    fz_stext_page *text = NULL;
    fz_var(text);
    fz_try(ctx) {
        fz_stext_options options = {.flags = flags};
        text = fz_new_stext_page_from_display_list(ctx, ref.list, &options);
        visit(ctx, text, fz_invert_matrix(ref.page_ctm), user);
    }
    fz_always(ctx) {
        fz_drop_stext_page(ctx, text);
        fz_drop_display_list(ctx, ref.list);
    }
    fz_catch(ctx) status = shim_caught(ctx, error);
    shim_checkin_context(document, ctx);
    return status;
}

// MARK: - Links

/// Takes MuPDF's forward page map away for a call that resolves destinations: MuPDF 1.21 looks a
/// destination's page object up in it with a kept reference it never gives back
/// (pdf_lookup_page_obj, see lookup_page_obj), which leaked the target pages' dictionaries. Without
/// it MuPDF walks the tree for them (borrowed); page numbers still come from the reverse map (no
/// reference). Returns the map for show_forward_map (NULL: nothing was hidden).
int *shim_hide_forward_map(CMuPDF_document *document) {
    int *map = document->pdf ? document->pdf->fwd_page_map : NULL;
    if (map) document->pdf->fwd_page_map = NULL;
    return map;
}

/// Puts back what hide_forward_map took away.
void shim_show_forward_map(CMuPDF_document *document, int *map) {
    if (map) document->pdf->fwd_page_map = map;
}

int CMuPDF_page_links(CMuPDF_document *document, int index, CMuPDF_link **links, int *count,
                             CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    *links = NULL;
    *count = 0;
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    fz_context *ctx = shim_enter(document);
    fz_page *page = NULL;
    fz_link *head = NULL;
    CMuPDF_link *out = NULL;
    int *hidden_map = NULL;
    fz_var(page);
    fz_var(head);
    fz_var(out);
    fz_var(hidden_map);
    fz_try(ctx) {
        // A link may lead to any page, and MuPDF looks its target up in the page map (to place
        // the destination): the whole tree must be walked first. Then the count is the real one.
        if (document->pdf) shim_walk_locked(document, INT_MAX, INT_MAX);
        int page_count = atomic_load(&document->page_count);
        // Loading the page reads its annotations and links (pdf_load_page), not its content.
        page = shim_load_page_locked(document, index);
        // Link parsing resolves destinations: see hide_forward_map.
        hidden_map = shim_hide_forward_map(document);
        head = fz_load_links(ctx, page);
        // The link rects are in fitz page space (rotated, y down); the caller wants PDF user space.
        fz_matrix to_user = fz_invert_matrix(shim_page_transform(ctx, page));
        size_t n = 0, text = 0;
        for (fz_link *link = head; link; link = link->next) {
            n++;
            if (link->uri) text += strlen(link->uri) + 1;
        }
        // One plain malloc block, the links and then their URIs: the caller frees it without a
        // MuPDF context, with one free().
        out = malloc(sizeof *out * (n ? n : 1) + text);
        if (!out) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory listing %zu links", n);
        char *strings = (char *)(out + (n ? n : 1));
        int i = 0;
        for (fz_link *link = head; link; link = link->next) {
            if (!link->uri || !link->uri[0]) continue;
            CMuPDF_link *entry = &out[i];
            if (fz_is_external_link(ctx, link->uri)) {
                size_t length = strlen(link->uri) + 1;
                memcpy(strings, link->uri, length);
                entry->uri = strings;
                entry->page = -1;
                strings += length;
            } else {
                int target = -1;
                fz_var(target);
                // A destination that does not resolve to a page of the document skips that link, not
                // the page. (MuPDF 1.21 already drops most such links when it loads the page: missing
                // named destinations, page numbers past the end; this is the net for the rest.)
                fz_try(ctx) {
                    fz_location location = fz_resolve_link(ctx, document->doc, link->uri, NULL, NULL);
                    if (location.chapter >= 0 && location.page >= 0)
                        target = fz_page_number_from_location(ctx, document->doc, location);
                }
                fz_catch(ctx) {
                    fz_warn(ctx, "page %d: skipping the link to %s: %s", index + 1, link->uri, fz_caught_message(ctx));
                    target = -1;
                }
                if (target < 0 || target >= page_count) continue;
                entry->uri = NULL;
                entry->page = target;
            }
            shim_copy_user_rect(entry->rect, link->rect, to_user);
            i++;
        }
        *links = out;
        *count = i;
    }
    fz_always(ctx) {
        shim_show_forward_map(document, hidden_map);
        fz_drop_link(ctx, head);
        fz_drop_page(ctx, page);
    }
    fz_catch(ctx) {
        free(out);
        *links = NULL;
        *count = 0;
        status = shim_caught(ctx, error);
    }
    return shim_leave(document, status);
}

// MARK: - Text for search

int CMuPDF_page_text_chars(CMuPDF_document *document, int index, CMuPDF_text_char **chars, int *count,
                           CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    *chars = NULL;
    *count = 0;
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    fz_context *ctx = shim_enter(document);
    fz_page *page = NULL;
    fz_stext_page *text = NULL;
    CMuPDF_text_char *out = NULL;
    fz_var(page);
    fz_var(text);
    fz_var(out);
    fz_try(ctx) {
        page = shim_load_page_locked(document, index);
        // What is outside the crop box is not shown, so it is not found either; a word broken
        // over two lines with a hyphen is found whole.
        fz_stext_options options = {.flags = FZ_STEXT_MEDIABOX_CLIP | FZ_STEXT_DEHYPHENATE};
        text = fz_new_stext_page_from_page(ctx, page, &options);
        size_t n = 0;
        for (fz_stext_block *block = text->first_block; block; block = block->next) {
            if (block->type != FZ_STEXT_BLOCK_TEXT) continue;
            for (fz_stext_line *line = block->u.t.first_line; line; line = line->next)
                for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) n++;
        }
        if (n > INT_MAX / (int)sizeof *out) fz_throw(ctx, FZ_ERROR_GENERIC, "page %d has too much text", index + 1);
        if (n > 0) {
            // Plain malloc: the caller frees it without a MuPDF context.
            out = malloc(sizeof *out * n);
            if (!out) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory listing %zu characters", n);
            // The text is in fitz page space (rotated, y down); the caller wants PDF user space.
            fz_matrix to_user = fz_invert_matrix(shim_page_transform(ctx, page));
            size_t i = 0;
            for (fz_stext_block *block = text->first_block; block; block = block->next) {
                if (block->type != FZ_STEXT_BLOCK_TEXT) continue;
                for (fz_stext_line *line = block->u.t.first_line; line; line = line->next) {
                    for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) {
                        out[i].c = ch->c;
                        out[i].flags = ch == line->first_char ? CMUPDF_TEXT_LINE_START : 0;
                        shim_copy_user_rect(out[i].box, fz_rect_from_quad(ch->quad), to_user);
                        i++;
                    }
                }
            }
            *chars = out;
            *count = (int)n;
        }
    }
    fz_always(ctx) {
        fz_drop_stext_page(ctx, text);
        fz_drop_page(ctx, page);
    }
    fz_catch(ctx) {
        free(out);
        *chars = NULL;
        *count = 0;
        status = shim_caught(ctx, error);
    }
    return shim_leave(document, status);
}
