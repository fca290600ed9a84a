// Runs random.pyk: numba.cuda.random's generators on states made by
// pyk::random::create_xoroshiro128p_states, against xoroshiro128+ written
// out here from its definition (Blackman and Vigna), with Numba's
// conversions to floats and its Box-Muller transform.
#include "Checks.h"
#include "random.pyk.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using State = pyk::random::xoroshiro128p_state;

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

std::uint64_t next(State &s) {
  const std::uint64_t s0 = s.s0;
  std::uint64_t s1 = s.s1;
  const std::uint64_t result = s0 + s1;
  s1 ^= s0;
  s.s0 = rotl(s0, 55) ^ s1 ^ (s1 << 14);
  s.s1 = rotl(s1, 36);
  return result;
}

double unit64(std::uint64_t x) { return double(x >> 11) * (1.0 / double(std::uint64_t(1) << 53)); }
float unit32(std::uint64_t x) { return float(unit64(x)); }

State splitmix(std::uint64_t seed) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return {z, z};
}

State jumped(State s) {
  const std::uint64_t jump[] = {0xbeac0467eba5facbull, 0xd86b048b86aa9922ull};
  State sum{0, 0};
  for (std::uint64_t word : jump)
    for (int b = 0; b < 64; ++b) {
      if (word & (std::uint64_t(1) << b)) {
        sum.s0 ^= s.s0;
        sum.s1 ^= s.s1;
      }
      next(s);
    }
  return sum;
}

} // namespace

int main() {
  Checks checks;
  const int threads = 70, draws = 5;

  // The states C++ makes: state 0 SplitMix64 of the seed, each next one
  // 2^64 steps further.
  auto states = pyk::random::create_xoroshiro128p_states(threads, 1234);
  std::vector<State> initial(threads);
  states.copy_to_host(initial);
  State expected = splitmix(1234);
  for (int i = 0; i < threads; ++i) {
    checks.exact("state s0", (long long)initial[i].s0, (long long)expected.s0);
    checks.exact("state s1", (long long)initial[i].s1, (long long)expected.s1);
    expected = jumped(expected);
  }

  auto u32 = pyk::device_empty<float>({threads, draws});
  auto u64 = pyk::device_empty<double>({threads, draws});
  auto n32 = pyk::device_empty<float>({threads, draws});
  auto n64 = pyk::device_empty<double>({threads, draws});
  auto raw = pyk::device_empty<std::uint64_t>({threads, draws});
  pyk::kernels::draw({(threads + 31) / 32, 32}, states, u32, u64, n32, n64, raw);
  std::vector<float> gotU32(threads * draws), gotN32(threads * draws);
  std::vector<double> gotU64(threads * draws), gotN64(threads * draws);
  std::vector<std::uint64_t> gotRaw(threads * draws);
  u32.copy_to_host(gotU32);
  u64.copy_to_host(gotU64);
  n32.copy_to_host(gotN32);
  n64.copy_to_host(gotN64);
  raw.copy_to_host(gotRaw);
  std::vector<State> after(threads);
  states.copy_to_host(after);
  for (int i = 0; i < threads; ++i) {
    State s = initial[i];
    for (int k = 0; k < draws; ++k) {
      const long long at = i * draws + k;
      checks.equal("uniform float32", at, gotU32[at], unit32(next(s)));
      checks.equal("uniform float64", at, gotU64[at], unit64(next(s)));
      const float a = unit32(next(s)), b = unit32(next(s));
      const float twoPi32 = float(2 * M_PI);
      checks.near("normal float32", at, gotN32[at], std::sqrt(-2.0f * std::log(a)) * std::cos(twoPi32 * b), 4,
                  1.1920929e-07);
      const float c = unit32(next(s)), d = unit32(next(s));
      checks.near("normal float64", at, gotN64[at], std::sqrt(-2.0 * double(std::log(c))) * std::cos(2 * M_PI * d), 4,
                  2.220446e-16);
      checks.exact("next", (long long)gotRaw[at], (long long)next(s));
    }
    checks.exact("state after s0", (long long)after[i].s0, (long long)s.s0);
    checks.exact("state after s1", (long long)after[i].s1, (long long)s.s1);
  }

  // States seeded in a kernel, one seed per thread, then jumped.
  std::vector<std::uint64_t> seeds = {0, 1, 42, 0xFFFFFFFFFFFFFFFFull, 0x8000000000000005ull};
  const int m = int(seeds.size());
  auto own = pyk::device_empty<State>({m});
  auto out = pyk::device_empty<std::uint64_t>({m, 4});
  pyk::kernels::seed_and_jump({1, 32}, own, pyk::to_device(seeds), out);
  std::vector<std::uint64_t> got(m * 4);
  out.copy_to_host(got);
  for (int i = 0; i < m; ++i) {
    const State seeded = splitmix(seeds[i]), far = jumped(seeded);
    checks.exact("seeded s0", (long long)got[i * 4], (long long)seeded.s0);
    checks.exact("seeded s1", (long long)got[i * 4 + 1], (long long)seeded.s1);
    checks.exact("jumped s0", (long long)got[i * 4 + 2], (long long)far.s0);
    checks.exact("jumped s1", (long long)got[i * 4 + 3], (long long)far.s1);
  }

  // Field stores and updates, a negative index, size/ndim/len.
  std::vector<State> few = {{1, 2}, {3, 4}, {5, 6}};
  auto dfew = pyk::to_device(few);
  auto sizes = pyk::device_empty<std::int64_t>({3});
  pyk::kernels::fields({1, 32}, dfew, sizes);
  std::vector<std::int64_t> gotSizes(3);
  sizes.copy_to_host(gotSizes);
  checks.exact("size", gotSizes[0], 3);
  checks.exact("ndim", gotSizes[1], 1);
  checks.exact("len", gotSizes[2], 3);
  dfew.copy_to_host(few);
  checks.exact("last s0", (long long)few[2].s0, 7);
  checks.exact("last s1", (long long)few[2].s1, 11);
  checks.exact("first s0", (long long)few[0].s0, 1 ^ 11);
  checks.exact("first s1", (long long)few[0].s1, 2);
  checks.exact("middle s0", (long long)few[1].s0, 3);

  // Draws inside expressions and conditions, each once and in order.
  {
    const int n = 40;
    auto drawStates = pyk::random::create_xoroshiro128p_states(n, 99);
    std::vector<State> start(n);
    drawStates.copy_to_host(start);
    auto dout = pyk::device_empty<float>({n, 2});
    auto dcounts = pyk::device_empty<std::int32_t>({n});
    pyk::kernels::inline_draws({2, 32}, drawStates, dout, dcounts);
    std::vector<float> got(n * 2);
    std::vector<std::int32_t> counts(n);
    dout.copy_to_host(got);
    dcounts.copy_to_host(counts);
    for (int i = 0; i < n; ++i) {
      State s = start[i];
      checks.equal("2u - 1", i, got[i * 2], 2 * unit32(next(s)) - 1);
      checks.equal("u < 0.5", i, got[i * 2 + 1], unit32(next(s)) < 0.5f ? 1.0f : -1.0f);
      int tries = 0;
      while (unit32(next(s)) > 0.25f)
        ++tries;
      checks.exact("tries", counts[i], tries);
    }
  }

  return checks.finish("random");
}
