#pragma once
// Linux calls Swift's Glibc module does not show (memfd, seals, signalfd, eventfd, timerfd).
// Every function returns what the syscall returns: -1 with errno set on failure.
#include <stddef.h>
#include <stdint.h>

/// memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING).
int CLecternLinux_memfd_create(const char *name);
/// Seals a memfd against shrinking, growing and further sealing (F_SEAL_SHRINK|F_SEAL_GROW|F_SEAL_SEAL).
int CLecternLinux_seal_memfd(int fd);
/// Faults in `length` bytes of a writable mapping from `address` (page aligned) in one call,
/// madvise(MADV_POPULATE_WRITE) (Linux 5.14); where the kernel has no such advice, by writing
/// each page's first byte back to it. The memory's contents stay as they are.
int CLecternLinux_populate_write(void *address, size_t length);
/// Blocks SIGTERM, SIGINT and SIGHUP for this thread (call before starting threads) and
/// returns a non-blocking, close-on-exec signalfd that reports them.
int CLecternLinux_signalfd_termination(void);
/// Reads one signal from a signalfd; returns the signal number, 0 if none, -1 on error.
int CLecternLinux_signalfd_read(int fd);
/// A non-blocking, close-on-exec eventfd (counter starting at 0).
int CLecternLinux_eventfd(void);
/// Adds 1 to an eventfd (wakes a poller). Safe from any thread.
int CLecternLinux_eventfd_signal(int fd);
/// Reads and resets an eventfd counter; returns the count, 0 if nothing was pending.
int64_t CLecternLinux_eventfd_drain(int fd);
/// A non-blocking, close-on-exec CLOCK_MONOTONIC timerfd.
int CLecternLinux_timerfd(void);
/// Arms a timerfd to fire once after `ms` milliseconds (0 disarms).
int CLecternLinux_timerfd_arm(int fd, int64_t ms);
/// Reads and resets a timerfd's expiration count.
int64_t CLecternLinux_timerfd_drain(int fd);
/// A non-blocking, close-on-exec CLOCK_REALTIME timerfd armed far in the future with
/// TFD_TIMER_CANCEL_ON_SET: it becomes readable when the wall clock is set.
int CLecternLinux_clock_change_timerfd(void);
/// Whether the wall clock was set since the last call (the read gave ECANCELED); re-arms the
/// timerfd then. Returns 1 or 0, or -1 with errno set.
int CLecternLinux_clock_change_read(int fd);
/// Gives free heap memory back to the system (malloc_trim(0)); after a big transient
/// allocation such as reading every page's size of a long document.
int CLecternLinux_malloc_trim(void);
/// Serves blocks of `bytes` or more with mmap and stops glibc raising that threshold
/// (mallopt(M_MMAP_THRESHOLD)); returns 1 on success.
int CLecternLinux_mmap_threshold(int bytes);
/// Keeps up to `bytes` of free memory at the top of the heap rather than giving it back
/// (mallopt(M_TRIM_THRESHOLD)); returns 1 on success.
int CLecternLinux_trim_threshold(int bytes);
/// The heap bytes in use (mallinfo2: allocated small blocks plus mmapped ones).
int64_t CLecternLinux_heap_in_use(void);
/// The whole pages inside this program's largest relocation table (DT_RELA, DT_REL or
/// DT_RELR: the dynamic linker reads it once at start), [start, end): 1 when there are some in a
/// segment mapped without write permission in a program without text relocations, else 0.
int CLecternLinux_relocation_pages(uintptr_t *start, uintptr_t *end);

/// Names the calling thread (ps, top, gdb); names longer than 15 bytes are cut to 15.
/// Returns 0 or an errno value.
int CLecternLinux_set_thread_name(const char *name);

/// A non-blocking, close-on-exec inotify instance.
int CLecternLinux_inotify(void);
/// Watches directory `path` for files written, moved in or out, created and deleted; returns the
/// watch descriptor.
int CLecternLinux_inotify_watch_directory(int fd, const char *path);
/// Reads what events are pending into `buffer` (at most `size` bytes, aligned for
/// struct inotify_event); returns the bytes read, 0 if none were pending, -1 on error.
long CLecternLinux_inotify_read(int fd, void *buffer, long size);
/// The event at `offset` of a buffer `CLecternLinux_inotify_read` filled: its watch descriptor
/// and mask, and its name (borrowed from the buffer; "" for the directory itself). Returns the
/// offset of the next event.
long CLecternLinux_inotify_event(const void *buffer, long offset, int *wd, uint32_t *mask, const char **name);
/// The directory itself was deleted or moved, or the watch removed (IN_DELETE_SELF |
/// IN_MOVE_SELF | IN_IGNORED | IN_Q_OVERFLOW).
uint32_t CLecternLinux_inotify_lost_mask(void);

/// Writes `count` bytes to `path` so that a reader, or a power cut, sees the old file or the new
/// one whole: a temporary file in the same directory (mode `mode`), written, fsync'd, renamed
/// over `path`, then the directory fsync'd. Returns 0, or -1 with errno set (the temporary file
/// removed).
int CLecternLinux_write_file_atomically(const char *path, const void *bytes, long count, unsigned mode);

/// A non-blocking, close-on-exec Unix stream socket listening at `path` (at most 107 bytes),
/// chmod'ed to `mode`. A socket file left by a process that is gone is replaced; one a live
/// process listens on is not (-1, errno EADDRINUSE).
int CLecternLinux_unix_listen(const char *path, int backlog, unsigned mode);
/// Accepts one connection (non-blocking, close-on-exec) and reads its peer's credentials
/// (SO_PEERCRED). Returns the descriptor, or -1 with errno set (EAGAIN: none pending).
int CLecternLinux_unix_accept(int fd, int *pid, unsigned *uid, unsigned *gid);
/// A blocking, close-on-exec Unix stream socket connected to `path`, or -1 with errno set.
int CLecternLinux_unix_connect(const char *path);
/// send() without blocking and without SIGPIPE; returns the bytes sent or -1 (errno EAGAIN: the
/// peer's buffer is full; EPIPE: it is gone).
long CLecternLinux_send(int fd, const void *bytes, long count);
/// recv() without blocking; returns the bytes read, 0 at end of stream, -1 with errno set.
long CLecternLinux_recv(int fd, void *bytes, long count);
/// Whether the user `uid` (primary or supplementary group) is in group `gid`: 1, 0, or -1 when
/// the user is unknown.
int CLecternLinux_user_in_group(unsigned uid, unsigned gid);
/// The group id of the group named `name`, or -1 when there is none.
long CLecternLinux_group_id(const char *name);

/// A non-blocking, close-on-exec Unix datagram socket, for sd_notify messages.
int CLecternLinux_datagram_socket(void);
/// Sends `message` as one datagram to the socket at `address` (a path, or "@name" for the
/// abstract namespace), without SIGPIPE; returns the bytes sent or -1 with errno set.
long CLecternLinux_send_datagram(int fd, const char *address, const char *message);

/// A close-on-exec Unix SOCK_SEQPACKET socket pair (message boundaries kept) in `fds`.
int CLecternLinux_seqpacket_pair(int fds[2]);
/// Sends one message of `count` bytes, with descriptor `fd` attached (SCM_RIGHTS) unless it is
/// -1, without SIGPIPE; blocks. Returns the bytes sent or -1 with errno set.
long CLecternLinux_send_message(int socket, const void *bytes, long count, int fd);
/// Receives one message into `bytes` (at most `count`), and the descriptor attached to it in
/// `*fd` (close-on-exec; -1 when none). Blocks. Returns the bytes read, 0 when the peer is gone,
/// -1 with errno set.
long CLecternLinux_receive_message(int socket, void *bytes, long count, int *fd);
/// Waits for the next message on the SOCK_SEQPACKET `socket` and returns its length without
/// reading it (MSG_PEEK | MSG_TRUNC): 0 when the peer is gone, -1 with errno set.
long CLecternLinux_next_message_length(int socket);
/// Waits until `socket` is readable or `milliseconds` pass: 1 readable (or hung up), 0 not yet,
/// -1 with errno set.
int CLecternLinux_wait_readable(int socket, int milliseconds);
/// Starts `path` with `argv` (NULL-terminated), its descriptors 3, 4, … being `fds[0..<count]`
/// (every other descriptor is close-on-exec) and standard input, output and error inherited.
/// Returns the child's pid, or -1 with errno set.
int CLecternLinux_spawn(const char *path, char *const argv[], const int *fds, int count);
/// Limits this process's address space to `bytes` (RLIMIT_AS, 0: unchanged), forbids core dumps
/// (RLIMIT_CORE 0), lets crash signals end it at once (SIG_DFL, no backtracer), and asks for
/// SIGKILL when the parent dies (PR_SET_PDEATHSIG). Returns 0, or -1 with errno set.
int CLecternLinux_limit_worker(long bytes);
/// Forks this process (which must have no other thread yet: the child keeps running the same
/// code). In the child, asks for SIGKILL when the parent dies and ends at once if it already
/// has. Returns the child's pid in the parent, 0 in the child, -1 with errno set.
int CLecternLinux_fork_worker(void);
/// Sends SIGKILL to `pid` and reaps it; returns the wait status, or -1 with errno set.
int CLecternLinux_kill_and_reap(int pid);

/// Opens the input device at `path` (non-blocking, close-on-exec) if it reports the switch
/// SW_HEADPHONE_INSERT (a sound card's headphone jack); -1 with errno ENODEV if it does not.
int CLecternLinux_evdev_open_headphone_jack(const char *path);
/// Whether headphones are in now (EVIOCGSW): 1, 0, or -1 on error.
int CLecternLinux_evdev_headphones_in(int fd);
/// Reads the events pending on a jack's device: 1 or 0 when the last SW_HEADPHONE_INSERT
/// said in or out, 2 when none came, 3 when events were lost (SYN_DROPPED: ask the state
/// again), -1 when the device is gone or failed.
int CLecternLinux_evdev_read_headphones(int fd);
/// Writes into `buffer` the events a jack's device sends when headphones go in (`inserted` 1)
/// or out (0): a switch event and a report. Returns the bytes written (0: `size` too small).
/// For tests, which write them into a pipe in place of a device.
long CLecternLinux_evdev_headphone_event(void *buffer, long size, int inserted);
