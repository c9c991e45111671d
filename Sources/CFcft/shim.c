#include "CFcft.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

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
