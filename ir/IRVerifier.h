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

/// Checks that every operation's operands have the types it requires,
/// every local is declared before use and in scope, array accesses match
/// the array's rank with int64 indices, and conditions are bool. Returns
/// success, or an error listing every broken rule with its location.
llvm::Error verifyModule(const Module &module);

} // namespace pyk::ir

#endif // PYK_IR_IRVERIFIER_H
