// CMuPDF: reflowable documents (EPUB, FB2, XHTML) laid out at the reader's page and font size.
// The document, its locks and its contexts are shim.c's (shim_internal.h).
#include "CMuPDF.h"
#include "shim_internal.h"
#include <mupdf/fitz.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

int CMuPDF_document_is_reflowable(CMuPDF_document *document) {
    fz_context *ctx = shim_enter(document);
    int reflowable = 0;
    fz_try(ctx) reflowable = fz_is_document_reflowable(ctx, document->doc);
    fz_catch(ctx) reflowable = 0;
    return shim_leave(document, reflowable ? 1 : 0);
}

int shim_count_pages_through_locked(CMuPDF_document *document, int through) {
    fz_context *ctx = document->ctx;
    int chapters = fz_count_chapters(ctx, document->doc), pages = 0;
    for (int chapter = 0; chapter < chapters && pages <= through; chapter++)
        pages += fz_count_chapter_pages(ctx, document->doc, chapter);
    atomic_store(&document->page_count, pages > 0 ? pages : 0);
    return pages;
}

int CMuPDF_document_count_pages_through(CMuPDF_document *document, int through, int *count, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    fz_context *ctx = shim_enter(document);
    int status = CMUPDF_OK, reflowable = 0;
    fz_try(ctx) {
        reflowable = fz_is_document_reflowable(ctx, document->doc);
        if (reflowable) *count = shim_count_pages_through_locked(document, through);
    }
    fz_catch(ctx) status = shim_caught(ctx, error);
    shim_leave(document, status);
    if (status == CMUPDF_OK && !reflowable) return CMuPDF_document_count_pages(document, count, error);
    return status;
}

/* `bottom` points of every page's bottom kept clear of text: the user style sheet's @page margin,
   over the book's own (MuPDF reads it when it reads a chapter). */
static void shim_set_bottom_margin(fz_context *ctx, float bottom) {
    char css[64] = "";
    if (bottom > 0) snprintf(css, sizeof css, "@page{margin-bottom:%.1fpt}", bottom);
    const char *current = fz_user_css(ctx);
    if (strcmp(current ? current : "", css) == 0) return;
    fz_set_user_css(ctx, css[0] ? css : NULL);
    // Chapters already read keep the style sheet they were read with: read them again (this
    // happens once, at the first layout for the screen).
    fz_empty_store(ctx);
}

int CMuPDF_document_layout(CMuPDF_document *document, float width, float height, float em, float bottom, int keep,
                           int through, int *count, int *page, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    *count = atomic_load(&document->page_count);
    *page = keep > 0 ? keep : 0;
    fz_context *ctx = shim_enter(document);
    int status = CMUPDF_OK;
    fz_try(ctx) {
        if (fz_is_document_reflowable(ctx, document->doc)) {
            int before = atomic_load(&document->page_count);
            fz_bookmark mark = 0;
            int marked = keep >= 0 && keep < before;
            if (marked) mark = fz_make_bookmark(ctx, document->doc, fz_location_from_page_number(ctx, document->doc, keep));
            shim_set_bottom_margin(ctx, bottom);
            fz_layout_document(ctx, document->doc, width, height, em);
            shim_drop_cached_lists(document); // they hold the pages of the old layout
            // A kept page is found by counting every chapter; else the chapters through `through`.
            *count = shim_count_pages_through_locked(document, marked ? INT_MAX : through);
            *page = 0;
            if (marked) {
                fz_location location = fz_lookup_bookmark(ctx, document->doc, mark);
                int found = location.chapter < 0 ? -1 : fz_page_number_from_location(ctx, document->doc, location);
                // A bookmark MuPDF no longer finds (the chapter was evicted and read again): the
                // same share of the book.
                if (found < 0) found = (int)((double)keep * *count / (before > 0 ? before : 1));
                *page = found < *count ? found : *count - 1;
                if (*page < 0) *page = 0;
            }
        }
    }
    fz_catch(ctx) status = shim_caught(ctx, error);
    return shim_leave(document, status);
}
