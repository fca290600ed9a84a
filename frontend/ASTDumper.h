//===- ASTDumper.h - Print an AST as an indented tree (--emit=ast) --------===//
#ifndef PYK_FRONTEND_ASTDUMPER_H
#define PYK_FRONTEND_ASTDUMPER_H

#include "AST.h"

#include "llvm/Support/raw_ostream.h"

namespace pyk {

/// Prints `module` one node per line, indented by depth, each with its
/// `@line:col` position, and the type Sema gave it when it has one.
void dumpAST(const ast::Module &module, llvm::raw_ostream &os);

} // namespace pyk

#endif // PYK_FRONTEND_ASTDUMPER_H
