#pragma once
#include <wayland-client.h>

// Swift copies imported `const struct wl_interface` globals; libwayland needs their real
// addresses. These return them.
static inline const struct wl_interface *CWaylandClient_compositor_interface(void) { return &wl_compositor_interface; }
static inline const struct wl_interface *CWaylandClient_shm_interface(void) { return &wl_shm_interface; }
static inline const struct wl_interface *CWaylandClient_subcompositor_interface(void) { return &wl_subcompositor_interface; }
static inline const struct wl_interface *CWaylandClient_seat_interface(void) { return &wl_seat_interface; }
static inline const struct wl_interface *CWaylandClient_output_interface(void) { return &wl_output_interface; }
static inline const struct wl_interface *CWaylandClient_data_device_manager_interface(void) {
    return &wl_data_device_manager_interface;
}
