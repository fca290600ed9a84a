//===- pyk/Error.h - Errors the pyk runtime throws -------------------------===//
//
// Every failure of the runtime throws a pyk::Error subclass whose message
// names the failed call, the driver's error name where there is one, and
// what the user can do about it.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_ERROR_H
#define PYK_ERROR_H

#include <stdexcept>
#include <string>

namespace pyk {

/// The base of all pyk runtime errors.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string &message) : std::runtime_error(message) {}
};

/// A CUDA driver call failed. `call()` is the driver function
/// ("cuMemAlloc_v2"), `code()` its CUresult, `name()` the error's name
/// ("CUDA_ERROR_OUT_OF_MEMORY").
class CudaError : public Error {
public:
  CudaError(std::string call, int code, std::string name, const std::string &message)
      : Error(message), call_(std::move(call)), code_(code), name_(std::move(name)) {}
  const std::string &call() const { return call_; }
  int code() const { return code_; }
  const std::string &name() const { return name_; }

private:
  std::string call_;
  int code_;
  std::string name_;
};

/// The requested device cannot be used (PYK_DEVICE=cuda without a usable
/// GPU, an unknown PYK_DEVICE value, set_device of a device that does not
/// exist, ...), or an operation mixes devices (a launch on device 0 with an
/// array of device 1).
class DeviceError : public Error {
public:
  using Error::Error;
};

/// A launch configuration the device cannot run (too many threads per
/// block, a zero dimension, too much shared memory, ...), rejected before
/// the launch.
class LaunchConfigError : public Error {
public:
  using Error::Error;
};

/// Shapes or sizes that do not match (a copy into a host buffer of another
/// size, an array of the wrong shape for a kernel parameter, ...).
class ShapeError : public Error {
public:
  using Error::Error;
};

/// A kernel compiled in checked mode found an error (out-of-bounds index,
/// division by zero, failed assert); raised at the next synchronisation. On
/// the CPU device also a kernel that misused a barrier or warp operation
/// (pyk/CpuDevice.h), raised by the launch on the default stream or by the
/// stream's next synchronize().
class KernelError : public Error {
public:
  using Error::Error;
};

} // namespace pyk

#endif // PYK_ERROR_H
