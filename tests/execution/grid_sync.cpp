// Runs grid_sync.pyk: every block of a grid sees, after g.sync(), what every
// thread of every block wrote before it, for Numba's two examples (unchanged)
// and for syncs in device functions on a 2-D grid.
#include "Checks.h"
#include "grid_sync.pyk.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

/// Numba's example's answer: row r is r everywhere.
void sequentialRows(Checks &checks) {
  const int rows = 256, cols = 256, threads = 32;
  auto M = pyk::to_device(std::vector<std::int32_t>(rows * cols, 0), {rows, cols});
  pyk::kernels::sequential_rows({cols / threads, threads}, M);
  std::vector<std::int32_t> got(rows * cols);
  M.copy_to_host(got);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      checks.equal("sequential_rows", r * cols + c, got[r * cols + c], r);
}

/// The heat equation stepped in C++ as the kernel steps it, each step from
/// the whole previous one.
void heatEquation(Checks &checks) {
  const int size = 1001, steps = 2000, threads = 64;
  const double k = 0.25;
  std::vector<double> data(size, 0.0);
  data[500] = 10000;
  auto buf0 = pyk::to_device(data);
  auto buf1 = pyk::to_device(std::vector<double>(size, 0.0));
  // 16 blocks: the last one's 23 threads past the end return at once.
  pyk::kernels::solve_heat_equation({(size + threads - 1) / threads, threads}, buf0, buf1, steps, k);
  std::vector<double> want[2] = {data, std::vector<double>(size)};
  for (int step = 0; step < steps; ++step) {
    const std::vector<double> &from = want[step % 2];
    std::vector<double> &to = want[(step + 1) % 2];
    for (int i = 0; i < size; ++i) {
      const double left = i > 0 ? from[i - 1] : 0.0, right = i + 1 < size ? from[i + 1] : 0.0;
      if (i == 0)
        to[i] = from[i] + k * (right - 2 * from[i]);
      else if (i == size - 1)
        to[i] = from[i] + k * (left - 2 * from[i]);
      else
        to[i] = from[i] + k * (left - 2 * from[i] + right);
    }
  }
  std::vector<double> got(size);
  buf0.copy_to_host(got); // odd steps write buf_0, the last one too
  double sum = 0;
  for (int i = 0; i < size; ++i) {
    // A fused multiply-add may round the last bits differently.
    checks.near("solve_heat_equation", i, got[i], want[0][i], 64, 0x1p-52);
    sum += got[i];
  }
  // Numba's own check: the heat is conserved.
  checks.expect("the heat is conserved", std::fabs(sum - 10000) <= 1e-7 * 10000);
}

/// a rotated left by `steps`, through syncs in device functions, on a 2-D
/// grid of 2-D blocks.
void rotate(Checks &checks) {
  const pyk::Dim3 grid{3, 2, 1}, block{16, 4, 1};
  const int n = 3 * 16 * 2 * 4, steps = 37;
  std::vector<float> values(n);
  for (int i = 0; i < n; ++i)
    values[i] = float(i);
  auto a = pyk::to_device(values);
  auto scratch = pyk::to_device(std::vector<float>(n, 0.0f));
  pyk::kernels::rotate({grid, block}, a, scratch, steps);
  std::vector<float> got(n);
  a.copy_to_host(got);
  for (int i = 0; i < n; ++i)
    checks.equal("rotate", i, got[i], float((i + steps) % n));
}

/// Every thread sums the blocks' sums, which other blocks wrote.
void gridTotal(Checks &checks) {
  const int blocks = 12, threads = 96, n = blocks * threads;
  std::vector<float> x(n);
  double want = 0;
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 13); // sums stay exact in float32
    want += x[i];
  }
  auto partial = pyk::to_device(std::vector<float>(blocks, 0.0f));
  auto totals = pyk::device_empty<float>({n});
  pyk::kernels::grid_total({blocks, threads}, pyk::to_device(x), partial, totals);
  std::vector<float> got(n);
  totals.copy_to_host(got);
  for (int i = 0; i < n; ++i)
    checks.equal("grid_total", i, got[i], want);
}

/// Blocks wait for block 0's flag, backing off with cuda.nanosleep, and
/// then see the value it published before it.
void handoff(Checks &checks) {
  const int blocks = 6, threads = 32;
  auto flag = pyk::to_device(std::vector<std::int32_t>{0});
  auto value = pyk::to_device(std::vector<std::int32_t>{0});
  auto seen = pyk::device_empty<std::int32_t>({blocks * threads});
  pyk::kernels::handoff({blocks, threads}, flag, value, seen, 3);
  std::vector<std::int32_t> got(blocks * threads);
  seen.copy_to_host(got);
  for (int i = 0; i < blocks * threads; ++i)
    checks.equal("handoff", i, got[i], 42);
}

/// The launch functions' companion says how many blocks fit at once, and
/// a grid of one more is refused before anything runs, saying so.
void cooperativeLimit(Checks &checks) {
  const int threads = 96;
  const std::uint32_t limit = pyk::kernels::grid_total_max_cooperative_grid_blocks(threads);
  checks.expect("a cooperative grid holds at least a block", limit >= 1);
  const std::uint32_t blocks = limit + 1;
  std::vector<float> x(std::size_t(blocks) * threads, 1.0f);
  auto partial = pyk::to_device(std::vector<float>(blocks, 0.0f));
  auto totals = pyk::device_empty<float>({std::int64_t(blocks) * threads});
  std::string message;
  try {
    pyk::kernels::grid_total({blocks, threads}, pyk::to_device(x), partial, totals);
  } catch (const pyk::LaunchConfigError &error) {
    message = error.what();
  }
  const std::string says = "launch at most " + std::to_string(limit) + " blocks";
  checks.expect("one block more than fits is refused: " + message, message.find(says) != std::string::npos);
  std::vector<float> untouched(blocks);
  partial.copy_to_host(untouched);
  checks.expect("the refused launch ran nothing", untouched == std::vector<float>(blocks, 0.0f));
}

} // namespace

int main() {
  Checks checks;
  sequentialRows(checks);
  heatEquation(checks);
  rotate(checks);
  gridTotal(checks);
  cooperativeLimit(checks);
  handoff(checks);
  return checks.finish("grid_sync");
}
