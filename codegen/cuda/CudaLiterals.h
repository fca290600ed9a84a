//===- CudaLiterals.h - constants as CUDA C++ literals ---------------------===//
#ifndef PYK_CODEGEN_CUDA_CUDALITERALS_H
#define PYK_CODEGEN_CUDA_CUDALITERALS_H

#include "CudaCode.h"
#include "IR.h"

#include "llvm/Support/raw_ostream.h"

namespace pyk::cuda {

/// A scalar constant as a literal of its type: `1.5f`, `42ll`, `true`.
Code constant(const ir::Constant &c);

/// The C++ name of the program's copy of a constant array.
std::string constantArrayName(const ir::Variable &var);

/// A NumPy array constant as a __constant__ array at file scope.
void constantArray(const ir::Variable &var, llvm::raw_ostream &os);

} // namespace pyk::cuda

#endif // PYK_CODEGEN_CUDA_CUDALITERALS_H
