//===- PythonOpFunctions.h - Python's operations written as IR functions ---===//
//
// Each of Python's operations that no target has as one instruction is
// written once, here, as a small compiler-made device function in primitive
// IR, one per operation and type (`pyk_floordiv_i32`, `pyk_shr_u8`, ...):
// the CUDA C++ backend prints it as a readable __forceinline__ function,
// the LLVM backend emits it as an alwaysinline one, and neither knows
// Python's rule.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_PYTHONOPFUNCTIONS_H
#define PYK_IR_PASSES_PYTHONOPFUNCTIONS_H

#include "IR.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pyk::ir {

/// Makes each function on first use, its callees before it; addToModule
/// puts them first in the module, in that order.
class PythonOpFunctions {
public:
  explicit PythonOpFunctions(const Module &module) : module_(module) {}

  /// `i < 0 ? i + n : i`: a negative index counts from the end.
  const Function &wrapIndex();
  /// Python's // and % of `kind` (integers: floor, the divisor's sign, 0
  /// by zero; floats: NumPy's npy_divmod).
  const Function &floorDiv(ScalarKind kind);
  const Function &mod(ScalarKind kind);
  /// ** on integers, by repeated squaring, wrapping.
  const Function &integerPow(ScalarKind kind);
  /// x ** 2 of a float: x * x, for an x to evaluate once.
  const Function &square(ScalarKind kind);
  /// << and >> as NumPy: a count outside [0, bits) gives 0 (-1 for >> of a
  /// negative value).
  const Function &shift(bool left, ScalarKind kind);
  /// Python's min(a, b) and max(a, b): b if b < a (b > a) else a.
  const Function &minMax(bool isMin, ScalarKind kind);
  /// Python's len(range(start, stop, step)) for a counter of `kind`, in
  /// the unsigned type of its width (0 for a zero step).
  const Function &rangeLength(ScalarKind kind);
  // Complex numbers (PythonOpComplex.cpp), of complex64 or complex128:
  /// + - * / and ** of two complex values, as CPython and Numba compute
  /// them (ComplexFunctions' comments say how).
  const Function &complexArithmetic(BinaryOp op, ScalarKind kind);
  /// a ** n of a complex a and an int32 n, repeated multiplication (the
  /// part of ** that an integral exponent takes).
  const Function &complexIntegerPower(ScalarKind kind);
  /// -z; z.conjugate(); abs(z), a float; z == w, a bool.
  const Function &complexNegate(ScalarKind kind);
  const Function &complexConjugate(ScalarKind kind);
  const Function &complexAbs(ScalarKind kind);
  const Function &complexEqual(ScalarKind kind);
  /// complex64 <-> complex128, part by part.
  const Function &complexConvert(ScalarKind from, ScalarKind to);
  /// The unsigned type of `kind`'s width, in which wrapping is defined.
  static ScalarKind unsignedOf(ScalarKind kind);

  void addToModule(Module &module);

private:
  Function *find(const std::string &name);
  Function &make(const std::string &name, const std::string &docstring, Type result);

  const Module &module_;
  std::map<std::string, Function *> byName_;
  std::vector<std::unique_ptr<Function>> made_;
};

} // namespace pyk::ir

#endif // PYK_IR_PASSES_PYTHONOPFUNCTIONS_H
