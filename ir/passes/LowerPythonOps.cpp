//===- LowerPythonOps.cpp - Python's operations as primitive IR -----------===//
#include "passes/LowerPythonOps.h"

#include "IRMutator.h"
#include "passes/LowerFloat16.h"
#include "passes/PythonOpFunctions.h"

#include "llvm/Support/Casting.h"

#include <cassert>

namespace pyk::ir {
namespace {

ExprPtr call(const Function &callee, SourceRange loc, ExprPtr a, ExprPtr b) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return std::make_unique<Call>(loc, &callee, callee.returnType, std::move(args));
}

/// The primitive form of a Python operation, or null where `b` is one.
ExprPtr lowered(Binary &b, PythonOpFunctions &functions) {
  const ScalarKind kind = b.type().scalar;
  switch (b.op) {
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    // Checked mode reports a zero divisor where the division is.
    ExprPtr divisor = std::move(b.rhs);
    if (b.divisorCheck != NoCheck)
      divisor = std::make_unique<DivisorCheck>(b.loc(), std::move(divisor), b.divisorCheck);
    if (isNarrowFloat(kind)) {
      // As NumPy's float16: computed in float32 (which holds every float16
      // and bfloat16), the result rounded once.
      const Type float32 = Type::scalarType(ScalarKind::Float32);
      const Function &callee = b.op == BinaryOp::FloorDiv ? functions.floorDiv(float32.scalar)
                                                          : functions.mod(float32.scalar);
      ExprPtr lhs = std::make_unique<Cast>(b.loc(), float32, std::move(b.lhs));
      ExprPtr rhs = std::make_unique<Cast>(b.loc(), float32, std::move(divisor));
      return std::make_unique<Cast>(b.loc(), b.type(), call(callee, b.loc(), std::move(lhs), std::move(rhs)));
    }
    const Function &callee = b.op == BinaryOp::FloorDiv ? functions.floorDiv(kind) : functions.mod(kind);
    return call(callee, b.loc(), std::move(b.lhs), std::move(divisor));
  }
  case BinaryOp::Pow:
    if (auto *exponent = llvm::dyn_cast<Constant>(b.rhs.get()); isFloat(kind) && exponent && exponent->floatValue == 2.0) {
      // x ** 2: the correctly rounded square, pow's value (and Numba's),
      // which no target's pow is seen to be (libdevice's hides it).
      if (ExprPtr again = copyOfPure(*b.lhs))
        return std::make_unique<Binary>(b.loc(), BinaryOp::Mul, std::move(b.lhs), std::move(again));
      std::vector<ExprPtr> args;
      args.push_back(std::move(b.lhs));
      const Function &square = functions.square(kind);
      return std::make_unique<Call>(b.loc(), &square, square.returnType, std::move(args));
    }
    if (isFloat(kind)) {
      std::vector<ExprPtr> args;
      args.push_back(std::move(b.lhs));
      args.push_back(std::move(b.rhs));
      return std::make_unique<MathCall>(b.loc(), b.type(), "pow", std::move(args));
    }
    return call(functions.integerPow(kind), b.loc(), std::move(b.lhs), std::move(b.rhs));
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    return call(functions.shift(b.op == BinaryOp::Shl, kind), b.loc(), std::move(b.lhs), std::move(b.rhs));
  case BinaryOp::Min:
  case BinaryOp::Max:
    return call(functions.minMax(b.op == BinaryOp::Min, kind), b.loc(), std::move(b.lhs), std::move(b.rhs));
  case BinaryOp::Add:
  case BinaryOp::Sub:
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::And:
  case BinaryOp::Or:
  case BinaryOp::Xor:
  case BinaryOp::CDiv:
  case BinaryOp::CRem:
  case BinaryOp::CShl:
  case BinaryOp::CShr:
    break;
  }
  return nullptr;
}

/// A range with a step other than ±1 counts its iterations: Python's
/// len(range(...)), computed once the counter holds `start` (stop and step
/// are stable: the lowering evaluated them once, into locals where needed).
void countIterations(StmtList &body, PythonOpFunctions &functions) {
  for (StmtPtr &s : body) {
    if (auto *branch = llvm::dyn_cast<If>(s.get())) {
      countIterations(branch->thenBody, functions);
      countIterations(branch->elseBody, functions);
    } else if (auto *loop = llvm::dyn_cast<While>(s.get())) {
      countIterations(loop->body, functions);
    } else if (auto *range = llvm::dyn_cast<ForRange>(s.get())) {
      countIterations(range->body, functions);
      if (range->hasUnitStep())
        continue;
      ExprPtr stop = copyOfStable(*range->stop), step = copyOfStable(*range->step);
      assert(stop && step && "range bounds are evaluated once (Lowering::evaluatedOnce)");
      const Function &length = functions.rangeLength(range->var->type.scalar);
      std::vector<ExprPtr> args;
      args.push_back(std::make_unique<VarRef>(range->loc(), range->var));
      args.push_back(std::move(stop));
      args.push_back(std::move(step));
      range->tripCount = std::make_unique<Call>(range->loc(), &length, length.returnType, std::move(args));
    }
  }
}

} // namespace

void lowerPythonOps(Module &module) {
  PythonOpFunctions functions(module);
  for (auto &function : module.functions) {
    countIterations(function->body, functions);
    rewriteExprs(function->body, [&](ExprPtr &slot) {
      if (auto *binary = llvm::dyn_cast<Binary>(slot.get())) {
        if (ExprPtr primitive = lowered(*binary, functions))
          slot = std::move(primitive);
        return;
      }
      auto *wrap = llvm::dyn_cast<WrapIndex>(slot.get());
      if (!wrap)
        return;
      if (wrap->nonNegative) {
        slot = std::move(wrap->index);
        return;
      }
      slot = call(functions.wrapIndex(), wrap->loc(), std::move(wrap->index), std::move(wrap->extent));
    });
  }
  functions.addToModule(module);
}

} // namespace pyk::ir
