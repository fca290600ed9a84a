//===- LowerFloat16.cpp - float16 as the backends see it -------------------===//
#include "passes/LowerFloat16.h"

#include "IRMutator.h"

#include "pyk/Float16.h"

#include "llvm/Support/Casting.h"

namespace pyk::ir {
namespace {

const Type float16Type = Type::scalarType(ScalarKind::Float16);
const Type float32Type = Type::scalarType(ScalarKind::Float32);

ExprPtr castTo(const Type &type, ExprPtr value) {
  const SourceRange loc = value->loc();
  return std::make_unique<Cast>(loc, type, std::move(value));
}

bool isFloat16(const Expr &e) { return e.type().isScalar() && e.type().scalar == ScalarKind::Float16; }

ExprPtr widened(ExprPtr value) {
  return isFloat16(*value) ? castTo(float32Type, std::move(value)) : std::move(value);
}

void lower(ExprPtr &slot) {
  Expr &e = *slot;
  const SourceRange loc = e.loc();
  if (auto *constant = llvm::dyn_cast<Constant>(&e); constant && isFloat16(e)) {
    constant->floatValue = static_cast<float>(pyk::float16(constant->floatValue));
  } else if (auto *call = llvm::dyn_cast<MathCall>(&e); call && isFloat16(e)) {
    // Computed in float32, its result rounded back.
    std::vector<ExprPtr> args;
    for (ExprPtr &arg : call->args)
      args.push_back(widened(std::move(arg)));
    slot = castTo(float16Type, std::make_unique<MathCall>(loc, float32Type, call->name, std::move(args)));
  } else if (auto *unary = llvm::dyn_cast<Unary>(&e); unary && unary->op == UnaryOp::Round && isFloat16(e)) {
    slot = castTo(float16Type, std::make_unique<Unary>(loc, UnaryOp::Round, widened(std::move(unary->operand))));
  } else if (auto *cast = llvm::dyn_cast<Cast>(&e); cast && cast->operand->type().isScalar() && e.type().isScalar()) {
    if (!isBackendConversion(cast->operand->type().scalar, e.type().scalar))
      cast->operand = castTo(float32Type, std::move(cast->operand));
  }
}

/// print() formats a float16 as the float32 of the same value.
void widenPrinted(StmtList &body) {
  for (StmtPtr &s : body) {
    if (auto *print = llvm::dyn_cast<Print>(s.get())) {
      for (Print::Part &part : print->parts)
        if (part.value)
          part.value = widened(std::move(part.value));
    } else if (auto *branch = llvm::dyn_cast<If>(s.get())) {
      widenPrinted(branch->thenBody);
      widenPrinted(branch->elseBody);
    } else if (auto *loop = llvm::dyn_cast<While>(s.get())) {
      widenPrinted(loop->body);
    } else if (auto *range = llvm::dyn_cast<ForRange>(s.get())) {
      widenPrinted(range->body);
    }
  }
}

} // namespace

bool isBackendConversion(ScalarKind from, ScalarKind to) {
  if (from == to || (from != ScalarKind::Float16 && to != ScalarKind::Float16))
    return true;
  const ScalarKind other = from == ScalarKind::Float16 ? to : from;
  return other == ScalarKind::Float32 || (other == ScalarKind::Float64 && to == ScalarKind::Float16);
}

void lowerFloat16(Module &module) {
  for (auto &function : module.functions) {
    rewriteExprs(function->body, lower);
    widenPrinted(function->body);
  }
}

} // namespace pyk::ir
