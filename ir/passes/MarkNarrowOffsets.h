//===- MarkNarrowOffsets.h - Which element offsets may be 32-bit ----------===//
//
// pykc --index-bits=32 (Module::narrowIndices): the one decision of where an
// element offset is computed in 32 bits, made once and written into each
// access (ArrayLoad, ArrayStore, Atomic: narrowOffset) for both GPU
// backends to follow.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_MARKNARROWOFFSETS_H
#define PYK_IR_PASSES_MARKNARROWOFFSETS_H

#include "IR.h"

namespace pyk::ir {

/// Marks narrow only a kernel's accesses to its array parameters (the
/// launch checks that those have fewer than 2^31 elements), and only where
/// no index reads a variable that the loops around the access assign: a
/// compiler turns a 64-bit offset that a loop steps through into a pointer
/// increment, but cannot widen one truncated to 32 bits, which would then
/// be recomputed on every iteration (the naive matmul's inner loop got
/// twice the instructions). Shared and local memory need no rule: their
/// addresses are 32-bit on the GPU already. Nothing is marked unless
/// module.narrowIndices.
void markNarrowOffsets(Module &module);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_MARKNARROWOFFSETS_H
