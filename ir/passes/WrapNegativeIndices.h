//===- WrapNegativeIndices.h - Python's negative indices count from the end ===//
#ifndef PYK_IR_PASSES_WRAPNEGATIVEINDICES_H
#define PYK_IR_PASSES_WRAPNEGATIVEINDICES_H

#include "Diagnostics.h"
#include "IR.h"

namespace pyk::ir {

/// Numba and Python: `x[-1]` is the last element, and `x[i - 1]` at
/// `i = 0` too. Every array index (loads, stores, atomics, every kind of
/// memory) that the guard analysis (GuardWalk.h) cannot show to be at
/// least 0 becomes a WrapIndex, one select where it runs; a constant
/// negative index becomes `index + extent` (a constant for shared and
/// local arrays). When `remarks` is not null, says where a select stayed,
/// and why the analysis could not drop it.
void wrapNegativeIndices(Module &module, DiagnosticEngine *remarks);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_WRAPNEGATIVEINDICES_H
