//===- IRVerifier.h - Check the IR's invariants ---------------------------===//
//
// A failed check is a compiler bug, never a user error: the frontend must
// have rejected any program whose IR would break these rules.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_IRVERIFIER_H
#define PYK_IR_IRVERIFIER_H

#include "IR.h"

#include "llvm/Support/Error.h"

namespace pyk::ir {

/// Where in the pipeline the IR is: while lowering, Python's operations
/// (WrapIndex) may appear; after lowerPythonOps, the IR the backends
/// receive, only primitive ones.
enum class IRStage { Lowering, Lowered };

/// Checks that every operation's operands have the types it requires,
/// every local is declared before use and in scope, array accesses match
/// the array's rank with int64 indices, conditions are bool, and no
/// operation is left that `stage` has lowered. Returns success, or an error
/// listing every broken rule with its location.
llvm::Error verifyModule(const Module &module, IRStage stage = IRStage::Lowering);

} // namespace pyk::ir

#endif // PYK_IR_IRVERIFIER_H
