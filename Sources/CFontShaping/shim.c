#include "CFontShaping.h"
#include "freetype.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>

// fontconfig's values for the hint style and the sub-pixel order (fontconfig.h), which the
// reader reads from the pattern fcft loads: only their numbers cross the wire.
enum { HINT_NONE = 0, HINT_SLIGHT = 1 };
enum { RGBA_RGB = 1, RGBA_BGR = 2, RGBA_VRGB = 3, RGBA_VBGR = 4 };

struct CFontShaping_face {
    FT_Library library;   // owned
    FT_Face face;         // owned
    hb_font_t *font;      // owned; NULL until a size is set
    unsigned char *bytes; // owned: the file, which the face reads from while it lives
    int load_flags;
};

int CFontShaping_load_flags(int antialias, int hinting, int hint_style, int rgba, int embedded_bitmap, int autohint) {
    int flags = FT_LOAD_DEFAULT;
    if (!antialias) {
        if (!hinting || hint_style == HINT_NONE)
            flags |= FT_LOAD_MONOCHROME | FT_LOAD_NO_HINTING | FT_LOAD_TARGET_NORMAL;
        else
            flags |= FT_LOAD_MONOCHROME | FT_LOAD_TARGET_MONO;
    } else {
        if (!hinting || hint_style == HINT_NONE)
            flags |= FT_LOAD_NO_HINTING | FT_LOAD_TARGET_NORMAL;
        else if (hint_style == HINT_SLIGHT)
            flags |= FT_LOAD_TARGET_LIGHT;
        else if (rgba == RGBA_RGB || rgba == RGBA_BGR)
            flags |= FT_LOAD_TARGET_LCD;
        else if (rgba == RGBA_VRGB || rgba == RGBA_VBGR)
            flags |= FT_LOAD_TARGET_LCD_V;
        else
            flags |= FT_LOAD_TARGET_NORMAL;
    }
    if (!embedded_bitmap) flags |= FT_LOAD_NO_BITMAP;
    if (autohint) flags |= FT_LOAD_FORCE_AUTOHINT;
    return flags;
}

static unsigned char *read_all(int fd, size_t *size, char *error, size_t error_size) {
    struct stat info;
    if (fstat(fd, &info) != 0 || info.st_size <= 0 || info.st_size > (64 << 20)) {
        snprintf(error, error_size, "the font file cannot be read (%s)", errno ? strerror(errno) : "bad size");
        return NULL;
    }
    unsigned char *bytes = malloc((size_t)info.st_size);
    if (!bytes) {
        snprintf(error, error_size, "no memory for the font file");
        return NULL;
    }
    size_t done = 0;
    while (done < (size_t)info.st_size) {
        ssize_t count = pread(fd, bytes + done, (size_t)info.st_size - done, (off_t)done);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) {
            snprintf(error, error_size, "the font file cannot be read (%s)", count < 0 ? strerror(errno) : "short");
            free(bytes);
            return NULL;
        }
        done += (size_t)count;
    }
    *size = done;
    return bytes;
}

CFontShaping_face *CFontShaping_open(int fd, int index, char *error, size_t error_size) {
    CFontShaping_face *face = calloc(1, sizeof *face);
    if (!face) {
        snprintf(error, error_size, "no memory for the font");
        return NULL;
    }
    size_t size = 0;
    face->bytes = read_all(fd, &size, error, error_size);
    if (!face->bytes) {
        free(face);
        return NULL;
    }
    FT_Error status = FT_Init_FreeType(&face->library);
    if (status == 0) status = FT_New_Memory_Face(face->library, face->bytes, (FT_Long)size, index, &face->face);
    if (status != 0) {
        const char *reason = FT_Error_String(status);
        snprintf(error, error_size, "FreeType cannot open the font (%s)", reason ? reason : "error");
        if (face->library) FT_Done_FreeType(face->library);
        free(face->bytes);
        free(face);
        return NULL;
    }
    return face;
}

int CFontShaping_set_size(CFontShaping_face *face, double pixel_size, int load_flags) {
    FT_Error status = FT_Set_Char_Size(face->face, 0, (FT_F26Dot6)(pixel_size * 64), 0, 0);
    if (status != 0) return status;
    face->load_flags = load_flags;
    if (face->font) hb_font_destroy(face->font);
    face->font = hb_ft_font_create_referenced(face->face);
    hb_ft_font_set_load_flags(face->font, load_flags);
    return 0;
}

int CFontShaping_has_glyph(const CFontShaping_face *face, uint32_t codepoint) {
    return FT_Get_Char_Index(face->face, codepoint) != 0;
}

/// Shapes `text[start..<end]` as one HarfBuzz run into `advances`/`clusters` from `written`.
static size_t shape_part(
    CFontShaping_face *face, hb_buffer_t *buffer, const uint32_t *text, size_t start, size_t end, int32_t *advances,
    uint32_t *clusters, size_t written, size_t capacity) {
    hb_buffer_clear_contents(buffer);
    hb_buffer_add_utf32(buffer, text + start, (int)(end - start), 0, (int)(end - start));
    hb_buffer_guess_segment_properties(buffer);
    hb_shape(face->font, buffer, NULL, 0);
    unsigned int count = 0;
    const hb_glyph_info_t *infos = hb_buffer_get_glyph_infos(buffer, &count);
    const hb_glyph_position_t *positions = hb_buffer_get_glyph_positions(buffer, NULL);
    for (unsigned int i = 0; i < count && written < capacity; i++, written++) {
        // fcft: the advance is HarfBuzz's 26.6 value divided, not rounded.
        advances[written] = positions[i].x_advance / 64;
        clusters[written] = (uint32_t)start + infos[i].cluster;
    }
    return written;
}

size_t CFontShaping_shape(
    CFontShaping_face *face, const uint32_t *text, size_t length, int32_t *advances, uint32_t *clusters,
    size_t capacity, int32_t missing_advance) {
    if (!face->font || length == 0) return 0;
    hb_unicode_funcs_t *unicode = hb_unicode_funcs_get_default();
    hb_buffer_t *buffer = hb_buffer_create();
    size_t written = 0, start = 0;
    // fcft shapes a run in parts: each where the script changes (Common, as punctuation and
    // spaces, is a script of its own there), and each where the font changes. A code point the
    // face lacks would be drawn from a fallback font this process does not have: it counts as
    // `missing_advance`, alone.
    for (size_t i = 1; i <= length; i++) {
        int has = CFontShaping_has_glyph(face, text[i - 1]);
        if (i < length && has && CFontShaping_has_glyph(face, text[i])
            && hb_unicode_script(unicode, text[i]) == hb_unicode_script(unicode, text[i - 1]))
            continue;
        if (has) {
            written = shape_part(face, buffer, text, start, i, advances, clusters, written, capacity);
        } else if (written < capacity) {
            advances[written] = missing_advance;
            clusters[written++] = (uint32_t)start;
        }
        start = i;
    }
    hb_buffer_destroy(buffer);
    return written;
}

void CFontShaping_close(CFontShaping_face *face) {
    if (!face) return;
    if (face->font) hb_font_destroy(face->font);
    FT_Done_Face(face->face);
    FT_Done_FreeType(face->library);
    free(face->bytes);
    free(face);
}
