// Estimates pi from 4 million random points, each thread with its own
// xoroshiro128+ generator (pyk::random::create_xoroshiro128p_states makes
// the same states as Numba's create_xoroshiro128p_states, so a seed gives
// the numbers it gives under Numba). The estimate must lie within five
// standard errors of pi, and the same seed must give the same estimate.
#include "monte_carlo_pi.pyk.h"

#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

namespace {

double estimate(int threads, int darts, std::uint64_t seed) {
  auto states = pyk::random::create_xoroshiro128p_states(threads, seed);
  auto estimates = pyk::device_empty<float>({threads});
  pyk::kernels::estimate_pi({(threads + 255) / 256, 256}, states, darts, estimates);
  std::vector<float> host(threads);
  estimates.copy_to_host(host);
  return std::accumulate(host.begin(), host.end(), 0.0) / threads;
}

} // namespace

int main() {
  const int threads = 4096, darts = 1000;
  const double pi = std::acos(-1.0);
  const double first = estimate(threads, darts, 2026);
  const double again = estimate(threads, darts, 2026);
  // A dart lands inside with probability pi/4: the estimate's standard error.
  const double samples = double(threads) * darts;
  const double standardError = 4.0 * std::sqrt(pi / 4 * (1 - pi / 4) / samples);
  const bool close = std::fabs(first - pi) < 5 * standardError;
  const bool repeatable = first == again;
  std::printf("pi is about %.6f from %.0f darts on %s: off by %.6f (standard error %.6f); the same seed gives %s\n",
              first, samples, pyk::device_name().c_str(), first - pi, standardError,
              repeatable ? "the same estimate" : "another estimate");
  std::printf("Are results equal: %s\n", close && repeatable ? "True" : "False");
  return close && repeatable ? 0 : 1;
}
