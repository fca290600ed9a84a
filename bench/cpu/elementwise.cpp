// The CPU device against plain loops compiled by the host compiler at -O3
// (issue 8: elementwise kernels within 2x of the loop). Both sides use all
// the pool's threads: the loops split their range over std::threads the
// same way, so the ratio measures pyk's code and launch, not parallelism.
// Prints a table; asserts nothing about time.
#include "elementwise.pyk.h"

#include "MedianTime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

namespace {

/// Runs body(begin, end) over [0, n) split into `workers` contiguous parts.
void parallelFor(unsigned workers, std::size_t n, const std::function<void(std::size_t, std::size_t)> &body) {
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&, w] { body(n * w / workers, n * (w + 1) / workers); });
  for (auto &thread : threads)
    thread.join();
}

} // namespace

int main(int argc, char **argv) {
  const std::size_t n = argc > 1 ? std::stoul(argv[1]) : (std::size_t{1} << 24);
  const int runs = 11;
  const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<float> x(n, 1.5f), y(n, 2.5f), out(n);
  auto dx = pyk::to_device(x), dy = pyk::to_device(y), dout = pyk::device_empty<float>({std::int64_t(n)});
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);

  std::printf("CPU device: %s; loops on %u std::threads; n = %zu; median of %d\n\n", pyk::device_name().c_str(),
              workers, n, runs);
  std::printf("| kernel | pyk CPU device (ms) | -O3 loop (ms) | pyk / loop | GB/s (pyk) |\n|---|---|---|---|---|\n");
  auto row = [&](const char *name, double pyk, double loop, double bytes) {
    std::printf("| %s | %.2f | %.2f | %.2fx | %.1f |\n", name, pyk, loop, pyk / loop, bytes / pyk / 1e6);
  };

  const double addPyk = pyk::bench::medianMs(runs, [&] { pyk::kernels::vector_add({blocks, 256}, dx, dy, dout); });
  const double addLoop = pyk::bench::medianMs(runs, [&] {
    parallelFor(workers, n, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i)
        out[i] = x[i] + y[i];
    });
  });
  row("vector_add", addPyk, addLoop, 3.0 * 4 * n);

  const double saxpyPyk = pyk::bench::medianMs(runs, [&] { pyk::kernels::saxpy({blocks, 256}, 2.0f, dx, dy, dout); });
  const double saxpyLoop = pyk::bench::medianMs(runs, [&] {
    parallelFor(workers, n, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i)
        out[i] = 2.0f * x[i] + y[i];
    });
  });
  row("saxpy", saxpyPyk, saxpyLoop, 3.0 * 4 * n);

  const std::size_t side = 4096;
  std::vector<float> grid(side * side, 1.0f), next(side * side, 0.0f);
  auto dsrc = pyk::to_device(grid, {std::int64_t(side), std::int64_t(side)});
  auto ddst = pyk::to_device(next, {std::int64_t(side), std::int64_t(side)});
  const unsigned tiles = static_cast<unsigned>((side + 15) / 16);
  const double stencilPyk = pyk::bench::medianMs(runs, [&] { pyk::kernels::stencil({{tiles, tiles}, {16, 16}}, dsrc, ddst); });
  const double stencilLoop = pyk::bench::medianMs(runs, [&] {
    parallelFor(workers, side - 2, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b + 1; i < e + 1; ++i)
        for (std::size_t j = 1; j < side - 1; ++j)
          next[i * side + j] = 0.25f * (grid[(i - 1) * side + j] + grid[(i + 1) * side + j] + grid[i * side + j - 1] +
                                        grid[i * side + j + 1]);
    });
  });
  row("stencil 4096^2", stencilPyk, stencilLoop, 2.0 * 4 * side * side);
  return 0;
}
