//===- ASTClone.h - Copies of functions, for one body per type signature --===//
//
// Sema writes its findings (types, symbols, constants) into the AST, so a
// function compiled for several type signatures (a kernel with a list of
// signatures, a device function called with several argument types) needs
// one body per signature. Each is a copy of the function as the parser built
// it: the syntax only, none of Sema's annotations.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_ASTCLONE_H
#define PYK_FRONTEND_ASTCLONE_H

#include "AST.h"

#include <memory>

namespace pyk::ast {

/// A copy of `expr`'s syntax, without Sema's annotations.
ExprPtr cloneExpr(const Expr &expr);

/// A copy of `def`'s syntax (decorators, parameters, annotations, body),
/// without Sema's annotations; source ranges are the original's, so that
/// diagnostics point at the one text both share.
std::unique_ptr<FunctionDef> cloneFunction(const FunctionDef &def);

} // namespace pyk::ast

#endif // PYK_FRONTEND_ASTCLONE_H
