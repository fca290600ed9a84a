// Runs foreign_functions.pyk, whose kernels call the CUDA C++ functions of
// foreign_functions.cu, and compares with the same functions in C++.
#include "Checks.h"
#include "foreign_functions.pyk.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

int collatzLength(std::int64_t n) {
  int steps = 0;
  while (n != 1 && steps < 1000) {
    n = n % 2 == 0 ? n / 2 : 3 * n + 1;
    ++steps;
  }
  return steps;
}

} // namespace

int main() {
  Checks checks;
  const int n = 300;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i - 150) / 64.0f;
    y[i] = 0.25f * static_cast<float>(i % 17) - 2.0f;
  }
  auto dx = pyk::to_device(x), dy = pyk::to_device(y);
  auto dproducts = pyk::device_empty<float>({n});
  auto dclamped = pyk::device_empty<double>({n});
  pyk::kernels::floats({(n + 127) / 128, 128}, dx, dy, dproducts, dclamped);
  std::vector<float> products(n);
  std::vector<double> clamped(n);
  dproducts.copy_to_host(products);
  dclamped.copy_to_host(clamped);
  for (int i = 0; i < n; ++i) {
    checks.equal("products", i, products[i], x[i] * y[i]);
    checks.equal("clamped", i, clamped[i], std::clamp(static_cast<double>(x[i]), -1.0, 1.0));
  }

  std::vector<std::int64_t> starts(n);
  std::vector<std::int8_t> small(n);
  for (int i = 0; i < n; ++i) {
    starts[i] = 1 + 7 * i;
    small[i] = static_cast<std::int8_t>(i - 128);
  }
  auto dstarts = pyk::to_device(starts);
  auto dsmall = pyk::to_device(small);
  auto dlengths = pyk::device_empty<std::int32_t>({n});
  auto dflags = pyk::device_empty<std::int32_t>({n});
  pyk::kernels::integers({(n + 127) / 128, 128}, dstarts, dlengths, dsmall, dflags);
  std::vector<std::int32_t> lengths(n), flags(n);
  dlengths.copy_to_host(lengths);
  dflags.copy_to_host(flags);
  for (int i = 0; i < n; ++i) {
    checks.equal("collatz_length", i, lengths[i], collatzLength(starts[i]));
    checks.equal("is_small", i, flags[i], small[i] >= -10 && small[i] <= 10 ? 1 : 0);
  }
  return checks.finish("foreign_functions");
}
