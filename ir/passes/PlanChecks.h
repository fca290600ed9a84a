//===- PlanChecks.h - Checked mode: which accesses need a run-time check --===//
#ifndef PYK_IR_PASSES_PLANCHECKS_H
#define PYK_IR_PASSES_PLANCHECKS_H

#include "Diagnostics.h"
#include "IR.h"

namespace pyk::ir {

/// Checked mode. Marks as checked every kernel that asked for it
/// (Function::checked, from `debug=True`), every kernel when
/// `checkEveryKernel` (pykc --checked), and every device function a checked
/// function calls. In each checked function it gives every array access
/// one check site per axis, every integer `//` and `%` whose divisor may be
/// zero a site, and every assert a site (Module::checkSites), except where
/// the guard analysis proves the check cannot fail: an index of the form
/// `v + c` where `v + c >= 0` and `v + c < extent` follow from
/// - tests that dominate the access (`if`, `while`, the left side of
///   `and`/`or`, a conditional expression's condition, and an earlier
///   `if ...: return/break/continue`),
/// - `for v in range(...)` with a positive step,
/// - how `v` was defined, when it is never reassigned: thread and block
///   indices and cuda.grid() are never negative.
/// When `remarks` is not null, says for every axis of every access whether
/// its check was kept or elided, and why.
void planChecks(Module &module, bool checkEveryKernel, DiagnosticEngine *remarks);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_PLANCHECKS_H
