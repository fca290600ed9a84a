//===- LLVMEmitter.h - IR to LLVM IR, for the GPU and the CPU device -------===//
//
// The PTX backend's first half, and the CPU device's: each kernel becomes
// an LLVM function (for NVPTX with the PTX kernel calling convention,
// arrays as `ptr addrspace(1)` parameters, noalias, readonly when never
// written, aligned to the element, each followed by one i64 extent per
// axis, thread indices as llvm.nvvm.read.ptx.sreg.* intrinsics; for the
// CPU device the runtime's entry for one block), and structured control
// flow becomes a CFG. One emitter writes what both share
// (FunctionEmitter.h); each target's differences are its own class
// (NVPTXFunctionEmitter.h, CpuDeviceFunctionEmitter.h). Not for
// optimisation or PTX emission (NVPTXTarget.h, CpuDeviceTarget.h).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_LLVM_LLVMEMITTER_H
#define PYK_CODEGEN_LLVM_LLVMEMITTER_H

#include "IR.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <memory>

namespace pyk::llvmgen {

/// Which machine the LLVM module is for.
enum class LLVMTarget {
  /// GPU kernels: one PTX kernel function per kernel, one call per thread.
  NVPTX,
  /// The CPU device: `void pyk_cpu_UNIT_NAME(void **args, const CpuBlockContext *)`
  /// per kernel, running every thread of one block as a loop nest (see
  /// runtime/include/pyk/Launch.h for the ABI).
  CpuDevice,
};

struct LLVMEmitOptions {
  LLVMTarget target = LLVMTarget::NVPTX;
  /// Attach .pyk line and column to every instruction, so that the PTX
  /// carries `.file`/`.loc` directives (no other debug information).
  bool lineInfo = false;
};

/// The NVPTX address spaces pyk uses.
enum AddressSpace : unsigned { Generic = 0, Global = 1, Shared = 3, Const = 4, Local = 5 };

/// Builds the LLVM module of `module` for `options.target` (the caller sets
/// the triple and data layout of its target machine). Requires verified IR;
/// the result passes llvm::verifyModule.
std::unique_ptr<llvm::Module> emitLLVMModule(const ir::Module &module, llvm::LLVMContext &context,
                                             const LLVMEmitOptions &options);

} // namespace pyk::llvmgen

#endif // PYK_CODEGEN_LLVM_LLVMEMITTER_H
