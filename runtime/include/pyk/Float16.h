//===- pyk/Float16.h - IEEE half precision, as NumPy's float16 ------------===//
//
// pyk::float16 is what a kernel's float16 is on the host: two bytes in
// IEEE 754 binary16, as NumPy's float16, CUDA's __half and Numba's float16
// are, so a std::vector<pyk::float16> goes to and from a float16[:] array
// unchanged. Every conversion to it rounds once, to nearest, ties to even
// (a double is not rounded through float, which could round twice), and
// each arithmetic operation rounds its exact result once, as a GPU's f16
// instructions and NumPy do: computing in float and rounding to half is
// exact for + - * / because float has more than twice half's precision
// plus two bits.
//
// The CPU device's run of the CUDA C++ backend's code uses it as CUDA's
// __half (pyk/CudaOnCpu.h), so the two agree on every operation; pykc uses
// it to round float16 constants. C++17, as the generated headers are
// (__builtin_bit_cast: GCC, Clang and MSVC have it).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FLOAT16_H
#define PYK_FLOAT16_H

#include <cstdint>
#include <type_traits>

namespace pyk {

namespace detail {

/// The binary16 nearest `value` (ties to even); NaN stays NaN, with its sign.
constexpr std::uint16_t roundToFloat16(double value) {
  const std::uint64_t bits = __builtin_bit_cast(std::uint64_t, value);
  const auto sign = static_cast<std::uint16_t>((bits >> 48) & 0x8000u);
  const std::uint64_t magnitude = bits & 0x7fff'ffff'ffff'ffffull;
  if (magnitude >= 0x7ff0'0000'0000'0000ull) // infinity, or NaN (kept quiet)
    return sign | (magnitude == 0x7ff0'0000'0000'0000ull ? 0x7c00u : 0x7e00u);
  const int exponent = static_cast<int>(magnitude >> 52) - 1023;
  if (exponent < -25) // below half the smallest subnormal: rounds to zero
    return sign;
  if (exponent >= 16) // 65536 or more: past the largest finite, 65504
    return sign | 0x7c00u;
  const std::uint64_t significand = (magnitude & 0x000f'ffff'ffff'ffffull) | (1ull << 52);
  // Keep 10 fraction bits for a normal result, fewer for a subnormal one.
  const int shift = exponent >= -14 ? 42 : 42 + (-14 - exponent);
  std::uint64_t kept = significand >> shift;
  const std::uint64_t rest = significand & ((1ull << shift) - 1), halfway = 1ull << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1)))
    ++kept; // a carry out of the fraction moves to the next binade, or to infinity
  const auto field = exponent >= -14 ? static_cast<std::uint64_t>(exponent + 14) << 10 : 0;
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

/// IEEE binary16: NumPy's float16, CUDA's __half.
class float16 {
public:
  float16() = default;
  /// From any number, rounded once to the nearest float16.
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  constexpr float16(T value) : bits_(detail::roundToFloat16(static_cast<double>(value))) {}

  /// Exact: every float16 is a float.
  constexpr operator float() const { return detail::float16ToFloat(bits_); }

  static constexpr float16 fromBits(std::uint16_t bits) {
    float16 value{};
    value.bits_ = bits;
    return value;
  }
  constexpr std::uint16_t bits() const { return bits_; }

  friend constexpr float16 operator+(float16 a, float16 b) { return float16(float(a) + float(b)); }
  friend constexpr float16 operator-(float16 a, float16 b) { return float16(float(a) - float(b)); }
  friend constexpr float16 operator*(float16 a, float16 b) { return float16(float(a) * float(b)); }
  friend constexpr float16 operator/(float16 a, float16 b) { return float16(float(a) / float(b)); }
  friend constexpr float16 operator-(float16 a) { return fromBits(a.bits_ ^ 0x8000u); }
  friend constexpr float16 operator+(float16 a) { return a; }
  float16 &operator+=(float16 b) { return *this = *this + b; }
  float16 &operator-=(float16 b) { return *this = *this - b; }
  float16 &operator*=(float16 b) { return *this = *this * b; }
  float16 &operator/=(float16 b) { return *this = *this / b; }

  friend constexpr bool operator==(float16 a, float16 b) { return float(a) == float(b); }
  friend constexpr bool operator!=(float16 a, float16 b) { return float(a) != float(b); }
  friend constexpr bool operator<(float16 a, float16 b) { return float(a) < float(b); }
  friend constexpr bool operator<=(float16 a, float16 b) { return float(a) <= float(b); }
  friend constexpr bool operator>(float16 a, float16 b) { return float(a) > float(b); }
  friend constexpr bool operator>=(float16 a, float16 b) { return float(a) >= float(b); }

private:
  std::uint16_t bits_;
};

static_assert(sizeof(float16) == 2 && alignof(float16) == 2 && std::is_trivially_copyable_v<float16>,
              "float16 is binary16's two bytes, as NumPy and CUDA lay it out");

} // namespace pyk

#endif // PYK_FLOAT16_H
