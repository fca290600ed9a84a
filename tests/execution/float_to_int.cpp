// Runs float_to_int.pyk: float to integer conversions of NaN, the
// infinities, ±1e300 and the values just past each type's range give 0 or
// the nearest end of the range on every device; values inside it truncate
// toward zero.
#include "Checks.h"
#include "float_to_int.pyk.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

/// What the IR's Cast defines: toward zero, NaN to 0, saturated.
template <typename To> To saturated(double x) {
  if (std::isnan(x))
    return 0;
  if (x <= double(std::numeric_limits<To>::lowest()))
    return std::numeric_limits<To>::lowest();
  if (x >= std::ldexp(1.0, std::numeric_limits<To>::digits)) // the first value past the range
    return std::numeric_limits<To>::max();
  return To(x);
}

template <typename T> std::vector<T> fetch(const pyk::DeviceArray<T, 1> &array) {
  std::vector<T> values(array.size());
  array.copy_to_host(values);
  return values;
}

template <typename To>
void checkEach(Checks &checks, const char *what, const std::vector<double> &inputs, const std::vector<To> &got) {
  for (std::size_t n = 0; n < inputs.size(); ++n)
    checks.exact((std::string(what) + "(" + std::to_string(inputs[n]) + ")").c_str(), (long long)got[n],
                 (long long)saturated<To>(inputs[n]));
}

// uint64 results past INT64_MAX compare as bit patterns.
void checkEachU64(Checks &checks, const char *what, const std::vector<double> &inputs,
                  const std::vector<std::uint64_t> &got) {
  for (std::size_t n = 0; n < inputs.size(); ++n)
    checks.expect(std::string(what) + "(" + std::to_string(inputs[n]) + ") = " + std::to_string(got[n]),
                  got[n] == saturated<std::uint64_t>(inputs[n]));
}

std::vector<double> edgeValues() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> values = {std::nan(""), inf, -inf, 1e300, -1e300, 0.0, -0.0, 0.9, -0.9, 2.5, -2.5, -1.0};
  // Just inside and just past each type's ends.
  for (double end : {127.0, -128.0, 255.0, 32767.0, -32768.0, 65535.0, 2147483647.0, -2147483648.0, 4294967295.0}) {
    values.push_back(end + (end < 0 ? -0.5 : 0.5));
    values.push_back(end + (end < 0 ? -1.0 : 1.0));
  }
  for (double power : {63.0, 64.0}) {
    values.push_back(std::ldexp(1.0, int(power)));
    values.push_back(std::nextafter(std::ldexp(1.0, int(power)), 0.0));
    values.push_back(-std::ldexp(1.0, int(power)));
    values.push_back(std::nextafter(-std::ldexp(1.0, int(power)), -inf));
  }
  return values;
}

} // namespace

int main() {
  Checks checks;
  const std::vector<double> inputs = edgeValues();
  const auto n = static_cast<std::int64_t>(inputs.size());
  const pyk::Launch launch{1, 64};

  auto x = pyk::to_device(inputs, {n});
  auto i8 = pyk::device_empty<std::int8_t>({n});
  auto i16 = pyk::device_empty<std::int16_t>({n});
  auto i32 = pyk::device_empty<std::int32_t>({n});
  auto i64 = pyk::device_empty<std::int64_t>({n});
  auto u8 = pyk::device_empty<std::uint8_t>({n});
  auto u16 = pyk::device_empty<std::uint16_t>({n});
  auto u32 = pyk::device_empty<std::uint32_t>({n});
  auto u64 = pyk::device_empty<std::uint64_t>({n});
  auto rounded = pyk::device_empty<std::int64_t>({n});
  pyk::kernels::from_float64(launch, x, i8, i16, i32, i64, u8, u16, u32, u64, rounded);
  checkEach(checks, "int8", inputs, fetch(i8));
  checkEach(checks, "int16", inputs, fetch(i16));
  checkEach(checks, "int32", inputs, fetch(i32));
  checkEach(checks, "int", inputs, fetch(i64));
  checkEach(checks, "uint8", inputs, fetch(u8));
  checkEach(checks, "uint16", inputs, fetch(u16));
  checkEach(checks, "uint32", inputs, fetch(u32));
  checkEachU64(checks, "uint64", inputs, fetch(u64));
  std::vector<double> roundedInputs;
  for (double value : inputs)
    roundedInputs.push_back(std::nearbyint(value));
  checkEach(checks, "round", roundedInputs, fetch(rounded));

  // float32 inputs: the same values, rounded to float32 first.
  std::vector<float> singles;
  std::vector<double> singlesAsDouble;
  for (double value : inputs) {
    singles.push_back(static_cast<float>(value));
    singlesAsDouble.push_back(static_cast<float>(value));
  }
  auto xs = pyk::to_device(singles, {n});
  auto s8 = pyk::device_empty<std::int8_t>({n});
  auto s32 = pyk::device_empty<std::int32_t>({n});
  auto s64 = pyk::device_empty<std::int64_t>({n});
  auto su32 = pyk::device_empty<std::uint32_t>({n});
  auto su64 = pyk::device_empty<std::uint64_t>({n});
  pyk::kernels::from_float32(launch, xs, s8, s32, s64, su32, su64);
  checkEach(checks, "float32 int8", singlesAsDouble, fetch(s8));
  checkEach(checks, "float32 int32", singlesAsDouble, fetch(s32));
  checkEach(checks, "float32 int64", singlesAsDouble, fetch(s64));
  checkEach(checks, "float32 uint32", singlesAsDouble, fetch(su32));
  checkEachU64(checks, "float32 uint64", singlesAsDouble, fetch(su64));
  return checks.finish("float_to_int");
}
