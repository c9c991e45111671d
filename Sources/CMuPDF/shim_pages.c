// CMuPDF: the page tree and page sizes, page labels, the title, direction and /Dur, /Trans.
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

// MARK: - Page tree and page info

/// How deep the walk descends: real trees are a few levels deep, and the nodes below are left out.
#define PAGE_TREE_MAX_DEPTH 256

static int walk_has_seen(page_walk *walk, int num) {
    return num > 0 && num < walk->seen_bits && (walk->seen[num >> 3] & (1 << (num & 7)));
}

/// Remembers object `num` as met. Call inside fz_try (throws when out of memory).
static void walk_mark_seen(fz_context *ctx, page_walk *walk, int num) {
    if (num <= 0) return;
    if (num >= walk->seen_bits) {
        int bits = walk->seen_bits ? walk->seen_bits : 1024;
        while (bits <= num) bits = bits < INT_MAX / 2 ? bits * 2 : INT_MAX;
        walk->seen = fz_realloc(ctx, walk->seen, (size_t)bits / 8 + 1);
        memset(walk->seen + walk->seen_bits / 8, 0, (size_t)bits / 8 + 1 - (size_t)walk->seen_bits / 8);
        walk->seen_bits = bits;
    }
    walk->seen[num >> 3] |= (unsigned char)(1 << (num & 7));
}

/// Descends into `node` (kept until it is left). Call inside fz_try.
static void walk_push(fz_context *ctx, page_walk *walk, pdf_obj *node) {
    if (walk->depth == walk->capacity) {
        int capacity = walk->capacity ? walk->capacity * 2 : 16;
        walk->nodes = fz_realloc_array(ctx, walk->nodes, capacity, pdf_obj *);
        walk->next_kid = fz_realloc_array(ctx, walk->next_kid, capacity, int);
        walk->capacity = capacity;
    }
    walk->nodes[walk->depth] = pdf_keep_obj(ctx, node);
    walk->next_kid[walk->depth] = 0;
    walk->depth++;
}

static void walk_pop(fz_context *ctx, page_walk *walk) {
    walk->depth--;
    pdf_drop_obj(ctx, walk->nodes[walk->depth]);
}

/// Hands the pages found so far to MuPDF as its page map, so its lookups (fz_load_page, links) use
/// them instead of descending by /Count. `page_map_nesting` 1 makes pdf_load_page_tree (which the
/// outline loader calls) keep this map instead of allocating one by the claimed count.
static void walk_install_map(CMuPDF_document *document) {
    pdf_document *pdf = document->pdf;
    page_walk *walk = &document->walk;
    pdf->fwd_page_map = walk->pages;
    pdf->map_page_count = walk->page_count;
    pdf->rev_page_map = walk->by_object;
    pdf->page_map_nesting = walk->pages ? 1 : 0;
}

static int compare_by_object(const void *a, const void *b) {
    const pdf_rev_page_map *x = a, *y = b;
    return (x->object > y->object) - (x->object < y->object);
}

/// The walk reached the end of the tree: the pages found are the document's pages. Call with
/// doc_lock held, inside fz_try.
static void walk_finish(CMuPDF_document *document) {
    fz_context *ctx = document->ctx;
    page_walk *walk = &document->walk;
    walk->done = 1;
    if (walk->page_count > 0) {
        walk->by_object = fz_malloc_array(ctx, walk->page_count, pdf_rev_page_map);
        for (int i = 0; i < walk->page_count; i++) {
            walk->by_object[i].page = i;
            walk->by_object[i].object = walk->pages[i];
        }
        qsort(walk->by_object, (size_t)walk->page_count, sizeof *walk->by_object, compare_by_object);
    }
    walk_install_map(document);
    int claimed = pdf_count_pages(ctx, document->pdf);
    if (walk->page_count != claimed) {
        fz_warn(ctx, "the page tree holds %d pages, not the %d its /Count claims", walk->page_count, claimed);
#if FZ_VERSION_MAJOR == 1 && FZ_VERSION_MINOR == 21
        // pdf_count_pages answers linear_page_count when it is set (it is only used by progressive
        // loading, which Lectern does not use): fz_load_page then accepts every real page, even
        // past a /Count that claimed fewer.
        if (walk->page_count > 0) document->pdf->linear_page_count = walk->page_count;
#endif
    }
    atomic_store(&document->page_count, walk->page_count);
}

/// Appends page object `num` to the pages found. Call inside fz_try.
static void walk_add_page(fz_context *ctx, page_walk *walk, int num) {
    if (walk->page_count == INT_MAX - 1) return;
    if (walk->page_count == walk->page_capacity) {
        int capacity = walk->page_capacity < INT_MAX / 4 ? (walk->page_capacity ? walk->page_capacity * 2 : 64)
                                                         : INT_MAX - 1;
        walk->pages = fz_realloc_array(ctx, walk->pages, capacity, int);
        walk->page_capacity = capacity;
    }
    walk->pages[walk->page_count++] = num;
}

/// Looks at one kid of the deepest node. Call inside fz_try.
static void walk_kid(CMuPDF_document *document, pdf_obj *kid) {
    fz_context *ctx = document->ctx;
    page_walk *walk = &document->walk;
    walk->kids++;
    int num = pdf_to_num(ctx, kid);
    if (walk_has_seen(walk, num)) {
        // A kid met before: a /Kids entry pointing back to an ancestor (a cycle), or the same
        // page listed twice. Either way it is not another page.
        if (walk->skipped++ == 0) fz_warn(ctx, "page tree: object %d is listed again (a cycle), skipping it", num);
        return;
    }
    walk_mark_seen(ctx, walk, num);
    if (!pdf_is_dict(ctx, kid)) {
        // A reference to an object that is gone (a truncated file) still holds a page's place:
        // MuPDF shows it as a blank page of its default size. Anything else is not a page.
        if (num > 0 && pdf_is_null(ctx, kid)) {
            fz_warn(ctx, "page tree: page object %d is missing, it shows as a blank page", num);
            walk_add_page(ctx, walk, -num); // negative: see load_page_locked
        } else if (walk->skipped++ == 0) {
            fz_warn(ctx, "page tree: a kid is not a dictionary, skipping it");
        }
        return;
    }
    // MuPDF's own rule: /Type decides; without one, a node has /Kids and no /MediaBox.
    pdf_obj *type = pdf_dict_get(ctx, kid, PDF_NAME(Type));
    int is_node = type ? pdf_name_eq(ctx, type, PDF_NAME(Pages))
                       : pdf_dict_get(ctx, kid, PDF_NAME(Kids)) && !pdf_dict_get(ctx, kid, PDF_NAME(MediaBox));
    if (is_node) {
        if (walk->depth >= PAGE_TREE_MAX_DEPTH) {
            if (walk->skipped++ == 0) fz_warn(ctx, "page tree deeper than %d levels, skipping the rest", walk->depth);
            return;
        }
        walk_push(ctx, walk, kid);
        return;
    }
    if ((type && !pdf_name_eq(ctx, type, PDF_NAME(Page))) || num <= 0) {
        // Not a page, or a page dictionary written inline (MuPDF's map holds object numbers).
        if (walk->skipped++ == 0) fz_warn(ctx, "page tree: object %d is not a page, skipping it", num);
        return;
    }
    walk_add_page(ctx, walk, num);
}

/// Walks on until `want` pages are known or the tree ends, looking at no more than `budget` kids.
/// Call with doc_lock held, inside fz_try. A kid that cannot be read is skipped, not fatal.
void shim_walk_locked(CMuPDF_document *document, int want, int budget) {
    fz_context *ctx = document->ctx;
    page_walk *walk = &document->walk;
    if (walk->done) return;
    if (!walk->started) {
        walk->started = 1;
        pdf_obj *root = pdf_dict_getp(ctx, pdf_trailer(ctx, document->pdf), "Root/Pages");
        if (pdf_is_dict(ctx, root)) {
            walk_mark_seen(ctx, walk, pdf_to_num(ctx, root));
            walk_push(ctx, walk, root);
        } else {
            fz_warn(ctx, "the document has no page tree");
        }
    }
    while (walk->page_count < want && budget-- > 0 && walk->depth > 0) {
        pdf_obj *kid = NULL;
        fz_var(kid);
        fz_try(ctx) {
            int top = walk->depth - 1;
            pdf_obj *kids = pdf_dict_get(ctx, walk->nodes[top], PDF_NAME(Kids));
            int index = walk->next_kid[top]++;
            if (index < pdf_array_len(ctx, kids)) kid = pdf_array_get(ctx, kids, index);
        }
        fz_catch(ctx) {
            if (fz_caught(ctx) == FZ_ERROR_MEMORY) fz_rethrow(ctx);
            fz_warn(ctx, "page tree: skipping an unreadable node: %s", fz_caught_message(ctx));
            kid = NULL;
        }
        if (!kid) {
            walk_pop(ctx, walk); // its kids are done (or unreadable)
            continue;
        }
        fz_try(ctx) walk_kid(document, kid);
        fz_catch(ctx) {
            if (fz_caught(ctx) == FZ_ERROR_MEMORY) fz_rethrow(ctx);
            walk->skipped++;
            fz_warn(ctx, "page tree: skipping an unreadable kid: %s", fz_caught_message(ctx));
        }
    }
    walk_install_map(document);
    if (walk->depth == 0) walk_finish(document);
}

/// Makes sure the walk has found page `index`; throws when the tree holds no such page. Call with
/// doc_lock held, inside fz_try.
void shim_walk_to_page_locked(CMuPDF_document *document, int index) {
    if (index < document->walk.page_count) return;
    shim_walk_locked(document, index + 1, INT_MAX);
    if (index >= document->walk.page_count)
        fz_throw(document->ctx, FZ_ERROR_GENERIC, "there is no page %d: the page tree holds %d pages", index + 1,
                 document->walk.page_count);
}

/// Frees the walk and takes its map back from MuPDF (which would free the reverse map, not the
/// forward one). No call may be in flight.
void shim_walk_drop(CMuPDF_document *document) {
    fz_context *ctx = document->ctx;
    page_walk *walk = &document->walk;
    if (document->pdf && document->pdf->fwd_page_map == walk->pages) {
        document->pdf->fwd_page_map = NULL;
        document->pdf->rev_page_map = NULL;
        document->pdf->map_page_count = 0;
        document->pdf->page_map_nesting = 0;
    }
    while (walk->depth > 0) walk_pop(ctx, walk);
    fz_free(ctx, walk->nodes);
    fz_free(ctx, walk->next_kid);
    fz_free(ctx, walk->seen);
    fz_free(ctx, walk->pages);
    fz_free(ctx, walk->by_object);
    memset(walk, 0, sizeof *walk);
}

/// The number written in `digits` (an optional sign, then digits), saturated at INT64_MAX.
static int64_t parse_count(const char *digits) {
    int negative = 0;
    while (*digits == '-' || *digits == '+') negative |= *digits++ == '-';
    int64_t value = 0;
    for (; *digits >= '0' && *digits <= '9'; digits++) {
        int digit = *digits - '0';
        value = value > (INT64_MAX - digit) / 10 ? INT64_MAX : value * 10 + digit;
    }
    return negative ? -value : value;
}

/// Reads the dictionary that starts at `stm`'s position and returns its /Count as written, or
/// `fallback` when /Count is not there or not a plain integer. Call inside fz_try.
static int64_t scan_count(fz_context *ctx, fz_stream *stm, pdf_lexbuf *buf, int64_t fallback) {
    if (pdf_lex(ctx, stm, buf) != PDF_TOK_OPEN_DICT) return fallback;
    // A /Pages dictionary is short; a bound keeps a broken one from being read to the end of the file.
    for (int tokens = 0; tokens < 1 << 20; tokens++) {
        pdf_token key = pdf_lex(ctx, stm, buf);
        if (key == PDF_TOK_INT) {
            // The generation of a reference whose number was read as the previous value: "3 0 R".
            if (pdf_lex(ctx, stm, buf) != PDF_TOK_R) return fallback;
            continue;
        }
        if (key != PDF_TOK_NAME) return fallback; // the end of the dictionary, or garbage
        int is_count = strcmp(buf->scratch, "Count") == 0;
        pdf_token value = pdf_lex(ctx, stm, buf);
        if (is_count) {
            if (value != PDF_TOK_INT) return fallback;
            int64_t count = parse_count(buf->scratch);
            // "/Count 5 0 R" is a reference: MuPDF's value follows it.
            return pdf_lex(ctx, stm, buf) == PDF_TOK_INT ? fallback : count;
        }
        for (int depth = value == PDF_TOK_OPEN_DICT || value == PDF_TOK_OPEN_ARRAY; depth > 0 && tokens < 1 << 20;
             tokens++) {
            pdf_token token = pdf_lex(ctx, stm, buf);
            if (token == PDF_TOK_OPEN_DICT || token == PDF_TOK_OPEN_ARRAY) depth++;
            else if (token == PDF_TOK_CLOSE_DICT || token == PDF_TOK_CLOSE_ARRAY) depth--;
            else if (token == PDF_TOK_EOF || token == PDF_TOK_ERROR) return fallback;
        }
    }
    return fallback;
}

/// The root /Pages /Count as written in the file. MuPDF 1.21's lexer keeps only 32 bits of an
/// integer (9,999,999,999 reads as 1,410,065,407); this reads the digits again, so that a count
/// that does not fit MuPDF's int is seen as the lie it is rather than as its wrapped value.
/// Saturates at INT64_MAX. MuPDF's value when the object cannot be read again. Call inside fz_try.
static int64_t read_claimed_count_locked(fz_context *ctx, pdf_document *pdf) {
    pdf_obj *pages = pdf_dict_getp(ctx, pdf_trailer(ctx, pdf), "Root/Pages");
    int64_t fallback = pdf_to_int64(ctx, pdf_dict_get(ctx, pages, PDF_NAME(Count)));
    int num = pdf_to_num(ctx, pages);
    if (num <= 0 || num >= pdf_xref_len(ctx, pdf)) return fallback;
    int64_t result = fallback;
    pdf_lexbuf buf;
    pdf_lexbuf_init(ctx, &buf, PDF_LEXBUF_SMALL);
    fz_stream *stm = NULL, *sub = NULL;
    pdf_obj *objstm = NULL;
    fz_var(stm);
    fz_var(sub);
    fz_var(objstm);
    fz_var(result);
    fz_try(ctx) {
        pdf_xref_entry *entry = pdf_get_xref_entry(ctx, pdf, num);
        if (entry && entry->type == 'n' && !entry->stm_buf) {
            // "num gen obj << … >>" at the entry's offset.
            fz_seek(ctx, pdf->file, entry->ofs, SEEK_SET);
            if (pdf_lex(ctx, pdf->file, &buf) == PDF_TOK_INT && pdf_lex(ctx, pdf->file, &buf) == PDF_TOK_INT &&
                pdf_lex(ctx, pdf->file, &buf) == PDF_TOK_OBJ)
                result = scan_count(ctx, pdf->file, &buf, fallback);
        } else if (entry && (entry->type == 'o' || entry->type == 'O') && entry->ofs > 0 && entry->ofs < INT_MAX) {
            // In an object stream: its header lists "number offset" pairs, offsets from /First.
            int stream = (int)entry->ofs;
            objstm = pdf_load_object(ctx, pdf, stream);
            int count = pdf_dict_get_int(ctx, objstm, PDF_NAME(N));
            int64_t first = pdf_to_int64(ctx, pdf_dict_get(ctx, objstm, PDF_NAME(First)));
            stm = pdf_open_stream_number(ctx, pdf, stream);
            int64_t offset = -1;
            for (int i = 0; i < count && offset < 0; i++) {
                if (pdf_lex(ctx, stm, &buf) != PDF_TOK_INT) break;
                int64_t object = buf.i;
                if (pdf_lex(ctx, stm, &buf) != PDF_TOK_INT) break;
                if (object == num) offset = buf.i;
            }
            if (offset >= 0 && first >= 0) {
                sub = fz_open_null_filter(ctx, stm, UINT64_MAX, first + offset);
                result = scan_count(ctx, sub, &buf, fallback);
            }
        }
    }
    fz_always(ctx) {
        fz_drop_stream(ctx, sub);
        fz_drop_stream(ctx, stm);
        pdf_drop_obj(ctx, objstm);
        pdf_lexbuf_fin(ctx, &buf);
    }
    fz_catch(ctx) {
        if (fz_caught(ctx) == FZ_ERROR_MEMORY) fz_rethrow(ctx);
        fz_warn(ctx, "cannot read the page count's digits again: %s", fz_caught_message(ctx));
        result = fallback;
    }
    return result;
}

int CMuPDF_document_walk_page_tree(CMuPDF_document *document, int max_kids,
                                          CMuPDF_page_tree *tree, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    memset(tree, 0, sizeof *tree);
    if (!document->pdf) {
        // Every page: a reflowable document may have counted only its first chapters so far.
        int count = 0;
        int status = CMuPDF_document_count_pages_through(document, INT_MAX, &count, error);
        tree->done = 1;
        tree->pages = count;
        return status;
    }
    fz_context *ctx = shim_enter(document);
    int status = CMUPDF_OK;
    fz_try(ctx) shim_walk_locked(document, INT_MAX, max_kids > 0 ? max_kids : INT_MAX);
    fz_catch(ctx) status = shim_caught(ctx, error);
    page_walk *walk = &document->walk;
    tree->done = walk->done;
    tree->pages = walk->page_count;
    tree->kids = walk->kids;
    tree->skipped = walk->skipped;
    return shim_leave(document, status);
}

int CMuPDF_document_claimed_page_count(CMuPDF_document *document, int64_t *claimed,
                                              CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    *claimed = -1;
    if (!document->pdf) return CMUPDF_OK;
    fz_context *ctx = shim_enter(document);
    int status = CMUPDF_OK;
    fz_try(ctx) *claimed = read_claimed_count_locked(ctx, document->pdf);
    fz_catch(ctx) status = shim_caught(ctx, error);
    return shim_leave(document, status);
}

/// pdf_clear_xref, sparing the edits: MuPDF's own drops every object only its xref holds, in every
/// section, and an edited object (an annotation dictionary after setAnnotationRect) lives only in the
/// in-memory incremental section: dropped there, it would be read again from the file as it was, and
/// the edit lost. This walks the sections read from the file only (those past the incremental ones);
/// an object also in an incremental section is found there first, so dropping its old copy is safe.
/// Call with doc_lock held, inside fz_try.
void shim_clear_unedited_objects(fz_context *ctx, pdf_document *pdf) {
    if (pdf->num_incremental_sections == 0) {
        pdf_clear_xref(ctx, pdf);
        return;
    }
    for (int x = pdf->num_incremental_sections; x < pdf->num_xref_sections; x++) {
        for (pdf_xref_subsec *sub = pdf->xref_sections[x].subsec; sub; sub = sub->next) {
            for (int e = 0; e < sub->len; e++) {
                pdf_xref_entry *entry = &sub->table[e];
                // As pdf_clear_xref: an object whose stream was replaced in memory stays.
                if (entry->obj && !entry->stm_buf && pdf_obj_refs(ctx, entry->obj) == 1) {
                    pdf_drop_obj(ctx, entry->obj);
                    entry->obj = NULL;
                }
            }
        }
    }
}

void CMuPDF_document_release_page_objects(CMuPDF_document *document) {
    if (!document->pdf) return;
    CMuPDF_error error;
    fz_context *ctx = shim_enter(document);
    // Objects only the xref cache holds (the page dictionaries read for the sizes) go; MuPDF reads
    // them again from the file when a page needs them. The page map stays: 12 bytes a page.
    fz_try(ctx) shim_clear_unedited_objects(ctx, document->pdf);
    fz_catch(ctx) shim_caught(ctx, &error);
    shim_unlock_document(document);
}

/// The page dictionary of page `index`, borrowed (valid while doc_lock is held). Call inside fz_try.
///
/// Walks the page tree as far as page `index` first (see page_walk), so MuPDF finds it in the page
/// map. MuPDF 1.21's pdf_lookup_page_obj returns a borrowed object from its own tree walk but a kept
/// one (pdf_load_object) from a page map; 1.22 returns borrowed in both. Balance the 1.21 reference
/// here so callers never drop.
static pdf_obj *lookup_page_obj(CMuPDF_document *document, int index) {
    fz_context *ctx = document->ctx;
    pdf_document *pdf = document->pdf;
    shim_walk_to_page_locked(document, index);
    if (document->walk.pages[index] < 0) return NULL; // gone: a blank page of the default size
    pdf_obj *page = pdf_lookup_page_obj(ctx, pdf, index);
#if FZ_VERSION_MAJOR == 1 && FZ_VERSION_MINOR < 22
    if (pdf->fwd_page_map) pdf_drop_obj(ctx, page); // the xref cache still holds it
#endif
    return page;
}

/// Page geometry read from the page object, with MuPDF's own rules (pdf_page_obj_transform, the
/// function fz_bound_page uses): nothing is loaded but the page dictionary and its parents.
static void page_info_locked(CMuPDF_document *document, int index, CMuPDF_page_info *info) {
    fz_context *ctx = document->ctx;
    pdf_obj *page = lookup_page_obj(document, index);
    fz_rect media = pdf_to_rect(ctx, pdf_dict_get_inheritable(ctx, page, PDF_NAME(MediaBox)));
    if (fz_is_empty_rect(media)) media = fz_make_rect(0, 0, 612, 792); // MuPDF's own default
    media = fz_make_rect(fz_min(media.x0, media.x1), fz_min(media.y0, media.y1), fz_max(media.x0, media.x1),
                         fz_max(media.y0, media.y1));
    shim_copy_rect(info->media_box, media);
    // The shown box: the crop box clipped to the media box, normalised, at least 1x1 (else the unit rect).
    fz_rect crop;
    fz_matrix ctm;
    pdf_page_obj_transform(ctx, page, &crop, &ctm);
    shim_copy_rect(info->crop_box, crop);
    shim_copy_rect(info->bounds, fz_transform_rect(crop, ctm));
    // pdf_page_obj_transform's snapping, which it does not return: to the nearest quarter turn.
    int rotate = pdf_to_int(ctx, pdf_dict_get_inheritable(ctx, page, PDF_NAME(Rotate)));
    if (rotate < 0) rotate = 360 - ((-rotate) % 360);
    if (rotate >= 360) rotate = rotate % 360;
    rotate = 90 * ((rotate + 45) / 90);
    info->rotation = rotate >= 360 ? 0 : rotate;
    info->status = CMUPDF_OK;
}

/// The geometry of a page of another format than PDF, which has no page object: the page loaded
/// (an image decoded, a chapter laid out) and bounded. Its boxes are its bounds, its user space
/// those bounds flipped (shim_page_transform), and it is never rotated. Call with doc_lock held,
/// inside fz_try.
static void page_info_by_loading_locked(CMuPDF_document *document, int index, CMuPDF_page_info *info) {
    fz_context *ctx = document->ctx;
    fz_page *page = shim_load_page_locked(document, index);
    fz_rect bounds;
    fz_try(ctx) bounds = fz_bound_page(ctx, page);
    fz_always(ctx) fz_drop_page(ctx, page);
    fz_catch(ctx) fz_rethrow(ctx);
    if (fz_is_empty_rect(bounds)) bounds = fz_make_rect(0, 0, 1, 1);
    shim_copy_rect(info->media_box, bounds);
    shim_copy_rect(info->crop_box, bounds);
    shim_copy_rect(info->bounds, bounds);
    info->rotation = 0;
    info->status = CMUPDF_OK;
}

/// page_info_locked for a PDF, page_info_by_loading_locked for the others.
static void any_page_info_locked(CMuPDF_document *document, int index, CMuPDF_page_info *info) {
    if (document->pdf)
        page_info_locked(document, index, info);
    else
        page_info_by_loading_locked(document, index, info);
}

int CMuPDF_page_get_info(CMuPDF_document *document, int index, CMuPDF_page_info *info,
                                CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    memset(info, 0, sizeof *info);
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    fz_context *ctx = shim_enter(document);
    fz_try(ctx) any_page_info_locked(document, index, info);
    fz_catch(ctx) status = shim_caught(ctx, error);
    shim_unlock_document(document);
    info->status = status;
    return status;
}

int CMuPDF_page_get_infos(CMuPDF_document *document, int start, int count,
                                 CMuPDF_page_info *infos, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    if (count <= 0) return CMUPDF_OK;
    int status = shim_check_index(document, start, error);
    if (status == CMUPDF_OK) status = shim_check_index(document, start + count - 1, error);
    if (status != CMUPDF_OK) return status;
    memset(infos, 0, sizeof *infos * (size_t)count);
    fz_context *ctx = shim_enter(document);
    for (int i = 0; i < count; i++) {
        fz_try(ctx) any_page_info_locked(document, start + i, &infos[i]);
        fz_catch(ctx) {
            int code = fz_caught(ctx);
            infos[i].status = code == FZ_ERROR_NONE ? FZ_ERROR_GENERIC : code;
        }
    }
    shim_unlock_document(document);
    return CMUPDF_OK;
}

// MARK: - Page labels

/// Upper bounds that keep a hostile /PageLabels tree (cycles, fan-out) from running away.
#define LABEL_TREE_MAX_DEPTH 32
#define LABEL_TREE_MAX_NODES 10000
#define LABEL_TREE_MAX_RANGES 100000

typedef struct label_walk {
    CMuPDF_page_label_range *ranges; // fz_malloc'd with the document context
    int count;
    int capacity;
    int nodes;
} label_walk;

/// Collects the /Nums pairs of a number-tree node and its /Kids. Call inside fz_try (throws on a
/// structurally broken tree; single bad entries are skipped with a warning).
static void walk_label_tree(fz_context *ctx, pdf_obj *node, int depth, label_walk *walk) {
    if (depth > LABEL_TREE_MAX_DEPTH) fz_throw(ctx, FZ_ERROR_GENERIC, "/PageLabels tree is deeper than %d", depth - 1);
    if (++walk->nodes > LABEL_TREE_MAX_NODES) fz_throw(ctx, FZ_ERROR_GENERIC, "/PageLabels tree has too many nodes");
    if (!pdf_is_dict(ctx, node)) fz_throw(ctx, FZ_ERROR_SYNTAX, "/PageLabels node is not a dictionary");
    pdf_obj *kids = pdf_dict_get(ctx, node, PDF_NAME(Kids));
    pdf_obj *nums = pdf_dict_get(ctx, node, PDF_NAME(Nums));
    if (kids && !pdf_is_array(ctx, kids)) fz_throw(ctx, FZ_ERROR_SYNTAX, "/PageLabels /Kids is not an array");
    if (nums && !pdf_is_array(ctx, nums)) fz_throw(ctx, FZ_ERROR_SYNTAX, "/PageLabels /Nums is not an array");
    for (int i = 0, n = pdf_array_len(ctx, kids); i < n; i++)
        walk_label_tree(ctx, pdf_array_get(ctx, kids, i), depth + 1, walk);
    for (int i = 0, n = pdf_array_len(ctx, nums); i + 1 < n; i += 2) {
        pdf_obj *key = pdf_array_get(ctx, nums, i);
        pdf_obj *value = pdf_array_get(ctx, nums, i + 1);
        if (!pdf_is_int(ctx, key) || pdf_to_int(ctx, key) < 0 || !pdf_is_dict(ctx, value)) {
            fz_warn(ctx, "skipping a malformed /PageLabels entry");
            continue;
        }
        if (walk->count == LABEL_TREE_MAX_RANGES) fz_throw(ctx, FZ_ERROR_GENERIC, "/PageLabels has too many ranges");
        if (walk->count == walk->capacity) {
            int capacity = walk->capacity ? walk->capacity * 2 : 8;
            walk->ranges = fz_realloc_array(ctx, walk->ranges, capacity, CMuPDF_page_label_range);
            walk->capacity = capacity;
        }
        CMuPDF_page_label_range *range = &walk->ranges[walk->count++];
        memset(range, 0, sizeof *range);
        range->start = pdf_to_int(ctx, key);
        const char *style = pdf_to_name(ctx, pdf_dict_get(ctx, value, PDF_NAME(S)));
        range->style = (strlen(style) == 1 && strchr("DRrAa", style[0])) ? style[0] : 0;
        pdf_obj *first = pdf_dict_gets(ctx, value, "St");
        range->first = pdf_is_int(ctx, first) && pdf_to_int(ctx, first) >= 1 ? pdf_to_int(ctx, first) : 1;
        pdf_obj *prefix = pdf_dict_get(ctx, value, PDF_NAME(P));
        if (pdf_is_string(ctx, prefix)) {
            const char *text = pdf_to_text_string(ctx, prefix); // UTF-8, owned by the object
            size_t length = strlen(text);
            if (length >= sizeof range->prefix) {
                length = sizeof range->prefix - 1;
                while (length > 0 && ((unsigned char)text[length] & 0xC0) == 0x80) length--; // whole characters
            }
            memcpy(range->prefix, text, length);
            range->prefix[length] = 0;
            range->has_prefix = 1;
        }
    }
}

static int compare_label_ranges(const void *a, const void *b) {
    const CMuPDF_page_label_range *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

int CMuPDF_document_page_labels(CMuPDF_document *document, CMuPDF_page_label_range **ranges,
                                       int *count, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    *ranges = NULL;
    *count = 0;
    if (!document->pdf) return CMUPDF_OK;
    fz_context *ctx = shim_enter(document);
    label_walk walk = {0};
    int status = CMUPDF_OK;
    fz_try(ctx) {
        pdf_obj *tree = pdf_dict_getp(ctx, pdf_trailer(ctx, document->pdf), "Root/PageLabels");
        if (tree) walk_label_tree(ctx, tree, 0, &walk);
    }
    fz_catch(ctx) status = shim_caught(ctx, error);
    shim_unlock_document(document);
    if (status == CMUPDF_OK && walk.count > 0) {
        // Plain malloc: the caller frees it without a MuPDF context.
        *ranges = malloc(sizeof **ranges * (size_t)walk.count);
        if (*ranges) {
            memcpy(*ranges, walk.ranges, sizeof **ranges * (size_t)walk.count);
            qsort(*ranges, (size_t)walk.count, sizeof **ranges, compare_label_ranges);
            *count = walk.count;
        } else {
            status = CMUPDF_ERROR_MEMORY;
            shim_set_error(error, status, "out of memory reading /PageLabels");
        }
    }
    fz_free(ctx, walk.ranges); // no lock needed: fz_free uses MuPDF's allocator lock
    return status;
}

// MARK: - Metadata and presentation

/// Cuts `text` (NUL-terminated) so it ends on a UTF-8 character boundary.
static void trim_partial_utf8(char *text) {
    size_t length = strlen(text);
    size_t start = length;
    while (start > 0 && (text[start - 1] & 0xC0) == 0x80) start--;
    if (start == 0) return;
    unsigned char lead = (unsigned char)text[start - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (length - (start - 1) < need) text[start - 1] = 0;
}

int CMuPDF_document_title(CMuPDF_document *document, char *title, int size, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    if (size <= 0) {
        shim_set_error(error, CMUPDF_ERROR_ARGUMENT, "no room for the title");
        return CMUPDF_ERROR_ARGUMENT;
    }
    title[0] = 0;
    fz_context *ctx = shim_enter(document);
    int status = CMUPDF_OK, found = -1;
    fz_try(ctx) found = fz_lookup_metadata(ctx, document->doc, FZ_META_INFO_TITLE, title, size);
    fz_catch(ctx) status = shim_caught(ctx, error);
    shim_unlock_document(document);
    if (status != CMUPDF_OK || found < 0) title[0] = 0;
    title[size - 1] = 0;
    if (found > size) trim_partial_utf8(title); // fz_strlcpy cut it anywhere
    return status;
}

int CMuPDF_document_language(CMuPDF_document *document, char language[8], CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    language[0] = 0;
    fz_context *ctx = shim_enter(document);
    int status = CMUPDF_OK;
    fz_try(ctx) {
        pdf_document *pdf = pdf_specifics(ctx, document->doc);
        fz_text_language code = pdf ? pdf_document_language(ctx, pdf) : document->language;
        if (code != FZ_LANG_UNSET) fz_string_from_text_language(language, code);
    }
    fz_catch(ctx) status = shim_caught(ctx, error);
    shim_unlock_document(document);
    if (status != CMUPDF_OK) language[0] = 0;
    language[7] = 0;
    return status;
}

/// Reads /Dur and /Trans like pdf_page_presentation, from the page object, with the defaults of
/// the PDF reference (ISO 32000-1, 12.4.4.1). Call with doc_lock held, inside fz_try.
static void page_presentation_locked(CMuPDF_document *document, int index, CMuPDF_page_presentation *out) {
    fz_context *ctx = document->ctx;
    pdf_obj *page = lookup_page_obj(document, index);
    pdf_obj *dur = pdf_dict_get(ctx, page, PDF_NAME(Dur));
    out->duration = pdf_is_number(ctx, dur) && pdf_to_real(ctx, dur) > 0 ? pdf_to_real(ctx, dur) : -1;
    pdf_obj *trans = pdf_dict_get(ctx, page, PDF_NAME(Trans));
    if (!pdf_is_dict(ctx, trans)) return;
    pdf_obj *style = pdf_dict_get(ctx, trans, PDF_NAME(S));
    fz_strlcpy(out->style, pdf_is_name(ctx, style) ? pdf_to_name(ctx, style) : "R", sizeof out->style);
    pdf_obj *d = pdf_dict_get(ctx, trans, PDF_NAME(D));
    out->transition_duration = pdf_is_number(ctx, d) ? pdf_to_real(ctx, d) : 1;
    pdf_obj *di = pdf_dict_get(ctx, trans, PDF_NAME(Di));
    out->direction = pdf_is_number(ctx, di) ? pdf_to_int(ctx, di) : pdf_is_name(ctx, di) ? -1 : 0;
    out->vertical = pdf_name_eq(ctx, pdf_dict_get(ctx, trans, PDF_NAME(Dm)), PDF_NAME(V));
    out->outward = pdf_name_eq(ctx, pdf_dict_get(ctx, trans, PDF_NAME(M)), PDF_NAME(O));
}

int CMuPDF_page_get_presentation(CMuPDF_document *document, int index,
                                 CMuPDF_page_presentation *presentation, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    memset(presentation, 0, sizeof *presentation);
    presentation->duration = -1;
    presentation->transition_duration = 1;
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    if (!document->pdf) return CMUPDF_OK; // other formats have no presentation keys
    fz_context *ctx = shim_enter(document);
    fz_try(ctx) page_presentation_locked(document, index, presentation);
    fz_catch(ctx) status = shim_caught(ctx, error);
    return shim_leave(document, status);
}
