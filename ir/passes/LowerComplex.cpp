//===- LowerComplex.cpp - Complex numbers as the backends see them --------===//
#include "passes/LowerComplex.h"

#include "IRMutator.h"
#include "passes/PythonOpFunctions.h"

#include "llvm/Support/Casting.h"

#include <cassert>
#include <cmath>
#include <optional>

namespace pyk::ir {
namespace {

using llvm::dyn_cast;

ExprPtr callOf(const Function &callee, SourceRange loc, ExprPtr a, ExprPtr b = nullptr) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  if (b)
    args.push_back(std::move(b));
  return std::make_unique<Call>(loc, &callee, callee.returnType, std::move(args));
}

bool isComplexValue(const Expr &e) {
  return e.type().isScalar() && isComplex(e.type().scalar);
}

/// `z ** 2`, `z ** -3.0`: an exponent known to be an integer that ** takes
/// by repeated multiplication (magnitude at most 100, and not 0, which
/// gives 1 whatever z is), so that the rest of ** is not compiled.
std::optional<int32_t> constantIntegralExponent(const Expr &exponent) {
  auto *made = dyn_cast<ComplexMake>(&exponent);
  auto *re = made ? dyn_cast<Constant>(made->real.get()) : nullptr;
  auto *im = made ? dyn_cast<Constant>(made->imag.get()) : nullptr;
  if (!re || !im || im->floatValue != 0 || re->floatValue != std::floor(re->floatValue) ||
      std::fabs(re->floatValue) > 100 || re->floatValue == 0)
    return std::nullopt;
  return static_cast<int32_t>(re->floatValue);
}

/// The primitive form of a complex operation, or null where `e` is none.
ExprPtr lowered(Expr &e, PythonOpFunctions &functions) {
  const SourceRange loc = e.loc();
  if (auto *c = dyn_cast<Cast>(&e)) {
    if (!isComplexValue(e))
      return nullptr;
    const ScalarKind to = e.type().scalar, from = c->operand->type().scalar;
    if (from == to)
      return std::move(c->operand);
    if (isComplex(from))
      return callOf(functions.complexConvert(from, to), loc, std::move(c->operand));
    const Type part = Type::scalarType(complexPart(to));
    ExprPtr real = std::move(c->operand);
    if (real->type() != part)
      real = std::make_unique<Cast>(loc, part, std::move(real));
    return std::make_unique<ComplexMake>(loc, e.type(), std::move(real), std::make_unique<Constant>(loc, part, 0, 0.0));
  }
  if (auto *b = dyn_cast<Binary>(&e)) {
    if (!isComplexValue(e))
      return nullptr;
    if (std::optional<int32_t> n = b->op == BinaryOp::Pow ? constantIntegralExponent(*b->rhs) : std::nullopt)
      return callOf(functions.complexIntegerPower(e.type().scalar), loc, std::move(b->lhs),
                    std::make_unique<Constant>(loc, Type::scalarType(ScalarKind::Int32), *n, double(*n)));
    return callOf(functions.complexArithmetic(b->op, e.type().scalar), loc, std::move(b->lhs), std::move(b->rhs));
  }
  if (auto *u = dyn_cast<Unary>(&e)) {
    if (!isComplexValue(*u->operand))
      return nullptr;
    const ScalarKind kind = u->operand->type().scalar;
    switch (u->op) {
    case UnaryOp::Neg:
      return callOf(functions.complexNegate(kind), loc, std::move(u->operand));
    case UnaryOp::Abs:
      return callOf(functions.complexAbs(kind), loc, std::move(u->operand));
    case UnaryOp::Conj:
      return callOf(functions.complexConjugate(kind), loc, std::move(u->operand));
    default:
      assert(false && "Sema allows only -, abs and conjugate() of a complex number");
      return nullptr;
    }
  }
  if (auto *c = dyn_cast<Compare>(&e)) {
    if (!isComplexValue(*c->lhs))
      return nullptr;
    assert((c->op == CompareOp::Eq || c->op == CompareOp::Ne) && "complex numbers have no order");
    const Function &equalFunction = functions.complexEqual(c->lhs->type().scalar);
    ExprPtr equal = callOf(equalFunction, loc, std::move(c->lhs), std::move(c->rhs));
    if (c->op == CompareOp::Eq)
      return equal;
    return std::make_unique<Unary>(loc, UnaryOp::Not, std::move(equal));
  }
  return nullptr;
}

} // namespace

void lowerComplex(Module &module) {
  PythonOpFunctions functions(module);
  for (auto &function : module.functions)
    rewriteExprs(function->body, [&](ExprPtr &slot) {
      if (ExprPtr primitive = lowered(*slot, functions))
        slot = std::move(primitive);
    });
  functions.addToModule(module);
}

} // namespace pyk::ir
