// 500 Jacobi steps on a 130 x 258 grid with a hot top edge, the two
// buffers swapped each step, checked against the same iteration on the
// host (the same float32 operations in the same order: exact).
#include "jacobi.pyk.h"

#include <cstdio>
#include <utility>
#include <vector>

int main() {
  const int rows = 130, cols = 258, steps = 500;
  std::vector<float> grid(rows * cols, 0.0f);
  for (int j = 0; j < cols; ++j)
    grid[j] = 100.0f; // the hot edge, in both buffers
  auto a = pyk::to_device(grid, {rows, cols}), b = pyk::to_device(grid, {rows, cols});
  const pyk::Launch launch{{(cols + 15) / 16, (rows + 15) / 16}, {16, 16}}; // x: columns
  for (int step = 0; step < steps; ++step) {
    pyk::kernels::jacobi_step(launch, a, b);
    std::swap(a, b);
  }
  std::vector<float> got(rows * cols);
  a.copy_to_host(got);

  std::vector<float> src = grid, dst = grid;
  for (int step = 0; step < steps; ++step) {
    for (int i = 1; i < rows - 1; ++i)
      for (int j = 1; j < cols - 1; ++j)
        dst[i * cols + j] = 0.25f * (((src[(i - 1) * cols + j] + src[(i + 1) * cols + j]) + src[i * cols + j - 1]) +
                                     src[i * cols + j + 1]);
    std::swap(src, dst);
  }
  const bool equal = got == src;
  std::printf("jacobi: %d steps on %d x %d on %s; centre %.6f. Are results equal: %s\n", steps, rows, cols,
              pyk::device_name().c_str(), static_cast<double>(got[(rows / 2) * cols + cols / 2]),
              equal ? "True" : "False");
  return equal ? 0 : 1;
}
