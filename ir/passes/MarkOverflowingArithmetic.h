//===- MarkOverflowingArithmetic.h - Where integer arithmetic may wrap ----===//
//
// Integer + - * and unary - wrap in pyk, as in NumPy; the IR's operations
// mean exactly that, and the LLVM backend writes them so (no nsw). C++
// leaves signed overflow undefined, and compilers use that (nvcc and the
// host's compilers alike), so the CUDA C++ backend must spell out a wrap
// wherever one can happen, and only there, to stay readable. This pass
// decides where, once: it marks each Binary and Unary whose exact result
// may not fit its type (mayOverflow), from the values the operands can
// take (IndexAlgebra's intervals, with a `for` counter no lower than its
// start): `blockIdx.x * blockDim.x + threadIdx.x` cannot overflow; an int32
// product of two loaded values can. As checked mode's analysis does, int64
// sums and products of non-negative values are taken not to overflow:
// index arithmetic, which would take values of 2^63. Narrower types
// compute in int after C's promotion, where only a uint16 product can
// overflow.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_MARKOVERFLOWINGARITHMETIC_H
#define PYK_IR_PASSES_MARKOVERFLOWINGARITHMETIC_H

#include "IR.h"

namespace pyk::ir {

void markOverflowingArithmetic(Module &module);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_MARKOVERFLOWINGARITHMETIC_H
