#pragma once
// Text measured as fcft measures it, without fcft or fontconfig: one font file, read from a
// descriptor the reader sent (the render worker cannot open files), sized and shaped with
// FreeType and HarfBuzz the way fcft 3 does it (Sources/LecternDocuments/Reflow/FontFace.swift).
#include <stddef.h>
#include <stdint.h>

/// One font face and its HarfBuzz font. Not thread safe: one caller at a time.
typedef struct CFontShaping_face CFontShaping_face;

/// The FreeType load flags fcft derives from the font's fontconfig properties (fcft's
/// `instantiate_pattern`): hinting, hint style (FC_HINT_*), antialiasing, sub-pixel order
/// (FC_RGBA_*), embedded bitmaps and the autohinter.
int CFontShaping_load_flags(int antialias, int hinting, int hint_style, int rgba, int embedded_bitmap, int autohint);

/// Reads the font file `fd` (not closed; read with pread, so its offset is left alone) and opens
/// its face `index`. Returns NULL and writes why into `error` (`error_size` bytes) on failure.
/// The caller owns the face (CFontShaping_close).
CFontShaping_face *CFontShaping_open(int fd, int index, char *error, size_t error_size);

/// Sizes the face at `pixel_size` pixels (fcft: FT_Set_Char_Size in 26.6 at 72 dpi) and loads
/// glyphs with `load_flags` from now on. Returns 0, or FreeType's error.
int CFontShaping_set_size(CFontShaping_face *face, double pixel_size, int load_flags);

/// Whether the face maps `codepoint` to a glyph.
int CFontShaping_has_glyph(const CFontShaping_face *face, uint32_t codepoint);

/// Shapes `text` (`length` code points) as fcft 3 shapes a text run (in parts of one script,
/// each with its direction and script guessed) and writes each glyph's advance in whole pixels
/// and its cluster (an index in `text`), in drawing order, up to `capacity` glyphs. A code point
/// the face has no glyph for (fcft would take a fallback font) is one glyph of `missing_advance`.
/// Returns the number of glyphs.
size_t CFontShaping_shape(
    CFontShaping_face *face, const uint32_t *text, size_t length, int32_t *advances, uint32_t *clusters,
    size_t capacity, int32_t missing_advance);

/// Frees the face and the file's bytes.
void CFontShaping_close(CFontShaping_face *face);
