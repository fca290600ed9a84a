//===- FiberSwitchX86_64.S - The CPU device's fiber switch on x86-64 -------===//
//
// A suspended context is its stack pointer; the stack holds, from there up:
//   +0  MXCSR (4 bytes), x87 control word (2 bytes), padding
//   +8  r15, r14, r13, r12, rbx, rbp
//   +56 the address to resume at
// Everything else a System V call may clobber, so pykFiberSwitch, called as
// a function, saves only this. A fresh context (pykFiberMake) resumes at
// pykFiberStart with the entry in r13 and its argument in r12.
//
// No CET note: the switch returns to a stack the shadow stack has not seen,
// so this object must not claim shadow-stack support (the linker then marks
// the program as not using it).
//
//===----------------------------------------------------------------------===//
#if defined(__x86_64__)

        .text

// void pykFiberSwitch(void **from, void *to)
        .globl  pykFiberSwitch
        .hidden pykFiberSwitch
        .type   pykFiberSwitch, @function
        .p2align 4
pykFiberSwitch:
        .cfi_startproc
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        subq    $8, %rsp
        .cfi_adjust_cfa_offset 8
        stmxcsr (%rsp)
        fnstcw  4(%rsp)
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        ldmxcsr (%rsp)
        fldcw   4(%rsp)
        addq    $8, %rsp
        .cfi_adjust_cfa_offset -8
        popq    %r15
        .cfi_adjust_cfa_offset -8
        popq    %r14
        .cfi_adjust_cfa_offset -8
        popq    %r13
        .cfi_adjust_cfa_offset -8
        popq    %r12
        .cfi_adjust_cfa_offset -8
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   pykFiberSwitch, .-pykFiberSwitch

// void *pykFiberMake(void *stackTop, void (*entry)(void *), void *arg)
// stackTop is 16-byte aligned; the context sits 80 bytes below it, so that
// pykFiberStart runs with rsp = stackTop - 16, aligned for its call.
        .globl  pykFiberMake
        .hidden pykFiberMake
        .type   pykFiberMake, @function
        .p2align 4
pykFiberMake:
        .cfi_startproc
        leaq    -80(%rdi), %rax
        stmxcsr (%rax)
        fnstcw  4(%rax)
        movq    $0, 8(%rax)             // r15
        movq    $0, 16(%rax)            // r14
        movq    %rsi, 24(%rax)          // r13: entry
        movq    %rdx, 32(%rax)          // r12: arg
        movq    $0, 40(%rax)            // rbx
        movq    $0, 48(%rax)            // rbp: ends frame-pointer walks
        leaq    pykFiberStart(%rip), %rcx
        movq    %rcx, 56(%rax)
        ret
        .cfi_endproc
        .size   pykFiberMake, .-pykFiberMake

// The bottom frame of every fiber: calls entry(arg), which never returns.
        .type   pykFiberStart, @function
        .p2align 4
pykFiberStart:
        .cfi_startproc
        .cfi_undefined rip              // unwinders and debuggers stop here
        movq    %r12, %rdi
        callq   *%r13
        ud2
        .cfi_endproc
        .size   pykFiberStart, .-pykFiberStart

#endif

        .section .note.GNU-stack,"",@progbits
