//===- ASTToIRMath.cpp - Math, libdevice and tuple-valued builtin calls ---===//
//
// math.f(x) becomes the C library's function as a MathCall, or where Numba
// computes it otherwise (isnan, fabs, radians, degrees) the IR that says
// how; math.modf and math.frexp, which return tuples, become IR from
// functions every backend has. No backend knows more of the math module.
// cuda.libdevice's functions become LibdeviceCalls, one per value, and
// cuda.match_all_sync's tuple is made from its one GpuOp.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "llvm/Support/Casting.h"

namespace pyk::ir::lowering {

/// math.NAME(...): a MathCall in the arguments' float type; floor, ceil
/// and trunc then become int64; isnan, isinf and isfinite are comparisons.
ExprPtr Lowering::math(const ast::CallExpr &e) {
  const MathFunctionInfo &function = *e.mathFunction;
  const Type floatType = toIRType(e.operandType);
  std::vector<ExprPtr> args;
  for (const ast::ExprPtr &arg : e.args) {
    const bool exponent = function.int32Exponent && !args.empty();
    args.push_back(castTo(expr(*arg), exponent ? Type::scalarType(ScalarKind::Int32) : floatType));
  }
  const SourceRange loc = e.range();
  auto infinity = [&] { return std::make_unique<Constant>(loc, floatType, 0, __builtin_inf()); };
  if (function.name == "isnan") {
    // NaN is the one value unequal to itself; the operand is pure, so
    // evaluating it twice is safe.
    ExprPtr again = expr(*e.args.front());
    return std::make_unique<Compare>(loc, CompareOp::Ne, std::move(args.front()), castTo(std::move(again), floatType));
  }
  if (function.name == "isinf" || function.name == "isfinite") {
    ExprPtr magnitude = std::make_unique<Unary>(loc, UnaryOp::Abs, std::move(args.front()));
    return std::make_unique<Compare>(loc, function.name == "isinf" ? CompareOp::Eq : CompareOp::Lt,
                                     std::move(magnitude), infinity());
  }
  if (function.name == "fabs")
    return std::make_unique<Unary>(loc, UnaryOp::Abs, std::move(args.front()));
  if (function.factor != 0)
    return std::make_unique<Binary>(loc, BinaryOp::Mul,
                                    std::make_unique<Constant>(loc, floatType, 0, function.factor),
                                    std::move(args.front()));
  ExprPtr call = std::make_unique<MathCall>(loc, floatType, std::string(function.cName), std::move(args));
  if (function.result == MathFunctionInfo::Result::Int64)
    return castTo(std::move(call), Type::scalarType(ScalarKind::Int64));
  return call;
}

/// modf(x) = (copysign(x - trunc(x), x), trunc(x)), the fraction 0 for an
/// infinite x; frexp(x) = (ldexp(x, -e), e) with e = logb(x) + 1, for x
/// finite and not 0, else (x, 0): C's results, which libdevice's are too,
/// from functions every backend has.
std::vector<ExprPtr> Lowering::mathTuple(const ast::CallExpr &call, SourceRange loc, StmtList &out) {
  const MathFunctionInfo &function = *call.mathFunction;
  const Type floatType = toIRType(call.operandType);
  const Type int32 = Type::scalarType(ScalarKind::Int32);
  auto hold = [&](const std::string &name, ExprPtr value) {
    Variable *var = function_.addHiddenLocal(uniqueName("pyk_" + std::string(function.name) + "_" + name),
                                             value->type(), loc);
    out.push_back(std::make_unique<Declare>(loc, var, std::move(value)));
    declared_.insert(var);
    return var;
  };
  const Variable *x = hold("x", castTo(expr(*call.args.front()), floatType));
  auto ref = [&](const Variable *var) { return std::make_unique<VarRef>(loc, var); };
  auto number = [&](Type type, double value) {
    return std::make_unique<Constant>(loc, type, isFloat(type.scalar) ? 0 : static_cast<int64_t>(value), value);
  };
  auto math = [&](const char *name, std::vector<ExprPtr> args) {
    return std::make_unique<MathCall>(loc, floatType, name, std::move(args));
  };
  auto infinite = [&] {
    return std::make_unique<Compare>(loc, CompareOp::Eq, std::make_unique<Unary>(loc, UnaryOp::Abs, ref(x)),
                                     number(floatType, __builtin_inf()));
  };
  std::vector<ExprPtr> values;
  if (function.result == MathFunctionInfo::Result::FloatPair) {
    std::vector<ExprPtr> whole;
    whole.push_back(ref(x));
    ExprPtr fraction = std::make_unique<Binary>(loc, BinaryOp::Sub, ref(x), math("trunc", std::move(whole)));
    std::vector<ExprPtr> signedFraction;
    signedFraction.push_back(
        std::make_unique<Select>(loc, infinite(), number(floatType, 0), std::move(fraction)));
    signedFraction.push_back(ref(x));
    values.push_back(math("copysign", std::move(signedFraction)));
    std::vector<ExprPtr> truncated;
    truncated.push_back(ref(x));
    values.push_back(math("trunc", std::move(truncated)));
    return values;
  }
  assert(function.result == MathFunctionInfo::Result::FloatAndExponent && "only modf and frexp give tuples");
  auto finiteNonZero = [&] {
    return std::make_unique<Logical>(
        loc, LogicalOp::And, std::make_unique<Compare>(loc, CompareOp::Ne, ref(x), number(floatType, 0)),
        std::make_unique<Compare>(loc, CompareOp::Lt, std::make_unique<Unary>(loc, UnaryOp::Abs, ref(x)),
                                  number(floatType, __builtin_inf())));
  };
  std::vector<ExprPtr> logbArgs;
  logbArgs.push_back(ref(x));
  ExprPtr exponent = std::make_unique<Binary>(loc, BinaryOp::Add, castTo(math("logb", std::move(logbArgs)), int32),
                                              number(int32, 1));
  const Variable *e = hold("exponent", std::make_unique<Select>(loc, finiteNonZero(), std::move(exponent),
                                                                 number(int32, 0)));
  std::vector<ExprPtr> ldexpArgs;
  ldexpArgs.push_back(ref(x));
  ldexpArgs.push_back(std::make_unique<Unary>(loc, UnaryOp::Neg, ref(e)));
  values.push_back(std::make_unique<Select>(loc, finiteNonZero(), math("ldexp", std::move(ldexpArgs)), ref(x)));
  values.push_back(ref(e));
  return values;
}

/// cuda.match_all_sync(mask, v): (mask, mask != 0), the mask held, as the
/// warp meets once.
std::vector<ExprPtr> Lowering::matchAllTuple(const ast::CallExpr &call, SourceRange loc, StmtList &out) {
  Variable *mask = function_.addHiddenLocal(uniqueName("pyk_matched_lanes"), Type::scalarType(ScalarKind::UInt32), loc);
  out.push_back(std::make_unique<Declare>(loc, mask, gpuOp(call, GpuOpKind::MatchAll)));
  declared_.insert(mask);
  std::vector<ExprPtr> values;
  values.push_back(std::make_unique<VarRef>(loc, mask));
  values.push_back(std::make_unique<Compare>(loc, CompareOp::Ne, std::make_unique<VarRef>(loc, mask),
                                             std::make_unique<Constant>(loc, mask->type, 0, 0.0)));
  return values;
}

/// The arguments of libdevice.NAME(...), each converted to its parameter's
/// type (as Numba converts them to the one signature).
std::vector<ExprPtr> Lowering::libdeviceArguments(const ast::CallExpr &call) {
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < call.args.size(); ++i)
    args.push_back(castTo(expr(*call.args[i]), Type::scalarType(call.libdeviceFunction->params[i].kind)));
  return args;
}

/// libdevice.NAME(...) of one value.
ExprPtr Lowering::libdevice(const ast::CallExpr &call) {
  const LibdeviceFunction &function = *call.libdeviceFunction;
  const int output = function.result ? -1 : 0;
  return std::make_unique<LibdeviceCall>(call.range(), toIRType(call.type), &function, libdeviceArguments(call),
                                         output);
}

/// libdevice.NAME(...) of several values (sincosf, frexpf, remquof ...):
/// the arguments held once, then a call per value.
std::vector<ExprPtr> Lowering::libdeviceTuple(const ast::CallExpr &call, SourceRange loc, StmtList &out) {
  const LibdeviceFunction &function = *call.libdeviceFunction;
  std::vector<const Variable *> held;
  for (ExprPtr &arg : libdeviceArguments(call)) {
    Variable *var = function_.addHiddenLocal(uniqueName("pyk_" + std::string(function.name) + "_arg"), arg->type(),
                                             loc);
    out.push_back(std::make_unique<Declare>(loc, var, std::move(arg)));
    declared_.insert(var);
    held.push_back(var);
  }
  std::vector<ExprPtr> values;
  const int first = function.result ? -1 : 0;
  for (int output = first; output < int(function.outputs.size()); ++output) {
    std::vector<ExprPtr> args;
    for (const Variable *var : held)
      args.push_back(std::make_unique<VarRef>(loc, var));
    const LibdeviceType &value = output < 0 ? *function.result : function.outputs[output];
    values.push_back(
        std::make_unique<LibdeviceCall>(loc, Type::scalarType(value.kind), &function, std::move(args), output));
  }
  return values;
}

} // namespace pyk::ir::lowering
