// Runs libdevice.pyk: cuda.libdevice's functions against their definitions,
// each reference computed here another way than the CPU device's runtime
// does:
//  - rounded arithmetic: the round-to-nearest result, then which side of it
//    the exact value lies on, from an exact remainder or error term (inputs
//    chosen so that it is exact), and the neighbour that direction asks for;
//  - conversions: PTX's cvt (rounding of the name, saturated, NaN 0), and
//    integers and doubles to floats by the same sides as above;
//  - integer intrinsics: PTX's definitions, with 128-bit products;
//  - math functions: long double, C++17's Bessel functions, or the inverse
//    function applied to the result, within a few units in the last place.
#include "Checks.h"
#include "libdevice.pyk.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

enum class Mode { Nearest, Zero, Up, Down };
constexpr Mode modes[] = {Mode::Nearest, Mode::Zero, Mode::Up, Mode::Down};

template <typename T> int sign(T x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

/// The result of rounding a value in `mode`, given `nearest`, its
/// round-to-nearest result, and `side`, the sign of (exact - nearest).
template <typename F> F directed(F nearest, int side, Mode mode) {
  const F inf = std::numeric_limits<F>::infinity();
  if (side == 0 || mode == Mode::Nearest)
    return nearest;
  if (mode == Mode::Up)
    return side > 0 ? std::nextafter(nearest, inf) : nearest;
  if (mode == Mode::Down)
    return side < 0 ? std::nextafter(nearest, -inf) : nearest;
  // Toward zero: the neighbour nearer zero when the exact value is nearer.
  return (nearest > 0) == (side < 0) ? std::nextafter(nearest, F(0)) : nearest;
}

/// An exact value (held exactly in a wider type) rounded to F.
template <typename F, typename Wide> F roundExact(Wide exact, Mode mode) {
  if (std::isnan(exact))
    return F(exact);
  const F nearest = static_cast<F>(exact);
  return directed(nearest, sign(exact - static_cast<Wide>(nearest)), mode);
}

template <typename T, int Rank> std::vector<T> fetch(const pyk::DeviceArray<T, Rank> &array) {
  std::vector<T> values(array.size());
  array.copy_to_host(values);
  return values;
}

/// PTX's cvt from a float rounded to an integer: saturated, NaN 0.
template <typename I> I saturated(long double rounded) {
  if (std::isnan(rounded))
    return 0;
  if (rounded <= static_cast<long double>(std::numeric_limits<I>::lowest()))
    return std::numeric_limits<I>::lowest();
  if (rounded >= std::ldexp(1.0L, std::numeric_limits<I>::digits))
    return std::numeric_limits<I>::max();
  return static_cast<I>(rounded);
}

long double roundedIn(long double x, Mode mode) {
  switch (mode) {
  case Mode::Zero:
    return std::trunc(x);
  case Mode::Up:
    return std::ceil(x);
  case Mode::Down:
    return std::floor(x);
  default:
    return std::nearbyint(x);
  }
}

template <typename I> long long converted(long double x, Mode mode) {
  // The bits of an unsigned result in libdevice's signed type, widened.
  using Signed = std::make_signed_t<I>;
  return static_cast<Signed>(saturated<I>(roundedIn(x, mode)));
}

void checkRounded32(Checks &checks) {
  std::mt19937 random(17);
  std::uniform_real_distribution<float> magnitude(0.3f, 5.0f);
  const int n = 300;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = magnitude(random) * (i % 3 == 0 ? -1 : 1);
    b[i] = magnitude(random) * (i % 5 == 0 ? -1 : 1);
    c[i] = magnitude(random) * (i % 7 == 0 ? -1 : 1);
  }
  a[0] = 1.0f, b[0] = 3.0f, c[0] = 0.5f; // 1/3: inexact in every mode
  a[1] = 4.0f, b[1] = 2.0f, c[1] = 1.0f; // exact in every mode
  auto out = pyk::device_empty<float>({n, 28});
  pyk::kernels::rounded32(pyk::Launch{(n + 63) / 64, 64}, pyk::to_device(a, {n}), pyk::to_device(b, {n}),
                          pyk::to_device(c, {n}), out);
  const std::vector<float> got = fetch(out);
  for (int i = 0; i < n; ++i) {
    const double x = a[i], y = b[i], z = c[i];
    const float quotient = a[i] / b[i], reciprocal = 1.0f / b[i], root = std::sqrt(std::fabs(a[i]));
    // The exact remainders: q*y and s*s fit in a double's 53 bits.
    const int quotientSide = sign(x - double(quotient) * y) * sign(y);
    const int reciprocalSide = sign(1.0 - double(reciprocal) * y) * sign(y);
    for (int m = 0; m < 4; ++m) {
      const Mode mode = modes[m];
      const float want[] = {roundExact<float>(x + y, mode), roundExact<float>(x - y, mode),
                            roundExact<float>(x * y, mode), directed(quotient, quotientSide, mode),
                            directed(reciprocal, reciprocalSide, mode),
                            x < 0 ? std::numeric_limits<float>::quiet_NaN()
                                  : directed(root, sign(x - double(root) * root), mode),
                            roundExact<float>(x * y + z, mode)};
      const char *names[] = {"fadd", "fsub", "fmul", "fdiv", "frcp", "fsqrt", "fmaf"};
      for (int op = 0; op < 7; ++op) {
        const std::string what = std::string(names[op]) + "_r" + "nzud"[m];
        checks.equalOrNaN(what.c_str(), i, got[i * 28 + op * 4 + m], want[op]);
      }
    }
  }
}

/// The sum's round-to-nearest value and its exact error (Knuth's TwoSum).
std::pair<double, double> twoSum(double a, double b) {
  const double s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

void checkRounded64(Checks &checks) {
  std::mt19937 random(23);
  std::uniform_real_distribution<double> magnitude(0.3, 5.0);
  const int n = 300;
  std::vector<double> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    // float-valued factors: their product is exact, and so is the fma's
    // error from it.
    a[i] = static_cast<float>(magnitude(random) * (i % 3 == 0 ? -1 : 1));
    b[i] = static_cast<float>(magnitude(random) * (i % 5 == 0 ? -1 : 1));
    c[i] = magnitude(random) * (i % 7 == 0 ? -1 : 1);
  }
  a[0] = 1.0, b[0] = 3.0;
  auto out = pyk::device_empty<double>({n, 24});
  pyk::kernels::rounded64(pyk::Launch{(n + 63) / 64, 64}, pyk::to_device(a, {n}), pyk::to_device(b, {n}),
                          pyk::to_device(c, {n}), out);
  const std::vector<double> got = fetch(out);
  for (int i = 0; i < n; ++i) {
    const double x = a[i], y = b[i], z = c[i];
    const auto [sum, sumError] = twoSum(x, z);
    const double product = z * y, quotient = x / y, reciprocal = 1 / y, root = std::sqrt(std::fabs(x));
    const auto [fused, fusedError] = twoSum(x * y, z); // x*y exact
    const double nearest[] = {sum, product, quotient, reciprocal, x < 0 ? std::nan("") : root, std::fma(x, y, z)};
    const int side[] = {sign(sumError), sign(std::fma(z, y, -product)), sign(std::fma(-quotient, y, x)) * sign(y),
                        sign(std::fma(-reciprocal, y, 1.0)) * sign(y), sign(std::fma(-root, root, x)),
                        fused == nearest[5] ? sign(fusedError) : 0};
    const char *names[] = {"dadd", "dmul", "ddiv", "drcp", "dsqrt", "fma"};
    for (int op = 0; op < 6; ++op)
      for (int m = 0; m < 4; ++m) {
        const std::string what = std::string(names[op]) + "_r" + "nzud"[m];
        checks.equalOrNaN(what.c_str(), i, got[i * 24 + op * 4 + m], directed(nearest[op], side[op], modes[m]));
      }
  }
}

void checkConversions(Checks &checks) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> x = {std::nan(""), inf, -inf, 1e300, -1e300, 0.0, -0.0, 0.5, 1.5, 2.5, -2.5, -0.5, 3.7, -3.7,
                           2147483647.5, -2147483648.5, 4294967295.7, 4294967296.0, 0x1p63, -0x1p63, 0x1p64,
                           9007199254740993.0, 123456789.123, -987654321.987, 1e-40, 3.4028235677973366e38,
                           3.4028235677973367e38, 16777217.0, 65520.0, 0.1};
  std::mt19937 random(5);
  std::uniform_real_distribution<double> wide(-3e9, 3e9);
  for (int i = 0; i < 40; ++i)
    x.push_back(wide(random));
  const auto n = static_cast<std::int64_t>(x.size());
  auto whole = pyk::device_empty<std::int64_t>({n, 18});
  auto fractional = pyk::device_empty<double>({n, 14});
  pyk::kernels::conversions(pyk::Launch{(int(n) + 63) / 64, 64}, pyk::to_device(x, {n}), whole, fractional);
  const std::vector<std::int64_t> integers = fetch(whole);
  const std::vector<double> floats = fetch(fractional);
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    const float f = static_cast<float>(v);
    const long long wantWhole[] = {converted<std::int32_t>(v, Mode::Nearest), converted<std::int32_t>(v, Mode::Zero),
                                   converted<std::int32_t>(v, Mode::Up), converted<std::int32_t>(v, Mode::Down),
                                   converted<std::uint32_t>(v, Mode::Nearest), converted<std::int64_t>(v, Mode::Down),
                                   converted<std::uint64_t>(v, Mode::Up), converted<std::int32_t>(f, Mode::Nearest),
                                   converted<std::uint32_t>(f, Mode::Zero), converted<std::int64_t>(f, Mode::Up),
                                   converted<std::uint64_t>(f, Mode::Down), converted<std::int64_t>(v, Mode::Nearest),
                                   static_cast<long long>(saturated<std::int64_t>(std::round(v))),
                                   std::bit_cast<long long>(v), std::bit_cast<std::int32_t>(f),
                                   static_cast<std::int32_t>(std::bit_cast<std::uint64_t>(v) >> 32),
                                   static_cast<std::int32_t>(std::bit_cast<std::uint64_t>(v) & 0xffffffffu),
                                   std::bit_cast<std::int16_t>(static_cast<_Float16>(f))};
    const char *wholeNames[] = {"double2int_rn", "double2int_rz", "double2int_ru", "double2int_rd", "double2uint_rn",
                                "double2ll_rd", "double2ull_ru", "float2int_rn", "float2uint_rz", "float2ll_ru",
                                "float2ull_rd", "llrint", "llround", "double_as_longlong", "float_as_int",
                                "double2hiint", "double2loint", "float2half_rn"};
    for (int k = 0; k < 18; ++k)
      checks.exact((std::string(wholeNames[k]) + "(" + std::to_string(v) + ")").c_str(), integers[i * 18 + k],
                   wantWhole[k]);
    const auto truncated = static_cast<std::int64_t>(saturated<std::int64_t>(std::trunc(v)));
    const long double exact = truncated;
    const auto narrow = static_cast<std::int32_t>(truncated);
    const double wantFloat[] = {roundExact<float>(v, Mode::Nearest),
                                roundExact<float>(v, Mode::Zero),
                                roundExact<float>(v, Mode::Up),
                                roundExact<float>(v, Mode::Down),
                                roundExact<float>(exact, Mode::Zero),
                                roundExact<float>(exact, Mode::Up),
                                roundExact<double>(exact, Mode::Down),
                                roundExact<double>(exact, Mode::Up),
                                roundExact<float>(static_cast<double>(narrow), Mode::Zero),
                                roundExact<float>(static_cast<double>(narrow), Mode::Up),
                                roundExact<float>(static_cast<long double>(static_cast<std::uint64_t>(truncated)),
                                                  Mode::Down),
                                v,
                                v,
                                static_cast<float>(static_cast<_Float16>(f))};
    const char *floatNames[] = {"double2float_rn", "double2float_rz", "double2float_ru", "double2float_rd",
                                "ll2float_rz", "ll2float_ru", "ll2double_rd", "ll2double_ru", "int2float_rz",
                                "int2float_ru", "ull2float_rd", "longlong_as_double", "hiloint2double",
                                "half2float"};
    for (int k = 0; k < 14; ++k)
      checks.equalOrNaN(floatNames[k], i, floats[i * 14 + k], wantFloat[k]);
  }
}

std::int32_t byteSelect(std::uint32_t a, std::uint32_t b, std::uint32_t selector) {
  std::uint8_t bytes[8];
  for (int k = 0; k < 4; ++k) {
    bytes[k] = static_cast<std::uint8_t>(a >> (8 * k));
    bytes[k + 4] = static_cast<std::uint8_t>(b >> (8 * k));
  }
  std::uint32_t result = 0;
  for (int k = 0; k < 4; ++k)
    result |= std::uint32_t{bytes[(selector >> (4 * k)) & 7]} << (8 * k);
  return static_cast<std::int32_t>(result);
}

void checkIntegers(Checks &checks) {
  std::vector<std::int32_t> a = {0, -1, 1, std::numeric_limits<std::int32_t>::min(),
                                 std::numeric_limits<std::int32_t>::max(), 0x12345678, -0x12345678, 0x00800001};
  std::vector<std::int32_t> b = {0, 1, -1, -1, std::numeric_limits<std::int32_t>::max(), 0x7f00ff01, 16, -0x00800001};
  std::vector<std::int64_t> p = {0, -1, 1, std::numeric_limits<std::int64_t>::min(),
                                 std::numeric_limits<std::int64_t>::max(), 0x123456789abcdefLL, -77, 1LL << 40};
  std::vector<std::int64_t> q = {0, -1, -1, -1, std::numeric_limits<std::int64_t>::max(), -0x7edcba9876543210LL, 3,
                                 1LL << 30};
  std::mt19937_64 random(11);
  for (int i = 0; i < 60; ++i) {
    a.push_back(static_cast<std::int32_t>(random()));
    b.push_back(static_cast<std::int32_t>(random()));
    p.push_back(static_cast<std::int64_t>(random()));
    q.push_back(static_cast<std::int64_t>(random()));
  }
  const auto n = static_cast<std::int64_t>(a.size());
  auto out = pyk::device_empty<std::int64_t>({n, 27});
  pyk::kernels::integers(pyk::Launch{(int(n) + 63) / 64, 64}, pyk::to_device(a, {n}), pyk::to_device(b, {n}),
                         pyk::to_device(p, {n}), pyk::to_device(q, {n}), out);
  const std::vector<std::int64_t> got = fetch(out);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int32_t x = a[i], y = b[i];
    const auto ux = static_cast<std::uint32_t>(x), uy = static_cast<std::uint32_t>(y);
    const auto up = static_cast<std::uint64_t>(p[i]), uq = static_cast<std::uint64_t>(q[i]);
    // 24-bit operands: sign-extended from bit 23, or its low 24 bits.
    const std::int64_t x24 = ((x & 0xffffff) ^ 0x800000) - 0x800000, y24 = ((y & 0xffffff) ^ 0x800000) - 0x800000;
    const auto s32 = [](std::uint64_t bits) { return static_cast<long long>(static_cast<std::int32_t>(bits)); };
    std::uint32_t reversed = 0;
    for (int k = 0; k < 32; ++k)
      reversed |= ((ux >> k) & 1u) << (31 - k);
    std::uint64_t reversed64 = 0;
    for (int k = 0; k < 64; ++k)
      reversed64 |= ((up >> k) & 1u) << (63 - k);
    const long long want[] = {
        s32(static_cast<std::uint64_t>((std::int64_t{x} * y)) >> 32),
        s32((std::uint64_t{ux} * uy) >> 32),
        s32(static_cast<std::uint64_t>(x24 * y24)),
        s32((std::uint64_t{ux & 0xffffffu} * (uy & 0xffffffu))),
        s32(static_cast<std::uint64_t>((std::int64_t{x} + y) >> 1)),
        s32(static_cast<std::uint64_t>((std::int64_t{x} + y + 1) >> 1)),
        s32((std::uint64_t{ux} + uy) >> 1),
        s32((std::uint64_t{ux} + uy + 1) >> 1),
        s32(static_cast<std::uint32_t>(std::llabs(std::int64_t{x} - y)) + 7u),
        s32((ux > uy ? ux - uy : uy - ux) + 7u),
        byteSelect(ux, uy, 0x5140),
        byteSelect(ux, uy, uy & 0x7777u),
        s32(std::max(ux, uy)),
        s32(std::min(ux, uy)),
        s32(x < 0 ? 0u - ux : ux),
        s32(reversed),
        std::countl_zero(ux),
        x == 0 ? 0 : std::countr_zero(ux) + 1,
        std::popcount(ux),
        static_cast<long long>(static_cast<__int128_t>(p[i]) * q[i] >> 64),
        static_cast<long long>(static_cast<std::uint64_t>(static_cast<__uint128_t>(up) * uq >> 64)),
        static_cast<long long>(reversed64),
        std::countl_zero(up),
        p[i] == 0 ? 0 : std::countr_zero(up) + 1,
        std::popcount(up),
        static_cast<long long>(std::max(up, uq)),
        static_cast<long long>(p[i] < 0 ? 0 - up : up)};
    const char *names[] = {"mulhi", "umulhi", "mul24", "umul24", "hadd", "rhadd", "uhadd", "urhadd", "sad",
                           "usad", "byte_perm", "byte_perm(y)", "umax", "umin", "abs", "brev", "clz", "ffs",
                           "popc", "mul64hi", "umul64hi", "brevll", "clzll", "ffsll", "popcll", "ullmax", "llabs"};
    for (int k = 0; k < 27; ++k)
      checks.exact((std::string(names[k]) + "[" + std::to_string(i) + "]").c_str(), got[i * 27 + k], want[k]);
  }
}

void checkFunctions(Checks &checks) {
  std::vector<double> x = {0.0, -0.0, 0.5, 1.0, 2.0, -1.5, 3.0, -4.0, 0.25, 7.5};
  std::mt19937 random(3);
  std::uniform_real_distribution<double> range(-6.0, 6.0);
  for (int i = 0; i < 60; ++i)
    x.push_back(range(random));
  const std::size_t finite = x.size();
  x.push_back(std::nan(""));
  x.push_back(std::numeric_limits<double>::infinity());
  x.push_back(-std::numeric_limits<double>::infinity());
  const auto n = static_cast<std::int64_t>(x.size());
  auto out = pyk::device_empty<double>({n, 30});
  pyk::kernels::functions(pyk::Launch{(int(n) + 63) / 64, 64}, pyk::to_device(x, {n}), out);
  const std::vector<double> got = fetch(out);
  const double e64 = std::numeric_limits<double>::epsilon(), e32 = std::numeric_limits<float>::epsilon();
  const long double pi = 3.141592653589793238462643383279502884L;
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    const float f = static_cast<float>(v);
    const double *row = &got[i * 30];
    const int classes = (std::isnan(v) ? 1 : 0) + (std::isinf(f) ? 2 : 0) + (std::signbit(v) ? 4 : 0) +
                        (std::isfinite(f) ? 8 : 0);
    checks.equal("isnand + isinff + signbitd + finitef", i, row[22], classes);
    if (std::size_t(i) >= finite)
      continue;
    checks.near("sincosf sin", i, row[0], std::sin(static_cast<long double>(f)), 2, e32);
    checks.near("sincosf cos", i, row[1], std::cos(static_cast<long double>(f)), 2, e32);
    int exponent = 0;
    const double mantissa = std::frexp(v, &exponent);
    checks.equal("frexp mantissa", i, row[2], mantissa);
    checks.equal("frexp exponent", i, row[3], exponent);
    double whole = 0;
    const double fraction = std::modf(v, &whole);
    checks.equal("modf fraction", i, row[4], fraction);
    checks.equal("modf whole", i, row[5], whole);
    int quotient = 0;
    checks.equal("remquof", i, row[6], std::remquo(f, 0.75f, &quotient));
    checks.equal("remquof quotient & 7", i, row[7], quotient & 7);
    checks.near("sincospi sin", i, row[8], std::sin(pi * v), 4, e64);
    checks.near("sincospi cos", i, row[9], std::cos(pi * v), 4, e64);
    checks.near("sinpif", i, row[10], std::sin(pi * f), 2, e32);
    checks.near("rsqrt", i, row[11], 1 / std::sqrt(static_cast<long double>(v)), 2, e64);
    checks.near("rcbrtf", i, row[12], 1 / std::cbrt(static_cast<long double>(f)), 2, e32);
    // The inverses, through the function they invert.
    checks.near("erf(erfinv(y))", i, std::erf(static_cast<long double>(row[13])), v / 8, 4, e64);
    checks.near("erfc(erfcinv(y))", i, std::erfc(static_cast<long double>(row[14])), v / 8 + 1, 4, e64);
    checks.near("normcdf", i, row[15], 0.5L * std::erfc(-v / std::sqrt(2.0L)), 4, e64);
    checks.near("normcdf(normcdfinv(p))", i, 0.5L * std::erfc(-row[16] / std::sqrt(2.0L)), v / 16 + 0.5, 4, e64);
    checks.near("erfcx", i, row[17], std::exp(static_cast<long double>(v) * v) * std::erfc(static_cast<long double>(v)),
                64, e64);
    checks.near("exp10", i, row[18], std::pow(10.0L, static_cast<long double>(v)), 4, e64);
    checks.near("powi(v, 5)", i, row[19], std::pow(static_cast<long double>(v), 5), 8, e64);
    checks.near("powif(f, -3)", i, row[20], std::pow(static_cast<long double>(f), -3), 8, e32);
    checks.equal("saturatef", i, row[21], std::fmin(std::fmax(f, 0.0f), 1.0f));
    checks.equal("ilogb", i, row[23], std::ilogb(v));
    checks.near("jn(2, v)", i, row[24], std::cyl_bessel_j(2.0, std::fabs(v)), 64, e64);
    checks.near("yn(1, |v| + 0.5)", i, row[25], std::cyl_neumann(1.0, std::fabs(v) + 0.5), 64, e64);
    // A GPU's fast versions are approximations (a few ulps of float32).
    checks.near("fast_powf + fast_fdividef", i, row[26], std::pow(std::fabs(f), 1.5L) + f / 4.0L, 64, e32);
    checks.near("cospi", i, row[27], std::cos(pi * v), 4, e64);
    checks.near("hypot + fdim", i, row[28], std::hypot(v, 2.0) + std::fdim(v, 1.0), 2, e64);
    checks.equal("nextafterf", i, row[29], std::nextafter(f, 10.0f));
  }
}

} // namespace

int main() {
  Checks checks;
  checkRounded32(checks);
  checkRounded64(checks);
  checkConversions(checks);
  checkIntegers(checks);
  checkFunctions(checks);
  return checks.finish("libdevice");
}
