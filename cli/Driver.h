//===- Driver.h - The compiler pipeline, stage by stage -------------------===//
//
// Runs the stages in order, stopping at the one --emit asks for, and times
// each one:
//   read -> tokens | parse -> ast | Sema, lowering -> ir | emit -> cuda
//                                                     | LLVM IR -> llvm
//                                                     | optimise, PTX -> ptx
//                                                     | ptxas -> cubin
//                                                     | + host object -> host
// Errors in the program are diagnostics; the driver never prints them.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CLI_DRIVER_H
#define PYK_CLI_DRIVER_H

#include "Diagnostics.h"
#include "ModuleImports.h"
#include "Sema.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pyk::driver {

enum class EmitKind { Tokens, Ast, Ir, Cuda, Llvm, Ptx, Cubin, Host };

/// What the CPU device runs: the LLVM backend's object (NAME.pyk.cpu.o),
/// or the CUDA C++ backend's code compiled for the host (NAME.pyk.cu and
/// NAME.pyk.cpu.cpp; codegen/cuda/CudaOnCpu.h).
enum class CpuDeviceCode { Llvm, Cuda };

struct Options {
  EmitKind emit = EmitKind::Cuda;
  std::string arch;
  unsigned optLevel = 3;
  bool lineInfo = false;
  /// Contract a float multiply and add into one fma in the PTX (pykc
  /// --fmad, true by default as in nvcc and Numba).
  bool fuseMultiplyAdd = true;
  /// Array element offsets in 32-bit arithmetic, with a launch-time check
  /// that the arrays are small enough (pykc --index-bits=32).
  bool narrowIndices = false;
  bool lineDirectives = true;
  /// Checked mode for every kernel (pykc --checked), not only those with
  /// `debug=True`.
  bool checked = false;
  /// Report, as remarks, which checks of checked mode were kept or elided.
  bool remarks = false;
  /// Dump the IR after these passes (pykc --print-ir-after; "all": every one).
  std::vector<std::string> printIrAfter;
  std::string compilerVersion;
  /// NAME of NAME.pyk, for the files --emit=host writes.
  std::string baseName;
  /// The compilation's tag for its host symbols (ir::Module::unitId).
  std::string unitId;
  /// --emit=host: embed this PTX (nvcc's, from the CUDA C++ backend)
  /// instead of compiling the kernels to PTX with LLVM.
  std::optional<std::string> embeddedPtx;
  /// Kernel signatures from the build (pykc --signature NAME=SIGNATURE).
  SemaOptions sema;
  /// CUDA C++ files to link besides those the .pyk file names (pykc
  /// --link; pyk_add_kernels LINK), relative to the working directory.
  std::vector<std::string> linkFiles;
  /// --emit=host: also embed a cubin for each of these architectures
  /// (ptxas on the PTX for it), so that those GPUs load without JIT.
  std::vector<std::string> cubinArchs;
  /// --emit=host: the CPU device's code (pykc --cpu-device-code).
  CpuDeviceCode cpuDeviceCode = CpuDeviceCode::Llvm;
};

enum class Status { Success, CompileError, InternalError };

/// Wall time per stage, in the order they ran.
using StageTimes = std::vector<std::pair<std::string, double>>;

struct Result {
  Status status = Status::Success;
  /// The requested output (text, or cubin bytes).
  std::string output;
  /// For --emit=host: the files to write, as (name, contents).
  std::vector<std::pair<std::string, std::string>> files;
  /// A compiler bug's description, when status is InternalError.
  std::string internalError;
  StageTimes times;
  /// The IR after each pass --print-ir-after names, for stderr.
  std::string irDumps;
  /// The files the compiled file imports (ModuleImports.h): the
  /// diagnostics point into them, so they live as long as the result.
  std::unique_ptr<ImportedFiles> imports;
  /// The CUDA C++ files the kernels link (`link=`), absolute paths: for
  /// the depfile, since editing one changes the build.
  std::vector<std::string> linkFiles;
};

/// Compiles `file` as `options` say; problems in the program go to `diags`.
Result compile(const SourceFile &file, const Options &options, DiagnosticEngine &diags);

} // namespace pyk::driver

#endif // PYK_CLI_DRIVER_H
