#include "CSeccomp.h"
#include <errno.h>
#include <seccomp.h>
#include <sys/prctl.h>

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
