#pragma once
// The render worker's system call filter (libseccomp, Debian libseccomp-dev).

/// Allows this process (every thread: SECCOMP_FILTER_FLAG_TSYNC) only the system calls a render
/// worker needs once its document is open: memory, futexes, reading the open file, messages on
/// its sockets, the shared tile buffers, logging to standard error, and ending. Opening files
/// fails with EPERM (MuPDF then reports an error); anything else kills the process.
/// Returns 0, or a negative errno value.
int CSeccomp_install_render_filter(void);

/// Forbids the speech process what it never needs (running a program, tracing or signalling
/// another process: killed; network sockets: EACCES) and allows the rest (espeak-ng opens voice
/// files as languages change; ALSA's plugins need files, sockets and threads). Call it while
/// the process has one thread. Returns 0, or a negative errno value.
int CSeccomp_install_speech_filter(void);
