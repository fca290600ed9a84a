//===- LowerPythonOps.h - Python's operations as primitive IR -------------===//
#ifndef PYK_IR_PASSES_LOWERPYTHONOPS_H
#define PYK_IR_PASSES_LOWERPYTHONOPS_H

#include "IR.h"

namespace pyk::ir {

/// Rewrites the operations whose meaning is Python's into primitive IR, so
/// that each rule is stated once, here, and every backend only maps
/// primitive operations to its target. After this pass the verifier
/// rejects the high-level operations (IRStage::Lowered).
///
/// WrapIndex (a negative index counts from the end), and Binary's FloorDiv,
/// Mod, integer Pow, Shl, Shr, Min and Max become calls of compiler-made
/// device functions (PythonOpFunctions.h: `pyk_wrap_index(index, extent)`,
/// `pyk_floordiv_i32(a, b)`, ...): each operand is evaluated once, as an
/// argument, and the CUDA C++ stays readable. A float Pow is the C
/// library's pow; a checked division's divisor is a DivisorCheck.
void lowerPythonOps(Module &module);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_LOWERPYTHONOPS_H
