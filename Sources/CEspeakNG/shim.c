#include "CEspeakNG.h"
#include <dlfcn.h>
#include <espeak-ng/speak_lib.h>
#include <stdio.h>
#include <string.h>

static struct {
    __typeof__(espeak_Initialize) *initialize;
    __typeof__(espeak_SetSynthCallback) *set_synth_callback;
    __typeof__(espeak_Synth) *synth;
    __typeof__(espeak_SetVoiceByProperties) *set_voice_by_properties;
    __typeof__(espeak_GetCurrentVoice) *get_current_voice;
    __typeof__(espeak_SetParameter) *set_parameter;
} espeak;

/// The sink of the synthesis under way (synchronous: one at a time, on the calling thread).
static struct {
    CEspeakNG_sink sink;
    void *context;
} current;

static int forward(short *samples, int count, espeak_EVENT *events) {
    (void)events;
    if (!current.sink || !samples || count <= 0) return 0;
    return current.sink(samples, count, current.context);
}

int CEspeakNG_initialize(int buffer_ms, const char **error) {
    // RTLD_NOW: a missing symbol shows here, not as a crash at the first call.
    void *library = dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *error = dlerror();
        return -1;
    }
#define RESOLVE(field, symbol)                                                                                        \
    if (!(espeak.field = dlsym(library, symbol))) {                                                                   \
        *error = "libespeak-ng.so.1 lacks " symbol;                                                                   \
        return -1;                                                                                                    \
    }
    RESOLVE(initialize, "espeak_Initialize")
    RESOLVE(set_synth_callback, "espeak_SetSynthCallback")
    RESOLVE(synth, "espeak_Synth")
    RESOLVE(set_voice_by_properties, "espeak_SetVoiceByProperties")
    RESOLVE(get_current_voice, "espeak_GetCurrentVoice")
    RESOLVE(set_parameter, "espeak_SetParameter")
#undef RESOLVE
    // espeakINITIALIZE_DONT_EXIT: a missing data directory is an error returned, not exit(1).
    int rate = espeak.initialize(AUDIO_OUTPUT_SYNCHRONOUS, buffer_ms, NULL, espeakINITIALIZE_DONT_EXIT);
    if (rate <= 0) {
        *error = "espeak_Initialize failed (is espeak-ng-data installed?)";
        return -1;
    }
    espeak.set_synth_callback(forward);
    return rate;
}

int CEspeakNG_synthesize(const char *text, CEspeakNG_sink sink, void *context) {
    current.sink = sink;
    current.context = context;
    espeak_ERROR status =
        espeak.synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8 | espeakENDPAUSE, NULL, NULL);
    current.sink = NULL;
    current.context = NULL;
    // espeak-ng reports an abort by the callback as EE_OK; the caller knows it aborted.
    return status == EE_OK ? 0 : -1;
}

int CEspeakNG_set_language(const char *language, char *name, char *identifier, int size) {
    espeak_VOICE wanted;
    memset(&wanted, 0, sizeof wanted);
    wanted.languages = language;
    if (espeak.set_voice_by_properties(&wanted) != EE_OK) return -1;
    espeak_VOICE *voice = espeak.get_current_voice();
    if (!voice) return -1;
    snprintf(name, (size_t)size, "%s", voice->name ? voice->name : "");
    snprintf(identifier, (size_t)size, "%s", voice->identifier ? voice->identifier : "");
    return 0;
}

int CEspeakNG_set_rate(int words_per_minute) {
    return espeak.set_parameter(espeakRATE, words_per_minute, 0) == EE_OK ? 0 : -1;
}

int CEspeakNG_set_volume(int volume) { return espeak.set_parameter(espeakVOLUME, volume, 0) == EE_OK ? 0 : -1; }
