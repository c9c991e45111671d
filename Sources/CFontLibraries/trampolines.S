// One trampoline per function in functions.h (include/CFontLibraries.h says why). Each jumps
// through its pointer (CFontLibraries_fn_NAME, filled by load.c); while the pointer is still
// null it hands the pointer's address to first_call, which loads the libraries with every
// argument register kept and then jumps through it. No function in the list takes variadic
// arguments or passes arguments in other registers than these.
#if defined(__x86_64__)

#define TRAMPOLINE(name)                                                                          \
    .globl name;                                                                                  \
    .hidden name;                                                                                 \
    .type name, @function;                                                                        \
    name:                                                                                         \
    movq CFontLibraries_fn_##name(%rip), %r11;                                                    \
    testq %r11, %r11;                                                                             \
    jz 1f;                                                                                        \
    jmp *%r11;                                                                                    \
    1: leaq CFontLibraries_fn_##name(%rip), %r11;                                                 \
    jmp first_call;                                                                               \
    .size name, . - name;

#define HARFBUZZ(name) TRAMPOLINE(name)
#define FREETYPE(name) TRAMPOLINE(name)

    .text

// %r11: the address of the called function's pointer. On entry %rsp is 8 past a 16-byte
// boundary (the caller's return address); eight pushes keep it there, and 136 bytes for the
// eight vector argument registers align it for the call.
    .type first_call, @function
first_call:
    pushq %rdi
    pushq %rsi
    pushq %rdx
    pushq %rcx
    pushq %r8
    pushq %r9
    pushq %rax
    pushq %r11
    subq $136, %rsp
    movdqu %xmm0, 0(%rsp)
    movdqu %xmm1, 16(%rsp)
    movdqu %xmm2, 32(%rsp)
    movdqu %xmm3, 48(%rsp)
    movdqu %xmm4, 64(%rsp)
    movdqu %xmm5, 80(%rsp)
    movdqu %xmm6, 96(%rsp)
    movdqu %xmm7, 112(%rsp)
    call CFontLibraries_load
    movdqu 0(%rsp), %xmm0
    movdqu 16(%rsp), %xmm1
    movdqu 32(%rsp), %xmm2
    movdqu 48(%rsp), %xmm3
    movdqu 64(%rsp), %xmm4
    movdqu 80(%rsp), %xmm5
    movdqu 96(%rsp), %xmm6
    movdqu 112(%rsp), %xmm7
    addq $136, %rsp
    popq %r11
    popq %rax
    popq %r9
    popq %r8
    popq %rcx
    popq %rdx
    popq %rsi
    popq %rdi
    jmp *(%r11)
    .size first_call, .-first_call

#include "functions.h"

    .section .note.GNU-stack, "", @progbits
#else
#error "CFontLibraries has trampolines for x86-64 only"
#endif
