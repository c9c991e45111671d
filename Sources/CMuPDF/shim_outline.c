// CMuPDF: the outline, the test hooks and PNG writing.
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

// MARK: - Outline

#define LECTERN_OUTLINE_MAX_DEPTH 64
#define LECTERN_OUTLINE_MAX_ENTRIES 65536

/// Counts the entries of `node` and its siblings (and below) that the block will hold, and their
/// titles' bytes. Call inside fz_try.
static void measure_outline(fz_outline *node, int depth, int *count, size_t *bytes) {
    for (; node && *count < LECTERN_OUTLINE_MAX_ENTRIES; node = node->next) {
        (*count)++;
        *bytes += (node->title ? strlen(node->title) : 0) + 1;
        if (depth + 1 < LECTERN_OUTLINE_MAX_DEPTH) measure_outline(node->down, depth + 1, count, bytes);
    }
}

/// Copies `node` and what follows it in preorder into `out` (room measured by measure_outline).
/// Call with doc_lock held, inside fz_try.
static void copy_outline(CMuPDF_document *document, fz_outline *node, int depth, CMuPDF_outline_entry *out,
                         int max, int *used, char **strings) {
    fz_context *ctx = document->ctx;
    int page_count = atomic_load(&document->page_count);
    for (; node && *used < max; node = node->next) {
        CMuPDF_outline_entry *entry = &out[(*used)++];
        entry->depth = depth;
        entry->is_open = node->is_open ? 1 : 0;
        int page = -1;
        fz_var(page);
        if (node->uri && !fz_is_external_link(ctx, node->uri)) {
            fz_try(ctx) {
                // An EPUB's entries come unresolved (their chapter -1): resolve their URI.
                fz_location location = node->page;
                if (location.chapter < 0) location = fz_resolve_link(ctx, document->doc, node->uri, NULL, NULL);
                page = location.chapter < 0 ? -1 : fz_page_number_from_location(ctx, document->doc, location);
            }
            fz_catch(ctx) page = -1;
        }
        entry->page = page >= 0 && page < page_count ? page : -1;
        size_t length = node->title ? strlen(node->title) : 0;
        if (length) memcpy(*strings, node->title, length);
        (*strings)[length] = 0;
        entry->title = *strings;
        *strings += length + 1;
        if (depth + 1 < LECTERN_OUTLINE_MAX_DEPTH) copy_outline(document, node->down, depth + 1, out, max, used, strings);
    }
}

int CMuPDF_document_outline(CMuPDF_document *document, CMuPDF_outline_entry **entries, int *count,
                            CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    *entries = NULL;
    *count = 0;
    int status = CMUPDF_OK;
    fz_context *ctx = shim_enter(document);
    fz_outline *outline = NULL;
    CMuPDF_outline_entry *out = NULL;
    int *hidden_map = NULL;
    fz_var(outline);
    fz_var(out);
    fz_var(hidden_map);
    fz_try(ctx) {
        // Destinations are looked up in the page map: walk the whole tree first (then the outline
        // loader's pdf_load_page_tree keeps Lectern's map: see walk_install_map).
        if (document->pdf) shim_walk_locked(document, INT_MAX, INT_MAX);
        // A book's entries lead into chapters not yet counted: count them all.
        else if (fz_is_document_reflowable(ctx, document->doc)) shim_count_pages_through_locked(document, INT_MAX);
        // The outline loader resolves destinations: see hide_forward_map (outline.pdf leaked its
        // target pages' dictionaries under kiosk/fuzz --replay without it).
        hidden_map = shim_hide_forward_map(document);
        outline = fz_load_outline(ctx, document->doc);
        int n = 0;
        size_t bytes = 0;
        measure_outline(outline, 0, &n, &bytes);
        if (n > 0) {
            // One plain malloc block: the caller frees it without a MuPDF context.
            out = malloc(sizeof *out * (size_t)n + bytes);
            if (!out) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory listing %d outline entries", n);
            char *strings = (char *)(out + n);
            int used = 0;
            copy_outline(document, outline, 0, out, n, &used, &strings);
            *entries = out;
            *count = used;
        }
    }
    fz_always(ctx) {
        shim_show_forward_map(document, hidden_map);
        fz_drop_outline(ctx, outline);
    }
    fz_catch(ctx) {
        free(out);
        *entries = NULL;
        *count = 0;
        status = shim_caught(ctx, error);
    }
    return shim_leave(document, status);
}

// MARK: - Testing

int CMuPDF_page_get_info_by_loading_for_testing(CMuPDF_document *document, int index,
                                                        CMuPDF_page_info *info, CMuPDF_error *error) {
    // The page info as Lectern read it before pages were looked up without loading (commit f263204).
    shim_set_error(error, CMUPDF_OK, "");
    memset(info, 0, sizeof *info);
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    fz_context *ctx = shim_enter(document);
    fz_page *page = NULL;
    fz_var(page);
    fz_try(ctx) {
        page = shim_load_page_locked(document, index);
        shim_copy_rect(info->bounds, fz_bound_page(ctx, page));
        pdf_obj *obj = pdf_page_from_fz_page(ctx, page)->obj;
        fz_rect media = pdf_to_rect(ctx, pdf_dict_get_inheritable(ctx, obj, PDF_NAME(MediaBox)));
        if (fz_is_empty_rect(media)) media = fz_make_rect(0, 0, 612, 792);
        fz_rect crop = pdf_to_rect(ctx, pdf_dict_get_inheritable(ctx, obj, PDF_NAME(CropBox)));
        crop = fz_is_empty_rect(crop) ? media : fz_intersect_rect(crop, media);
        shim_copy_rect(info->media_box, media);
        shim_copy_rect(info->crop_box, crop);
        int rotate = pdf_to_int(ctx, pdf_dict_get_inheritable(ctx, obj, PDF_NAME(Rotate)));
        rotate = ((rotate % 360) + 360) % 360;
        info->rotation = (rotate / 90) * 90;
    }
    fz_always(ctx) fz_drop_page(ctx, page);
    fz_catch(ctx) status = shim_caught(ctx, error);
    return shim_leave(document, status);
}

void CMuPDF_document_hold_lock_for_testing(CMuPDF_document *document, int hold) {
    if (hold) pthread_mutex_lock(&document->doc_lock);
    else pthread_mutex_unlock(&document->doc_lock);
}

// MARK: - PNG

int CMuPDF_write_png(CMuPDF_context *base, const unsigned char *bgra, int width, int height,
                            ptrdiff_t stride, const char *path, CMuPDF_error *error) {
    if (width <= 0 || height <= 0 || !bgra || stride < (ptrdiff_t)width * 4 || stride > INT32_MAX) {
        shim_set_error(error, CMUPDF_ERROR_ARGUMENT, "invalid image size or stride");
        return CMUPDF_ERROR_ARGUMENT;
    }
    shim_set_error(error, CMUPDF_OK, "");
    fz_context *ctx = shim_clone_context(base, path, error);
    if (!ctx) return CMUPDF_ERROR_NO_CONTEXT;
    fz_pixmap *rgb = NULL;
    int status = CMUPDF_OK;
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
    fz_catch(ctx) status = shim_caught(ctx, error);
    fz_drop_context(ctx);
    return status;
}

int CMuPDF_load_image_rgb(CMuPDF_context *base, const char *path, int *width, int *height,
                                 unsigned char **rgb, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    *rgb = NULL;
    fz_context *ctx = shim_clone_context(base, path, error);
    if (!ctx) return CMUPDF_ERROR_NO_CONTEXT;
    fz_image *image = NULL;
    fz_pixmap *pixmap = NULL;
    fz_pixmap *converted = NULL;
    unsigned char *out = NULL;
    int status = CMUPDF_OK;
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
        status = shim_caught(ctx, error);
    }
    fz_drop_context(ctx);
    return status;
}
