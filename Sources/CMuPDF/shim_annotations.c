// CMuPDF: annotations, form fields and their edits and saves.
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
    shim_set_error(error, CMUPDF_OK, "");
    *annotations = NULL;
    *count = 0;
    *truncated = 0;
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    fz_context *ctx = shim_enter(document);
    fz_page *page = NULL;
    CMuPDF_annotation *out = NULL;
    int used = 0, cut = 0;
    fz_var(page);
    fz_var(out);
    fz_var(used);
    fz_var(cut);
    fz_try(ctx) {
        // Loading the page reads its annotations and widgets (pdf_load_page), not its content.
        page = shim_load_page_locked(document, index);
        pdf_page *pdf_page = pdf_page_from_fz_page(ctx, page);
        if (pdf_page) {
            fz_matrix to_user = fz_invert_matrix(shim_page_transform(ctx, page));
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
        status = shim_caught(ctx, error);
    }
    return shim_leave(document, status);
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
void shim_drop_cached_lists(CMuPDF_document *document) {
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
    shim_set_error(error, CMUPDF_OK, "");
    if (!document->pdf) {
        shim_set_error(error, CMUPDF_ERROR_REFUSED, "the document is not a PDF: it cannot be edited");
        return CMUPDF_ERROR_REFUSED;
    }
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    fz_context *ctx = shim_enter(document);
    fz_page *page = NULL;
    fz_var(page);
    fz_try(ctx) {
        page = shim_load_page_locked(document, index);
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
        shim_set_error(error, status, fz_caught_message(ctx));
    }
    // Even a failed edit may have changed part of the document before it threw.
    shim_drop_cached_lists(document);
    return shim_leave(document, status);
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
            shim_set_error(error, CMUPDF_ERROR_ARGUMENT, "the rectangle is not finite or lies far outside any page");
            return CMUPDF_ERROR_ARGUMENT;
        }
    }
    if (rect[2] < rect[0] || rect[3] < rect[1]) {
        shim_set_error(error, CMUPDF_ERROR_ARGUMENT, "the rectangle is inverted (x1 < x0 or y1 < y0)");
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
        shim_set_error(error, CMUPDF_ERROR_ARGUMENT, "the text is longer than 65,536 bytes");
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
    shim_set_error(error, CMUPDF_OK, "");
    if (!document->pdf) {
        shim_set_error(error, CMUPDF_ERROR_REFUSED, "the document is not a PDF: it cannot be edited");
        return CMUPDF_ERROR_REFUSED;
    }
    fz_context *ctx = shim_enter(document);
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
    fz_catch(ctx) status = shim_caught(ctx, error);
    return shim_leave(document, status);
}

int CMuPDF_document_has_unsaved_changes(CMuPDF_document *document) {
    return atomic_load(&document->edits) != atomic_load(&document->saved);
}

void CMuPDF_document_mark_saved(CMuPDF_document *document, unsigned long edits) {
    atomic_store(&document->saved, edits);
}

int CMuPDF_document_save_incremental(CMuPDF_document *document, const char *path, unsigned long *saved_edits,
                                     CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    if (!document->pdf) {
        shim_set_error(error, CMUPDF_ERROR_REFUSED, "the document is not a PDF: it cannot be saved");
        return CMUPDF_ERROR_REFUSED;
    }
    fz_context *ctx = shim_enter(document);
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
        shim_set_error(error, status, fz_caught_message(ctx));
    }
    return shim_leave(document, status);
}
