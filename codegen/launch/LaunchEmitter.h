//===- LaunchEmitter.h - C++ launch functions for the kernels of a file ---===//
//
// For NAME.pyk, writes NAME.pyk.h (one typed launch function per kernel in
// namespace pyk::kernels, through the inline namespaces NAME_pyk and the
// compilation's own pyk_unit_ID, so that each has a program-unique symbol)
// and NAME.pyk.cpp (the embedded PTX, the kernels'
// descriptors for the runtime, and the launch functions' bodies). The CPU
// device's code is separate (an object from CpuDeviceTarget.h, or the CUDA
// C++ compiled for the host, CudaOnCpu.h) and NAME.pyk.cpp refers to it by
// its entry points' names.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_LAUNCH_LAUNCHEMITTER_H
#define PYK_CODEGEN_LAUNCH_LAUNCHEMITTER_H

#include "IR.h"

#include <string>
#include <utility>
#include <vector>

namespace pyk::launch {

struct LaunchFiles {
  std::string header; ///< NAME.pyk.h
  std::string source; ///< NAME.pyk.cpp
};

struct LaunchEmitOptions {
  /// NAME, as in NAME.pyk.h.
  std::string baseName;
  /// The PTX to embed (for every kernel of the module).
  std::string ptx;
  /// Cubins to embed, as (architecture, bytes).
  std::vector<std::pair<std::string, std::string>> cubins;
  /// The PTX of the CUDA C++ files the kernels link, as (file, PTX): a GPU
  /// that loads `ptx` links it with them (the cubins are linked already).
  std::vector<std::pair<std::string, std::string>> linkedPtx;
  std::string compilerVersion;
  /// The file with the CPU device's code, for a comment: NAME.pyk.cpu.o,
  /// or NAME.pyk.cpu.cpp (pykc --cpu-device-code=cuda).
  std::string cpuDeviceFile;
};

/// The launch functions of every kernel in `module`.
LaunchFiles emitLaunchCode(const ir::Module &module, const LaunchEmitOptions &options);

} // namespace pyk::launch

#endif // PYK_CODEGEN_LAUNCH_LAUNCHEMITTER_H
