#include "CFontLibraries.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// The pointers trampolines.S jumps through: null until loaded.
#define HARFBUZZ(name) __attribute__((visibility("hidden"))) void *CFontLibraries_fn_##name;
#define FREETYPE(name) HARFBUZZ(name)
#include "functions.h"
#undef HARFBUZZ
#undef FREETYPE

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

static void *open_library(const char *name) {
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "lectern: cannot load %s: %s\n", name, dlerror());
        abort();
    }
    return library;
}

static void resolve(void **pointer, void *library, const char *name) {
    void *function = dlsym(library, name);
    if (!function) {
        fprintf(stderr, "lectern: %s has no %s\n", name[0] == 'h' ? "HarfBuzz" : "FreeType", name);
        abort();
    }
    // Read by other threads' trampolines without a lock: each pointer goes once from null to
    // its function.
    __atomic_store_n(pointer, function, __ATOMIC_RELEASE);
}

static void load(void) {
    void *harfbuzz = open_library("libharfbuzz.so.0");
    void *freetype = open_library("libfreetype.so.6");
#define HARFBUZZ(name) resolve(&CFontLibraries_fn_##name, harfbuzz, #name);
#define FREETYPE(name) resolve(&CFontLibraries_fn_##name, freetype, #name);
#include "functions.h"
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

void CFontLibraries_load(void) { pthread_once(&once, load); }

static void *load_on_thread(void *unused) {
    (void)unused;
    CFontLibraries_load();
    return NULL;
}

static int started;

int CFontLibraries_start_loading(void) {
    if (__atomic_exchange_n(&started, 1, __ATOMIC_ACQ_REL)) return 0;
    pthread_t thread;
    int status = pthread_create(&thread, NULL, load_on_thread, NULL);
    if (status == 0) {
        pthread_detach(thread);
    } else {
        __atomic_store_n(&started, 0, __ATOMIC_RELEASE);
    }
    return status;
}

int CFontLibraries_loaded(void) { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); }
