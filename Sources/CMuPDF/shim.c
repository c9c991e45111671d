// CMuPDF shim: every throwing MuPDF call wrapped in fz_try/fz_always/fz_catch (see CMuPDF.h).
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

// MARK: - Errors and logging

static _Atomic(CMuPDF_log_sink) log_sink = NULL;

void CMuPDF_set_log_sink(CMuPDF_log_sink sink) { atomic_store(&log_sink, sink); }

// `user` is the file the context works on (a string owned by the document), or NULL.
static void forward_error(void *user, const char *message) {
    CMuPDF_log_sink sink = atomic_load(&log_sink);
    if (sink) sink(CMUPDF_LOG_ERROR, user, message);
}

static void forward_warning(void *user, const char *message) {
    CMuPDF_log_sink sink = atomic_load(&log_sink);
    if (sink) sink(CMUPDF_LOG_WARNING, user, message);
}

static void install_log_callbacks(fz_context *ctx, const char *source) {
    fz_set_error_callback(ctx, forward_error, (void *)source);
    fz_set_warning_callback(ctx, forward_warning, (void *)source);
}

static void set_error(CMuPDF_error *error, int status, const char *message) {
    if (!error) return;
    error->status = status;
    snprintf(error->message, sizeof error->message, "%s", message ? message : "");
}

/// Copies MuPDF's current exception into `error`; call only inside fz_catch.
static int caught(fz_context *ctx, CMuPDF_error *error) {
    int code = fz_caught(ctx);
    if (code == FZ_ERROR_NONE) code = FZ_ERROR_GENERIC;
    set_error(error, code, fz_caught_message(ctx));
    return code;
}

// MARK: - Base context and its locks

struct CMuPDF_context {
    fz_context *ctx;
    pthread_mutex_t mutexes[FZ_LOCK_MAX];
    fz_locks_context locks;
    /// Every allocation of this context and its clones goes through these (counted, capped).
    fz_alloc_context alloc;
    /// The most bytes MuPDF may hold at once (0: no limit), and what it holds now.
    size_t limit;
    _Atomic size_t used;
};

// MARK: - The memory cap
//
// MuPDF's allocations are counted (by malloc_usable_size) and refused past the context's limit.
// A refused allocation makes MuPDF evict what its store holds and try again, then throw
// FZ_ERROR_MEMORY: a page with a two-gigapixel image fails with an error, the reader goes on.

/// Allocations refused on this thread: a render compares the count before and after, so that a
/// page MuPDF drew without what the cap refused (a blank or black image) is reported as failed.
static _Thread_local unsigned refused_here;

static int capped_fits(struct CMuPDF_context *context, size_t releasing, size_t size) {
    if (!context->limit) return 1;
    size_t used = atomic_load(&context->used) - releasing;
    if (size <= context->limit && used <= context->limit - size) return 1;
    refused_here++;
    return 0;
}

static void *capped_malloc(void *user, size_t size) {
    struct CMuPDF_context *context = user;
    if (!capped_fits(context, 0, size)) return NULL;
    void *p = malloc(size);
    if (p) atomic_fetch_add(&context->used, malloc_usable_size(p));
    return p;
}

static void capped_free(void *user, void *p) {
    struct CMuPDF_context *context = user;
    if (!p) return;
    atomic_fetch_sub(&context->used, malloc_usable_size(p));
    free(p);
}

static void *capped_realloc(void *user, void *old, size_t size) {
    struct CMuPDF_context *context = user;
    if (!old) return capped_malloc(user, size);
    if (size == 0) {
        capped_free(user, old);
        return NULL;
    }
    size_t before = malloc_usable_size(old);
    if (!capped_fits(context, before, size)) return NULL;
    void *p = realloc(old, size);
    if (p) {
        atomic_fetch_sub(&context->used, before);
        atomic_fetch_add(&context->used, malloc_usable_size(p));
    }
    return p;
}

size_t CMuPDF_context_memory_in_use(CMuPDF_context *context) { return atomic_load(&context->used); }

static void lock_mutex(void *user, int lock) {
    struct CMuPDF_context *context = user;
    pthread_mutex_lock(&context->mutexes[lock]);
}

static void unlock_mutex(void *user, int lock) {
    struct CMuPDF_context *context = user;
    pthread_mutex_unlock(&context->mutexes[lock]);
}

CMuPDF_context *CMuPDF_context_new(size_t memory_limit, CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    CMuPDF_context *context = calloc(1, sizeof *context);
    if (!context) {
        set_error(error, CMUPDF_ERROR_MEMORY, "out of memory allocating the MuPDF context");
        return NULL;
    }
    for (int i = 0; i < FZ_LOCK_MAX; i++) pthread_mutex_init(&context->mutexes[i], NULL);
    context->locks.user = context;
    context->locks.lock = lock_mutex;
    context->locks.unlock = unlock_mutex;
    context->limit = memory_limit;
    atomic_init(&context->used, 0);
    context->alloc.user = context;
    context->alloc.malloc = capped_malloc;
    context->alloc.realloc = capped_realloc;
    context->alloc.free = capped_free;
    // The store (decoded images, fonts) takes at most half the cap, so a page always has room.
    size_t store = memory_limit && memory_limit / 2 < FZ_STORE_DEFAULT ? memory_limit / 2 : FZ_STORE_DEFAULT;
    context->ctx = fz_new_context(&context->alloc, &context->locks, store);
    if (!context->ctx) {
        for (int i = 0; i < FZ_LOCK_MAX; i++) pthread_mutex_destroy(&context->mutexes[i]);
        free(context);
        set_error(error, CMUPDF_ERROR_NO_CONTEXT, "MuPDF could not create a context");
        return NULL;
    }
    install_log_callbacks(context->ctx, NULL);
    int failed = 0;
    fz_try(context->ctx) fz_register_document_handlers(context->ctx);
    fz_catch(context->ctx) failed = caught(context->ctx, error);
    if (failed) {
        CMuPDF_context_drop(context);
        return NULL;
    }
    return context;
}

void CMuPDF_context_drop(CMuPDF_context *context) {
    if (!context) return;
    fz_drop_context(context->ctx);
    for (int i = 0; i < FZ_LOCK_MAX; i++) pthread_mutex_destroy(&context->mutexes[i]);
    free(context);
}

/// A context cloned from `base` with our log callbacks naming `source` (clones share the store and
/// locks). `source` must outlive the context.
static fz_context *clone_context(CMuPDF_context *base, const char *source, CMuPDF_error *error) {
    fz_context *ctx = base ? fz_clone_context(base->ctx) : NULL;
    if (!ctx) {
        set_error(error, CMUPDF_ERROR_NO_CONTEXT, "MuPDF could not clone its context");
        return NULL;
    }
    install_log_callbacks(ctx, source);
    return ctx;
}

// MARK: - Documents
//
// Threading (MuPDF's docs/examples/multi-threaded.c pattern):
// - `doc_lock` guards the fz_document and `ctx`, the context it is used with: opening, counting,
//   page objects, the page tree, page labels and recording display lists. Nothing else uses them.
// - `cache_lock` guards the display-list LRU only, and is held for a few instructions. Taken inside
//   `doc_lock` when a new list is stored; never the other way round.
// - `pool_lock` guards the pool of contexts cloned for rasterizing. A render checks one out, so each
//   context is used by one thread at a time, and checks it back in.
// A display list is immutable once recorded and reference counted (under MuPDF's FZ_LOCK_ALLOC):
// a render keeps its own reference and replays it with its pooled context WITHOUT `doc_lock`, so
// tiles of the same document rasterize in parallel and an evicted list lives until its last render.

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

static void walk_drop(CMuPDF_document *document);

/// Takes `doc_lock`. With a cookie, waits in short slices and gives up with
/// CMUPDF_ERROR_ABORT when the cookie is aborted meanwhile, so a cancelled render never
/// waits for another page's recording to finish.
static int lock_document(CMuPDF_document *document, fz_cookie *cookie, CMuPDF_error *error) {
    if (!cookie) {
        pthread_mutex_lock(&document->doc_lock);
        return CMUPDF_OK;
    }
    for (;;) {
        if (__atomic_load_n(&cookie->abort, __ATOMIC_RELAXED)) {
            set_error(error, CMUPDF_ERROR_ABORT, "render cancelled");
            return CMUPDF_ERROR_ABORT;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 2 * 1000 * 1000;
        if (until.tv_nsec >= 1000 * 1000 * 1000) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000 * 1000 * 1000;
        }
        int rc = pthread_mutex_timedlock(&document->doc_lock, &until);
        if (rc == 0) return CMUPDF_OK;
        if (rc != ETIMEDOUT) {
            pthread_mutex_lock(&document->doc_lock);
            return CMUPDF_OK;
        }
    }
}

static void unlock_document(CMuPDF_document *document) { pthread_mutex_unlock(&document->doc_lock); }

/// A context for one render on the calling thread: from the pool, or cloned from the base.
/// NULL (with `error` filled) when MuPDF cannot clone. Give it back with checkin_context.
static fz_context *checkout_context(CMuPDF_document *document, CMuPDF_error *error) {
    fz_context *ctx = NULL;
    pthread_mutex_lock(&document->pool_lock);
    if (document->pool_count > 0) ctx = document->pool[--document->pool_count];
    pthread_mutex_unlock(&document->pool_lock);
    return ctx ? ctx : clone_context(document->base, document->path, error);
}

static void checkin_context(CMuPDF_document *document, fz_context *ctx) {
    pthread_mutex_lock(&document->pool_lock);
    if (document->pool_count < LECTERN_CONTEXT_POOL_SIZE) {
        document->pool[document->pool_count++] = ctx;
        ctx = NULL;
    }
    pthread_mutex_unlock(&document->pool_lock);
    if (ctx) fz_drop_context(ctx);
}

CMuPDF_document *CMuPDF_document_open(CMuPDF_context *base, const char *path,
                                                    CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    CMuPDF_document *document = calloc(1, sizeof *document);
    char *path_copy = strdup(path);
    if (!document || !path_copy) {
        free(document);
        free(path_copy);
        set_error(error, CMUPDF_ERROR_MEMORY, "out of memory");
        return NULL;
    }
    document->base = base;
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
        if (!failed) set_error(error, CMUPDF_ERROR_GENERIC, "MuPDF returned no document");
        fz_drop_context(ctx);
        free(document->path);
        free(document);
        return NULL;
    }
    document->ctx = ctx;
    document->doc = doc;
    document->pdf = pdf_document_from_fz_document(ctx, doc);
    atomic_init(&document->page_count, -1);
    atomic_init(&document->edits, 0);
    atomic_init(&document->saved, 0);
    pthread_mutex_init(&document->doc_lock, NULL);
    pthread_mutex_init(&document->cache_lock, NULL);
    pthread_mutex_init(&document->pool_lock, NULL);
    return document;
}

void CMuPDF_document_drop(CMuPDF_document *document) {
    if (!document) return;
    // The caller guarantees no call is in flight, so no lock is needed; teardown mirrors open.
    for (int i = 0; i < document->pool_count; i++) fz_drop_context(document->pool[i]);
    for (int i = 0; i < LECTERN_LIST_CACHE_SIZE; i++) fz_drop_display_list(document->ctx, document->lists[i].list);
    walk_drop(document);
    fz_drop_document(document->ctx, document->doc);
    fz_drop_context(document->ctx); // flushes repeated warnings, which still name document->path
    pthread_mutex_destroy(&document->pool_lock);
    pthread_mutex_destroy(&document->cache_lock);
    pthread_mutex_destroy(&document->doc_lock);
    free(document->path);
    free(document);
}

int CMuPDF_document_needs_password(CMuPDF_document *document, CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    int needs = 0, failed = 0;
    fz_try(ctx) needs = fz_needs_password(ctx, document->doc);
    fz_catch(ctx) failed = caught(ctx, error);
    unlock_document(document);
    if (failed) return -1;
    return needs ? 1 : 0;
}

int CMuPDF_document_authenticate(CMuPDF_document *document, const char *password,
                                        CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    int ok = 0, failed = 0;
    fz_try(ctx) ok = fz_authenticate_password(ctx, document->doc, password);
    fz_catch(ctx) failed = caught(ctx, error);
    unlock_document(document);
    if (failed) return -1;
    return ok ? 1 : 0;
}

/// fz_count_pages, read once and remembered. Call with doc_lock held.
static int count_pages_locked(CMuPDF_document *document, int *count, CMuPDF_error *error) {
    int known = atomic_load(&document->page_count);
    if (known >= 0) {
        *count = known;
        return CMUPDF_OK;
    }
    fz_context *ctx = document->ctx;
    fz_try(ctx) *count = fz_count_pages(ctx, document->doc);
    fz_catch(ctx) return caught(ctx, error);
    // Before authentication an encrypted file may not know its pages yet: only remember a real count.
    if (*count > 0) atomic_store(&document->page_count, *count);
    return CMUPDF_OK;
}

int CMuPDF_document_count_pages(CMuPDF_document *document, int *count, CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    lock_document(document, NULL, error);
    int status = count_pages_locked(document, count, error);
    unlock_document(document);
    return status;
}

int CMuPDF_document_known_page_count(CMuPDF_document *document) {
    return atomic_load(&document->page_count);
}

int CMuPDF_document_was_repaired(CMuPDF_document *document) {
    if (!document->pdf) return 0;
    CMuPDF_error ignored;
    lock_document(document, NULL, &ignored);
    int repaired = pdf_was_repaired(document->ctx, document->pdf) ? 1 : 0;
    unlock_document(document);
    return repaired;
}

int CMuPDF_document_is_pdf(CMuPDF_document *document) { return document->pdf ? 1 : 0; }

int CMuPDF_document_is_right_to_left(CMuPDF_document *document, int *rtl, CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    *rtl = 0;
    if (!document->pdf) return CMUPDF_OK;
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    int status = CMUPDF_OK;
    fz_try(ctx) {
        pdf_obj *direction = pdf_dict_getp(ctx, pdf_trailer(ctx, document->pdf), "Root/ViewerPreferences/Direction");
        *rtl = strcmp(pdf_to_name(ctx, direction), "R2L") == 0 ? 1 : 0; // R2L has no PDF_NAME constant
    }
    fz_catch(ctx) status = caught(ctx, error);
    unlock_document(document);
    return status;
}

static void copy_rect(float out[4], fz_rect rect) {
    out[0] = rect.x0;
    out[1] = rect.y0;
    out[2] = rect.x1;
    out[3] = rect.y1;
}

/// Checks `index` against the page count without taking doc_lock once the count is known.
static int check_index(CMuPDF_document *document, int index, CMuPDF_error *error) {
    int count = atomic_load(&document->page_count);
    if (count < 0) {
        int status = CMuPDF_document_count_pages(document, &count, error);
        if (status != CMUPDF_OK) return status;
    }
    if (index < 0 || index >= count) {
        char message[128];
        snprintf(message, sizeof message, "page index %d is out of range 0..<%d", index, count);
        set_error(error, CMUPDF_ERROR_ARGUMENT, message);
        return CMUPDF_ERROR_ARGUMENT;
    }
    return CMUPDF_OK;
}

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
static void walk_locked(CMuPDF_document *document, int want, int budget) {
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
static void walk_to_page_locked(CMuPDF_document *document, int index) {
    if (index < document->walk.page_count) return;
    walk_locked(document, index + 1, INT_MAX);
    if (index >= document->walk.page_count)
        fz_throw(document->ctx, FZ_ERROR_GENERIC, "there is no page %d: the page tree holds %d pages", index + 1,
                 document->walk.page_count);
}

/// Frees the walk and takes its map back from MuPDF (which would free the reverse map, not the
/// forward one). No call may be in flight.
static void walk_drop(CMuPDF_document *document) {
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
    set_error(error, CMUPDF_OK, "");
    memset(tree, 0, sizeof *tree);
    if (!document->pdf) {
        int count = 0;
        int status = CMuPDF_document_count_pages(document, &count, error);
        tree->done = 1;
        tree->pages = count;
        return status;
    }
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    int status = CMUPDF_OK;
    fz_try(ctx) walk_locked(document, INT_MAX, max_kids > 0 ? max_kids : INT_MAX);
    fz_catch(ctx) status = caught(ctx, error);
    page_walk *walk = &document->walk;
    tree->done = walk->done;
    tree->pages = walk->page_count;
    tree->kids = walk->kids;
    tree->skipped = walk->skipped;
    unlock_document(document);
    return status;
}

int CMuPDF_document_claimed_page_count(CMuPDF_document *document, int64_t *claimed,
                                              CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    *claimed = -1;
    if (!document->pdf) return CMUPDF_OK;
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    int status = CMUPDF_OK;
    fz_try(ctx) *claimed = read_claimed_count_locked(ctx, document->pdf);
    fz_catch(ctx) status = caught(ctx, error);
    unlock_document(document);
    return status;
}

/// pdf_clear_xref, sparing the edits: MuPDF's own drops every object only its xref holds, in every
/// section, and an edited object (an annotation dictionary after setAnnotationRect) lives only in the
/// in-memory incremental section: dropped there, it would be read again from the file as it was, and
/// the edit lost. This walks the sections read from the file only (those past the incremental ones);
/// an object also in an incremental section is found there first, so dropping its old copy is safe.
/// Call with doc_lock held, inside fz_try.
static void clear_unedited_objects(fz_context *ctx, pdf_document *pdf) {
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
    lock_document(document, NULL, &error);
    fz_context *ctx = document->ctx;
    // Objects only the xref cache holds (the page dictionaries read for the sizes) go; MuPDF reads
    // them again from the file when a page needs them. The page map stays: 12 bytes a page.
    fz_try(ctx) clear_unedited_objects(ctx, document->pdf);
    fz_catch(ctx) caught(ctx, &error);
    unlock_document(document);
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
    walk_to_page_locked(document, index);
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
    copy_rect(info->media_box, media);
    // The shown box: the crop box clipped to the media box, normalised, at least 1x1 (else the unit rect).
    fz_rect crop;
    fz_matrix ctm;
    pdf_page_obj_transform(ctx, page, &crop, &ctm);
    copy_rect(info->crop_box, crop);
    copy_rect(info->bounds, fz_transform_rect(crop, ctm));
    // pdf_page_obj_transform's snapping, which it does not return: to the nearest quarter turn.
    int rotate = pdf_to_int(ctx, pdf_dict_get_inheritable(ctx, page, PDF_NAME(Rotate)));
    if (rotate < 0) rotate = 360 - ((-rotate) % 360);
    if (rotate >= 360) rotate = rotate % 360;
    rotate = 90 * ((rotate + 45) / 90);
    info->rotation = rotate >= 360 ? 0 : rotate;
    info->status = CMUPDF_OK;
}

int CMuPDF_page_get_info(CMuPDF_document *document, int index, CMuPDF_page_info *info,
                                CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    memset(info, 0, sizeof *info);
    int status = check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    if (!document->pdf) {
        set_error(error, CMUPDF_ERROR_ARGUMENT, "not a PDF document");
        return CMUPDF_ERROR_ARGUMENT;
    }
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    fz_try(ctx) page_info_locked(document, index, info);
    fz_catch(ctx) status = caught(ctx, error);
    unlock_document(document);
    info->status = status;
    return status;
}

int CMuPDF_page_get_infos(CMuPDF_document *document, int start, int count,
                                 CMuPDF_page_info *infos, CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    if (count <= 0) return CMUPDF_OK;
    int status = check_index(document, start, error);
    if (status == CMUPDF_OK) status = check_index(document, start + count - 1, error);
    if (status != CMUPDF_OK) return status;
    if (!document->pdf) {
        set_error(error, CMUPDF_ERROR_ARGUMENT, "not a PDF document");
        return CMUPDF_ERROR_ARGUMENT;
    }
    memset(infos, 0, sizeof *infos * (size_t)count);
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    for (int i = 0; i < count; i++) {
        fz_try(ctx) page_info_locked(document, start + i, &infos[i]);
        fz_catch(ctx) {
            int code = fz_caught(ctx);
            infos[i].status = code == FZ_ERROR_NONE ? FZ_ERROR_GENERIC : code;
        }
    }
    unlock_document(document);
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
    set_error(error, CMUPDF_OK, "");
    *ranges = NULL;
    *count = 0;
    if (!document->pdf) return CMUPDF_OK;
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    label_walk walk = {0};
    int status = CMUPDF_OK;
    fz_try(ctx) {
        pdf_obj *tree = pdf_dict_getp(ctx, pdf_trailer(ctx, document->pdf), "Root/PageLabels");
        if (tree) walk_label_tree(ctx, tree, 0, &walk);
    }
    fz_catch(ctx) status = caught(ctx, error);
    unlock_document(document);
    if (status == CMUPDF_OK && walk.count > 0) {
        // Plain malloc: the caller frees it without a MuPDF context.
        *ranges = malloc(sizeof **ranges * (size_t)walk.count);
        if (*ranges) {
            memcpy(*ranges, walk.ranges, sizeof **ranges * (size_t)walk.count);
            qsort(*ranges, (size_t)walk.count, sizeof **ranges, compare_label_ranges);
            *count = walk.count;
        } else {
            status = CMUPDF_ERROR_MEMORY;
            set_error(error, status, "out of memory reading /PageLabels");
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
    set_error(error, CMUPDF_OK, "");
    if (size <= 0) {
        set_error(error, CMUPDF_ERROR_ARGUMENT, "no room for the title");
        return CMUPDF_ERROR_ARGUMENT;
    }
    title[0] = 0;
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    int status = CMUPDF_OK, found = -1;
    fz_try(ctx) found = fz_lookup_metadata(ctx, document->doc, FZ_META_INFO_TITLE, title, size);
    fz_catch(ctx) status = caught(ctx, error);
    unlock_document(document);
    if (status != CMUPDF_OK || found < 0) title[0] = 0;
    title[size - 1] = 0;
    if (found > size) trim_partial_utf8(title); // fz_strlcpy cut it anywhere
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
    set_error(error, CMUPDF_OK, "");
    memset(presentation, 0, sizeof *presentation);
    presentation->duration = -1;
    presentation->transition_duration = 1;
    int status = check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    if (!document->pdf) return CMUPDF_OK; // other formats have no presentation keys
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    fz_try(ctx) page_presentation_locked(document, index, presentation);
    fz_catch(ctx) status = caught(ctx, error);
    unlock_document(document);
    return status;
}

// MARK: - Pages

/// Loads page `index` with the document context (fz_load_page: the page dictionary, its annotations
/// and links; not its content). Call with doc_lock held, inside fz_try (throws); drop the page with
/// fz_drop_page before releasing doc_lock.
static fz_page *load_page_locked(CMuPDF_document *document, int index) {
    fz_context *ctx = document->ctx;
    pdf_document *pdf = document->pdf;
    int *hidden = NULL;
    if (pdf) {
        walk_to_page_locked(document, index);
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
/// space of its display list and of its links; the identity for other formats. Call inside fz_try.
static fz_matrix page_transform(fz_context *ctx, fz_page *page) {
    fz_matrix ctm = fz_identity;
    pdf_page *pdf_page = pdf_page_from_fz_page(ctx, page);
    if (pdf_page) pdf_page_transform(ctx, pdf_page, NULL, &ctm);
    return ctm;
}

/// Copies `rect`, in fitz page space, as PDF user space (unrotated, y up) to `out`. `to_user` is the
/// inverse of the page's page_transform.
static void copy_user_rect(float out[4], fz_rect rect, fz_matrix to_user) {
    copy_rect(out, fz_transform_rect(rect, to_user));
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

/// A render's own reference to a cached (or just recorded) list, and what it needs to replay it.
typedef struct list_ref {
    fz_display_list *list; // one reference, dropped by release_list
    fz_rect bounds;
    fz_matrix page_ctm;
    int errors;
} list_ref;

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
        page = load_page_locked(document, index);
        out->bounds = fz_bound_page(ctx, page);
        out->page_ctm = page_transform(ctx, page);
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
        fz_try(ctx) clear_unedited_objects(ctx, document->pdf);
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
    int status = lock_document(document, cookie, error);
    if (status != CMUPDF_OK) return status;
    // Another thread may have recorded it while this one waited.
    if (find_cached_list(document, ctx, index, out)) {
        unlock_document(document);
        return CMUPDF_OK;
    }
    fz_context *doc_ctx = document->ctx;
    fz_display_list *list = NULL;
    fz_try(doc_ctx) list = record_list_locked(document, index, cookie, out);
    fz_catch(doc_ctx) status = caught(doc_ctx, error);
    if (status == CMUPDF_OK && list) {
        out->list = fz_keep_display_list(doc_ctx, list);
        cache_list_locked(document, index, list, out);
    } else if (status == CMUPDF_OK) {
        set_error(error, CMUPDF_ERROR_ABORT, "render cancelled");
        status = CMUPDF_ERROR_ABORT;
    }
    unlock_document(document);
    return status;
}

// MARK: - Rendering

/// Checks `index`, checks out a context into `*ctx` and acquires the page's display list into `ref`.
/// On success the caller drops ref->list and checks `*ctx` back in; on failure nothing is left to do.
static int checkout_list(CMuPDF_document *document, int index, fz_cookie *cookie, fz_context **ctx,
                         list_ref *ref, CMuPDF_error *error) {
    int status = check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    *ctx = checkout_context(document, error);
    if (!*ctx) return CMUPDF_ERROR_NO_CONTEXT;
    status = acquire_list(document, *ctx, index, cookie, ref, error);
    if (status != CMUPDF_OK) checkin_context(document, *ctx);
    return status;
}

int CMuPDF_page_prepare(CMuPDF_document *document, int index, CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    fz_context *ctx = NULL;
    fz_cookie cookie = {0};
    list_ref ref;
    int status = checkout_list(document, index, &cookie, &ctx, &ref, error);
    if (status != CMUPDF_OK) return status;
    fz_drop_display_list(ctx, ref.list); // the cache keeps its own reference
    checkin_context(document, ctx);
    return CMUPDF_OK;
}

int CMuPDF_page_render(CMuPDF_document *document, int index, float scale, int x, int y, int width,
                              int height, unsigned char *pixels, ptrdiff_t stride, CMuPDF_cookie *cookie,
                              CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    if (width <= 0 || height <= 0 || !pixels || stride < (ptrdiff_t)width * 4 || stride > INT32_MAX ||
        !(scale > 0)) {
        set_error(error, CMUPDF_ERROR_ARGUMENT, "invalid render region, stride or scale");
        return CMUPDF_ERROR_ARGUMENT;
    }
    int status = check_index(document, index, error);
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
            set_error(error, CMUPDF_ERROR_ABORT, "render cancelled");
            return CMUPDF_ERROR_ABORT;
        }
    }
    fz_context *ctx = checkout_context(document, error);
    if (!ctx) return CMUPDF_ERROR_NO_CONTEXT;
    unsigned refused_before = refused_here;
    list_ref ref;
    status = acquire_list(document, ctx, index, fzcookie, &ref, error);
    if (status != CMUPDF_OK) {
        checkin_context(document, ctx);
        return status;
    }
    // From here on no document lock: only this thread's context, the list and the caller's memory.
    fz_pixmap *pixmap = NULL;
    fz_device *device = NULL;
    fz_var(pixmap);
    fz_var(device);
    fz_try(ctx) {
        fz_matrix ctm = fz_scale(scale, scale);
        fz_rect bounds = fz_transform_rect(ref.bounds, ctm);
        // Device pixel (0,0) is the top-left of the scaled, rotated page; then move the region there.
        ctm = fz_concat(ctm, fz_translate(-bounds.x0 - (float)x, -bounds.y0 - (float)y));
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
    fz_catch(ctx) status = caught(ctx, error);
    checkin_context(document, ctx);
    if (status != CMUPDF_OK) return status;
    if (fzcookie->abort) {
        set_error(error, CMUPDF_ERROR_ABORT, "render cancelled");
        return CMUPDF_ERROR_ABORT;
    }
    if (refused_here != refused_before) {
        // MuPDF carried on without what the cap refused (an image left out, or drawn black).
        set_error(error, CMUPDF_ERROR_MEMORY, "the page needs more memory than MuPDF may take");
        return CMUPDF_ERROR_MEMORY;
    }
    int errors = fzcookie->errors + ref.errors;
    if (errors > 0) {
        char message[128];
        snprintf(message, sizeof message, "%d error(s) in the page content", errors);
        set_error(error, CMUPDF_ERROR_CONTENT, message);
        return CMUPDF_ERROR_CONTENT;
    }
    return CMUPDF_OK;
}

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
        copy_user_rect(visit->out + 4 * i++, block->bbox, to_user);
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
    set_error(error, CMUPDF_OK, "");
    fz_context *ctx = NULL;
    fz_cookie cookie = {0};
    list_ref ref;
    int status = checkout_list(document, index, &cookie, &ctx, &ref, error);
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
    fz_catch(ctx) status = caught(ctx, error);
    checkin_context(document, ctx);
    return status;
}

// MARK: - Links

/// Takes MuPDF's forward page map away for a call that resolves destinations: MuPDF 1.21 looks a
/// destination's page object up in it with a kept reference it never gives back
/// (pdf_lookup_page_obj, see lookup_page_obj), which leaked the target pages' dictionaries. Without
/// it MuPDF walks the tree for them (borrowed); page numbers still come from the reverse map (no
/// reference). Returns the map for show_forward_map (NULL: nothing was hidden).
static int *hide_forward_map(CMuPDF_document *document) {
    int *map = document->pdf ? document->pdf->fwd_page_map : NULL;
    if (map) document->pdf->fwd_page_map = NULL;
    return map;
}

/// Puts back what hide_forward_map took away.
static void show_forward_map(CMuPDF_document *document, int *map) {
    if (map) document->pdf->fwd_page_map = map;
}

int CMuPDF_page_links(CMuPDF_document *document, int index, CMuPDF_link **links, int *count,
                             CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    *links = NULL;
    *count = 0;
    int status = check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
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
        if (document->pdf) walk_locked(document, INT_MAX, INT_MAX);
        int page_count = atomic_load(&document->page_count);
        // Loading the page reads its annotations and links (pdf_load_page), not its content.
        page = load_page_locked(document, index);
        // Link parsing resolves destinations: see hide_forward_map.
        hidden_map = hide_forward_map(document);
        head = fz_load_links(ctx, page);
        // The link rects are in fitz page space (rotated, y down); the caller wants PDF user space.
        fz_matrix to_user = fz_invert_matrix(page_transform(ctx, page));
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
            copy_user_rect(entry->rect, link->rect, to_user);
            i++;
        }
        *links = out;
        *count = i;
    }
    fz_always(ctx) {
        show_forward_map(document, hidden_map);
        fz_drop_link(ctx, head);
        fz_drop_page(ctx, page);
    }
    fz_catch(ctx) {
        free(out);
        *links = NULL;
        *count = 0;
        status = caught(ctx, error);
    }
    unlock_document(document);
    return status;
}

// MARK: - Annotations

/// A malloc'd copy of `text` (NULL: ""), cut at CMUPDF_ANNOTATION_STRING_MAX bytes (`*cut` set then).
/// Throws (FZ_ERROR_MEMORY) when malloc fails. Call inside fz_try.
static char *copy_capped(fz_context *ctx, const char *text, int *cut) {
    if (!text) text = "";
    size_t length = strnlen(text, CMUPDF_ANNOTATION_STRING_MAX + 1);
    if (length > CMUPDF_ANNOTATION_STRING_MAX) {
        length = CMUPDF_ANNOTATION_STRING_MAX;
        *cut = 1;
    }
    char *copy = malloc(length + 1);
    if (!copy) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory copying an annotation string");
    memcpy(copy, text, length);
    copy[length] = 0;
    return copy;
}

static void free_annotation(CMuPDF_annotation *entry) {
    free(entry->subtype);
    free(entry->contents);
    free(entry->author);
    free(entry->field_name);
    free(entry->value);
    for (int i = 0; i < entry->option_count; i++) free(entry->options[i]);
    free(entry->options);
    memset(entry, 0, sizeof *entry);
}

void CMuPDF_annotations_free(CMuPDF_annotation *annotations, int count) {
    if (!annotations) return;
    for (int i = 0; i < count; i++) free_annotation(&annotations[i]);
    free(annotations);
}

/// A coordinate a caller can use: not finite (a file can write 1e400) becomes 0.
static float finite_or_zero(float value) { return isfinite(value) ? value : 0; }

static int field_type(enum pdf_widget_type type, int flags) {
    switch (type) {
    case PDF_WIDGET_TYPE_TEXT:
        return flags & PDF_TX_FIELD_IS_MULTILINE ? CMUPDF_FIELD_MULTILINE_TEXT : CMUPDF_FIELD_TEXT;
    case PDF_WIDGET_TYPE_CHECKBOX: return CMUPDF_FIELD_CHECKBOX;
    case PDF_WIDGET_TYPE_RADIOBUTTON: return CMUPDF_FIELD_RADIO;
    case PDF_WIDGET_TYPE_COMBOBOX: return CMUPDF_FIELD_COMBO_CHOICE;
    case PDF_WIDGET_TYPE_LISTBOX: return CMUPDF_FIELD_LIST_CHOICE;
    case PDF_WIDGET_TYPE_BUTTON: return CMUPDF_FIELD_PUSH_BUTTON;
    case PDF_WIDGET_TYPE_SIGNATURE: return CMUPDF_FIELD_SIGNATURE;
    default: return CMUPDF_FIELD_UNKNOWN;
    }
}

/// Reads one annotation into `entry` (zeroed by the caller). Call with doc_lock held, inside fz_try
/// (throws; `entry` then holds what was copied so far, for free_annotation).
static void read_annotation(fz_context *ctx, pdf_annot *annot, int is_widget, fz_matrix to_user,
                            CMuPDF_annotation *entry, int *cut) {
    pdf_obj *obj = pdf_annot_obj(ctx, annot);
    entry->object = pdf_to_num(ctx, obj);
    entry->field_type = CMUPDF_FIELD_NONE;
    entry->type = pdf_annot_type(ctx, annot);
    entry->subtype = copy_capped(ctx, pdf_to_name(ctx, pdf_dict_get(ctx, obj, PDF_NAME(Subtype))), cut);
    // /Rect as written is already in PDF user space. (pdf_annot_rect, in page space, throws for the
    // subtypes MuPDF 1.21 computes the rect of itself: Ink, Polygon, Line…; pdf_bound_annot is the
    // same rect in page space for every subtype, the fallback when /Rect is missing.)
    pdf_obj *rect_obj = pdf_dict_get(ctx, obj, PDF_NAME(Rect));
    fz_rect rect = pdf_is_array(ctx, rect_obj) ? pdf_to_rect(ctx, rect_obj)
                                               : fz_transform_rect(pdf_bound_annot(ctx, annot), to_user);
    entry->rect[0] = finite_or_zero(rect.x0);
    entry->rect[1] = finite_or_zero(rect.y0);
    entry->rect[2] = finite_or_zero(rect.x1);
    entry->rect[3] = finite_or_zero(rect.y1);
    entry->flags = pdf_annot_flags(ctx, annot);
    int n = 0;
    float color[4] = {0, 0, 0, 0};
    pdf_annot_color(ctx, annot, &n, color);
    entry->color_count = n >= 0 && n <= 4 ? n : 0;
    for (int i = 0; i < entry->color_count; i++) entry->color[i] = finite_or_zero(color[i]);
    entry->contents = copy_capped(ctx, pdf_annot_contents(ctx, annot), cut);
    // Only markup annotations have an author (a widget's /T is its field name); asking another
    // throws (and logs an error).
    entry->author = copy_capped(ctx, pdf_annot_has_author(ctx, annot) ? pdf_annot_author(ctx, annot) : "", cut);
    if (!is_widget) {
        entry->field_name = copy_capped(ctx, "", cut);
        entry->value = copy_capped(ctx, "", cut);
        return;
    }
    entry->field_flags = pdf_field_flags(ctx, obj);
    enum pdf_widget_type widget_type = pdf_widget_type(ctx, annot);
    entry->field_type = field_type(widget_type, entry->field_flags);
    char *name = pdf_field_name(ctx, obj);
    fz_try(ctx) entry->field_name = copy_capped(ctx, name, cut);
    fz_always(ctx) fz_free(ctx, name);
    fz_catch(ctx) fz_rethrow(ctx);
    entry->value = copy_capped(ctx, pdf_field_value(ctx, obj), cut);
    if (widget_type == PDF_WIDGET_TYPE_TEXT) entry->max_length = pdf_text_widget_max_len(ctx, annot);
    if (widget_type == PDF_WIDGET_TYPE_COMBOBOX || widget_type == PDF_WIDGET_TYPE_LISTBOX) {
        int total = pdf_choice_widget_options(ctx, annot, 0, NULL);
        if (total > CMUPDF_ANNOTATION_OPTIONS_MAX) {
            *cut = 1;
            total = CMUPDF_ANNOTATION_OPTIONS_MAX;
        }
        if (total > 0) {
            // pdf_choice_widget_options writes every option: room for all of them, then copy the first `total`.
            int all = pdf_choice_widget_options(ctx, annot, 0, NULL);
            const char **options = fz_malloc_array(ctx, all, const char *);
            fz_try(ctx) {
                pdf_choice_widget_options(ctx, annot, 0, options);
                entry->options = calloc((size_t)total, sizeof *entry->options);
                if (!entry->options) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory copying choice options");
                for (int i = 0; i < total; i++) {
                    entry->options[i] = copy_capped(ctx, options[i], cut);
                    entry->option_count = i + 1;
                }
            }
            fz_always(ctx) fz_free(ctx, options);
            fz_catch(ctx) fz_rethrow(ctx);
        }
    }
}

int CMuPDF_page_annotations(CMuPDF_document *document, int index, CMuPDF_annotation **annotations, int *count,
                            int *truncated, CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    *annotations = NULL;
    *count = 0;
    *truncated = 0;
    int status = check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    fz_page *page = NULL;
    CMuPDF_annotation *out = NULL;
    int used = 0, cut = 0;
    fz_var(page);
    fz_var(out);
    fz_var(used);
    fz_var(cut);
    fz_try(ctx) {
        // Loading the page reads its annotations and widgets (pdf_load_page), not its content.
        page = load_page_locked(document, index);
        pdf_page *pdf_page = pdf_page_from_fz_page(ctx, page);
        if (pdf_page) {
            fz_matrix to_user = fz_invert_matrix(page_transform(ctx, page));
            out = calloc(CMUPDF_ANNOTATIONS_MAX, sizeof *out);
            if (!out) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory listing annotations");
            for (int pass = 0; pass < 2; pass++) {
                pdf_annot *annot = pass == 0 ? pdf_first_annot(ctx, pdf_page) : pdf_first_widget(ctx, pdf_page);
                for (; annot; annot = pass == 0 ? pdf_next_annot(ctx, annot) : pdf_next_widget(ctx, annot)) {
                    if (used == CMUPDF_ANNOTATIONS_MAX) {
                        cut = 1;
                        break;
                    }
                    CMuPDF_annotation *entry = &out[used];
                    fz_try(ctx) {
                        read_annotation(ctx, annot, pass == 1, to_user, entry, &cut);
                        used++;
                    }
                    fz_catch(ctx) {
                        if (fz_caught(ctx) == FZ_ERROR_MEMORY) fz_rethrow(ctx);
                        fz_warn(ctx, "page %d: skipping an annotation that cannot be read: %s", index + 1,
                                fz_caught_message(ctx));
                        free_annotation(entry);
                        cut = 1;
                    }
                }
            }
            if (used == 0) {
                free(out);
                out = NULL;
            }
        }
        *annotations = out;
        *count = used;
        *truncated = cut;
    }
    fz_always(ctx) fz_drop_page(ctx, page);
    fz_catch(ctx) {
        CMuPDF_annotations_free(out, used);
        *annotations = NULL;
        *count = 0;
        status = caught(ctx, error);
    }
    unlock_document(document);
    return status;
}

// MARK: - Annotation edits
//
// An edit runs under doc_lock with the document context, like recording a display list: it loads
// the page, finds the annotation by object number, changes it, lets MuPDF regenerate the
// appearances (pdf_update_page) and drops the page. Then every cached display list is dropped
// (under cache_lock): a field's value shows in each of its widgets, on any page, so the next render
// of any page records its list again from the edited document. A render already rasterizing holds
// its own reference to the old list (immutable, independent of the document), so it finishes with
// the pixels from before the edit and never sees a half-made change. JavaScript is not enabled
// (pdf_enable_js is never called): a form's keystroke, format, validate and calculate actions do
// not run, so a hostile document cannot loop forever under the document lock.

/// Drops every cached display list; renders holding one keep their own reference. Takes cache_lock.
static void drop_cached_lists(CMuPDF_document *document) {
    fz_display_list *dropped[LECTERN_LIST_CACHE_SIZE];
    pthread_mutex_lock(&document->cache_lock);
    for (int i = 0; i < LECTERN_LIST_CACHE_SIZE; i++) {
        dropped[i] = document->lists[i].list;
        document->lists[i].list = NULL;
    }
    pthread_mutex_unlock(&document->cache_lock);
    for (int i = 0; i < LECTERN_LIST_CACHE_SIZE; i++) fz_drop_display_list(document->ctx, dropped[i]);
}

/// What an edit does to the annotation it found; called inside fz_try with doc_lock held.
/// Throws to fail: refusals with CMUPDF_ERROR_REFUSED (see refuse).
typedef void (*annotation_edit)(fz_context *ctx, pdf_page *page, pdf_annot *annot, void *state);

/// Throws the shim's refusal status (an fz_throw code MuPDF itself never uses).
#define refuse(ctx, ...) fz_throw(ctx, CMUPDF_ERROR_REFUSED, __VA_ARGS__)

static int edit_annotation(CMuPDF_document *document, int index, int object, annotation_edit edit, void *state,
                           CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    if (!document->pdf) {
        set_error(error, CMUPDF_ERROR_REFUSED, "the document is not a PDF: it cannot be edited");
        return CMUPDF_ERROR_REFUSED;
    }
    int status = check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    fz_page *page = NULL;
    fz_var(page);
    fz_try(ctx) {
        page = load_page_locked(document, index);
        pdf_page *pdf_page = pdf_page_from_fz_page(ctx, page);
        pdf_annot *found = NULL;
        for (pdf_annot *a = pdf_first_annot(ctx, pdf_page); a && !found; a = pdf_next_annot(ctx, a))
            if (pdf_to_num(ctx, pdf_annot_obj(ctx, a)) == object) found = a;
        for (pdf_annot *w = pdf_first_widget(ctx, pdf_page); w && !found; w = pdf_next_widget(ctx, w))
            if (pdf_to_num(ctx, pdf_annot_obj(ctx, w)) == object) found = w;
        if (!found) fz_throw(ctx, CMUPDF_ERROR_NOT_FOUND, "page %d has no annotation %d", index + 1, object);
        edit(ctx, pdf_page, found, state);
        pdf_update_page(ctx, pdf_page);
        atomic_fetch_add(&document->edits, 1);
    }
    fz_always(ctx) fz_drop_page(ctx, page);
    fz_catch(ctx) {
        int code = fz_caught(ctx);
        status = code == CMUPDF_ERROR_REFUSED || code == CMUPDF_ERROR_NOT_FOUND ? code : FZ_ERROR_GENERIC;
        if (code == FZ_ERROR_MEMORY) status = CMUPDF_ERROR_MEMORY;
        set_error(error, status, fz_caught_message(ctx));
    }
    // Even a failed edit may have changed part of the document before it threw.
    drop_cached_lists(document);
    unlock_document(document);
    return status;
}

/// The flags that forbid moving, resizing or editing an annotation (or filling its field).
static void refuse_read_only(fz_context *ctx, pdf_annot *annot, int locked_too) {
    int flags = pdf_annot_flags(ctx, annot);
    if (flags & PDF_ANNOT_IS_READ_ONLY) refuse(ctx, "the annotation is read-only");
    if (locked_too && (flags & PDF_ANNOT_IS_LOCKED)) refuse(ctx, "the annotation is locked");
}

static int is_widget(fz_context *ctx, pdf_annot *annot) {
    return pdf_name_eq(ctx, pdf_dict_get(ctx, pdf_annot_obj(ctx, annot), PDF_NAME(Subtype)), PDF_NAME(Widget));
}

/// Maps `p` from the rectangle `from` onto `to` (translate + scale per axis); an axis along which
/// `from` is flat is only translated. Refuses a point that lands non-finite or far outside any page.
static fz_point map_point(fz_context *ctx, fz_point p, fz_rect from, fz_rect to) {
    float sx = from.x1 > from.x0 ? (to.x1 - to.x0) / (from.x1 - from.x0) : 1;
    float sy = from.y1 > from.y0 ? (to.y1 - to.y0) / (from.y1 - from.y0) : 1;
    fz_point q = fz_make_point(to.x0 + (p.x - from.x0) * sx, to.y0 + (p.y - from.y0) * sy);
    if (!isfinite(q.x) || !isfinite(q.y) || fabsf(q.x) > CMUPDF_EDIT_COORDINATE_MAX ||
        fabsf(q.y) > CMUPDF_EDIT_COORDINATE_MAX)
        refuse(ctx, "moving the annotation's points would put them far outside any page");
    return q;
}

/// Moves an annotation whose /Rect MuPDF derives from its points (Ink, Line, Polygon, PolyLine, text
/// markup): maps every point from the current /Rect onto `to` (page space) with MuPDF's setters,
/// which mark the annotation dirty; pdf_update_page (edit_annotation) then recomputes /Rect (the
/// points' bounds plus MuPDF's padding for the line width) and the appearance. Returns 0 for a
/// subtype that has no points.
static int move_points(fz_context *ctx, pdf_annot *annot, fz_matrix ctm, fz_rect to) {
    // /Rect as written, as CMuPDF_page_annotations reports it, in page space. (pdf_annot_rect throws
    // for these subtypes in 1.21; pdf_bound_annot is the bounds of the appearance MuPDF drew when
    // it loaded the page, not /Rect: only the fallback when /Rect is missing.)
    pdf_obj *rect = pdf_dict_get(ctx, pdf_annot_obj(ctx, annot), PDF_NAME(Rect));
    fz_rect from =
        pdf_is_array(ctx, rect) ? fz_transform_rect(pdf_to_rect(ctx, rect), ctm) : pdf_bound_annot(ctx, annot);
    if (!isfinite(from.x0) || !isfinite(from.y0) || !isfinite(from.x1) || !isfinite(from.y1) ||
        from.x1 < from.x0 || from.y1 < from.y0)
        refuse(ctx, "the annotation's own rectangle is not finite");
    if (pdf_annot_has_line(ctx, annot)) {
        fz_point a, b;
        pdf_annot_line(ctx, annot, &a, &b);
        a = map_point(ctx, a, from, to);
        pdf_set_annot_line(ctx, annot, a, map_point(ctx, b, from, to));
        return 1;
    }
    fz_point *points = NULL;
    fz_quad *quads = NULL;
    int *counts = NULL;
    int moved = 1;
    fz_var(points);
    fz_var(quads);
    fz_var(counts);
    fz_try(ctx) {
        if (pdf_annot_has_ink_list(ctx, annot)) {
            int strokes = pdf_annot_ink_list_count(ctx, annot), total = 0;
            counts = fz_malloc_array(ctx, strokes, int);
            for (int i = 0; i < strokes; i++) {
                counts[i] = pdf_annot_ink_list_stroke_count(ctx, annot, i);
                if (counts[i] > INT_MAX - total) refuse(ctx, "the ink list is too long");
                total += counts[i];
            }
            points = fz_malloc_array(ctx, total, fz_point);
            for (int i = 0, k = 0; i < strokes; i++)
                for (int j = 0; j < counts[i]; j++, k++)
                    points[k] = map_point(ctx, pdf_annot_ink_list_stroke_vertex(ctx, annot, i, j), from, to);
            pdf_set_annot_ink_list(ctx, annot, strokes, counts, points);
        } else if (pdf_annot_has_vertices(ctx, annot)) {
            int n = pdf_annot_vertex_count(ctx, annot);
            points = fz_malloc_array(ctx, n, fz_point);
            for (int i = 0; i < n; i++) points[i] = map_point(ctx, pdf_annot_vertex(ctx, annot, i), from, to);
            pdf_set_annot_vertices(ctx, annot, n, points);
        } else if (pdf_annot_has_quad_points(ctx, annot)) {
            int n = pdf_annot_quad_point_count(ctx, annot);
            quads = fz_malloc_array(ctx, n, fz_quad);
            for (int i = 0; i < n; i++) {
                fz_quad q = pdf_annot_quad_point(ctx, annot, i);
                quads[i] = (fz_quad){map_point(ctx, q.ul, from, to), map_point(ctx, q.ur, from, to),
                                     map_point(ctx, q.ll, from, to), map_point(ctx, q.lr, from, to)};
            }
            pdf_set_annot_quad_points(ctx, annot, n, quads);
        } else {
            moved = 0;
        }
    }
    fz_always(ctx) {
        fz_free(ctx, points);
        fz_free(ctx, quads);
        fz_free(ctx, counts);
    }
    fz_catch(ctx) fz_rethrow(ctx);
    return moved;
}

static void edit_rect(fz_context *ctx, pdf_page *page, pdf_annot *annot, void *state) {
    const float *r = state;
    refuse_read_only(ctx, annot, 1);
    if (is_widget(ctx, annot) && (pdf_field_flags(ctx, pdf_annot_obj(ctx, annot)) & PDF_FIELD_IS_READ_ONLY))
        refuse(ctx, "the form field is read-only");
    // The caller's rect is in PDF user space; MuPDF's setters take page space (rotated, y down).
    fz_matrix ctm;
    pdf_page_transform(ctx, page, NULL, &ctm);
    fz_rect to = fz_transform_rect(fz_make_rect(r[0], r[1], r[2], r[3]), ctm);
    // MuPDF 1.21's rect_subtypes (pdf_annot_has_rect is not exported): their /Rect is set as is.
    static const char *movable[] = {"Text", "FreeText", "Square", "Circle", "Redact", "Stamp", "Caret",
                                    "Popup", "FileAttachment", "Sound", "Movie", "Widget"};
    const char *subtype = pdf_to_name(ctx, pdf_dict_get(ctx, pdf_annot_obj(ctx, annot), PDF_NAME(Subtype)));
    for (size_t i = 0; i < sizeof movable / sizeof *movable; i++) {
        if (!strcmp(movable[i], subtype)) {
            pdf_set_annot_rect(ctx, annot, to);
            return;
        }
    }
    // The subtypes whose rect follows their points (/InkList, /L, /Vertices, /QuadPoints).
    if (!move_points(ctx, annot, ctm, to)) refuse(ctx, "MuPDF 1.21 cannot move or resize %.32s annotations", subtype);
}

int CMuPDF_annotation_set_rect(CMuPDF_document *document, int index, int object, const float rect[4],
                               CMuPDF_error *error) {
    for (int i = 0; i < 4; i++) {
        if (!isfinite(rect[i]) || fabsf(rect[i]) > CMUPDF_EDIT_COORDINATE_MAX) {
            set_error(error, CMUPDF_ERROR_ARGUMENT, "the rectangle is not finite or lies far outside any page");
            return CMUPDF_ERROR_ARGUMENT;
        }
    }
    if (rect[2] < rect[0] || rect[3] < rect[1]) {
        set_error(error, CMUPDF_ERROR_ARGUMENT, "the rectangle is inverted (x1 < x0 or y1 < y0)");
        return CMUPDF_ERROR_ARGUMENT;
    }
    return edit_annotation(document, index, object, edit_rect, (void *)rect, error);
}

static void edit_contents(fz_context *ctx, pdf_page *page, pdf_annot *annot, void *state) {
    refuse_read_only(ctx, annot, 0);
    if (pdf_annot_flags(ctx, annot) & PDF_ANNOT_IS_LOCKED_CONTENTS) refuse(ctx, "the annotation's contents are locked");
    if (is_widget(ctx, annot)) refuse(ctx, "a form field has a value, not contents");
    pdf_set_annot_contents(ctx, annot, state);
}

/// Refuses text longer than the caps, before MuPDF sees it.
static int check_text(const char *text, CMuPDF_error *error) {
    if (strnlen(text, CMUPDF_EDIT_STRING_MAX + 1) > CMUPDF_EDIT_STRING_MAX) {
        set_error(error, CMUPDF_ERROR_ARGUMENT, "the text is longer than 65,536 bytes");
        return CMUPDF_ERROR_ARGUMENT;
    }
    return CMUPDF_OK;
}

int CMuPDF_annotation_set_contents(CMuPDF_document *document, int index, int object, const char *text,
                                   CMuPDF_error *error) {
    int status = check_text(text, error);
    if (status != CMUPDF_OK) return status;
    return edit_annotation(document, index, object, edit_contents, (void *)text, error);
}

/// A field edit's input and output.
typedef struct field_edit {
    const char *value; // the new value (set_value), NULL (toggle)
    char *result;      // malloc'd: the field's value afterwards
} field_edit;

/// Refuses fields nobody may fill; returns the widget type.
static enum pdf_widget_type fillable_field(fz_context *ctx, pdf_annot *annot) {
    if (!is_widget(ctx, annot)) refuse(ctx, "the annotation is not a form field");
    refuse_read_only(ctx, annot, 0);
    enum pdf_widget_type type = pdf_widget_type(ctx, annot);
    if (type == PDF_WIDGET_TYPE_SIGNATURE) refuse(ctx, "a signature field cannot be filled in");
    if (pdf_field_flags(ctx, pdf_annot_obj(ctx, annot)) & PDF_FIELD_IS_READ_ONLY) refuse(ctx, "the form field is read-only");
    return type;
}

/// The number of characters (not bytes) of UTF-8 `text`.
static int utf8_length(const char *text) {
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if ((*p & 0xC0) != 0x80) n++;
    return n;
}

/// Copies the field's value into `edit->result` (plain malloc: the caller frees it).
static void copy_field_value(fz_context *ctx, pdf_annot *annot, field_edit *edit) {
    const char *value = pdf_field_value(ctx, pdf_annot_obj(ctx, annot));
    edit->result = strdup(value ? value : "");
    if (!edit->result) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory copying a field value");
}

/// The text of a structured-text line, as UTF-8 into `out` (cut at `size`).
static void line_text(fz_stext_line *line, char *out, size_t size) {
    size_t used = 0;
    for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) {
        char bytes[8];
        int n = fz_runetochar(bytes, ch->c);
        if (used + (size_t)n + 1 > size) break;
        memcpy(out + used, bytes, (size_t)n);
        used += (size_t)n;
    }
    while (used > 0 && out[used - 1] == ' ') used--;
    out[used] = 0;
}

/// Marks a list box's chosen option in its appearance, as PDF viewers do: MuPDF writes the
/// options as lines of text and nothing more ("TODO: Highlight selected items"). The option's
/// line is found in the appearance MuPDF just wrote (its structured text), and a light blue bar
/// the width of the field goes under it, inside the appearance's own clip, before its text.
static void highlight_list_choice(fz_context *ctx, pdf_page *page, pdf_annot *annot) {
    pdf_obj *field = pdf_annot_obj(ctx, annot);
    const char *value = pdf_field_value(ctx, field);
    const char *shown = NULL;
    int n = pdf_choice_field_option_count(ctx, field);
    for (int i = 0; i < n && !shown; i++)
        if (!strcmp(pdf_choice_field_option(ctx, field, 1, i), value) ||
            !strcmp(pdf_choice_field_option(ctx, field, 0, i), value))
            shown = pdf_choice_field_option(ctx, field, 0, i);
    if (!shown || !*shown) return;
    pdf_update_annot(ctx, annot);
    pdf_obj *ap = pdf_annot_ap(ctx, annot);
    if (!ap || !pdf_is_stream(ctx, ap)) return;

    // Where the option's line is, in page space (y down, the page's transform applied).
    fz_rect line_box = fz_empty_rect;
    fz_stext_page *text = pdf_new_stext_page_from_annot(ctx, annot, NULL);
    fz_try(ctx) {
        char buffer[512];
        for (fz_stext_block *block = text->first_block; block && fz_is_empty_rect(line_box); block = block->next) {
            if (block->type != FZ_STEXT_BLOCK_TEXT) continue;
            for (fz_stext_line *line = block->u.t.first_line; line; line = line->next) {
                line_text(line, buffer, sizeof buffer);
                if (!strcmp(buffer, shown) && line->first_char) {
                    // One line's pitch (MuPDF sets lines 1.116 sizes apart) about its baseline,
                    // not the glyphs' box, which reaches into the lines beside it.
                    float baseline = line->first_char->origin.y, size = line->first_char->size;
                    line_box = line->bbox;
                    line_box.y0 = baseline - 0.86f * size;
                    line_box.y1 = baseline + 0.25f * size;
                    break;
                }
            }
        }
    }
    fz_always(ctx) fz_drop_stext_page(ctx, text);
    fz_catch(ctx) fz_rethrow(ctx);
    if (fz_is_empty_rect(line_box)) return;

    // Page space to PDF user space, then to the appearance's form space (its /Matrix maps the
    // /BBox, and the result is fitted to /Rect).
    fz_matrix page_ctm;
    pdf_page_transform(ctx, page, NULL, &page_ctm);
    fz_rect user = fz_transform_rect(line_box, fz_invert_matrix(page_ctm));
    // /Rect as written (user space; pdf_annot_rect is in page space).
    fz_rect rect = pdf_dict_get_rect(ctx, field, PDF_NAME(Rect));
    float border = pdf_annot_border(ctx, annot);
    user.x0 = rect.x0 + border;
    user.x1 = rect.x1 - border;
    fz_matrix matrix = pdf_dict_get_matrix(ctx, ap, PDF_NAME(Matrix));
    fz_rect bbox = fz_transform_rect(pdf_dict_get_rect(ctx, ap, PDF_NAME(BBox)), matrix);
    if (bbox.x1 <= bbox.x0 || bbox.y1 <= bbox.y0) return;
    fz_matrix fit = fz_concat(
        fz_translate(-bbox.x0, -bbox.y0),
        fz_concat(
            fz_scale((rect.x1 - rect.x0) / (bbox.x1 - bbox.x0), (rect.y1 - rect.y0) / (bbox.y1 - bbox.y0)),
            fz_translate(rect.x0, rect.y0)));
    fz_rect form = fz_transform_rect(user, fz_invert_matrix(fz_concat(matrix, fit)));

    fz_buffer *old = pdf_load_stream(ctx, ap);
    fz_buffer *contents = NULL;
    fz_var(contents);
    fz_try(ctx) {
        unsigned char *data = NULL;
        size_t length = fz_buffer_storage(ctx, old, &data);
        // Before the first text object: inside the clip MuPDF sets for the text, over the
        // field's own background.
        size_t at = length;
        for (size_t i = 0; i + 2 <= length; i++)
            if (data[i] == 'B' && data[i + 1] == 'T' && (i == 0 || data[i - 1] == '\n' || data[i - 1] == ' ')) {
                at = i;
                break;
            }
        contents = fz_new_buffer(ctx, length + 96);
        fz_append_data(ctx, contents, data, at);
        fz_append_printf(ctx, contents, "q 0.6 0.75 0.95 rg %g %g %g %g re f Q\n", form.x0, form.y0,
                         form.x1 - form.x0, form.y1 - form.y0);
        fz_append_data(ctx, contents, data + at, length - at);
        pdf_update_stream(ctx, pdf_get_bound_document(ctx, ap), ap, contents, 0);
    }
    fz_always(ctx) {
        fz_drop_buffer(ctx, contents);
        fz_drop_buffer(ctx, old);
    }
    fz_catch(ctx) fz_rethrow(ctx);
}

static void edit_value(fz_context *ctx, pdf_page *page, pdf_annot *annot, void *state) {
    field_edit *edit = state;
    enum pdf_widget_type type = fillable_field(ctx, annot);
    if (type == PDF_WIDGET_TYPE_TEXT) {
        int max = pdf_text_widget_max_len(ctx, annot);
        if (max > 0 && utf8_length(edit->value) > max)
            refuse(ctx, "the field takes at most %d characters", max);
        pdf_set_text_field_value(ctx, annot, edit->value);
    } else if (type == PDF_WIDGET_TYPE_COMBOBOX || type == PDF_WIDGET_TYPE_LISTBOX) {
        pdf_obj *field = pdf_annot_obj(ctx, annot);
        int editable = type == PDF_WIDGET_TYPE_COMBOBOX && (pdf_field_flags(ctx, field) & PDF_CH_FIELD_IS_EDIT);
        int known = editable;
        int n = pdf_choice_field_option_count(ctx, field);
        for (int i = 0; i < n && !known; i++)
            known = !strcmp(pdf_choice_field_option(ctx, field, 0, i), edit->value) ||
                    !strcmp(pdf_choice_field_option(ctx, field, 1, i), edit->value);
        if (!known) refuse(ctx, "\"%.64s\" is not one of the field's options", edit->value);
        pdf_set_choice_field_value(ctx, annot, edit->value);
        if (type == PDF_WIDGET_TYPE_LISTBOX) highlight_list_choice(ctx, page, annot);
    } else {
        refuse(ctx, "only text and choice fields take a value (checkboxes and radio buttons toggle)");
    }
    copy_field_value(ctx, annot, edit);
}

int CMuPDF_field_set_value(CMuPDF_document *document, int index, int object, const char *value, char **result,
                           CMuPDF_error *error) {
    *result = NULL;
    int status = check_text(value, error);
    if (status != CMUPDF_OK) return status;
    field_edit edit = {.value = value};
    status = edit_annotation(document, index, object, edit_value, &edit, error);
    if (status == CMUPDF_OK) *result = edit.result;
    else free(edit.result);
    return status;
}

static void edit_toggle(fz_context *ctx, pdf_page *page, pdf_annot *annot, void *state) {
    enum pdf_widget_type type = fillable_field(ctx, annot);
    if (type != PDF_WIDGET_TYPE_CHECKBOX && type != PDF_WIDGET_TYPE_RADIOBUTTON)
        refuse(ctx, "only checkboxes and radio buttons toggle");
    pdf_toggle_widget(ctx, annot);
    copy_field_value(ctx, annot, state);
}

int CMuPDF_field_toggle(CMuPDF_document *document, int index, int object, char **result, CMuPDF_error *error) {
    *result = NULL;
    field_edit edit = {0};
    int status = edit_annotation(document, index, object, edit_toggle, &edit, error);
    if (status == CMUPDF_OK) *result = edit.result;
    else free(edit.result);
    return status;
}

int CMuPDF_document_set_right_to_left(CMuPDF_document *document, int rtl, CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    if (!document->pdf) {
        set_error(error, CMUPDF_ERROR_REFUSED, "the document is not a PDF: it cannot be edited");
        return CMUPDF_ERROR_REFUSED;
    }
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    int status = CMUPDF_OK;
    fz_try(ctx) {
        pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, document->pdf), PDF_NAME(Root));
        if (!pdf_is_dict(ctx, root)) fz_throw(ctx, FZ_ERROR_SYNTAX, "the document has no catalog");
        // Neither name has a PDF_NAME constant in 1.21.
        pdf_obj *preferences = pdf_dict_gets(ctx, root, "ViewerPreferences");
        if (!pdf_is_dict(ctx, preferences)) {
            preferences = pdf_new_dict(ctx, document->pdf, 1);
            pdf_dict_puts_drop(ctx, root, "ViewerPreferences", preferences);
        }
        pdf_dict_puts_drop(ctx, preferences, "Direction", pdf_new_name(ctx, rtl ? "R2L" : "L2R"));
        atomic_fetch_add(&document->edits, 1);
    }
    fz_catch(ctx) status = caught(ctx, error);
    unlock_document(document);
    return status;
}

int CMuPDF_document_has_unsaved_changes(CMuPDF_document *document) {
    return atomic_load(&document->edits) != atomic_load(&document->saved);
}

void CMuPDF_document_mark_saved(CMuPDF_document *document, unsigned long edits) {
    atomic_store(&document->saved, edits);
}

int CMuPDF_document_save_incremental(CMuPDF_document *document, const char *path, unsigned long *saved_edits,
                                     CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    if (!document->pdf) {
        set_error(error, CMUPDF_ERROR_REFUSED, "the document is not a PDF: it cannot be saved");
        return CMUPDF_ERROR_REFUSED;
    }
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    int status = CMUPDF_OK;
    int64_t startxref = document->pdf->startxref;
    fz_try(ctx) {
        if (!pdf_can_be_saved_incrementally(ctx, document->pdf))
            refuse(ctx, "the file was repaired when it was opened: MuPDF cannot append to it");
        pdf_write_options options = pdf_default_write_options;
        options.do_incremental = 1;
        // Incremental: MuPDF copies the source bytes into `path` unless they are there already, then
        // appends every edit since the document was opened (its one incremental section).
        pdf_save_document(ctx, document->pdf, path, &options);
        *saved_edits = atomic_load(&document->edits);
    }
    fz_always(ctx) {
        // MuPDF 1.21 then points the document's startxref at the update it wrote, for a next save
        // appended to that same file; Lectern's every save starts again from the source bytes, so
        // its update must chain (/Prev) to the source's own xref.
        document->pdf->startxref = startxref;
    }
    fz_catch(ctx) {
        status = fz_caught(ctx) == CMUPDF_ERROR_REFUSED ? CMUPDF_ERROR_REFUSED : FZ_ERROR_GENERIC;
        set_error(error, status, fz_caught_message(ctx));
    }
    unlock_document(document);
    return status;
}

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
            fz_try(ctx) page = fz_page_number_from_location(ctx, document->doc, node->page);
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
    set_error(error, CMUPDF_OK, "");
    *entries = NULL;
    *count = 0;
    int status = CMUPDF_OK;
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    fz_outline *outline = NULL;
    CMuPDF_outline_entry *out = NULL;
    int *hidden_map = NULL;
    fz_var(outline);
    fz_var(out);
    fz_var(hidden_map);
    fz_try(ctx) {
        // Destinations are looked up in the page map: walk the whole tree first (then the outline
        // loader's pdf_load_page_tree keeps Lectern's map: see walk_install_map).
        if (document->pdf) walk_locked(document, INT_MAX, INT_MAX);
        // The outline loader resolves destinations: see hide_forward_map (outline.pdf leaked its
        // target pages' dictionaries under kiosk/fuzz --replay without it).
        hidden_map = hide_forward_map(document);
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
        show_forward_map(document, hidden_map);
        fz_drop_outline(ctx, outline);
    }
    fz_catch(ctx) {
        free(out);
        *entries = NULL;
        *count = 0;
        status = caught(ctx, error);
    }
    unlock_document(document);
    return status;
}

// MARK: - Text for search

int CMuPDF_page_text_chars(CMuPDF_document *document, int index, CMuPDF_text_char **chars, int *count,
                           CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    *chars = NULL;
    *count = 0;
    int status = check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    fz_page *page = NULL;
    fz_stext_page *text = NULL;
    CMuPDF_text_char *out = NULL;
    fz_var(page);
    fz_var(text);
    fz_var(out);
    fz_try(ctx) {
        page = load_page_locked(document, index);
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
            fz_matrix to_user = fz_invert_matrix(page_transform(ctx, page));
            size_t i = 0;
            for (fz_stext_block *block = text->first_block; block; block = block->next) {
                if (block->type != FZ_STEXT_BLOCK_TEXT) continue;
                for (fz_stext_line *line = block->u.t.first_line; line; line = line->next) {
                    for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) {
                        out[i].c = ch->c;
                        out[i].flags = ch == line->first_char ? CMUPDF_TEXT_LINE_START : 0;
                        copy_user_rect(out[i].box, fz_rect_from_quad(ch->quad), to_user);
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
        status = caught(ctx, error);
    }
    unlock_document(document);
    return status;
}

// MARK: - Testing

int CMuPDF_page_get_info_by_loading_for_testing(CMuPDF_document *document, int index,
                                                        CMuPDF_page_info *info, CMuPDF_error *error) {
    // The page info as Lectern read it before pages were looked up without loading (commit f263204).
    set_error(error, CMUPDF_OK, "");
    memset(info, 0, sizeof *info);
    int status = check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    lock_document(document, NULL, error);
    fz_context *ctx = document->ctx;
    fz_page *page = NULL;
    fz_var(page);
    fz_try(ctx) {
        page = load_page_locked(document, index);
        copy_rect(info->bounds, fz_bound_page(ctx, page));
        pdf_obj *obj = pdf_page_from_fz_page(ctx, page)->obj;
        fz_rect media = pdf_to_rect(ctx, pdf_dict_get_inheritable(ctx, obj, PDF_NAME(MediaBox)));
        if (fz_is_empty_rect(media)) media = fz_make_rect(0, 0, 612, 792);
        fz_rect crop = pdf_to_rect(ctx, pdf_dict_get_inheritable(ctx, obj, PDF_NAME(CropBox)));
        crop = fz_is_empty_rect(crop) ? media : fz_intersect_rect(crop, media);
        copy_rect(info->media_box, media);
        copy_rect(info->crop_box, crop);
        int rotate = pdf_to_int(ctx, pdf_dict_get_inheritable(ctx, obj, PDF_NAME(Rotate)));
        rotate = ((rotate % 360) + 360) % 360;
        info->rotation = (rotate / 90) * 90;
    }
    fz_always(ctx) fz_drop_page(ctx, page);
    fz_catch(ctx) status = caught(ctx, error);
    unlock_document(document);
    return status;
}

void CMuPDF_document_hold_lock_for_testing(CMuPDF_document *document, int hold) {
    if (hold) pthread_mutex_lock(&document->doc_lock);
    else pthread_mutex_unlock(&document->doc_lock);
}

// MARK: - PNG

int CMuPDF_write_png(CMuPDF_context *base, const unsigned char *bgra, int width, int height,
                            ptrdiff_t stride, const char *path, CMuPDF_error *error) {
    if (width <= 0 || height <= 0 || !bgra || stride < (ptrdiff_t)width * 4 || stride > INT32_MAX) {
        set_error(error, CMUPDF_ERROR_ARGUMENT, "invalid image size or stride");
        return CMUPDF_ERROR_ARGUMENT;
    }
    set_error(error, CMUPDF_OK, "");
    fz_context *ctx = clone_context(base, path, error);
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
    fz_catch(ctx) status = caught(ctx, error);
    fz_drop_context(ctx);
    return status;
}

int CMuPDF_load_image_rgb(CMuPDF_context *base, const char *path, int *width, int *height,
                                 unsigned char **rgb, CMuPDF_error *error) {
    set_error(error, CMUPDF_OK, "");
    *rgb = NULL;
    fz_context *ctx = clone_context(base, path, error);
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
        status = caught(ctx, error);
    }
    fz_drop_context(ctx);
    return status;
}
