//===- prelude.cuh - The device functions generated CUDA C++ calls -------===//
//
// What CUDA C++ spells with more than an operator: PTX registers (%laneid,
// %dynamic_smem_size) through inline asm, cuda.atomic.* over CUDA's
// overloads, checked mode's record and checked accesses, and the
// saturating float-to-integer conversion that C++ leaves undefined.
//
// Each section, from a `// pyk-helper: NAME` line to the next, is one
// helper (CudaHelpers.h); a generated .cu file gets the sections its code
// calls, in this order (a section may use those before it). pykc embeds
// this file at build time (CMakeLists.txt), and an #include of a runtime
// header in a section becomes that header's text, so that the generated
// file stands alone. ctest compiles this file with nvcc
// (cuda_prelude_compiles): it is code, not strings.
//
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <type_traits>

// pyk-helper: Float16
// float16 is CUDA's __half, with its operators (each rounds once, as the
// GPU's f16 instructions do); the CPU device's is pyk::float16
// (pyk/CudaOnCpu.h), which rounds the same.
#ifndef PYK_CUDA_ON_CPU
#include <cuda_fp16.h>
#endif

// pyk-helper: BFloat16
// bfloat16 is CUDA's __nv_bfloat16; pykc computes with it in float
// (lowerFloat16), so only its conversions are used. The CPU device's is
// pyk::bfloat16 (pyk/CudaOnCpu.h).
#ifndef PYK_CUDA_ON_CPU
#include <cuda_bf16.h>
#endif

// pyk-helper: Complex
// complex64 and complex128: the real part, then the imaginary, as NumPy,
// std::complex and CUDA's cuFloatComplex lay them out, aligned as
// cuFloatComplex to their size. pykc writes their arithmetic as functions
// (lowerComplex); these only hold the parts.
struct alignas(8) pyk_complex64 {
  float real;
  float imag;
};
struct alignas(16) pyk_complex128 {
  double real;
  double imag;
};

// pyk-helper: Wrapping
// Integer + - *, negation and abs wrap on overflow, as in NumPy; C++ leaves
// signed overflow undefined (and compilers use that), so where pyk cannot
// show that a result fits its type the operation is done on the unsigned
// bits (of int, for types narrower than int, which C promotes).
template <typename T> using pyk_wrapping_bits_t = std::make_unsigned_t<decltype(T() + T())>;
template <typename T> __device__ __forceinline__ T pyk_wrapping_add(T a, T b) {
    return (T)((pyk_wrapping_bits_t<T>)a + (pyk_wrapping_bits_t<T>)b);
}
template <typename T> __device__ __forceinline__ T pyk_wrapping_sub(T a, T b) {
    return (T)((pyk_wrapping_bits_t<T>)a - (pyk_wrapping_bits_t<T>)b);
}
template <typename T> __device__ __forceinline__ T pyk_wrapping_mul(T a, T b) {
    return (T)((pyk_wrapping_bits_t<T>)a * (pyk_wrapping_bits_t<T>)b);
}
template <typename T> __device__ __forceinline__ T pyk_wrapping_neg(T a) {
    return (T)(0u - (pyk_wrapping_bits_t<T>)a);
}
template <typename T> __device__ __forceinline__ T pyk_wrapping_abs(T a) {
    return a < 0 ? pyk_wrapping_neg(a) : a;
}

// pyk-helper: FloatToInt
// A float to an integer type, toward zero: NaN gives 0 and a value past the
// type's range its nearest end, on every device (C++ leaves those undefined).
template <typename To, typename From> __device__ __forceinline__ To pyk_float_to_int(From x) {
    using Bits = std::make_unsigned_t<To>;
    constexpr To highest = To(std::is_signed_v<To> ? Bits(~Bits(0)) >> 1 : Bits(~Bits(0)));
    constexpr To lowest = std::is_signed_v<To> ? To(-highest - 1) : To(0);
    if (x != x)
        return 0;
    if (x <= From(lowest))
        return lowest;
    // From(highest) may round up to the first value past the range.
    if (x >= From(highest))
        return highest;
    return To(x);
}

// pyk-helper: LaneId
// cuda.laneid: the thread's index in its warp, PTX's %laneid (the CPU
// device's pyk/CudaOnCpu.h has its own).
#ifndef PYK_CUDA_ON_CPU
__device__ __forceinline__ int32_t pyk_laneid() {
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    return (int32_t)lane;
}
#endif

// pyk-helper: LaneMaskLt
// cuda.lanemask_lt: the bits of the lanes below this one, PTX's
// %lanemask_lt (the CPU device's pyk/CudaOnCpu.h has its own).
#ifndef PYK_CUDA_ON_CPU
__device__ __forceinline__ uint32_t pyk_lanemask_lt() {
    unsigned mask;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
    return mask;
}
#endif

// pyk-helper: MatchAll
// cuda.match_all_sync's mask: the mask when every lane of it has the same
// value, else 0 (its predicate is that mask != 0; the CPU device's
// pyk/CudaOnCpu.h has its own).
#ifndef PYK_CUDA_ON_CPU
template <typename T> __device__ __forceinline__ uint32_t pyk_match_all(uint32_t mask, T value) {
    int all;
    return __match_all_sync(mask, value, &all);
}
#endif

// pyk-helper: GridSync
// g.sync() of cuda.cg.this_grid(): a barrier of every thread of the grid,
// after which each sees what any wrote before it. `barrier` is the address
// of two words the runtime gives a cooperative launch (pyk/Launch.h:
// KernelInfo::gridSynchronises): the blocks arrived, and the generation,
// which the last block to arrive bumps. Thread 0 of each block stands for
// its block, between two block barriers. It reads the generation before it
// arrives (the generation cannot move until it has), so it waits for the
// next one; the count is back to 0 before the generation moves, so an early
// block's next arrival counts towards the next barrier. It works only while
// every block is resident, which the cooperative launch guarantees. The
// LLVM path (NVPTXFunctionEmitter.cpp) emits the same steps; the CPU
// device's pyk/CudaOnCpu.h has its own.
#ifndef PYK_CUDA_ON_CPU
[[maybe_unused]] static __device__ __noinline__ void pyk_grid_sync(uint64_t barrier) {
    unsigned int *arrived = reinterpret_cast<unsigned int *>(barrier);
    volatile unsigned int *generation = arrived + 1;
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
        const unsigned int seen = *generation;
        __threadfence(); // this block's writes, and the read above, before it arrives
        if (atomicAdd(arrived, 1u) == blocks - 1) {
            atomicExch(arrived, 0u);
            __threadfence();
            atomicAdd(const_cast<unsigned int *>(generation), 1u);
        } else {
            while (*generation == seen) {
            }
        }
        __threadfence(); // the other blocks' writes before this block goes on
    }
    __syncthreads();
}
#endif

// pyk-helper: LibdeviceValues
// libdevice's functions that give two values, one or both through pointers
// (__nv_sincosf, __nv_frexpf, __nv_modff, __nv_remquof ...): each value as
// an expression, the first or the second.
template <typename T> __device__ __forceinline__ T pyk_first_of(void (*f)(T, T *, T *), T x) {
    T first, second;
    f(x, &first, &second);
    return first;
}
template <typename T> __device__ __forceinline__ T pyk_second_of(void (*f)(T, T *, T *), T x) {
    T first, second;
    f(x, &first, &second);
    return second;
}
template <typename T, typename U> __device__ __forceinline__ T pyk_first_of(T (*f)(T, U *), T x) {
    U second;
    return f(x, &second);
}
template <typename T, typename U> __device__ __forceinline__ U pyk_second_of(T (*f)(T, U *), T x) {
    U second;
    f(x, &second);
    return second;
}
template <typename T> __device__ __forceinline__ T pyk_first_of(T (*f)(T, T, int *), T x, T y) {
    int second;
    return f(x, y, &second);
}
template <typename T> __device__ __forceinline__ int pyk_second_of(T (*f)(T, T, int *), T x, T y) {
    int second;
    f(x, y, &second);
    return second;
}

// pyk-helper: DynamicShared
// cuda.shared.array(0, T): the launch's dynamic shared memory, and its size
// (PTX's %dynamic_smem_size; the CPU device's pyk/CudaOnCpu.h has its own).
#ifndef PYK_CUDA_ON_CPU
extern __shared__ __align__(16) unsigned char pyk_dynamic_shared[];
__device__ __forceinline__ uint32_t pyk_dynamic_shared_bytes() {
    unsigned bytes;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return bytes;
}
#endif

// pyk-helper: AtomicBits
// The unsigned integer CUDA's atomics take for a T's bits, and the
// conversions both ways (memcpy-free: CUDA's bit casts).
template <typename T> using pyk_bits_t = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;
template <typename T> __device__ __forceinline__ pyk_bits_t<T> pyk_bits(T value) {
    if constexpr (std::is_same_v<T, float>)
        return __float_as_uint(value);
    else if constexpr (std::is_same_v<T, double>)
        return (unsigned long long)__double_as_longlong(value);
    else
        return (pyk_bits_t<T>)value;
}
template <typename T> __device__ __forceinline__ T pyk_from_bits(pyk_bits_t<T> bits) {
    if constexpr (std::is_same_v<T, float>)
        return __uint_as_float(bits);
    else if constexpr (std::is_same_v<T, double>)
        return __longlong_as_double((long long)bits);
    else
        return (T)bits;
}
// Replaces *address with next(*address) in a compare-and-swap loop, for the
// operations CUDA has no atomic instruction for; returns the old value.
template <typename T, typename F> __device__ __forceinline__ T pyk_atomic_update(T *address, F next) {
    auto *bits = (pyk_bits_t<T> *)address;
    pyk_bits_t<T> old = *bits, assumed;
    do {
        assumed = old;
        old = atomicCAS(bits, assumed, pyk_bits(next(pyk_from_bits<T>(assumed))));
    } while (old != assumed);
    return pyk_from_bits<T>(old);
}

// pyk-helper: AtomicAdd
// cuda.atomic.add: the old value; 64-bit integers through their bits.
template <typename T> __device__ __forceinline__ T pyk_atomic_add(T *address, T value) {
    if constexpr (std::is_integral_v<T> && sizeof(T) == 8)
        return (T)atomicAdd((unsigned long long *)address, (unsigned long long)value);
    else
        return atomicAdd(address, value);
}

// pyk-helper: AtomicSub
// cuda.atomic.sub: the old value; floats and 64-bit integers add the
// negated value (wrapping, as the subtraction would).
template <typename T> __device__ __forceinline__ T pyk_atomic_sub(T *address, T value) {
    if constexpr (std::is_floating_point_v<T>)
        return atomicAdd(address, -value);
    else if constexpr (sizeof(T) == 8)
        return (T)atomicAdd((unsigned long long *)address, 0ull - (unsigned long long)value);
    else
        return atomicSub(address, value);
}

// pyk-helper: AtomicAnd
// cuda.atomic.and_: the old value.
template <typename T> __device__ __forceinline__ T pyk_atomic_and(T *address, T value) {
    return pyk_from_bits<T>(atomicAnd((pyk_bits_t<T> *)address, pyk_bits(value)));
}

// pyk-helper: AtomicOr
// cuda.atomic.or_: the old value.
template <typename T> __device__ __forceinline__ T pyk_atomic_or(T *address, T value) {
    return pyk_from_bits<T>(atomicOr((pyk_bits_t<T> *)address, pyk_bits(value)));
}

// pyk-helper: AtomicXor
// cuda.atomic.xor: the old value.
template <typename T> __device__ __forceinline__ T pyk_atomic_xor(T *address, T value) {
    return pyk_from_bits<T>(atomicXor((pyk_bits_t<T> *)address, pyk_bits(value)));
}

// pyk-helper: AtomicMax
// cuda.atomic.max: the old value; floats as Numba's (a NaN on either side
// leaves the element as it is).
template <typename T> __device__ __forceinline__ T pyk_atomic_max(T *address, T value) {
    if constexpr (std::is_floating_point_v<T>)
        return pyk_atomic_update(address, [value](T old) { return old < value ? value : old; });
    else if constexpr (std::is_signed_v<T> && sizeof(T) == 8)
        return (T)atomicMax((long long *)address, (long long)value);
    else if constexpr (sizeof(T) == 8)
        return (T)atomicMax((unsigned long long *)address, (unsigned long long)value);
    else
        return atomicMax(address, value);
}

// pyk-helper: AtomicMin
// cuda.atomic.min: the old value; floats as Numba's (a NaN on either side
// leaves the element as it is).
template <typename T> __device__ __forceinline__ T pyk_atomic_min(T *address, T value) {
    if constexpr (std::is_floating_point_v<T>)
        return pyk_atomic_update(address, [value](T old) { return old > value ? value : old; });
    else if constexpr (std::is_signed_v<T> && sizeof(T) == 8)
        return (T)atomicMin((long long *)address, (long long)value);
    else if constexpr (sizeof(T) == 8)
        return (T)atomicMin((unsigned long long *)address, (unsigned long long)value);
    else
        return atomicMin(address, value);
}

// pyk-helper: AtomicExch
// cuda.atomic.exch: the old value.
template <typename T> __device__ __forceinline__ T pyk_atomic_exch(T *address, T value) {
    return pyk_from_bits<T>(atomicExch((pyk_bits_t<T> *)address, pyk_bits(value)));
}

// pyk-helper: AtomicInc
// cuda.atomic.inc: old >= value ? 0 : old + 1; the old value.
template <typename T> __device__ __forceinline__ T pyk_atomic_inc(T *address, T value) {
    if constexpr (sizeof(T) == 4)
        return atomicInc(address, value);
    else
        return pyk_atomic_update(address, [value](T old) { return old >= value ? T(0) : T(old + 1); });
}

// pyk-helper: AtomicDec
// cuda.atomic.dec: old == 0 || old > value ? value : old - 1; the old value.
template <typename T> __device__ __forceinline__ T pyk_atomic_dec(T *address, T value) {
    if constexpr (sizeof(T) == 4)
        return atomicDec(address, value);
    else
        return pyk_atomic_update(address, [value](T old) { return old == 0 || old > value ? value : T(old - 1); });
}

// pyk-helper: AtomicCas
// cuda.atomic.cas: stores value if *address == expected (bit for bit);
// the old value.
template <typename T> __device__ __forceinline__ T pyk_atomic_cas(T *address, T expected, T value) {
    return pyk_from_bits<T>(atomicCAS((pyk_bits_t<T> *)address, pyk_bits(expected), pyk_bits(value)));
}

// pyk-helper: AtomicNanMax
// cuda.atomic.nanmax: the old value; floats as C's fmax (a NaN on either
// side loses, as in NumPy's nanmax); integers as max.
template <typename T> __device__ __forceinline__ T pyk_atomic_nanmax(T *address, T value) {
    if constexpr (std::is_floating_point_v<T>)
        return pyk_atomic_update(address, [value](T old) { return fmax(old, value); });
    else
        return pyk_atomic_max(address, value);
}

// pyk-helper: AtomicNanMin
// cuda.atomic.nanmin: the old value; floats as C's fmin; integers as min.
template <typename T> __device__ __forceinline__ T pyk_atomic_nanmin(T *address, T value) {
    if constexpr (std::is_floating_point_v<T>)
        return pyk_atomic_update(address, [value](T old) { return fmin(old, value); });
    else
        return pyk_atomic_min(address, value);
}

// pyk-helper: Checks
// Checked mode (debug=True, pykc --checked). The code spells out each check
// and what a failed one skips; the failure itself calls pyk_check_failed.
// The first failed check of a launch claims the record
// (pyk/CheckRecord.h) and fills it in; the runtime reads it after the
// launch. Sites are indices into the launch code's table of check sites.
#include "pyk/CheckRecordLayout.h"
struct pyk_checker {
    pyk_check_record *record;
    uint64_t launch;
};
[[maybe_unused]] static __device__ __noinline__ void pyk_record_failure(pyk_checker check, uint32_t site,
                                                                        int64_t index, int64_t extent) {
    if (check.record == nullptr || atomicCAS(&check.record->failed, 0u, 1u) != 0u)
        return;
    check.record->site = site;
    check.record->launch = check.launch;
    check.record->index = index;
    check.record->extent = extent;
    check.record->thread[0] = threadIdx.x;
    check.record->thread[1] = threadIdx.y;
    check.record->thread[2] = threadIdx.z;
    check.record->block[0] = blockIdx.x;
    check.record->block[1] = blockIdx.y;
    check.record->block[2] = blockIdx.z;
}
// A failed check: recorded, and the zero of T in place of what it skipped
// (nothing where T is void). Index and extent are 0 for a check without.
template <typename T = void>
__device__ __forceinline__ T pyk_check_failed(pyk_checker check, uint32_t site, int64_t index, int64_t extent) {
    pyk_record_failure(check, site, index, extent);
    return T();
}
