//===- pyk/CudaOnCpu.h - CUDA C++'s kernel language on the CPU device -----===//
//
// What a .cu file pykc's CUDA C++ backend writes needs from CUDA, for the
// host's C++ compiler: the qualifiers, threadIdx and its siblings, the
// barriers and warp operations of the CPU device's scheduler
// (pyk/CpuDevice.h), CUDA's atomics, bit casts, bit counts and fast math
// intrinsics. With it the CPU device runs the CUDA C++ itself, not the LLVM
// backend's code for the same kernels, so that the CUDA C++ backend's
// meaning is executed and checked where no GPU is (pykc
// --cpu-device-code=cuda writes NAME.pyk.cpu.cpp, which includes this and
// NAME.pyk.cu). HIP-CPU does the same for HIP.
//
// How a GPU thread is a CPU one: pyk_cpu_run_block runs each thread of a
// block that synchronises on its own fiber, all on one OS thread; a block
// that does not synchronise runs its threads one after another (as the
// LLVM backend's code does). threadIdx is a thread_local variable that each
// fiber sets when it starts and restores after every call that may switch
// to another fiber (the barrier and warp functions below): fibers only
// switch inside those calls. __shared__ variables are thread_local too:
// an OS thread runs one block at a time, and every fiber of a block runs on
// the OS thread of the block.
//
// Each barrier or warp call passes the runtime its place in the .pyk file,
// "file.pyk:line", from the #line directives of the generated code.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CUDAONCPU_H
#define PYK_CUDAONCPU_H

#include "pyk/CheckRecordLayout.h"
#include "pyk/CpuBlockContext.h"
#include "pyk/CpuDevice.h"
#include "pyk/Float16.h"

// Every header the generated code includes, before the macros below (which
// spell words that the C++ library's headers use too, such as __noinline__).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <math.h>
#include <type_traits>

/// Tells prelude.cuh's helpers that read PTX registers that this header
/// defines them instead.
#define PYK_CUDA_ON_CPU 1

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __align__(bytes) alignas(bytes)
#define __launch_bounds__(...)
#define __maxnreg__(registers)
// One block at a time per OS thread, every thread of it on that OS thread.
#define __shared__ static thread_local
// A namespace-scope variable, of the linkage its declaration gives (pyk's
// own constants are static: two files' constants of one name are two
// arrays, as in two GPU modules).
#define __constant__

namespace pyk::cuda_on_cpu {

/// CUDA's uint3 and dim3, as threadIdx and friends have them.
struct Index3 {
  std::uint32_t x, y, z;
};

inline thread_local Index3 threadIdx{};
inline thread_local Index3 blockIdx{};
inline thread_local Index3 blockDim{};
inline thread_local Index3 gridDim{};
/// The block's dynamic shared memory and its size (CpuBlockContext).
inline thread_local unsigned char *dynamicShared = nullptr;
inline thread_local std::uint32_t dynamicSharedBytes = 0;

/// Around a call into the scheduler: other fibers run in it and set
/// threadIdx to theirs, so the caller's is put back when it returns.
class KeepThreadIndex {
public:
  KeepThreadIndex() noexcept : saved_(threadIdx) {}
  ~KeepThreadIndex() { threadIdx = saved_; }
  KeepThreadIndex(const KeepThreadIndex &) = delete;
  KeepThreadIndex &operator=(const KeepThreadIndex &) = delete;

private:
  Index3 saved_;
};

/// The thread's lane: its linear index in the block, modulo 32 (CUDA forms
/// warps of consecutive linear indices).
inline std::uint32_t laneId() noexcept {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32;
}

// Barriers.
inline void syncthreads(const char *where) {
  KeepThreadIndex keep;
  pyk_cpu_syncthreads(where);
}
inline int syncthreadsCount(const char *where, int predicate) {
  KeepThreadIndex keep;
  return pyk_cpu_syncthreads_count(predicate, where);
}
inline int syncthreadsAnd(const char *where, int predicate) {
  KeepThreadIndex keep;
  return pyk_cpu_syncthreads_and(predicate, where);
}
inline int syncthreadsOr(const char *where, int predicate) {
  KeepThreadIndex keep;
  return pyk_cpu_syncthreads_or(predicate, where);
}
/// g.sync() of cuda.cg.this_grid(): every fiber of the block, then every
/// block of the grid (the launch runs them all at once).
inline void gridSync(const char *where) {
  KeepThreadIndex keep;
  pyk_cpu_grid_sync(where);
}

// Warp operations.
inline void syncwarp(const char *where, unsigned mask = 0xffffffffu) {
  KeepThreadIndex keep;
  pyk_cpu_syncwarp(mask, where);
}
inline unsigned ballot(const char *where, unsigned mask, int predicate) {
  KeepThreadIndex keep;
  return pyk_cpu_warp_ballot(mask, predicate != 0, where);
}
// all and uni count the lanes that fail, not compare with the mask, so
// that lanes of the mask that have returned do not count.
inline int allSync(const char *where, unsigned mask, int predicate) {
  return ballot(where, mask, predicate == 0) == 0;
}
inline int anySync(const char *where, unsigned mask, int predicate) {
  return ballot(where, mask, predicate) != 0;
}
inline int uniSync(const char *where, unsigned mask, int predicate) {
  const unsigned passing = ballot(where, mask, predicate);
  const unsigned failing = ballot(where, mask, predicate == 0);
  return passing == 0 || failing == 0;
}
inline unsigned activeMask() {
  return pyk_cpu_warp_activemask();
}

/// A value of up to 8 bytes as the runtime's 64 bits, and back.
template <typename T> std::uint64_t toBits(T value) noexcept {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "a warp operation on a value of up to 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <typename T> T fromBits(std::uint64_t bits) noexcept {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

template <typename T> unsigned matchAny(const char *where, unsigned mask, T value) {
  KeepThreadIndex keep;
  return pyk_cpu_warp_match_any(mask, toBits(value), where);
}

template <typename T> unsigned matchAll(const char *where, unsigned mask, T value) {
  KeepThreadIndex keep;
  return pyk_cpu_warp_match_all(mask, toBits(value), where);
}

/// The value of lane `source` of the caller's segment of `width` lanes, or
/// the caller's own when `source` lies outside the segment (as CUDA's
/// shuffles define it).
template <typename T> T shuffleFrom(const char *where, unsigned mask, T value, long long source, int width) {
  const long long lane = laneId();
  const long long first = lane & ~static_cast<long long>(width - 1);
  if (source < first || source >= first + width)
    source = lane;
  KeepThreadIndex keep;
  return fromBits<T>(pyk_cpu_warp_shuffle(mask, toBits(value), static_cast<std::uint32_t>(source), where));
}
template <typename T> T shfl(const char *where, unsigned mask, T value, int source, int width = 32) {
  const long long first = laneId() & ~static_cast<unsigned>(width - 1);
  return shuffleFrom(where, mask, value, first + (source & (width - 1)), width);
}
template <typename T> T shflUp(const char *where, unsigned mask, T value, unsigned delta, int width = 32) {
  return shuffleFrom(where, mask, value, static_cast<long long>(laneId()) - delta, width);
}
template <typename T> T shflDown(const char *where, unsigned mask, T value, unsigned delta, int width = 32) {
  return shuffleFrom(where, mask, value, static_cast<long long>(laneId()) + delta, width);
}
template <typename T> T shflXor(const char *where, unsigned mask, T value, int laneMask, int width = 32) {
  return shuffleFrom(where, mask, value, static_cast<long long>(laneId() ^ static_cast<unsigned>(laneMask)), width);
}

/// Replaces *address with next(*address) atomically; the old value. (The
/// compilers' __atomic builtins, here and below, not <atomic>: they cost
/// the generated file's compile nothing.)
template <typename T, typename Next> T atomicUpdate(T *address, Next next) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T replacement;
  do
    replacement = next(old);
  while (!__atomic_compare_exchange(address, &old, &replacement, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return old;
}

inline void enterBlock(const pyk::detail::CpuBlockContext *block) noexcept {
  blockIdx = {block->blockIdx[0], block->blockIdx[1], block->blockIdx[2]};
  blockDim = {block->blockDim[0], block->blockDim[1], block->blockDim[2]};
  gridDim = {block->gridDim[0], block->gridDim[1], block->gridDim[2]};
  dynamicShared = static_cast<unsigned char *>(block->sharedMemory);
  dynamicSharedBytes = static_cast<std::uint32_t>(block->sharedBytes);
}

/// A kernel called with a launch's argument values (pyk/Launch.h: args[i]
/// points to the i-th); NAME.pyk.cpu.cpp defines one per kernel.
using KernelCall = void (*)(void **args);

/// What the fibers of a block run: the scheduler passes it through as the
/// block's frame (the CUDA C++ keeps its shared memory elsewhere).
struct FiberKernel {
  KernelCall call;
};

/// One thread of a block that synchronises, on its fiber.
inline void runThread(void **args, const pyk::detail::CpuBlockContext *, void *frame, std::uint32_t x,
                      std::uint32_t y, std::uint32_t z) {
  threadIdx = {x, y, z};
  static_cast<const FiberKernel *>(frame)->call(args);
}

/// A CpuKernelEntry's body for a kernel that waits at barriers or meets its
/// warp: every thread of the block, each on its own fiber
/// (pyk_cpu_run_block).
inline void runBlockOnFibers(KernelCall call, void **args, const pyk::detail::CpuBlockContext *block) {
  enterBlock(block);
  FiberKernel kernel{call};
  pyk_cpu_run_block(&runThread, args, block, &kernel);
}

/// A CpuKernelEntry's body for a kernel that never synchronises: its
/// threads one after another, x fastest, then y, then z.
inline void runBlockInOrder(KernelCall call, void **args, const pyk::detail::CpuBlockContext *block) {
  enterBlock(block);
  for (std::uint32_t z = 0; z < blockDim.z; ++z)
    for (std::uint32_t y = 0; y < blockDim.y; ++y)
      for (std::uint32_t x = 0; x < blockDim.x; ++x) {
        threadIdx = {x, y, z};
        call(args);
      }
}

} // namespace pyk::cuda_on_cpu

using pyk::cuda_on_cpu::blockDim;
using pyk::cuda_on_cpu::blockIdx;
using pyk::cuda_on_cpu::gridDim;
using pyk::cuda_on_cpu::threadIdx;
constexpr int warpSize = 32;

#define PYK_CUDA_ON_CPU_TEXT(x) #x
#define PYK_CUDA_ON_CPU_LINE(line) PYK_CUDA_ON_CPU_TEXT(line)
/// "file.pyk:line" of the call, from the generated code's #line directives.
#define PYK_CUDA_ON_CPU_WHERE __FILE__ ":" PYK_CUDA_ON_CPU_LINE(__LINE__)

#define __syncthreads() ::pyk::cuda_on_cpu::syncthreads(PYK_CUDA_ON_CPU_WHERE)
#define __syncthreads_count(predicate) ::pyk::cuda_on_cpu::syncthreadsCount(PYK_CUDA_ON_CPU_WHERE, predicate)
#define __syncthreads_and(predicate) ::pyk::cuda_on_cpu::syncthreadsAnd(PYK_CUDA_ON_CPU_WHERE, predicate)
#define __syncthreads_or(predicate) ::pyk::cuda_on_cpu::syncthreadsOr(PYK_CUDA_ON_CPU_WHERE, predicate)
#define __syncwarp(...) ::pyk::cuda_on_cpu::syncwarp(PYK_CUDA_ON_CPU_WHERE __VA_OPT__(, ) __VA_ARGS__)
#define __ballot_sync(mask, predicate) ::pyk::cuda_on_cpu::ballot(PYK_CUDA_ON_CPU_WHERE, mask, predicate)
#define __all_sync(mask, predicate) ::pyk::cuda_on_cpu::allSync(PYK_CUDA_ON_CPU_WHERE, mask, predicate)
#define __any_sync(mask, predicate) ::pyk::cuda_on_cpu::anySync(PYK_CUDA_ON_CPU_WHERE, mask, predicate)
#define __uni_sync(mask, predicate) ::pyk::cuda_on_cpu::uniSync(PYK_CUDA_ON_CPU_WHERE, mask, predicate)
#define __match_any_sync(mask, value) ::pyk::cuda_on_cpu::matchAny(PYK_CUDA_ON_CPU_WHERE, mask, value)
// The prelude's helper (prelude.cuh, MatchAll), at the call's own line.
#define pyk_match_all(mask, value) ::pyk::cuda_on_cpu::matchAll(PYK_CUDA_ON_CPU_WHERE, mask, value)
// g.sync(), as the generated code calls it with the grid barrier's address
// (the kernel's last parameter, pyk/Launch.h): a GPU's; the CPU device's
// barrier is the runtime's, so the address is only evaluated.
#define pyk_grid_sync(barrier) ((void)(barrier), ::pyk::cuda_on_cpu::gridSync(PYK_CUDA_ON_CPU_WHERE))
#define __shfl_sync(...) ::pyk::cuda_on_cpu::shfl(PYK_CUDA_ON_CPU_WHERE, __VA_ARGS__)
#define __shfl_up_sync(...) ::pyk::cuda_on_cpu::shflUp(PYK_CUDA_ON_CPU_WHERE, __VA_ARGS__)
#define __shfl_down_sync(...) ::pyk::cuda_on_cpu::shflDown(PYK_CUDA_ON_CPU_WHERE, __VA_ARGS__)
#define __shfl_xor_sync(...) ::pyk::cuda_on_cpu::shflXor(PYK_CUDA_ON_CPU_WHERE, __VA_ARGS__)

inline unsigned __activemask() {
  return ::pyk::cuda_on_cpu::activeMask();
}

inline void __nanosleep(unsigned ns) {
  pyk_cpu_nanosleep(ns);
}

// Memory fences: the CPU's, at least as strong as each of CUDA's scopes.
inline void __threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_system() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// What prelude.cuh reads from PTX registers on a GPU.
inline std::int32_t pyk_laneid() {
  return static_cast<std::int32_t>(::pyk::cuda_on_cpu::laneId());
}
inline std::uint32_t pyk_lanemask_lt() {
  return (1u << ::pyk::cuda_on_cpu::laneId()) - 1u;
}
#define pyk_dynamic_shared (::pyk::cuda_on_cpu::dynamicShared)
inline std::uint32_t pyk_dynamic_shared_bytes() {
  return ::pyk::cuda_on_cpu::dynamicSharedBytes;
}

// Atomics, relaxed as CUDA's are, on the types CUDA has them for (the
// templates take those and no others that the generated code passes).
template <typename T> T atomicAdd(T *address, T value) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, pyk::float16>)
    return ::pyk::cuda_on_cpu::atomicUpdate(address, [value](T old) { return old + value; });
  else
    return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}
template <typename T> T atomicSub(T *address, T value) {
  return __atomic_fetch_sub(address, value, __ATOMIC_RELAXED);
}
template <typename T> T atomicAnd(T *address, T value) {
  return __atomic_fetch_and(address, value, __ATOMIC_RELAXED);
}
template <typename T> T atomicOr(T *address, T value) {
  return __atomic_fetch_or(address, value, __ATOMIC_RELAXED);
}
template <typename T> T atomicXor(T *address, T value) {
  return __atomic_fetch_xor(address, value, __ATOMIC_RELAXED);
}
template <typename T> T atomicExch(T *address, T value) {
  return __atomic_exchange_n(address, value, __ATOMIC_RELAXED);
}
template <typename T> T atomicMax(T *address, T value) {
  return ::pyk::cuda_on_cpu::atomicUpdate(address, [value](T old) { return old < value ? value : old; });
}
template <typename T> T atomicMin(T *address, T value) {
  return ::pyk::cuda_on_cpu::atomicUpdate(address, [value](T old) { return value < old ? value : old; });
}
inline unsigned atomicInc(unsigned *address, unsigned value) {
  return ::pyk::cuda_on_cpu::atomicUpdate(address, [value](unsigned old) { return old >= value ? 0u : old + 1u; });
}
inline unsigned atomicDec(unsigned *address, unsigned value) {
  return ::pyk::cuda_on_cpu::atomicUpdate(address,
                                          [value](unsigned old) { return old == 0 || old > value ? value : old - 1u; });
}
template <typename T> T atomicCAS(T *address, T expected, T value) {
  __atomic_compare_exchange_n(address, &expected, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected; // the old value, whether or not it was replaced
}

// float16 and bfloat16: CUDA's __half and __nv_bfloat16 are pyk::float16
// and pyk::bfloat16, which round each operation as the GPU's f16 and bf16
// instructions do.
using __half = pyk::float16;
using __nv_bfloat16 = pyk::bfloat16;
inline __half __habs(__half x) {
  return __half::fromBits(x.bits() & 0x7fffu);
}

// Bit casts.
inline unsigned __float_as_uint(float x) {
  return std::bit_cast<unsigned>(x);
}
inline int __float_as_int(float x) {
  return std::bit_cast<int>(x);
}
inline float __uint_as_float(unsigned x) {
  return std::bit_cast<float>(x);
}
inline float __int_as_float(int x) {
  return std::bit_cast<float>(x);
}
inline long long __double_as_longlong(double x) {
  return std::bit_cast<long long>(x);
}
inline double __longlong_as_double(long long x) {
  return std::bit_cast<double>(x);
}

// Bit counts, with CUDA's results at zero (__clz(0) is 32, __ffs(0) is 0).
inline int __popc(unsigned x) {
  return std::popcount(x);
}
inline int __popcll(unsigned long long x) {
  return std::popcount(x);
}
inline int __clz(int x) {
  return std::countl_zero(static_cast<unsigned>(x));
}
inline int __clzll(long long x) {
  return std::countl_zero(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) {
  return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1;
}
inline int __ffsll(long long x) {
  return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline unsigned __brev(unsigned x) {
  unsigned reversed = 0;
  for (int bit = 0; bit < 32; ++bit, x >>= 1)
    reversed = (reversed << 1) | (x & 1u);
  return reversed;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}

// fastmath's intrinsics: the CPU computes them exactly (a GPU's are
// approximations within CUDA's stated error).
inline float __fdividef(float a, float b) {
  return a / b;
}
inline float __expf(float x) {
  return expf(x);
}
inline float __exp10f(float x) {
  return exp10f(x);
}
inline float __logf(float x) {
  return logf(x);
}
inline float __log2f(float x) {
  return log2f(x);
}
inline float __log10f(float x) {
  return log10f(x);
}
inline float __sinf(float x) {
  return sinf(x);
}
inline float __cosf(float x) {
  return cosf(x);
}
inline float __tanf(float x) {
  return tanf(x);
}
inline float __powf(float a, float b) {
  return powf(a, b);
}

#endif // PYK_CUDAONCPU_H
