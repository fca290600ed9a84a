// Runs truth.pyk and compares with Python's truth worked out in C++: a
// number is true when it is not 0 (C++'s `v != 0`, true for NaN, false for
// -0.0); `a or b` is `a` when a is true, else b; `a and b` is `a` when a is
// false, else b; each converted to the operands' unified type.
#include "Checks.h"
#include "truth.pyk.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

template <typename T> bool truth(T v) { return v != T(0); }

} // namespace

int main() {
  Checks checks;
  const int n = 64;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double xCycle[] = {0.0, -0.0, nan, 0.5, -2.25, inf, 1e-300, 3.0};
  const float sCycle[] = {0.0f, -0.0f, float(nan), 0.25f, -1.5f, float(inf), 1e-30f, 2.0f};
  std::vector<std::int64_t> ns(n), ms(n);
  std::vector<double> xs(n);
  std::vector<float> ss(n);
  std::vector<std::uint8_t> us(n);
  for (int i = 0; i < n; ++i) {
    ns[i] = (i * 7) % 11 - 5;
    ms[i] = (i * 5) % 7 - 3;
    xs[i] = xCycle[i % 8];
    ss[i] = sCycle[(i / 3) % 8];
    us[i] = i % 3 == 0 ? 0 : static_cast<std::uint8_t>((i * 37) % 256);
  }
  auto dn = pyk::to_device(ns), dm = pyk::to_device(ms);
  auto dx = pyk::to_device(xs);
  auto ds = pyk::to_device(ss);
  auto du = pyk::to_device(us);

  const int conditionColumns = 9;
  auto dconditions = pyk::device_empty<std::int64_t>({n, conditionColumns});
  pyk::kernels::conditions({2, 32}, dn, dx, ds, du, dconditions);
  std::vector<std::int64_t> got(n * conditionColumns);
  dconditions.copy_to_host(got);
  for (int i = 0; i < n; ++i) {
    const std::int64_t v = ns[i];
    const bool inRange = v >= 0 && v < n;
    const std::int64_t want[] = {
        truth(v),
        truth(xs[i]),
        !truth(ss[i]),
        !truth(us[i]),
        truth(v) && truth(xs[i]),
        !(truth(ss[i]) || truth(us[i])),
        1,
        inRange && truth(ns[inRange ? v : 0]),
        (truth(xs[i]) ? 3 : 0) + (truth(ss[i]) ? 2 : 0) + (v < 0 ? -v : v),
    };
    for (int c = 0; c < conditionColumns; ++c)
      checks.exact(("conditions[" + std::to_string(i) + ", " + std::to_string(c) + "]").c_str(),
                   got[i * conditionColumns + c], want[c]);
  }

  const int intColumns = 8, floatColumns = 6, float32Columns = 3;
  auto diout = pyk::device_empty<std::int64_t>({n, intColumns});
  auto dfout = pyk::device_empty<double>({n, floatColumns});
  auto dsout = pyk::device_empty<float>({n, float32Columns});
  pyk::kernels::values({2, 32}, dn, dm, dx, ds, diout, dfout, dsout);
  std::vector<std::int64_t> iout(n * intColumns);
  std::vector<double> fout(n * floatColumns);
  std::vector<float> sout(n * float32Columns);
  diout.copy_to_host(iout);
  dfout.copy_to_host(fout);
  dsout.copy_to_host(sout);
  for (int i = 0; i < n; ++i) {
    const std::int64_t a = ns[i], b = ms[i];
    const double x = xs[i];
    const float s = ss[i];
    const std::int64_t aOrB = truth(a) ? a : b;
    const std::int64_t wantInt[] = {
        aOrB,
        truth(a) ? b : a,
        truth(a) ? a : truth(b) ? b : 7,
        !truth(a) ? a : !truth(b) ? b : 7,
        a > 0 ? 1 : b,
        a > 0 ? b : 0,
        truth(a) ? a : -1,
        truth(aOrB) ? (truth(b) ? b : 5) : aOrB,
    };
    for (int c = 0; c < intColumns; ++c)
      checks.exact(("values int[" + std::to_string(i) + ", " + std::to_string(c) + "]").c_str(),
                   iout[i * intColumns + c], wantInt[c]);
    const bool aInRange = a >= 0 && a < n;
    const double wantFloat[] = {
        truth(a) ? double(a) : x,
        truth(x) ? double(a) : x,
        truth(x) ? x : -1.5,
        truth(x) ? -1.5 : x,
        !aInRange ? 1.0 : truth(xs[a]) ? xs[a] : 9.0,
        (truth(x) ? x : 0.25) + double((truth(s) ? s : 2.0f) * 2.0f),
    };
    for (int c = 0; c < floatColumns; ++c) {
      const double value = fout[i * floatColumns + c];
      checks.equalOrNaN("values float", i * floatColumns + c, value, wantFloat[c]);
      checks.expect("values float sign [" + std::to_string(i) + ", " + std::to_string(c) + "]",
                    std::isnan(value) || std::signbit(value) == std::signbit(wantFloat[c]));
    }
    const float wantFloat32[] = {truth(s) ? s : 3.0f, truth(s) ? 2.0f : s, truth(s) ? -s : s + 1};
    for (int c = 0; c < float32Columns; ++c) {
      const float value = sout[i * float32Columns + c];
      checks.equalOrNaN("values float32", i * float32Columns + c, value, wantFloat32[c]);
      checks.expect("values float32 sign [" + std::to_string(i) + ", " + std::to_string(c) + "]",
                    std::isnan(value) || std::signbit(value) == std::signbit(wantFloat32[c]));
    }
  }

  // The votes, for a block where every thread, some and none hold a
  // non-zero value.
  const int threads = 32, barrierColumns = 5;
  for (int pattern = 0; pattern < 3; ++pattern) {
    std::vector<std::int64_t> mine(threads);
    int count = 0;
    for (int t = 0; t < threads; ++t) {
      mine[t] = pattern == 0 ? t - 100 : pattern == 1 ? (t % 4 == 1 ? t : 0) : 0;
      count += mine[t] != 0;
    }
    auto dmine = pyk::to_device(mine);
    auto dvotes = pyk::device_empty<std::int64_t>({threads, barrierColumns});
    pyk::kernels::barriers({1, threads}, dmine, dvotes);
    std::vector<std::int64_t> votes(threads * barrierColumns);
    dvotes.copy_to_host(votes);
    for (int t = 0; t < threads; ++t) {
      const std::int64_t want[] = {count == threads, count == 0, count != 0, count, 4};
      for (int c = 0; c < barrierColumns; ++c)
        checks.exact(("barriers pattern " + std::to_string(pattern) + " [" + std::to_string(t) + ", " +
                      std::to_string(c) + "]")
                         .c_str(),
                     votes[t * barrierColumns + c], want[c]);
    }
  }

  return checks.finish("truth");
}
