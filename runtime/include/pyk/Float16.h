//===- pyk/Float16.h - The 16-bit floats: float16 and bfloat16 ------------===//
//
// pyk::float16 and pyk::bfloat16 are what a kernel's float16 and bfloat16
// are on the host: two bytes, IEEE 754 binary16 as NumPy's float16, CUDA's
// __half and Numba's float16 are, and bfloat16 (float32's sign, exponent
// and top 7 fraction bits) as CUDA's __nv_bfloat16 and Numba's bfloat16
// are, so a std::vector of them goes to and from a kernel's array
// unchanged. Every conversion to them rounds once, to nearest, ties to even
// (a double is not rounded through float, which could round twice), and
// each arithmetic operation rounds its exact result once, as a GPU's f16
// and bf16 instructions and NumPy do: computing in float and rounding the
// result is exact for + - * / because float has more than twice their
// precision plus two bits.
//
// The CPU device's run of the CUDA C++ backend's code uses them as CUDA's
// __half and __nv_bfloat16 (pyk/CudaOnCpu.h), so the two agree on every
// operation; pykc uses them to round constants. C++17, as the generated headers are
// (__builtin_bit_cast: GCC, Clang and MSVC have it).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FLOAT16_H
#define PYK_FLOAT16_H

#include <cstdint>
#include <type_traits>

namespace pyk {

namespace detail {

/// The 16-bit binary float with `FractionBits` fraction bits (and 15 -
/// FractionBits exponent bits) nearest `value`, ties to even; NaN stays a
/// (quiet) NaN, with its sign. binary16 has 10 fraction bits, bfloat16 7.
template <int FractionBits> constexpr std::uint16_t roundToNarrowFloat(double value) {
  constexpr int exponentBits = 15 - FractionBits, bias = (1 << (exponentBits - 1)) - 1, minNormal = 1 - bias;
  constexpr std::uint16_t infinity = static_cast<std::uint16_t>(((1u << exponentBits) - 1) << FractionBits);
  const std::uint64_t bits = __builtin_bit_cast(std::uint64_t, value);
  const auto sign = static_cast<std::uint16_t>((bits >> 48) & 0x8000u);
  const std::uint64_t magnitude = bits & 0x7fff'ffff'ffff'ffffull;
  if (magnitude >= 0x7ff0'0000'0000'0000ull) // infinity, or NaN (kept quiet)
    return sign | infinity | (magnitude == 0x7ff0'0000'0000'0000ull ? 0u : 1u << (FractionBits - 1));
  const int exponent = static_cast<int>(magnitude >> 52) - 1023;
  if (exponent < minNormal - FractionBits - 1) // below half the smallest subnormal: zero
    return sign;
  if (exponent > bias) // past the largest finite
    return sign | infinity;
  const std::uint64_t significand = (magnitude & 0x000f'ffff'ffff'ffffull) | (1ull << 52);
  // Keep FractionBits fraction bits for a normal result, fewer for a subnormal one.
  const int shift = 52 - FractionBits + (exponent >= minNormal ? 0 : minNormal - exponent);
  std::uint64_t kept = significand >> shift;
  const std::uint64_t rest = significand & ((1ull << shift) - 1), halfway = 1ull << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1)))
    ++kept; // a carry out of the fraction moves to the next binade, or to infinity
  const std::uint64_t field =
      exponent >= minNormal ? static_cast<std::uint64_t>(exponent + bias - 1) << FractionBits : 0;
  return sign | static_cast<std::uint16_t>(field + kept);
}

/// The float whose value binary16 `bits` has (exact: float holds every one).
constexpr float float16ToFloat(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu, fraction = bits & 0x3ffu;
  if (exponent == 0x1f) // infinity or NaN, its payload kept
    return __builtin_bit_cast(float, sign | 0x7f80'0000u | (fraction << 13));
  if (exponent == 0) { // zero or subnormal: fraction * 2^-24
    const float magnitude = static_cast<float>(fraction) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  return __builtin_bit_cast(float, sign | ((exponent + 112) << 23) | (fraction << 13));
}

} // namespace detail

/// A 16-bit binary float with `FractionBits` fraction bits: float16 (10)
/// or bfloat16 (7), below.
template <int FractionBits> class NarrowFloat {
public:
  NarrowFloat() = default;
  /// From any number, rounded once to the nearest value.
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  constexpr NarrowFloat(T value) : bits_(detail::roundToNarrowFloat<FractionBits>(static_cast<double>(value))) {}

  /// Exact: a float holds every value (bfloat16's bits are its top half).
  constexpr operator float() const {
    if constexpr (FractionBits == 7)
      return __builtin_bit_cast(float, static_cast<std::uint32_t>(bits_) << 16);
    else
      return detail::float16ToFloat(bits_);
  }

  static constexpr NarrowFloat fromBits(std::uint16_t bits) {
    NarrowFloat value{};
    value.bits_ = bits;
    return value;
  }
  constexpr std::uint16_t bits() const { return bits_; }

  friend constexpr NarrowFloat operator+(NarrowFloat a, NarrowFloat b) { return NarrowFloat(float(a) + float(b)); }
  friend constexpr NarrowFloat operator-(NarrowFloat a, NarrowFloat b) { return NarrowFloat(float(a) - float(b)); }
  friend constexpr NarrowFloat operator*(NarrowFloat a, NarrowFloat b) { return NarrowFloat(float(a) * float(b)); }
  friend constexpr NarrowFloat operator/(NarrowFloat a, NarrowFloat b) { return NarrowFloat(float(a) / float(b)); }
  friend constexpr NarrowFloat operator-(NarrowFloat a) { return fromBits(a.bits_ ^ 0x8000u); }
  friend constexpr NarrowFloat operator+(NarrowFloat a) { return a; }
  NarrowFloat &operator+=(NarrowFloat b) { return *this = *this + b; }
  NarrowFloat &operator-=(NarrowFloat b) { return *this = *this - b; }
  NarrowFloat &operator*=(NarrowFloat b) { return *this = *this * b; }
  NarrowFloat &operator/=(NarrowFloat b) { return *this = *this / b; }

  friend constexpr bool operator==(NarrowFloat a, NarrowFloat b) { return float(a) == float(b); }
  friend constexpr bool operator!=(NarrowFloat a, NarrowFloat b) { return float(a) != float(b); }
  friend constexpr bool operator<(NarrowFloat a, NarrowFloat b) { return float(a) < float(b); }
  friend constexpr bool operator<=(NarrowFloat a, NarrowFloat b) { return float(a) <= float(b); }
  friend constexpr bool operator>(NarrowFloat a, NarrowFloat b) { return float(a) > float(b); }
  friend constexpr bool operator>=(NarrowFloat a, NarrowFloat b) { return float(a) >= float(b); }

private:
  std::uint16_t bits_;
};

/// IEEE binary16: NumPy's float16, CUDA's __half.
using float16 = NarrowFloat<10>;
/// bfloat16: float32's top 16 bits, rounded; Numba's bfloat16, CUDA's
/// __nv_bfloat16.
using bfloat16 = NarrowFloat<7>;

static_assert(sizeof(float16) == 2 && alignof(float16) == 2 && std::is_trivially_copyable_v<float16>,
              "float16 is binary16's two bytes, as NumPy and CUDA lay it out");
static_assert(sizeof(bfloat16) == 2 && alignof(bfloat16) == 2 && std::is_trivially_copyable_v<bfloat16>,
              "bfloat16 is two bytes, as CUDA lays it out");

} // namespace pyk

#endif // PYK_FLOAT16_H
