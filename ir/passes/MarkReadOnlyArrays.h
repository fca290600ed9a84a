//===- MarkReadOnlyArrays.h - Find the arrays a function never writes -----===//
#ifndef PYK_IR_PASSES_MARKREADONLYARRAYS_H
#define PYK_IR_PASSES_MARKREADONLYARRAYS_H

#include "IR.h"

namespace pyk::ir {

/// Sets Variable::readOnly on every array parameter that no ArrayStore in
/// its function writes, so that backends can mark it `const __restrict__`
/// (CUDA C++) or `noalias readonly` (LLVM) and load it through the
/// read-only cache. Postcondition: readOnly is false for every written array.
void markReadOnlyArrays(Module &module);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_MARKREADONLYARRAYS_H
