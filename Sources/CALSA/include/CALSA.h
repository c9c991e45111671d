#pragma once
// ALSA playback, loaded with dlopen in the speech process only (Debian libasound2-dev for the
// header): the reader process never maps libasound.
#include <stdint.h>

/// Opens the PCM `device` ("default", "null", "hw:1,0") for 16-bit mono playback at `rate` Hz
/// with at most `latency_us` buffered. Returns an owned handle (CALSA_close), or NULL; then
/// `error` (at most `size` bytes) says why.
void *CALSA_open(const char *device, unsigned rate, unsigned latency_us, char *error, int size);
/// Writes `count` samples, recovering from an underrun once. Returns the samples written or a
/// negative ALSA error; `error` (at most `size` bytes) then says why.
long CALSA_write(void *pcm, const int16_t *samples, long count, char *error, int size);
/// Discards what is buffered and not yet played (stop, pause), ready to play again.
void CALSA_drop(void *pcm);
/// Closes the handle.
void CALSA_close(void *pcm);
