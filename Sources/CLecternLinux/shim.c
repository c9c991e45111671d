#define _GNU_SOURCE
#include "CLecternLinux.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <poll.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
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

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

int CLecternLinux_populate_write(void *address, size_t length) {
    if (madvise(address, length, MADV_POPULATE_WRITE) == 0) return 0;
    if (errno != EINVAL) return -1;
    long page = sysconf(_SC_PAGESIZE);
    volatile char *bytes = address;
    for (size_t offset = 0; offset < length; offset += (size_t)page) bytes[offset] = bytes[offset];
    return 0;
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

static int clock_change_arm(int fd) {
    // An absolute deadline years away: only a clock change makes the descriptor readable.
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = (time_t)4000000000LL;  // 2096
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int CLecternLinux_clock_change_timerfd(void) {
    int fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
    if (fd < 0) return -1;
    if (clock_change_arm(fd) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int CLecternLinux_clock_change_read(int fd) {
    uint64_t value;
    ssize_t n;
    do { n = read(fd, &value, sizeof value); } while (n < 0 && errno == EINTR);
    if (n >= 0 || errno == EAGAIN) return 0;
    if (errno != ECANCELED) return -1;
    return clock_change_arm(fd) < 0 ? -1 : 1;
}

#include <malloc.h>

int CLecternLinux_malloc_trim(void) { return malloc_trim(0); }

int CLecternLinux_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int CLecternLinux_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }

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

#include <link.h>

// The whole pages inside this program's relocation tables, when they lie in a segment mapped
// without write permission and the program has no text relocations.
struct relocation_pages {
    uintptr_t start, end;
    int found;
};

static int find_relocation_pages(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct relocation_pages *pages = data;
    // The first object reported is the program itself.
    const ElfW(Dyn) *dynamic = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) {
            dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
        }
    }
    if (!dynamic) return 1;
    uintptr_t table[3] = {0}, length[3] = {0};
    for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; entry++) {
        switch (entry->d_tag) {
        case DT_RELA: table[0] = entry->d_un.d_ptr; break;
        case DT_RELASZ: length[0] = entry->d_un.d_val; break;
        case DT_REL: table[1] = entry->d_un.d_ptr; break;
        case DT_RELSZ: length[1] = entry->d_un.d_val; break;
#ifdef DT_RELR
        case DT_RELR: table[2] = entry->d_un.d_ptr; break;
        case DT_RELRSZ: length[2] = entry->d_un.d_val; break;
#endif
        case DT_TEXTREL: return 1;
        case DT_FLAGS:
            if (entry->d_un.d_val & DF_TEXTREL) return 1;
            break;
        }
    }
    // The table the linker wrote the most of: the relative relocations of a position-independent
    // program (the others are a few pages at most).
    int largest = 0;
    for (int i = 1; i < 3; i++) {
        if (length[i] > length[largest]) largest = i;
    }
    if (!table[largest] || !length[largest]) return 1;
    // The dynamic linker may have turned the address into a loaded one already.
    uintptr_t start = table[largest] < info->dlpi_addr ? info->dlpi_addr + table[largest] : table[largest];
    uintptr_t end = start + length[largest];
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t first = info->dlpi_addr + segment->p_vaddr, last = first + segment->p_memsz;
        if (segment->p_type != PT_LOAD || start < first || end > last) continue;
        if (segment->p_flags & PF_W) return 1;
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        pages->start = (start + page - 1) & ~(page - 1);
        pages->end = end & ~(page - 1);
        pages->found = pages->end > pages->start;
        return 1;
    }
    return 1;
}

int CLecternLinux_relocation_pages(uintptr_t *start, uintptr_t *end) {
    struct relocation_pages pages = {0, 0, 0};
    dl_iterate_phdr(find_relocation_pages, &pages);
    *start = pages.start;
    *end = pages.end;
    return pages.found;
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

// MARK: Files, sockets, users

#include <grp.h>
#include <limits.h>
#include <stddef.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

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
    // `mode` exactly, whatever the umask (lectern.service's UMask=0077 would make the metrics
    // file unreadable to node_exporter).
    if (fchmod(fd, (mode_t)mode) != 0 || write_all(fd, bytes, count) != 0 || fsync(fd) != 0) {
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

/// Closes `fd` keeping errno (for error paths); returns -1.
static int close_failing(int fd) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

static int unix_address(const char *path, struct sockaddr_un *address, socklen_t *length) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    size_t size = strlen(path);
    if (size == 0 || size >= sizeof address->sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address->sun_path, path, size);
    // "@name" is the abstract namespace (sd_notify's convention): a leading NUL, no terminator.
    if (path[0] == '@') address->sun_path[0] = 0;
    *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + size + (path[0] == '@' ? 0 : 1));
    return 0;
}

int CLecternLinux_unix_listen(const char *path, int backlog, unsigned mode) {
    struct sockaddr_un address;
    socklen_t length;
    if (unix_address(path, &address, &length) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, length) != 0) {
        if (errno != EADDRINUSE) return close_failing(fd);
        // A socket file is there: replace it only if nobody answers on it.
        struct stat info;
        if (lstat(path, &info) != 0 || !S_ISSOCK(info.st_mode)) return close_failing(fd);
        int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (probe < 0) return close_failing(fd);
        int answered = connect(probe, (struct sockaddr *)&address, length) == 0;
        close(probe);
        if (answered) {
            errno = EADDRINUSE;
            return close_failing(fd);
        }
        if (unlink(path) != 0 || bind(fd, (struct sockaddr *)&address, length) != 0) return close_failing(fd);
    }
    if (chmod(path, (mode_t)mode) != 0 || listen(fd, backlog) != 0) return close_failing(fd);
    return fd;
}

int CLecternLinux_unix_accept(int fd, int *pid, unsigned *uid, unsigned *gid) {
    int client;
    do { client = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); } while (client < 0 && errno == EINTR);
    if (client < 0) return -1;
    struct ucred credentials;
    socklen_t size = sizeof credentials;
    if (getsockopt(client, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return close_failing(client);
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return client;
}

int CLecternLinux_unix_connect(const char *path) {
    struct sockaddr_un address;
    socklen_t length;
    if (unix_address(path, &address, &length) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int status;
    do { status = connect(fd, (struct sockaddr *)&address, length); } while (status != 0 && errno == EINTR);
    return status == 0 ? fd : close_failing(fd);
}

long CLecternLinux_send(int fd, const void *bytes, long count) {
    ssize_t n;
    do { n = send(fd, bytes, (size_t)count, MSG_NOSIGNAL | MSG_DONTWAIT); } while (n < 0 && errno == EINTR);
    return (long)n;
}

long CLecternLinux_recv(int fd, void *bytes, long count) {
    ssize_t n;
    do { n = recv(fd, bytes, (size_t)count, MSG_DONTWAIT); } while (n < 0 && errno == EINTR);
    return (long)n;
}

int CLecternLinux_user_in_group(unsigned uid, unsigned gid) {
    struct passwd entry, *found = NULL;
    char buffer[4096];
    if (getpwuid_r((uid_t)uid, &entry, buffer, sizeof buffer, &found) != 0 || found == NULL) return -1;
    if (found->pw_gid == (gid_t)gid) return 1;
    gid_t groups[256];
    int count = 256;
    if (getgrouplist(found->pw_name, found->pw_gid, groups, &count) < 0) return -1;
    for (int i = 0; i < count; i++) {
        if (groups[i] == (gid_t)gid) return 1;
    }
    return 0;
}

long CLecternLinux_group_id(const char *name) {
    struct group entry, *found = NULL;
    char buffer[4096];
    if (getgrnam_r(name, &entry, buffer, sizeof buffer, &found) != 0 || found == NULL) return -1;
    return (long)found->gr_gid;
}

int CLecternLinux_datagram_socket(void) {
    return socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

long CLecternLinux_send_datagram(int fd, const char *address, const char *message) {
    struct sockaddr_un target;
    socklen_t length;
    if (unix_address(address, &target, &length) != 0) return -1;
    ssize_t n;
    do {
        n = sendto(fd, message, strlen(message), MSG_NOSIGNAL, (struct sockaddr *)&target, length);
    } while (n < 0 && errno == EINTR);
    return (long)n;
}


// MARK: - The render worker process

int CLecternLinux_seqpacket_pair(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds);
}

long CLecternLinux_send_message(int socket, const void *bytes, long count, int fd) {
    struct iovec iov = {.iov_base = (void *)bytes, .iov_len = (size_t)count};
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        message.msg_control = control.space;
        message.msg_controllen = sizeof control.space;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof(int));
    }
    long sent;
    do {
        sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

long CLecternLinux_receive_message(int socket, void *bytes, long count, int *fd) {
    struct iovec iov = {.iov_base = bytes, .iov_len = (size_t)count};
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.space,
                             .msg_controllen = sizeof control.space};
    *fd = -1;
    long received;
    do {
        received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    } while (received < 0 && errno == EINTR);
    if (received < 0) return received;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) memcpy(fd, CMSG_DATA(header), sizeof(int));
    }
    return received;
}

long CLecternLinux_next_message_length(int socket) {
    // recvmsg, not recv (recvfrom): the render worker's seccomp filter allows only recvmsg.
    struct msghdr message = {0};
    long length;
    do {
        length = recvmsg(socket, &message, MSG_PEEK | MSG_TRUNC);
    } while (length < 0 && errno == EINTR);
    return length;
}

int CLecternLinux_wait_readable(int socket, int milliseconds) {
    struct pollfd entry = {.fd = socket, .events = POLLIN};
    int ready = poll(&entry, 1, milliseconds);
    if (ready < 0 && errno == EINTR) return 0;
    return ready < 0 ? -1 : ready > 0;
}

int CLecternLinux_spawn(const char *path, char *const argv[], const int *fds, int count) {
    // Move the descriptors out of the way of their targets first (3, 4, …), so no dup2 is a
    // no-op that would leave close-on-exec set.
    int high[64];
    if (count > 64) {
        errno = EINVAL;
        return -1;
    }
    for (int i = 0; i < count; i++) {
        high[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 256);
        if (high[i] < 0) {
            for (int j = 0; j < i; j++) close(high[j]);
            return -1;
        }
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (int i = 0; i < count; i++) posix_spawn_file_actions_adddup2(&actions, high[i], 3 + i);
    extern char **environ;
    pid_t pid;
    int status = posix_spawn(&pid, path, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    for (int i = 0; i < count; i++) close(high[i]);
    if (status != 0) {
        errno = status;
        return -1;
    }
    return pid;
}

int CLecternLinux_limit_worker(long bytes) {
    // A crash ends the worker at once (the reader reports it and starts another): not the
    // Swift runtime's backtracer, which takes seconds to symbolicate and write its report.
    static const int crashes[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    for (unsigned i = 0; i < sizeof crashes / sizeof crashes[0]; i++) signal(crashes[i], SIG_DFL);
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_CORE, &none) != 0) return -1;
    if (bytes > 0) {
        struct rlimit space = {(rlim_t)bytes, (rlim_t)bytes};
        if (setrlimit(RLIMIT_AS, &space) != 0) return -1;
    }
    return prctl(PR_SET_PDEATHSIG, SIGKILL);
}

int CLecternLinux_fork_worker(void) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0 && (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)) _exit(0);
    return pid;
}

int CLecternLinux_kill_and_reap(int pid) {
    kill(pid, SIGKILL);
    int status;
    pid_t reaped;
    do {
        reaped = waitpid(pid, &status, 0);
    } while (reaped < 0 && errno == EINTR);
    return reaped < 0 ? -1 : status;
}
