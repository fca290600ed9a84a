// Runs bfloat16.pyk: bfloat16 arrays made in C++ as std::vector<pyk::bfloat16>,
// each result worked out here in double (exact for these operations on
// bfloat16 values) and rounded once to bfloat16.
#include "Checks.h"
#include "bfloat16.pyk.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using pyk::bfloat16;

double d(bfloat16 h) { return static_cast<float>(h); }
bfloat16 brain(double value) { return bfloat16(value); }
bool same(bfloat16 got, bfloat16 want) { return got.bits() == want.bits() || (d(got) != d(got) && d(want) != d(want)); }

/// Both signs, magnitudes from 2^-130 (subnormal) to 2^120, ties for
/// rounding, no zeros.
std::vector<bfloat16> operands(int n, int seed) {
  std::vector<bfloat16> values(n);
  for (int i = 0; i < n; ++i) {
    const double magnitude = std::ldexp(1.0 + ((i * 37 + seed * 11) % 128) / 128.0, (i * 13 + seed) % 250 - 130);
    values[i] = brain((i + seed) % 3 == 0 ? -magnitude : magnitude);
  }
  values[0] = brain(3.3895313892515355e38); // the largest finite
  values[1] = brain(1.0 + 1.0 / 128);
  return values;
}

} // namespace

int main() {
  Checks checks;
  const int n = 300;
  const std::vector<bfloat16> x = operands(n, 1), y = operands(n, 4);
  auto dx = pyk::to_device(x), dy = pyk::to_device(y);

  {
    const int rows = 11;
    auto out = pyk::device_empty<bfloat16>({rows, n});
    auto flags = pyk::device_empty<std::int32_t>({4, n});
    pyk::kernels::arithmetic({(n + 63) / 64, 64}, dx, dy, out, flags);
    std::vector<bfloat16> got(rows * n);
    std::vector<std::int32_t> gotFlags(4 * n);
    out.copy_to_host(got);
    flags.copy_to_host(gotFlags);
    for (int i = 0; i < n; ++i) {
      const double a = d(x[i]), b = d(y[i]);
      const bfloat16 t = brain(d(brain(a + b)) * b);
      const bfloat16 want[rows] = {brain(a + b), brain(a - b), brain(a * b),         brain(a / b),
                                   brain(-a),    brain(std::fabs(a)), brain(a * d(brain(0.1))), t,
                                   b > a ? y[i] : x[i], brain(std::sqrt(std::fabs(a))), brain(std::floor(a / b))};
      for (int row = 0; row < rows; ++row)
        checks.expect("arithmetic row " + std::to_string(row) + " [" + std::to_string(i) + "]",
                      same(got[row * n + i], want[row]));
      const int wantFlags[4] = {a < b, a == b, a != b, a != 0};
      for (int row = 0; row < 4; ++row)
        checks.exact("comparison", gotFlags[row * n + i], wantFlags[row]);
    }
  }

  {
    // float64 values on bfloat16's midpoints and a hair off them (where
    // rounding through float32 first would round twice), float32 values,
    // and integers past 2^24.
    std::vector<double> doubles;
    std::vector<float> floats;
    std::vector<std::int32_t> ints;
    for (int k = 0; k < 60; ++k) {
      const double low = d(brain(1.0 + (k % 100) / 128.0)) * std::ldexp(1.0, k % 40 - 20);
      const double gap = std::ldexp(1.0, -7) * std::ldexp(1.0, k % 40 - 20);
      for (double value : {low + gap / 2 + gap * 0x1p-30, low + gap / 2, -(low + gap / 2 - gap * 0x1p-30)})
        doubles.push_back(value);
    }
    for (double special : {3.4e38, 3.3961e38, 1e-40, 1e-45, std::nan(""), -0.0})
      doubles.push_back(special);
    const int m = static_cast<int>(doubles.size());
    for (int i = 0; i < m; ++i) {
      floats.push_back(static_cast<float>(doubles[i] * (i % 2 ? 1.0 : 3.0)));
      ints.push_back(i % 3 == 0 ? (1 << 24) + 2 * i + 1 : i % 3 == 1 ? 2147483647 - i : -i * 1000003);
    }
    auto dd = pyk::to_device(doubles);
    auto df = pyk::to_device(floats);
    auto dn = pyk::to_device(ints);
    auto halves = pyk::device_empty<bfloat16>({3, m});
    auto singles = pyk::device_empty<float>({4, m});
    pyk::kernels::conversions({(m + 63) / 64, 64}, dd, df, dn, halves, singles);
    std::vector<bfloat16> gotHalves(3 * m);
    std::vector<float> gotSingles(4 * m);
    halves.copy_to_host(gotHalves);
    singles.copy_to_host(gotSingles);
    for (int i = 0; i < m; ++i) {
      checks.expect("bfloat16(float64) rounds once [" + std::to_string(i) + "]", same(gotHalves[i], brain(doubles[i])));
      checks.expect("bfloat16(float32)", same(gotHalves[m + i], brain(floats[i])));
      checks.expect("bfloat16(int32) rounds once", same(gotHalves[2 * m + i], brain(ints[i])));
      const bfloat16 h = brain(floats[i]);
      checks.equalOrNaN("float32(h)", i, gotSingles[i], d(h));
      checks.equalOrNaN("h + float16", i, gotSingles[m + i], static_cast<float>(d(h) + 1.5));
      checks.equalOrNaN("h * int8", i, gotSingles[2 * m + i], d(brain(d(h) * 3)));
      const double v = d(h);
      const double clamped = std::isnan(v) ? 0 : std::fmax(std::fmin(std::trunc(v), 2147483647.0), -2147483648.0);
      checks.equal("int32(h)", i, gotSingles[3 * m + i], static_cast<float>(static_cast<std::int32_t>(clamped)));
    }
  }

  {
    const int blocks = 4;
    std::vector<bfloat16> values(blocks * 32 - 5);
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = brain(0.1 * static_cast<double>(i % 17) - 0.7);
    auto dvalues = pyk::to_device(values);
    auto sums = pyk::device_empty<bfloat16>({blocks});
    const bfloat16 s = brain(1.3);
    pyk::kernels::block_sums({blocks, 32}, dvalues, s, sums);
    std::vector<bfloat16> got(blocks);
    sums.copy_to_host(got);
    for (int block = 0; block < blocks; ++block) {
      bfloat16 total(0);
      for (int j = 0; j < 32; ++j) {
        const size_t i = block * 32 + j;
        total += i < values.size() ? values[i] * s : bfloat16(0);
      }
      checks.expect("block sum " + std::to_string(block), same(got[block], total));
    }
  }
  {
    std::vector<bfloat16> a = x, b = y;
    a[5] = brain(std::nan(""));
    b[6] = brain(std::nan(""));
    b[7] = a[7];
    auto da = pyk::to_device(a), db = pyk::to_device(b);
    const int rows = 12;
    auto out = pyk::device_empty<bfloat16>({rows, n});
    auto flags = pyk::device_empty<std::int32_t>({4, n});
    pyk::kernels::brain_intrinsics({(n + 63) / 64, 64}, da, db, out, flags);
    std::vector<bfloat16> got(rows * n);
    std::vector<std::int32_t> gotFlags(4 * n);
    out.copy_to_host(got);
    flags.copy_to_host(gotFlags);
    for (int i = 0; i < n; ++i) {
      const double p = d(a[i]), q = d(b[i]);
      const bfloat16 exact[] = {brain(p + q),         brain(p - q),        brain(p * q),
                                brain(p / q),         brain(-p),           brain(std::fabs(p)),
                                p > q ? a[i] : b[i],  p < q ? a[i] : b[i], brain(std::sqrt(std::fabs(p))),
                                brain(std::floor(p)), brain(1 / p)};
      for (int row = 0; row < 11; ++row)
        checks.expect("cuda.bf16 row " + std::to_string(row) + " [" + std::to_string(i) + "]",
                      same(got[row * n + i], exact[row]));
      // sin in float32, rounded to bfloat16: within one bfloat16 unit.
      checks.near("cuda.bf16.hsin", i, d(got[11 * n + i]), d(brain(std::sin(p))), 1, 0x1p-7);
      const int want[] = {p == q, p < q || p > q, p < q, p >= q};
      for (int row = 0; row < 4; ++row)
        checks.exact("cuda.bf16 comparison", gotFlags[row * n + i], want[row]);
    }
  }
  return checks.finish("bfloat16");
}
