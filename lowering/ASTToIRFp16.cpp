//===- ASTToIRFp16.cpp - cuda.fp16's and cuda.bf16's functions as IR -----===//
//
// Each function of cuda.fp16 is float16 IR (cuda.bf16's the same on
// bfloat16, which lowerFloat16 then computes in float32):
// hadd ... hdiv, hneg and habs are float16 arithmetic; the comparisons are
// float16 comparisons, hne the ordered one as Numba's setp.ne.f16 (false
// when either is NaN); hmax and hmin choose as Numba does (a > b ? a : b);
// the math functions are float16 math calls, which lowerFloat16 computes
// in float32 as CUDA's hsin does; hfma is float64's fma rounded to
// float16, which is the exact a * b + c rounded once, as the GPU's
// fma.rn.f16 rounds it: float64 holds the sum exactly unless a tiny
// product meets a larger c, and then the float64 rounding stays far closer
// to c than half a float16 unit, so it cannot cross a float16 midpoint
// (float16's small exponent range bounds how far apart they can be).
//
//===----------------------------------------------------------------------===//
#include "IRWalk.h"
#include "Lowering.h"

#include <cassert>

namespace pyk::ir::lowering {

ExprPtr Lowering::fp16(const ast::CallExpr &e) {
  const SourceRange loc = e.range();
  const Type half = toIRType(e.operandType); // float16, or bfloat16 for cuda.bf16
  std::vector<ExprPtr> args;
  for (const ast::ExprPtr &arg : e.args)
    args.push_back(castTo(expr(*arg), half));
  // Operands read twice are held once, in order (Let), unless stable.
  std::vector<std::pair<Variable *, ExprPtr>> held;
  auto twice = [&](ExprPtr &arg) {
    if (copyOfStable(*arg))
      return;
    Variable *var = function_.addHiddenLocal(uniqueName("pyk_fp16"), arg->type(), arg->loc());
    held.emplace_back(var, std::move(arg));
    arg = std::make_unique<VarRef>(loc, var);
  };
  auto withHeld = [&](ExprPtr result) {
    for (auto it = held.rbegin(); it != held.rend(); ++it)
      result = std::make_unique<Let>(loc, it->first, std::move(it->second), std::move(result));
    return result;
  };
  auto binary = [&](BinaryOp op) { return std::make_unique<Binary>(loc, op, std::move(args[0]), std::move(args[1])); };
  auto compare = [&](CompareOp op, ExprPtr a, ExprPtr b) {
    return std::make_unique<Compare>(loc, op, std::move(a), std::move(b));
  };
  auto math = [&](const char *name) { return std::make_unique<MathCall>(loc, half, name, std::move(args)); };
  auto one = [&] { return std::make_unique<Constant>(loc, half, 0, 1.0); };
  const Builtin op = asFp16Function(e.function);
  switch (op) {
  case Builtin::Fp16Add:
    return binary(BinaryOp::Add);
  case Builtin::Fp16Sub:
    return binary(BinaryOp::Sub);
  case Builtin::Fp16Mul:
    return binary(BinaryOp::Mul);
  case Builtin::Fp16Div:
    return binary(BinaryOp::Div);
  case Builtin::Fp16Neg:
    return std::make_unique<Unary>(loc, UnaryOp::Neg, std::move(args[0]));
  case Builtin::Fp16Abs:
    return std::make_unique<Unary>(loc, UnaryOp::Abs, std::move(args[0]));
  case Builtin::Fp16Fma: {
    const Type float64 = Type::scalarType(ScalarKind::Float64);
    for (ExprPtr &arg : args)
      arg = castTo(std::move(arg), float64);
    return castTo(std::make_unique<MathCall>(loc, float64, "fma", std::move(args)), half);
  }
  case Builtin::Fp16Max:
  case Builtin::Fp16Min: {
    twice(args[0]);
    twice(args[1]);
    ExprPtr choose = compare(op == Builtin::Fp16Max ? CompareOp::Gt : CompareOp::Lt, copyOfStable(*args[0]),
                             copyOfStable(*args[1]));
    return withHeld(std::make_unique<Select>(loc, std::move(choose), std::move(args[0]), std::move(args[1])));
  }
  case Builtin::Fp16Eq:
    return compare(CompareOp::Eq, std::move(args[0]), std::move(args[1]));
  case Builtin::Fp16Ne: {
    twice(args[0]);
    twice(args[1]);
    ExprPtr below = compare(CompareOp::Lt, copyOfStable(*args[0]), copyOfStable(*args[1]));
    ExprPtr above = compare(CompareOp::Gt, std::move(args[0]), std::move(args[1]));
    return withHeld(std::make_unique<Logical>(loc, LogicalOp::Or, std::move(below), std::move(above)));
  }
  case Builtin::Fp16Ge:
    return compare(CompareOp::Ge, std::move(args[0]), std::move(args[1]));
  case Builtin::Fp16Gt:
    return compare(CompareOp::Gt, std::move(args[0]), std::move(args[1]));
  case Builtin::Fp16Le:
    return compare(CompareOp::Le, std::move(args[0]), std::move(args[1]));
  case Builtin::Fp16Lt:
    return compare(CompareOp::Lt, std::move(args[0]), std::move(args[1]));
  case Builtin::Fp16Sin:
    return math("sin");
  case Builtin::Fp16Cos:
    return math("cos");
  case Builtin::Fp16Log:
    return math("log");
  case Builtin::Fp16Log10:
    return math("log10");
  case Builtin::Fp16Log2:
    return math("log2");
  case Builtin::Fp16Exp:
    return math("exp");
  case Builtin::Fp16Exp10:
    return math("exp10");
  case Builtin::Fp16Exp2:
    return math("exp2");
  case Builtin::Fp16Floor:
    return math("floor");
  case Builtin::Fp16Ceil:
    return math("ceil");
  case Builtin::Fp16Trunc:
    return math("trunc");
  case Builtin::Fp16Rint:
    return math("rint");
  case Builtin::Fp16Sqrt:
    return math("sqrt");
  case Builtin::Fp16Rsqrt: {
    // 1 / sqrt(x) in float32, rounded once to float16 at the end.
    const Type float32 = Type::scalarType(ScalarKind::Float32);
    ExprPtr root = std::make_unique<MathCall>(loc, float32, "sqrt", std::vector<ExprPtr>{});
    llvm::cast<MathCall>(*root).args.push_back(castTo(std::move(args[0]), float32));
    return castTo(std::make_unique<Binary>(loc, BinaryOp::Div, std::make_unique<Constant>(loc, float32, 0, 1.0),
                                           std::move(root)),
                  half);
  }
  case Builtin::Fp16Rcp:
    return std::make_unique<Binary>(loc, BinaryOp::Div, one(), std::move(args[0]));
  default:
    break;
  }
  assert(false && "Sema resolved every cuda.fp16 call");
  return nullptr;
}

} // namespace pyk::ir::lowering
