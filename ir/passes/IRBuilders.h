//===- IRBuilders.h - Short spellings of IR for compiler-made functions ---===//
//
// The functions the passes write (PythonOpFunctions.h) have no place in
// the .pyk file: their nodes carry no location, and these spell them.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_IRBUILDERS_H
#define PYK_IR_PASSES_IRBUILDERS_H

#include "IR.h"

#include <string>
#include <utility>
#include <vector>

namespace pyk::ir::builders {

// Expressions of compiler-made code, which has no place in the .pyk file.
inline ExprPtr ref(const Variable *var) {
  return std::make_unique<VarRef>(SourceRange{}, var);
}
inline ExprPtr integer(ScalarKind kind, int64_t value) {
  return std::make_unique<Constant>(SourceRange{}, Type::scalarType(kind), value, 0.0);
}
inline ExprPtr real(ScalarKind kind, double value) {
  return std::make_unique<Constant>(SourceRange{}, Type::scalarType(kind), 0, value);
}
inline ExprPtr binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs) {
  return std::make_unique<Binary>(SourceRange{}, op, std::move(lhs), std::move(rhs));
}
inline ExprPtr compare(CompareOp op, ExprPtr lhs, ExprPtr rhs) {
  return std::make_unique<Compare>(SourceRange{}, op, std::move(lhs), std::move(rhs));
}
inline ExprPtr logical(LogicalOp op, ExprPtr lhs, ExprPtr rhs) {
  return std::make_unique<Logical>(SourceRange{}, op, std::move(lhs), std::move(rhs));
}
inline ExprPtr select(ExprPtr condition, ExprPtr thenValue, ExprPtr elseValue) {
  return std::make_unique<Select>(SourceRange{}, std::move(condition), std::move(thenValue), std::move(elseValue));
}
inline ExprPtr cast(ScalarKind to, ExprPtr operand) {
  return std::make_unique<Cast>(SourceRange{}, Type::scalarType(to), std::move(operand));
}
inline ExprPtr math(ScalarKind kind, std::string name, ExprPtr a, ExprPtr b = nullptr) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  if (b)
    args.push_back(std::move(b));
  return std::make_unique<MathCall>(SourceRange{}, Type::scalarType(kind), std::move(name), std::move(args));
}

/// A function's body as it is written: parameters, locals, statements.
struct Writer {
  Function &function;
  const Variable *param(const char *name, ScalarKind kind) {
    return function.addParam(name, Type::scalarType(kind), {});
  }
  const Variable *local(const char *name, ScalarKind kind, ExprPtr init) {
    const Variable *var = function.addLocal(name, Type::scalarType(kind), {});
    function.body.push_back(std::make_unique<Declare>(SourceRange{}, var, std::move(init)));
    return var;
  }
  void assign(StmtList &body, const Variable *var, ExprPtr value) {
    body.push_back(std::make_unique<Assign>(SourceRange{}, var, std::move(value)));
  }
  void ret(ExprPtr value) { function.body.push_back(std::make_unique<Return>(SourceRange{}, std::move(value))); }
};

} // namespace pyk::ir::builders

#endif // PYK_IR_PASSES_IRBUILDERS_H
