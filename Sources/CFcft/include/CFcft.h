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

/// The font file fontconfig gives fcft for a name, and the properties fcft sizes and loads its
/// glyphs with (fcft's `instantiate_pattern`): what the render worker needs to measure text as
/// fcft does (Sources/CFontShaping).
typedef struct CFcft_font_file {
    char path[4096];
    int index;
    double pixel_size;
    int antialias, hinting, hint_style, rgba, embedded_bitmap, autohint;
} CFcft_font_file;

/// Matches `name` (e.g. "sans-serif:pixelsize=40") as fcft_from_name matches its primary font,
/// with the fontconfig fcft loaded (call it after a font was loaded: fcft initialised it).
/// Returns 0 and fills `file`, or -1 when fontconfig is not loaded or nothing matches.
int CFcft_match_font_file(const char *name, CFcft_font_file *file);
