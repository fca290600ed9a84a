//===- pyk/CpuDevice.h - What CPU-device kernels that synchronise call -----===//
//
// The C ABI between the CPU-device code pykc generates for a kernel that
// uses barriers or warp operations and the runtime. Such a kernel's block
// entry (a CpuKernelEntry) calls pyk_cpu_run_block, which runs each GPU
// thread of the block on its own fiber (a user-level thread with its own
// stack) on the calling OS thread; the barrier and warp functions switch
// between those fibers. Generated code calls these by symbol; users do not
// need them. Kernels without barriers or warp operations do not use this:
// their entry runs the block's threads one after another.
//
// Scheduling is deterministic: the fibers of a block start in thread order
// (x fastest, then y, then z) and each runs until it returns or reaches a
// barrier or warp operation; the fibers a completed operation releases run
// again in thread order, after those released before them. A thread that
// waits for another thread of its block without one of these calls (by
// spinning on shared memory) never lets it run.
//
// Misuse that CUDA leaves undefined and that is cheap to detect is an error,
// not a hang: the block's remaining fibers are abandoned and the launch
// throws pyk::KernelError with a message naming the call ("file.pyk:line:col")
// and the block.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CPUDEVICE_H
#define PYK_CPUDEVICE_H

#include <stdint.h>

namespace pyk::detail {
struct CpuBlockContext;
} // namespace pyk::detail

#define PYK_CPU_ABI __attribute__((visibility("default")))

extern "C" {

/// One GPU thread of a block on the CPU device, as pykc generates it for a
/// kernel that synchronises: runs the kernel body for thread (x, y, z).
/// `frame` is the block's static shared memory (or null), passed through.
typedef void (*pyk_cpu_thread_fn)(void **args, const pyk::detail::CpuBlockContext *block, void *frame, uint32_t x,
                                  uint32_t y, uint32_t z);

/// Runs `thread` for every thread of `block` (blockDim from the context; x
/// fastest, then y, then z), each on its own fiber, and returns when all
/// have returned. Called by a block entry on the runtime's thread that runs
/// the block; never throws. On misuse (see above), or when `thread` throws
/// a C++ exception, it abandons the block's remaining fibers and returns;
/// the runtime then throws that error from the launch (the default stream)
/// or from the stream's next synchronize(), as it throws a pyk::Error when
/// the fibers' stacks cannot be mapped. Nothing is allocated once the
/// calling OS thread has run a block at least this large, of a kernel
/// needing stacks at least as large (KernelInfo::localMemoryBytes).
PYK_CPU_ABI void pyk_cpu_run_block(pyk_cpu_thread_fn thread, void **args, const pyk::detail::CpuBlockContext *block,
                                   void *frame);

/// cuda.syncthreads(): returns when every thread of the block has called it
/// (the same or another call site: CUDA's barrier 0). `where` is the call's
/// "file.pyk:line:col". An error when some thread returns instead, or
/// reaches syncthreads_count/and/or (a different barrier operation).
PYK_CPU_ABI void pyk_cpu_syncthreads(const char *where);
/// cuda.syncthreads_count/and/or: a barrier that also returns how many of
/// the block's threads passed a non-zero predicate / whether all did (1 or
/// 0) / whether any did. Every thread of one barrier must call the same one.
PYK_CPU_ABI int32_t pyk_cpu_syncthreads_count(int32_t predicate, const char *where);
PYK_CPU_ABI int32_t pyk_cpu_syncthreads_and(int32_t predicate, const char *where);
PYK_CPU_ABI int32_t pyk_cpu_syncthreads_or(int32_t predicate, const char *where);
/// g.sync() of `g = cuda.cg.this_grid()`: first a barrier of the block, as
/// pyk_cpu_syncthreads (with the same errors, and an error where the
/// block's threads meet syncthreads instead), then of the whole grid: it
/// returns when every thread of every block has called it. The launch of a
/// kernel that calls it (KernelInfo::gridSynchronises) runs every block of
/// the grid at once, each on its own OS thread. A block that finishes while
/// others wait here is an error naming it, the waiting call and its block.
PYK_CPU_ABI void pyk_cpu_grid_sync(const char *where);
/// cuda.nanosleep(ns): suspends the calling OS thread for about `ns`
/// nanoseconds, at most a millisecond, as a GPU does; a short sleep yields
/// the core instead. Any kernel may call it, with or without fibers.
PYK_CPU_ABI void pyk_cpu_nanosleep(uint32_t ns);

// Warp operations. Warps are 32 consecutive threads of the block in thread
// order (lane = linear index % 32); the last warp of a block may be partial.
// As in CUDA, the lanes taking part in a call are those `mask` names that
// have not exited: its effective mask, mask & the lanes that exist and have
// not returned (the lanes a partial warp lacks count as returned). Each
// call is a rendezvous of its effective mask's lanes, which must all call
// the same operation with the same effective mask: masks that differ only
// in lanes that have returned are the same (one computed by activemask()
// before they returned, say). A lane that returns while lanes wait for it
// leaves their effective mask, and completes their call when every other
// lane of it has arrived. So `if (i >= n) return;` before a full-mask
// shuffle works, as on a GPU. Errors: the caller's lane is not in the mask;
// lanes of an effective mask meet at different operations, or with
// effective masks that differ in a lane that has arrived at a warp
// operation (or arrives later, while the other still waits).

/// cuda.syncwarp(mask): returns when every lane of the effective mask has
/// called it.
PYK_CPU_ABI void pyk_cpu_syncwarp(uint32_t mask, const char *where);
/// Every lane of the effective mask contributes `value`; each gets back the
/// value of lane `source` (0..31, computed by the compiler from
/// shfl/shfl_up/down/xor and the width). A source outside the effective
/// mask (not named, not existing or returned) yields the caller's own value
/// (CUDA leaves it undefined).
PYK_CPU_ABI uint64_t pyk_cpu_warp_shuffle(uint32_t mask, uint64_t value, uint32_t source, const char *where);
/// The lanes of the effective mask whose predicate is non-zero, as a bit
/// mask.
PYK_CPU_ABI uint32_t pyk_cpu_warp_ballot(uint32_t mask, int32_t predicate, const char *where);
/// match_any_sync: the lanes of the effective mask whose value equals the
/// caller's.
PYK_CPU_ABI uint32_t pyk_cpu_warp_match_any(uint32_t mask, uint64_t value, const char *where);
/// match_all_sync: the caller's mask when every lane of the effective mask
/// has the same value, else 0.
PYK_CPU_ABI uint32_t pyk_cpu_warp_match_all(uint32_t mask, uint64_t value, const char *where);
/// activemask(): the lanes of the caller's warp that have not returned. Not
/// a rendezvous: it does not wait for any lane.
PYK_CPU_ABI uint32_t pyk_cpu_warp_activemask(void);

} // extern "C"

#undef PYK_CPU_ABI

#endif // PYK_CPUDEVICE_H
