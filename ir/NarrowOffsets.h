//===- NarrowOffsets.h - Which element offsets may be 32-bit --------------===//
//
// pykc --index-bits=32 (Module::narrowIndices): the one rule both GPU
// backends follow for where an element offset is computed in 32 bits.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_NARROWOFFSETS_H
#define PYK_IR_NARROWOFFSETS_H

#include "IR.h"
#include "IRWalk.h"

#include <algorithm>
#include <set>
#include <vector>

namespace pyk::ir {

/// Only a kernel's accesses to its array parameters (the launch checks
/// that those have fewer than 2^31 elements), and only where no index
/// reads a variable in `loopVariables` (what the loops around the access
/// assign): a compiler turns a 64-bit offset that a loop steps through into
/// a pointer increment, but cannot widen one truncated to 32 bits, which
/// would then be recomputed on every iteration (the naive matmul's inner
/// loop got twice the instructions). Shared and local memory need no rule:
/// their addresses are 32-bit on the GPU already.
inline bool hasNarrowOffset(const Module &module, const Function &function, const Variable &array,
                            const std::vector<ExprPtr> &indices, const std::set<const Variable *> &loopVariables) {
  if (!module.narrowIndices || function.kind != Function::Kind::Kernel || array.memory != Variable::Memory::Global)
    return false;
  return std::none_of(indices.begin(), indices.end(),
                      [&](const ExprPtr &index) { return readsAnyOf(*index, loopVariables); });
}

} // namespace pyk::ir

#endif // PYK_IR_NARROWOFFSETS_H
