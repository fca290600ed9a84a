//===- Sema.h - Name resolution and type checking --------------------------===//
//
// Sema decides, once, what every name means and what type every expression
// has, and reports each rule the program breaks with a located diagnostic.
// It writes its findings into the AST (Expr::type and friends) and returns
// what later stages need about each function. Backends never re-check.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_SEMA_H
#define PYK_FRONTEND_SEMA_H

#include "AST.h"
#include "Diagnostics.h"
#include "Symbols.h"
#include "Types.h"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pyk {

enum class FunctionKind { Kernel, Device };

/// The `@cuda.jit(...)` options that pyk honours.
struct FunctionOptions {
  bool fastmath = false;
  /// `debug=True`: checked mode for this function (pykc --checked: for all).
  bool debug = false;
  bool lineinfo = false;
  /// `inline=True` on a device function: always inlined into its callers.
  bool inlineAlways = false;
  /// Kernels: `max_registers=N` (0: not given).
  unsigned maxRegisters = 0;
  /// Kernels: `launch_bounds=T` or `(T, minBlocks)` (0: not given).
  unsigned maxThreadsPerBlock = 0;
  unsigned minBlocksPerMultiprocessor = 0;
};

/// What Sema learned about one kernel or device function, compiled for one
/// type signature.
struct FunctionInfo {
  /// The definition; for a function compiled for several signatures, a copy
  /// of it per signature (ASTClone.h), each with its own annotations.
  const ast::FunctionDef *def = nullptr;
  FunctionKind kind = FunctionKind::Kernel;
  FunctionOptions options;
  /// A device function with parameters of no declared type, as Numba's
  /// lazily typed ones: never compiled itself, but once per distinct tuple
  /// of argument types it is called with (its instances).
  bool generic = false;
  /// Decorated with Numba's CPU compiler (@njit, @numba.jit): compiled as a
  /// device function for the kernels that call it.
  bool fromCpuJit = false;
  /// An instance: the generic device function, or the kernel of several
  /// signatures, that this is one version of.
  const FunctionInfo *instanceOf = nullptr;
  /// One of several versions of one definition that are compiled: what
  /// tells this one apart in generated names (`float32_1d_float32`, from
  /// the parameter types). Empty for a definition compiled once.
  std::string versionTag;
  std::vector<const Symbol *> params;
  /// Locals in order of their first assignment.
  std::vector<const Symbol *> locals;
  /// The module's constant arrays it reads by name (`PRICES[i]`), each
  /// once, in order of first use: the IR gives each a variable.
  std::vector<const Symbol *> constantArrays;
  /// Kernels: void. Device functions: annotated, from the signature, or
  /// inferred from the return statements. Null only while unknown.
  const Type *returnType = nullptr;
  /// The device functions this one calls, each once, in order of first call.
  std::vector<const FunctionInfo *> callees;
  /// Writes an array, prints, or calls a function that does: its calls are
  /// not pure, so they may be neither repeated nor reordered.
  bool hasSideEffects = false;
  /// On a call cycle (reported): calls to it are not checked further.
  bool recursive = false;
  /// Waits at a block barrier (cuda.syncthreads), itself or through a
  /// callee: the CPU device then runs each thread on a fiber.
  bool synchronises = false;
  /// Waits at a barrier of the whole grid (`g.sync()` of
  /// cuda.cg.this_grid()), itself or through a callee: its kernels are
  /// launched cooperatively.
  bool gridSynchronises = false;
};

/// The result of checking one module. Owns the types and symbols the AST
/// now points to.
struct ModuleInfo {
  TypeContext types;
  std::vector<std::unique_ptr<Symbol>> symbols;
  /// In source order, then the instances in the order they were made (a
  /// deque: Sema keeps pointers to its elements while adding more).
  std::deque<FunctionInfo> functions;
  /// The copies of definitions that instances are checked on, and those
  /// compiled under another name by a module-level call (`k = cuda.jit(sig)(f)`).
  std::vector<std::unique_ptr<ast::FunctionDef>> instanceDefs;
  /// Indices into `functions` of what is compiled, every function after
  /// the device functions it calls (source order otherwise): the order in
  /// which to define them. Generic device functions are not in it.
  std::vector<size_t> definitionOrder;
  /// The record types the file defines (`Point = np.dtype([...])`); the IR
  /// shares them, since its types point at them.
  std::vector<std::shared_ptr<const RecordType>> recordTypes;
  /// The CUDA C++ device functions the file declares (cuda.declare_device).
  std::deque<ForeignFunction> foreignFunctions;
  /// The files that hold their code, as the file names them (`link=` of
  /// declare_device and of @cuda.jit), each once, in order, and where.
  std::vector<std::pair<std::string, SourceRange>> linkFiles;

  const FunctionInfo *infoFor(const ast::FunctionDef *def) const {
    for (const FunctionInfo &function : functions)
      if (function.def == def)
        return &function;
    return nullptr;
  }
};

/// What the build says about the module beyond its text.
struct SemaOptions {
  /// Signatures of kernels, by kernel name (`pykc --signature NAME=SIG`),
  /// in any spelling a decorator takes: for lazily typed kernels, whose
  /// file gives no types, and for more versions of typed ones.
  std::map<std::string, std::vector<std::string>> signatures;
};

/// Resolves names and checks types in `module`, annotating its nodes.
/// Always returns the info; the program is valid only if `diags` has no
/// errors afterwards.
std::unique_ptr<ModuleInfo> checkModule(ast::Module &module, DiagnosticEngine &diags,
                                        const SemaOptions &options = {});

} // namespace pyk

#endif // PYK_FRONTEND_SEMA_H
