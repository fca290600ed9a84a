// Runs math_functions.pyk and compares with <cmath>, in the same precision.
#include "Checks.h"
#include "math_functions.pyk.h"

#include <cmath>
#include <limits>
#include <vector>

int main() {
  Checks checks;
  const float eps32 = std::numeric_limits<float>::epsilon();
  const double eps64 = std::numeric_limits<double>::epsilon();
  const std::vector<float> xs = {0.25f, -1.5f, 3.0f, -0.0f, 10.0f};
  const auto n = static_cast<std::int64_t>(xs.size());
  auto x = pyk::to_device(xs);
  auto out = pyk::device_empty<float>({n, std::int64_t(10)});
  pyk::kernels::unary32({1, 32}, x, out);
  std::vector<float> o(n * 10);
  out.copy_to_host(o);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const float v = xs[i];
    const float want[] = {std::sqrt(std::fabs(v)),      std::exp(v),           std::log(std::fabs(v) + 1.0f),
                          std::sin(v),                  std::cos(v),           std::tanh(v),
                          std::atan2(v, 0.5f),          std::pow(std::fabs(v), 1.5f), std::erf(v),
                          std::hypot(v, 2.0f) * float(M_PI)};
    for (int k = 0; k < 10; ++k)
      checks.near("float32 math", i * 10 + k, o[i * 10 + k], want[k], 4, eps32);
  }

  const std::vector<double> ds = {2.75, -2.75, 0.5, -0.0, 1e308 * 10, std::nan(""), -3.0};
  const auto m = static_cast<std::int64_t>(ds.size());
  auto d = pyk::to_device(ds);
  auto dout = pyk::device_empty<double>({m, std::int64_t(6)});
  auto rounded = pyk::device_empty<std::int64_t>({m, std::int64_t(3)});
  auto tests = pyk::device_empty<std::uint8_t>({m, std::int64_t(3)});
  pyk::kernels::unary64({1, 32}, d, dout, rounded, tests);
  std::vector<double> r(m * 6);
  std::vector<std::int64_t> rr(m * 3);
  std::vector<std::uint8_t> t(m * 3);
  dout.copy_to_host(r);
  rounded.copy_to_host(rr);
  tests.copy_to_host(t);
  for (std::size_t i = 0; i < ds.size(); ++i) {
    const double v = ds[i];
    const double want[] = {std::sqrt(std::fabs(v)), std::log10(std::fabs(v) + 1.0), std::fmod(v, 0.75),
                           std::copysign(2.0, v), std::tgamma(std::fabs(v) + 0.5), std::sqrt(double(i))};
    for (int k = 0; k < 6; ++k)
      checks.near("float64 math", i * 6 + k, r[i * 6 + k], want[k], 4, eps64);
    if (std::isfinite(v)) {
      checks.equal("floor", i, double(rr[i * 3]), std::floor(v));
      checks.equal("ceil", i, double(rr[i * 3 + 1]), std::ceil(v));
      checks.equal("trunc", i, double(rr[i * 3 + 2]), std::trunc(v));
    }
    checks.equal("isnan", i, t[i * 3], std::isnan(v));
    checks.equal("isinf", i, t[i * 3 + 1], std::isinf(v));
    checks.equal("isfinite", i, t[i * 3 + 2], std::isfinite(v));
  }

  // fastmath: within 2^-16 relative (approximate division, square root,
  // exp and sin are a few ulps off at most on these inputs); inf - inf is
  // still NaN.
  const std::vector<float> fx = {0.25f, 1.5f, 3.0f, 10.0f, std::numeric_limits<float>::infinity()},
                           fy = {0.5f, -2.0f, 1.25f, 3.0f, 1.0f};
  auto dfx = pyk::to_device(fx), dfy = pyk::to_device(fy);
  const auto fn = static_cast<std::int64_t>(fx.size());
  auto dfast = pyk::device_empty<float>({fn});
  auto dnan = pyk::device_empty<bool>({fn});
  pyk::kernels::fast32({1, 32}, dfx, dfy, dfast, dnan);
  std::vector<float> fast(fx.size());
  bool nan[5];
  dfast.copy_to_host(fast);
  dnan.copy_to_host(nan, fx.size());
  for (std::size_t i = 0; i + 1 < fx.size(); ++i)
    checks.near("fastmath", i, fast[i], std::sqrt(fx[i]) / fy[i] + std::exp(fy[i]) * std::sin(fx[i]), 512, eps32);
  for (std::size_t i = 0; i < fx.size(); ++i)
    checks.equal("fastmath isnan", i, nan[i], std::isnan(fx[i] - fx[i]));

  // exp2, remainder, nextafter, radians, degrees, ldexp, cuda.selp.
  const std::vector<double> ex = {2.5, -7.25, 0.0, 1.0, -0.5}, ey = {1.0, 2.0, -1.0, 0.75, -3.0};
  const auto en = static_cast<std::int64_t>(ex.size());
  std::vector<float> ex32(ex.begin(), ex.end()), ey32(ey.begin(), ey.end());
  auto dex = pyk::to_device(ex), dey = pyk::to_device(ey);
  auto dex32 = pyk::to_device(ex32), dey32 = pyk::to_device(ey32);
  auto eout = pyk::device_empty<double>({en, std::int64_t(8)});
  auto eout32 = pyk::device_empty<float>({en, std::int64_t(7)});
  pyk::kernels::extras({1, 32}, dex, dey, eout, dex32, dey32, eout32);
  std::vector<double> e64(en * 8);
  std::vector<float> e32(en * 7);
  eout.copy_to_host(e64);
  eout32.copy_to_host(e32);
  for (std::size_t i = 0; i < ex.size(); ++i) {
    const double v = ex[i], w = ey[i];
    const double want[] = {std::exp2(v),         std::remainder(v, w), std::nextafter(v, w),
                           v * (M_PI / 180.0),   v * (180.0 / M_PI),   double(i) * (M_PI / 180.0),
                           v > w ? v : w,        std::ldexp(v, int(i) - 2)};
    // exp2 within a few ulps (CUDA's is not correctly rounded); the rest
    // are exact in IEEE arithmetic: one product, or an exact operation.
    checks.near("float64 exp2", i, e64[i * 8], want[0], 4, eps64);
    for (int k = 1; k < 8; ++k)
      checks.equal("float64 extras", i * 8 + k, e64[i * 8 + k], want[k]);
    const float a = ex32[i], b = ey32[i];
    const float want32[] = {std::exp2(a), std::remainder(a, b), std::nextafter(a, b),
                            a * float(M_PI / 180.0), a * float(180.0 / M_PI), a > 0 ? a : 0.0f,
                            std::ldexp(a, 3)};
    checks.near("float32 exp2", i, e32[i * 7], want32[0], 4, eps32);
    for (int k = 1; k < 7; ++k)
      checks.equal("float32 extras", i * 7 + k, e32[i * 7 + k], want32[k]);
  }

  return checks.finish("math");
}
