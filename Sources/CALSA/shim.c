#include "CALSA.h"
#include <alsa/asoundlib.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    __typeof__(snd_pcm_open) *open;
    __typeof__(snd_pcm_set_params) *set_params;
    __typeof__(snd_pcm_writei) *writei;
    __typeof__(snd_pcm_recover) *recover;
    __typeof__(snd_pcm_drop) *drop;
    __typeof__(snd_pcm_prepare) *prepare;
    __typeof__(snd_pcm_close) *close;
    __typeof__(snd_strerror) *strerror;
} alsa;
static const char *load_error;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libasound.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_error = dlerror();
        return;
    }
#define RESOLVE(field, symbol)                                                                                        \
    if (!(alsa.field = dlsym(library, symbol))) {                                                                     \
        load_error = "libasound.so.2 lacks " symbol;                                                                  \
        return;                                                                                                       \
    }
    RESOLVE(open, "snd_pcm_open")
    RESOLVE(set_params, "snd_pcm_set_params")
    RESOLVE(writei, "snd_pcm_writei")
    RESOLVE(recover, "snd_pcm_recover")
    RESOLVE(drop, "snd_pcm_drop")
    RESOLVE(prepare, "snd_pcm_prepare")
    RESOLVE(close, "snd_pcm_close")
    RESOLVE(strerror, "snd_strerror")
#undef RESOLVE
}

void *CALSA_open(const char *device, unsigned rate, unsigned latency_us, char *error, int size) {
    pthread_once(&once, load);
    if (load_error) {
        snprintf(error, (size_t)size, "cannot load ALSA: %s", load_error);
        return NULL;
    }
    snd_pcm_t *pcm = NULL;
    int status = alsa.open(&pcm, device, SND_PCM_STREAM_PLAYBACK, 0);
    if (status < 0) {
        snprintf(error, (size_t)size, "%s", alsa.strerror(status));
        return NULL;
    }
    status = alsa.set_params(pcm, SND_PCM_FORMAT_S16, SND_PCM_ACCESS_RW_INTERLEAVED, 1, rate, 1, latency_us);
    if (status < 0) {
        snprintf(error, (size_t)size, "%s", alsa.strerror(status));
        alsa.close(pcm);
        return NULL;
    }
    return pcm;
}

long CALSA_write(void *pcm, const int16_t *samples, long count, char *error, int size) {
    long written = 0;
    int recovered = 0;
    while (written < count) {
        snd_pcm_sframes_t status = alsa.writei(pcm, samples + written, (snd_pcm_uframes_t)(count - written));
        if (status < 0) {
            if (!recovered && alsa.recover(pcm, (int)status, 1) == 0) {
                recovered = 1;
                continue;
            }
            snprintf(error, (size_t)size, "%s", alsa.strerror((int)status));
            return status;
        }
        written += status;
    }
    return written;
}

void CALSA_drop(void *pcm) {
    alsa.drop(pcm);
    alsa.prepare(pcm);
}

void CALSA_close(void *pcm) { alsa.close(pcm); }
