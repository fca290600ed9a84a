// Runs operators.pyk and compares with Python's meaning, computed here.
#include "Checks.h"
#include "operators.pyk.h"

#include <cmath>
#include <vector>

namespace {

std::int64_t floordiv(std::int64_t a, std::int64_t b) {
  if (b == 0)
    return 0;
  if (b == -1)
    return static_cast<std::int64_t>(0ull - static_cast<std::uint64_t>(a));
  std::int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0)))
    --q;
  return q;
}
std::int64_t mod(std::int64_t a, std::int64_t b) {
  if (b == 0 || b == -1)
    return 0;
  std::int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}
std::int64_t ipow(std::int64_t a, std::int64_t b) {
  std::uint64_t result = 1, base = static_cast<std::uint64_t>(a);
  for (std::uint64_t e = static_cast<std::uint64_t>(b); e; e >>= 1) {
    if (e & 1)
      result *= base;
    base *= base;
  }
  return static_cast<std::int64_t>(result);
}
std::int64_t shl(std::int64_t a, std::int64_t b) {
  return b < 0 || b >= 64 ? 0 : static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << b);
}
std::int64_t shr(std::int64_t a, std::int64_t b) { return b < 0 || b >= 64 ? (a < 0 ? -1 : 0) : a >> b; }

} // namespace

int main() {
  Checks checks;
  const std::vector<std::int64_t> as = {7, -7, 7, -7, 0, 5, INT64_MIN, INT64_MIN, 12345, -1, 3, 1};
  const std::vector<std::int64_t> bs = {2, 2, -2, -2, 3, 0, -1, 1, 7, 70, -1, 63};
  const auto n = static_cast<std::int64_t>(as.size());
  auto a = pyk::to_device(as), b = pyk::to_device(bs);
  auto fd = pyk::device_empty<std::int64_t>({n}), md = pyk::device_empty<std::int64_t>({n}),
       pw = pyk::device_empty<std::int64_t>({n}), sl = pyk::device_empty<std::int64_t>({n}),
       sr = pyk::device_empty<std::int64_t>({n}), bt = pyk::device_empty<std::int64_t>({n}),
       iv = pyk::device_empty<std::int64_t>({n});
  pyk::kernels::int_cases({1, 64}, a, b, fd, md, pw, sl, sr, bt, iv);
  std::vector<std::int64_t> r(n);
  fd.copy_to_host(r);
  for (long long i = 0; i < n; ++i)
    checks.equalOrNaN("//", i, double(r[i]), double(floordiv(as[i], bs[i])));
  md.copy_to_host(r);
  for (long long i = 0; i < n; ++i)
    checks.equalOrNaN("%", i, double(r[i]), double(mod(as[i], bs[i])));
  pw.copy_to_host(r);
  for (long long i = 0; i < n; ++i)
    checks.equalOrNaN("**", i, double(r[i]), double(ipow(as[i], bs[i] & 7)));
  sl.copy_to_host(r);
  for (long long i = 0; i < n; ++i)
    checks.equalOrNaN("<<", i, double(r[i]), double(shl(as[i], bs[i])));
  sr.copy_to_host(r);
  for (long long i = 0; i < n; ++i)
    checks.equalOrNaN(">>", i, double(r[i]), double(shr(as[i], bs[i])));
  bt.copy_to_host(r);
  for (long long i = 0; i < n; ++i)
    checks.equalOrNaN("& ^ |", i, double(r[i]), double((as[i] & bs[i]) ^ (as[i] | 12)));
  iv.copy_to_host(r);
  for (long long i = 0; i < n; ++i)
    checks.equalOrNaN("~", i, double(r[i]), double(~as[i]));

  const std::vector<double> xs = {7.5, -7.5, 7.5, -7.5, 1e300, 2.0};
  const std::vector<double> ys = {2.0, 2.0, -2.0, -2.0, 3.0, 0.5};
  auto x = pyk::to_device(xs), y = pyk::to_device(ys);
  auto ffd = pyk::device_empty_like(x), fmd = pyk::device_empty_like(x), fpw = pyk::device_empty_like(x);
  pyk::kernels::float_cases({1, 32}, x, y, ffd, fmd, fpw);
  std::vector<double> f(xs.size());
  ffd.copy_to_host(f);
  for (std::size_t i = 0; i < xs.size(); ++i)
    checks.equalOrNaN("float //", static_cast<long long>(i), f[i], std::floor(xs[i] / ys[i]));
  fmd.copy_to_host(f);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    double want = std::fmod(xs[i], ys[i]);
    if (want != 0 && ((want < 0) != (ys[i] < 0)))
      want += ys[i];
    checks.equalOrNaN("float %", static_cast<long long>(i), f[i], want);
  }
  fpw.copy_to_host(f);
  for (std::size_t i = 0; i < xs.size(); ++i)
    checks.equalOrNaN("float **", static_cast<long long>(i), f[i], std::pow(xs[i], 2.5));

  auto out = pyk::device_empty<std::int32_t>({6});
  std::vector<bool> flagValues = {false, true, false, false, false};
  auto flags = pyk::to_device(std::vector<std::uint8_t>{0, 1, 0, 0, 0});
  auto bytes = pyk::to_device(std::vector<std::uint8_t>{200, 100, 0x1f});
  (void)flagValues;
  // bool arrays are one byte per element, like NumPy's.
  pyk::kernels::small_cases({1, 32}, out, pyk::ArrayView<bool, 1>(reinterpret_cast<bool *>(flags.data()), {5}),
                            bytes);
  std::vector<std::int32_t> o(6);
  out.copy_to_host(o);
  const std::int32_t wantSmall[] = {-4, 1, -1, 1024, 17, -6};
  for (int i = 0; i < 6; ++i)
    checks.equalOrNaN("constant", i, o[i], wantSmall[i]);
  std::vector<std::uint8_t> fl(5), by(3);
  flags.copy_to_host(fl);
  checks.equalOrNaN("bool &", 0, fl[0], 0);
  checks.equalOrNaN("bool ^", 3, fl[3], 1);
  checks.equalOrNaN("bool ~", 4, fl[4], 0);
  bytes.copy_to_host(by);
  checks.equalOrNaN("uint8 + wraps", 0, by[0], (200 + 100) % 256);
  checks.equalOrNaN("uint8 << wraps", 2, by[2], (0x1f << 4) % 256);

  return checks.finish("operators");
}
