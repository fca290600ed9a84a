//===- Libdevice.cpp - libdevice's functions for the CPU device -----------===//
//
// A kernel's libdevice.NAME(...) calls __nv_NAME on every target. On a GPU
// that is libdevice's own function, linked into the PTX (or by nvcc); on
// the CPU device it is the one defined here, with the same C signature
// (pyk/LibdeviceFunctions.def, declared below so that a definition that
// strays from it does not compile). What each computes is libdevice's:
//  - the rounded arithmetic and conversions (fadd_rz, fsqrt_ru, fma_rd,
//    int2float_rz, double2float_ru ...) in the hardware's rounding mode of
//    their name, set for the one operation (this file is compiled with
//    -frounding-math, and its operands pass through volatile so that the
//    compiler neither folds nor moves them past the mode's change);
//  - float-to-integer conversions as PTX's cvt: the rounding of their name,
//    a value past the type's range saturated, NaN 0;
//  - the integer intrinsics (mulhi, sad, byte_perm, hadd ...) bit for bit
//    as libdevice defines them;
//  - the math functions through the C library, as the CPU device's math.*
//    are, and those it lacks (sinpi, erfinv, normcdf, rsqrt ...) from their
//    definitions: equal to a GPU's within the functions' error bounds, not
//    bit for bit; the fast_ versions are the accurate functions.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <bit>
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <math.h>
#include <tuple>
#include <type_traits>

// Exported: the CPU device's kernels may be in a shared library of their own.
extern "C" {
#define PYK_LIBDEVICE(name, result, params) __attribute__((visibility("default"))) result __nv_##name params;
#include "pyk/LibdeviceFunctions.def"
#undef PYK_LIBDEVICE
}

namespace {

/// The hardware's rounding mode, for the life of the object.
class RoundingMode {
public:
  explicit RoundingMode(int mode) : saved_(std::fegetround()) { std::fesetround(mode); }
  ~RoundingMode() { std::fesetround(saved_); }
  RoundingMode(const RoundingMode &) = delete;
  RoundingMode &operator=(const RoundingMode &) = delete;

private:
  int saved_;
};

/// `operation(operands...)` in rounding mode `mode`: the operands are read
/// and the result written through volatile, inside the mode's scope.
template <typename Operation, typename... T> auto inMode(int mode, Operation operation, T... operands) {
  RoundingMode scope(mode);
  const std::tuple<volatile T...> held(operands...);
  volatile auto result = std::apply([&](auto &...value) { return operation(T(value)...); }, held);
  return result;
}

constexpr int nearest = FE_TONEAREST, zero = FE_TOWARDZERO, up = FE_UPWARD, down = FE_DOWNWARD;

/// PTX's cvt from a float to integer type I: `rounded` is the float
/// already rounded to an integer; NaN gives 0, and what lies past I's
/// range its nearest end.
template <typename I, typename F> I saturate(F rounded) {
  if (std::isnan(rounded))
    return 0;
  // Both ends are powers of two (or 0), exact in F.
  constexpr int bits = std::numeric_limits<I>::digits;
  const F lowest = std::is_signed_v<I> ? -std::ldexp(F(1), bits) : F(0);
  const F pastHighest = std::ldexp(F(1), bits);
  if (rounded <= lowest)
    return std::numeric_limits<I>::min();
  if (rounded >= pastHighest)
    return std::numeric_limits<I>::max();
  return static_cast<I>(rounded);
}

/// x rounded to an integer in `mode` (rn: to nearest, ties to even).
template <typename F> F roundToInteger(F x, int mode) {
  switch (mode) {
  case zero:
    return std::trunc(x);
  case up:
    return std::ceil(x);
  case down:
    return std::floor(x);
  default:
    return std::nearbyint(x);
  }
}

template <typename I, typename F> I toInteger(F x, int mode) { return saturate<I>(roundToInteger(x, mode)); }

/// The bits of an unsigned value in libdevice's signed type.
template <typename S, typename U> S asSigned(U value) { return std::bit_cast<S>(value); }

// sinpi and cospi: x = n/2 + r with r in [-1/4, 1/4] (both exact), then the
// quadrant's function of pi*r, in double.
double sinOrCosPi(double x, bool cosine) {
  if (!std::isfinite(x))
    return std::numeric_limits<double>::quiet_NaN();
  if (std::fabs(x) >= 0x1p52) // an integer (even past 2^53)
    return cosine ? (std::fabs(x) >= 0x1p53 || std::fmod(x, 2.0) == 0 ? 1.0 : -1.0) : std::copysign(0.0, x);
  const double n = std::nearbyint(2 * x);
  const double r = x - n / 2;
  const long long quadrant = ((static_cast<long long>(n) % 4) + 4 + (cosine ? 1 : 0)) % 4;
  const double pi = 3.141592653589793238462643383279502884;
  double value;
  switch (quadrant) {
  case 0:
    value = std::sin(pi * r);
    break;
  case 1:
    value = std::cos(pi * r);
    break;
  case 2:
    value = -std::sin(pi * r);
    break;
  default:
    value = -std::cos(pi * r);
    break;
  }
  // An integer x: sinpi is 0 with x's sign; n/2 + 1/2: cospi is +0.
  if (value == 0)
    return cosine ? 0.0 : std::copysign(0.0, x);
  return value;
}

// erfinv and erfcinv: Winitzki's approximation, then Halley's method on
// erf(x) = y, or on erfc(|x|) = 1 - |y| where erf is near 1 (1 - |y| is
// exact there), each step about tripling the correct digits.
double halley(double x, double target, bool complement) {
  const double twoOverRootPi = 1.1283791670955126;
  for (int step = 0; step < 4; ++step) {
    const double f = (complement ? std::erfc(x) : std::erf(x)) - target;
    const double slope = (complement ? -twoOverRootPi : twoOverRootPi) * std::exp(-x * x);
    if (slope == 0 || f == 0)
      break;
    const double u = f / slope;
    x -= u / (1 + x * u);
  }
  return x;
}

double erfinvFromGuess(double y) {
  const double a = 0.147, pi = 3.141592653589793;
  const double l = std::log1p(-y * y);
  const double b = 2 / (pi * a) + l / 2;
  return std::copysign(std::sqrt(std::sqrt(b * b - l / a) - b), y);
}

double erfinv(double y) {
  if (std::isnan(y) || std::fabs(y) > 1)
    return std::numeric_limits<double>::quiet_NaN();
  if (std::fabs(y) == 1)
    return std::copysign(std::numeric_limits<double>::infinity(), y);
  if (y == 0)
    return y;
  const double guess = erfinvFromGuess(y);
  if (std::fabs(y) <= 0.5)
    return halley(guess, y, false);
  return std::copysign(halley(std::fabs(guess), 1 - std::fabs(y), true), y);
}

/// erfc(x) = c for c in (0, 2).
double erfcinv(double c) {
  if (std::isnan(c) || c < 0 || c > 2)
    return std::numeric_limits<double>::quiet_NaN();
  if (c == 0)
    return std::numeric_limits<double>::infinity();
  if (c == 2)
    return -std::numeric_limits<double>::infinity();
  if (c > 1)
    return -erfcinv(2 - c);
  if (c >= 0.5)
    return erfinv(1 - c);
  // erfc(x) = c, small c: the guess from erf's, with 1 - c near 1.
  double guess = c > 1e-300 ? erfinvFromGuess(1 - c) : 26.0;
  if (!std::isfinite(guess))
    guess = std::sqrt(-std::log(c));
  return halley(guess, c, true);
}

/// exp(x^2) erfc(x), which stays finite where erfc underflows.
double erfcx(double x) {
  if (std::isnan(x))
    return x;
  if (x < 26) {
    const long double wide = x;
    return static_cast<double>(std::exp(wide * wide) * std::erfc(wide));
  }
  // The asymptotic series, to within double's precision past 26.
  const double rootPi = 1.7724538509055160273, inverse = 1 / (2 * x * x);
  return (1 - inverse * (1 - 3 * inverse * (1 - 5 * inverse))) / (x * rootPi);
}

/// libdevice's powi: x to the |n| by squaring, and its reciprocal for n < 0.
template <typename F> F powi(F x, int n) {
  uint32_t e = n < 0 ? 0u - static_cast<uint32_t>(n) : static_cast<uint32_t>(n);
  F result = 1;
  volatile F base = x;
  for (;;) {
    if (e & 1)
      result = result * base;
    e >>= 1;
    if (e == 0)
      break;
    base = base * base;
  }
  return n < 0 ? 1 / result : result;
}

/// The high 64 bits of the 128-bit product a * b.
uint64_t highProduct(uint64_t a, uint64_t b) {
  const uint64_t aLow = a & 0xffffffffu, aHigh = a >> 32, bLow = b & 0xffffffffu, bHigh = b >> 32;
  const uint64_t low = aLow * bLow, cross1 = aHigh * bLow, cross2 = aLow * bHigh;
  const uint64_t middle = (low >> 32) + (cross1 & 0xffffffffu) + (cross2 & 0xffffffffu);
  return aHigh * bHigh + (cross1 >> 32) + (cross2 >> 32) + (middle >> 32);
}

/// PTX's prmt in its default mode: byte i of the result is byte
/// (selector >> 4i) & 7 of the eight bytes {b, a} (a's lowest first).
uint32_t bytePermute(uint32_t a, uint32_t b, uint32_t selector) {
  const uint64_t bytes = (static_cast<uint64_t>(b) << 32) | a;
  uint32_t result = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned which = (selector >> (4 * i)) & 7;
    result |= static_cast<uint32_t>((bytes >> (8 * which)) & 0xff) << (8 * i);
  }
  return result;
}

} // namespace

extern "C" {

// --- Rounded arithmetic -----------------------------------------------------
// define(PREFIX_rn, nearest, ...) and the same for _rz, _ru and _rd.
#define PYK_IN_EACH_MODE(define, prefix, ...)                                                                        \
  define(prefix##_rn, nearest, __VA_ARGS__) define(prefix##_rz, zero, __VA_ARGS__)                                    \
      define(prefix##_ru, up, __VA_ARGS__) define(prefix##_rd, down, __VA_ARGS__)

#define PYK_ROUNDED_BINARY(name, mode, T, op)                                                                         \
  T __nv_##name(T a, T b) {                                                                                           \
    return inMode(mode, [](T x, T y) { return x op y; }, a, b);                                                       \
  }
PYK_IN_EACH_MODE(PYK_ROUNDED_BINARY, fadd, float, +)
PYK_IN_EACH_MODE(PYK_ROUNDED_BINARY, fsub, float, -)
PYK_IN_EACH_MODE(PYK_ROUNDED_BINARY, fmul, float, *)
PYK_IN_EACH_MODE(PYK_ROUNDED_BINARY, fdiv, float, /)
PYK_IN_EACH_MODE(PYK_ROUNDED_BINARY, dadd, double, +)
PYK_IN_EACH_MODE(PYK_ROUNDED_BINARY, dmul, double, *)
PYK_IN_EACH_MODE(PYK_ROUNDED_BINARY, ddiv, double, /)
#undef PYK_ROUNDED_BINARY

#define PYK_ROUNDED_UNARY(name, mode, T, expression)                                                                  \
  T __nv_##name(T a) {                                                                                                \
    return inMode(mode, [](T x) { return expression; }, a);                                                           \
  }
PYK_IN_EACH_MODE(PYK_ROUNDED_UNARY, frcp, float, 1 / x)
PYK_IN_EACH_MODE(PYK_ROUNDED_UNARY, fsqrt, float, std::sqrt(x))
PYK_IN_EACH_MODE(PYK_ROUNDED_UNARY, drcp, double, 1 / x)
PYK_IN_EACH_MODE(PYK_ROUNDED_UNARY, dsqrt, double, std::sqrt(x))
#undef PYK_ROUNDED_UNARY

#define PYK_ROUNDED_FMA(name, mode, T)                                                                                \
  T __nv_##name(T a, T b, T c) {                                                                                      \
    return inMode(mode, [](T x, T y, T z) { return std::fma(x, y, z); }, a, b, c);                                   \
  }
PYK_IN_EACH_MODE(PYK_ROUNDED_FMA, fmaf, float)
PYK_IN_EACH_MODE(PYK_ROUNDED_FMA, fma, double)
#undef PYK_ROUNDED_FMA

// 1/sqrt(x) rounded once: the double's value is within 2^-53 of the exact
// one, so rounding it to float is correct but where it lies within that of
// a tie between two floats.
float __nv_frsqrt_rn(float x) { return static_cast<float>(1 / std::sqrt(static_cast<double>(x))); }

// --- Conversions ------------------------------------------------------------
#define PYK_TO_INTEGER(name, mode, F, I, Bits)                                                                        \
  Bits __nv_##name(F x) { return asSigned<Bits>(toInteger<I>(x, mode)); }
PYK_IN_EACH_MODE(PYK_TO_INTEGER, float2int, float, int32_t, int)
PYK_IN_EACH_MODE(PYK_TO_INTEGER, float2uint, float, uint32_t, int)
PYK_IN_EACH_MODE(PYK_TO_INTEGER, float2ll, float, int64_t, long long)
PYK_IN_EACH_MODE(PYK_TO_INTEGER, float2ull, float, uint64_t, long long)
PYK_IN_EACH_MODE(PYK_TO_INTEGER, double2int, double, int32_t, int)
PYK_IN_EACH_MODE(PYK_TO_INTEGER, double2uint, double, uint32_t, int)
PYK_IN_EACH_MODE(PYK_TO_INTEGER, double2ll, double, int64_t, long long)
PYK_IN_EACH_MODE(PYK_TO_INTEGER, double2ull, double, uint64_t, long long)
#undef PYK_TO_INTEGER

#define PYK_TO_FLOAT(name, mode, From, Value, To)                                                                     \
  To __nv_##name(From x) {                                                                                            \
    return inMode(mode, [](Value v) { return static_cast<To>(v); }, static_cast<Value>(x));                           \
  }
PYK_IN_EACH_MODE(PYK_TO_FLOAT, int2float, int, int32_t, float)
PYK_IN_EACH_MODE(PYK_TO_FLOAT, uint2float, int, uint32_t, float)
PYK_IN_EACH_MODE(PYK_TO_FLOAT, ll2float, long long, int64_t, float)
PYK_IN_EACH_MODE(PYK_TO_FLOAT, ull2float, long long, uint64_t, float)
PYK_IN_EACH_MODE(PYK_TO_FLOAT, ll2double, long long, int64_t, double)
PYK_IN_EACH_MODE(PYK_TO_FLOAT, ull2double, long long, uint64_t, double)
PYK_IN_EACH_MODE(PYK_TO_FLOAT, double2float, double, double, float)
PYK_TO_FLOAT(int2double_rn, nearest, int, int32_t, double)
PYK_TO_FLOAT(uint2double_rn, nearest, int, uint32_t, double)
#undef PYK_TO_FLOAT
#undef PYK_IN_EACH_MODE

long long __nv_llrint(double x) { return toInteger<int64_t>(x, nearest); }
long long __nv_llrintf(float x) { return toInteger<int64_t>(x, nearest); }
// Half away from zero: libdevice adds a half toward zero and truncates
// (cvt.rzi: NaN 0); the float version gives INT64_MIN for NaN.
long long __nv_llround(double x) {
  return saturate<int64_t>(std::trunc(inMode(zero, [](double v, double h) { return v + h; }, x,
                                              std::copysign(0.5, x))));
}
long long __nv_llroundf(float x) {
  if (std::isnan(x))
    return std::numeric_limits<int64_t>::min();
  return saturate<int64_t>(std::round(x));
}

unsigned short __nv_float2half_rn(float x) { return std::bit_cast<unsigned short>(static_cast<_Float16>(x)); }
float __nv_half2float(unsigned short h) { return static_cast<float>(std::bit_cast<_Float16>(h)); }

int __nv_float_as_int(float x) { return std::bit_cast<int>(x); }
float __nv_int_as_float(int x) { return std::bit_cast<float>(x); }
long long __nv_double_as_longlong(double x) { return std::bit_cast<long long>(x); }
double __nv_longlong_as_double(long long x) { return std::bit_cast<double>(x); }
int __nv_double2hiint(double x) { return static_cast<int>(std::bit_cast<uint64_t>(x) >> 32); }
int __nv_double2loint(double x) { return static_cast<int>(std::bit_cast<uint64_t>(x) & 0xffffffffu); }
double __nv_hiloint2double(int hi, int lo) {
  return std::bit_cast<double>((static_cast<uint64_t>(static_cast<uint32_t>(hi)) << 32) | static_cast<uint32_t>(lo));
}

// --- Integer intrinsics -----------------------------------------------------
int __nv_abs(int x) { return x < 0 ? asSigned<int>(0u - static_cast<uint32_t>(x)) : x; }
long long __nv_llabs(long long x) { return x < 0 ? asSigned<long long>(0ull - static_cast<uint64_t>(x)) : x; }
int __nv_max(int a, int b) { return std::max(a, b); }
int __nv_min(int a, int b) { return std::min(a, b); }
long long __nv_llmax(long long a, long long b) { return std::max(a, b); }
long long __nv_llmin(long long a, long long b) { return std::min(a, b); }
int __nv_umax(int a, int b) { return asSigned<int>(std::max(static_cast<uint32_t>(a), static_cast<uint32_t>(b))); }
int __nv_umin(int a, int b) { return asSigned<int>(std::min(static_cast<uint32_t>(a), static_cast<uint32_t>(b))); }
long long __nv_ullmax(long long a, long long b) {
  return asSigned<long long>(std::max(static_cast<uint64_t>(a), static_cast<uint64_t>(b)));
}
long long __nv_ullmin(long long a, long long b) {
  return asSigned<long long>(std::min(static_cast<uint64_t>(a), static_cast<uint64_t>(b)));
}
int __nv_brev(int x) {
  uint32_t bits = static_cast<uint32_t>(x), reversed = 0;
  for (int i = 0; i < 32; ++i, bits >>= 1)
    reversed = (reversed << 1) | (bits & 1);
  return asSigned<int>(reversed);
}
long long __nv_brevll(long long x) {
  uint64_t bits = static_cast<uint64_t>(x), reversed = 0;
  for (int i = 0; i < 64; ++i, bits >>= 1)
    reversed = (reversed << 1) | (bits & 1);
  return asSigned<long long>(reversed);
}
int __nv_clz(int x) { return std::countl_zero(static_cast<uint32_t>(x)); }
int __nv_clzll(long long x) { return std::countl_zero(static_cast<uint64_t>(x)); }
int __nv_ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<uint32_t>(x)) + 1; }
int __nv_ffsll(long long x) { return x == 0 ? 0 : std::countr_zero(static_cast<uint64_t>(x)) + 1; }
int __nv_popc(int x) { return std::popcount(static_cast<uint32_t>(x)); }
int __nv_popcll(long long x) { return std::popcount(static_cast<uint64_t>(x)); }
int __nv_mulhi(int a, int b) { return static_cast<int>((static_cast<int64_t>(a) * b) >> 32); }
int __nv_umulhi(int a, int b) {
  return asSigned<int>(static_cast<uint32_t>((uint64_t{static_cast<uint32_t>(a)} * static_cast<uint32_t>(b)) >> 32));
}
long long __nv_umul64hi(long long a, long long b) {
  return asSigned<long long>(highProduct(static_cast<uint64_t>(a), static_cast<uint64_t>(b)));
}
// The signed product's high half is the unsigned one's less each operand
// that the other's sign bit counted 2^64 times.
long long __nv_mul64hi(long long a, long long b) {
  uint64_t high = highProduct(static_cast<uint64_t>(a), static_cast<uint64_t>(b));
  if (a < 0)
    high -= static_cast<uint64_t>(b);
  if (b < 0)
    high -= static_cast<uint64_t>(a);
  return asSigned<long long>(high);
}
// The low 24 bits of each, sign- or zero-extended; the product's low 32.
int __nv_mul24(int a, int b) {
  const int64_t x = asSigned<int32_t>(static_cast<uint32_t>(a) << 8) >> 8;
  const int64_t y = asSigned<int32_t>(static_cast<uint32_t>(b) << 8) >> 8;
  return asSigned<int>(static_cast<uint32_t>(x * y));
}
int __nv_umul24(int a, int b) {
  const uint64_t x = static_cast<uint32_t>(a) & 0xffffffu, y = static_cast<uint32_t>(b) & 0xffffffu;
  return asSigned<int>(static_cast<uint32_t>(x * y));
}
// (a + b) >> 1 and (a + b + 1) >> 1 without overflow.
int __nv_hadd(int a, int b) { return static_cast<int>((static_cast<int64_t>(a) + b) >> 1); }
int __nv_rhadd(int a, int b) { return static_cast<int>((static_cast<int64_t>(a) + b + 1) >> 1); }
int __nv_uhadd(int a, int b) {
  return asSigned<int>(static_cast<uint32_t>((uint64_t{static_cast<uint32_t>(a)} + static_cast<uint32_t>(b)) >> 1));
}
int __nv_urhadd(int a, int b) {
  return asSigned<int>(
      static_cast<uint32_t>((uint64_t{static_cast<uint32_t>(a)} + static_cast<uint32_t>(b) + 1) >> 1));
}
// |a - b| + c, in 32 bits.
int __nv_sad(int a, int b, int c) {
  const uint32_t difference = a < b ? static_cast<uint32_t>(b) - static_cast<uint32_t>(a)
                                    : static_cast<uint32_t>(a) - static_cast<uint32_t>(b);
  return asSigned<int>(difference + static_cast<uint32_t>(c));
}
int __nv_usad(int a, int b, int c) {
  const uint32_t x = static_cast<uint32_t>(a), y = static_cast<uint32_t>(b);
  return asSigned<int>((x < y ? y - x : x - y) + static_cast<uint32_t>(c));
}
int __nv_byte_perm(int a, int b, int selector) {
  return asSigned<int>(bytePermute(static_cast<uint32_t>(a), static_cast<uint32_t>(b),
                                   static_cast<uint32_t>(selector) & 0x7777u));
}

// --- Classification ---------------------------------------------------------
int __nv_isnanf(float x) { return std::isnan(x) ? 1 : 0; }
int __nv_isnand(double x) { return std::isnan(x) ? 1 : 0; }
int __nv_isinff(float x) { return std::isinf(x) ? 1 : 0; }
int __nv_isinfd(double x) { return std::isinf(x) ? 1 : 0; }
int __nv_finitef(float x) { return std::isfinite(x) ? 1 : 0; }
int __nv_isfinited(double x) { return std::isfinite(x) ? 1 : 0; }
int __nv_signbitf(float x) { return std::signbit(x) ? 1 : 0; }
int __nv_signbitd(double x) { return std::signbit(x) ? 1 : 0; }

// --- Math functions ---------------------------------------------------------
#define PYK_UNARY_MATH(name, function)                                                                                \
  double __nv_##name(double x) { return function(x); }                                                                \
  float __nv_##name##f(float x) { return function(x); }
PYK_UNARY_MATH(acos, std::acos)
PYK_UNARY_MATH(acosh, std::acosh)
PYK_UNARY_MATH(asin, std::asin)
PYK_UNARY_MATH(asinh, std::asinh)
PYK_UNARY_MATH(atan, std::atan)
PYK_UNARY_MATH(atanh, std::atanh)
PYK_UNARY_MATH(cbrt, std::cbrt)
PYK_UNARY_MATH(ceil, std::ceil)
PYK_UNARY_MATH(cos, std::cos)
PYK_UNARY_MATH(cosh, std::cosh)
PYK_UNARY_MATH(erf, std::erf)
PYK_UNARY_MATH(erfc, std::erfc)
PYK_UNARY_MATH(exp, std::exp)
PYK_UNARY_MATH(exp2, std::exp2)
PYK_UNARY_MATH(expm1, std::expm1)
PYK_UNARY_MATH(fabs, std::fabs)
PYK_UNARY_MATH(floor, std::floor)
PYK_UNARY_MATH(lgamma, std::lgamma)
PYK_UNARY_MATH(log, std::log)
PYK_UNARY_MATH(log10, std::log10)
PYK_UNARY_MATH(log1p, std::log1p)
PYK_UNARY_MATH(log2, std::log2)
PYK_UNARY_MATH(logb, std::logb)
PYK_UNARY_MATH(nearbyint, std::nearbyint)
PYK_UNARY_MATH(rint, std::rint)
PYK_UNARY_MATH(round, std::round)
PYK_UNARY_MATH(sin, std::sin)
PYK_UNARY_MATH(sinh, std::sinh)
PYK_UNARY_MATH(sqrt, std::sqrt)
PYK_UNARY_MATH(tan, std::tan)
PYK_UNARY_MATH(tanh, std::tanh)
PYK_UNARY_MATH(tgamma, std::tgamma)
PYK_UNARY_MATH(trunc, std::trunc)
#undef PYK_UNARY_MATH

#define PYK_BINARY_MATH(name, function)                                                                               \
  double __nv_##name(double x, double y) { return function(x, y); }                                                  \
  float __nv_##name##f(float x, float y) { return function(x, y); }
PYK_BINARY_MATH(atan2, std::atan2)
PYK_BINARY_MATH(copysign, std::copysign)
PYK_BINARY_MATH(fdim, std::fdim)
PYK_BINARY_MATH(fmax, std::fmax)
PYK_BINARY_MATH(fmin, std::fmin)
PYK_BINARY_MATH(fmod, std::fmod)
PYK_BINARY_MATH(hypot, std::hypot)
PYK_BINARY_MATH(nextafter, std::nextafter)
PYK_BINARY_MATH(pow, std::pow)
PYK_BINARY_MATH(remainder, std::remainder)
#undef PYK_BINARY_MATH

double __nv_fma(double x, double y, double z) { return std::fma(x, y, z); }
float __nv_fmaf(float x, float y, float z) { return std::fma(x, y, z); }
double __nv_ldexp(double x, int e) { return std::ldexp(x, e); }
float __nv_ldexpf(float x, int e) { return std::ldexp(x, e); }
double __nv_scalbn(double x, int e) { return std::scalbn(x, e); }
float __nv_scalbnf(float x, int e) { return std::scalbn(x, e); }
int __nv_ilogb(double x) { return std::ilogb(x); }
int __nv_ilogbf(float x) { return std::ilogb(x); }
double __nv_frexp(double x, int *e) { return std::frexp(x, e); }
float __nv_frexpf(float x, int *e) { return std::frexp(x, e); }
double __nv_modf(double x, double *whole) { return std::modf(x, whole); }
float __nv_modff(float x, float *whole) { return std::modf(x, whole); }
double __nv_remquo(double x, double y, int *quotient) { return std::remquo(x, y, quotient); }
float __nv_remquof(float x, float y, int *quotient) { return std::remquo(x, y, quotient); }
double __nv_exp10(double x) { return ::exp10(x); }
float __nv_exp10f(float x) { return ::exp10f(x); }
double __nv_j0(double x) { return ::j0(x); }
float __nv_j0f(float x) { return ::j0f(x); }
double __nv_j1(double x) { return ::j1(x); }
float __nv_j1f(float x) { return ::j1f(x); }
double __nv_jn(int n, double x) { return ::jn(n, x); }
float __nv_jnf(int n, float x) { return ::jnf(n, x); }
double __nv_y0(double x) { return ::y0(x); }
float __nv_y0f(float x) { return ::y0f(x); }
double __nv_y1(double x) { return ::y1(x); }
float __nv_y1f(float x) { return ::y1f(x); }
double __nv_yn(int n, double x) { return ::yn(n, x); }
float __nv_ynf(int n, float x) { return ::ynf(n, x); }
void __nv_sincos(double x, double *s, double *c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
void __nv_sincosf(float x, float *s, float *c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
double __nv_powi(double x, int n) { return powi(x, n); }
float __nv_powif(float x, int n) { return powi(x, n); }

// Those the C library lacks.
double __nv_rsqrt(double x) { return 1 / std::sqrt(x); }
float __nv_rsqrtf(float x) { return static_cast<float>(1 / std::sqrt(static_cast<double>(x))); }
double __nv_rcbrt(double x) { return 1 / std::cbrt(x); }
float __nv_rcbrtf(float x) { return static_cast<float>(1 / std::cbrt(static_cast<double>(x))); }
double __nv_sinpi(double x) { return sinOrCosPi(x, false); }
float __nv_sinpif(float x) { return static_cast<float>(sinOrCosPi(x, false)); }
double __nv_cospi(double x) { return sinOrCosPi(x, true); }
float __nv_cospif(float x) { return static_cast<float>(sinOrCosPi(x, true)); }
void __nv_sincospi(double x, double *s, double *c) {
  *s = sinOrCosPi(x, false);
  *c = sinOrCosPi(x, true);
}
void __nv_sincospif(float x, float *s, float *c) {
  *s = static_cast<float>(sinOrCosPi(x, false));
  *c = static_cast<float>(sinOrCosPi(x, true));
}
double __nv_erfinv(double x) { return erfinv(x); }
float __nv_erfinvf(float x) { return static_cast<float>(erfinv(x)); }
double __nv_erfcinv(double x) { return erfcinv(x); }
float __nv_erfcinvf(float x) { return static_cast<float>(erfcinv(x)); }
double __nv_erfcx(double x) { return erfcx(x); }
float __nv_erfcxf(float x) { return static_cast<float>(erfcx(x)); }
double __nv_normcdf(double x) { return 0.5 * std::erfc(-x / 1.4142135623730950488); }
float __nv_normcdff(float x) { return static_cast<float>(__nv_normcdf(x)); }
double __nv_normcdfinv(double p) { return -1.4142135623730950488 * erfcinv(2 * p); }
float __nv_normcdfinvf(float p) { return static_cast<float>(__nv_normcdfinv(p)); }
float __nv_saturatef(float x) { return std::isnan(x) ? 0.0f : std::clamp(x, 0.0f, 1.0f); }

// fastmath's approximations: the accurate functions here, as CUDA C++'s
// __expf and friends are on the CPU device (pyk/CudaOnCpu.h).
float __nv_fast_cosf(float x) { return std::cos(x); }
float __nv_fast_exp10f(float x) { return ::exp10f(x); }
float __nv_fast_expf(float x) { return std::exp(x); }
float __nv_fast_fdividef(float x, float y) { return x / y; }
float __nv_fast_log10f(float x) { return std::log10(x); }
float __nv_fast_log2f(float x) { return std::log2(x); }
float __nv_fast_logf(float x) { return std::log(x); }
float __nv_fast_powf(float x, float y) { return std::pow(x, y); }
void __nv_fast_sincosf(float x, float *s, float *c) { __nv_sincosf(x, s, c); }
float __nv_fast_sinf(float x) { return std::sin(x); }
float __nv_fast_tanf(float x) { return std::tan(x); }

} // extern "C"
