// Runs float16.pyk: float16 arrays made in C++ as std::vector<pyk::float16>,
// every result worked out here in double (exact for these operations) and
// rounded once to float16, as a GPU's f16 instructions and NumPy round.
#include "Checks.h"
#include "float16.pyk.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

using pyk::float16;

double d(float16 h) { return static_cast<float>(h); }
float16 half(double value) { return float16(value); }

/// x and y: both signs, subnormals, values near 65504 (whose products and
/// sums overflow to infinity), ties for rounding, no zeros (x // 0 is
/// Python's error, which Numba's kernels leave as inf).
std::vector<float16> operands(int n, int seed) {
  std::vector<float16> values(n);
  for (int i = 0; i < n; ++i) {
    const double magnitude = std::ldexp(1.0 + ((i * 37 + seed * 11) % 1024) / 1024.0, (i * 7 + seed) % 36 - 20);
    values[i] = half((i + seed) % 3 == 0 ? -magnitude : magnitude);
  }
  values[0] = half(65504.0);
  values[1] = half(0x1p-24);
  values[2] = half(1.0 + 0x1p-10);
  return values;
}

bool same(float16 got, float16 want) { return got.bits() == want.bits() || (d(got) != d(got) && d(want) != d(want)); }

double floorDivision(double a, double b) { return std::floor(a / b); }
double pythonMod(double a, double b) {
  double m = std::fmod(a, b);
  if (m != 0 && (m < 0) != (b < 0))
    m += b;
  return m == 0 ? std::copysign(0.0, b) : m;
}

} // namespace

int main() {
  Checks checks;
  const int n = 300;
  const std::vector<float16> x = operands(n, 1), y = operands(n, 4);
  auto dx = pyk::to_device(x), dy = pyk::to_device(y);

  {
    const int rows = 11;
    auto out = pyk::device_empty<float16>({rows, n});
    pyk::kernels::arithmetic({(n + 63) / 64, 64}, dx, dy, out);
    std::vector<float16> got(rows * n);
    out.copy_to_host(got);
    for (int i = 0; i < n; ++i) {
      const double a = d(x[i]), b = d(y[i]);
      const float16 t = half(d(half(a + b)) * b);
      const float16 want[rows] = {half(a + b),  half(a - b),      half(a * b), half(a / b),
                                  half(-a),     half(std::fabs(a)), half(a * d(half(0.1))), t,
                                  half(floorDivision(a, b)), half(pythonMod(a, b)), half(a * a)};
      for (int row = 0; row < rows; ++row)
        if (!same(got[row * n + i], want[row]))
          checks.equal("arithmetic row", row * n + i, d(got[row * n + i]), d(want[row]));
        else
          checks.expect("arithmetic", true);
    }
  }

  {
    const int rows = 7;
    auto out = pyk::device_empty<std::int32_t>({rows, n});
    pyk::kernels::comparisons({(n + 63) / 64, 64}, dx, dy, out);
    std::vector<std::int32_t> got(rows * n);
    out.copy_to_host(got);
    for (int i = 0; i < n; ++i) {
      const double a = d(x[i]), b = d(y[i]);
      const int want[rows] = {a < b, a <= b, a == b, a != b, a > b, a != 0, (a >= b ? a : b) == a};
      for (int row = 0; row < rows; ++row)
        checks.exact("comparison", got[row * n + i], want[row]);
    }
  }

  {
    // float64 values at float16's midpoints and a hair off them, where
    // rounding through float32 first rounds twice; integers around
    // float16's gaps and its largest value.
    std::vector<double> doubles;
    std::vector<std::int32_t> ints;
    for (int k = 0; k < 40; ++k) {
      const double low = d(half(1.0 + k / 64.0)) * std::ldexp(1.0, k % 9 - 4);
      const double gap = std::ldexp(1.0, -10) * std::ldexp(1.0, k % 9 - 4);
      doubles.push_back(low + gap / 2 + gap * 0x1p-40);
      doubles.push_back(low + gap / 2);
      doubles.push_back(-(low + gap / 2 - gap * 0x1p-40));
    }
    for (double special : {65504.0, 65519.0, 65520.0, 1e6, -1e6, 0.1, 1e-9, std::nan("")})
      doubles.push_back(special);
    const int m = static_cast<int>(doubles.size());
    for (int i = 0; i < m; ++i)
      ints.push_back(i % 5 == 0 ? 2049 + 2 * i : i % 5 == 1 ? 65519 : i % 5 == 2 ? 65520 : i % 5 == 3 ? -70000 - i : i);
    auto dd = pyk::to_device(doubles);
    auto dn = pyk::to_device(ints);
    auto halves = pyk::device_empty<float16>({4, m});
    auto wide = pyk::device_empty<double>({3, m});
    auto truncated = pyk::device_empty<std::int32_t>({2, m});
    pyk::kernels::conversions({2, 64}, dd, dn, halves, wide, truncated);
    std::vector<float16> gotHalves(4 * m);
    std::vector<double> gotWide(3 * m);
    std::vector<std::int32_t> gotInts(2 * m);
    halves.copy_to_host(gotHalves);
    wide.copy_to_host(gotWide);
    truncated.copy_to_host(gotInts);
    for (int i = 0; i < m; ++i) {
      const float16 h = half(doubles[i]);
      const double v = d(h);
      checks.expect("float16(float64) rounds once", same(gotHalves[i], h));
      checks.expect("float16(float32(float64))", same(gotHalves[m + i], half(static_cast<float>(doubles[i]))));
      checks.expect("float16(int32)", same(gotHalves[2 * m + i], half(ints[i])));
      checks.expect("stored int32", same(gotHalves[3 * m + i], half(ints[i])));
      checks.equalOrNaN("float64(h)", i, gotWide[i], v);
      checks.equalOrNaN("h + int32", i, gotWide[m + i], v + ints[i]);
      checks.equalOrNaN("h + float32", i, gotWide[2 * m + i], static_cast<float>(v) + 1.0f);
      // Toward zero, saturating; NaN is 0 (pyk's conversions, on every device).
      const double clamped = std::isnan(v) ? 0 : std::fmax(std::fmin(std::trunc(v), 2147483647.0), -2147483648.0);
      checks.exact("int32(h)", gotInts[i], static_cast<long long>(clamped));
    }
  }

  {
    auto halves = pyk::device_empty<float16>({6, n});
    auto singles = pyk::device_empty<float>({3, n});
    pyk::kernels::math_functions({(n + 63) / 64, 64}, dx, halves, singles);
    std::vector<float16> got(6 * n);
    std::vector<float> gotSingles(3 * n);
    halves.copy_to_host(got);
    singles.copy_to_host(gotSingles);
    for (int i = 0; i < n; ++i) {
      const double a = d(x[i]);
      // Computed in float32 and rounded to float16: within one float16 unit
      // of the exact value's float16 (the math library's last float32 bit
      // may decide a tie).
      const double want[6] = {std::sqrt(a), std::sin(a), std::cos(a), std::exp(a), std::log(a), std::fabs(a)};
      for (int row = 0; row < 6; ++row) {
        const float16 exact = half(want[row]);
        checks.near("math", row * n + i, d(got[row * n + i]), d(exact), 1, 0x1p-10);
      }
      checks.expect("sqrt rounds once", same(got[i], half(std::sqrt(a))) || a < 0);
      checks.near("atan", i, gotSingles[i], std::atan(static_cast<float>(a)), 2, 0x1p-23);
      checks.equal("floor", i, gotSingles[n + i], std::floor(a));
      checks.equal("isnan", i, gotSingles[2 * n + i], std::isnan(a));
    }
  }

  {
    const int blocks = 5;
    std::vector<float16> values(blocks * 64 - 17);
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = half(0.25 * static_cast<double>(i % 13));
    auto dvalues = pyk::to_device(values);
    auto sums = pyk::device_empty<float16>({blocks});
    const float16 t = half(0.375);
    pyk::kernels::block_sums({blocks, 64}, dvalues, t, sums);
    std::vector<float16> got(blocks);
    sums.copy_to_host(got);
    for (int block = 0; block < blocks; ++block) {
      // The same tree of float16 additions as the kernel's.
      float16 tile[64];
      for (int j = 0; j < 64; ++j) {
        const size_t i = block * 64 + j;
        tile[j] = i < values.size() ? values[i] + (float16(1) - values[i]) * t : float16(0);
      }
      for (int step = 32; step > 0; step /= 2)
        for (int j = 0; j < step; ++j)
          tile[j] += tile[j + step];
      checks.expect("block sum " + std::to_string(block), same(got[block], tile[0]));
    }
  }
  {
    // NaN in both operands' places, and equal values, for the comparisons.
    std::vector<float16> a = x, b = y;
    a[5] = half(std::nan(""));
    b[6] = half(std::nan(""));
    b[7] = a[7];
    auto da = pyk::to_device(a), db = pyk::to_device(b);
    const int rows = 18;
    auto out = pyk::device_empty<float16>({rows, n});
    auto flags = pyk::device_empty<std::int32_t>({6, n});
    pyk::kernels::half_intrinsics({(n + 63) / 64, 64}, da, db, out, flags);
    std::vector<float16> got(rows * n);
    std::vector<std::int32_t> gotFlags(6 * n);
    out.copy_to_host(got);
    flags.copy_to_host(gotFlags);
    for (int i = 0; i < n; ++i) {
      const double p = d(a[i]), q = d(b[i]);
      // hfma: the exact p * q + 0.25 (a double holds it), rounded once.
      const float16 exact[] = {half(p + q),   half(p - q),       half(p * q),      half(p / q),
                               half(-p),      half(std::fabs(p)), half(p * q + 0.25), p > q ? a[i] : b[i],
                               p < q ? a[i] : b[i], half(std::sqrt(std::fabs(p))), half(std::floor(p)),
                               half(std::ceil(p)), half(std::trunc(p)), half(std::nearbyint(p)), half(1 / p)};
      for (int row = 0; row < 15; ++row)
        checks.expect("cuda.fp16 row " + std::to_string(row) + " [" + std::to_string(i) + "]",
                      same(got[row * n + i], exact[row]));
      // Computed in float32, rounded to float16: within one float16 unit.
      const double approximate[] = {std::sin(p), std::exp2(q), std::log2(std::fabs(p))};
      for (int row = 15; row < rows; ++row)
        checks.near("cuda.fp16 math", row * n + i, d(got[row * n + i]), d(half(approximate[row - 15])), 1, 0x1p-10);
      // Ordered comparisons, hne too (Numba's setp.ne.f16): NaN gives false.
      const int want[] = {p == q, p < q || p > q, p < q, p <= q, p > q, p >= q};
      for (int row = 0; row < 6; ++row)
        checks.exact("cuda.fp16 comparison", gotFlags[row * n + i], want[row]);
    }
  }
  {
    static_assert(sizeof(pyk::records::Sample) == 8 && offsetof(pyk::records::Sample, weight) == 4);
    std::vector<pyk::records::Sample> samples(40);
    for (int i = 0; i < 40; ++i)
      samples[i] = {half(0.1 * i - 1.3), static_cast<std::int16_t>(i - 20), 1.0f + 0.37f * static_cast<float>(i)};
    auto dsamples = pyk::to_device(samples);
    auto out = pyk::device_empty<float16>({40});
    pyk::kernels::weigh({2, 32}, dsamples, out);
    std::vector<pyk::records::Sample> updated(40);
    std::vector<float16> got(40);
    dsamples.copy_to_host(updated);
    out.copy_to_host(got);
    for (int i = 0; i < 40; ++i) {
      const float product = static_cast<float>(samples[i].value) * samples[i].weight;
      checks.expect("weigh out", same(got[i], half(product)));
      checks.expect("weigh value", same(updated[i].value, samples[i].value + float16(1)));
      checks.equal("weigh weight", i, updated[i].weight, samples[i].weight);
      checks.exact("weigh count", updated[i].count, i - 19);
    }
  }
  {
    // Totals stay below 256, where float16 holds every quarter: any order of
    // the additions gives the same sums, and each bin's old values are
    // 0, 0.25, 0.5, ... once each.
    const int m = 900, binCount = 7;
    std::vector<std::int32_t> bins(m);
    for (int i = 0; i < m; ++i)
      bins[i] = (i * 5 + i / 3) % binCount;
    auto dbins = pyk::to_device(bins);
    auto totals = pyk::to_device(std::vector<float16>(binCount, float16(0)));
    auto olds = pyk::device_empty<float16>({m});
    pyk::kernels::half_histogram({(m + 127) / 128, 128}, dbins, totals, olds);
    std::vector<float16> gotTotals(binCount), gotOlds(m);
    totals.copy_to_host(gotTotals);
    olds.copy_to_host(gotOlds);
    for (int b = 0; b < binCount; ++b) {
      std::vector<int> seen;
      for (int i = 0; i < m; ++i)
        if (bins[i] == b)
          seen.push_back(static_cast<int>(d(gotOlds[i]) * 4));
      std::sort(seen.begin(), seen.end());
      bool prefix = true;
      for (size_t k = 0; k < seen.size(); ++k)
        prefix = prefix && seen[k] == static_cast<int>(k);
      checks.expect("bin " + std::to_string(b) + "'s old values are its prefix sums", prefix);
      checks.equal("bin total", b, d(gotTotals[b]), 0.25 * static_cast<double>(seen.size()));
    }
  }
  {
    // Each constant rounded once to float16, as NumPy stores it; 65519
    // rounds down to 65504.
    const double weights[4] = {0.1, 0.2, 0.7, 65519.0};
    auto out = pyk::device_empty<float16>({4, n});
    pyk::kernels::weighted({(n + 63) / 64, 64}, dx, out);
    std::vector<float16> got(4 * n);
    out.copy_to_host(got);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 4; ++k) {
        // x * w + offset: one fma in the PTX, two roundings elsewhere.
        const double product = d(x[i]) * d(half(weights[k]));
        const float16 fused = half(product + d(half(0.3))), twice = half(d(half(product)) + d(half(0.3)));
        checks.expect("weighted [" + std::to_string(k) + ", " + std::to_string(i) + "]",
                      same(got[k * n + i], fused) || same(got[k * n + i], twice));
      }
  }
  return checks.finish("float16");
}
