// Runs builtins.pyk and compares with Python's meaning, computed here.
#include "Checks.h"
#include "builtins.pyk.h"

#include <algorithm>
#include <cmath>
#include <vector>

int main() {
  Checks checks;
  const std::vector<double> xs = {2.7, -2.7, 0.0, -0.0, 1e9, 0.5, -1.5};
  const auto n = static_cast<std::int64_t>(xs.size());
  auto x = pyk::to_device(xs);
  auto truncated = pyk::device_empty<std::int64_t>({n});
  auto narrowed = pyk::device_empty<std::int32_t>({n});
  auto asF32 = pyk::device_empty<float>({n});
  auto truthy = pyk::device_empty<std::uint8_t>({n});
  pyk::kernels::conversions({1, 32}, x, truncated, narrowed, asF32, truthy);
  std::vector<std::int64_t> t(n);
  std::vector<std::int32_t> w(n);
  std::vector<float> f(n);
  std::vector<std::uint8_t> b(n);
  truncated.copy_to_host(t);
  narrowed.copy_to_host(w);
  asF32.copy_to_host(f);
  truthy.copy_to_host(b);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    checks.equal("int()", i, double(t[i]), double(static_cast<std::int64_t>(xs[i])));
    checks.equal("int32()", i, double(w[i]), double(static_cast<std::int32_t>(xs[i] * 2.0)));
    checks.equal("np.float32()", i, f[i], static_cast<float>(xs[i]));
    checks.equal("bool()", i, b[i], xs[i] != 0 ? 1 : 0);
  }

  const std::vector<std::int64_t> as = {5, -5, 0, INT64_MIN + 1, 7};
  const std::vector<std::int64_t> bs = {3, -9, 0, 4, 7};
  const std::vector<double> fs = {0.25, -3.0, 2.0, -0.5, 0.5};
  auto da = pyk::to_device(as), db = pyk::to_device(bs);
  auto dx = pyk::to_device(fs);
  auto out = pyk::device_empty<std::int64_t>({5});
  auto fout = pyk::device_empty<double>({5});
  pyk::kernels::extremes({1, 32}, da, db, dx, out, fout);
  std::vector<std::int64_t> o(5);
  std::vector<double> fo(5);
  out.copy_to_host(o);
  fout.copy_to_host(fo);
  for (std::size_t i = 0; i < as.size(); ++i) {
    const std::uint64_t a = static_cast<std::uint64_t>(as[i]);
    const std::uint64_t absA = as[i] < 0 ? 0 - a : a;
    const std::uint64_t want = absA + 1000 * static_cast<std::uint64_t>(std::min(as[i], bs[i])) +
                               1000000 * static_cast<std::uint64_t>(std::max({as[i], bs[i], std::int64_t(3)}));
    checks.equal("abs/min/max", i, double(o[i]), double(static_cast<std::int64_t>(want)));
    checks.equal("float min/abs/max", i, fo[i], std::min(fs[i], 0.5) + std::fabs(fs[i]) * std::max(fs[i], -fs[i]));
  }

  const std::vector<double> rs = {0.5, 1.5, 2.5, -0.5, -1.5, 2.4999, 1e10 + 0.5, -7.0};
  const auto count = static_cast<std::int64_t>(rs.size());
  std::vector<float> rs32(rs.begin(), rs.end());
  auto dr = pyk::to_device(rs);
  auto dr32 = pyk::to_device(rs32);
  auto rounded = pyk::device_empty<std::int64_t>({count, std::int64_t(3)});
  pyk::kernels::rounding({1, 32}, dr, dr32, rounded);
  std::vector<std::int64_t> ro(count * 3);
  rounded.copy_to_host(ro);
  for (std::size_t i = 0; i < rs.size(); ++i) {
    checks.equal("round(float64)", i, double(ro[i * 3]), std::nearbyint(rs[i]));
    checks.equal("round(float32)", i, double(ro[i * 3 + 1]), std::nearbyint(rs32[i]));
    checks.equal("len", i, double(ro[i * 3 + 2]), double(count));
  }

  return checks.finish("builtins");
}
