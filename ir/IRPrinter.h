//===- IRPrinter.h - Print the IR as text (--emit=ir) ---------------------===//
#ifndef PYK_IR_IRPRINTER_H
#define PYK_IR_IRPRINTER_H

#include "IR.h"

#include "llvm/Support/raw_ostream.h"

namespace pyk::ir {

/// Prints every function: one statement per line with its `@line:col`,
/// expressions as `op:type(operands)`.
void printModule(const Module &module, llvm::raw_ostream &os);

/// Prints one expression on one line (for tests and verifier messages).
void printExpr(const Expr &expr, llvm::raw_ostream &os);

} // namespace pyk::ir

#endif // PYK_IR_IRPRINTER_H
