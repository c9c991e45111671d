// libFuzzer target over the C shim's document path: the bytes are a file Lectern is asked to
// show. It opens them (through a memfd, by path, as Lectern opens a file), reads the page count,
// the binding direction and page labels, walks the page tree, reads page 1's info, renders it
// small, and reads its text blocks, links and annotations (form fields too): every call the reader
// makes on a document before and while showing its first page. Then it edits page 1's first
// annotations (rect, contents, field value, toggle) and the reading direction and renders again, as
// a visitor filling a form would; then the outline and page 1's text character by character, as the
// outline panel and search read them, and with quads, lines and blocks, as text selection reads it.
// Built and run by kiosk/fuzz, not part of the package.
#define _GNU_SOURCE
#include "CMuPDF.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    int fd = memfd_create("fuzz.pdf", MFD_CLOEXEC);
    if (fd < 0) return 0;
    if (size > 0 && write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return 0;
    }
    // A context of its own per input (with a 1 GiB cap): MuPDF's store (fonts, images)
    // would otherwise carry memory from one input to the next, and libFuzzer, seeing memory
    // grow, stops checking each input for leaks. Dropped at the end, everything an input
    // allocated must be freed.
    CMuPDF_error error;
    CMuPDF_context *base = CMuPDF_context_new((size_t)1 << 30, &error);
    if (!base) {
        fprintf(stderr, "document_fuzzer: cannot make a MuPDF context: %s\n", error.message);
        abort();
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    CMuPDF_document *document = CMuPDF_document_open(base, path, "application/pdf", &error);
    if (document) {
        if (CMuPDF_document_needs_password(document, &error) == 1) {
            CMuPDF_document_authenticate(document, "", &error);
        }
        int count = 0;
        if (CMuPDF_document_count_pages(document, &count, &error) == CMUPDF_OK && count > 0) {
            int rtl = 0;
            CMuPDF_document_is_right_to_left(document, &rtl, &error);
            CMuPDF_page_label_range *ranges = NULL;
            int range_count = 0;
            if (CMuPDF_document_page_labels(document, &ranges, &range_count, &error) == CMUPDF_OK) free(ranges);
            CMuPDF_page_tree tree = {0};
            for (int slice = 0; slice < 64 && !tree.done; slice++) {
                if (CMuPDF_document_walk_page_tree(document, 256, &tree, &error) != CMUPDF_OK) break;
            }
            CMuPDF_page_info info;
            if (CMuPDF_page_get_info(document, 0, &info, &error) == CMUPDF_OK) {
                // Page 1 fitted in 64 × 64 pixels, as a preview would be.
                float width = info.bounds[2] - info.bounds[0], height = info.bounds[3] - info.bounds[1];
                float scale = (width > 0 && height > 0) ? 64 / (width > height ? width : height) : 1;
                if (scale > 4) scale = 4;
                unsigned char *pixels = calloc(64 * 64, 4);
                if (pixels) {
                    CMuPDF_cookie *cookie = CMuPDF_cookie_new();
                    CMuPDF_page_render(document, 0, scale, 0, 0, 64, 64, pixels, 64 * 4, cookie, &error);
                    CMuPDF_cookie_drop(cookie);
                    free(pixels);
                }
            }
            float *rects = NULL;
            int rect_count = 0;
            if (CMuPDF_page_text_blocks(document, 0, &rects, &rect_count, &error) == CMUPDF_OK) free(rects);
            CMuPDF_link *links = NULL;
            int link_count = 0;
            if (CMuPDF_page_links(document, 0, &links, &link_count, &error) == CMUPDF_OK) free(links);
            CMuPDF_annotation *annotations = NULL;
            int annotation_count = 0, annotations_cut = 0;
            if (CMuPDF_page_annotations(document, 0, &annotations, &annotation_count, &annotations_cut, &error) ==
                CMUPDF_OK && annotation_count <= 64) {
                // Every edit on the first two annotations (of a page with at most 64: an edit loads the page
                // again, a second under ASan for thousands), as a visitor filling the form would: each is
                // refused or done, never a crash; then page 1 is drawn again from the edited document.
                for (int i = 0; i < annotation_count && i < 2; i++) {
                    int object = annotations[i].object;
                    const float rect[4] = {10, 10, 200, 60};
                    char *value = NULL;
                    CMuPDF_annotation_set_rect(document, 0, object, rect, &error);
                    CMuPDF_annotation_set_contents(document, 0, object, "fuzz \xc3\xa9", &error);
                    if (CMuPDF_field_set_value(document, 0, object, "Fuzz 42", &value, &error) == CMUPDF_OK) free(value);
                    value = NULL;
                    if (CMuPDF_field_toggle(document, 0, object, &value, &error) == CMUPDF_OK) free(value);
                }
                CMuPDF_document_set_right_to_left(document, 1, &error);
                unsigned char *pixels = calloc(32 * 32, 4);
                if (pixels) {
                    CMuPDF_page_render(document, 0, 0.1f, 0, 0, 32, 32, pixels, 32 * 4, NULL, &error);
                    free(pixels);
                }
            }
            CMuPDF_annotations_free(annotations, annotation_count);
            CMuPDF_outline_entry *entries = NULL;
            int entry_count = 0;
            if (CMuPDF_document_outline(document, &entries, &entry_count, &error) == CMUPDF_OK) free(entries);
            CMuPDF_text_char *chars = NULL;
            int char_count = 0;
            if (CMuPDF_page_text_chars(document, 0, &chars, &char_count, &error) == CMUPDF_OK) free(chars);
            CMuPDF_page_char *page_chars = NULL;
            int page_char_count = 0, page_chars_cut = 0;
            if (CMuPDF_page_chars(document, 0, &page_chars, &page_char_count, &page_chars_cut, &error) == CMUPDF_OK)
                free(page_chars);
        }
        CMuPDF_document_drop(document);
    }
    CMuPDF_context_drop(base);
    close(fd);
    return 0;
}
