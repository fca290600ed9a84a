//===- LowerComplex.h - Complex numbers as the backends see them ----------===//
//
// Complex numbers' meaning, stated once. Lowering writes Python's
// operations on complex64 and complex128 as the IR's own: Binary + - * /
// and **, Unary Neg, Abs (a float) and Conj, Compare == and !=, and Cast
// from any number to a complex type. This pass rewrites each as a call of
// a compiler-made function (PythonOpComplex.cpp) or, for a real number
// made complex, a ComplexMake with a zero imaginary part. After it, a
// backend sees complex values only in variables, loads, stores, calls,
// selects, ComplexMake and ComplexPart: it maps the type to a pair of its
// parts' floats and nothing else; the verifier checks that no other use
// reaches it.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_LOWERCOMPLEX_H
#define PYK_IR_PASSES_LOWERCOMPLEX_H

#include "IR.h"

namespace pyk::ir {

void lowerComplex(Module &module);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_LOWERCOMPLEX_H
