//===- CudaOnCpu.h - The CPU device's code from the CUDA C++ ---------------===//
//
// pykc --cpu-device-code=cuda: instead of the LLVM backend's object, the
// CPU device runs the CUDA C++ this backend writes (NAME.pyk.cu), compiled
// by the host's C++ compiler against the runtime's pyk/CudaOnCpu.h. That
// executes the CUDA C++ backend's meaning where no GPU is, so that the
// tests that run kernels check both backends.
//
// NAME.pyk.cpu.cpp includes NAME.pyk.cu and defines each kernel's CPU
// entry (pyk/Launch.h's CpuKernelEntry), named as the launch code expects.
// The kernels keep their names in the .cu (the PTX's) but get the
// compilation's own symbols through asm labels, so that two files' kernels
// of one name link into one program.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_CUDA_CUDAONCPU_H
#define PYK_CODEGEN_CUDA_CUDAONCPU_H

#include "IR.h"

#include <string>

namespace pyk::cuda {

/// NAME.pyk.cpu.cpp for `module`, whose CUDA C++ is in `cudaFile`
/// (NAME.pyk.cu, in the same directory).
std::string emitCudaOnCpu(const ir::Module &module, const std::string &cudaFile, const std::string &compilerVersion);

/// NAME.pyk.link.cpp: the CUDA C++ files the kernels link (`link=`, for
/// the functions cuda.declare_device declares), compiled for the CPU
/// device against pyk/CudaOnCpu.h, as NAME.pyk.cpu.cpp compiles pyk's; a
/// comment alone where the kernels link none.
std::string emitLinkedFilesOnCpu(const ir::Module &module, const std::string &compilerVersion);

} // namespace pyk::cuda

#endif // PYK_CODEGEN_CUDA_CUDAONCPU_H
