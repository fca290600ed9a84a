// Runs signatures.pyk: each version of each kernel through its C++
// overload, against the same computation in C++.
#include "Checks.h"
#include "signatures.pyk.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

template <typename T> void checkUnitClamp(Checks &checks, const char *what) {
  const int n = 300;
  std::vector<T> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<T>(-1.0 + 3.0 * i / n);
  auto dx = pyk::to_device(x);
  auto dout = pyk::device_empty<T>({n});
  pyk::kernels::unit_clamp({(n + 63) / 64, 64}, dx, dout);
  std::vector<T> out(n);
  dout.copy_to_host(out);
  for (int i = 0; i < n; ++i)
    checks.equal(what, i, out[i], static_cast<T>(std::min(std::max(static_cast<double>(x[i]), 0.0), 1.0)));
}

template <typename T> void checkNorms(Checks &checks, const char *what) {
  const int n = 200, d = 3;
  std::vector<T> points(n * d);
  for (int i = 0; i < n * d; ++i)
    points[i] = static_cast<T>((i % 7) - 3) / 4;
  auto dpoints = pyk::to_device(points, {n, d});
  auto dout = pyk::device_empty<T>({n});
  pyk::kernels::norms({(n + 31) / 32, 32}, dpoints, dout);
  std::vector<T> out(n);
  dout.copy_to_host(out);
  for (int i = 0; i < n; ++i) {
    T s = points[i * d] * points[i * d];
    for (int j = 1; j < d; ++j)
      s += points[i * d + j] * points[i * d + j];
    checks.equal(what, i, out[i], std::sqrt(s));
  }
}

} // namespace

int main() {
  Checks checks;
  checkUnitClamp<float>(checks, "unit_clamp float32");
  checkUnitClamp<double>(checks, "unit_clamp float64");
  checkNorms<float>(checks, "norms float32");
  checkNorms<double>(checks, "norms float64");

  std::vector<std::int32_t> a = {-5, 0, 3, 4, 5, 6, 9, 10, 11, 1000};
  const auto n = static_cast<std::int64_t>(a.size());
  auto da = pyk::to_device(a);
  auto dout = pyk::device_empty<std::int64_t>({n});
  pyk::kernels::capped({1, 32}, da, dout);
  std::vector<std::int64_t> out(a.size());
  dout.copy_to_host(out);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::int64_t v = a[i];
    checks.exact("capped", out[i], std::clamp<std::int64_t>(v, 0, 10) + std::clamp<std::int64_t>(2 * v, 0, 10));
  }
  auto dm = pyk::device_empty<float>({3, 7});
  auto dsums = pyk::device_empty<std::int64_t>({40});
  pyk::kernels::tuple_arguments({2, 32}, dm, dsums);
  std::vector<std::int64_t> sums(40);
  dsums.copy_to_host(sums);
  for (std::int64_t i = 0; i < 40; ++i)
    checks.exact("tuple_arguments", sums[i], 3 * 7 + (i - 3) + (i - 2 * i));
  // Device functions that return tuples.
  const int rows = 50;
  std::vector<std::int32_t> triples(rows * 3);
  for (int i = 0; i < rows * 3; ++i)
    triples[i] = static_cast<std::int32_t>((i * 7919) % 23) - 11;
  auto dtriples = pyk::to_device(triples, {rows, 3});
  auto dsorted = pyk::device_empty<std::int64_t>({rows, 4});
  pyk::kernels::sorted_triples({2, 32}, dtriples, dsorted);
  std::vector<std::int64_t> sorted(rows * 4);
  dsorted.copy_to_host(sorted);
  for (int i = 0; i < rows; ++i) {
    std::vector<std::int64_t> want(triples.begin() + 3 * i, triples.begin() + 3 * i + 3);
    std::sort(want.begin(), want.end());
    for (int j = 0; j < 3; ++j)
      checks.exact("sorted_triples", sorted[i * 4 + j], want[j]);
    const std::int64_t first = triples[3 * i];
    checks.exact("sorted_triples span", sorted[i * 4 + 3], std::max<std::int64_t>(first, 0) - std::min<std::int64_t>(first, 0));
  }
  return checks.finish("signatures");
}
