// CMuPDF shim: every throwing MuPDF call wrapped in fz_try/fz_always/fz_catch (see CMuPDF.h).
#include "CMuPDF.h"

#include <mupdf/fitz.h>
#include <mupdf/pdf.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Errors and logging

static _Atomic(lectern_mupdf_log_sink) log_sink = NULL;

void lectern_mupdf_set_log_sink(lectern_mupdf_log_sink sink) { atomic_store(&log_sink, sink); }

// `user` is the file the context works on (a string owned by the document), or NULL.
static void forward_error(void *user, const char *message) {
    lectern_mupdf_log_sink sink = atomic_load(&log_sink);
    if (sink) sink(LECTERN_MUPDF_LOG_ERROR, user, message);
}

static void forward_warning(void *user, const char *message) {
    lectern_mupdf_log_sink sink = atomic_load(&log_sink);
    if (sink) sink(LECTERN_MUPDF_LOG_WARNING, user, message);
}

static void install_log_callbacks(fz_context *ctx, const char *source) {
    fz_set_error_callback(ctx, forward_error, (void *)source);
    fz_set_warning_callback(ctx, forward_warning, (void *)source);
}

static void set_error(lectern_mupdf_error *error, int status, const char *message) {
    if (!error) return;
    error->status = status;
    snprintf(error->message, sizeof error->message, "%s", message ? message : "");
}

/// Copies MuPDF's current exception into `error`; call only inside fz_catch.
static int caught(fz_context *ctx, lectern_mupdf_error *error) {
    int code = fz_caught(ctx);
    if (code == FZ_ERROR_NONE) code = FZ_ERROR_GENERIC;
    set_error(error, code, fz_caught_message(ctx));
    return code;
}

// MARK: - Base context and its locks

struct lectern_mupdf_context {
    fz_context *ctx;
    pthread_mutex_t mutexes[FZ_LOCK_MAX];
    fz_locks_context locks;
};

static void lock_mutex(void *user, int lock) {
    struct lectern_mupdf_context *context = user;
    pthread_mutex_lock(&context->mutexes[lock]);
}

static void unlock_mutex(void *user, int lock) {
    struct lectern_mupdf_context *context = user;
    pthread_mutex_unlock(&context->mutexes[lock]);
}

lectern_mupdf_context *lectern_mupdf_context_new(lectern_mupdf_error *error) {
    set_error(error, LECTERN_MUPDF_OK, "");
    lectern_mupdf_context *context = calloc(1, sizeof *context);
    if (!context) {
        set_error(error, LECTERN_MUPDF_ERROR_MEMORY, "out of memory allocating the MuPDF context");
        return NULL;
    }
    for (int i = 0; i < FZ_LOCK_MAX; i++) pthread_mutex_init(&context->mutexes[i], NULL);
    context->locks.user = context;
    context->locks.lock = lock_mutex;
    context->locks.unlock = unlock_mutex;
    context->ctx = fz_new_context(NULL, &context->locks, FZ_STORE_DEFAULT);
    if (!context->ctx) {
        for (int i = 0; i < FZ_LOCK_MAX; i++) pthread_mutex_destroy(&context->mutexes[i]);
        free(context);
        set_error(error, LECTERN_MUPDF_ERROR_NO_CONTEXT, "MuPDF could not create a context");
        return NULL;
    }
    install_log_callbacks(context->ctx, NULL);
    int failed = 0;
    fz_try(context->ctx) fz_register_document_handlers(context->ctx);
    fz_catch(context->ctx) failed = caught(context->ctx, error);
    if (failed) {
        lectern_mupdf_context_drop(context);
        return NULL;
    }
    return context;
}

void lectern_mupdf_context_drop(lectern_mupdf_context *context) {
    if (!context) return;
    fz_drop_context(context->ctx);
    for (int i = 0; i < FZ_LOCK_MAX; i++) pthread_mutex_destroy(&context->mutexes[i]);
    free(context);
}

/// A context cloned from `base` with our log callbacks naming `source` (clones share the store and
/// locks). `source` must outlive the context.
static fz_context *clone_context(lectern_mupdf_context *base, const char *source, lectern_mupdf_error *error) {
    fz_context *ctx = base ? fz_clone_context(base->ctx) : NULL;
    if (!ctx) {
        set_error(error, LECTERN_MUPDF_ERROR_NO_CONTEXT, "MuPDF could not clone its context");
        return NULL;
    }
    install_log_callbacks(ctx, source);
    return ctx;
}

// MARK: - Documents

/// How many pages keep their display list: a screen of tiles usually touches one or two pages.
#define LECTERN_LIST_CACHE_SIZE 4

/// A page's content recorded once (fz_display_list) and replayed for every tile and scale.
typedef struct cached_list {
    fz_display_list *list; // owned; NULL for an empty slot
    int index;
    fz_rect bounds;        // fz_bound_page: the rotated crop box in points
    int errors;            // content errors MuPDF counted while recording
    unsigned long last_use;
} cached_list;

struct lectern_mupdf_document {
    fz_context *ctx;   // owned: cloned from the base context
    fz_document *doc;  // owned
    pdf_document *pdf; // borrowed from doc; NULL when not a PDF
    char *path;        // owned: names the file in log lines
    cached_list lists[LECTERN_LIST_CACHE_SIZE];
    unsigned long use_clock;
};

lectern_mupdf_document *lectern_mupdf_document_open(lectern_mupdf_context *base, const char *path,
                                                    lectern_mupdf_error *error) {
    set_error(error, LECTERN_MUPDF_OK, "");
    lectern_mupdf_document *document = calloc(1, sizeof *document);
    char *path_copy = strdup(path);
    if (!document || !path_copy) {
        free(document);
        free(path_copy);
        set_error(error, LECTERN_MUPDF_ERROR_MEMORY, "out of memory");
        return NULL;
    }
    document->path = path_copy;
    fz_context *ctx = clone_context(base, document->path, error);
    if (!ctx) {
        free(document->path);
        free(document);
        return NULL;
    }
    fz_document *doc = NULL;
    int failed = 0;
    fz_try(ctx) doc = fz_open_document(ctx, path);
    fz_catch(ctx) failed = caught(ctx, error);
    if (failed || !doc) {
        if (!failed) set_error(error, LECTERN_MUPDF_ERROR_GENERIC, "MuPDF returned no document");
        fz_drop_context(ctx);
        free(document->path);
        free(document);
        return NULL;
    }
    document->ctx = ctx;
    document->doc = doc;
    document->pdf = pdf_document_from_fz_document(ctx, doc);
    return document;
}

void lectern_mupdf_document_drop(lectern_mupdf_document *document) {
    if (!document) return;
    for (int i = 0; i < LECTERN_LIST_CACHE_SIZE; i++) fz_drop_display_list(document->ctx, document->lists[i].list);
    fz_drop_document(document->ctx, document->doc);
    fz_drop_context(document->ctx); // flushes repeated warnings, which still name document->path
    free(document->path);
    free(document);
}

int lectern_mupdf_document_needs_password(lectern_mupdf_document *document, lectern_mupdf_error *error) {
    set_error(error, LECTERN_MUPDF_OK, "");
    fz_context *ctx = document->ctx;
    int needs = 0;
    fz_try(ctx) needs = fz_needs_password(ctx, document->doc);
    fz_catch(ctx) {
        caught(ctx, error);
        return -1;
    }
    return needs ? 1 : 0;
}

int lectern_mupdf_document_authenticate(lectern_mupdf_document *document, const char *password,
                                        lectern_mupdf_error *error) {
    set_error(error, LECTERN_MUPDF_OK, "");
    fz_context *ctx = document->ctx;
    int ok = 0;
    fz_try(ctx) ok = fz_authenticate_password(ctx, document->doc, password);
    fz_catch(ctx) {
        caught(ctx, error);
        return -1;
    }
    return ok ? 1 : 0;
}

int lectern_mupdf_document_count_pages(lectern_mupdf_document *document, int *count, lectern_mupdf_error *error) {
    set_error(error, LECTERN_MUPDF_OK, "");
    fz_context *ctx = document->ctx;
    fz_try(ctx) *count = fz_count_pages(ctx, document->doc);
    fz_catch(ctx) return caught(ctx, error);
    return LECTERN_MUPDF_OK;
}

int lectern_mupdf_document_was_repaired(lectern_mupdf_document *document) {
    return document->pdf ? (pdf_was_repaired(document->ctx, document->pdf) ? 1 : 0) : 0;
}

int lectern_mupdf_document_is_pdf(lectern_mupdf_document *document) { return document->pdf ? 1 : 0; }

int lectern_mupdf_document_is_right_to_left(lectern_mupdf_document *document, int *rtl, lectern_mupdf_error *error) {
    set_error(error, LECTERN_MUPDF_OK, "");
    *rtl = 0;
    if (!document->pdf) return LECTERN_MUPDF_OK;
    fz_context *ctx = document->ctx;
    fz_try(ctx) {
        pdf_obj *direction = pdf_dict_getp(ctx, pdf_trailer(ctx, document->pdf), "Root/ViewerPreferences/Direction");
        *rtl = strcmp(pdf_to_name(ctx, direction), "R2L") == 0 ? 1 : 0; // R2L has no PDF_NAME constant
    }
    fz_catch(ctx) return caught(ctx, error);
    return LECTERN_MUPDF_OK;
}

static void copy_rect(float out[4], fz_rect rect) {
    out[0] = rect.x0;
    out[1] = rect.y0;
    out[2] = rect.x1;
    out[3] = rect.y1;
}

static int check_index(lectern_mupdf_document *document, int index, lectern_mupdf_error *error) {
    int count = 0;
    int status = lectern_mupdf_document_count_pages(document, &count, error);
    if (status != LECTERN_MUPDF_OK) return status;
    if (index < 0 || index >= count) {
        char message[128];
        snprintf(message, sizeof message, "page index %d is out of range 0..<%d", index, count);
        set_error(error, LECTERN_MUPDF_ERROR_ARGUMENT, message);
        return LECTERN_MUPDF_ERROR_ARGUMENT;
    }
    return LECTERN_MUPDF_OK;
}

int lectern_mupdf_page_get_info(lectern_mupdf_document *document, int index, lectern_mupdf_page_info *info,
                                lectern_mupdf_error *error) {
    int status = check_index(document, index, error);
    if (status != LECTERN_MUPDF_OK) return status;
    fz_context *ctx = document->ctx;
    fz_page *page = NULL;
    memset(info, 0, sizeof *info);
    fz_var(page);
    fz_try(ctx) {
        page = fz_load_page(ctx, document->doc, index);
        fz_rect bounds = fz_bound_page(ctx, page);
        copy_rect(info->bounds, bounds);
        pdf_page *pdf_page = pdf_page_from_fz_page(ctx, page);
        if (pdf_page) {
            pdf_obj *obj = pdf_page->obj;
            fz_rect media = pdf_to_rect(ctx, pdf_dict_get_inheritable(ctx, obj, PDF_NAME(MediaBox)));
            if (fz_is_empty_rect(media)) media = fz_make_rect(0, 0, 612, 792); // MuPDF's own default
            fz_rect crop = pdf_to_rect(ctx, pdf_dict_get_inheritable(ctx, obj, PDF_NAME(CropBox)));
            crop = fz_is_empty_rect(crop) ? media : fz_intersect_rect(crop, media);
            copy_rect(info->media_box, media);
            copy_rect(info->crop_box, crop);
            int rotate = pdf_to_int(ctx, pdf_dict_get_inheritable(ctx, obj, PDF_NAME(Rotate)));
            rotate = ((rotate % 360) + 360) % 360;
            info->rotation = (rotate / 90) * 90;
        } else {
            // Not a PDF (an image): the bounds are all there is.
            copy_rect(info->media_box, bounds);
            copy_rect(info->crop_box, bounds);
            info->rotation = 0;
        }
    }
    fz_always(ctx) fz_drop_page(ctx, page);
    fz_catch(ctx) return caught(ctx, error);
    return LECTERN_MUPDF_OK;
}

// MARK: - Cookies

struct lectern_mupdf_cookie {
    fz_cookie cookie;
};

lectern_mupdf_cookie *lectern_mupdf_cookie_new(void) { return calloc(1, sizeof(lectern_mupdf_cookie)); }

void lectern_mupdf_cookie_drop(lectern_mupdf_cookie *cookie) { free(cookie); }

// MuPDF polls `abort` without synchronization; a relaxed atomic store is the documented use.
void lectern_mupdf_cookie_abort(lectern_mupdf_cookie *cookie) {
    __atomic_store_n(&cookie->cookie.abort, 1, __ATOMIC_RELAXED);
}

int lectern_mupdf_cookie_is_aborted(lectern_mupdf_cookie *cookie) {
    return __atomic_load_n(&cookie->cookie.abort, __ATOMIC_RELAXED) != 0;
}

// MARK: - Rendering

/// The display list of page `index`, recorded now if it is not cached. Call only inside fz_try (throws).
/// Returns NULL when the cookie aborted the recording (an incomplete list is never cached).
static cached_list *page_display_list(lectern_mupdf_document *document, int index, fz_cookie *cookie) {
    fz_context *ctx = document->ctx;
    for (int i = 0; i < LECTERN_LIST_CACHE_SIZE; i++) {
        cached_list *entry = &document->lists[i];
        if (entry->list && entry->index == index) {
            entry->last_use = ++document->use_clock;
            return entry;
        }
    }
    fz_page *page = NULL;
    fz_display_list *list = NULL;
    fz_device *device = NULL;
    fz_rect bounds = fz_empty_rect;
    int errors_before = cookie->errors;
    fz_var(page);
    fz_var(list);
    fz_var(device);
    fz_try(ctx) {
        page = fz_load_page(ctx, document->doc, index);
        bounds = fz_bound_page(ctx, page);
        list = fz_new_display_list(ctx, bounds);
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
    cached_list *slot = &document->lists[0];
    for (int i = 0; i < LECTERN_LIST_CACHE_SIZE; i++) {
        cached_list *entry = &document->lists[i];
        if (!entry->list) {
            slot = entry;
            break;
        }
        if (entry->last_use < slot->last_use) slot = entry;
    }
    fz_drop_display_list(ctx, slot->list);
    slot->list = list;
    slot->index = index;
    slot->bounds = bounds;
    slot->errors = cookie->errors - errors_before;
    cookie->errors = errors_before; // the caller adds slot->errors, on this render and on every replay
    slot->last_use = ++document->use_clock;
    return slot;
}


int lectern_mupdf_page_render(lectern_mupdf_document *document, int index, float scale, int x, int y, int width,
                              int height, unsigned char *pixels, ptrdiff_t stride, lectern_mupdf_cookie *cookie,
                              lectern_mupdf_error *error) {
    if (width <= 0 || height <= 0 || !pixels || stride < (ptrdiff_t)width * 4 || stride > INT32_MAX ||
        !(scale > 0)) {
        set_error(error, LECTERN_MUPDF_ERROR_ARGUMENT, "invalid render region, stride or scale");
        return LECTERN_MUPDF_ERROR_ARGUMENT;
    }
    int status = check_index(document, index, error);
    if (status != LECTERN_MUPDF_OK) return status;
    fz_context *ctx = document->ctx;
    fz_cookie local_cookie = {0};
    fz_cookie *fzcookie = cookie ? &cookie->cookie : &local_cookie;
    if (cookie) {
        // Errors are counted per render; an abort requested before the render starts stands.
        fzcookie->errors = 0;
        fzcookie->progress = 0;
        fzcookie->progress_max = 0;
        fzcookie->incomplete = 0;
        if (lectern_mupdf_cookie_is_aborted(cookie)) {
            set_error(error, LECTERN_MUPDF_ERROR_ABORT, "render cancelled");
            return LECTERN_MUPDF_ERROR_ABORT;
        }
    }
    fz_pixmap *pixmap = NULL;
    fz_device *device = NULL;
    int recorded_errors = 0;
    fz_var(pixmap);
    fz_var(device);
    fz_try(ctx) {
        cached_list *entry = page_display_list(document, index, fzcookie);
        if (entry) {
            recorded_errors = entry->errors;
            fz_matrix ctm = fz_scale(scale, scale);
            fz_rect bounds = fz_transform_rect(entry->bounds, ctm);
            // Device pixel (0,0) is the top-left of the scaled, rotated page; then move the region there.
            ctm = fz_concat(ctm, fz_translate(-bounds.x0 - (float)x, -bounds.y0 - (float)y));
            pixmap = fz_new_pixmap_with_data(ctx, fz_device_bgr(ctx), width, height, NULL, 1, (int)stride, pixels);
            fz_clear_pixmap_with_value(ctx, pixmap, 0xFF);
            device = fz_new_draw_device(ctx, fz_identity, pixmap);
            // The scissor (device space) lets the list skip everything outside this tile.
            fz_run_display_list(ctx, entry->list, device, ctm, fz_make_rect(0, 0, (float)width, (float)height),
                                fzcookie);
            fz_close_device(ctx, device);
        }
    }
    fz_always(ctx) {
        fz_drop_device(ctx, device);
        fz_drop_pixmap(ctx, pixmap); // frees the fz_pixmap only; the samples stay the caller's
    }
    fz_catch(ctx) return caught(ctx, error);
    if (fzcookie->abort) {
        set_error(error, LECTERN_MUPDF_ERROR_ABORT, "render cancelled");
        return LECTERN_MUPDF_ERROR_ABORT;
    }
    int errors = fzcookie->errors + recorded_errors;
    if (errors > 0) {
        char message[128];
        snprintf(message, sizeof message, "%d error(s) in the page content", errors);
        set_error(error, LECTERN_MUPDF_ERROR_CONTENT, message);
        return LECTERN_MUPDF_ERROR_CONTENT;
    }
    set_error(error, LECTERN_MUPDF_OK, "");
    return LECTERN_MUPDF_OK;
}

// MARK: - PNG

int lectern_mupdf_write_png(lectern_mupdf_context *base, const unsigned char *bgra, int width, int height,
                            ptrdiff_t stride, const char *path, lectern_mupdf_error *error) {
    if (width <= 0 || height <= 0 || !bgra || stride < (ptrdiff_t)width * 4 || stride > INT32_MAX) {
        set_error(error, LECTERN_MUPDF_ERROR_ARGUMENT, "invalid image size or stride");
        return LECTERN_MUPDF_ERROR_ARGUMENT;
    }
    set_error(error, LECTERN_MUPDF_OK, "");
    fz_context *ctx = clone_context(base, path, error);
    if (!ctx) return LECTERN_MUPDF_ERROR_NO_CONTEXT;
    fz_pixmap *rgb = NULL;
    int status = LECTERN_MUPDF_OK;
    fz_var(rgb);
    fz_try(ctx) {
        // The PNG writer wants gray or RGB, and fz_convert_pixmap cannot drop alpha; a screen frame is
        // opaque, so copy B, G, R into an RGB pixmap and ignore A.
        rgb = fz_new_pixmap(ctx, fz_device_rgb(ctx), width, height, NULL, 0);
        for (int y = 0; y < height; y++) {
            const unsigned char *in = bgra + (ptrdiff_t)y * stride;
            unsigned char *out = rgb->samples + (ptrdiff_t)y * rgb->stride;
            for (int x = 0; x < width; x++, in += 4, out += 3) {
                out[0] = in[2];
                out[1] = in[1];
                out[2] = in[0];
            }
        }
        fz_save_pixmap_as_png(ctx, rgb, path);
    }
    fz_always(ctx) fz_drop_pixmap(ctx, rgb);
    fz_catch(ctx) status = caught(ctx, error);
    fz_drop_context(ctx);
    return status;
}

int lectern_mupdf_load_image_rgb(lectern_mupdf_context *base, const char *path, int *width, int *height,
                                 unsigned char **rgb, lectern_mupdf_error *error) {
    set_error(error, LECTERN_MUPDF_OK, "");
    *rgb = NULL;
    fz_context *ctx = clone_context(base, path, error);
    if (!ctx) return LECTERN_MUPDF_ERROR_NO_CONTEXT;
    fz_image *image = NULL;
    fz_pixmap *pixmap = NULL;
    fz_pixmap *converted = NULL;
    unsigned char *out = NULL;
    int status = LECTERN_MUPDF_OK;
    fz_var(image);
    fz_var(pixmap);
    fz_var(converted);
    fz_var(out);
    fz_try(ctx) {
        image = fz_new_image_from_file(ctx, path);
        pixmap = fz_get_pixmap_from_image(ctx, image, NULL, NULL, NULL, NULL);
        converted = fz_convert_pixmap(ctx, pixmap, fz_device_rgb(ctx), NULL, NULL, fz_default_color_params, 0);
        int w = converted->w, h = converted->h, n = converted->n;
        // Plain malloc: the caller frees it without a MuPDF context.
        out = malloc((size_t)w * h * 3);
        if (!out) fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory decoding %dx%d image", w, h);
        for (int y = 0; y < h; y++) {
            const unsigned char *row = converted->samples + (ptrdiff_t)y * converted->stride;
            for (int x = 0; x < w; x++) memcpy(out + ((size_t)y * w + x) * 3, row + (ptrdiff_t)x * n, 3);
        }
        *width = w;
        *height = h;
        *rgb = out;
    }
    fz_always(ctx) {
        fz_drop_pixmap(ctx, converted);
        fz_drop_pixmap(ctx, pixmap);
        fz_drop_image(ctx, image);
    }
    fz_catch(ctx) {
        free(out);
        *rgb = NULL;
        status = caught(ctx, error);
    }
    fz_drop_context(ctx);
    return status;
}
