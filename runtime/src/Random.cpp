//===- Random.cpp - numba.cuda.random's generator states --------------------===//
//
// xoroshiro128+ seeded by SplitMix64 (Blackman and Vigna), with Numba's
// constants and order of steps: the states are compared with Numba's own
// bit for bit (tests/runtime/RandomTest.cpp, tests/numba/cross_check.py).
//
//===----------------------------------------------------------------------===//
#include "pyk/Random.h"

#include <bit>
#include <vector>

namespace pyk::random {
namespace {

/// SplitMix64's first output, so that nearby seeds give unrelated states;
/// Numba starts both halves of the state from it.
xoroshiro128p_state seeded(std::uint64_t seed) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15u;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  z ^= z >> 31;
  return {z, z};
}

void step(xoroshiro128p_state &state) {
  std::uint64_t s0 = state.s0, s1 = state.s1 ^ state.s0;
  state.s0 = std::rotl(s0, 55) ^ s1 ^ (s1 << 14);
  state.s1 = std::rotl(s1, 36);
}

/// 2^64 steps at once: the jump polynomial's bits pick which of the next 128
/// states to sum (xor).
void jump(xoroshiro128p_state &state) {
  static constexpr std::uint64_t polynomial[2] = {0xbeac0467eba5facbu, 0xd86b048b86aa9922u};
  xoroshiro128p_state sum{0, 0};
  for (std::uint64_t word : polynomial)
    for (int bit = 0; bit < 64; ++bit) {
      if ((word >> bit) & 1u) {
        sum.s0 ^= state.s0;
        sum.s1 ^= state.s1;
      }
      step(state);
    }
  state = sum;
}

std::vector<xoroshiro128p_state> hostStates(std::int64_t n, std::uint64_t seed, std::uint64_t subsequenceStart) {
  std::vector<xoroshiro128p_state> states(static_cast<std::size_t>(n));
  init_xoroshiro128p_states_host(states.data(), n, seed, subsequenceStart);
  return states;
}

} // namespace

void init_xoroshiro128p_states_host(xoroshiro128p_state *states, std::int64_t n, std::uint64_t seed,
                                    std::uint64_t subsequence_start) {
  if (detail::checkedElementCount("init_xoroshiro128p_states_host", &n, 1) == 0)
    return;
  states[0] = seeded(seed);
  for (std::uint64_t i = 0; i < subsequence_start; ++i)
    jump(states[0]);
  for (std::int64_t i = 1; i < n; ++i) {
    states[i] = states[i - 1];
    jump(states[i]);
  }
}

void init_xoroshiro128p_states(DeviceArray<xoroshiro128p_state, 1> &states, std::uint64_t seed,
                               std::uint64_t subsequence_start) {
  states.copy_from_host(hostStates(states.size(), seed, subsequence_start));
}

void init_xoroshiro128p_states(DeviceArray<xoroshiro128p_state, 1> &states, std::uint64_t seed,
                               std::uint64_t subsequence_start, Stream &stream) {
  std::vector<xoroshiro128p_state> host = hostStates(states.size(), seed, subsequence_start);
  states.copy_from_host_async(host, stream);
  // An event, not stream.synchronize(): what a kernel queued earlier on the
  // stream reports (KernelError) is raised where the caller synchronises.
  Event copied;
  copied.record(&stream);
  copied.synchronize();
}

DeviceArray<xoroshiro128p_state, 1> create_xoroshiro128p_states(std::int64_t n, std::uint64_t seed,
                                                                std::uint64_t subsequence_start) {
  DeviceArray<xoroshiro128p_state, 1> states({n}, "create_xoroshiro128p_states");
  init_xoroshiro128p_states(states, seed, subsequence_start);
  return states;
}

DeviceArray<xoroshiro128p_state, 1> create_xoroshiro128p_states(std::int64_t n, std::uint64_t seed,
                                                                std::uint64_t subsequence_start, Stream &stream) {
  DeviceArray<xoroshiro128p_state, 1> states({n}, "create_xoroshiro128p_states");
  init_xoroshiro128p_states(states, seed, subsequence_start, stream);
  return states;
}

} // namespace pyk::random
