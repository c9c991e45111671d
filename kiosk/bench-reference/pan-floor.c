// The floor for a pan's CPU: the least a Wayland client can do to follow a finger when the
// compositor moves what it already holds. kiosk/bench builds it and lectern-bench's pan
// benchmark runs it against the same test compositor and the same 60 Hz pan as Lectern, and
// reports its CPU a step beside Lectern's.
//
// Connect, bind wl_compositor, wl_shm, wl_seat, wp_viewporter and xdg_wm_base, ask for a
// fullscreen xdg_toplevel, and at the first configure attach one buffer a quarter of the window
// larger on each side (as Lectern's pages' surface is: PanSurface.margin), filled once, cropped
// to the window by a viewport. Then, for each wl_touch.frame that moved the finger: the
// viewport's source follows the finger, a frame callback is asked for, commit; while a callback
// is outstanding the move waits for it. Nothing else: no pages, no tiles, no chrome, no threads.
//
// Usage: pan-floor   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR as for any client)
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "floor-window.h"
#include "viewporter-client-protocol.h"

struct pan_floor {
    struct wl_compositor *compositor;
    struct wl_shm *shm;
    struct wl_seat *seat;
    struct wl_touch *touch;
    struct wp_viewporter *viewporter;
    struct xdg_wm_base *wm_base;
    struct wl_surface *surface;
    struct wp_viewport *viewport;
    struct wl_callback *frame_callback;
    struct floor_window window;
    int32_t margin_x, margin_y;
    // The finger: where it went down, where it is, and whether a move waits to be shown.
    int touching, moved;
    double down_y, y;
};

static void die(const char *message) {
    fprintf(stderr, "pan-floor: %s\n", message);
    exit(1);
}

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                            uint32_t version) {
    struct pan_floor *client = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0)
        client->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, version < 4 ? version : 4);
    else if (strcmp(interface, wl_shm_interface.name) == 0)
        client->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    else if (strcmp(interface, wl_seat_interface.name) == 0)
        client->seat = wl_registry_bind(registry, name, &wl_seat_interface, version < 5 ? version : 5);
    else if (strcmp(interface, wp_viewporter_interface.name) == 0)
        client->viewporter = wl_registry_bind(registry, name, &wp_viewporter_interface, 1);
    else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
        client->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
}

static const struct wl_registry_listener registry_listener = {registry_global, floor_registry_global_remove};

static void show_move(struct pan_floor *client);

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
    struct pan_floor *client = data;
    (void)time;
    wl_callback_destroy(callback);
    client->frame_callback = NULL;
    if (client->moved) show_move(client);
}

static const struct wl_callback_listener frame_listener = {frame_done};

/// The viewport's source where the finger has moved the window to (within the margin), a frame
/// callback, commit.
static void show_move(struct pan_floor *client) {
    double offset = client->down_y - client->y;
    if (offset < -client->margin_y) offset = -client->margin_y;
    if (offset > client->margin_y) offset = client->margin_y;
    wp_viewport_set_source(client->viewport, wl_fixed_from_int(client->margin_x),
                           wl_fixed_from_double(client->margin_y + offset), wl_fixed_from_int(client->window.width),
                           wl_fixed_from_int(client->window.height));
    client->frame_callback = wl_surface_frame(client->surface);
    wl_callback_add_listener(client->frame_callback, &frame_listener, client);
    wl_surface_commit(client->surface);
    client->moved = 0;
}

static void touch_down(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time,
                       struct wl_surface *surface, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    struct pan_floor *client = data;
    (void)touch, (void)serial, (void)time, (void)surface, (void)id, (void)x;
    client->touching = 1;
    client->down_y = client->y = wl_fixed_to_double(y);
}

static void touch_up(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, int32_t id) {
    struct pan_floor *client = data;
    (void)touch, (void)serial, (void)time, (void)id;
    client->touching = 0;
}

static void touch_motion(void *data, struct wl_touch *touch, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    struct pan_floor *client = data;
    (void)touch, (void)time, (void)id, (void)x;
    if (!client->touching) return;
    client->y = wl_fixed_to_double(y);
    client->moved = 1;
}

static void touch_frame(void *data, struct wl_touch *touch) {
    struct pan_floor *client = data;
    (void)touch;
    if (client->moved && !client->frame_callback && client->window.configured) show_move(client);
}

static void touch_cancel(void *data, struct wl_touch *touch) {
    struct pan_floor *client = data;
    (void)touch;
    client->touching = 0;
}

static void touch_shape(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t major, wl_fixed_t minor) {
    (void)data, (void)touch, (void)id, (void)major, (void)minor;
}

static void touch_orientation(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t orientation) {
    (void)data, (void)touch, (void)id, (void)orientation;
}

static const struct wl_touch_listener touch_listener = {touch_down,  touch_up,    touch_motion,     touch_frame,
                                                        touch_cancel, touch_shape, touch_orientation};

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
    struct pan_floor *client = data;
    if ((capabilities & WL_SEAT_CAPABILITY_TOUCH) && !client->touch) {
        client->touch = wl_seat_get_touch(seat);
        wl_touch_add_listener(client->touch, &touch_listener, client);
    }
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) { (void)data, (void)seat, (void)name; }

static const struct wl_seat_listener seat_listener = {seat_capabilities, seat_name};

/// A wl_buffer of width x height XRGB8888 pixels, filled with a pattern (rows of two greys).
static struct wl_buffer *create_buffer(struct wl_shm *shm, int32_t width, int32_t height) {
    int32_t stride = width * 4;
    size_t size = (size_t)stride * (size_t)height;
    int fd = memfd_create("pan-floor", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) < 0) die("cannot create the shm buffer");
    uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) die("cannot map the shm buffer");
    for (int32_t row = 0; row < height; row++)
        for (int32_t column = 0; column < width; column++)
            pixels[(size_t)row * (size_t)width + (size_t)column] = (row / 32) % 2 ? 0xff404040 : 0xffc0c0c0;
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_XRGB8888);
    wl_shm_pool_destroy(pool);
    munmap(pixels, size);
    close(fd);
    return buffer;
}

int main(int argc, char **argv) {
    (void)argv;
    if (argc != 1) die("usage: pan-floor");
    struct pan_floor client = {0};
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) die("cannot connect to the Wayland compositor");
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, &client);
    wl_display_roundtrip(display);
    if (!client.compositor || !client.shm || !client.seat || !client.viewporter || !client.wm_base)
        die("the compositor lacks a required global");
    wl_seat_add_listener(client.seat, &seat_listener, &client);
    client.surface = wl_compositor_create_surface(client.compositor);
    client.viewport = wp_viewporter_get_viewport(client.viewporter, client.surface);
    struct xdg_surface *xdg_surface = floor_fullscreen(client.wm_base, client.surface, &client.window);
    while (!client.window.configured)
        if (wl_display_dispatch(display) < 0) die("lost the compositor before the first configure");
    if (client.window.width <= 0 || client.window.height <= 0) die("the compositor left the size to the client");
    xdg_surface_ack_configure(xdg_surface, client.window.configure_serial);

    client.margin_x = client.window.width / 4;
    client.margin_y = client.window.height / 4;
    struct wl_buffer *buffer =
        create_buffer(client.shm, client.window.width + 2 * client.margin_x, client.window.height + 2 * client.margin_y);
    wl_surface_attach(client.surface, buffer, 0, 0);
    wl_surface_damage_buffer(client.surface, 0, 0, INT32_MAX, INT32_MAX);
    wp_viewport_set_destination(client.viewport, client.window.width, client.window.height);
    client.down_y = client.y = 0;
    show_move(&client);

    // Follow the finger until the compositor goes or the benchmark ends us.
    while (wl_display_dispatch(display) >= 0) {
    }
    wl_display_disconnect(display);
    return 0;
}
