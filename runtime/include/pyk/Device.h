//===- pyk/Device.h - Which device runs kernels ----------------------------===//
//
// The runtime finds the devices once, on first use: the usable NVIDIA GPUs
// through the CUDA driver (loaded with dlopen, so programs start on
// machines without one), otherwise pyk's CPU device. PYK_DEVICE=cpu|cuda
// forces the choice; PYK_DEVICE=cuda without a usable GPU throws
// DeviceError, whose message says why. When a GPU was expected (a CUDA
// driver is installed, PYK_DEVICE is unset) but cannot be used, one line on
// stderr says why and that kernels run on the CPU device; without a driver
// the CPU device is chosen silently. PYK_CPU_THREADS sets the CPU device's
// thread count (default: one per hardware thread); PYK_CPU_DEVICES=N
// presents N CPU devices (default 1), which share those threads, so that
// programs for several GPUs run, and fail, on the CPU device as on GPUs.
//
// Each host thread has a current device, device 0 until set_device: arrays,
// streams and events are made on it and belong to it, and launches run on
// it. A launch or copy that mixes devices is a DeviceError naming both.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_DEVICE_H
#define PYK_DEVICE_H

#include <cstddef>
#include <string>

namespace pyk {

enum class DeviceKind { Cpu, Cuda };

/// The kind of device kernels run on (finds the devices on the first call).
DeviceKind current_device();

/// The current device's name: "CPU device (8 threads)" (with several, "CPU
/// device 1 (8 threads)") or "NVIDIA H200 (sm_90)".
std::string device_name();

/// Waits until all work submitted to the current device has finished, and
/// raises any error a kernel reported (KernelError) or the driver reported.
void synchronize();

/// One device, as pyk::device(index) describes it.
struct Device {
  int index = 0;
  DeviceKind kind = DeviceKind::Cpu;
  std::string name;                         ///< as device_name() says it
  int compute_major = 0, compute_minor = 0; ///< a GPU's compute capability (0 on the CPU device)
  std::size_t memory_bytes = 0;             ///< a GPU's memory; the host's for the CPU device
};

/// How many devices there are: the usable GPUs, or PYK_CPU_DEVICES.
int device_count();

/// Device `index`; DeviceError when there is no such device.
Device device(int index);

/// The calling thread's current device (0 until it calls set_device).
int get_device();

/// Makes device `index` the calling thread's current device; DeviceError
/// when there is no such device.
void set_device(int index);

/// Makes a device current for a scope and the one before current again at
/// its end: `{ pyk::DeviceScope on(1); ... }`.
class DeviceScope {
public:
  explicit DeviceScope(int index);
  ~DeviceScope();
  DeviceScope(const DeviceScope &) = delete;
  DeviceScope &operator=(const DeviceScope &) = delete;

private:
  int previous_;
};

} // namespace pyk

#endif // PYK_DEVICE_H
