//===- SemaCall.cpp - Calls: builtins, casts, math, print ------------------===//
//
// A call is resolved by what its callee names: a cast (float32(x)), a
// Python builtin (abs, min, max, len, round, print), a math function, a
// CUDA builtin (cuda.grid, cuda.gridsize) or a device function of the
// module. Each check types the call and, where it can, folds it.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "ASTWalk.h"

#include "llvm/Support/Casting.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

const Type *Sema::checkCall(CallExpr &expr) {
  // max(k for k in range(4)): the generator is the mistake, not the count
  // of arguments the callee sees.
  for (ExprPtr &arg : expr.args)
    if (auto *generator = dyn_cast<UnsupportedExpr>(arg.get());
        generator && generator->what == UnsupportedSyntax::GeneratorExpression) {
      checkExpr(*arg);
      return setType(expr, types_.errorType());
    }
  // Casts and Python builtins are found by name, before the callee is
  // checked as a value (a type name alone is not one).
  if (auto kind = arrayDtypeNamed(*expr.callee)) {
    expr.function = Builtin::Cast;
    return checkCast(expr, *kind);
  }
  if (auto kind = scalarTypeNamed(*expr.callee)) {
    if (auto *name = dyn_cast<NameExpr>(expr.callee.get()); !name || !functionScope_.count(name->name)) {
      expr.function = Builtin::Cast;
      return checkCast(expr, *kind);
    }
  }
  if (auto *name = dyn_cast<NameExpr>(expr.callee.get()); name && !lookup(name->name)) {
    if (name->name == "abs") {
      expr.function = Builtin::Abs;
      return checkAbs(expr);
    }
    if (name->name == "complex") {
      expr.function = Builtin::Complex;
      return checkComplexConstructor(expr);
    }
    if (name->name == "print") {
      expr.function = Builtin::Print;
      if (function_)
        function_->hasSideEffects = true;
      return checkPrint(expr);
    }
    if (name->name == "len") {
      expr.function = Builtin::Len;
      return checkLen(expr);
    }
    if (name->name == "round") {
      expr.function = Builtin::Round;
      return checkRound(expr);
    }
    if (name->name == "min" || name->name == "max") {
      expr.function = name->name == "min" ? Builtin::Min : Builtin::Max;
      return checkMinMax(expr, name->name == "min");
    }
  }
  if (auto *name = dyn_cast<NameExpr>(expr.callee.get())) {
    if (const Symbol *symbol = lookup(name->name); symbol && symbol->kind == SymbolKind::Function) {
      if (!function_) {
        error(expr.range()) << "module constants cannot call functions; compute the value in the kernel";
        return setType(expr, types_.errorType());
      }
      return checkDeviceCall(expr, *symbol);
    }
    if (const Symbol *symbol = lookup(name->name); symbol && symbol->kind == SymbolKind::ForeignFunction) {
      if (!function_) {
        error(expr.range()) << "module constants cannot call functions; compute the value in the kernel";
        return setType(expr, types_.errorType());
      }
      return checkForeignCall(expr, *symbol);
    }
  }
  const Type *calleeType = checkExpr(*expr.callee);
  if (calleeType->isError())
    return setType(expr, types_.errorType());
  if (isGpuMemoryBuiltin(expr.callee->builtin))
    return checkGpuMemoryCall(expr, expr.callee->builtin);
  if (isHalfFunction(expr.callee->builtin))
    return checkFp16(expr, expr.callee->builtin);
  if (expr.callee->builtin == Builtin::Conjugate)
    return checkConjugate(expr);
  if (expr.callee->builtin == Builtin::ThisGrid) {
    expr.function = Builtin::ThisGrid;
    if (!requirePositional(expr, "cuda.cg.this_grid", 0, 0))
      return setType(expr, types_.errorType());
    return setType(expr, types_.gridGroupType());
  }
  if (expr.callee->builtin == Builtin::Grid || expr.callee->builtin == Builtin::Gridsize) {
    expr.function = expr.callee->builtin;
    return checkGrid(expr);
  }
  if (expr.callee->builtin == Builtin::MathFunction) {
    expr.function = Builtin::MathFunction;
    auto *name = dyn_cast<NameExpr>(expr.callee.get()); // from math import sqrt
    const MathFunctionInfo *function = name ? name->symbol->mathFunction
                                            : mathFunction(llvm::cast<AttributeExpr>(*expr.callee).attribute);
    return checkMath(expr, *function);
  }
  if (expr.callee->builtin == Builtin::LibdeviceFunction) {
    expr.function = Builtin::LibdeviceFunction;
    auto *name = dyn_cast<NameExpr>(expr.callee.get()); // from numba.cuda.libdevice import sinf
    const LibdeviceFunction *function = name ? name->symbol->libdeviceFunction
                                             : libdeviceFunction(llvm::cast<AttributeExpr>(*expr.callee).attribute);
    return checkLibdevice(expr, *function);
  }
  if (expr.callee->builtin == Builtin::DeclareDevice) {
    error(expr.range()) << "cuda.declare_device declares a CUDA C++ device function at module level, as in "
                           "'mul = cuda.declare_device(\"mul\", \"float32(float32, float32)\")'";
    return setType(expr, types_.errorType());
  }
  error(expr.callee->range()) << describe(*expr.callee) << " cannot be called";
  return setType(expr, types_.errorType());
}

bool Sema::requirePositional(CallExpr &expr, const char *name, size_t minimum, size_t maximum) {
  if (!expr.keywords.empty()) {
    error(expr.keywords.front().nameRange) << name << "() takes no keyword arguments";
    return false;
  }
  if (expr.args.size() < minimum || expr.args.size() > maximum) {
    DiagnosticBuilder message = error(expr.range());
    message << name << "() takes ";
    if (minimum == maximum)
      message << minimum << " argument" << (minimum == 1 ? "" : "s");
    else if (maximum == SIZE_MAX)
      message << minimum << " or more arguments";
    else if (maximum == minimum + 1)
      message << minimum << " or " << maximum << " arguments";
    else
      message << minimum << " to " << maximum << " arguments";
    message << ", not " << expr.args.size();
    return false;
  }
  return true;
}

const Type *Sema::checkOneNumber(CallExpr &expr, const char *name) {
  if (!requirePositional(expr, name, 1, 1))
    return nullptr;
  Expr &value = *expr.args.front();
  const Type *type = checkValue(value);
  if (type->isError())
    return nullptr;
  if (!type->isScalar()) {
    error(value.range()) << name << "() needs a number, not " << describe(value);
    return nullptr;
  }
  return type;
}

const Type *Sema::checkAbs(CallExpr &expr) {
  const Type *type = checkOneNumber(expr, "abs");
  if (!type)
    return setType(expr, types_.errorType());
  Expr &value = *expr.args.front();
  PromotionOperand result = arithmeticResult(promotionOperand(value));
  if (isComplex(result.kind)) // |z|, in the parts' type
    result.kind = complexPart(result.kind);
  expr.isWeak = result.weak;
  if (const auto &c = value.constant; c && !c->exceedsInt64) {
    if (c->kind == ConstantValue::Kind::Float)
      expr.constant = ConstantValue::ofFloat(std::fabs(c->floatValue));
    else if (c->kind == ConstantValue::Kind::Bool)
      expr.constant = ConstantValue::ofInt(c->boolValue);
    else if (c->intValue != INT64_MIN)
      expr.constant = ConstantValue::ofInt(c->intValue < 0 ? -c->intValue : c->intValue);
  }
  return setType(expr, types_.scalar(result.kind));
}

std::optional<PromotionOperand> Sema::promoteNumericArguments(CallExpr &expr, const std::string &name,
                                                              size_t count) {
  bool ok = true;
  std::optional<PromotionOperand> common;
  for (size_t i = 0; i < expr.args.size() && i < count; ++i) {
    ExprPtr &arg = expr.args[i];
    const Type *type = checkValue(*arg);
    if (type->isError()) {
      ok = false;
      continue;
    }
    if (!type->isScalar()) {
      error(arg->range()) << name << "() needs numbers, not " << describe(*arg);
      ok = false;
      continue;
    }
    if (isComplex(type->scalarKind())) {
      error(arg->range()) << name << "() needs real numbers, not " << type->str()
                          << (name.rfind("math.", 0) == 0 ? "; cmath has the functions of complex numbers" : "");
      ok = false;
      continue;
    }
    common = common ? promote(*common, promotionOperand(*arg)) : promotionOperand(*arg);
  }
  return ok ? common : std::nullopt;
}

/// math.NAME(x[, y]): float32 arguments give float32, float64 or integer
/// ones float64 (as in Numba); float16 (bfloat16) ones float16 (bfloat16)
/// where Numba has the function for them, else float32; floor, ceil and trunc give int64 and
/// isnan, isinf and isfinite bool, as in Python.
const Type *Sema::checkMath(CallExpr &expr, const MathFunctionInfo &function) {
  const std::string name = "math." + std::string(function.name);
  if (!requirePositional(expr, name.c_str(), function.arity, function.arity))
    return setType(expr, types_.errorType());
  // ldexp(x, i): the exponent an integer; x decides the type.
  if (function.int32Exponent) {
    const Type *exponent = checkValue(*expr.args[1]);
    if (exponent->isError())
      return setType(expr, types_.errorType());
    if (!exponent->isScalar() || !isInteger(exponent->scalarKind())) {
      error(expr.args[1]->range()) << name << "()'s exponent must be an integer, not " << describe(*expr.args[1]);
      return setType(expr, types_.errorType());
    }
  }
  std::optional<PromotionOperand> common = promoteNumericArguments(expr, name, function.int32Exponent ? 1 : function.arity);
  if (!common)
    return setType(expr, types_.errorType());
  // The function computes in float32 only when every argument is float32 (or
  // a weak Python scalar next to one); otherwise in float64.
  ScalarKind kind = common->kind == ScalarKind::Float32 && !common->weak ? ScalarKind::Float32 : ScalarKind::Float64;
  if ((common->kind == ScalarKind::Float16 || common->kind == ScalarKind::BFloat16) && !common->weak)
    kind = function.float16Result ? common->kind : ScalarKind::Float32;
  expr.operandType = types_.scalar(kind);
  expr.mathFunction = &function;
  std::vector<const Expr *> args;
  for (const ExprPtr &arg : expr.args)
    if (!function.int32Exponent || args.empty())
      args.push_back(arg.get());
  warnIfPromotedToFloat64(expr.operandType, args, expr.range(), [&](const std::vector<std::string> &texts) {
    std::string call = sourceText(expr.callee->range()) + "(";
    for (size_t i = 0; i < texts.size(); ++i)
      call += (i ? ", " : "") + texts[i];
    if (function.int32Exponent)
      call += ", " + sourceText(expr.args[1]->range());
    return call + ")";
  });
  switch (function.result) {
  case MathFunctionInfo::Result::Float:
    return setType(expr, expr.operandType);
  case MathFunctionInfo::Result::Int64:
    return setType(expr, types_.int64Type());
  case MathFunctionInfo::Result::Bool:
    return setType(expr, types_.boolType());
  case MathFunctionInfo::Result::FloatPair:
  case MathFunctionInfo::Result::FloatAndExponent:
    // Computed from its argument held in a local, before the statement.
    if (&expr != statementValue_) {
      error(expr.range()) << name << "() returns a tuple, so a call of it must be the whole value of an "
                          << "assignment or a return, as in 'a, b = " << name << "(x)'";
      return setType(expr, types_.errorType());
    }
    return setType(expr, types_.tuple({expr.operandType, function.result == MathFunctionInfo::Result::FloatPair
                                                             ? expr.operandType
                                                             : types_.int32Type()}));
  }
  return setType(expr, types_.errorType());
}

/// len(a) of an array: its first extent, int64.
const Type *Sema::checkLen(CallExpr &expr) {
  if (!requirePositional(expr, "len", 1, 1))
    return setType(expr, types_.errorType());
  Expr &value = *expr.args.front();
  const Type *type = checkValue(value);
  if (type->isError())
    return setType(expr, types_.errorType());
  if (type->isTuple()) {
    expr.isWeak = true;
    expr.constant = ConstantValue::ofInt(static_cast<int64_t>(type->elements().size()));
    return setType(expr, types_.int64Type());
  }
  if (!type->isArray() && !type->isRecordArray()) {
    error(value.range()) << "len() takes an array or a tuple, not " << describe(value);
    return setType(expr, types_.errorType());
  }
  return setType(expr, types_.int64Type());
}

/// print(a, b, ..., sep=' ', end='\n') of strings and numbers. It has no
/// value; the statement that calls it prints.
const Type *Sema::checkPrint(CallExpr &expr) {
  bool ok = true;
  auto isText = [](const Expr &e) {
    auto *text = dyn_cast<StringLiteralExpr>(&e);
    return text && text->flavor == StringLiteralExpr::Flavor::Text;
  };
  for (ExprPtr &arg : expr.args) {
    if (isText(*arg)) {
      setType(*arg, types_.voidType());
      continue;
    }
    if (auto *text = dyn_cast<StringLiteralExpr>(arg.get())) {
      if (text->flavor == StringLiteralExpr::Flavor::Formatted)
        error(text->range()) << "f-strings are not supported in print(); print the values as separate arguments";
      else
        error(text->range()) << "bytes are not supported in print(); write a text string literal";
      ok = false;
      continue;
    }
    const Type *type = checkValue(*arg);
    if (type->isError()) {
      ok = false;
      continue;
    }
    if (!type->isScalar()) {
      error(arg->range()) << "print() prints strings and numbers, not " << describe(*arg);
      ok = false;
    }
  }
  for (KeywordArgument &keyword : expr.keywords) {
    if ((keyword.name == "sep" || keyword.name == "end") && isText(*keyword.value)) {
      setType(*keyword.value, types_.voidType());
      continue;
    }
    if (keyword.name == "sep" || keyword.name == "end")
      error(keyword.value->range()) << "print()'s " << keyword.name << " must be a string literal";
    else
      error(keyword.nameRange) << "print() takes only the keywords sep and end, not '" << keyword.name << "'";
    ok = false;
  }
  return setType(expr, ok ? types_.voidType() : types_.errorType());
}

/// min(a, b, ...) and max(a, b, ...): Python's builtins on numbers, in the
/// arguments' common type; the first of equal values wins.
const Type *Sema::checkMinMax(CallExpr &expr, bool isMin) {
  const char *name = isMin ? "min" : "max";
  if (!requirePositional(expr, name, 2, SIZE_MAX))
    return setType(expr, types_.errorType());
  std::optional<PromotionOperand> common = promoteNumericArguments(expr, name);
  if (!common)
    return setType(expr, types_.errorType());
  for (ExprPtr &arg : expr.args)
    if (!checkLiteralFits(*arg, common->kind))
      return setType(expr, types_.errorType());
  expr.isWeak = common->weak;
  expr.operandType = types_.scalar(common->kind);
  bool allConstant = true;
  std::optional<ConstantValue> best;
  for (ExprPtr &arg : expr.args) {
    if (!arg->constant || arg->constant->exceedsInt64) {
      allConstant = false;
      break;
    }
    const double value = arg->constant->asDouble();
    if (!best || (isMin ? value < best->asDouble() : value > best->asDouble()))
      best = arg->constant;
  }
  if (allConstant && best)
    expr.constant = best;
  return setType(expr, expr.operandType);
}

/// cuda.grid(n) / cuda.gridsize(n): an int64 for n = 1, a tuple of n
/// int64s for n = 2 or 3 (as in Numba).
const Type *Sema::checkGrid(CallExpr &expr) {
  const std::string name(builtinName(expr.function));
  if (!expr.keywords.empty()) {
    error(expr.keywords.front().nameRange) << name << " takes no keyword arguments";
    return setType(expr, types_.errorType());
  }
  if (expr.args.size() != 1) {
    error(expr.range()) << name << " takes one argument, the number of dimensions (1, 2 or 3)";
    return setType(expr, types_.errorType());
  }
  Expr &ndim = *expr.args.front();
  const Type *ndimType = checkValue(ndim);
  if (ndimType->isError())
    return setType(expr, types_.errorType());
  if (!ndim.constant || ndim.constant->kind != ConstantValue::Kind::Int || ndim.constant->intValue < 1 ||
      ndim.constant->intValue > 3) {
    error(ndim.range()) << name << "'s argument must be the constant 1, 2 or 3";
    return setType(expr, types_.errorType());
  }
  if (ndim.constant->intValue == 1)
    return setType(expr, types_.int64Type());
  return setType(expr, types_.tuple(std::vector<const Type *>(ndim.constant->intValue, types_.int64Type())));
}

//===----------------------------------------------------------------------===//
// Device functions
//===----------------------------------------------------------------------===//

/// f(a, b), f(a, scale=b), f(a) with defaults for the rest (bound to the
/// parameters by bindArguments): arguments that convert to f's parameter
/// types as they would to variables of those types; arrays of exactly the
/// parameter's type. The call has f's return type; a call of a function
/// with side effects must be the whole of its statement (see
/// statementValue_), so that it runs once and in Python's order.
const Type *Sema::checkDeviceCall(CallExpr &expr, const Symbol &symbol) {
  const FunctionInfo *callee = info_.infoFor(symbol.function);
  const std::string &name = symbol.name;
  auto &calleeName = llvm::cast<NameExpr>(*expr.callee);
  calleeName.symbol = &symbol;
  calleeName.type = types_.voidType();
  bool nestedTuple = false;
  for (ExprPtr &arg : expr.args) {
    // A record is passed whole: the callee's parameter names the element.
    const Expr *const enclosingRecordValue = std::exchange(recordValue_, arg.get());
    const Type *argType = checkValue(*arg);
    recordValue_ = enclosingRecordValue;
    if (argType->isNestedTuple()) {
      notSupportedYet(arg->range(), "passing a tuple of tuples to a device function");
      nestedTuple = true;
    }
  }
  for (KeywordArgument &keyword : expr.keywords)
    checkValue(*keyword.value);
  if (nestedTuple)
    return setType(expr, types_.errorType());
  // Neither a kernel nor a device function: its decorator's error says why.
  if (rejectedDecorators_.count(callee))
    return setType(expr, types_.errorType());
  if (callee->kind == FunctionKind::Kernel) {
    error(expr.callee->range()) << "'" << name
                                << "' is a kernel: kernels are launched from C++, not called; move the shared code "
                                   "into a device function (@cuda.jit(device=True))";
    return setType(expr, types_.errorType());
  }
  if (signatureErrors_.count(callee)) // def f(*args), def f(a, a): reported there
    return setType(expr, types_.errorType());
  if (!bindArguments(expr, *callee, symbol))
    return setType(expr, types_.errorType());
  bool ok = true;
  if (callee->generic) {
    // Numba's lazily typed device function: the version for these argument
    // types (the declared type where a parameter has one).
    if (callee->recursive)
      return setType(expr, types_.errorType());
    std::vector<const Type *> paramTypes;
    for (size_t i = 0; i < expr.args.size(); ++i) {
      const Type *declared = callee->params[i]->type;
      const Type *argType = expr.args[i]->type;
      if (argType->isError() || argType->isVoid())
        return setType(expr, types_.errorType());
      paramTypes.push_back(declared ? declared : argType);
    }
    callee = instantiate(*callee, paramTypes);
    if (diags_ == realDiags_)
      useInstance(*callee, expr.range());
  }
  for (size_t i = 0; i < expr.args.size(); ++i)
    ok &= checkArgument(*expr.args[i], callee->params[i]->type, *callee->params[i], name);
  function_->synchronises |= callee->synchronises;
  function_->gridSynchronises |= callee->gridSynchronises;
  if (callee->hasSideEffects) {
    function_->hasSideEffects = true;
    if (&expr != statementValue_)
      nestedEffectfulCalls_.push_back({&expr, statementValue_, name});
  }
  if (callee->returnType && callee->returnType->isTuple() && &expr != statementValue_) {
    error(expr.range()) << "'" << name << "' returns a tuple, so a call of it must be the whole value of an "
                        << "assignment or a return, as in 'a, b = " << name << "(...)'";
    ok = false;
  }
  if (std::find(function_->callees.begin(), function_->callees.end(), callee) == function_->callees.end())
    function_->callees.push_back(callee);
  expr.calleeDef = callee->def;
  // A function on a call cycle was reported; its return type may be unknown,
  // as may be that of a version whose body had errors (reported with it).
  const bool failedVersion = callee->instanceOf && bodyErrors_.count(callee);
  if (!ok || callee->recursive || failedVersion || !callee->returnType || callee->returnType->isError())
    return setType(expr, types_.errorType());
  return setType(expr, callee->returnType);
}

namespace {

/// Whether lowering evaluates each operand of `e` exactly once, in place:
/// arithmetic, a single comparison, a conversion, a math function (not
/// isnan, which reads its operand twice), a libdevice function of one value. A chained comparison, a
/// conditional expression, `and`/`or` and `not` are not: they may evaluate
/// an operand twice, or one that Python skips.
bool evaluatesOperandsOnce(const Expr &e) {
  if (isa<BinaryExpr>(e))
    return true;
  if (auto *unary = dyn_cast<UnaryExpr>(&e))
    return unary->op != UnaryOp::Not;
  if (auto *compare = dyn_cast<CompareExpr>(&e))
    return compare->ops.size() == 1;
  if (auto *call = dyn_cast<CallExpr>(&e))
    return call->function == Builtin::Cast || call->function == Builtin::LibdeviceFunction ||
           (call->function == Builtin::MathFunction && call->mathFunction && call->mathFunction->name != "isnan");
  return false;
}

/// Whether evaluating `e`, but for the subtree `skipped`, may read memory
/// (an array element, a record's field, a device function's call) or have
/// effects.
bool mayReadMemory(const Expr &e, const Expr *skipped) {
  if (&e == skipped)
    return false;
  if (auto *subscript = dyn_cast<SubscriptExpr>(&e);
      subscript && subscript->object->type &&
      (subscript->object->type->isArray() || subscript->object->type->isRecordArray() ||
       subscript->object->type->isRecord()))
    return true;
  if (auto *attribute = dyn_cast<AttributeExpr>(&e);
      attribute && attribute->object->type && attribute->object->type->isRecord())
    return true;
  if (auto *call = dyn_cast<CallExpr>(&e); call && call->calleeDef)
    return true;
  bool reads = false;
  forEachChild(e, [&](const Expr &child) { reads = reads || mayReadMemory(child, skipped); });
  return reads;
}

/// The path from `root` down to `target`, both included; empty when
/// `target` is not in `root`.
std::vector<const Expr *> pathTo(const Expr &root, const Expr *target) {
  if (&root == target)
    return {&root};
  std::vector<const Expr *> path;
  forEachChild(root, [&](const Expr &child) {
    if (path.empty()) {
      path = pathTo(child, target);
      if (!path.empty())
        path.insert(path.begin(), &root);
    }
  });
  return path;
}

} // namespace

void Sema::checkNestedEffectfulCalls() {
  std::vector<NestedEffectfulCall> calls = std::exchange(nestedEffectfulCalls_, {});
  for (size_t i = 0; i < calls.size(); ++i) {
    const NestedEffectfulCall &nested = calls[i];
    // One such call per statement, among operands that read no memory, runs
    // once and in Python's order whatever order C++ gives the operands.
    bool allowed = nested.statementValue != nullptr;
    for (size_t j = 0; allowed && j < calls.size(); ++j)
      allowed = j == i || calls[j].statementValue != nested.statementValue;
    if (allowed) {
      std::vector<const Expr *> path = pathTo(*nested.statementValue, nested.call);
      allowed = !path.empty() && !mayReadMemory(*nested.statementValue, nested.call);
      for (size_t k = 0; allowed && k + 1 < path.size(); ++k)
        allowed = evaluatesOperandsOnce(*path[k]);
    }
    if (!allowed)
      error(nested.call->range())
          << "'" << nested.name << "' " << nested.effect
          << ", so a call of it must be a statement of its own, the whole value of an "
             "assignment, return, 'if' or 'while', or the one such call among arithmetic and comparisons that read "
             "no arrays (as in 'x = 2 * "
          << nested.name << "(...) - 1'); assign its result to a local first";
  }
}

bool Sema::checkArgument(Expr &arg, const Type *paramType, const Symbol &param, const std::string &calleeName) {
  const Type *argType = arg.type;
  if (argType->isError() || paramType->isError())
    return false;
  if (paramType->isArray() || argType->isArray() || paramType->isTuple() || paramType->isRecordArray() ||
      argType->isRecordArray() || paramType->isRecord() || argType->isRecord()) {
    if (argType == paramType)
      return true;
    DiagnosticBuilder message = error(arg.range());
    message << "parameter '" << param.name << "' of '" << calleeName << "' is " << paramType->str() << ", not "
            << argType->str();
    if (argType->isArray() && paramType->isArray() && !argType->isContiguous() &&
        argType->scalarKind() == paramType->scalarKind() && argType->rank() == paramType->rank())
      message << "; a view with steps cannot be passed for a contiguous array: leave '" << param.name
              << "' untyped, and the call makes a version of '" << calleeName << "' for it";
    note(param.definition) << "'" << param.name << "' is declared here";
    return false;
  }
  if (!argType->isScalar()) {
    error(arg.range()) << "cannot pass " << describe(arg) << " for parameter '" << param.name << "' of '"
                       << calleeName << "'";
    return false;
  }
  if (!checkNotComplexToReal(argType, arg.range(), paramType->scalarKind(), "pass"))
    return false;
  // Numba converts a float argument for an integer parameter, toward zero.
  if (isFloat(argType->scalarKind()) && isInteger(paramType->scalarKind())) {
    warning(arg.range()) << "passing " << argType->str() << " for parameter '" << param.name << "' of '"
                         << calleeName << "', which is " << paramType->str()
                         << ", truncates it toward zero, as Numba does; write '" << paramType->str()
                         << "(...)' to silence this";
    note(param.definition) << "'" << param.name << "' is declared here";
    return true;
  }
  if (isFloat(argType->scalarKind()) && !isFloat(paramType->scalarKind()) && !isComplex(paramType->scalarKind())) {
    error(arg.range()) << "parameter '" << param.name << "' of '" << calleeName << "' is " << paramType->str()
                       << ", not " << argType->str() << "; convert with " << paramType->str() << "(...)";
    note(param.definition) << "'" << param.name << "' is declared here";
    return false;
  }
  if (paramType->scalarKind() == ScalarKind::Bool && argType->scalarKind() != ScalarKind::Bool) {
    error(arg.range()) << "parameter '" << param.name << "' of '" << calleeName << "' is bool, not "
                       << argType->str() << "; pass a comparison such as 'x != 0'";
    return false;
  }
  return checkLiteralFits(arg, paramType->scalarKind());
}

} // namespace pyk::sema
