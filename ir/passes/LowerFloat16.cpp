//===- LowerFloat16.cpp - float16 and bfloat16 as the backends see them ----===//
#include "passes/LowerFloat16.h"

#include "IRMutator.h"

#include "pyk/Float16.h"

#include "llvm/Support/Casting.h"

namespace pyk::ir {
namespace {

const Type float32Type = Type::scalarType(ScalarKind::Float32);

ExprPtr castTo(const Type &type, ExprPtr value) {
  const SourceRange loc = value->loc();
  return std::make_unique<Cast>(loc, type, std::move(value));
}

bool isNarrow(const Expr &e) { return e.type().isScalar() && isNarrowFloat(e.type().scalar); }
bool isBFloat16(const Expr &e) { return e.type().isScalar() && e.type().scalar == ScalarKind::BFloat16; }

ExprPtr widened(ExprPtr value) { return isNarrow(*value) ? castTo(float32Type, std::move(value)) : std::move(value); }

/// The constant's value as the 16-bit float holds it.
double rounded(double value, ScalarKind kind) {
  return kind == ScalarKind::Float16 ? static_cast<float>(pyk::float16(value))
                                     : static_cast<float>(pyk::bfloat16(value));
}

void lower(ExprPtr &slot) {
  Expr &e = *slot;
  const SourceRange loc = e.loc();
  const Type type = e.type();
  if (auto *constant = llvm::dyn_cast<Constant>(&e); constant && isNarrow(e)) {
    constant->floatValue = rounded(constant->floatValue, type.scalar);
  } else if (auto *call = llvm::dyn_cast<MathCall>(&e); call && isNarrow(e)) {
    // Computed in float32, its result rounded back.
    std::vector<ExprPtr> args;
    for (ExprPtr &arg : call->args)
      args.push_back(widened(std::move(arg)));
    slot = castTo(type, std::make_unique<MathCall>(loc, float32Type, call->name, std::move(args)));
  } else if (auto *unary = llvm::dyn_cast<Unary>(&e);
             unary && isNarrow(e) && (unary->op == UnaryOp::Round || isBFloat16(e))) {
    slot = castTo(type, std::make_unique<Unary>(loc, unary->op, widened(std::move(unary->operand))));
  } else if (auto *binary = llvm::dyn_cast<Binary>(&e); binary && isBFloat16(e)) {
    // bfloat16 arithmetic: float32's, rounded once.
    slot = castTo(type, std::make_unique<Binary>(loc, binary->op, widened(std::move(binary->lhs)),
                                                 widened(std::move(binary->rhs))));
  } else if (auto *compare = llvm::dyn_cast<Compare>(&e); compare && isBFloat16(*compare->lhs)) {
    compare->lhs = widened(std::move(compare->lhs));
    compare->rhs = widened(std::move(compare->rhs));
  } else if (auto *cast = llvm::dyn_cast<Cast>(&e); cast && cast->operand->type().isScalar() && type.isScalar()) {
    const ScalarKind from = cast->operand->type().scalar;
    // An integer reaches bfloat16's range through float64, exactly (to
    // 2^53), and is rounded once; float32 could round it twice.
    const bool throughDouble = type.scalar == ScalarKind::BFloat16 && isInteger(from);
    if (!isBackendConversion(from, type.scalar))
      cast->operand = castTo(throughDouble ? Type::scalarType(ScalarKind::Float64) : float32Type,
                             std::move(cast->operand));
  }
}

/// print() formats a float16 or bfloat16 as the float32 of the same value.
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

bool isNarrowFloat(ScalarKind kind) { return kind == ScalarKind::Float16 || kind == ScalarKind::BFloat16; }

bool isBackendConversion(ScalarKind from, ScalarKind to) {
  if (from == to || (!isNarrowFloat(from) && !isNarrowFloat(to)))
    return true;
  const ScalarKind other = isNarrowFloat(from) ? to : from;
  return other == ScalarKind::Float32 || (other == ScalarKind::Float64 && isNarrowFloat(to));
}

void lowerFloat16(Module &module) {
  for (auto &function : module.functions) {
    rewriteExprs(function->body, lower);
    widenPrinted(function->body);
  }
}

} // namespace pyk::ir
