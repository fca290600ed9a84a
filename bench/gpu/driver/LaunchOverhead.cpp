// What a launch costs the host: an empty kernel with 0, 1, 16 and 64 int32
// arguments, launched in batches with no synchronisation in between, through
// pyk's generated wrapper and through a bare cuLaunchKernel loop on the same
// PTX (launch.pyk, loaded by us with cuModuleLoadData). The difference is
// what the wrapper and pyk's runtime add: packing the arguments, the launch
// check, the cached-function lookup. Host time per launch, median over
// batches; the synchronisation after each batch is not counted.
#include "Bench.h"
#include "DriverApi.h"
#include "Files.h"
#include "Timing.h"

#include "launch.pyk.h"

#include <chrono>
#include <cstdint>
#include <utility>

namespace bench {
namespace {

// Few enough launches per batch that the GPU's launch queue does not fill
// (a full queue would make the host wait for the GPU, measuring its rate
// of empty kernels instead of the host's cost).
constexpr int batchSize = 1000;

template <typename Launch, typename Sync>
double perLaunchUs(int batches, int perBatch, Launch &&launchOnce, Sync &&sync) {
  for (int i = 0; i < perBatch; ++i) // warm-up: module load, first-launch lookups
    launchOnce();
  sync();
  std::vector<double> us;
  for (int batch = 0; batch < batches; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < perBatch; ++i)
      launchOnce();
    const auto stop = std::chrono::steady_clock::now();
    sync();
    us.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / perBatch);
  }
  return median(us);
}

/// Calls `kernel(launch, values[0], ..., values[N-1])`.
template <typename Kernel, std::size_t... I>
void callWith(Kernel kernel, const pyk::Launch &launch, const std::int32_t *values, std::index_sequence<I...>) {
  kernel(launch, values[I]...);
}

} // namespace

std::vector<LaunchRow> measureLaunchOverhead(const Context &context) {
  std::vector<LaunchRow> rows;
  std::int32_t values[64];
  for (int i = 0; i < 64; ++i)
    values[i] = i + 1;
  const pyk::Launch launch{1, 32};
  // The CPU device runs each launch before returning: fewer, smaller batches.
  const int batches = context.gpu ? 25 : 5, perBatch = context.gpu ? batchSize : 100;
  auto pykSync = [] { pyk::synchronize(); };

  DriverApi api;
  CUmodule module = nullptr;
  if (context.gpu) {
    try {
      api = DriverApi::load();
      const std::string ptx = readFile(context.generatedDir + "/modules/launch.ptx");
      driverCheck(api.moduleLoadData(&module, ptx.c_str()), "cuModuleLoadData(launch.ptx)");
    } catch (const std::exception &error) {
      step("launch overhead: the raw cuLaunchKernel loop is skipped: %s", error.what());
      module = nullptr;
    }
  }

  auto measure = [&](int args, auto &&wrapper) {
    LaunchRow row;
    row.args = args;
    try {
      step("launch overhead: %d arguments: pyk wrapper, %d batches of %d launches", args, batches, perBatch);
      row.wrapperUs = perLaunchUs(batches, perBatch, wrapper, pykSync);
      if (module) {
        CUfunction function = nullptr;
        const std::string name = "empty" + std::to_string(args);
        driverCheck(api.moduleGetFunction(&function, module, name.c_str()), "cuModuleGetFunction");
        void *params[64];
        for (int i = 0; i < args; ++i)
          params[i] = &values[i];
        step("launch overhead: %d arguments: raw cuLaunchKernel", args);
        row.rawUs = perLaunchUs(
            batches, perBatch,
            [&] {
              driverCheck(api.launchKernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, args ? params : nullptr, nullptr),
                          "cuLaunchKernel");
            },
            [&] { driverCheck(api.ctxSynchronize(), "cuCtxSynchronize"); });
      }
      if (module)
        step("launch overhead: %d arguments: wrapper %.2f us, raw %.2f us", args, row.wrapperUs, row.rawUs);
      else
        step("launch overhead: %d arguments: wrapper %.2f us (no raw loop without a GPU)", args, row.wrapperUs);
    } catch (const std::exception &error) {
      step("launch overhead: %d arguments: ERROR: %s", args, error.what());
    }
    rows.push_back(row);
  };
  measure(0, [&] { pyk::kernels::empty0(launch); });
  measure(1, [&] { callWith(pyk::kernels::empty1, launch, values, std::make_index_sequence<1>()); });
  measure(16, [&] { callWith(pyk::kernels::empty16, launch, values, std::make_index_sequence<16>()); });
  measure(64, [&] { callWith(pyk::kernels::empty64, launch, values, std::make_index_sequence<64>()); });
  if (module)
    api.moduleUnload(module);
  return rows;
}

} // namespace bench
