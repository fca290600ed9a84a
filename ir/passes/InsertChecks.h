//===- InsertChecks.h - Checked mode written out as IR --------------------===//
//
// planChecks decides which accesses, divisions and asserts a checked
// function checks; this pass writes each decision out as plain IR, so that
// a backend maps one failure node (CheckFailed) and nothing else of checked
// mode, and `pykc --emit=ir` shows every check.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_INSERTCHECKS_H
#define PYK_IR_PASSES_INSERTCHECKS_H

#include "IR.h"

namespace pyk::ir {

/// In checked functions:
/// - a load or atomic with checked axes becomes, per checked axis k,
///   `select(index_k <u extent_k, <the access>, check_failed(site, index_k,
///   extent_k))`, the first axis outermost, so a failed check yields 0 and
///   skips the access; an atomic's operands are evaluated first all the same;
/// - a checked store becomes `if index_k <u extent_k: store else:
///   check_failed(...)`, its value evaluated first (as Python does);
/// - a DivisorCheck becomes `select(divisor != 0, divisor, check_failed)`;
/// - an assert becomes `if not condition: check_failed`.
/// An index, value or divisor used more than once is evaluated once: a
/// small expression without effects or memory reads is written again (a
/// compiler computes it once), anything else is held in a hidden local
/// (a Declare before a store, a Let in an expression).
/// Elsewhere, asserts are removed: Numba compiles them out.
void insertChecks(Module &module);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_INSERTCHECKS_H
