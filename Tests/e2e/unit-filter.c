// Runs a command under a seccomp filter like systemd's SystemCallFilter=: the system calls named
// in LIST (one per line, groups already expanded by Tests/e2e/unit-filter.py) are allowed, any
// other kills the process (SIGSYS), as systemd does without SystemCallErrorNumber=.
//
// Usage: unit-filter LIST -- COMMAND [ARGUMENT...]
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 4 || strcmp(argv[2], "--") != 0) {
        fprintf(stderr, "usage: unit-filter LIST -- COMMAND [ARGUMENT...]\n");
        return 2;
    }
    FILE *list = fopen(argv[1], "r");
    if (!list) {
        perror(argv[1]);
        return 2;
    }
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_KILL_PROCESS);
    char name[128];
    while (fscanf(list, "%127s", name) == 1) {
        int number = seccomp_syscall_resolve_name(name);
        // Names this architecture does not have (systemd lists every architecture's) are skipped.
        if (number != __NR_SCMP_ERROR) seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 0);
    }
    fclose(list);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || seccomp_load(filter) != 0) {
        perror("unit-filter: seccomp");
        return 1;
    }
    execv(argv[3], argv + 3);
    perror(argv[3]);
    return 1;
}
