// Runs grids.pyk: 2-D launches, grid-stride loops, tuple unpacking.
#include "Checks.h"
#include "grids.pyk.h"

#include <vector>

int main() {
  Checks checks;
  const int rows = 37, cols = 53;
  std::vector<float> a(rows * cols), b(rows * cols), out(rows * cols);
  for (int i = 0; i < rows * cols; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i);
  }
  auto da = pyk::to_device(a, {rows, cols}), db = pyk::to_device(b, {rows, cols});
  auto dout = pyk::device_empty<float>({rows, cols});
  pyk::kernels::add_2d({{(rows + 15) / 16, (cols + 7) / 8}, {16, 8}}, da, db, dout);
  dout.copy_to_host(out);
  for (int i = 0; i < rows * cols; ++i)
    checks.equal("add_2d", i, out[i], a[i] + b[i]);

  std::vector<std::int64_t> xs(10000);
  for (std::size_t i = 0; i < xs.size(); ++i)
    xs[i] = static_cast<std::int64_t>(i);
  auto dx = pyk::to_device(xs);
  pyk::kernels::grid_stride({4, 64}, dx); // 256 threads cover 10000 elements
  std::vector<std::int64_t> doubled(xs.size());
  dx.copy_to_host(doubled);
  for (std::size_t i = 0; i < xs.size(); ++i)
    checks.equal("grid_stride", static_cast<long long>(i), double(doubled[i]), double(2 * xs[i]));

  auto small = pyk::device_empty<std::int64_t>({7});
  pyk::kernels::swaps({{3, 2}, {4, 5}}, small);
  std::vector<std::int64_t> s(7);
  small.copy_to_host(s);
  const std::int64_t want[] = {2, 1, 30, 12, 10, 1, 2};
  for (int i = 0; i < 7; ++i)
    checks.equal("swaps", i, double(s[i]), double(want[i]));

  return checks.finish("grids");
}
