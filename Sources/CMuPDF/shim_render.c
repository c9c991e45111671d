// CMuPDF: pages, cookies, the display-list cache and rendering tiles.
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

// MARK: - Pages

/// Loads page `index` with the document context (fz_load_page: the page dictionary, its annotations
/// and links; not its content). Call with doc_lock held, inside fz_try (throws); drop the page with
/// fz_drop_page before releasing doc_lock.
fz_page *shim_load_page_locked(CMuPDF_document *document, int index) {
    fz_context *ctx = document->ctx;
    pdf_document *pdf = document->pdf;
    int *hidden = NULL;
    if (pdf) {
        shim_walk_to_page_locked(document, index);
        // A page whose object is gone: MuPDF's map lookup would throw (pdf_load_object), its
        // own tree walk returns the dangling reference, which loads as a blank page.
        if (document->walk.pages[index] < 0) {
            hidden = pdf->fwd_page_map;
            pdf->fwd_page_map = NULL;
        }
    }
    fz_page *page = NULL;
    fz_try(ctx) page = fz_load_page(ctx, document->doc, index);
    fz_always(ctx) {
        if (hidden) pdf->fwd_page_map = hidden;
    }
    fz_catch(ctx) fz_rethrow(ctx);
#if FZ_VERSION_MAJOR == 1 && FZ_VERSION_MINOR < 22
    // pdf_load_page keeps the page object it got from pdf_lookup_page_obj, which in 1.21 is itself
    // a kept reference when it came from the page map (see lookup_page_obj): give that one back.
    // Only for a freshly loaded page (refs 1): fz_load_page returns a page still open as it is.
    pdf_page *pdf_page = pdf_page_from_fz_page(ctx, page);
    if (pdf_page && page->refs == 1 && pdf && !hidden && pdf->fwd_page_map) pdf_drop_obj(ctx, pdf_page->obj);
#endif
    return page;
}

/// PDF user space -> fitz page space (rotated, y down) of a loaded page (pdf_page_transform), the
/// space of its display list and of its links. Other formats have no user space: theirs is their
/// bounds flipped (y up, as Lectern reads every page's boxes; see page_info_by_loading_locked).
/// Call inside fz_try.
fz_matrix shim_page_transform(fz_context *ctx, fz_page *page) {
    fz_matrix ctm = fz_identity;
    pdf_page *pdf_page = pdf_page_from_fz_page(ctx, page);
    if (pdf_page) {
        pdf_page_transform(ctx, pdf_page, NULL, &ctm);
    } else {
        fz_rect bounds = fz_bound_page(ctx, page);
        ctm = fz_make_matrix(1, 0, 0, -1, 0, bounds.y0 + bounds.y1);
    }
    return ctm;
}

/// Copies `rect`, in fitz page space, as PDF user space (unrotated, y up) to `out`. `to_user` is the
/// inverse of the page's page_transform.
void shim_copy_user_rect(float out[4], fz_rect rect, fz_matrix to_user) {
    shim_copy_rect(out, fz_transform_rect(rect, to_user));
}

// MARK: - Cookies

struct CMuPDF_cookie {
    fz_cookie cookie;
};

CMuPDF_cookie *CMuPDF_cookie_new(void) { return calloc(1, sizeof(CMuPDF_cookie)); }

void CMuPDF_cookie_drop(CMuPDF_cookie *cookie) { free(cookie); }

size_t CMuPDF_cookie_size(void) { return sizeof(CMuPDF_cookie); }

CMuPDF_cookie *CMuPDF_cookie_at(void *memory) {
    memset(memory, 0, sizeof(CMuPDF_cookie));
    return memory;
}

// MuPDF polls `abort` without synchronization; a relaxed atomic store is the documented use.
void CMuPDF_cookie_abort(CMuPDF_cookie *cookie) {
    __atomic_store_n(&cookie->cookie.abort, 1, __ATOMIC_RELAXED);
}

int CMuPDF_cookie_is_aborted(CMuPDF_cookie *cookie) {
    return __atomic_load_n(&cookie->cookie.abort, __ATOMIC_RELAXED) != 0;
}

int CMuPDF_cookie_progress(CMuPDF_cookie *cookie) {
    return __atomic_load_n(&cookie->cookie.progress, __ATOMIC_RELAXED);
}

// MARK: - Display lists

/// Looks page `index` up in the cache; on a hit keeps a reference for the caller (`ctx`: any context
/// of this thread). Takes cache_lock only.
static int find_cached_list(CMuPDF_document *document, fz_context *ctx, int index, list_ref *out) {
    int found = 0;
    pthread_mutex_lock(&document->cache_lock);
    for (int i = 0; i < LECTERN_LIST_CACHE_SIZE; i++) {
        cached_list *entry = &document->lists[i];
        if (entry->list && entry->index == index) {
            entry->last_use = ++document->use_clock;
            out->list = fz_keep_display_list(ctx, entry->list); // never throws
            out->bounds = entry->bounds;
            out->page_ctm = entry->page_ctm;
            out->errors = entry->errors;
            found = 1;
            break;
        }
    }
    pthread_mutex_unlock(&document->cache_lock);
    return found;
}

/// Records page `index` with the document context. Call with doc_lock held, inside fz_try (throws).
/// Returns NULL when the cookie aborted the recording (an incomplete list is never cached).
static fz_display_list *record_list_locked(CMuPDF_document *document, int index, fz_cookie *cookie,
                                           list_ref *out) {
    fz_context *ctx = document->ctx;
    fz_page *page = NULL;
    fz_display_list *list = NULL;
    fz_device *device = NULL;
    int errors_before = cookie->errors;
    fz_var(page);
    fz_var(list);
    fz_var(device);
    fz_try(ctx) {
        page = shim_load_page_locked(document, index);
        out->bounds = fz_bound_page(ctx, page);
        out->page_ctm = shim_page_transform(ctx, page);
        list = fz_new_display_list(ctx, out->bounds);
        device = fz_new_list_device(ctx, list);
        fz_run_page(ctx, page, device, fz_identity, cookie);
        fz_close_device(ctx, device);
    }
    fz_always(ctx) {
        fz_drop_device(ctx, device);
        fz_drop_page(ctx, page);
    }
    fz_catch(ctx) {
        fz_drop_display_list(ctx, list);
        fz_rethrow(ctx);
    }
    if (cookie->abort) {
        fz_drop_display_list(ctx, list);
        return NULL;
    }
    out->errors = cookie->errors - errors_before;
    cookie->errors = errors_before; // the caller adds out->errors, on this render and on every replay
    // MuPDF keeps every object it has parsed in its xref until the document closes: leafing through
    // a 15,000-page document would keep every page's content stream and resource dictionaries.
    // Every 16 pages recorded, the objects nothing else holds are dropped (pdf_clear_xref drops
    // only those with one reference: the page walk keeps its nodes, the store and open pages theirs).
    if (document->pdf && ++document->recorded % 16 == 0) {
        fz_try(ctx) shim_clear_unedited_objects(ctx, document->pdf);
        fz_catch(ctx) fz_warn(ctx, "could not drop cached objects: %s", fz_caught_message(ctx));
    }
    return list;
}

/// Stores a newly recorded list (taking the caller's reference) and evicts the least recently used.
/// Call with doc_lock held.
static void cache_list_locked(CMuPDF_document *document, int index, fz_display_list *list, const list_ref *ref) {
    fz_display_list *evicted = NULL;
    pthread_mutex_lock(&document->cache_lock);
    cached_list *slot = &document->lists[0];
    for (int i = 0; i < LECTERN_LIST_CACHE_SIZE; i++) {
        cached_list *entry = &document->lists[i];
        if (!entry->list) {
            slot = entry;
            break;
        }
        if (entry->last_use < slot->last_use) slot = entry;
    }
    evicted = slot->list;
    slot->list = list;
    slot->index = index;
    slot->bounds = ref->bounds;
    slot->page_ctm = ref->page_ctm;
    slot->errors = ref->errors;
    slot->last_use = ++document->use_clock;
    pthread_mutex_unlock(&document->cache_lock);
    // A render still replaying the evicted list holds its own reference: this only drops the cache's.
    fz_drop_display_list(document->ctx, evicted);
}

/// The display list of page `index` with a reference for the caller: from the cache, or recorded
/// under doc_lock. `ctx` is the caller's pooled context. Returns a status (ABORT when cancelled).
static int acquire_list(CMuPDF_document *document, fz_context *ctx, int index, fz_cookie *cookie,
                        list_ref *out, CMuPDF_error *error) {
    memset(out, 0, sizeof *out);
    if (find_cached_list(document, ctx, index, out)) return CMUPDF_OK;
    int status = shim_lock_document(document, cookie, error);
    if (status != CMUPDF_OK) return status;
    // Another thread may have recorded it while this one waited.
    if (find_cached_list(document, ctx, index, out)) {
        shim_unlock_document(document);
        return CMUPDF_OK;
    }
    fz_context *doc_ctx = document->ctx;
    fz_display_list *list = NULL;
    fz_try(doc_ctx) list = record_list_locked(document, index, cookie, out);
    fz_catch(doc_ctx) status = shim_caught(doc_ctx, error);
    if (status == CMUPDF_OK && list) {
        out->list = fz_keep_display_list(doc_ctx, list);
        cache_list_locked(document, index, list, out);
    } else if (status == CMUPDF_OK) {
        shim_set_error(error, CMUPDF_ERROR_ABORT, "render cancelled");
        status = CMUPDF_ERROR_ABORT;
    }
    return shim_leave(document, status);
}

// MARK: - Rendering

/// Page space -> the pixels of the region (x, y) of the page scaled by `scale`: device pixel (0,0)
/// is the top-left of the scaled, rotated page, then moved to the region's corner.
fz_matrix shim_tile_ctm(const list_ref *ref, float scale, int x, int y) {
    fz_matrix ctm = fz_scale(scale, scale);
    fz_rect bounds = fz_transform_rect(ref->bounds, ctm);
    return fz_concat(ctm, fz_translate(-bounds.x0 - (float)x, -bounds.y0 - (float)y));
}

/// Checks `index`, checks out a context into `*ctx` and acquires the page's display list into `ref`.
/// On success the caller drops ref->list and checks `*ctx` back in; on failure nothing is left to do.
int shim_checkout_list(CMuPDF_document *document, int index, fz_cookie *cookie, fz_context **ctx,
                         list_ref *ref, CMuPDF_error *error) {
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    *ctx = shim_checkout_context(document, error);
    if (!*ctx) return CMUPDF_ERROR_NO_CONTEXT;
    status = acquire_list(document, *ctx, index, cookie, ref, error);
    if (status != CMUPDF_OK) shim_checkin_context(document, *ctx);
    return status;
}

int CMuPDF_page_prepare(CMuPDF_document *document, int index, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    fz_context *ctx = NULL;
    fz_cookie cookie = {0};
    list_ref ref;
    int status = shim_checkout_list(document, index, &cookie, &ctx, &ref, error);
    if (status != CMUPDF_OK) return status;
    fz_drop_display_list(ctx, ref.list); // the cache keeps its own reference
    shim_checkin_context(document, ctx);
    return CMUPDF_OK;
}

int CMuPDF_page_render(CMuPDF_document *document, int index, float scale, int x, int y, int width,
                              int height, unsigned char *pixels, ptrdiff_t stride, CMuPDF_cookie *cookie,
                              CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    if (width <= 0 || height <= 0 || !pixels || stride < (ptrdiff_t)width * 4 || stride > INT32_MAX ||
        !(scale > 0)) {
        shim_set_error(error, CMUPDF_ERROR_ARGUMENT, "invalid render region, stride or scale");
        return CMUPDF_ERROR_ARGUMENT;
    }
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    fz_cookie local_cookie = {0};
    fz_cookie *fzcookie = cookie ? &cookie->cookie : &local_cookie;
    if (cookie) {
        // Errors are counted per render; an abort requested before the render starts stands.
        fzcookie->errors = 0;
        fzcookie->progress = 0;
        fzcookie->progress_max = 0;
        fzcookie->incomplete = 0;
        if (CMuPDF_cookie_is_aborted(cookie)) {
            shim_set_error(error, CMUPDF_ERROR_ABORT, "render cancelled");
            return CMUPDF_ERROR_ABORT;
        }
    }
    fz_context *ctx = shim_checkout_context(document, error);
    if (!ctx) return CMUPDF_ERROR_NO_CONTEXT;
    unsigned refused_before = shim_refused_here;
    list_ref ref;
    status = acquire_list(document, ctx, index, fzcookie, &ref, error);
    if (status != CMUPDF_OK) {
        shim_checkin_context(document, ctx);
        return status;
    }
    // From here on no document lock: only this thread's context, the list and the caller's memory.
    fz_pixmap *pixmap = NULL;
    fz_device *device = NULL;
    fz_var(pixmap);
    fz_var(device);
    fz_try(ctx) {
        fz_matrix ctm = shim_tile_ctm(&ref, scale, x, y);
        pixmap = fz_new_pixmap_with_data(ctx, fz_device_bgr(ctx), width, height, NULL, 1, (int)stride, pixels);
        fz_clear_pixmap_with_value(ctx, pixmap, 0xFF);
        device = fz_new_draw_device(ctx, fz_identity, pixmap);
        // The scissor (device space) lets the list skip everything outside this tile.
        fz_run_display_list(ctx, ref.list, device, ctm, fz_make_rect(0, 0, (float)width, (float)height), fzcookie);
        fz_close_device(ctx, device);
    }
    fz_always(ctx) {
        fz_drop_device(ctx, device);
        fz_drop_pixmap(ctx, pixmap); // frees the fz_pixmap only; the samples stay the caller's
        fz_drop_display_list(ctx, ref.list);
    }
    fz_catch(ctx) status = shim_caught(ctx, error);
    shim_checkin_context(document, ctx);
    if (status != CMUPDF_OK) return status;
    if (fzcookie->abort) {
        shim_set_error(error, CMUPDF_ERROR_ABORT, "render cancelled");
        return CMUPDF_ERROR_ABORT;
    }
    if (shim_refused_here != refused_before) {
        // MuPDF carried on without what the cap refused (an image left out, or drawn black).
        shim_set_error(error, CMUPDF_ERROR_MEMORY, "the page needs more memory than MuPDF may take");
        return CMUPDF_ERROR_MEMORY;
    }
    int errors = fzcookie->errors + ref.errors;
    if (errors > 0) {
        char message[128];
        snprintf(message, sizeof message, "%d error(s) in the page content", errors);
        shim_set_error(error, CMUPDF_ERROR_CONTENT, message);
        return CMUPDF_ERROR_CONTENT;
    }
    return CMUPDF_OK;
}
