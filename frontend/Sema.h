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

#include <memory>
#include <optional>
#include <vector>

namespace pyk {

enum class FunctionKind { Kernel, Device };

/// The `@cuda.jit(...)` options that pyk honours.
struct FunctionOptions {
  bool fastmath = false;
  bool lineinfo = false;
};

/// What Sema learned about one kernel or device function.
struct FunctionInfo {
  const ast::FunctionDef *def = nullptr;
  FunctionKind kind = FunctionKind::Kernel;
  FunctionOptions options;
  std::vector<const Symbol *> params;
  /// Locals in order of their first assignment.
  std::vector<const Symbol *> locals;
  const Type *returnType = nullptr;
};

/// The result of checking one module. Owns the types and symbols the AST
/// now points to.
struct ModuleInfo {
  TypeContext types;
  std::vector<std::unique_ptr<Symbol>> symbols;
  std::vector<FunctionInfo> functions;
};

/// Resolves names and checks types in `module`, annotating its nodes.
/// Always returns the info; the program is valid only if `diags` has no
/// errors afterwards.
std::unique_ptr<ModuleInfo> checkModule(ast::Module &module, DiagnosticEngine &diags);

} // namespace pyk

#endif // PYK_FRONTEND_SEMA_H
