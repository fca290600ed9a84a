// Runs statements.pyk and compares with values derived by hand or in C++.
#include "Checks.h"
#include "statements.pyk.h"

#include <cmath>
#include <vector>

namespace {

/// NumPy's round(x, n): rint(x * 10**n) / 10**n, or for negative n
/// rint(x / 10**-n) * 10**-n.
double roundDigits(double x, long long n) {
  return n >= 0 ? std::nearbyint(x * std::pow(10.0, double(n))) / std::pow(10.0, double(n))
                : std::nearbyint(x / std::pow(10.0, double(-n))) * std::pow(10.0, double(-n));
}

} // namespace

int main() {
  Checks checks;
  std::vector<float> x = {0.5f, 1.5f, 2.5f, 7.0f, 1.0f, 9.0f};
  auto dx = pyk::to_device(x);
  auto dfirst = pyk::device_empty<std::int64_t>({1});
  std::vector<std::int64_t> first(1);
  pyk::kernels::first_above({1, 32}, dx, 2.0f, dfirst);
  dfirst.copy_to_host(first);
  checks.equal("first_above 2", 0, double(first[0]), 2);
  pyk::kernels::first_above({1, 32}, dx, 100.0f, dfirst);
  dfirst.copy_to_host(first);
  checks.equal("first_above 100", 0, double(first[0]), -1);

  auto dloops = pyk::device_empty<std::int64_t>({3});
  pyk::kernels::loop_else({1, 32}, dloops);
  std::vector<std::int64_t> loops(3);
  dloops.copy_to_host(loops);
  checks.equal("loop_else while", 0, double(loops[0]), 50);
  checks.equal("loop_else nested", 1, double(loops[1]), 1 + 2 + 3 + 4 + 100);
  checks.equal("loop_else primes", 2, double(loops[2]), 47);

  const auto n = static_cast<std::int64_t>(x.size());
  auto dsums = pyk::device_empty<double>({n});
  auto dcounts = pyk::device_empty<std::int32_t>({n});
  pyk::kernels::declared_types({1, 32}, dx, dsums, dcounts);
  std::vector<double> sums(x.size());
  std::vector<std::int32_t> counts(x.size());
  dsums.copy_to_host(sums);
  dcounts.copy_to_host(counts);
  double running = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    running += x[i];
    checks.equal("declared_types sum", static_cast<long long>(i), sums[i], running);
    checks.equal("declared_types count", static_cast<long long>(i), counts[i], 3.0 * double(i));
  }

  std::vector<double> values = {1.234567, -1.235, 2.675, 15.0, 25.0, -35.5, 0.125, 1e-9};
  const auto count = static_cast<std::int64_t>(values.size());
  auto dvalues = pyk::to_device(values);
  auto d2 = pyk::device_empty<double>({count}), dneg = pyk::device_empty<double>({count}),
       dn = pyk::device_empty<double>({count});
  for (std::int64_t digits : {3, -2}) {
    pyk::kernels::rounding({1, 32}, dvalues, digits, d2, dneg, dn);
    std::vector<double> r2(values.size()), rneg(values.size()), rn(values.size());
    d2.copy_to_host(r2);
    dneg.copy_to_host(rneg);
    dn.copy_to_host(rn);
    for (std::size_t i = 0; i < values.size(); ++i) {
      checks.equal("round(x, 2)", static_cast<long long>(i), r2[i], roundDigits(values[i], 2));
      checks.equal("round(x, -1)", static_cast<long long>(i), rneg[i], roundDigits(values[i], -1));
      checks.equal("round(x, n)", static_cast<long long>(i), rn[i], roundDigits(values[i], digits));
    }
  }
  // Hand-derived: halves to even, as Python does.
  checks.equal("round(25.0, -1)", 0, roundDigits(25.0, -1), 20.0);
  checks.equal("round(0.125, 2)", 0, roundDigits(0.125, 2), 0.12);

  std::vector<std::int64_t> starts = {1, 2, 3, 1024, 1025, 1 << 30};
  auto dstarts = pyk::to_device(starts);
  auto dsteps = pyk::device_empty<std::int32_t>({static_cast<std::int64_t>(starts.size())});
  pyk::kernels::halvings({1, 32}, dstarts, dsteps);
  std::vector<std::int32_t> steps(starts.size());
  dsteps.copy_to_host(steps);
  const int wantSteps[] = {0, 1, 1, 10, 10, 30};
  for (std::size_t i = 0; i < starts.size(); ++i)
    checks.equal("halvings", static_cast<long long>(i), steps[i], wantSteps[i]);

  // A 24 x 4 block: warps are 32 consecutive threads in x-fastest order.
  const int width = 24, height = 4;
  auto dlanes = pyk::device_empty<std::int32_t>({height, width});
  pyk::kernels::lanes({{1, 1}, {width, height}}, dlanes);
  std::vector<std::int32_t> laneIds(width * height);
  dlanes.copy_to_host(laneIds);
  for (int t = 0; t < width * height; ++t)
    checks.equal("lanes", t, laneIds[t], (t % 32) * 1000 + 32);

  return checks.finish("statements");
}
