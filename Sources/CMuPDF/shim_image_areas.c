// CMuPDF: where a tile's images are drawn, so a contrast mode can leave them in their own colours.
// A device that only records: it replays the page's cached display list and keeps the box of every
// image it is asked to fill, clipped by the clips in force. Nothing is drawn.
#include "CMuPDF.h"
#include "shim_internal.h"
#include <mupdf/fitz.h>
#include <string.h>

/// The depth of clips the recorder follows; a deeper clip is not applied (a box too big, never too small).
#define IMAGE_AREAS_CLIP_DEPTH 64

typedef struct image_area_device {
    fz_device super;
    fz_rect clips[IMAGE_AREAS_CLIP_DEPTH]; // clips[0] is the tile
    int clip_depth;                          // entries in use; pushes past the end are counted only
    int mask_depth;                          // inside begin_mask..end_mask: a mask's content, not shown
    int tile_depth;                          // inside a tiling pattern's cell: drawn elsewhere, repeated
    int *boxes;                              // x0, y0, x1, y1 each (the caller's)
    int capacity;
    int count;
} image_area_device;

static fz_rect current_clip(image_area_device *dev) {
    int top = dev->clip_depth < IMAGE_AREAS_CLIP_DEPTH ? dev->clip_depth : IMAGE_AREAS_CLIP_DEPTH;
    return dev->clips[top - 1];
}

static void push_clip(image_area_device *dev, fz_rect area) {
    if (dev->clip_depth < IMAGE_AREAS_CLIP_DEPTH)
        dev->clips[dev->clip_depth] = fz_intersect_rect(current_clip(dev), area);
    dev->clip_depth++;
}

static void clip_path(fz_context *ctx, fz_device *dev, const fz_path *path, int even_odd, fz_matrix ctm,
                      fz_rect scissor) {
    push_clip((image_area_device *)dev, fz_bound_path(ctx, path, NULL, ctm));
}

static void clip_stroke_path(fz_context *ctx, fz_device *dev, const fz_path *path, const fz_stroke_state *stroke,
                             fz_matrix ctm, fz_rect scissor) {
    push_clip((image_area_device *)dev, fz_bound_path(ctx, path, stroke, ctm));
}

static void clip_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_rect scissor) {
    push_clip((image_area_device *)dev, fz_bound_text(ctx, text, NULL, ctm));
}

static void clip_stroke_text(fz_context *ctx, fz_device *dev, const fz_text *text, const fz_stroke_state *stroke,
                             fz_matrix ctm, fz_rect scissor) {
    push_clip((image_area_device *)dev, fz_bound_text(ctx, text, stroke, ctm));
}

static void clip_image_mask(fz_context *ctx, fz_device *dev, fz_image *image, fz_matrix ctm, fz_rect scissor) {
    push_clip((image_area_device *)dev, fz_transform_rect(fz_unit_rect, ctm));
}

static void pop_clip(fz_context *ctx, fz_device *dev) {
    image_area_device *recorder = (image_area_device *)dev;
    if (recorder->clip_depth > 1) recorder->clip_depth--;
}

static void begin_mask(fz_context *ctx, fz_device *dev, fz_rect area, int luminosity, fz_colorspace *colorspace,
                       const float *backdrop, fz_color_params params) {
    ((image_area_device *)dev)->mask_depth++;
}

// The mask's content is done; from here to its pop_clip it clips what is drawn, like a clip path.
static void end_mask(fz_context *ctx, fz_device *dev) {
    image_area_device *recorder = (image_area_device *)dev;
    if (recorder->mask_depth > 0) recorder->mask_depth--;
    push_clip(recorder, fz_infinite_rect);
}

static int begin_tile(fz_context *ctx, fz_device *dev, fz_rect area, fz_rect view, float xstep, float ystep,
                      fz_matrix ctm, int id) {
    ((image_area_device *)dev)->tile_depth++;
    return 0;
}

static void end_tile(fz_context *ctx, fz_device *dev) {
    image_area_device *recorder = (image_area_device *)dev;
    if (recorder->tile_depth > 0) recorder->tile_depth--;
}

static void fill_image(fz_context *ctx, fz_device *dev, fz_image *image, fz_matrix ctm, float alpha,
                       fz_color_params params) {
    image_area_device *recorder = (image_area_device *)dev;
    if (recorder->mask_depth > 0 || recorder->tile_depth > 0 || alpha <= 0) return;
    fz_irect box = fz_round_rect(fz_intersect_rect(fz_transform_rect(fz_unit_rect, ctm), current_clip(recorder)));
    if (fz_is_empty_irect(box)) return;
    if (recorder->count < recorder->capacity) {
        int *out = recorder->boxes + 4 * recorder->count++;
        out[0] = box.x0, out[1] = box.y0, out[2] = box.x1, out[3] = box.y1;
        return;
    }
    // No room left: the last box grows to hold this one too (more of the tile kept, none lost).
    int *out = recorder->boxes + 4 * (recorder->capacity - 1);
    out[0] = out[0] < box.x0 ? out[0] : box.x0;
    out[1] = out[1] < box.y0 ? out[1] : box.y0;
    out[2] = out[2] > box.x1 ? out[2] : box.x1;
    out[3] = out[3] > box.y1 ? out[3] : box.y1;
}

int CMuPDF_page_image_areas(CMuPDF_document *document, int index, float scale, int x, int y, int width, int height,
                            int *boxes, int capacity, int *count, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    *count = 0;
    if (width <= 0 || height <= 0 || !boxes || capacity <= 0 || !(scale > 0)) {
        shim_set_error(error, CMUPDF_ERROR_ARGUMENT, "invalid region, box capacity or scale");
        return CMUPDF_ERROR_ARGUMENT;
    }
    memset(boxes, 0, sizeof(int) * 4 * (size_t)capacity);
    fz_cookie cookie = {0};
    fz_context *ctx = NULL;
    list_ref ref;
    int status = shim_checkout_list(document, index, &cookie, &ctx, &ref, error);
    if (status != CMUPDF_OK) return status;
    image_area_device *device = NULL;
    fz_var(device);
    fz_try(ctx) {
        device = fz_new_derived_device(ctx, image_area_device);
        device->super.clip_path = clip_path;
        device->super.clip_stroke_path = clip_stroke_path;
        device->super.clip_text = clip_text;
        device->super.clip_stroke_text = clip_stroke_text;
        device->super.clip_image_mask = clip_image_mask;
        device->super.pop_clip = pop_clip;
        device->super.begin_mask = begin_mask;
        device->super.end_mask = end_mask;
        device->super.begin_tile = begin_tile;
        device->super.end_tile = end_tile;
        device->super.fill_image = fill_image;
        device->clips[0] = fz_make_rect(0, 0, (float)width, (float)height);
        device->clip_depth = 1;
        device->boxes = boxes;
        device->capacity = capacity;
        fz_matrix ctm = shim_tile_ctm(&ref, scale, x, y);
        fz_run_display_list(ctx, ref.list, &device->super, ctm, device->clips[0], &cookie);
        fz_close_device(ctx, &device->super);
        *count = device->count;
    }
    fz_always(ctx) {
        fz_drop_device(ctx, device ? &device->super : NULL);
        fz_drop_display_list(ctx, ref.list);
    }
    fz_catch(ctx) status = shim_caught(ctx, error);
    shim_checkin_context(document, ctx);
    return status;
}
