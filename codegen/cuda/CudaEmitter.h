//===- CudaEmitter.h - IR to readable CUDA C++ -----------------------------===//
//
// The CUDA C++ backend: one `extern "C" __global__` function per kernel,
// arrays passed as a data pointer plus one int64 extent per axis, arrays the
// kernel never writes as `const T* __restrict__`, and a `#line` directive
// before each statement so that nvcc, cuda-gdb and profilers point at the
// .pyk source.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_CUDA_CUDAEMITTER_H
#define PYK_CODEGEN_CUDA_CUDAEMITTER_H

#include "IR.h"

#include <set>

#include "llvm/Support/raw_ostream.h"

namespace pyk::cuda {

struct CudaEmitOptions {
  /// Emit `#line N "file.pyk"` before each statement.
  bool lineDirectives = true;
  /// The compiler's version, for the header comment.
  std::string compilerVersion;
};

/// Writes a complete .cu translation unit for `module` to `os`.
void emitCuda(const ir::Module &module, const CudaEmitOptions &options, llvm::raw_ostream &os);

/// The scalar kinds of the module's values, variables and record fields.
std::set<ScalarKind> scalarKindsUsed(const ir::Module &module);

} // namespace pyk::cuda

#endif // PYK_CODEGEN_CUDA_CUDAEMITTER_H
