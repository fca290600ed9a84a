// Runs device_functions.pyk and compares with the same functions in C++.
#include "Checks.h"
#include "device_functions.pyk.h"

#include <cmath>
#include <vector>

namespace {

float smoothstep(float x) {
  const float t = std::fmin(std::fmax(x, 0.0f), 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

int collatzSteps(std::int64_t n) {
  int steps = 0;
  while (n != 1) {
    n = n % 2 == 0 ? n / 2 : 3 * n + 1;
    if (++steps > 1000)
      return -1;
  }
  return steps;
}

} // namespace

int main() {
  Checks checks;
  // More threads than elements: the extra threads' scatter returns early.
  const int n = 1000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = -0.5f + 2.0f * static_cast<float>(i) / n;
  auto dx = pyk::to_device(x);
  auto dout = pyk::device_empty<float>({n});
  pyk::kernels::shade({(n + 127) / 128, 128}, dx, dout);
  std::vector<float> out(n);
  dout.copy_to_host(out);
  for (int i = 0; i < n; ++i)
    checks.equal("shade", i, out[i], smoothstep(x[i]));

  std::vector<double> a = {3, 5, 8, 0, 1e-3}, b = {4, 12, 15, 0, 2e-3}, h(a.size());
  auto da = pyk::to_device(a), db = pyk::to_device(b);
  auto dh = pyk::device_empty<double>({static_cast<std::int64_t>(a.size())});
  pyk::kernels::hypotenuses({1, 32}, da, db, dh);
  dh.copy_to_host(h);
  for (std::size_t i = 0; i < a.size(); ++i)
    checks.equal("hypotenuses", static_cast<long long>(i), h[i], std::sqrt(a[i] * a[i] + b[i] * b[i]));

  std::vector<std::int64_t> starts;
  for (std::int64_t k = 1; k <= 300; ++k)
    starts.push_back(k);
  starts.push_back(837799); // 524 steps
  const auto count = static_cast<std::int64_t>(starts.size());
  auto dn = pyk::to_device(starts);
  auto dsteps = pyk::device_empty<std::int32_t>({count}), dparity = pyk::device_empty<std::int32_t>({count});
  pyk::kernels::collatz({(static_cast<unsigned>(count) + 63) / 64, 64}, dn, dsteps, dparity);
  std::vector<std::int32_t> steps(starts.size()), parity(starts.size());
  dsteps.copy_to_host(steps);
  dparity.copy_to_host(parity);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    checks.equal("collatz steps", static_cast<long long>(i), steps[i], collatzSteps(starts[i]));
    checks.equal("collatz parity", static_cast<long long>(i), parity[i], double(starts[i] % 2));
  }

  const int rows = 19, cols = 7;
  std::vector<float> m(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    m[i] = static_cast<float>(i % 11) - 3.0f;
  auto dm = pyk::to_device(m, {rows, cols});
  auto dsums = pyk::device_empty<float>({rows});
  pyk::kernels::row_sums({1, 32}, dm, dsums);
  std::vector<float> sums(rows);
  dsums.copy_to_host(sums);
  for (int r = 0; r < rows; ++r) {
    float want = 0;
    for (int c = 0; c < cols; ++c)
      want += m[r * cols + c];
    checks.equal("row_sums", r, sums[r], want);
  }

  // Values a multiple of 1/8, so that every result is exact in float32
  // (whether or not the compiler fuses a multiply and an add).
  const int values_count = 100;
  std::vector<float> v(values_count);
  for (int i = 0; i < values_count; ++i)
    v[i] = static_cast<float>(i - 50) / 8.0f;
  auto dv = pyk::to_device(v);
  auto dvalues = pyk::device_empty<double>({values_count, 7});
  pyk::kernels::defaults_and_keywords({1, 128}, dv, dvalues);
  std::vector<double> values(values_count * 7);
  dvalues.copy_to_host(values);
  for (int i = 0; i < values_count; ++i) {
    const double x = v[i]; // affine computes in float64: float32 * 2.0 (a float64 default)
    const double want[] = {x * 2.0 + 3,
                           x * 0.5 + 3,
                           x * 2.0 - 1,
                           -(x * 2.0 + 1.5),
                           v[i] + (10.0f - v[i]) * 0.25f,
                           1.0f + (v[i] - 1.0f) * 0.25f,
                           v[i] + (4.0f - v[i]) * 0.75f};
    for (int k = 0; k < 7; ++k)
      checks.equal("defaults_and_keywords", i * 7 + k, values[i * 7 + k], want[k]);
  }

  return checks.finish("device_functions");
}
