//===- cpu_launch_shim.cpp - One kernel launch on the CPU device, from C ---===//
//
// The Numba cross-check (cross_check.py) loads this shared library with
// ctypes and launches kernels through it: the KernelInfo of a kernel version
// that pykc generated (in NAME.pyk.cpp, which the driver compiles into its
// own shared object with NAME.pyk.cpu.o and a getter of each KernelInfo)
// runs through pyk::detail::launch, as the generated launch function runs
// it, so the launch validation, block scheduling, thread pool and checked
// mode's reports under test are the runtime's own. It also hands out the
// runtime's numba.cuda.random states, which the driver compares with Numba's.
//
//===----------------------------------------------------------------------===//
#include "pyk/Device.h"
#include "pyk/Error.h"
#include "pyk/Launch.h"
#include "pyk/Random.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

/// Copies `text` into the caller's buffer, truncated and null-terminated.
void setMessage(char *message, std::size_t messageSize, const char *text) {
  if (message && messageSize)
    std::snprintf(message, messageSize, "%s", text);
}

} // namespace

/// Runs one kernel version on pyk's CPU device and waits for it. `kernelInfo`
/// is its generated pyk::detail::KernelInfo. `args` is laid out as the
/// generated launch function lays it out (a scalar: one pointer to its
/// value; an array: a pointer to its data pointer, then one pointer to an
/// int64 per extent), kernelInfo->argCount entries. Returns 0 on success;
/// otherwise 1 and the runtime's error message (a launch error, or what a
/// checked kernel reported) in `message`, since a C++ exception must not
/// cross into the caller (Python's ctypes).
extern "C" __attribute__((visibility("default"))) int
pyk_cross_check_launch(void *kernelInfo, const std::uint32_t grid[3], const std::uint32_t block[3], void **args,
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
    auto &kernel = *static_cast<pyk::detail::KernelInfo *>(kernelInfo);
    // A checked kernel takes two more values, which the runtime fills in (the
    // check record's address and the KernelInfo's): the generated launch
    // function gives them 8 bytes each, and so does this.
    std::vector<void *> slots(args, args + kernel.argCount);
    std::uint64_t checkArguments[2] = {};
    if (kernel.checked) {
      slots.push_back(&checkArguments[0]);
      slots.push_back(&checkArguments[1]);
    }
    pyk::detail::launch(kernel, pyk::Launch{{grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}},
                        slots.data());
    pyk::synchronize();
    setMessage(message, messageSize, "");
    return 0;
  } catch (const std::exception &error) {
    setMessage(message, messageSize, error.what());
    return 1;
  }
}

/// Fills `out` (n states, NumPy's xoroshiro128p_dtype) with
/// pyk::random::init_xoroshiro128p_states_host. Returns 0, or 1 when the
/// runtime threw (a negative n), since no exception may cross into ctypes.
extern "C" __attribute__((visibility("default"))) int
pyk_cross_check_xoroshiro128p_states(void *out, std::int64_t n, std::uint64_t seed, std::uint64_t subsequence_start) {
  try {
    pyk::random::init_xoroshiro128p_states_host(static_cast<pyk::random::xoroshiro128p_state *>(out), n, seed,
                                                subsequence_start);
    return 0;
  } catch (const std::exception &) {
    return 1;
  }
}
