#pragma once
// espeak-ng, loaded with dlopen in the speech process only (Debian libespeak-ng-dev for the
// header, libespeak-ng1 for the library): the reader process never maps it. Synchronous
// synthesis: CEspeakNG_synthesize returns when the text is spoken or the sink aborted it.
#include <stdint.h>

/// Receives `count` samples (16-bit mono at the rate CEspeakNG_initialize returned) as they are
/// synthesised; returns 0 to go on, 1 to abort the synthesis. `context` is the caller's.
typedef int (*CEspeakNG_sink)(const int16_t *samples, int count, void *context);

/// Loads libespeak-ng.so.1 and initialises it (synchronous output, `buffer_ms` of audio per
/// sink call, the default data directory). Returns the sample rate, or -1; then `*error` (static
/// text) says why. Call once per process.
int CEspeakNG_initialize(int buffer_ms, const char **error);

/// Speaks the UTF-8 `text` (no SSML: text from a document is never markup) into `sink`.
/// Returns 0, 1 when the sink aborted, or -1 on an espeak-ng error.
int CEspeakNG_synthesize(const char *text, CEspeakNG_sink sink, void *context);

/// Chooses the voice for the language code `language` ("en", "he"). Returns 0 or -1. Then
/// `name` and `identifier` (at most `size` bytes each) hold the voice chosen.
int CEspeakNG_set_language(const char *language, char *name, char *identifier, int size);

/// Speaking rate in words per minute (80 … 450; espeak-ng's default 175).
int CEspeakNG_set_rate(int words_per_minute);
/// Volume 0 … 200 (100: espeak-ng's default).
int CEspeakNG_set_volume(int volume);
