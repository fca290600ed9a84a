//===- SemaFp16.cpp - Calls of cuda.fp16's and cuda.bf16's functions -------===//
//
// cuda.fp16.hadd(a, b) and its siblings take float16 values and give a
// float16 (a bool for the comparisons heq ... hlt), Numba's signatures;
// cuda.bf16's do the same on bfloat16. As in Numba, whose overload
// resolution converts an argument when it must, another number is rounded
// to the function's type, with a warning unless it is a Python literal or
// constant (`hmul(h, 0.5)`).
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

namespace pyk::sema {

using namespace ast;

const Type *Sema::checkFp16(CallExpr &expr, Builtin builtin) {
  expr.function = builtin;
  const std::string name(builtinName(builtin));
  const int arity = builtinArity(builtin);
  const ScalarKind kind = isBf16Function(builtin) ? ScalarKind::BFloat16 : ScalarKind::Float16;
  const std::string kindName(scalarName(kind));
  if (!requirePositional(expr, name.c_str(), arity, arity))
    return setType(expr, types_.errorType());
  if (builtin == Builtin::Bf16Fma) {
    // float64 does not always hold a * b + c of bfloat16 values exactly,
    // so its float64 fma could round twice.
    notSupportedYet(expr.callee->range(), "cuda.bf16.hfma");
    return setType(expr, types_.errorType());
  }
  bool ok = true;
  for (ExprPtr &arg : expr.args) {
    const Type *type = checkValue(*arg);
    if (type->isError()) {
      ok = false;
    } else if (!type->isScalar()) {
      error(arg->range()) << name << "() takes " << kindName << " values, not " << describe(*arg);
      ok = false;
    } else if (!checkNotComplexToReal(type, arg->range(), kind, "pass")) {
      ok = false;
    } else if (type->scalarKind() != kind && !arg->isWeak) {
      warning(arg->range()) << name << "() computes in " << kindName << ": the " << type->str() << " is rounded to "
                            << kindName << ", as Numba does; write '" << kindName << "(...)' to silence this";
    }
  }
  if (!ok)
    return setType(expr, types_.errorType());
  expr.operandType = types_.scalar(kind);
  return setType(expr, isHalfComparison(builtin) ? types_.boolType() : expr.operandType);
}

} // namespace pyk::sema
