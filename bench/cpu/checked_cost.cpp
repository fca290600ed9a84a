// What checked mode costs on the CPU device (issue 7: at most 1.3x the
// unchecked kernel for vector add and the stencil, thanks to the guard
// analysis). Each kernel runs unchecked and in checked mode in the same
// process; the stencil also with a guard the analysis cannot use, so that
// every access is checked (the worst case). Prints a table; asserts nothing
// about time.
#include "checked_cost.pyk.h"

#include "MedianTime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

int main(int argc, char **argv) {
  const std::size_t n = argc > 1 ? std::stoul(argv[1]) : (std::size_t{1} << 24);
  const std::size_t side = argc > 2 ? std::stoul(argv[2]) : 4096;
  const int runs = 11;
  std::vector<float> x(n, 1.5f), y(n, 2.5f);
  auto dx = pyk::to_device(x), dy = pyk::to_device(y), dout = pyk::device_empty<float>({std::int64_t(n)});
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  std::vector<float> grid(side * side, 1.0f);
  auto dsrc = pyk::to_device(grid, {std::int64_t(side), std::int64_t(side)});
  auto ddst = pyk::device_empty<float>({std::int64_t(side), std::int64_t(side)});
  const unsigned tiles = static_cast<unsigned>((side + 15) / 16);
  const pyk::Launch tiled{{tiles, tiles}, {16, 16}};

  std::printf("device: %s; vector n = %zu; stencil %zu^2; median of %d\n\n", pyk::device_name().c_str(), n, side,
              runs);
  std::printf("| kernel | unchecked (ms) | checked (ms) | checked / unchecked |\n|---|---|---|---|\n");
  auto row = [](const char *name, double unchecked, double checked) {
    std::printf("| %s | %.2f | %.2f | %.2fx |\n", name, unchecked, checked, checked / unchecked);
  };
  const double add = pyk::bench::medianMs(runs, [&] { pyk::kernels::vector_add({blocks, 256}, dx, dy, dout); });
  const double addChecked = pyk::bench::medianMs(runs, [&] { pyk::kernels::vector_add_checked({blocks, 256}, dx, dy, dout); });
  row("vector_add", add, addChecked);
  const double stencil = pyk::bench::medianMs(runs, [&] { pyk::kernels::stencil(tiled, dsrc, ddst); });
  const double stencilChecked = pyk::bench::medianMs(runs, [&] { pyk::kernels::stencil_checked(tiled, dsrc, ddst); });
  row("stencil", stencil, stencilChecked);
  const double stencilAll = pyk::bench::medianMs(runs, [&] { pyk::kernels::stencil_checked_nothing_elided(tiled, dsrc, ddst); });
  row("stencil, no check elided", stencil, stencilAll);
  return 0;
}
