//===- DeviceProbe.cpp - Prints which device the runtime selects -----------===//
//
// DeviceSelectionTest runs this in fresh processes with chosen environments
// (the device is selected once per process). It asks twice, to show that a
// failed selection is reported again on every use:
//   device: cpu|cuda / name: ...                       exit 0
//   DeviceError: ... (twice)                          exit 3
//
// With the argument "statics" it leaves an array and a stream with queued
// launches in statics constructed before the runtime's own, so that they are
// destroyed after them, when the program exits.
//
//===----------------------------------------------------------------------===//
#include "pyk/pyk.h"

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

std::vector<float> lateHost(1000, 1.0f); // destroyed last: the stream copies from it
std::optional<pyk::Stream> lateStream;
std::optional<pyk::DeviceArray<float, 1>> lateArray;

void slowBlock(void **, const pyk::detail::CpuBlockContext *) {
  std::this_thread::sleep_for(std::chrono::microseconds(100));
}

const pyk::detail::KernelModule slowModule{"probe", nullptr};
pyk::detail::KernelInfo slowKernel{&slowModule, "slow", slowBlock, 0};

int leaveWorkForExit() {
  lateStream.emplace();
  lateArray.emplace(pyk::device_empty<float>({1000}));
  for (int i = 0; i < 20; ++i) {
    lateArray->copy_from_host_async(lateHost, *lateStream);
    if (pyk::current_device() == pyk::DeviceKind::Cpu) // the kernel has no PTX
      pyk::detail::launch(slowKernel, {16, 1, 0, &*lateStream}, nullptr);
  }
  std::printf("statics: left work for exit\n");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::string(argv[1]) == "statics")
    return leaveWorkForExit();
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      pyk::DeviceKind kind = pyk::current_device();
      std::printf("device: %s\nname: %s\n", kind == pyk::DeviceKind::Cpu ? "cpu" : "cuda", pyk::device_name().c_str());
      return 0;
    } catch (const pyk::DeviceError &error) {
      std::printf("DeviceError: %s\n", error.what());
    }
  }
  return 3;
}
