#include "CFcft.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <fontconfig/fontconfig.h>

static CFcft_functions functions;
static const CFcft_functions *loaded;
static const char *load_error;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *resolve(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol && !load_error) load_error = dlerror();
    return symbol;
}

static void load(void) {
    // RTLD_NOW: a missing symbol shows here, not as a crash at the first call.
    void *library = dlopen("libfcft.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_error = dlerror();
        return;
    }
    functions.initialize = resolve(library, "fcft_init");
    functions.capabilities = resolve(library, "fcft_capabilities");
    functions.from_name = resolve(library, "fcft_from_name");
    functions.destroy = resolve(library, "fcft_destroy");
    functions.rasterize_char_utf32 = resolve(library, "fcft_rasterize_char_utf32");
    functions.rasterize_text_run_utf32 = resolve(library, "fcft_rasterize_text_run_utf32");
    functions.text_run_destroy = resolve(library, "fcft_text_run_destroy");
    if (!load_error) loaded = &functions;
}

const CFcft_functions *CFcft_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *CFcft_load_error(void) {
    pthread_once(&once, load);
    return loaded ? NULL : load_error;
}

/// fontconfig's functions, from the library fcft loaded (RTLD_NOLOAD: never loaded here first).
static struct {
    __typeof__(FcNameParse) *name_parse;
    __typeof__(FcConfigSubstitute) *substitute;
    __typeof__(FcDefaultSubstitute) *default_substitute;
    __typeof__(FcFontMatch) *match;
    __typeof__(FcPatternGetString) *get_string;
    __typeof__(FcPatternGetInteger) *get_integer;
    __typeof__(FcPatternGetBool) *get_bool;
    __typeof__(FcPatternGetDouble) *get_double;
    __typeof__(FcPatternDestroy) *destroy;
} fontconfig;
static int fontconfig_loaded;
static pthread_once_t fontconfig_once = PTHREAD_ONCE_INIT;

static void load_fontconfig(void) {
    void *library = dlopen("libfontconfig.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!library) return;
    fontconfig.name_parse = dlsym(library, "FcNameParse");
    fontconfig.substitute = dlsym(library, "FcConfigSubstitute");
    fontconfig.default_substitute = dlsym(library, "FcDefaultSubstitute");
    fontconfig.match = dlsym(library, "FcFontMatch");
    fontconfig.get_string = dlsym(library, "FcPatternGetString");
    fontconfig.get_integer = dlsym(library, "FcPatternGetInteger");
    fontconfig.get_bool = dlsym(library, "FcPatternGetBool");
    fontconfig.get_double = dlsym(library, "FcPatternGetDouble");
    fontconfig.destroy = dlsym(library, "FcPatternDestroy");
    fontconfig_loaded = fontconfig.name_parse && fontconfig.substitute && fontconfig.default_substitute
        && fontconfig.match && fontconfig.get_string && fontconfig.get_integer && fontconfig.get_bool
        && fontconfig.get_double && fontconfig.destroy;
}

static int get_bool(FcPattern *pattern, const char *key, int otherwise) {
    FcBool value;
    return fontconfig.get_bool(pattern, key, 0, &value) == FcResultMatch ? value : otherwise;
}

static int get_integer(FcPattern *pattern, const char *key, int otherwise) {
    int value;
    return fontconfig.get_integer(pattern, key, 0, &value) == FcResultMatch ? value : otherwise;
}

int CFcft_match_font_file(const char *name, CFcft_font_file *file) {
    pthread_once(&fontconfig_once, load_fontconfig);
    if (!fontconfig_loaded) return -1;
    FcPattern *pattern = fontconfig.name_parse((const FcChar8 *)name);
    if (!pattern) return -1;
    fontconfig.substitute(NULL, pattern, FcMatchPattern);
    fontconfig.default_substitute(pattern);
    FcResult result;
    FcPattern *font = fontconfig.match(NULL, pattern, &result);
    fontconfig.destroy(pattern);
    if (!font) return -1;
    FcChar8 *path = NULL;
    int status = -1;
    if (fontconfig.get_string(font, FC_FILE, 0, &path) == FcResultMatch && strlen((const char *)path) < sizeof file->path) {
        strcpy(file->path, (const char *)path);
        file->index = get_integer(font, FC_INDEX, 0);
        if (fontconfig.get_double(font, FC_PIXEL_SIZE, 0, &file->pixel_size) != FcResultMatch) file->pixel_size = 0;
        // fcft's defaults for what the pattern does not say.
        file->antialias = get_bool(font, FC_ANTIALIAS, 1);
        file->hinting = get_bool(font, FC_HINTING, 1);
        file->hint_style = get_integer(font, FC_HINT_STYLE, FC_HINT_SLIGHT);
        file->rgba = get_integer(font, FC_RGBA, FC_RGBA_UNKNOWN);
        file->embedded_bitmap = get_bool(font, FC_EMBEDDED_BITMAP, 1);
        file->autohint = get_bool(font, FC_AUTOHINT, 0);
        status = file->pixel_size > 0 ? 0 : -1;
    }
    fontconfig.destroy(font);
    return status;
}
