//===- Ptxas.h - Assemble PTX into a cubin with the toolkit's ptxas -------===//
#ifndef PYK_CODEGEN_LLVM_PTXAS_H
#define PYK_CODEGEN_LLVM_PTXAS_H

#include "llvm/Support/Error.h"

#include <string>

namespace pyk::llvmgen {

/// ptxas from $CUDA_HOME/bin, /usr/local/cuda/bin or PATH; empty if none.
std::string findPtxas();

/// Assembles `ptx` for `arch` ("sm_90") into cubin bytes. Fails with
/// ptxas's own messages when it rejects the PTX, or when it cannot run.
llvm::Expected<std::string> assembleCubin(const std::string &ptx, const std::string &arch);

} // namespace pyk::llvmgen

#endif // PYK_CODEGEN_LLVM_PTXAS_H
