#pragma once
// HarfBuzz and FreeType loaded when first used, not when lectern starts.
//
// MuPDF and CFontShaping call them, but only the render worker draws pages (the reader draws in
// process only when the policy says so, and in tests). Linked as shared libraries they were
// loaded and relocated at every start of every lectern process, with the eight libraries they
// load in turn (GLib, graphite2, PCRE2, libpng, Brotli…): 0.67 ms of the 3.3 ms of
// `lectern --version`. Here each function MuPDF and CFontShaping call (functions.h) is a
// trampoline that jumps through a pointer; the first call through any of them loads both
// libraries with dlopen and fills every pointer (trampolines.S, load.c).
//
// fcft, which the reader loads with dlopen to draw its own text, links the same two libraries:
// the trampolines are hidden, so fcft binds to the libraries themselves, and both reach one copy.

/// Loads both libraries and resolves every function, once; later calls return at once. A
/// library or a function that cannot be loaded ends the process with a message on standard error
/// (a render worker's death the reader survives). Call it before a seccomp filter forbids
/// opening files: the render worker does, first thing.
void CFontLibraries_load(void);

/// Starts `CFontLibraries_load` on a thread of its own and returns (once: later calls return 0
/// and start nothing): the render worker loads them beside the reader's start or MuPDF's
/// opening. A later `CFontLibraries_load` (or first call) waits for that load to end. Returns 0,
/// or an errno value when no thread could be started (then nothing was started, and the next
/// call loads them).
int CFontLibraries_start_loading(void);

/// 1 once the libraries are loaded (by `CFontLibraries_load` or by a first call), else 0.
int CFontLibraries_loaded(void);
