//===- SemaFp16.cpp - Calls of cuda.fp16's functions ----------------------===//
//
// cuda.fp16.hadd(a, b) and its siblings take float16 values and give a
// float16 (a bool for the comparisons heq ... hlt), Numba's signatures. As
// in Numba, whose overload resolution converts an argument to float16 when
// it must, another number is rounded to float16, with a warning unless it
// is a Python literal or constant (`hmul(h, 0.5)`).
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

namespace pyk::sema {

using namespace ast;

const Type *Sema::checkFp16(CallExpr &expr, Builtin builtin) {
  expr.function = builtin;
  const std::string name(builtinName(builtin));
  const int arity = builtinArity(builtin);
  if (!requirePositional(expr, name.c_str(), arity, arity))
    return setType(expr, types_.errorType());
  bool ok = true;
  for (ExprPtr &arg : expr.args) {
    const Type *type = checkValue(*arg);
    if (type->isError()) {
      ok = false;
    } else if (!type->isScalar()) {
      error(arg->range()) << name << "() takes float16 values, not " << describe(*arg);
      ok = false;
    } else if (type->scalarKind() != ScalarKind::Float16 && !arg->isWeak) {
      warning(arg->range()) << name << "() computes in float16: the " << type->str()
                            << " is rounded to float16, as Numba does; write 'float16(...)' to silence this";
    }
  }
  if (!ok)
    return setType(expr, types_.errorType());
  expr.operandType = types_.scalar(ScalarKind::Float16);
  return setType(expr, isFp16Comparison(builtin) ? types_.boolType() : expr.operandType);
}

} // namespace pyk::sema
