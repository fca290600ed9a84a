//===- CudaToolkit.h - The CUDA toolkit's programs: ptxas, nvcc, nvlink ----===//
//
// pykc makes PTX itself; the toolkit assembles it into cubins (ptxas),
// compiles the hand-written CUDA C++ files kernels link (nvcc), and links
// the two (nvlink). Each program runs on temporary files, and a failure
// carries the program's own messages.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_LLVM_CUDATOOLKIT_H
#define PYK_CODEGEN_LLVM_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace pyk::llvmgen {

/// The toolkit's program `name` ("ptxas", "nvcc", "nvlink") from
/// $CUDA_HOME/bin, /usr/local/cuda/bin or PATH; empty if none.
std::string findToolkitProgram(llvm::StringRef name);

/// Assembles `ptx` for `arch` ("sm_90") into cubin bytes. Relocatable
/// (ptxas -c): an object for linkCubins, whose calls to functions it
/// declares but does not define are left to the link. Fails with ptxas's
/// own messages when it rejects the PTX (which call it `name`.ptx), or
/// when it cannot run.
llvm::Expected<std::string> assembleCubin(const std::string &ptx, const std::string &arch, bool relocatable = false,
                                          const std::string &name = "kernels");

/// The CUDA C++ file at `path` compiled by nvcc to relocatable PTX for
/// `arch` ("sm_80": nvcc -rdc=true -ptx -arch=compute_80), so that its
/// device functions can be linked with kernels that call them.
llvm::Expected<std::string> compileCudaToPtx(const std::string &path, const std::string &arch);

/// Relocatable cubins for `arch`, as (name, bytes), linked by nvlink into
/// one cubin that a GPU loads; fails with nvlink's messages, which call
/// each object by its name (a function no object defines).
llvm::Expected<std::string> linkCubins(const std::vector<std::pair<std::string, std::string>> &objects,
                                       const std::string &arch);

} // namespace pyk::llvmgen

#endif // PYK_CODEGEN_LLVM_CUDATOOLKIT_H
