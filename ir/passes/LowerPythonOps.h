//===- LowerPythonOps.h - Python's operations as primitive IR -------------===//
#ifndef PYK_IR_PASSES_LOWERPYTHONOPS_H
#define PYK_IR_PASSES_LOWERPYTHONOPS_H

#include "IR.h"

namespace pyk::ir {

/// Rewrites the operations whose meaning is Python's into primitive IR, so
/// that each rule is stated once, here, and every backend only maps
/// primitive operations to its target. After this pass the verifier
/// rejects the high-level operations (verifyLoweredModule).
///
/// WrapIndex (a negative index counts from the end) becomes a call of a
/// compiler-made device function, `pyk_wrap_index(index, extent)`, whose
/// body is one Select: the index is evaluated once, as an argument, and the
/// CUDA C++ stays readable.
void lowerPythonOps(Module &module);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_LOWERPYTHONOPS_H
