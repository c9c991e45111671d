#include "CSeccomp.h"
#include <errno.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>

int CSeccomp_install_render_filter(void) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (!filter) return -ENOMEM;
    static const int allowed[] = {
        // Memory: the heap, MuPDF's pixmaps, the tile buffers the reader sends.
        SCMP_SYS(brk), SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect),
        SCMP_SYS(madvise), SCMP_SYS(ftruncate), SCMP_SYS(memfd_create),
        // Threads waiting on each other; the clock; yielding.
        SCMP_SYS(futex), SCMP_SYS(clock_gettime), SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep),
        SCMP_SYS(sched_yield), SCMP_SYS(gettid), SCMP_SYS(getpid), SCMP_SYS(getrandom),
        // The machine's memory (MuPDF's cap is a share of it: sysconf(_SC_PHYS_PAGES)); what a
        // thread started just before the filter registers as it begins.
        SCMP_SYS(sysinfo), SCMP_SYS(rseq), SCMP_SYS(set_robust_list), SCMP_SYS(sigaltstack),
        SCMP_SYS(sched_getaffinity),
        // The document (already open), the sockets to the reader, logs to standard error.
        SCMP_SYS(read), SCMP_SYS(pread64), SCMP_SYS(lseek), SCMP_SYS(fstat), SCMP_SYS(newfstatat),
        SCMP_SYS(write), SCMP_SYS(writev), SCMP_SYS(recvmsg), SCMP_SYS(sendmsg), SCMP_SYS(poll),
        SCMP_SYS(ppoll), SCMP_SYS(close), SCMP_SYS(fcntl),
        // Signals and ending (a failed precondition aborts: tgkill).
        SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigaction), SCMP_SYS(tgkill),
        SCMP_SYS(exit), SCMP_SYS(exit_group),
    };
    int status = 0;
    for (unsigned i = 0; i < sizeof allowed / sizeof allowed[0] && status == 0; i++) {
        status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, allowed[i], 0);
    }
    // A channel thread started just before the filter names itself (prctl PR_SET_NAME) as it begins.
    if (status == 0) status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME));
    static const int refused[] = {SCMP_SYS(open), SCMP_SYS(openat)};
    for (unsigned i = 0; i < sizeof refused / sizeof refused[0] && status == 0; i++) {
        status = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), refused[i], 0);
    }
    if (status == 0) status = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
    if (status == 0) status = seccomp_load(filter);
    seccomp_release(filter);
    return status;
}

int CSeccomp_install_speech_filter(void) {
    // Allowed by default: espeak-ng opens a voice's files whenever the language changes, and
    // ALSA's plugins (dmix, a sound server's) need files, shared memory, sockets and threads.
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter) return -ENOMEM;
    // What speech never does, and text that took espeak-ng over would: run a program, reach into
    // another process, signal one (its own ending uses tgkill), or reach the network.
    static const int killed[] = {
        SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv),
        SCMP_SYS(process_vm_writev), SCMP_SYS(kill),
    };
    int status = 0;
    for (unsigned i = 0; i < sizeof killed / sizeof killed[0] && status == 0; i++) {
        status = seccomp_rule_add(filter, SCMP_ACT_KILL_PROCESS, killed[i], 0);
    }
    static const int networks[] = {AF_INET, AF_INET6, AF_PACKET};
    for (unsigned i = 0; i < sizeof networks / sizeof networks[0] && status == 0; i++) {
        status = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                                  SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)networks[i]));
    }
    if (status == 0) status = seccomp_load(filter);
    seccomp_release(filter);
    return status;
}
