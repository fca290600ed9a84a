//===- DeviceProbe.cpp - Prints which device the runtime selects -----------===//
//
// DeviceSelectionTest runs this in fresh processes with chosen environments
// (the device is selected once per process). It asks twice, to show that a
// failed selection is reported again on every use:
//   device: cpu|cuda / name: ...                       exit 0
//   DeviceError: ... (twice)                          exit 3
//
//===----------------------------------------------------------------------===//
#include "pyk/pyk.h"

#include <cstdio>

int main() {
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
