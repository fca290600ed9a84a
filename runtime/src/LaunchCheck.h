//===- LaunchCheck.h - Validating a launch configuration -------------------===//
//
// Every launch is checked against the device's limits before anything else
// happens, on both devices, so that a configuration a GPU would reject is
// rejected the same way on the CPU device, with a message that says which
// limit it broke.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_LAUNCHCHECK_H
#define PYK_RUNTIME_LAUNCHCHECK_H

#include "DeviceState.h"
#include "pyk/Launch.h"

#include <string>

namespace pyk::detail {

/// How messages name a kernel: "vector_add (from vector_add.pyk)".
std::string kernelLabel(const KernelInfo &kernel);

/// How messages name a launch: "vector_add (from vector_add.pyk) with grid
/// (4, 1, 1) and block (256, 1, 1)".
std::string launchLabel(const KernelInfo &kernel, const Launch &config);

/// Throws LaunchConfigError when `config` breaks one of `state`'s limits:
/// a zero dimension, too many threads per block, a block or grid dimension
/// too large, or too much dynamic shared memory. Allocates nothing when the
/// configuration is valid.
void validateLaunch(const KernelInfo &kernel, const Launch &config, const DeviceState &state);

} // namespace pyk::detail

#endif // PYK_RUNTIME_LAUNCHCHECK_H
