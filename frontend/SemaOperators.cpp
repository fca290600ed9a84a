//===- SemaOperators.cpp - Arithmetic, comparisons, and/or, if-else -------===//
//
// The operators' types under NumPy 2 promotion (NEP 50: Python scalars are
// weak), constant folding of Python numbers, and the float64 warning.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

#include <cmath>
#include <limits>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

PromotionOperand Sema::promotionOperand(const Expr &expr) const {
  return {expr.type->scalarKind(), expr.isWeak};
}

bool Sema::checkLiteralFits(Expr &expr, ScalarKind kind) {
  if (!expr.isWeak || !expr.constant || expr.constant->fitsIn(kind))
    return true;
  error(expr.range()) << "integer " << expr.constant->str() << " does not fit in " << scalarName(kind);
  return false;
}

std::string Sema::sourceText(SourceRange range) const {
  // The range's own file: a device function of an imported one is checked
  // too.
  const std::string &text = realDiags_->fileOf(range.begin).text();
  if (!range.isValid() || range.end.offset < range.begin.offset || range.end.offset > text.size())
    return "...";
  return text.substr(range.begin.offset, range.end.offset - range.begin.offset);
}

std::string Sema::sourceTextInParentheses(SourceRange range) const {
  const std::string &text = realDiags_->fileOf(range.begin).text();
  if (!range.isValid() || range.end.offset < range.begin.offset || range.end.offset > text.size())
    return "...";
  size_t begin = range.begin.offset, end = range.end.offset;
  auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\'; };
  for (;;) {
    size_t before = begin, after = end;
    while (before > 0 && isSpace(text[before - 1]))
      --before;
    while (after < text.size() && isSpace(text[after]))
      ++after;
    if (before == 0 || after == text.size() || text[before - 1] != '(' || text[after] != ')')
      break;
    begin = before - 1;
    end = after + 1;
  }
  return text.substr(begin, end - begin);
}

void Sema::warnIfPromotedToFloat64(const Type *computedIn, const std::vector<const Expr *> &operands, SourceRange at,
                                   const std::function<std::string(const std::vector<std::string> &)> &rewrite) {
  if (!function_ || hasFloat64Data_ || computedIn->scalarKind() != ScalarKind::Float64)
    return;
  // pykc's library (cmath of an integer) computes in float64 as Python
  // does; the call that chose it is the user's.
  if (realDiags_->fileOf(at.begin).name().rfind("<pykc>/", 0) == 0)
    return;
  bool allWeak = true;
  for (const Expr *operand : operands) {
    allWeak &= operand->isWeak;
    // float64 from elsewhere (a cast, another operation): warned there, or
    // asked for.
    if (!operand->isWeak && operand->type->scalarKind() == ScalarKind::Float64)
      return;
  }
  if (allWeak)
    return; // Python numbers alone: a constant, or a weak value
  std::vector<std::string> texts;
  std::vector<std::string> culprits;
  std::vector<const Symbol *> integerLocals;
  for (const Expr *operand : operands) {
    // An operand keeps the parentheses written around it, so that the
    // rewrite groups as the original: '(xmax - xmin) / float32(nbins)'.
    const bool castIt = !operand->isWeak && !isFloat(operand->type->scalarKind());
    texts.push_back(castIt ? "float32(" + sourceText(operand->range()) + ")"
                           : sourceTextInParentheses(operand->range()));
    if (castIt || operand->type->scalarKind() == ScalarKind::Float32)
      culprits.push_back(operand->type->str());
    if (auto *name = dyn_cast<NameExpr>(operand); castIt && name && name->symbol &&
                                                  name->symbol->kind == SymbolKind::Local)
      integerLocals.push_back(name->symbol);
  }
  std::string why;
  for (size_t i = 0; i < culprits.size(); ++i)
    why += (i ? " with " : "") + culprits[i];
  float64Warnings_.try_emplace(at.begin.offset,
                               Float64Warning{at,
                                              "this computes in float64 (" + why +
                                                  " promotes to float64, as in NumPy) in a " +
                                                  functionKindName(*function_) + " that has no float64 data; write '" +
                                                  rewrite(texts) + "' to stay in float32",
                                              integerLocals});
}

bool Sema::requireCondition(Expr &expr, const char *context) {
  if (expr.type->isError() || expr.type->isScalar())
    return true;
  error(expr.range()) << context << " must be a number or a bool, not " << expr.type->str();
  return false;
}

static std::optional<ConstantValue> foldArithmetic(BinaryOp op, const ConstantValue &a, const ConstantValue &b,
                                                   bool &overflow) {
  using Kind = ConstantValue::Kind;
  if (a.kind == Kind::Float || b.kind == Kind::Float || op == BinaryOp::Div) {
    double x = a.asDouble(), y = b.asDouble();
    switch (op) {
    case BinaryOp::Add:
      return ConstantValue::ofFloat(x + y);
    case BinaryOp::Sub:
      return ConstantValue::ofFloat(x - y);
    case BinaryOp::Mul:
      return ConstantValue::ofFloat(x * y);
    case BinaryOp::Div:
      if (y == 0)
        return std::nullopt;
      return ConstantValue::ofFloat(x / y);
    default:
      return std::nullopt;
    }
  }
  int64_t x = a.kind == Kind::Int ? a.intValue : a.boolValue;
  int64_t y = b.kind == Kind::Int ? b.intValue : b.boolValue;
  int64_t result = 0;
  switch (op) {
  case BinaryOp::Add:
    overflow = __builtin_add_overflow(x, y, &result);
    break;
  case BinaryOp::Sub:
    overflow = __builtin_sub_overflow(x, y, &result);
    break;
  case BinaryOp::Mul:
    overflow = __builtin_mul_overflow(x, y, &result);
    break;
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    if (y == 0 || (x == INT64_MIN && y == -1))
      return std::nullopt; // left to run time, which defines them
    int64_t quotient = x / y, remainder = x % y;
    if (remainder != 0 && ((remainder < 0) != (y < 0))) {
      quotient -= 1;
      remainder += y;
    }
    result = op == BinaryOp::FloorDiv ? quotient : remainder;
    break;
  }
  case BinaryOp::BitAnd:
    result = x & y;
    break;
  case BinaryOp::BitOr:
    result = x | y;
    break;
  case BinaryOp::BitXor:
    result = x ^ y;
    break;
  case BinaryOp::LShift:
    if (y < 0)
      return std::nullopt;
    if (x == 0)
      break;
    overflow = y >= 63 || __builtin_mul_overflow(x, int64_t(1) << y, &result);
    break;
  case BinaryOp::RShift:
    if (y < 0)
      return std::nullopt;
    result = y >= 64 ? (x < 0 ? -1 : 0) : x >> y;
    break;
  case BinaryOp::Pow: {
    if (y < 0)
      return std::nullopt;
    if (x == 0 || x == 1 || x == -1) {
      result = y == 0 ? 1 : x == -1 ? ((y % 2) ? -1 : 1) : x;
      break;
    }
    // |x| >= 2: overflows within 63 steps, so the loop is short.
    result = 1;
    for (int64_t i = 0; i < y && !overflow; ++i)
      overflow = __builtin_mul_overflow(result, x, &result);
    break;
  }
  default:
    return std::nullopt;
  }
  if (a.kind == Kind::Bool && b.kind == Kind::Bool &&
      (op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor))
    return ConstantValue::ofBool(result != 0);
  return ConstantValue::ofInt(result);
}

Sema::ArithmeticTypes Sema::arithmeticTypes(BinaryOp op, Expr &lhs, Expr &rhs, SourceRange opRange) {
  for (Expr *operand : {&lhs, &rhs}) {
    if (!operand->type->isScalar()) {
      error(operand->range()) << "operator '" << binaryOpSpelling(op) << "' needs numbers, not "
                              << describe(*operand);
      return {};
    }
  }
  const bool bitwise = op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor;
  const bool shift = op == BinaryOp::LShift || op == BinaryOp::RShift;
  if (op == BinaryOp::MatMul) {
    error(opRange) << "operator '@' (matrix multiplication) is not supported in kernels";
    return {};
  }
  if (bitwise || shift) {
    for (Expr *operand : {&lhs, &rhs})
      if (isFloat(operand->type->scalarKind()) || isComplex(operand->type->scalarKind())) {
        error(operand->range()) << "operator '" << binaryOpSpelling(op) << "' needs integers"
                                << (bitwise ? " or bools" : "") << ", not " << operand->type->str();
        return {};
      }
  }
  PromotionOperand promoted = promote(promotionOperand(lhs), promotionOperand(rhs));
  if ((op == BinaryOp::FloorDiv || op == BinaryOp::Mod) && isComplex(promoted.kind)) {
    // Python: "can't take floor or mod of complex number".
    error(opRange) << "operator '" << binaryOpSpelling(op)
                   << "' is not defined for complex numbers (Python has no floor or remainder of one)";
    return {};
  }
  if ((bitwise || shift) && isFloat(promoted.kind)) {
    // uint64 with a signed integer: NumPy promotes to float64, which has no
    // bits to operate on.
    error(opRange) << "operator '" << binaryOpSpelling(op) << "' has no integer type that holds both "
                   << lhs.type->str() << " and " << rhs.type->str() << "; convert one of them, e.g. 'uint64(...)'";
    return {};
  }
  // bool & bool stays bool (NumPy); all other arithmetic on bools is int64.
  if (!(bitwise && promoted.kind == ScalarKind::Bool))
    promoted = arithmeticResult(promoted);
  if (!checkLiteralFits(lhs, promoted.kind) || !checkLiteralFits(rhs, promoted.kind))
    return {};
  if (op == BinaryOp::Pow && isInteger(promoted.kind) && rhs.constant && !rhs.constant->exceedsInt64 &&
      rhs.constant->kind == ConstantValue::Kind::Int && rhs.constant->intValue < 0) {
    error(rhs.range()) << "integers to negative integer powers are not allowed (NumPy); write a float, e.g. "
                          "'2.0 ** -1'";
    return {};
  }
  const Type *operandType = types_.scalar(promoted.kind);
  if (op == BinaryOp::Div && !isFloat(promoted.kind) && !isComplex(promoted.kind))
    operandType = types_.float64Type(); // True division of integers is float64, as in NumPy.
  return {operandType, operandType};
}

const Type *Sema::checkBinary(BinaryExpr &expr) {
  const Type *lhsType = checkValue(*expr.lhs);
  const Type *rhsType = checkValue(*expr.rhs);
  if (lhsType->isError() || rhsType->isError())
    return setType(expr, types_.errorType());
  ArithmeticTypes types = arithmeticTypes(expr.op, *expr.lhs, *expr.rhs, expr.opRange);
  if (!types.resultType)
    return setType(expr, types_.errorType());
  expr.operandType = types.operandType;
  warnIfPromotedToFloat64(types.operandType, {expr.lhs.get(), expr.rhs.get()}, expr.opRange,
                          [&](const std::vector<std::string> &texts) {
                            return texts[0] + " " + binaryOpSpelling(expr.op) + " " + texts[1];
                          });
  if (expr.lhs->isWeak && expr.rhs->isWeak) {
    expr.isWeak = true;
    if (expr.lhs->constant && expr.rhs->constant) {
      if (expr.lhs->constant->exceedsInt64 || expr.rhs->constant->exceedsInt64) {
        error(expr.range()) << "constant expression overflows int64";
        return setType(expr, types_.errorType());
      }
      bool overflow = false;
      expr.constant = foldArithmetic(expr.op, *expr.lhs->constant, *expr.rhs->constant, overflow);
      if (overflow) {
        error(expr.range()) << "constant expression overflows int64";
        return setType(expr, types_.errorType());
      }
    }
  }
  return setType(expr, types.resultType);
}

const Type *Sema::checkUnary(UnaryExpr &expr) {
  // `if not cuda.syncthreads_or(done):` still evaluates the call once, first.
  if (expr.op == UnaryOp::Not && &expr == statementValue_)
    statementValue_ = expr.operand.get();
  const Type *operandType = checkValue(*expr.operand);
  if (operandType->isError())
    return setType(expr, types_.errorType());
  if (expr.op == UnaryOp::Not) {
    if (!requireCondition(*expr.operand, "the operand of 'not'"))
      return setType(expr, types_.errorType());
    if (expr.operand->constant)
      expr.constant = ConstantValue::ofBool(!expr.operand->constant->truth());
    expr.isWeak = expr.operand->isWeak;
    return setType(expr, types_.boolType());
  }
  if (!operandType->isScalar()) {
    error(expr.operand->range()) << "unary '" << unaryOpSpelling(expr.op) << "' needs a number, not "
                                 << describe(*expr.operand);
    return setType(expr, types_.errorType());
  }
  if (expr.op == UnaryOp::Invert) {
    // ~ on an integer flips its bits; on a bool it is 'not' (NumPy).
    const ScalarKind kind = operandType->scalarKind();
    if (isFloat(kind) || isComplex(kind)) {
      error(expr.operand->range()) << "operator '~' needs an integer or a bool, not " << operandType->str();
      return setType(expr, types_.errorType());
    }
    expr.isWeak = expr.operand->isWeak;
    if (const auto &c = expr.operand->constant; c && !c->exceedsInt64)
      expr.constant = kind == ScalarKind::Bool && c->kind == ConstantValue::Kind::Bool && !expr.isWeak
                          ? ConstantValue::ofBool(!c->boolValue)
                          : ConstantValue::ofInt(~(c->kind == ConstantValue::Kind::Bool ? int64_t(c->boolValue)
                                                                                         : c->intValue));
    // A weak (Python) bool is an int to Python: ~True == -2.
    const ScalarKind result = kind == ScalarKind::Bool && expr.isWeak ? ScalarKind::Int64 : kind;
    return setType(expr, types_.scalar(result));
  }
  PromotionOperand result = arithmeticResult(promotionOperand(*expr.operand));
  expr.isWeak = result.weak;
  if (const auto &c = expr.operand->constant) {
    const bool negate = expr.op == UnaryOp::Minus;
    if (c->exceedsInt64 && negate && static_cast<uint64_t>(c->intValue) == (uint64_t(1) << 63)) {
      expr.isWeak = true;
      expr.constant = ConstantValue::ofInt(INT64_MIN);
      return setType(expr, types_.int64Type());
    }
    if (c->exceedsInt64 && negate) {
      error(expr.range()) << "integer -" << c->str() << " does not fit in int64";
      return setType(expr, types_.errorType());
    }
    if (c->kind == ConstantValue::Kind::Float)
      expr.constant = ConstantValue::ofFloat(negate ? -c->floatValue : c->floatValue);
    else if (c->kind == ConstantValue::Kind::Int && !negate)
      expr.constant = c;
    else if (c->kind == ConstantValue::Kind::Int)
      expr.constant = ConstantValue::ofInt(static_cast<int64_t>(0ULL - static_cast<uint64_t>(c->intValue)));
    else
      expr.constant = ConstantValue::ofInt(negate ? -int64_t(c->boolValue) : int64_t(c->boolValue));
  }
  return setType(expr, types_.scalar(result.kind));
}

/// `a and b`, `a or b`: on bools a bool. With a number among the operands,
/// Python's value, one of the operands (`0 or 5` is 5, `3 and 0.5` is 0.5),
/// in the type that Numba unifies the operands to (int64 with float64:
/// float64; a bool with a number: the number's type), promoted as the
/// branches of a conditional expression are.
const Type *Sema::checkBoolOp(BoolOpExpr &expr) {
  bool ok = true, allConstant = true;
  // `i < n and x[i] > 0`: what an 'and' compares guards its later operands.
  const std::set<const Symbol *> guardedBefore = guarded_;
  for (ExprPtr &operand : expr.operands) {
    const Type *type = checkValue(*operand);
    if (expr.op == BoolOp::And)
      for (const Symbol *symbol : guardsOf(*operand))
        guarded_.insert(symbol);
    ok &= !type->isError() && requireCondition(*operand, expr.op == BoolOp::And ? "an operand of 'and'"
                                                                                 : "an operand of 'or'");
    allConstant &= operand->constant.has_value();
  }
  guarded_ = guardedBefore;
  if (!ok)
    return setType(expr, types_.errorType());
  PromotionOperand unified = promotionOperand(*expr.operands.front());
  for (size_t i = 1; i < expr.operands.size(); ++i)
    unified = promote(unified, promotionOperand(*expr.operands[i]));
  expr.isWeak = unified.weak;
  if (allConstant) {
    // The first operand that decides: for 'or' the first true one, for
    // 'and' the first false one; else the last.
    const ExprPtr *decides = &expr.operands.back();
    for (const ExprPtr &operand : expr.operands)
      if (operand->constant->truth() == (expr.op == BoolOp::Or)) {
        decides = &operand;
        break;
      }
    ConstantValue value = *(*decides)->constant;
    if (unified.kind != ScalarKind::Bool && value.kind == ConstantValue::Kind::Bool)
      value = ConstantValue::ofInt(value.boolValue);
    if (isFloat(unified.kind) && value.kind == ConstantValue::Kind::Int)
      value = ConstantValue::ofFloat(value.asDouble());
    expr.constant = value;
    if (unified.kind == ScalarKind::Bool)
      expr.isWeak = true; // as a comparison of constants is
  }
  return setType(expr, types_.scalar(unified.kind));
}

void Sema::foldComparison(CompareExpr &expr) {
  std::vector<const Expr *> operands = {expr.first.get()};
  for (ExprPtr &comparator : expr.comparators)
    operands.push_back(comparator.get());
  for (const Expr *operand : operands)
    if (!operand->constant || operand->constant->exceedsInt64)
      return;
  bool result = true;
  for (size_t i = 0; i < expr.ops.size(); ++i) {
    const ConstantValue &a = *operands[i]->constant, &b = *operands[i + 1]->constant;
    const bool integral = a.kind != ConstantValue::Kind::Float && b.kind != ConstantValue::Kind::Float;
    auto compareAs = [&](auto x, auto y) {
      switch (expr.ops[i]) {
      case CompareOp::Lt:
        return x < y;
      case CompareOp::Le:
        return x <= y;
      case CompareOp::Gt:
        return x > y;
      case CompareOp::Ge:
        return x >= y;
      case CompareOp::Eq:
        return x == y;
      default:
        return x != y;
      }
    };
    auto asInt = [](const ConstantValue &v) { return v.kind == ConstantValue::Kind::Bool ? int64_t(v.boolValue) : v.intValue; };
    result = result && (integral ? compareAs(asInt(a), asInt(b)) : compareAs(a.asDouble(), b.asDouble()));
  }
  expr.constant = ConstantValue::ofBool(result);
  expr.isWeak = true;
}

const Type *Sema::checkCompare(CompareExpr &expr) {
  bool ok = !checkValue(*expr.first)->isError();
  for (ExprPtr &comparator : expr.comparators)
    ok &= !checkValue(*comparator)->isError();
  if (!ok)
    return setType(expr, types_.errorType());
  expr.operandTypes.clear();
  Expr *lhs = expr.first.get();
  for (size_t i = 0; i < expr.ops.size(); ++i) {
    Expr *rhs = expr.comparators[i].get();
    CompareOp op = expr.ops[i];
    if (op == CompareOp::In || op == CompareOp::NotIn || op == CompareOp::Is || op == CompareOp::IsNot) {
      error(expr.opRanges[i]) << "operator '" << compareOpSpelling(op)
                              << "' is not supported in kernels; compare numbers with == and !=";
      return setType(expr, types_.errorType());
    }
    for (Expr *operand : {lhs, rhs}) {
      if (!operand->type->isScalar()) {
        error(operand->range()) << "cannot compare " << describe(*operand);
        return setType(expr, types_.errorType());
      }
    }
    PromotionOperand promoted = promote(promotionOperand(*lhs), promotionOperand(*rhs));
    if (isComplex(promoted.kind) && op != CompareOp::Eq && op != CompareOp::Ne) {
      error(expr.opRanges[i]) << "complex numbers have no order: '" << compareOpSpelling(op)
                              << "' needs real numbers; compare abs(z), z.real or z.imag";
      return setType(expr, types_.errorType());
    }
    // NumPy 2 compares a Python int with an integer array exactly, even
    // when the int does not fit the array's type (int8 < 300 is True):
    // compare in a type that holds both.
    for (Expr *operand : {lhs, rhs})
      if (operand->isWeak && operand->constant && !operand->constant->fitsIn(promoted.kind))
        promoted.kind = promoteTyped(promoted.kind, operand->constant->exceedsInt64 ? ScalarKind::UInt64
                                                                                      : ScalarKind::Int64);
    for (Expr *operand : {lhs, rhs})
      if (!checkLiteralFits(*operand, promoted.kind))
        return setType(expr, types_.errorType());
    expr.operandTypes.push_back(types_.scalar(promoted.kind));
    lhs = rhs;
  }
  foldComparison(expr);
  return setType(expr, types_.boolType());
}

/// (a, b) if c else (b, a): tuples of one length; each element promotes
/// as a scalar conditional's would.
const Type *Sema::checkTupleConditional(ConditionalExpr &expr) {
  if (expr.thenValue->type->isNestedTuple() || expr.elseValue->type->isNestedTuple()) {
    notSupportedYet(expr.range(), "a conditional expression of tuples of tuples");
    return setType(expr, types_.errorType());
  }
  const auto &thenElements = expr.thenValue->type->elements();
  const auto &elseElements = expr.elseValue->type->elements();
  if (thenElements.size() != elseElements.size()) {
    error(expr.range()) << "the branches of a conditional expression are tuples of " << thenElements.size()
                        << " and " << elseElements.size() << " elements";
    return setType(expr, types_.errorType());
  }
  auto operand = [&](const Expr &branch, size_t i) {
    if (auto *tuple = dyn_cast<TupleExpr>(&branch))
      return promotionOperand(*tuple->elements[i]);
    const bool weak = tupleElementConstant(branch, i).has_value();
    return PromotionOperand{branch.type->elements()[i]->scalarKind(), weak};
  };
  std::vector<const Type *> elements;
  for (size_t i = 0; i < thenElements.size(); ++i)
    elements.push_back(types_.scalar(promote(operand(*expr.thenValue, i), operand(*expr.elseValue, i)).kind));
  return setType(expr, types_.tuple(elements));
}

const Type *Sema::checkConditional(ConditionalExpr &expr) {
  const Type *conditionType = checkValue(*expr.condition);
  // `x[i] if i < n else 0`: the condition guards both values.
  const std::set<const Symbol *> guardedBefore = guarded_;
  for (const Symbol *symbol : guardsOf(*expr.condition))
    guarded_.insert(symbol);
  const Type *thenType = checkValue(*expr.thenValue);
  const Type *elseType = checkValue(*expr.elseValue);
  guarded_ = guardedBefore;
  if (conditionType->isError() || thenType->isError() || elseType->isError())
    return setType(expr, types_.errorType());
  if (!requireCondition(*expr.condition, "the condition of a conditional expression"))
    return setType(expr, types_.errorType());
  if (thenType->isTuple() && elseType->isTuple())
    return checkTupleConditional(expr);
  // `b = a if flip else c`: one of two arrays of one element type and rank.
  if (thenType->isArray() && elseType->isArray() && thenType->scalarKind() == elseType->scalarKind() &&
      thenType->rank() == elseType->rank())
    return setType(expr, types_.array(thenType->scalarKind(), thenType->rank(),
                                      thenType->isContiguous() && elseType->isContiguous()));
  if (!thenType->isScalar() || !elseType->isScalar()) {
    error(expr.range()) << "both branches of a conditional expression must be numbers, tuples, or arrays of one "
                           "element type and rank";
    return setType(expr, types_.errorType());
  }
  PromotionOperand promoted = promote(promotionOperand(*expr.thenValue), promotionOperand(*expr.elseValue));
  expr.isWeak = promoted.weak;
  if (expr.condition->constant && expr.thenValue->constant && expr.elseValue->constant)
    expr.constant = expr.condition->constant->truth() ? expr.thenValue->constant : expr.elseValue->constant;
  return setType(expr, types_.scalar(promoted.kind));
}

} // namespace pyk::sema
