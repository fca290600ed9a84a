//===- pyk/Random.h - numba.cuda.random's generator states -----------------===//
//
// Kernels that draw random numbers as Numba's do
// (xoroshiro128p_uniform_float32(states, i), ...) take an array of
// xoroshiro128+ states, one per thread. These functions make that array on
// the host exactly as numba.cuda.random does, bit for bit, so that a kernel
// given the same seed draws the same numbers under pyk as under Numba.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RANDOM_H
#define PYK_RANDOM_H

#include "pyk/Array.h"
#include "pyk/Stream.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace pyk::random {

/// One generator's state, laid out as NumPy's xoroshiro128p_dtype
/// ([('s0', u8), ('s1', u8)], aligned), so that a DeviceArray of them has
/// the memory layout Numba's kernels index.
struct xoroshiro128p_state {
  std::uint64_t s0;
  std::uint64_t s1;
};
static_assert(sizeof(xoroshiro128p_state) == 16 && std::is_standard_layout_v<xoroshiro128p_state> &&
                  offsetof(xoroshiro128p_state, s0) == 0 && offsetof(xoroshiro128p_state, s1) == 8,
              "xoroshiro128p_state must match NumPy's xoroshiro128p_dtype");

/// Fills states[0, n) as Numba's init_xoroshiro128p_states_cpu does: state 0
/// from `seed` (SplitMix64), advanced by 2^64 steps `subsequence_start`
/// times; each further state 2^64 steps after the one before, so that
/// threads drawing fewer than 2^64 numbers each never overlap. Each 2^64-step
/// jump takes 128 generator steps, so a huge subsequence_start takes as long
/// here as in Numba. ShapeError for a negative n.
void init_xoroshiro128p_states_host(xoroshiro128p_state *states, std::int64_t n, std::uint64_t seed,
                                    std::uint64_t subsequence_start = 0);

/// Numba's init_xoroshiro128p_states: the states computed on the host and
/// copied into `states`. With a stream the copy is queued on it, and the
/// call waits until the stream has made it (and so the work queued before
/// it), since the host copy of the states does not outlive the call.
void init_xoroshiro128p_states(DeviceArray<xoroshiro128p_state, 1> &states, std::uint64_t seed,
                               std::uint64_t subsequence_start = 0);
void init_xoroshiro128p_states(DeviceArray<xoroshiro128p_state, 1> &states, std::uint64_t seed,
                               std::uint64_t subsequence_start, Stream &stream);

/// Numba's create_xoroshiro128p_states: a new device array of n states,
/// initialised as above (ShapeError for a negative n).
DeviceArray<xoroshiro128p_state, 1> create_xoroshiro128p_states(std::int64_t n, std::uint64_t seed,
                                                                std::uint64_t subsequence_start = 0);
DeviceArray<xoroshiro128p_state, 1> create_xoroshiro128p_states(std::int64_t n, std::uint64_t seed,
                                                                std::uint64_t subsequence_start, Stream &stream);

} // namespace pyk::random

#endif // PYK_RANDOM_H
