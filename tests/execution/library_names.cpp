// Runs library_names.pyk: kernels named 'div', 'time' and 'sincosf' (with
// parameters and locals named like C library functions and macros) are
// launched by their .pyk names and compute what C++ computes.
#include "Checks.h"
#include "library_names.pyk.h"

#include <cstdint>
#include <vector>

int main() {
  Checks checks;

  std::vector<float> grid(4 * 3);
  for (std::size_t n = 0; n < grid.size(); ++n)
    grid[n] = float(n);
  auto dgrid = pyk::to_device(grid, {4, 3});
  pyk::kernels::div({1, 1}, dgrid, 4, 3);
  std::vector<float> halved(grid.size());
  dgrid.copy_to_host(halved);
  for (std::size_t n = 0; n < grid.size(); ++n)
    checks.equal("div", (long long)n, halved[n], grid[n] / 2.0f);

  const int n = 100;
  std::vector<std::int32_t> values(n);
  for (int k = 0; k < n; ++k)
    values[k] = k * 7 - 300;
  auto dvalues = pyk::to_device(values, {n});
  auto dout = pyk::device_empty<std::int32_t>({n});
  pyk::kernels::time({(n + 31) / 32, 32}, dout, dvalues, 3);
  std::vector<std::int32_t> quotients(n);
  dout.copy_to_host(quotients);
  for (int k = 0; k < n; ++k) {
    const std::int32_t floor = values[k] / 3 - (values[k] % 3 != 0 && values[k] < 0); // Python's //
    checks.exact("time (floor division)", quotients[k], floor);
  }

  std::vector<float> angles(n);
  for (int k = 0; k < n; ++k)
    angles[k] = 0.1f * float(k);
  auto dangles = pyk::to_device(angles, {n});
  auto dones = pyk::device_empty<float>({n});
  pyk::kernels::sincosf({(n + 31) / 32, 32}, dones, dangles);
  std::vector<float> ones(n);
  dones.copy_to_host(ones);
  for (int k = 0; k < n; ++k)
    checks.near("sincosf (sin^2 + cos^2)", k, ones[k], 1.0, 4, 1.1920929e-07);

  return checks.finish("library_names");
}
