//===- Libdevice.h - Math functions from CUDA's libdevice -----------------===//
//
// Math calls in the LLVM module are calls to libdevice's `__nv_*` functions
// (__nv_sqrtf, __nv_expf, ...). This links the ones a module uses from the
// toolkit's libdevice.10.bc and internalises them, so that the PTX has no
// unresolved calls.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_LLVM_LIBDEVICE_H
#define PYK_CODEGEN_LLVM_LIBDEVICE_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>

namespace pyk::llvmgen {

/// $CUDA_HOME/nvvm/libdevice/libdevice.10.bc, or under /usr/local/cuda.
std::string defaultLibdevicePath();

/// True when `module` declares a libdevice function it does not define.
bool needsLibdevice(const llvm::Module &module);

/// Links the libdevice functions `module` uses (and only those) from the
/// bitcode file at `path`, makes them internal, and answers the questions
/// libdevice asks through __nvvm_reflect: denormals are kept and division
/// and square root are IEEE-rounded, unless `flushDenormals` (fastmath)
/// allows the fast forms. Fails if the file is missing or unreadable.
llvm::Error linkLibdevice(llvm::Module &module, const std::string &path, bool flushDenormals);

} // namespace pyk::llvmgen

#endif // PYK_CODEGEN_LLVM_LIBDEVICE_H
