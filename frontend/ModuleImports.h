//===- ModuleImports.h - Device functions and constants from other files --===//
//
// A kernel file may import device functions and module constants from
// files beside it, as a Numba program imports its own modules:
//   from .common import clamp, TPB      from common import clamp
//   from . import config  (config.TPB)  import mykernels.util as u  (u.clamp)
// resolveModuleImports reads those files (`.pyk`, then `.py`), and splices
// their device functions and constants into the module before Sema checks
// it, renamed where a name would clash, so that the rest of the compiler
// sees one module. Their kernels are not compiled here: each file is its
// own unit of the build. The library modules pykc compiles in
// (frontend/library/: `from numba.cuda.random import ...`) are spliced in
// the same way. Imports of anything else (numba, math, numpy, host
// libraries) are left to Sema (SemaImports.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_MODULEIMPORTS_H
#define PYK_FRONTEND_MODULEIMPORTS_H

#include "AST.h"
#include "Diagnostics.h"
#include "SourceFile.h"

#include <memory>
#include <string>
#include <vector>

namespace pyk {

/// The files a compilation read besides the one it was given. Owns their
/// text and their ASTs, which the spliced module points into: keep it
/// alive as long as the module.
struct ImportedFiles {
  std::vector<std::unique_ptr<SourceFile>> files;
  std::vector<std::unique_ptr<ast::Module>> modules;
  /// Every file read, in the order read (for pykc --depfile).
  std::vector<std::string> paths;
};

/// Resolves the imports of other files of the program in `module`, parsed
/// from `file`, and splices what they define into it. Errors (a missing
/// file, naming the paths tried; a cycle of imports; errors inside an
/// imported file, located there) go to `diags`, which learns the imported
/// files; afterwards the module is as if written in one file.
void resolveModuleImports(ast::Module &module, const SourceFile &file, DiagnosticEngine &diags,
                          ImportedFiles &imported);

} // namespace pyk

#endif // PYK_FRONTEND_MODULEIMPORTS_H
