//===- CpuDeviceTarget.h - Compile LLVM IR for the CPU device -------------===//
//
// The CPU device runs the same IR compiled by LLVM for the machine pykc runs
// on (x86-64 here), into an object file that the generated host code links.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_LLVM_CPUDEVICETARGET_H
#define PYK_CODEGEN_LLVM_CPUDEVICETARGET_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace pyk::llvmgen {

/// A target machine for the host's triple and a generic CPU of its
/// architecture (the object may run on another machine of the same kind),
/// position-independent so that it links into executables and libraries.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createCpuDeviceTargetMachine(unsigned optLevel);

/// The relocatable object file of `module`.
llvm::Expected<std::string> emitObject(llvm::Module &module, llvm::TargetMachine &machine);

} // namespace pyk::llvmgen

#endif // PYK_CODEGEN_LLVM_CPUDEVICETARGET_H
