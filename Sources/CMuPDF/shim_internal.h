// Private to the CMuPDF target (not under include/: Swift never sees MuPDF types): the document's
// structure and the helpers the shim's files (shim.c, shim_*.c, one concern each) share. shim.c
// owns the document, its locks and its contexts.
#ifndef CMUPDF_SHIM_INTERNAL_H
#define CMUPDF_SHIM_INTERNAL_H

#include "CMuPDF.h"

#include <mupdf/fitz.h>
#include <mupdf/pdf.h>

#include <pthread.h>
#include <stdatomic.h>


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

/// A glyph drawn inside a measured marked-content sequence: which of the MCIDs (`mark`, an index
/// into the caller's list; -1 inside /Artifact) and its box in PDF user space.
typedef struct shim_marked_glyph {
    int mark;
    fz_rect box;
} shim_marked_glyph;

/// Interprets `page`'s content again (PDF user space) and puts in boxes[i] the box of what the
/// page's marked-content sequences with MCID mcids[i] draw (nested sequences included, form
/// XObjects' own MCIDs not), clipped to the media box; empty for an MCID that draws nothing. It
/// also lists each glyph (visible or not) drawn in them, and inside /Artifact sequences, in
/// `glyphs`, up to `glyph_capacity`, and sets `*glyph_count` (shim_marked_content.c). Call with
/// doc_lock held, inside fz_try.
void shim_marked_content_boxes(fz_context *ctx, pdf_document *pdf, pdf_obj *page, const int *mcids, int count,
                               fz_rect *boxes, shim_marked_glyph *glyphs, int glyph_capacity, int *glyph_count);

/// How many pages keep their display list: a screen of tiles and its prefetch touch a few pages.
#define LECTERN_LIST_CACHE_SIZE 8
/// How many idle cloned contexts a document keeps for rasterizing (more are made when needed).
#define LECTERN_CONTEXT_POOL_SIZE 8

/// A page's content recorded once (fz_display_list) and replayed for every tile and scale.
typedef struct cached_list {
    fz_display_list *list; // one reference owned by the cache; NULL for an empty slot
    int index;
    fz_rect bounds;        // fz_bound_page: the rotated crop box in points
    fz_matrix page_ctm;    // PDF user space -> the list's space (pdf_page_obj_transform)
    int errors;            // content errors MuPDF counted while recording
    unsigned long last_use;
} cached_list;

/// The page tree as Lectern walks it. MuPDF 1.21 trusts /Count: pdf_load_page_tree allocates its
/// page map by the root's claim (17 GB for a file that claims 1,410,065,407 pages) and page lookups
/// descend by the intermediate nodes' /Count, which may lie. This walk ignores /Count: it visits
/// the tree depth first, in order, and lists the page objects it finds. It resumes where it
/// stopped, so a lookup walks only as far as its page, and it is handed to MuPDF as its page map
/// (`fwd_page_map`, then `rev_page_map` once complete), so every lookup by index or by object finds
/// the right page.
typedef struct page_walk {
    pdf_obj **nodes;  // the /Pages nodes from the root down to the one being read, each kept
    int *next_kid;    // for each of them, the index in its /Kids of the next kid to look at
    int depth;
    int capacity;
    unsigned char *seen; // one bit per object number: the nodes and pages already met
    int seen_bits;
    int *pages;          // object numbers of the pages found, in order (MuPDF's fwd_page_map);
                         // negated for a page whose object is gone (a truncated file)
    int page_count;
    int page_capacity;
    pdf_rev_page_map *by_object; // the pages sorted by object number, once complete (rev_page_map)
    int kids;    // kids looked at
    int skipped; // kids left out: met before (a cycle or a repeat), not a page, too deep, unreadable
    int started;
    int done;
} page_walk;

struct CMuPDF_document {
    CMuPDF_context *base; // borrowed: the caller keeps it alive longer than the document
    char *path;                  // owned: names the file in log lines

    pthread_mutex_t doc_lock;
    fz_context *ctx;   // owned, cloned from base; only with doc_lock held
    fz_document *doc;  // owned; only with doc_lock held
    pdf_document *pdf; // borrowed from doc; NULL when not a PDF
    int right_to_left; // another format's binding read at open (an EPUB's page-progression-direction)
    fz_text_language language; // another format's language read at open (an EPUB's dc:language)
    page_walk walk;        // the page tree as walked so far; only with doc_lock held
    atomic_int page_count; // -1 until counted (under doc_lock); read without it

    pthread_mutex_t cache_lock;
    cached_list lists[LECTERN_LIST_CACHE_SIZE];
    unsigned long use_clock;
    unsigned long recorded; // display lists recorded (under doc_lock): see record_list_locked
    atomic_ulong edits;     // edits made (under doc_lock); read without it
    atomic_ulong saved;     // `edits` when the last save that was committed was written

    pthread_mutex_t pool_lock;
    fz_context *pool[LECTERN_CONTEXT_POOL_SIZE];
    int pool_count;
};

/// A render's own reference to a cached (or just recorded) list, and what it needs to replay it.
typedef struct list_ref {
    fz_display_list *list; // one reference, dropped by release_list
    fz_rect bounds;
    fz_matrix page_ctm;
    int errors;
} list_ref;

// Helpers shim.c's files share (shim_*.c): declared here, defined where their concern lives.

/// Raises of CMUPDF_ERROR_REFUSED on this thread (the memory cap's refusals), counted by shim.c.
extern _Thread_local unsigned shim_refused_here;

/// Copies MuPDF's current exception into `error`; call only inside fz_catch.
int shim_caught(fz_context *ctx, CMuPDF_error *error);

/// Checks `index` against the page count without taking doc_lock once the count is known.
int shim_check_index(CMuPDF_document *document, int index, CMuPDF_error *error);

void shim_checkin_context(CMuPDF_document *document, fz_context *ctx);

/// The pages of a reflowable document's chapters, counted (each chapter laid out) until page
/// `through` exists or every chapter is counted (INT_MAX): what the document claims until the rest
/// is counted. Remembers it as the page count. Call with doc_lock held, inside fz_try, on a
/// reflowable document only (shim_layout.c).
int shim_count_pages_through_locked(CMuPDF_document *document, int through);

/// Drops every cached display list (an edit or a new layout changed the pages); renders holding one
/// keep their own reference. Takes cache_lock; call with doc_lock held (shim_annotations.c).
void shim_drop_cached_lists(CMuPDF_document *document);

/// A context for one render on the calling thread: from the pool, or cloned from the base.
/// NULL (with `error` filled) when MuPDF cannot clone. Give it back with checkin_context.
fz_context *shim_checkout_context(CMuPDF_document *document, CMuPDF_error *error);

/// Checks `index`, checks out a context into `*ctx` and acquires the page's display list into `ref`.
/// On success the caller drops ref->list and checks `*ctx` back in; on failure nothing is left to do.
int shim_checkout_list(CMuPDF_document *document, int index, fz_cookie *cookie, fz_context **ctx,
                       list_ref *ref, CMuPDF_error *error);
/// Page space -> the pixels of the region (x, y) of the page scaled by `scale` (shim_render.c).
fz_matrix shim_tile_ctm(const list_ref *ref, float scale, int x, int y);

/// pdf_clear_xref, sparing the edits: MuPDF's own drops every object only its xref holds, in every
/// section, and an edited object (an annotation dictionary after setAnnotationRect) lives only in the
/// in-memory incremental section: dropped there, it would be read again from the file as it was, and
/// the edit lost. This walks the sections read from the file only (those past the incremental ones);
/// an object also in an incremental section is found there first, so dropping its old copy is safe.
/// Call with doc_lock held, inside fz_try.
void shim_clear_unedited_objects(fz_context *ctx, pdf_document *pdf);

/// A context cloned from `base` with our log callbacks naming `source` (clones share the store and
/// locks). `source` must outlive the context.
fz_context *shim_clone_context(CMuPDF_context *base, const char *source, CMuPDF_error *error);

void shim_copy_rect(float out[4], fz_rect rect);

/// Copies `rect`, in fitz page space, as PDF user space (unrotated, y up) to `out`. `to_user` is the
/// inverse of the page's page_transform.
void shim_copy_user_rect(float out[4], fz_rect rect, fz_matrix to_user);

/// Takes MuPDF's forward page map away for a call that resolves destinations: MuPDF 1.21 looks a
/// destination's page object up in it with a kept reference it never gives back
/// (pdf_lookup_page_obj, see lookup_page_obj), which leaked the target pages' dictionaries. Without
/// it MuPDF walks the tree for them (borrowed); page numbers still come from the reverse map (no
/// reference). Returns the map for show_forward_map (NULL: nothing was hidden).
int *shim_hide_forward_map(CMuPDF_document *document);

/// Loads page `index` with the document context (fz_load_page: the page dictionary, its annotations
/// and links; not its content). Call with doc_lock held, inside fz_try (throws); drop the page with
/// fz_drop_page before releasing doc_lock.
fz_page *shim_load_page_locked(CMuPDF_document *document, int index);

/// Takes `doc_lock`. With a cookie, waits in short slices and gives up with
/// CMUPDF_ERROR_ABORT when the cookie is aborted meanwhile, so a cancelled render never
/// waits for another page's recording to finish.
int shim_lock_document(CMuPDF_document *document, fz_cookie *cookie, CMuPDF_error *error);

/// The prologue of an entry point that works on the document: takes `doc_lock` and returns the
/// document's context, for the fz_try that follows. End with `return shim_leave(document, status)`:
///
///     fz_context *ctx = shim_enter(document);
///     int status = CMUPDF_OK;
///     fz_try(ctx) ...;
///     fz_catch(ctx) status = shim_caught(ctx, error);
///     return shim_leave(document, status);
fz_context *shim_enter(CMuPDF_document *document);

/// Releases `doc_lock` (the end of what `shim_enter` began) and returns `status`.
int shim_leave(CMuPDF_document *document, int status);

/// PDF user space -> fitz page space (rotated, y down) of a loaded page (pdf_page_transform), the
/// space of its display list and of its links; the identity for other formats. Call inside fz_try.
fz_matrix shim_page_transform(fz_context *ctx, fz_page *page);

void shim_set_error(CMuPDF_error *error, int status, const char *message);

/// Puts back what hide_forward_map took away.
void shim_show_forward_map(CMuPDF_document *document, int *map);

void shim_unlock_document(CMuPDF_document *document);

/// Frees the walk and takes its map back from MuPDF (which would free the reverse map, not the
/// forward one). No call may be in flight.
void shim_walk_drop(CMuPDF_document *document);

/// Walks on until `want` pages are known or the tree ends, looking at no more than `budget` kids.
/// Call with doc_lock held, inside fz_try. A kid that cannot be read is skipped, not fatal.
void shim_walk_locked(CMuPDF_document *document, int want, int budget);

/// Makes sure the walk has found page `index`; throws when the tree holds no such page. Call with
/// doc_lock held, inside fz_try.
void shim_walk_to_page_locked(CMuPDF_document *document, int index);

#endif
