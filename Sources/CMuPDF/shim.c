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

void shim_set_error(CMuPDF_error *error, int status, const char *message) {
    if (!error) return;
    error->status = status;
    snprintf(error->message, sizeof error->message, "%s", message ? message : "");
}

/// Copies MuPDF's current exception into `error`; call only inside fz_catch.
int shim_caught(fz_context *ctx, CMuPDF_error *error) {
    int code = fz_caught(ctx);
    if (code == FZ_ERROR_NONE) code = FZ_ERROR_GENERIC;
    shim_set_error(error, code, fz_caught_message(ctx));
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
_Thread_local unsigned shim_refused_here;

static int capped_fits(struct CMuPDF_context *context, size_t releasing, size_t size) {
    if (!context->limit) return 1;
    size_t used = atomic_load(&context->used) - releasing;
    if (size <= context->limit && used <= context->limit - size) return 1;
    shim_refused_here++;
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
    shim_set_error(error, CMUPDF_OK, "");
    CMuPDF_context *context = calloc(1, sizeof *context);
    if (!context) {
        shim_set_error(error, CMUPDF_ERROR_MEMORY, "out of memory allocating the MuPDF context");
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
        shim_set_error(error, CMUPDF_ERROR_NO_CONTEXT, "MuPDF could not create a context");
        return NULL;
    }
    install_log_callbacks(context->ctx, NULL);
    int failed = 0;
    fz_try(context->ctx) fz_register_document_handlers(context->ctx);
    fz_catch(context->ctx) failed = shim_caught(context->ctx, error);
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
fz_context *shim_clone_context(CMuPDF_context *base, const char *source, CMuPDF_error *error) {
    fz_context *ctx = base ? fz_clone_context(base->ctx) : NULL;
    if (!ctx) {
        shim_set_error(error, CMUPDF_ERROR_NO_CONTEXT, "MuPDF could not clone its context");
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

/// Takes `doc_lock`. With a cookie, waits in short slices and gives up with
/// CMUPDF_ERROR_ABORT when the cookie is aborted meanwhile, so a cancelled render never
/// waits for another page's recording to finish.
int shim_lock_document(CMuPDF_document *document, fz_cookie *cookie, CMuPDF_error *error) {
    if (!cookie) {
        pthread_mutex_lock(&document->doc_lock);
        return CMUPDF_OK;
    }
    for (;;) {
        if (__atomic_load_n(&cookie->abort, __ATOMIC_RELAXED)) {
            shim_set_error(error, CMUPDF_ERROR_ABORT, "render cancelled");
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

void shim_unlock_document(CMuPDF_document *document) { pthread_mutex_unlock(&document->doc_lock); }

fz_context *shim_enter(CMuPDF_document *document) {
    pthread_mutex_lock(&document->doc_lock);
    return document->ctx;
}

int shim_leave(CMuPDF_document *document, int status) {
    pthread_mutex_unlock(&document->doc_lock);
    return status;
}

/// A context for one render on the calling thread: from the pool, or cloned from the base.
/// NULL (with `error` filled) when MuPDF cannot clone. Give it back with checkin_context.
fz_context *shim_checkout_context(CMuPDF_document *document, CMuPDF_error *error) {
    fz_context *ctx = NULL;
    pthread_mutex_lock(&document->pool_lock);
    if (document->pool_count > 0) ctx = document->pool[--document->pool_count];
    pthread_mutex_unlock(&document->pool_lock);
    return ctx ? ctx : shim_clone_context(document->base, document->path, error);
}

void shim_checkin_context(CMuPDF_document *document, fz_context *ctx) {
    pthread_mutex_lock(&document->pool_lock);
    if (document->pool_count < LECTERN_CONTEXT_POOL_SIZE) {
        document->pool[document->pool_count++] = ctx;
        ctx = NULL;
    }
    pthread_mutex_unlock(&document->pool_lock);
    if (ctx) fz_drop_context(ctx);
}

/// What MuPDF 1.21 does not read of the package of the EPUB in `archive`: whether it is bound on the
/// right (its spine's page-progression-direction="rtl"), and its language (dc:language, for speech;
/// MuPDF's XML parser drops the namespace prefix). Call inside fz_try.
static void read_epub_package(fz_context *ctx, fz_archive *archive, int *right_to_left,
                              fz_text_language *language) {
    fz_buffer *buffer = NULL;
    fz_xml *container = NULL, *package = NULL;
    int rtl = 0;
    fz_text_language code = FZ_LANG_UNSET;
    fz_var(buffer);
    fz_var(container);
    fz_var(package);
    fz_try(ctx) {
        buffer = fz_read_archive_entry(ctx, archive, "META-INF/container.xml");
        container = fz_parse_xml(ctx, buffer, 0);
        fz_drop_buffer(ctx, buffer);
        buffer = NULL;
        const char *path = fz_xml_att(fz_xml_find_dfs(container, "rootfile", NULL, NULL), "full-path");
        if (path && fz_has_archive_entry(ctx, archive, path)) {
            buffer = fz_read_archive_entry(ctx, archive, path);
            package = fz_parse_xml(ctx, buffer, 0);
            const char *direction = fz_xml_att(fz_xml_find_dfs(package, "spine", NULL, NULL), "page-progression-direction");
            rtl = direction && strcmp(direction, "rtl") == 0;
            const char *text = fz_xml_text(fz_xml_down(fz_xml_find_dfs(package, "language", NULL, NULL)));
            if (text) code = fz_text_language_from_string(text);
        }
    }
    fz_always(ctx) {
        fz_drop_buffer(ctx, buffer);
        fz_drop_xml(ctx, container);
        fz_drop_xml(ctx, package);
    }
    fz_catch(ctx) {
        if (fz_caught(ctx) == FZ_ERROR_MEMORY) fz_rethrow(ctx);
        fz_warn(ctx, "cannot read the EPUB's package: %s", fz_caught_message(ctx));
        rtl = 0;
        code = FZ_LANG_UNSET;
    }
    *right_to_left = rtl;
    *language = code;
}

/// The handler's magic for the zip archive `stream`: an EPUB has its `mimetype` or its container, an XPS
/// its content types or document sequence; any other zip is read as a comic book archive (its images
/// in name order). Reads an EPUB's binding and language into `document`. Call inside fz_try.
static const char *zip_magic(fz_context *ctx, fz_stream *stream, CMuPDF_document *document) {
    fz_archive *archive = fz_open_archive_with_stream(ctx, stream);
    const char *magic = "application/x-cbz";
    fz_try(ctx) {
        int container = fz_has_archive_entry(ctx, archive, "META-INF/container.xml");
        if (!container && fz_has_archive_entry(ctx, archive, "mimetype"))
            fz_throw(ctx, FZ_ERROR_GENERIC, "an EPUB without META-INF/container.xml");
        if (container) {
            magic = "application/epub+zip";
            read_epub_package(ctx, archive, &document->right_to_left, &document->language);
        }
        else if (fz_has_archive_entry(ctx, archive, "[Content_Types].xml") ||
                 fz_has_archive_entry(ctx, archive, "FixedDocumentSequence.fdseq"))
            magic = "application/vnd.ms-xpsdocument";
    }
    fz_always(ctx) fz_drop_archive(ctx, archive);
    fz_catch(ctx) fz_rethrow(ctx);
    fz_seek(ctx, stream, 0, SEEK_SET);
    return magic;
}

/// Opens `path` as `magic` says (see CMuPDF_document_open); what MuPDF does not read of an EPUB
/// goes into `document`. Call inside fz_try.
static fz_document *open_with_magic(fz_context *ctx, const char *path, const char *magic,
                                    CMuPDF_document *document) {
    if (!magic) return fz_open_document(ctx, path);
    fz_stream *stream = fz_open_file(ctx, path);
    fz_document *doc = NULL;
    fz_try(ctx) {
        if (strcmp(magic, "zip") == 0) magic = zip_magic(ctx, stream, document);
        doc = fz_open_document_with_stream(ctx, magic, stream);
    }
    fz_always(ctx) fz_drop_stream(ctx, stream); // the document keeps its own reference
    fz_catch(ctx) fz_rethrow(ctx);
    return doc;
}

CMuPDF_document *CMuPDF_document_open(CMuPDF_context *base, const char *path, const char *magic,
                                      CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    CMuPDF_document *document = calloc(1, sizeof *document);
    char *path_copy = strdup(path);
    if (!document || !path_copy) {
        free(document);
        free(path_copy);
        shim_set_error(error, CMUPDF_ERROR_MEMORY, "out of memory");
        return NULL;
    }
    document->base = base;
    document->path = path_copy;
    fz_context *ctx = shim_clone_context(base, document->path, error);
    if (!ctx) {
        free(document->path);
        free(document);
        return NULL;
    }
    fz_document *doc = NULL;
    int failed = 0;
    fz_try(ctx) doc = open_with_magic(ctx, path, magic, document);
    fz_catch(ctx) failed = shim_caught(ctx, error);
    if (failed || !doc) {
        if (!failed) shim_set_error(error, CMUPDF_ERROR_GENERIC, "MuPDF returned no document");
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
    shim_walk_drop(document);
    fz_drop_document(document->ctx, document->doc);
    fz_drop_context(document->ctx); // flushes repeated warnings, which still name document->path
    pthread_mutex_destroy(&document->pool_lock);
    pthread_mutex_destroy(&document->cache_lock);
    pthread_mutex_destroy(&document->doc_lock);
    free(document->path);
    free(document);
}

int CMuPDF_document_needs_password(CMuPDF_document *document, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    fz_context *ctx = shim_enter(document);
    int needs = 0, failed = 0;
    fz_try(ctx) needs = fz_needs_password(ctx, document->doc);
    fz_catch(ctx) failed = shim_caught(ctx, error);
    shim_unlock_document(document);
    if (failed) return -1;
    return needs ? 1 : 0;
}

int CMuPDF_document_authenticate(CMuPDF_document *document, const char *password,
                                        CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    fz_context *ctx = shim_enter(document);
    int ok = 0, failed = 0;
    fz_try(ctx) ok = fz_authenticate_password(ctx, document->doc, password);
    fz_catch(ctx) failed = shim_caught(ctx, error);
    shim_unlock_document(document);
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
    fz_catch(ctx) return shim_caught(ctx, error);
    // Before authentication an encrypted file may not know its pages yet: only remember a real count.
    if (*count > 0) atomic_store(&document->page_count, *count);
    return CMUPDF_OK;
}

int CMuPDF_document_count_pages(CMuPDF_document *document, int *count, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    shim_lock_document(document, NULL, error);
    int status = count_pages_locked(document, count, error);
    return shim_leave(document, status);
}

int CMuPDF_document_known_page_count(CMuPDF_document *document) {
    return atomic_load(&document->page_count);
}

int CMuPDF_document_was_repaired(CMuPDF_document *document) {
    if (!document->pdf) return 0;
    CMuPDF_error ignored;
    shim_lock_document(document, NULL, &ignored);
    int repaired = pdf_was_repaired(document->ctx, document->pdf) ? 1 : 0;
    shim_unlock_document(document);
    return repaired;
}

int CMuPDF_document_is_pdf(CMuPDF_document *document) { return document->pdf ? 1 : 0; }

int CMuPDF_document_is_right_to_left(CMuPDF_document *document, int *rtl, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    *rtl = document->right_to_left;
    if (!document->pdf) return CMUPDF_OK;
    fz_context *ctx = shim_enter(document);
    int status = CMUPDF_OK;
    fz_try(ctx) {
        pdf_obj *direction = pdf_dict_getp(ctx, pdf_trailer(ctx, document->pdf), "Root/ViewerPreferences/Direction");
        *rtl = strcmp(pdf_to_name(ctx, direction), "R2L") == 0 ? 1 : 0; // R2L has no PDF_NAME constant
    }
    fz_catch(ctx) status = shim_caught(ctx, error);
    return shim_leave(document, status);
}

void shim_copy_rect(float out[4], fz_rect rect) {
    out[0] = rect.x0;
    out[1] = rect.y0;
    out[2] = rect.x1;
    out[3] = rect.y1;
}

/// Checks `index` against the page count without taking doc_lock once the count is known.
int shim_check_index(CMuPDF_document *document, int index, CMuPDF_error *error) {
    int count = atomic_load(&document->page_count);
    if (count < 0) {
        int status = CMuPDF_document_count_pages(document, &count, error);
        if (status != CMUPDF_OK) return status;
    }
    if (index < 0 || index >= count) {
        char message[128];
        snprintf(message, sizeof message, "page index %d is out of range 0..<%d", index, count);
        shim_set_error(error, CMUPDF_ERROR_ARGUMENT, message);
        return CMUPDF_ERROR_ARGUMENT;
    }
    return CMUPDF_OK;
}
