// The floor for Lectern's first frame: the least a Wayland client can do to show page 1 of a
// PDF fullscreen. kiosk/bench builds it and lectern-bench's first-frame benchmark runs it
// against the same test compositor as Lectern, interleaved, and reports Lectern's time as a
// ratio to this one.
//
// Connect, bind wl_compositor, wl_shm and xdg_wm_base, ask for a fullscreen xdg_toplevel,
// open the document while the first configure is on its way, and once it came: MuPDF renders
// page 1 fitted inside a 12 px margin (as Lectern does) straight into a wl_shm buffer, attach,
// damage, commit. Nothing else: no threads, no tiles, no text, no input, no second buffer.
// Then it waits, as Lectern would, until the compositor goes away or it is killed.
//
// Usage: first-frame-floor FILE.pdf   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR as for any client)
#define _GNU_SOURCE
#include <mupdf/fitz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "floor-window.h"

enum { page_margin = 12 };
// Lectern's background (LecternRender's Color.background), so both frames cost the same fill.
static const uint32_t background = 0xff2b2f36;

struct floor_client {
    struct wl_compositor *compositor;
    struct wl_shm *shm;
    struct xdg_wm_base *wm_base;
    struct floor_window window;
};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                            uint32_t version) {
    struct floor_client *client = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0)
        client->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, version < 4 ? version : 4);
    else if (strcmp(interface, wl_shm_interface.name) == 0)
        client->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
        client->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
}

static const struct wl_registry_listener registry_listener = {registry_global, floor_registry_global_remove};

static void die(const char *message) {
    fprintf(stderr, "first-frame-floor: %s\n", message);
    exit(1);
}

/// A wl_buffer of width x height ARGB8888 pixels; `pixels` gets the mapping.
static struct wl_buffer *create_buffer(struct wl_shm *shm, int32_t width, int32_t height, uint32_t **pixels) {
    int32_t stride = width * 4;
    size_t size = (size_t)stride * (size_t)height;
    int fd = memfd_create("first-frame-floor", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) < 0) die("cannot create the shm buffer");
    void *data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) die("cannot map the shm buffer");
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    *pixels = data;
    return buffer;
}

/// Draws page 1 of `doc`, fitted inside the margin and centred, on Lectern's background.
static void render_page(fz_context *ctx, fz_page *page, uint32_t *pixels, int32_t width, int32_t height) {
    for (size_t i = 0; i < (size_t)width * (size_t)height; i++) pixels[i] = background;
    fz_rect bounds = fz_bound_page(ctx, page);
    float page_width = bounds.x1 - bounds.x0, page_height = bounds.y1 - bounds.y0;
    float box_width = (float)(width - 2 * page_margin), box_height = (float)(height - 2 * page_margin);
    float scale = fminf(box_width / page_width, box_height / page_height);
    float left = page_margin + (box_width - page_width * scale) / 2;
    float top = page_margin + (box_height - page_height * scale) / 2;
    fz_matrix ctm = fz_concat(fz_translate(-bounds.x0, -bounds.y0), fz_scale(scale, scale));
    ctm = fz_concat(ctm, fz_translate(left, top));
    // ARGB8888 in memory is B, G, R, A: MuPDF's BGR with alpha.
    fz_pixmap *pixmap = fz_new_pixmap_with_data(ctx, fz_device_bgr(ctx), width, height, NULL, 1, width * 4,
                                                (unsigned char *)pixels);
    fz_device *device = NULL;
    fz_var(device);
    fz_try(ctx) {
        fz_clear_pixmap_rect_with_value(ctx, pixmap, 0xff, fz_round_rect(fz_transform_rect(bounds, ctm)));
        device = fz_new_draw_device(ctx, fz_identity, pixmap);
        fz_run_page(ctx, page, device, ctm, NULL);
        fz_close_device(ctx, device);
    }
    fz_always(ctx) {
        fz_drop_device(ctx, device);
        fz_drop_pixmap(ctx, pixmap);
    }
    fz_catch(ctx) fz_rethrow(ctx);
}

int main(int argc, char **argv) {
    if (argc != 2) die("usage: first-frame-floor FILE.pdf");
    struct floor_client client = {0};
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) die("cannot connect to the Wayland compositor");
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, &client);
    wl_display_roundtrip(display);
    if (!client.compositor || !client.shm || !client.wm_base) die("the compositor lacks a required global");
    struct wl_surface *surface = wl_compositor_create_surface(client.compositor);
    struct xdg_surface *xdg_surface = floor_fullscreen(client.wm_base, surface, &client.window);
    wl_display_flush(display);

    // The document opens while the compositor answers with the first configure.
    fz_context *ctx = fz_new_context(NULL, NULL, FZ_STORE_DEFAULT);
    if (!ctx) die("cannot create a MuPDF context");
    fz_document *doc = NULL;
    fz_page *page = NULL;
    fz_try(ctx) {
        fz_register_document_handlers(ctx);
        doc = fz_open_document(ctx, argv[1]);
        page = fz_load_page(ctx, doc, 0);
    }
    fz_catch(ctx) die(fz_caught_message(ctx));

    while (!client.window.configured)
        if (wl_display_dispatch(display) < 0) die("lost the compositor before the first configure");
    if (client.window.width <= 0 || client.window.height <= 0) die("the compositor left the size to the client");
    xdg_surface_ack_configure(xdg_surface, client.window.configure_serial);

    uint32_t *pixels = NULL;
    struct wl_buffer *buffer = create_buffer(client.shm, client.window.width, client.window.height, &pixels);
    fz_try(ctx) render_page(ctx, page, pixels, client.window.width, client.window.height);
    fz_catch(ctx) die(fz_caught_message(ctx));
    wl_surface_attach(surface, buffer, 0, 0);
    wl_surface_damage(surface, 0, 0, client.window.width, client.window.height);
    wl_surface_commit(surface);
    wl_display_flush(display);

    // Stay up, as a reader would, until the compositor goes or the benchmark ends us.
    while (wl_display_dispatch(display) >= 0) {
    }
    fz_drop_page(ctx, page);
    fz_drop_document(ctx, doc);
    fz_drop_context(ctx);
    wl_display_disconnect(display);
    return 0;
}
