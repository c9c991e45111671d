// CMuPDF marked content: where a page draws what its marked-content sequences (BDC <</MCID n>>
// ... EMC) hold, so a tagged figure without /BBox has a box, which glyphs an element with
// /ActualText covers, and which glyphs are artifacts (/Artifact: running heads, page numbers).
// MuPDF 1.21's devices have no marked-content calls, so the page's content is interpreted again
// with MuPDF's run processor whose BDC, BMC, EMC and Do (form) operators are wrapped to follow the
// MCID in force, onto a device that only measures what is drawn.
#include "CMuPDF.h"
#include "shim_internal.h"

#include <string.h>

/// How deep marked content nests before deeper sequences are counted only (they inherit the MCID).
#define MARKS_DEPTH 64

typedef struct marks_device {
    fz_device super;
    int stack[MARKS_DEPTH]; // the MCID in force in each open sequence (-1: none)
    int artifact[MARKS_DEPTH]; // whether each open sequence is in an /Artifact one
    int depth;              // open sequences, the ones past MARKS_DEPTH included
    int forms;              // inside a form XObject: its MCIDs are its own (an /MCR with /Stm), not the page's
    const int *mcids;       // the MCIDs measured
    fz_rect *boxes;         // what each of them draws
    int count;
    shim_marked_glyph *glyphs; // the glyphs listed (the caller's)
    int glyph_capacity;
    int glyph_count;
    // The run processor's own operators, called by the wrappers.
    void (*BDC)(fz_context *, pdf_processor *, const char *, pdf_obj *, pdf_obj *);
    void (*BMC)(fz_context *, pdf_processor *, const char *);
    void (*EMC)(fz_context *, pdf_processor *);
    void (*Do_form)(fz_context *, pdf_processor *, const char *, pdf_obj *, pdf_obj *);
    void (*w)(fz_context *, pdf_processor *, float);
} marks_device;

/// The device of the processor running on this thread (the wrappers receive only the processor).
static _Thread_local marks_device *running;

static int mcid_in_force(marks_device *dev) {
    int top = dev->depth < MARKS_DEPTH ? dev->depth : MARKS_DEPTH;
    return top > 0 ? dev->stack[top - 1] : -1;
}

static int artifact_in_force(marks_device *dev) {
    int top = dev->depth < MARKS_DEPTH ? dev->depth : MARKS_DEPTH;
    return top > 0 && dev->artifact[top - 1];
}

static void push_mark(marks_device *dev, int mcid, const char *tag) {
    int inherited = mcid_in_force(dev);
    if (dev->depth < MARKS_DEPTH) {
        dev->stack[dev->depth] = mcid >= 0 && dev->forms == 0 ? mcid : inherited;
        dev->artifact[dev->depth] = artifact_in_force(dev) || (tag && !strcmp(tag, "Artifact"));
    }
    dev->depth++;
}

/// Hands the text shown so far to the device while the marked content it was shown in is in
/// force. MuPDF's run processor keeps a text object's glyphs until ET or a change of the graphics
/// state, and 1.21's BDC and EMC do not flush them; its `w` does (pdf_flush_text), so a line width
/// is set: 1, which only this measuring run sees (a stroke's box may be off by half the difference).
static void flush_text(fz_context *ctx, pdf_processor *proc) {
    running->w(ctx, proc, 1);
}

static void run_BDC(fz_context *ctx, pdf_processor *proc, const char *tag, pdf_obj *raw, pdf_obj *cooked) {
    flush_text(ctx, proc);
    pdf_obj *mcid = pdf_dict_get(ctx, cooked, PDF_NAME(MCID));
    push_mark(running, pdf_is_int(ctx, mcid) ? pdf_to_int(ctx, mcid) : -1, tag);
    running->BDC(ctx, proc, tag, raw, cooked);
}

static void run_BMC(fz_context *ctx, pdf_processor *proc, const char *tag) {
    flush_text(ctx, proc);
    push_mark(running, -1, tag);
    running->BMC(ctx, proc, tag);
}

static void run_EMC(fz_context *ctx, pdf_processor *proc) {
    flush_text(ctx, proc);
    if (running->depth > 0) running->depth--; // an EMC too many closes nothing
    running->EMC(ctx, proc);
}

static void run_Do_form(fz_context *ctx, pdf_processor *proc, const char *name, pdf_obj *form, pdf_obj *resources) {
    marks_device *dev = running;
    dev->forms++;
    fz_try(ctx) dev->Do_form(ctx, proc, name, form, resources);
    fz_always(ctx) dev->forms--;
    fz_catch(ctx) fz_rethrow(ctx);
}

static void drawn(fz_device *device, fz_rect box) {
    marks_device *dev = (marks_device *)device;
    int mcid = mcid_in_force(dev);
    if (mcid < 0) return;
    for (int i = 0; i < dev->count; i++)
        if (dev->mcids[i] == mcid) dev->boxes[i] = fz_union_rect(dev->boxes[i], box);
}

static void fill_path(fz_context *ctx, fz_device *dev, const fz_path *path, int even_odd, fz_matrix ctm,
                      fz_colorspace *cs, const float *color, float alpha, fz_color_params params) {
    drawn(dev, fz_bound_path(ctx, path, NULL, ctm));
}

static void stroke_path(fz_context *ctx, fz_device *dev, const fz_path *path, const fz_stroke_state *stroke,
                        fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params params) {
    drawn(dev, fz_bound_path(ctx, path, stroke, ctm));
}

/// Lists each glyph of `text` (its box) as `mark`'s.
static void list_text(fz_context *ctx, marks_device *dev, const fz_text *text, fz_matrix ctm, int mark) {
    for (fz_text_span *span = text->head; span; span = span->next) {
        for (int i = 0; i < span->len && dev->glyph_count < dev->glyph_capacity; i++) {
            fz_text_item *item = &span->items[i];
            if (item->gid < 0) continue;
            fz_matrix trm = span->trm;
            trm.e = item->x, trm.f = item->y;
            fz_rect box = fz_bound_glyph(ctx, span->font, item->gid, fz_concat(trm, ctm));
            if (fz_is_empty_rect(box) || fz_is_infinite_rect(box)) continue; // a space
            dev->glyphs[dev->glyph_count++] = (shim_marked_glyph){.mark = mark, .box = box};
        }
    }
}

/// Lists the glyphs of `text` for the measured MCID in force, or as an artifact's (mark -1)
/// inside /Artifact.
static void list_glyphs(fz_context *ctx, marks_device *dev, const fz_text *text, fz_matrix ctm) {
    if (artifact_in_force(dev)) return list_text(ctx, dev, text, ctm, -1);
    int mcid = mcid_in_force(dev);
    if (mcid < 0) return;
    for (int mark = 0; mark < dev->count; mark++)
        if (dev->mcids[mark] == mcid) list_text(ctx, dev, text, ctm, mark);
}

static void fill_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_colorspace *cs,
                      const float *color, float alpha, fz_color_params params) {
    drawn(dev, fz_bound_text(ctx, text, NULL, ctm));
    list_glyphs(ctx, (marks_device *)dev, text, ctm);
}

static void stroke_text(fz_context *ctx, fz_device *dev, const fz_text *text, const fz_stroke_state *stroke,
                        fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params params) {
    drawn(dev, fz_bound_text(ctx, text, stroke, ctm));
    list_glyphs(ctx, (marks_device *)dev, text, ctm);
}

// Invisible text (an OCR layer) is in the page's text, so its glyphs count; it draws nothing.
static void ignore_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm) {
    list_glyphs(ctx, (marks_device *)dev, text, ctm);
}

static void fill_shade(fz_context *ctx, fz_device *dev, fz_shade *shade, fz_matrix ctm, float alpha,
                       fz_color_params params) {
    drawn(dev, fz_bound_shade(ctx, shade, ctm)); // may be infinite: clipped to the page by the caller
}

static void fill_image(fz_context *ctx, fz_device *dev, fz_image *image, fz_matrix ctm, float alpha,
                       fz_color_params params) {
    drawn(dev, fz_transform_rect(fz_unit_rect, ctm));
}

static void fill_image_mask(fz_context *ctx, fz_device *dev, fz_image *image, fz_matrix ctm, fz_colorspace *cs,
                            const float *color, float alpha, fz_color_params params) {
    drawn(dev, fz_transform_rect(fz_unit_rect, ctm));
}

void shim_marked_content_boxes(fz_context *ctx, pdf_document *pdf, pdf_obj *page, const int *mcids, int count,
                               fz_rect *boxes, shim_marked_glyph *glyphs, int glyph_capacity, int *glyph_count) {
    *glyph_count = 0;
    for (int i = 0; i < count; i++) boxes[i] = fz_empty_rect;
    marks_device *dev = NULL;
    pdf_processor *proc = NULL;
    fz_var(dev);
    fz_var(proc);
    fz_try(ctx) {
        dev = fz_new_derived_device(ctx, marks_device);
        dev->super.fill_path = fill_path;
        dev->super.stroke_path = stroke_path;
        dev->super.fill_text = fill_text;
        dev->super.stroke_text = stroke_text;
        dev->super.fill_shade = fill_shade;
        dev->super.fill_image = fill_image;
        dev->super.fill_image_mask = fill_image_mask;
        dev->super.ignore_text = ignore_text;
        dev->mcids = mcids;
        dev->glyphs = glyphs;
        dev->glyph_capacity = glyph_capacity;
        dev->boxes = boxes;
        dev->count = count;
        // PDF user space: the identity, not the page's transform.
        proc = pdf_new_run_processor(ctx, &dev->super, fz_identity, "View", NULL, NULL, NULL);
        dev->BDC = proc->op_BDC, proc->op_BDC = run_BDC;
        dev->BMC = proc->op_BMC, proc->op_BMC = run_BMC;
        dev->EMC = proc->op_EMC, proc->op_EMC = run_EMC;
        dev->Do_form = proc->op_Do_form, proc->op_Do_form = run_Do_form;
        dev->w = proc->op_w;
        running = dev;
        pdf_obj *resources = pdf_dict_get_inheritable(ctx, page, PDF_NAME(Resources));
        pdf_process_contents(ctx, proc, pdf, resources, pdf_dict_get(ctx, page, PDF_NAME(Contents)), NULL);
        pdf_close_processor(ctx, proc);
        fz_close_device(ctx, &dev->super);
        *glyph_count = dev->glyph_count;
    }
    fz_always(ctx) {
        running = NULL;
        pdf_drop_processor(ctx, proc);
        fz_drop_device(ctx, dev ? &dev->super : NULL);
    }
    fz_catch(ctx) fz_rethrow(ctx);
    fz_rect media = pdf_to_rect(ctx, pdf_dict_get_inheritable(ctx, page, PDF_NAME(MediaBox)));
    if (fz_is_empty_rect(media)) media = fz_make_rect(0, 0, 612, 792); // MuPDF's own default
    for (int i = 0; i < count; i++) boxes[i] = fz_intersect_rect(boxes[i], media);
}
