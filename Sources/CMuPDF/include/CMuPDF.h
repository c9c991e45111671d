// CMuPDF: the only door from Swift into MuPDF.
//
// Every function and type here is named CMuPDF_… (constants CMUPDF_…), as the other C targets
// name theirs after the target (CLecternLinux_…, CWaylandClient_…).
//
// MuPDF reports errors with setjmp/longjmp (fz_try/fz_catch). A longjmp through Swift frames is
// undefined behaviour, so every MuPDF call that can throw is made here, inside fz_try, and comes
// back to Swift as a status code plus a message copied into a caller-owned buffer.
//
// Ownership: every `*_new`/`*_open` function returns a handle the caller owns and must release
// with the matching `*_drop` function (in Swift: exactly one final class per handle).
#ifndef CMUPDF_H
#define CMUPDF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes. The MuPDF ones mirror fz_caught(); the rest are ours.
enum CMuPDF_status {
    CMUPDF_OK = 0,
    CMUPDF_ERROR_MEMORY = 1,
    CMUPDF_ERROR_GENERIC = 2,
    CMUPDF_ERROR_SYNTAX = 3,
    CMUPDF_ERROR_MINOR = 4,
    CMUPDF_ERROR_TRYLATER = 5,
    CMUPDF_ERROR_ABORT = 6,
    CMUPDF_ERROR_REPAIRED = 7,
    /// MuPDF could not make a context (out of memory or a version mismatch).
    CMUPDF_ERROR_NO_CONTEXT = 100,
    /// The document is encrypted and no password (or the wrong one) was given.
    CMUPDF_ERROR_PASSWORD = 101,
    /// Drawing finished but MuPDF counted errors in the page content (cookie.errors > 0).
    CMUPDF_ERROR_CONTENT = 102,
    /// A programmer error: bad argument (index, size, stride).
    CMUPDF_ERROR_ARGUMENT = 103,
    /// An edit the document forbids: a locked or read-only annotation, a read-only field, a
    /// signature, a value that is not one of a choice field's options, a field of another kind.
    CMUPDF_ERROR_REFUSED = 104,
    /// The page has no annotation with that object number.
    CMUPDF_ERROR_NOT_FOUND = 105,
};

/// Where a shim function writes what went wrong. Owned by the caller (usually on its stack).
typedef struct CMuPDF_error {
    int status;
    char message[512];
} CMuPDF_error;

/// Log levels given to the log sink.
enum CMuPDF_log_level {
    CMUPDF_LOG_WARNING = 0,
    CMUPDF_LOG_ERROR = 1,
};

/// Receives every MuPDF error and warning line, from whichever thread MuPDF runs on.
/// `source` is the file being worked on, or NULL; both strings are only valid during the call.
/// Must not call back into MuPDF.
typedef void (*CMuPDF_log_sink)(int level, const char *source, const char *message);

/// Installs the process-wide log sink (NULL: MuPDF messages are dropped). Call before creating
/// contexts; contexts created later route their messages to it.
void CMuPDF_set_log_sink(CMuPDF_log_sink sink);

/// The base context: fz_context + its pthread locks. Opaque.
typedef struct CMuPDF_context CMuPDF_context;

/// Creates a base context with fz_locks_context (pthread mutexes) and the document handlers
/// registered, whose allocations (and those of every context cloned from it) are capped at
/// `memory_limit` bytes (0: no cap): an allocation past it fails as out of memory, after MuPDF
/// emptied its store. Returns NULL and fills `error` on failure. Caller owns the result:
/// release with CMuPDF_context_drop after every document cloned from it is dropped.
CMuPDF_context *CMuPDF_context_new(size_t memory_limit, CMuPDF_error *error);
/// The bytes MuPDF holds now in `context` and its clones.
size_t CMuPDF_context_memory_in_use(CMuPDF_context *context);
void CMuPDF_context_drop(CMuPDF_context *context);

/// An open document. Opaque. Thread safe: the shim serializes what touches the fz_document (its own
/// lock) and rasterizes display lists on per-render cloned contexts without that lock, so tiles of
/// one document render in parallel. Dropping it must not overlap any other call on it.
typedef struct CMuPDF_document CMuPDF_document;

/// Opens `path` with a context cloned from `base`, with the MuPDF handler that `magic` names (a MIME
/// type MuPDF's handlers list, "application/pdf", "application/epub+zip", "image/png"…; "zip": the
/// shim looks into the archive: EPUB, XPS, else a comic book archive; NULL: MuPDF guesses from the
/// name). Returns NULL and fills `error` on failure.
/// Caller owns the result: release with CMuPDF_document_drop (before dropping `base`).
CMuPDF_document *CMuPDF_document_open(CMuPDF_context *base, const char *path, const char *magic,
                                      CMuPDF_error *error);
void CMuPDF_document_drop(CMuPDF_document *document);

/// 1 when the document needs a password before anything else can be read, 0 when not,
/// -1 on error (filled in `error`).
int CMuPDF_document_needs_password(CMuPDF_document *document, CMuPDF_error *error);

/// Tries `password`: returns 1 when it unlocks the document, 0 when it is wrong, -1 on error.
int CMuPDF_document_authenticate(CMuPDF_document *document, const char *password,
                                        CMuPDF_error *error);

/// Writes the page count to `count`. Returns a status.
int CMuPDF_document_count_pages(CMuPDF_document *document, int *count, CMuPDF_error *error);

/// The page count as last counted, without the lock (-1 before CMuPDF_document_count_pages):
/// the count the root /Pages claims until the page tree walk ends, then the pages found. Never throws.
int CMuPDF_document_known_page_count(CMuPDF_document *document);

/// 1 when MuPDF had to repair the file (broken xref, truncation), else 0. Never throws.
/// Only meaningful after the page count has been read (repair can be lazy).
int CMuPDF_document_was_repaired(CMuPDF_document *document);

/// 1 when the document is a PDF (not an image or another format MuPDF opens), else 0.
int CMuPDF_document_is_pdf(CMuPDF_document *document);

/// 1 when the document is laid out by MuPDF at a page size and font size of the reader's choosing
/// (EPUB, FB2, XHTML: fz_is_document_reflowable), else 0. Never throws.
int CMuPDF_document_is_reflowable(CMuPDF_document *document);

/// Lays a reflowable document out again on pages of `width` x `height` points with `em` points to
/// the em (fz_layout_document), keeping page `keep` (-1: none) by its place in the text
/// (fz_make_bookmark before, fz_lookup_bookmark after). Writes the new page count to `count` and the
/// page that now holds what page `keep` began with to `page` (0 without `keep`). Without `keep`, only
/// the chapters through page `through` are laid out and counted (INT_MAX: all): the count is a
/// claim until CMuPDF_document_walk_page_tree counts the rest. The display lists of the old layout
/// are dropped. Other formats are left as they are. Returns a status.
int CMuPDF_document_layout(CMuPDF_document *document, float width, float height, float em, float bottom, int keep, int through,
                           int *count, int *page, CMuPDF_error *error);

/// For a reflowable document, counts (laying out) its chapters only until page `through` exists, and
/// writes that to `count`: a claim, as a PDF's /Count is, until CMuPDF_document_walk_page_tree
/// counts every chapter (the first page shows without laying out the whole book). Other formats:
/// CMuPDF_document_count_pages. Returns a status.
int CMuPDF_document_count_pages_through(CMuPDF_document *document, int through, int *count, CMuPDF_error *error);

/// Writes 1 to `rtl` when /Root/ViewerPreferences/Direction is /R2L (an EPUB: when its spine's
/// page-progression-direction is rtl). Returns a status.
int CMuPDF_document_is_right_to_left(CMuPDF_document *document, int *rtl, CMuPDF_error *error);

/// Page geometry in PDF points. Boxes are {x0, y0, x1, y1}.
typedef struct CMuPDF_page_info {
    /// /MediaBox (inherited), normalised; US Letter when missing or empty (as MuPDF does).
    float media_box[4];
    /// What is shown: /CropBox clipped to the media box, normalised (pdf_page_obj_transform).
    float crop_box[4];
    /// /Rotate snapped to 0, 90, 180 or 270 like pdf_page_obj_transform.
    int rotation;
    /// fz_bound_page: the crop box after rotation (and /UserUnit), in points.
    float bounds[4];
    /// CMUPDF_OK, or why this page's info could not be read.
    int status;
} CMuPDF_page_info;

/// Fills `info` for page `index` (0-based) from the page object and its inherited keys, without
/// loading the page (no content, no annotations). PDFs only. Returns a status.
int CMuPDF_page_get_info(CMuPDF_document *document, int index, CMuPDF_page_info *info,
                                CMuPDF_error *error);

/// Fills `infos[0..<count]` for pages `start..<start+count` under one lock; a page whose info cannot
/// be read gets its own `status`. Returns a status for the call itself (an index out of range).
int CMuPDF_page_get_infos(CMuPDF_document *document, int start, int count,
                                 CMuPDF_page_info *infos, CMuPDF_error *error);

/// How far the page tree walk got (CMuPDF_document_walk_page_tree).
typedef struct CMuPDF_page_tree {
    /// 1 when the whole tree was walked: `pages` is then the document's page count.
    int done;
    /// The pages found so far (leaf page objects reachable from the root, each once).
    int pages;
    /// The kids looked at so far.
    int kids;
    /// The kids left out: met before (a /Kids entry pointing back to an ancestor, or a page listed
    /// twice), not a page, too deep, unreadable.
    int skipped;
} CMuPDF_page_tree;

/// Walks the page tree on from where it stopped, looking at up to `max_kids` kids (0: no limit)
/// under the document lock, and fills `tree`. The walk ignores /Count (a lying intermediate /Count
/// cannot misplace a page, a lying root /Count allocates nothing) and skips cycles. Page lookups
/// walk as far as their page on their own; once the walk is done, the document's page count is
/// the number of pages found and every lookup by index or object uses the walked page map (kept
/// until the document is dropped: 12 bytes a page). Call repeatedly to walk a long tree in slices
/// (renders interleave, the caller can stop between slices). Returns a status.
int CMuPDF_document_walk_page_tree(CMuPDF_document *document, int max_kids,
                                          CMuPDF_page_tree *tree, CMuPDF_error *error);

/// Writes the root /Pages /Count as the file writes it to `claimed` (saturated at INT64_MAX; -1 when
/// not a PDF). MuPDF 1.21 keeps 32 bits of it (9,999,999,999 becomes 1,410,065,407); this reads the
/// digits again, so a count too big for an int can be told from its wrapped value. Returns a status.
int CMuPDF_document_claimed_page_count(CMuPDF_document *document, int64_t *claimed,
                                              CMuPDF_error *error);

/// Drops the objects only MuPDF's xref cache holds (pdf_clear_xref), such as the page dictionaries
/// read for every page's size: about 0.7 KB a page. They are read again when needed. Never throws.
void CMuPDF_document_release_page_objects(CMuPDF_document *document);

/// Copies the document's title (/Info /Title, as UTF-8; fz_lookup_metadata "info:Title") into
/// `title` (`size` bytes, NUL-terminated, cut at a character boundary when longer). Writes ""
/// when the document has none. Returns a status.
int CMuPDF_document_title(CMuPDF_document *document, char *title, int size, CMuPDF_error *error);

/// The document's language (the catalog's /Lang, or an EPUB's dc:language, as MuPDF keeps it: an
/// ISO 639 code such as "en" or "he", without a region) into `language` (8 bytes, NUL-terminated;
/// empty when none).
int CMuPDF_document_language(CMuPDF_document *document, char language[8], CMuPDF_error *error);

/// A page's presentation keys: how long it shows in a presentation and how it comes on screen.
typedef struct CMuPDF_page_presentation {
    /// /Dur in seconds; -1 when the page has none (or it is not a positive number).
    float duration;
    /// /Trans /S as written ("Fade", "Push", …; "R" when /S is missing); "" when there is no /Trans.
    char style[16];
    /// /Trans /D in seconds (default 1).
    float transition_duration;
    /// /Trans /Di in degrees counterclockwise from left to right (default 0); -1 for /None.
    int direction;
    /// /Trans /Dm /V (default /H: 0).
    int vertical;
    /// /Trans /M /O (default /I: 0).
    int outward;
} CMuPDF_page_presentation;

/// Reads /Dur and /Trans of page `index` from its page object (nothing is loaded but the page
/// dictionary). PDFs only. Returns a status.
int CMuPDF_page_get_presentation(CMuPDF_document *document, int index,
                                 CMuPDF_page_presentation *presentation, CMuPDF_error *error);

/// One entry of /Root /PageLabels: from page `start` on, labels are `prefix` + a number.
typedef struct CMuPDF_page_label_range {
    int start;
    /// 'D' decimal, 'R' upper roman, 'r' lower roman, 'A' upper letters, 'a' lower letters, 0 none.
    int style;
    /// /St: the number of the range's first page (>= 1).
    int first;
    int has_prefix;
    /// /P as UTF-8, cut at a character boundary when longer.
    char prefix[256];
} CMuPDF_page_label_range;

/// Reads the /PageLabels number tree (/Nums and /Kids). On success `*ranges` is a malloc'd array of
/// `*count` ranges sorted by start (NULL and 0 when the document has no labels) that the caller
/// frees. A structurally broken tree is an error; single malformed entries are skipped.
int CMuPDF_document_page_labels(CMuPDF_document *document, CMuPDF_page_label_range **ranges,
                                       int *count, CMuPDF_error *error);

/// A render cookie (fz_cookie): lets another thread abort a render. Caller owns it:
/// release with CMuPDF_cookie_drop. NULL when out of memory.
typedef struct CMuPDF_cookie CMuPDF_cookie;
CMuPDF_cookie *CMuPDF_cookie_new(void);
void CMuPDF_cookie_drop(CMuPDF_cookie *cookie);
/// The bytes a cookie takes, for one placed in memory the caller owns (shared with another process).
size_t CMuPDF_cookie_size(void);
/// A cleared cookie in `memory` (at least CMuPDF_cookie_size() bytes, 8-byte aligned), which the
/// caller owns: never CMuPDF_cookie_drop it.
CMuPDF_cookie *CMuPDF_cookie_at(void *memory);
/// Asks a running (or the next) render that uses this cookie to stop. Any thread.
void CMuPDF_cookie_abort(CMuPDF_cookie *cookie);
int CMuPDF_cookie_is_aborted(CMuPDF_cookie *cookie);
/// How far the render using this cookie has got (fz_cookie.progress: display-list items run,
/// reset when a render starts). Any thread; a relaxed read.
int CMuPDF_cookie_progress(CMuPDF_cookie *cookie);

/// Renders the region (x, y, width, height) of page `index` scaled by `scale` (device pixels in the
/// rotated page) into `pixels`: premultiplied BGRA, `stride` bytes per row, white background.
/// The memory stays the caller's. On CMUPDF_ERROR_CONTENT the pixels hold what could be drawn.
/// The page's display list is recorded (under the document lock) or taken from a cache of 8 pages;
/// the rasterization runs on a context checked out of a per-document pool, without the document lock.
/// A cookie aborted while the render waits for the document lock ends the wait (ABORT).
int CMuPDF_page_render(CMuPDF_document *document, int index, float scale, int x, int y, int width,
                              int height, unsigned char *pixels, ptrdiff_t stride, CMuPDF_cookie *cookie,
                              CMuPDF_error *error);

/// Where page `index`'s images are drawn in the region (x, y, width, height) of the page scaled by
/// `scale` (as CMuPDF_page_render draws it): the box of each image, clipped by the clips in force,
/// as x0, y0, x1, y1 in the region's pixels into `boxes` (room for `capacity` boxes). `*count` gets
/// the boxes written; past `capacity` the last box grows to hold the rest. Image masks (stencils
/// drawn in one colour, like text), images in soft masks and in tiling patterns are not counted.
/// Replays the display list CMuPDF_page_render caches, with a device that draws nothing.
/// Corresponding file: shim_image_areas.c.
int CMuPDF_page_image_areas(CMuPDF_document *document, int index, float scale, int x, int y, int width, int height,
                            int *boxes, int capacity, int *count, CMuPDF_error *error);

/// Records page `index`'s display list into the cache CMuPDF_page_render uses (under the
/// document lock), unless it is there: the page's first render then only rasterizes. Errors in the
/// page content are not reported here but by the renders that use the list.
int CMuPDF_page_prepare(CMuPDF_document *document, int index, CMuPDF_error *error);

/// The bounding boxes of the text blocks (not image blocks) of page `index`, in PDF user space
/// (unrotated, y up: the space of the media box). On success `*rects` is a malloc'd array of
/// 4 * `*count` floats {x0, y0, x1, y1, ...} that the caller frees. Uses the cached display list.
int CMuPDF_page_text_blocks(CMuPDF_document *document, int index, float **rects, int *count,
                                   CMuPDF_error *error);

/// One link of a page, in PDF user space.
typedef struct CMuPDF_link {
    /// The link's rect {x0, y0, x1, y1} in PDF user space (unrotated, y up: the space of the media box).
    float rect[4];
    /// The target page (0-based) of an internal link; -1 for an external one.
    int page;
    /// The URI (UTF-8) of an external link, NULL for an internal one. Points into the links' block.
    const char *uri;
} CMuPDF_link;

/// The links of page `index` (fz_load_links), without running the page content. Internal links are
/// resolved to a page (fz_resolve_link); links whose destination does not resolve to a page of the
/// document are left out. On success `*links` is one malloc'd block of `*count` links followed by
/// their URIs, that the caller frees with one free() (it may be non-NULL when `*count` is 0).
int CMuPDF_page_links(CMuPDF_document *document, int index, CMuPDF_link **links, int *count,
                             CMuPDF_error *error);

/// Caps on what CMuPDF_page_annotations returns: a page with more annotations, a string longer or
/// a choice with more options is cut there (and `*truncated` set), never a reason to fail.
enum CMuPDF_annotation_caps {
    CMUPDF_ANNOTATIONS_MAX = 1024,
    CMUPDF_ANNOTATION_STRING_MAX = 4096,
    CMUPDF_ANNOTATION_OPTIONS_MAX = 256,
};

/// What kind of form field a widget is (CMuPDF_annotation.field_type).
enum CMuPDF_field_type {
    CMUPDF_FIELD_NONE = -1,
    CMUPDF_FIELD_UNKNOWN = 0,
    CMUPDF_FIELD_TEXT,
    CMUPDF_FIELD_MULTILINE_TEXT,
    CMUPDF_FIELD_CHECKBOX,
    CMUPDF_FIELD_RADIO,
    CMUPDF_FIELD_COMBO_CHOICE,
    CMUPDF_FIELD_LIST_CHOICE,
    CMUPDF_FIELD_PUSH_BUTTON,
    CMUPDF_FIELD_SIGNATURE,
};

/// The field flag (/Ff bit 1) that makes a field read-only.
enum { CMUPDF_FIELD_FLAG_READ_ONLY = 1 };

/// One annotation of a page (a widget is an annotation whose `field_type` is not CMUPDF_FIELD_NONE).
typedef struct CMuPDF_annotation {
    /// The PDF object number of the annotation's dictionary: names it for the edit functions.
    int object;
    /// enum pdf_annot_type (PDF_ANNOT_TEXT …, PDF_ANNOT_UNKNOWN -1).
    int type;
    /// The /Subtype name as MuPDF spells it ("Widget", "FreeText", …). Malloc'd, never NULL.
    char *subtype;
    /// Its /Rect {x0, y0, x1, y1} in PDF user space (unrotated, y up), like links. Values that are
    /// not finite are written as 0.
    float rect[4];
    /// The annotation flags (/F: PDF_ANNOT_IS_…).
    int flags;
    /// The colour's component count (0: none, 1 grey, 3 RGB, 4 CMYK) and components.
    int color_count;
    float color[4];
    /// /Contents and /T as UTF-8 (as MuPDF decodes them; may be invalid UTF-8). Malloc'd, never NULL.
    char *contents;
    char *author;
    /// enum CMuPDF_field_type for a widget, CMUPDF_FIELD_NONE for any other annotation.
    int field_type;
    /// The field flags (/Ff: PDF_FIELD_IS_…, PDF_TX_FIELD_IS_…, PDF_CH_FIELD_IS_…), 0 for no widget.
    int field_flags;
    /// The text field's /MaxLen, 0 when none or not a text field.
    int max_length;
    /// The fully qualified field name and its value, UTF-8. Malloc'd, never NULL ("" when none).
    char *field_name;
    char *value;
    /// A choice field's options (their display text), `option_count` malloc'd strings in a malloc'd array.
    int option_count;
    char **options;
} CMuPDF_annotation;

/// Every annotation of page `index` (pdf_first_annot… then pdf_first_widget…), in that order.
/// An annotation that throws while it is read is skipped with a warning in the log. At most
/// CMUPDF_ANNOTATIONS_MAX are returned; `*truncated` is 1 when something was cut or skipped. A page
/// of a document that is not a PDF has none. On success `*annotations` is a malloc'd array of
/// `*count` entries that the caller frees with CMuPDF_annotations_free (NULL when none).
int CMuPDF_page_annotations(CMuPDF_document *document, int index, CMuPDF_annotation **annotations, int *count,
                            int *truncated, CMuPDF_error *error);
/// Frees what CMuPDF_page_annotations returned (NULL is fine).
void CMuPDF_annotations_free(CMuPDF_annotation *annotations, int count);

/// Caps on what the edit functions take: longer text or coordinates further out are refused
/// (CMUPDF_ERROR_ARGUMENT) before MuPDF sees them.
enum CMuPDF_edit_caps {
    CMUPDF_EDIT_STRING_MAX = 65536,
    CMUPDF_EDIT_COORDINATE_MAX = 1000000,
};

// Annotation edits. Each runs under the document lock: it loads page `index`, finds the annotation
// whose dictionary is object `object` (CMuPDF_annotation.object), changes it, lets MuPDF regenerate
// the page's appearances (pdf_update_page), and drops every cached display list, so the next
// render of any page shows the edit (a render already rasterizing finishes with its old list).
// JavaScript stays disabled: form actions (keystroke, format, validate, calculate) do not run.
// Returns a status: CMUPDF_ERROR_NOT_FOUND, CMUPDF_ERROR_REFUSED (with the reason),
// CMUPDF_ERROR_ARGUMENT (bad input), or MuPDF's.

/// Moves or resizes the annotation to `rect` {x0, y0, x1, y1} in PDF user space (unrotated, y up).
/// Subtypes whose rect MuPDF 1.21 derives from their geometry (Ink, Line, Polygon, PolyLine, text
/// markup) have their points mapped from their /Rect onto `rect`; MuPDF then recomputes /Rect (the
/// points' bounds plus its stroke padding). Refused for locked and read-only annotations, read-only
/// fields, subtypes with neither a settable rect nor points (Watermark…), and points mapped far out.
int CMuPDF_annotation_set_rect(CMuPDF_document *document, int index, int object, const float rect[4],
                               CMuPDF_error *error);
/// Replaces the annotation's /Contents with UTF-8 `text`. Refused for read-only annotations, locked
/// contents and widgets.
int CMuPDF_annotation_set_contents(CMuPDF_document *document, int index, int object, const char *text,
                                   CMuPDF_error *error);
/// Sets a text or choice field's value (pdf_set_text_field_value, pdf_set_choice_field_value).
/// Refused for read-only fields, signatures, other field kinds, text past /MaxLen characters, and a
/// choice that is not one of the options (unless the combo box is editable). On success `*value` is
/// the field's value afterwards, malloc'd, for the caller to free.
int CMuPDF_field_set_value(CMuPDF_document *document, int index, int object, const char *text, char **value,
                           CMuPDF_error *error);
/// Toggles a checkbox or radio button (pdf_toggle_widget). On success `*value` is the field's value
/// afterwards, malloc'd, for the caller to free.
int CMuPDF_field_toggle(CMuPDF_document *document, int index, int object, char **value, CMuPDF_error *error);
/// Sets /Root /ViewerPreferences /Direction to /R2L (`rtl` 1) or /L2R (0). Returns a status.
int CMuPDF_document_set_right_to_left(CMuPDF_document *document, int rtl, CMuPDF_error *error);
/// 1 when edits were made since the save last marked (CMuPDF_document_mark_saved), else 0. Never
/// throws, takes no lock.
int CMuPDF_document_has_unsaved_changes(CMuPDF_document *document);
/// Records that the save which wrote `edits` edits (CMuPDF_document_save_incremental) was committed.
void CMuPDF_document_mark_saved(CMuPDF_document *document, unsigned long edits);
/// Saves the document incrementally to `path` (pdf_save_document, do_incremental): MuPDF writes the
/// source bytes there (unless `path` already starts with them) and appends every edit since the
/// document was opened. Not atomic: the caller gives a temporary file and renames it. Refused for a
/// repaired file. On success `*saved_edits` is the number of edits written, for
/// CMuPDF_document_mark_saved once the file is in place. Returns a status.
int CMuPDF_document_save_incremental(CMuPDF_document *document, const char *path, unsigned long *saved_edits,
                                     CMuPDF_error *error);

/// One entry of the document outline (bookmarks), in the order a reader sees them (preorder).
typedef struct CMuPDF_outline_entry {
    /// 0 for a top-level entry, 1 for its children, …
    int depth;
    /// The page it leads to (0-based), or -1: none, an external link, or not a page of the document.
    int page;
    /// 1 when the file asks for its children to be shown (/Count > 0).
    int is_open;
    /// The title as UTF-8 (never NULL). Points into the entries' block.
    const char *title;
} CMuPDF_outline_entry;

/// The outline (fz_load_outline), after walking the whole page tree so that every destination
/// resolves through Lectern's page map. On success `*entries` is one malloc'd block of `*count`
/// entries followed by their titles, that the caller frees with one free() (NULL and 0 when the
/// document has no outline). Entries nested deeper than 64 levels, or past the first 65,536, are
/// left out.
int CMuPDF_document_outline(CMuPDF_document *document, CMuPDF_outline_entry **entries, int *count,
                            CMuPDF_error *error);

/// Flags of a text character (CMuPDF_text_char.flags).
enum CMuPDF_text_flags {
    /// The first character of a line.
    CMUPDF_TEXT_LINE_START = 1,
};

/// One character of a page's text, as MuPDF's structured text orders it (the order it is drawn
/// in: right-to-left scripts usually come out in visual order, reversed).
typedef struct CMuPDF_text_char {
    /// The Unicode scalar value (ligatures expanded; a hyphen ending a line is dropped).
    int c;
    int flags;
    /// Its box {x0, y0, x1, y1} in PDF user space (unrotated, y up), like text blocks.
    float box[4];
} CMuPDF_text_char;

/// The text of page `index` character by character, for searching it: the page is loaded and its
/// content run into structured text under the document lock (no display list is cached: a search
/// through every page must not evict the pages on screen). On success `*chars` is a malloc'd array
/// of `*count` characters that the caller frees (NULL and 0 for a page without text).
int CMuPDF_page_text_chars(CMuPDF_document *document, int index, CMuPDF_text_char **chars, int *count,
                           CMuPDF_error *error);

/// Tests only: the page info the way it was read before (loading the page: fz_load_page, fz_bound_page,
/// /Rotate rounded down), as the reference the page-object reading is checked against.
int CMuPDF_page_get_info_by_loading_for_testing(CMuPDF_document *document, int index,
                                                        CMuPDF_page_info *info, CMuPDF_error *error);

/// Tests only: takes (`hold` 1) or releases (0) the lock that guards the fz_document, on the calling
/// thread, to show what does not need it.
void CMuPDF_document_hold_lock_for_testing(CMuPDF_document *document, int hold);

/// Writes premultiplied BGRA pixels as an opaque RGB PNG to `path` (not atomically: the Swift
/// caller writes a temporary file and renames it). Uses a context cloned from `base`.
int CMuPDF_write_png(CMuPDF_context *base, const unsigned char *bgra, int width, int height,
                            ptrdiff_t stride, const char *path, CMuPDF_error *error);

/// Decodes the image file at `path` (PNG, JPEG, …) into tightly packed 8-bit RGB.
/// On success `*rgb` is a malloc'd buffer of width*height*3 bytes that the caller frees.
int CMuPDF_load_image_rgb(CMuPDF_context *base, const char *path, int *width, int *height,
                                 unsigned char **rgb, CMuPDF_error *error);

#include "CMuPDF_text.h"
#include "CMuPDF_structure.h"
#include "CMuPDF_audit.h"

#ifdef __cplusplus
}
#endif

#endif
