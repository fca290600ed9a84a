//===- cpu_launch_shim.cpp - One kernel launch on the CPU device, from C ---===//
//
// The Numba cross-check (cross_check.py) loads this shared library with
// ctypes and launches kernels through it: the CPU entry pykc compiled
// (pyk_cpu_<unit>_<kernel>, from a NAME.pyk.cpu.o the driver links into its own
// shared object) runs through pyk::detail::launch, the same path a generated
// launch function takes, so the launch validation, block scheduling and
// thread pool under test are the runtime's own.
//
//===----------------------------------------------------------------------===//
#include "pyk/Device.h"
#include "pyk/Error.h"
#include "pyk/Launch.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

namespace {

/// Copies `text` into the caller's buffer, truncated and null-terminated.
void setMessage(char *message, std::size_t messageSize, const char *text) {
  if (message && messageSize)
    std::snprintf(message, messageSize, "%s", text);
}

} // namespace

/// Runs one kernel on pyk's CPU device and waits for it. `entry` is the
/// kernel's pyk_cpu_<unit>_<kernel> function; `source` and `name` (its .pyk file and
/// name) label the runtime's messages. `args` is laid out as a generated
/// launch function lays it out (a scalar: one pointer to its value; an array:
/// a pointer to its data pointer, then one pointer to an int64 per extent);
/// `argSizes` gives each value's bytes. Returns 0 on success; otherwise 1 and
/// the runtime's error message in `message`, since a C++ exception must not
/// cross into the caller (Python's ctypes).
extern "C" __attribute__((visibility("default"))) int
pyk_cross_check_launch(void *entry, const char *source, const char *name, const std::uint32_t grid[3],
                       const std::uint32_t block[3], unsigned argCount, const std::uint8_t *argSizes, void **args,
                       char *message, std::size_t messageSize) {
  try {
    // The runtime selects its device once, on first use, from PYK_DEVICE:
    // force the CPU device even on a machine with a GPU, where the entries
    // this shim is given could not run.
    static const bool cpuRequested = setenv("PYK_DEVICE", "cpu", 1) == 0;
    (void)cpuRequested;
    if (pyk::current_device() != pyk::DeviceKind::Cpu) {
      setMessage(message, messageSize, "pyk selected a GPU before the shim could select the CPU device");
      return 1;
    }
    // No PTX: the CPU device never reads it, and keeps neither the module
    // nor the kernel after a launch on the default stream returns.
    const pyk::detail::KernelModule module{source, ""};
    pyk::detail::KernelInfo kernel{&module, name, reinterpret_cast<pyk::detail::CpuKernelEntry>(entry), argCount,
                                   argSizes};
    pyk::detail::launch(kernel, pyk::Launch{{grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}}, args);
    pyk::synchronize();
    setMessage(message, messageSize, "");
    return 0;
  } catch (const std::exception &error) {
    setMessage(message, messageSize, error.what());
    return 1;
  }
}
