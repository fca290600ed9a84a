// Numba's heat-equation example from C++: 10000 steps of a 1001-point rod
// in one cooperative launch (every block resident at once, which
// solve_heat_equation_max_cooperative_grid_blocks checks beforehand),
// checked against the same steps on the host and, as Numba's own example
// checks, for the heat it conserves. `heat_equation STEPS` takes another
// number of steps.
#include "heat_equation.pyk.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const int size = 1001, threads = 64;
  const int steps = argc > 1 ? std::atoi(argv[1]) : 10000;
  const double k = 0.25;
  std::vector<double> rod(size, 0.0);
  rod[500] = 10000; // the middle is made very hot
  auto buf0 = pyk::to_device(rod);
  auto buf1 = pyk::to_device(std::vector<double>(size, 0.0));

  const unsigned blocks = (size + threads - 1) / threads;
  const unsigned fit = pyk::kernels::solve_heat_equation_max_cooperative_grid_blocks(threads);
  if (blocks > fit) {
    std::printf("heat_equation: %u blocks of %d threads do not fit at once on %s (at most %u)\n", blocks, threads,
                pyk::device_name().c_str(), fit);
    return 1;
  }
  pyk::kernels::solve_heat_equation({blocks, threads}, buf0, buf1, steps, k);
  std::vector<double> got(size);
  (steps % 2 ? buf1 : buf0).copy_to_host(got); // step s writes buf_1 when s is even

  std::vector<double> from = rod, to(size);
  for (int step = 0; step < steps; ++step) {
    for (int i = 0; i < size; ++i) {
      const double left = i > 0 ? from[i - 1] : 0.0, right = i + 1 < size ? from[i + 1] : 0.0;
      to[i] = i == 0          ? from[i] + k * (right - 2 * from[i])
              : i == size - 1 ? from[i] + k * (left - 2 * from[i])
                              : from[i] + k * (left - 2 * from[i] + right);
    }
    from.swap(to);
  }
  double heat = 0, worst = 0;
  for (int i = 0; i < size; ++i) {
    heat += got[i];
    // A GPU's fused multiply-adds round the last bits differently.
    worst = std::fmax(worst, std::fabs(got[i] - from[i]) / std::fmax(1.0, std::fabs(from[i])));
  }
  const bool equal = worst <= 1e-12 && std::fabs(heat - 10000) <= 1e-7 * 10000;
  std::printf("heat_equation: %d steps of %d points in %u blocks on %s; middle %.6f, heat %.9f. Are results equal: "
              "%s\n",
              steps, size, blocks, pyk::device_name().c_str(), got[500], heat, equal ? "True" : "False");
  return equal ? 0 : 1;
}
