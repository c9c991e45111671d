#pragma once
// fcft, loaded with dlopen the first time text is drawn instead of linked: most starts draw no
// text (a page fills the first frame), and libfcft brings fontconfig, expat and utf8proc, whose
// loading and relocation cost about 0.4 ms of every start. Only CFcft_load's table calls fcft.
#include <fcft/fcft.h>

/// The fcft functions Lectern uses, resolved from libfcft.so.4 (fcft 3.x).
typedef struct CFcft_functions {
    __typeof__(fcft_init) *initialize;
    __typeof__(fcft_capabilities) *capabilities;
    __typeof__(fcft_from_name) *from_name;
    __typeof__(fcft_destroy) *destroy;
    __typeof__(fcft_rasterize_char_utf32) *rasterize_char_utf32;
    __typeof__(fcft_rasterize_text_run_utf32) *rasterize_text_run_utf32;
    __typeof__(fcft_text_run_destroy) *text_run_destroy;
} CFcft_functions;

/// Loads libfcft on the first call (thread safe) and returns its functions, or NULL when it
/// cannot be loaded; then `CFcft_load_error` says why. The library stays loaded.
const CFcft_functions *CFcft_load(void);

/// Why CFcft_load returned NULL (dlopen's or dlsym's message), or NULL.
const char *CFcft_load_error(void);
