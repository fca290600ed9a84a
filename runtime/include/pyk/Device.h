//===- pyk/Device.h - Which device runs kernels ----------------------------===//
//
// The runtime picks the device once, on first use: a usable NVIDIA GPU
// through the CUDA driver (loaded with dlopen, so programs start on
// machines without one), otherwise pyk's CPU device. PYK_DEVICE=cpu|cuda
// forces the choice; PYK_DEVICE=cuda without a usable GPU throws
// DeviceError, whose message says why. When a GPU was expected (a CUDA
// driver is installed, PYK_DEVICE is unset) but cannot be used, one line on
// stderr says why and that kernels run on the CPU device; without a driver
// the CPU device is chosen silently. PYK_CPU_THREADS sets the CPU device's
// thread count (default: one per hardware thread).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_DEVICE_H
#define PYK_DEVICE_H

#include <string>

namespace pyk {

enum class DeviceKind { Cpu, Cuda };

/// The device kernels run on (selects it on the first call).
DeviceKind current_device();

/// A human-readable name: "CPU device (8 threads)" or "NVIDIA H200 (sm_90)".
std::string device_name();

/// Waits until all work submitted to the current device has finished, and
/// raises any error a kernel reported (KernelError) or the driver reported.
void synchronize();

} // namespace pyk

#endif // PYK_DEVICE_H
