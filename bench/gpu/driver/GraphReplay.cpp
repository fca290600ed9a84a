// What a CUDA graph saves: a step of `kernels` launches of an empty kernel
// on a stream, then the stream's synchronisation, against the same launches
// captured once into a pyk::Graph (Stream::begin_capture) and replayed with
// one Graph::launch, then the synchronisation. Microseconds per kernel, from
// the first launch to the end of the synchronisation, median over steps.
#include "Bench.h"
#include "Timing.h"

#include "launch.pyk.h"

#include <chrono>
#include <vector>

namespace bench {
namespace {

template <typename Step> double perKernelUs(int steps, int kernels, Step &&step) {
  step(); // warm-up: module load, first-launch lookups, the graph's upload
  std::vector<double> us;
  for (int i = 0; i < steps; ++i) {
    const auto start = std::chrono::steady_clock::now();
    step();
    const auto stop = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / kernels);
  }
  return median(us);
}

} // namespace

std::vector<GraphRow> measureGraphReplay(const Context &context) {
  std::vector<GraphRow> rows;
  const int steps = context.gpu ? 25 : 5;
  for (int kernels : {10, 100}) {
    GraphRow row;
    row.kernels = kernels;
    try {
      pyk::Stream stream;
      const pyk::Launch launch{1, 32, 0, &stream};
      auto launchAll = [&] {
        for (int k = 0; k < kernels; ++k)
          pyk::kernels::empty1(launch, k);
      };
      step("graph replay: %d launches on a stream, then a synchronisation", kernels);
      row.streamUs = perKernelUs(steps, kernels, [&] {
        launchAll();
        stream.synchronize();
      });
      stream.begin_capture();
      launchAll();
      pyk::Graph graph = stream.end_capture();
      step("graph replay: a graph of %zu launches, then a synchronisation", graph.size());
      row.graphUs = perKernelUs(steps, kernels, [&] {
        graph.launch(stream);
        stream.synchronize();
      });
      step("graph replay: %d kernels: stream %.2f us, graph %.2f us per kernel", kernels, row.streamUs, row.graphUs);
    } catch (const std::exception &error) {
      step("graph replay: %d kernels: ERROR: %s", kernels, error.what());
    }
    rows.push_back(row);
  }
  return rows;
}

} // namespace bench
