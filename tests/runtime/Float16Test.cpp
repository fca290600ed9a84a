// pyk::float16 against the compiler's own binary16 (_Float16, which GCC and
// Clang round correctly): every value converts back exactly, conversions
// from float and double round once to nearest-even, and arithmetic rounds
// each exact result once. pyk::bfloat16 against float32's bits rounded by
// hand, and the nearer of a double's two bfloat16 neighbours.
#include "pyk/Float16.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace {

std::uint16_t bitsOf(_Float16 h) { return std::bit_cast<std::uint16_t>(h); }
_Float16 halfOf(std::uint16_t bits) { return std::bit_cast<_Float16>(bits); }
bool isNanBits(std::uint16_t bits) { return (bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu) != 0; }

TEST(Float16Test, EveryValueConvertsToFloatExactly) {
  for (std::uint32_t bits = 0; bits <= 0xffffu; ++bits) {
    const float ours = pyk::float16::fromBits(static_cast<std::uint16_t>(bits));
    const float reference = static_cast<float>(halfOf(static_cast<std::uint16_t>(bits)));
    if (isNanBits(static_cast<std::uint16_t>(bits)))
      EXPECT_TRUE(std::isnan(ours)) << std::hex << bits;
    else
      EXPECT_EQ(std::bit_cast<std::uint32_t>(ours), std::bit_cast<std::uint32_t>(reference)) << std::hex << bits;
  }
}

TEST(Float16Test, EveryValueRoundTripsThroughFloatAndDouble) {
  for (std::uint32_t bits = 0; bits <= 0xffffu; ++bits) {
    const auto h = pyk::float16::fromBits(static_cast<std::uint16_t>(bits));
    if (isNanBits(h.bits()))
      continue;
    EXPECT_EQ(pyk::float16(float(h)).bits(), bits);
    EXPECT_EQ(pyk::float16(static_cast<double>(float(h))).bits(), bits);
  }
}

TEST(Float16Test, DoublesRoundOnceToNearestEven) {
  // Midpoints and their neighbours in every binade, where rounding through
  // float first would round twice; then random doubles over half's range.
  std::mt19937_64 random(20261203);
  std::uniform_int_distribution<int> exponent(-27, 17);
  std::uniform_real_distribution<double> significand(1.0, 2.0);
  std::int64_t checked = 0;
  for (std::uint32_t bits = 0; bits < 0x7c00u; ++bits) {
    const double low = float(pyk::float16::fromBits(static_cast<std::uint16_t>(bits)));
    const double high = float(pyk::float16::fromBits(static_cast<std::uint16_t>(bits + 1)));
    const double middle = (low + high) / 2;
    for (double value : {middle, std::nextafter(middle, 0.0), std::nextafter(middle, 1e9),
                         middle + (high - low) * 0x1p-30, -middle}) {
      EXPECT_EQ(pyk::float16(value).bits(), bitsOf(static_cast<_Float16>(value))) << value;
      ++checked;
    }
  }
  for (int i = 0; i < 200000; ++i) {
    const double value = std::ldexp(significand(random), exponent(random)) * (i % 2 ? -1 : 1);
    EXPECT_EQ(pyk::float16(value).bits(), bitsOf(static_cast<_Float16>(value))) << value;
    EXPECT_EQ(pyk::float16(static_cast<float>(value)).bits(),
              bitsOf(static_cast<_Float16>(static_cast<float>(value))))
        << value;
    checked += 2;
  }
  EXPECT_GT(checked, 500000);
}

TEST(Float16Test, SpecialValuesAndIntegers) {
  EXPECT_EQ(pyk::float16(65504.0).bits(), 0x7bffu);
  EXPECT_EQ(pyk::float16(65519.99).bits(), 0x7bffu);
  EXPECT_EQ(pyk::float16(65520.0).bits(), 0x7c00u); // the midpoint to infinity rounds to even: infinity
  EXPECT_EQ(pyk::float16(-1e300).bits(), 0xfc00u);
  EXPECT_EQ(pyk::float16(std::numeric_limits<double>::infinity()).bits(), 0x7c00u);
  EXPECT_TRUE(isNanBits(pyk::float16(std::nan("")).bits()));
  EXPECT_EQ(pyk::float16(0x1p-24).bits(), 0x0001u);
  EXPECT_EQ(pyk::float16(0x1p-25).bits(), 0x0000u); // a tie, to even
  EXPECT_EQ(pyk::float16(-0x1.0000000000001p-25).bits(), 0x8001u);
  EXPECT_EQ(pyk::float16(-0.0).bits(), 0x8000u);
  EXPECT_EQ(pyk::float16(2049).bits(), pyk::float16(2048).bits()); // ties to even among integers
  EXPECT_EQ(pyk::float16(2051).bits(), pyk::float16(2052).bits());
  EXPECT_EQ(pyk::float16(std::int64_t{1} << 40).bits(), 0x7c00u);
  EXPECT_EQ(pyk::float16(std::uint8_t{255}).bits(), bitsOf(static_cast<_Float16>(255)));
}

TEST(Float16Test, ArithmeticRoundsEachResultOnce) {
  std::mt19937 random(7);
  std::uniform_int_distribution<std::uint32_t> anyBits(0, 0xffff);
  for (int i = 0; i < 200000; ++i) {
    const auto a = static_cast<std::uint16_t>(anyBits(random)), b = static_cast<std::uint16_t>(anyBits(random));
    const pyk::float16 x = pyk::float16::fromBits(a), y = pyk::float16::fromBits(b);
    const _Float16 p = halfOf(a), q = halfOf(b);
    auto same = [&](pyk::float16 ours, _Float16 reference, const char *op) {
      if (isNanBits(bitsOf(reference)))
        EXPECT_TRUE(isNanBits(ours.bits())) << std::hex << a << op << b;
      else
        EXPECT_EQ(ours.bits(), bitsOf(reference)) << std::hex << a << op << b;
    };
    // Each _Float16 operation is rounded on its own: the result is stored.
    volatile _Float16 sum = p + q, difference = p - q, product = p * q, quotient = p / q;
    same(x + y, sum, "+");
    same(x - y, difference, "-");
    same(x * y, product, "*");
    same(x / y, quotient, "/");
    same(-x, static_cast<_Float16>(-p), "neg");
    EXPECT_EQ(x < y, p < q);
    EXPECT_EQ(x == y, p == q);
    EXPECT_EQ(x != y, p != q);
    EXPECT_EQ(x >= y, p >= q);
  }
}

/// float32's bits rounded to their top 16, ties to even (finite values).
std::uint16_t bfloat16BitsOf(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

TEST(BFloat16Test, FloatsRoundToTheirTopBitsToNearestEven) {
  std::int64_t checked = 0;
  for (std::uint64_t bits = 0; bits < 0x1'0000'0000ull; bits += 0x1357) {
    const float value = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    if (std::isnan(value))
      continue;
    ASSERT_EQ(pyk::bfloat16(value).bits(), bfloat16BitsOf(value)) << value;
    ++checked;
  }
  EXPECT_GT(checked, 500000);
  EXPECT_TRUE(std::isnan(float(pyk::bfloat16(std::nanf("")))));
  EXPECT_EQ(pyk::bfloat16(-0.0).bits(), 0x8000u);
}

TEST(BFloat16Test, DoublesRoundOnceToTheNearerNeighbour) {
  // Midpoints between neighbours and a hair off them, where rounding
  // through float first rounds twice, in every binade bfloat16 has.
  for (std::uint32_t bits = 1; bits < 0x7f7fu; bits += 3) {
    const double low = float(pyk::bfloat16::fromBits(static_cast<std::uint16_t>(bits)));
    const double high = float(pyk::bfloat16::fromBits(static_cast<std::uint16_t>(bits + 1)));
    const double middle = (low + high) / 2;
    for (double value : {middle + (high - low) * 0x1p-40, middle - (high - low) * 0x1p-40, middle}) {
      const bool tie = value == middle;
      const std::uint32_t want = value > middle || (tie && (bits & 1)) ? bits + 1 : bits;
      ASSERT_EQ(pyk::bfloat16(value).bits(), want) << value;
      ASSERT_EQ(pyk::bfloat16(-value).bits(), want | 0x8000u) << -value;
    }
  }
  EXPECT_EQ(pyk::bfloat16(1e39).bits(), 0x7f80u);
  EXPECT_EQ(pyk::bfloat16(0x1p-133).bits(), 0x0001u);
  EXPECT_EQ(pyk::bfloat16(0x1p-134).bits(), 0x0000u); // a tie, to even
}

TEST(BFloat16Test, ArithmeticRoundsEachResultOnce) {
  std::mt19937 random(11);
  std::uniform_int_distribution<std::uint32_t> anyBits(0, 0xffff);
  for (int i = 0; i < 100000; ++i) {
    const auto x = pyk::bfloat16::fromBits(static_cast<std::uint16_t>(anyBits(random)));
    const auto y = pyk::bfloat16::fromBits(static_cast<std::uint16_t>(anyBits(random)));
    const double a = float(x), b = float(y);
    if (std::isnan(a) || std::isnan(b))
      continue;
    // The exact result, or one double rounding of it, rounded once.
    auto same = [](pyk::bfloat16 got, double exact) {
      return got.bits() == pyk::bfloat16(exact).bits() || (std::isnan(float(got)) && std::isnan(exact));
    };
    EXPECT_TRUE(same(x + y, a + b)) << a << " + " << b;
    EXPECT_TRUE(same(x * y, a * b)) << a << " * " << b;
    EXPECT_TRUE(same(x / y, a / b)) << a << " / " << b;
  }
}

} // namespace
