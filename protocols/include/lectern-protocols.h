#pragma once
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "single-pixel-buffer-v1-client-protocol.h"

// Real addresses of the interface descriptors (Swift would copy the imported globals).
static inline const struct wl_interface *CWaylandProtocols_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
static inline const struct wl_interface *CWaylandProtocols_viewporter_interface(void) { return &wp_viewporter_interface; }
static inline const struct wl_interface *CWaylandProtocols_presentation_interface(void) { return &wp_presentation_interface; }
static inline const struct wl_interface *CWaylandProtocols_fractional_scale_manager_interface(void) { return &wp_fractional_scale_manager_v1_interface; }
static inline const struct wl_interface *CWaylandProtocols_single_pixel_buffer_manager_interface(void) { return &wp_single_pixel_buffer_manager_v1_interface; }
