//===- LowerFloat16.h - float16 and bfloat16 as the backends see them ------===//
//
// float16's meaning, stated once: its values are IEEE binary16; + - * /
// and comparisons act on them directly, each result rounded once to
// float16 (the GPUs' f16 instructions, NumPy's float16). Everything else
// goes through float32, which holds every float16 exactly and has more
// than twice its precision plus two bits:
//  - a math function (math.sin, the floor a // does) is computed in float32
//    and its result rounded to float16, as CUDA's hsin and NumPy's float16
//    ufuncs compute;
//  - round() rounds the float32 value (exact: its integers fit float16);
//  - a conversion to or from any type but float32 goes through float32
//    (exact for every integer a float16 can reach, and for float16 to
//    float64), except from float64, which rounds once, directly;
//  - a float16 constant holds the float16 nearest its value;
//  - print() formats the float32 of the same value.
// (Python's // and % on either are computed in float32 too: lowerPythonOps.)
// bfloat16 (float32's exponent, 8 bits of precision) is the same, except
// that an integer converts to it through float64 (exact to 2^53, beyond
// which an int64 rounds twice), and that its arithmetic, negation, abs and
// comparisons are float32's too, each result rounded once: what a GPU
// without bf16 instructions does, and the same value (float32 has more than
// twice its precision plus two bits).
// So a backend maps float16 arithmetic, comparisons, negation, abs and the
// conversions float32 <-> float16 and float64 -> float16 to its target;
// for bfloat16 only loads, stores, moves and the conversions float32 <->
// bfloat16 and float64 -> bfloat16 (rounded once); the verifier checks that
// no other use reaches it.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_LOWERFLOAT16_H
#define PYK_IR_PASSES_LOWERFLOAT16_H

#include "IR.h"

namespace pyk::ir {

void lowerFloat16(Module &module);

/// float16 and bfloat16.
bool isNarrowFloat(ScalarKind kind);

/// Whether a backend may be given a conversion from `from` to `to`, after
/// lowerFloat16: any that involves neither 16-bit float, and one of them to
/// and from float32 and from float64.
bool isBackendConversion(ScalarKind from, ScalarKind to);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_LOWERFLOAT16_H
