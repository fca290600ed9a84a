// One process, every GPU: each GPU counts the byte values of its part of
// the data with a pyk kernel, then ncclAllReduce sums the GPUs' histograms
// in place, on the pyk arrays (their data() is device memory) and on the
// pyk streams (their native() is a cudaStream_t), so that every GPU ends
// with the whole data's histogram, checked against the host's.
//
// NCCL needs GPUs: on pyk's CPU device the program checks the devices'
// histograms on the host instead, says NCCL did not run and exits 77, which
// ctest reports as a skipped test (PYK_CPU_DEVICES=3 there).
//
//   multi_gpu_allreduce [BYTES]      (default 50 million and 3)
#include "multi_gpu_allreduce.pyk.h"

#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void ncclCheck(ncclResult_t result, const char *call) {
  if (result != ncclSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", call, ncclGetErrorString(result));
    std::exit(1);
  }
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char **argv) {
  const int devices = pyk::device_count();
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 50'000'003, bins = 256;
  std::vector<std::uint8_t> data(n);
  std::vector<std::int32_t> expected(bins, 0);
  for (std::size_t i = 0; i < n; ++i) {
    data[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
    ++expected[data[i]];
  }

  // Each device counts its part of the data, on a stream of its own.
  const auto started = std::chrono::steady_clock::now(); // the copies in, the kernels and the sum
  std::vector<pyk::Stream> streams;
  std::vector<pyk::DeviceArray<std::uint8_t, 1>> parts;
  std::vector<pyk::DeviceArray<std::int32_t, 1>> histograms;
  const std::size_t slab = (n + static_cast<std::size_t>(devices) - 1) / static_cast<std::size_t>(devices);
  for (int d = 0; d < devices; ++d) {
    pyk::DeviceScope on(d);
    const std::size_t begin = std::min(n, static_cast<std::size_t>(d) * slab), end = std::min(n, begin + slab);
    streams.emplace_back();
    parts.push_back(pyk::to_device(std::vector<std::uint8_t>(data.begin() + begin, data.begin() + end)));
    histograms.push_back(pyk::to_device(std::vector<std::int32_t>(bins, 0)));
    // A grid-stride loop: a few blocks per multiprocessor of a large GPU.
    pyk::kernels::histogram({512, 256, 0, &streams.back()}, parts.back(), histograms.back());
  }

  if (pyk::current_device() != pyk::DeviceKind::Cuda) {
    // NCCL needs GPUs. The devices' histograms are summed here instead, to
    // check them; the test is then reported skipped, not passed.
    std::vector<std::int32_t> total(bins, 0), part(bins);
    for (int d = 0; d < devices; ++d) {
      pyk::DeviceScope on(d);
      streams[static_cast<std::size_t>(d)].synchronize();
      histograms[static_cast<std::size_t>(d)].copy_to_host(part);
      for (std::size_t b = 0; b < bins; ++b)
        total[b] += part[b];
    }
    if (total != expected) {
      std::printf("multi_gpu_allreduce: the %d devices' histograms do not add up to the data's\n", devices);
      return 1;
    }
    std::printf("multi_gpu_allreduce: skipped: NCCL runs on GPUs, and this process has none (%s); the histograms "
                "of its %d device%s, summed on the host, are right (%.1f ms)\n",
                pyk::device_name().c_str(), devices, devices == 1 ? "" : "s", millisecondsSince(started));
    return 77;
  }

  // One communicator per GPU; pyk's GPU g is CUDA ordinal g.
  std::vector<int> ordinals(static_cast<std::size_t>(devices));
  for (int g = 0; g < devices; ++g)
    ordinals[static_cast<std::size_t>(g)] = g;
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(devices));
  const auto setUp = std::chrono::steady_clock::now();
  ncclCheck(ncclCommInitAll(comms.data(), devices, ordinals.data()), "ncclCommInitAll");
  const double setUpMilliseconds = millisecondsSince(setUp);
  // One group: NCCL starts every GPU's all-reduce before waiting for any,
  // each queued behind that GPU's histogram kernel on its pyk stream.
  ncclCheck(ncclGroupStart(), "ncclGroupStart");
  for (int g = 0; g < devices; ++g) {
    auto &histogram = histograms[static_cast<std::size_t>(g)];
    ncclCheck(ncclAllReduce(histogram.data(), histogram.data(), bins, ncclInt32, ncclSum,
                            comms[static_cast<std::size_t>(g)],
                            static_cast<cudaStream_t>(streams[static_cast<std::size_t>(g)].native())),
              "ncclAllReduce");
  }
  ncclCheck(ncclGroupEnd(), "ncclGroupEnd");

  for (int g = 0; g < devices; ++g) {
    pyk::DeviceScope on(g);
    streams[static_cast<std::size_t>(g)].synchronize();
  }
  const double milliseconds = millisecondsSince(started);
  bool equal = true;
  for (int g = 0; g < devices; ++g) {
    pyk::DeviceScope on(g);
    std::vector<std::int32_t> got(bins);
    histograms[static_cast<std::size_t>(g)].copy_to_host(got);
    equal = equal && got == expected;
  }
  for (ncclComm_t comm : comms)
    ncclCommDestroy(comm);
  std::printf("multi_gpu_allreduce: %zu bytes counted on %d GPUs (%s, ...), histograms summed by ncclAllReduce, "
              "in %.1f ms (NCCL's set-up %.1f ms of it). Are results equal: %s\n",
              n, devices, pyk::device(0).name.c_str(), milliseconds, setUpMilliseconds, equal ? "True" : "False");
  return equal ? 0 : 1;
}
