// The floor clients' fullscreen xdg_toplevel: its size and first configure, and the listeners
// every xdg-shell client needs (first-frame-floor.c, pan-floor.c).
#pragma once
#include <stdint.h>
#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"

struct floor_window {
    int32_t width, height;
    uint32_t configure_serial;
    int configured;
};

static void floor_registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static void floor_wm_base_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
    (void)data;
    xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener floor_wm_base_listener = {floor_wm_base_ping};

static void floor_xdg_surface_configure(void *data, struct xdg_surface *surface, uint32_t serial) {
    struct floor_window *window = data;
    (void)surface;
    window->configure_serial = serial;
    window->configured = 1;
}

static const struct xdg_surface_listener floor_xdg_surface_listener = {floor_xdg_surface_configure};

static void floor_toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width, int32_t height,
                                     struct wl_array *states) {
    struct floor_window *window = data;
    (void)toplevel, (void)states;
    window->width = width;
    window->height = height;
}

static void floor_toplevel_close(void *data, struct xdg_toplevel *toplevel) { (void)data, (void)toplevel; }

// Never sent at version 1, but no listener slot is left NULL (libwayland aborts on one that gets an event).
static void floor_toplevel_configure_bounds(void *data, struct xdg_toplevel *toplevel, int32_t width,
                                            int32_t height) {
    (void)data, (void)toplevel, (void)width, (void)height;
}

static void floor_toplevel_wm_capabilities(void *data, struct xdg_toplevel *toplevel,
                                           struct wl_array *capabilities) {
    (void)data, (void)toplevel, (void)capabilities;
}

static const struct xdg_toplevel_listener floor_toplevel_listener = {
    floor_toplevel_configure, floor_toplevel_close, floor_toplevel_configure_bounds, floor_toplevel_wm_capabilities};

/// A fullscreen xdg_toplevel for `surface`, its listeners reporting to `window`, committed.
static struct xdg_surface *floor_fullscreen(struct xdg_wm_base *wm_base, struct wl_surface *surface,
                                            struct floor_window *window) {
    xdg_wm_base_add_listener(wm_base, &floor_wm_base_listener, window);
    struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
    xdg_surface_add_listener(xdg_surface, &floor_xdg_surface_listener, window);
    struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
    xdg_toplevel_add_listener(toplevel, &floor_toplevel_listener, window);
    xdg_toplevel_set_fullscreen(toplevel, NULL);
    wl_surface_commit(surface);
    return xdg_surface;
}
