//===- NVPTXTarget.h - Optimise LLVM IR and emit PTX -----------------------===//
//
// The PTX backend's second half: LLVM 19's NVPTX target machine for one GPU
// architecture, the new pass manager's O0-O3 pipelines, and PTX text out.
// Only the NVPTX target is initialised, on first use.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_LLVM_NVPTXTARGET_H
#define PYK_CODEGEN_LLVM_NVPTXTARGET_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <vector>

namespace pyk::llvmgen {

/// The GPU architectures pyk compiles for ("sm_75" ... "sm_90").
const std::vector<std::string> &supportedArchitectures();
constexpr const char *defaultArchitecture = "sm_80";

/// The NVPTX target machine for `arch` at `optLevel` (0-3). Fails with a
/// message naming the supported architectures for an unknown one.
/// `fuseMultiplyAdd` contracts a float multiply and add into one fma, as
/// nvcc does by default (--fmad=true); off, each is rounded on its own.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXTargetMachine(const std::string &arch, unsigned optLevel, bool fuseMultiplyAdd = true);

/// Sets the module's triple and data layout to the target machine's.
void prepareModule(llvm::Module &module, llvm::TargetMachine &machine);

/// Runs the default per-module pipeline for `optLevel` (0-3), with the
/// target's own passes (for NVPTX: NVVMReflect, address-space inference)
/// registered; above 0, inlines once-called functions first
/// (InlineSingleCalls.h).
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel);

/// True when LLVM's --time-passes option is on (the driver then times its
/// stages too).
bool timePassesEnabled();

/// The PTX assembly of `module`.
llvm::Expected<std::string> emitPTX(llvm::Module &module, llvm::TargetMachine &machine);

} // namespace pyk::llvmgen

#endif // PYK_CODEGEN_LLVM_NVPTXTARGET_H
