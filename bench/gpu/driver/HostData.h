// Inputs and references on the host: deterministic pseudo-random values
// from a counter-based hash (element i depends on i alone, so filling 2^28
// elements splits over all cores), and device memory set to a byte pattern.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace bench {

/// body(begin, end) over [0, n), split into contiguous parts, one per core.
void parallelFor(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)> &body);

/// 64 well-mixed bits for element `index` of the stream `seed` (splitmix64).
inline std::uint64_t hashBits(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E5Bull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A float in [low, high) with 24 random bits.
inline float uniformFloat(std::uint64_t seed, std::uint64_t index, float low, float high) {
  return low + (high - low) * static_cast<float>(hashBits(seed, index) >> 40) * (1.0f / 16777216.0f);
}

/// An integer in [low, high].
inline std::int64_t uniformInt(std::uint64_t seed, std::uint64_t index, std::int64_t low, std::int64_t high) {
  return low + static_cast<std::int64_t>(hashBits(seed, index) % static_cast<std::uint64_t>(high - low + 1));
}

/// Sets `bytes` bytes of device memory to `byte`: 0xFF poisons float
/// outputs with NaN before a check, so an element nobody wrote fails it;
/// 0 clears accumulators. cudaMemset on the GPU, memset on the CPU device
/// (whose device memory is host memory).
void deviceFill(bool gpu, void *device, int byte, std::size_t bytes);

} // namespace bench
