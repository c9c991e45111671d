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

// MARK: Files

#include <limits.h>
#include <stdio.h>

static int write_all(int fd, const char *bytes, long count) {
    while (count > 0) {
        ssize_t n = write(fd, bytes, (size_t)count);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += n;
        count -= n;
    }
    return 0;
}

int CLecternLinux_write_file_atomically(const char *path, const void *bytes, long count, unsigned mode) {
    char temporary[PATH_MAX];
    if (snprintf(temporary, sizeof temporary, "%s.tmp-%d", path, (int)getpid()) >= (int)sizeof temporary) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, (mode_t)mode);
    if (fd < 0) return -1;
    if (write_all(fd, bytes, count) != 0 || fsync(fd) != 0) {
        int saved = errno;
        close(fd);
        unlink(temporary);
        errno = saved;
        return -1;
    }
    if (close(fd) != 0 || rename(temporary, path) != 0) {
        int saved = errno;
        unlink(temporary);
        errno = saved;
        return -1;
    }
    // The rename itself survives a power cut only once the directory is on disk.
    char directory[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (slash == NULL) {
        strcpy(directory, ".");
    } else if (slash == path) {
        strcpy(directory, "/");
    } else {
        size_t length = (size_t)(slash - path);
        memcpy(directory, path, length);
        directory[length] = 0;
    }
    int dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        fsync(dir);
        close(dir);
    }
    return 0;
}
