#define _GNU_SOURCE
#include "CLecternLinux.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

int CLecternLinux_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int CLecternLinux_seal_memfd(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
}

int CLecternLinux_signalfd_termination(void) {
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGHUP);
    if (pthread_sigmask(SIG_BLOCK, &mask, NULL) != 0) return -1;
    return signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
}

int CLecternLinux_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n;
    do { n = read(fd, &info, sizeof info); } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    return n == (ssize_t)sizeof info ? (int)info.ssi_signo : 0;
}

int CLecternLinux_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

int CLecternLinux_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t n;
    do { n = write(fd, &one, sizeof one); } while (n < 0 && errno == EINTR);
    return n == (ssize_t)sizeof one || (n < 0 && errno == EAGAIN) ? 0 : -1;
}

int64_t CLecternLinux_eventfd_drain(int fd) {
    uint64_t value = 0;
    ssize_t n;
    do { n = read(fd, &value, sizeof value); } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    return (int64_t)value;
}

int CLecternLinux_timerfd(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

int CLecternLinux_timerfd_arm(int fd, int64_t ms) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = ms / 1000;
    spec.it_value.tv_nsec = (ms % 1000) * 1000000;
    return timerfd_settime(fd, 0, &spec, NULL);
}

int64_t CLecternLinux_timerfd_drain(int fd) {
    return CLecternLinux_eventfd_drain(fd);
}

#include <malloc.h>

int CLecternLinux_malloc_trim(void) { return malloc_trim(0); }

int CLecternLinux_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int CLecternLinux_set_thread_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    return pthread_setname_np(pthread_self(), truncated);
}

int64_t CLecternLinux_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (int64_t)(info.uordblks + info.hblkhd);
}

#include <sys/inotify.h>

int CLecternLinux_inotify(void) { return inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }

int CLecternLinux_inotify_watch_directory(int fd, const char *path) {
    return inotify_add_watch(fd, path,
                             IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE |
                                 IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
}

long CLecternLinux_inotify_read(int fd, void *buffer, long size) {
    ssize_t n;
    do { n = read(fd, buffer, (size_t)size); } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    return (long)n;
}

long CLecternLinux_inotify_event(const void *buffer, long offset, int *wd, uint32_t *mask, const char **name) {
    const struct inotify_event *event = (const struct inotify_event *)((const char *)buffer + offset);
    *wd = event->wd;
    *mask = event->mask;
    *name = event->len > 0 ? event->name : "";
    return offset + (long)sizeof(struct inotify_event) + (long)event->len;
}

uint32_t CLecternLinux_inotify_lost_mask(void) { return IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_Q_OVERFLOW; }
