//===- SemaExpr.cpp - Names, builtins, operators and their types ----------===//
//
// Each check returns the expression's type and records it in the node. The
// error type marks an expression that already has a diagnostic; checks that
// meet it stay silent, so one mistake gives one error.
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

const Type *Sema::checkValue(Expr &expr) {
  const Type *type = checkExpr(expr);
  if (!type->isVoid())
    return type;
  if (isNamespace(expr.builtin))
    error(expr.range()) << describe(expr) << " is a module, not a value";
  else if (expr.builtin != Builtin::None)
    error(expr.range()) << describe(expr) << " is a function; call it";
  else
    error(expr.range()) << "this expression has no value";
  return setType(expr, types_.errorType());
}

const Type *Sema::checkExpr(Expr &expr) {
  switch (expr.kind()) {
  case NodeKind::NameExpr:
    return checkName(llvm::cast<NameExpr>(expr));
  case NodeKind::IntLiteralExpr:
    return checkIntLiteral(llvm::cast<IntLiteralExpr>(expr));
  case NodeKind::FloatLiteralExpr:
    expr.isWeak = true;
    expr.constant = ConstantValue::ofFloat(llvm::cast<FloatLiteralExpr>(expr).value);
    return setType(expr, types_.float64Type());
  case NodeKind::BoolLiteralExpr:
    expr.isWeak = true;
    expr.constant = ConstantValue::ofBool(llvm::cast<BoolLiteralExpr>(expr).value);
    return setType(expr, types_.boolType());
  case NodeKind::NoneLiteralExpr:
    error(expr.range()) << "'None' is not a value in kernels";
    return setType(expr, types_.errorType());
  case NodeKind::StringLiteralExpr:
    error(expr.range()) << "strings are only allowed in print() and assert";
    return setType(expr, types_.errorType());
  case NodeKind::TupleExpr:
    return checkTuple(llvm::cast<TupleExpr>(expr));
  case NodeKind::AttributeExpr:
    return checkAttribute(llvm::cast<AttributeExpr>(expr));
  case NodeKind::SubscriptExpr:
    return checkSubscript(llvm::cast<SubscriptExpr>(expr));
  case NodeKind::SliceExpr:
    error(expr.range()) << "slicing is not supported; index one element at a time";
    return setType(expr, types_.errorType());
  case NodeKind::CallExpr:
    return checkCall(llvm::cast<CallExpr>(expr));
  case NodeKind::UnaryExpr:
    return checkUnary(llvm::cast<UnaryExpr>(expr));
  case NodeKind::BinaryExpr:
    return checkBinary(llvm::cast<BinaryExpr>(expr));
  case NodeKind::BoolOpExpr:
    return checkBoolOp(llvm::cast<BoolOpExpr>(expr));
  case NodeKind::CompareExpr:
    return checkCompare(llvm::cast<CompareExpr>(expr));
  case NodeKind::ConditionalExpr:
    return checkConditional(llvm::cast<ConditionalExpr>(expr));
  case NodeKind::UnsupportedExpr:
    error(expr.range()) << unsupportedSyntaxName(llvm::cast<UnsupportedExpr>(expr).what)
                        << " are not supported in kernels";
    return setType(expr, types_.errorType());
#define PYK_AST_STMT(Name) case NodeKind::Name:
#include "ASTNodes.def"
    break;
  }
  return setType(expr, types_.errorType());
}

//===----------------------------------------------------------------------===//
// Names, literals, attributes
//===----------------------------------------------------------------------===//

const Type *Sema::checkName(NameExpr &expr) {
  const Symbol *symbol = lookup(expr.name);
  expr.symbol = symbol;
  if (!symbol) {
    if (expr.name == "void")
      error(expr.range()) << "'void' is only a signature's return type";
    else if (expr.name == "range")
      error(expr.range()) << "range() can only be iterated by a 'for' loop";
    else if (isKnownUnimplementedBuiltin(expr.name))
      notSupportedYet(expr.range(), "'" + expr.name + "'");
    else
      error(expr.range()) << "name '" << expr.name << "' is not defined";
    return setType(expr, types_.errorType());
  }
  switch (symbol->kind) {
  case SymbolKind::Parameter:
    return setType(expr, symbol->type);
  case SymbolKind::Local:
    if (!symbol->type || !flow_.assigned.count(symbol)) {
      if (!flow_.returned)
        error(expr.range()) << "local variable '" << expr.name << "' is used before it is assigned"
                            << (flow_.maybeAssigned.count(symbol) ? " on some paths to here" : "");
      return setType(expr, types_.errorType());
    }
    return setType(expr, symbol->type);
  case SymbolKind::Constant:
    // A rejected constant has the error type: its uses stay silent.
    expr.isWeak = !symbol->type->isError();
    expr.constant = symbol->constant;
    return setType(expr, symbol->type);
  case SymbolKind::Builtin:
    expr.builtin = symbol->builtin;
    return setType(expr, types_.voidType());
  case SymbolKind::TypeName:
    error(expr.range()) << "the type '" << expr.name << "' is not a value; convert with " << expr.name << "(x)";
    return setType(expr, types_.errorType());
  case SymbolKind::Function:
    error(expr.range()) << "'" << expr.name << "' is a function, not a value; call it: '" << expr.name << "(...)'";
    return setType(expr, types_.errorType());
  }
  return setType(expr, types_.errorType());
}

const Type *Sema::checkIntLiteral(IntLiteralExpr &expr) {
  if (expr.tooLarge) {
    error(expr.range()) << "integer literal is too large: pyk integers have at most 64 bits";
    return setType(expr, types_.errorType());
  }
  // Values up to 2^64 - 1 are fine next to a uint64; checkLiteralFits
  // rejects them wherever they would become an int64.
  expr.isWeak = true;
  expr.constant = ConstantValue::ofUInt64(expr.value);
  return setType(expr, types_.int64Type());
}

static const Type *threadIndexType(Builtin builtin, TypeContext &types) {
  switch (builtin) {
  case Builtin::ThreadIdxX:
  case Builtin::ThreadIdxY:
  case Builtin::ThreadIdxZ:
  case Builtin::BlockIdxX:
  case Builtin::BlockIdxY:
  case Builtin::BlockIdxZ:
  case Builtin::BlockDimX:
  case Builtin::BlockDimY:
  case Builtin::BlockDimZ:
  case Builtin::GridDimX:
  case Builtin::GridDimY:
  case Builtin::GridDimZ:
  case Builtin::LaneId:
  case Builtin::WarpSize:
    return types.int32Type(); // Numba types them int32.
  default:
    return types.voidType();
  }
}

const Type *Sema::checkAttribute(AttributeExpr &expr) {
  const Type *objectType = checkExpr(*expr.object);
  if (objectType->isError())
    return setType(expr, types_.errorType());
  if (objectType->isArray()) {
    if (expr.attribute == "shape") {
      expr.builtin = Builtin::ArrayShape;
      return setType(expr, types_.tuple(std::vector<const Type *>(objectType->rank(), types_.int64Type())));
    }
    if (expr.attribute == "size") {
      expr.builtin = Builtin::ArraySize;
      return setType(expr, types_.int64Type());
    }
    if (expr.attribute == "ndim") {
      expr.builtin = Builtin::ArrayNdim;
      expr.isWeak = true;
      expr.constant = ConstantValue::ofInt(objectType->rank());
      return setType(expr, types_.int64Type());
    }
    error(expr.attributeRange) << "arrays have no attribute '" << expr.attribute
                               << "'; pyk arrays have shape, size and ndim";
    return setType(expr, types_.errorType());
  }
  if (!objectType->isVoid() || !isNamespace(expr.object->builtin)) {
    error(expr.attributeRange) << describe(*expr.object) << " has no attribute '" << expr.attribute << "'";
    return setType(expr, types_.errorType());
  }
  if (expr.object->builtin == Builtin::NumpyModule && scalarKindFromName(expr.attribute)) {
    error(expr.range()) << "the type 'np." << expr.attribute << "' is not a value; convert with np."
                        << expr.attribute << "(x)";
    return setType(expr, types_.errorType());
  }
  if (expr.object->builtin == Builtin::MathModule) {
    if (auto value = mathConstant(expr.attribute)) {
      expr.isWeak = true;
      expr.constant = ConstantValue::ofFloat(*value);
      return setType(expr, types_.float64Type());
    }
    if (mathFunction(expr.attribute)) {
      expr.builtin = Builtin::MathFunction;
      return setType(expr, types_.voidType());
    }
  }
  std::string dotted = std::string(builtinName(expr.object->builtin)) + "." + expr.attribute;
  if (auto builtin = builtinFromName(dotted)) {
    expr.builtin = *builtin;
    if (*builtin == Builtin::WarpSize)
      expr.constant = ConstantValue::ofInt(32); // on every NVIDIA GPU, and the CPU device's warps
    return setType(expr, threadIndexType(*builtin, types_));
  }
  if (isKnownUnimplementedBuiltin(dotted))
    notSupportedYet(expr.range(), "'" + dotted + "'");
  else
    error(expr.attributeRange) << "'" << builtinName(expr.object->builtin) << "' has no attribute '"
                               << expr.attribute << "'";
  return setType(expr, types_.errorType());
}

//===----------------------------------------------------------------------===//
// Subscripts
//===----------------------------------------------------------------------===//

const Type *Sema::checkSubscript(SubscriptExpr &expr) {
  // a[i][j] on a 2-D array: say how to write it before anything else.
  if (auto *inner = dyn_cast<SubscriptExpr>(expr.object.get())) {
    const Type *innerObject = checkExpr(*inner->object);
    if (innerObject->isArray() && inner->indices.size() < innerObject->rank()) {
      error(expr.range()) << "chained indexing 'a[i][j]' is not supported; write one subscript with all indices, "
                             "'a[i, j]'";
      return setType(expr, types_.errorType());
    }
  }
  const Type *objectType = checkExpr(*expr.object);
  if (objectType->isError())
    return setType(expr, types_.errorType());
  if (objectType->isArray())
    return checkArrayIndex(expr, objectType);
  if (objectType->isTuple())
    return checkTupleIndex(expr, objectType);
  if (objectType->isVoid() && scalarTypeNamed(*expr.object)) {
    error(expr.range()) << "array types such as '" << builtinName(expr.object->builtin)
                        << "[:]' are only allowed in annotations and signatures";
    return setType(expr, types_.errorType());
  }
  error(expr.object->range()) << describe(*expr.object) << " cannot be indexed";
  return setType(expr, types_.errorType());
}

const Type *Sema::checkArrayIndex(SubscriptExpr &expr, const Type *arrayType) {
  bool ok = true;
  for (size_t axis = 0; axis < expr.indices.size(); ++axis) {
    Expr &index = *expr.indices[axis];
    if (isa<SliceExpr>(index)) {
      error(index.range()) << "slicing arrays is not supported; index one element at a time";
      ok = false;
      continue;
    }
    const Type *indexType = checkValue(index);
    if (indexType->isError()) {
      ok = false;
      continue;
    }
    if (!indexType->isScalar() || !isInteger(indexType->scalarKind())) {
      error(index.range()) << "an array index must be an integer, not " << indexType->str();
      ok = false;
      continue;
    }
    if (index.constant && index.constant->intValue < 0 && !index.constant->exceedsInt64) {
      auto *array = dyn_cast<NameExpr>(expr.object.get());
      error(index.range()) << "negative index " << index.constant->intValue
                           << ": pyk does not wrap negative indices; write '" << (array ? array->name : "a")
                           << ".shape[" << axis << "] - " << 0 - static_cast<uint64_t>(index.constant->intValue) << "' instead";
      ok = false;
    }
  }
  if (ok && expr.indices.size() != arrayType->rank()) {
    error(expr.range()) << "array of type " << arrayType->str() << " has " << arrayType->rank() << " dimension"
                        << (arrayType->rank() == 1 ? "" : "s") << " but " << expr.indices.size() << " ind"
                        << (expr.indices.size() == 1 ? "ex was" : "ices were") << " given";
    ok = false;
  }
  if (ok)
    checkGridIndex(expr);
  return setType(expr, ok ? types_.scalar(arrayType->scalarKind()) : types_.errorType());
}

/// (a, b, ...) of scalars: a value of tuple type, which locals can hold
/// and which can be indexed and unpacked.
const Type *Sema::checkTuple(TupleExpr &expr) {
  std::vector<const Type *> elements;
  for (ExprPtr &element : expr.elements) {
    const Type *type = checkValue(*element);
    if (type->isError())
      return setType(expr, types_.errorType());
    if (!type->isScalar()) {
      if (type->isTuple())
        notSupportedYet(element->range(), "a tuple of tuples");
      else
        error(element->range()) << "a tuple holds scalars, not " << describe(*element);
      return setType(expr, types_.errorType());
    }
    elements.push_back(type);
  }
  return setType(expr, types_.tuple(elements));
}

/// The constant value of element `position` of `tuple`, when it has one.
static std::optional<ConstantValue> tupleElementConstant(const Expr &tuple, size_t position) {
  if (auto *name = dyn_cast<NameExpr>(&tuple); name && name->symbol && name->symbol->kind == SymbolKind::Constant &&
                                                position < name->symbol->tupleConstant.size())
    return name->symbol->tupleConstant[position];
  if (auto *literal = dyn_cast<TupleExpr>(&tuple))
    return literal->elements[position]->constant;
  return std::nullopt;
}

/// t[k]: with a constant k, element k (negative k from the end); with a
/// run-time k, the element k of a tuple whose elements share a type after
/// promotion (as Numba's UniTuple).
const Type *Sema::checkTupleIndex(SubscriptExpr &expr, const Type *tupleType) {
  if (expr.indices.size() != 1) {
    error(expr.range()) << "a tuple takes one index";
    return setType(expr, types_.errorType());
  }
  Expr &index = *expr.indices.front();
  const Type *indexType = checkValue(index);
  if (indexType->isError())
    return setType(expr, types_.errorType());
  const auto size = static_cast<int64_t>(tupleType->elements().size());
  if (size == 0) {
    error(index.range()) << "an empty tuple has no elements to index";
    return setType(expr, types_.errorType());
  }
  if (!indexType->isScalar() || !isInteger(indexType->scalarKind())) {
    error(index.range()) << "a tuple index must be an integer, not " << indexType->str();
    return setType(expr, types_.errorType());
  }
  if (!index.constant)
    return checkDynamicTupleIndex(expr, tupleType);
  int64_t position = index.constant->intValue;
  if (position < -size || position >= size) {
    error(index.range()) << "index " << position << " is out of range for a tuple of " << size << " element"
                         << (size == 1 ? "" : "s");
    return setType(expr, types_.errorType());
  }
  if (position < 0)
    index.constant->intValue = position + size; // Lowering reads the normalised position.
  const auto element = static_cast<size_t>(index.constant->intValue);
  if (auto value = tupleElementConstant(*expr.object, element)) {
    expr.constant = value;
    expr.isWeak = true; // Python numbers, like scalar module constants
  }
  return setType(expr, tupleType->elements()[element]);
}

const Type *Sema::checkDynamicTupleIndex(SubscriptExpr &expr, const Type *tupleType) {
  std::optional<PromotionOperand> common;
  bool allConstant = true;
  for (size_t i = 0; i < tupleType->elements().size(); ++i) {
    const bool weak = tupleElementConstant(*expr.object, i).has_value();
    allConstant &= weak;
    const PromotionOperand operand{tupleType->elements()[i]->scalarKind(), weak};
    common = common ? promote(*common, operand) : operand;
  }
  const ScalarKind kind = common->kind; // weak operands carry their default type
  for (const Type *element : tupleType->elements()) {
    const ScalarKind have = element->scalarKind();
    if (isFloat(have) != isFloat(kind) || (have == ScalarKind::Bool) != (kind == ScalarKind::Bool)) {
      error(expr.indices.front()->range())
          << "a tuple of " << tupleType->str()
          << " can only be indexed by a constant; a run-time index needs elements of one kind";
      return setType(expr, types_.errorType());
    }
  }
  // Chosen at run time among Python numbers, the value is still a Python
  // number: weak, so WEIGHTS[k] * x[i] stays float32 as 0.25 * x[i] does.
  expr.isWeak = allConstant;
  return setType(expr, types_.scalar(kind));
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

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
  const std::string &text = realDiags_.file().text();
  if (!range.isValid() || range.end.offset < range.begin.offset || range.end.offset > text.size())
    return "...";
  return text.substr(range.begin.offset, range.end.offset - range.begin.offset);
}

void Sema::warnIfPromotedToFloat64(const Type *computedIn, const std::vector<const Expr *> &operands, SourceRange at,
                                   const std::function<std::string(const std::vector<std::string> &)> &rewrite) {
  if (!function_ || hasFloat64Data_ || computedIn->scalarKind() != ScalarKind::Float64)
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
  for (const Expr *operand : operands) {
    const std::string text = sourceText(operand->range());
    const bool castIt = !operand->isWeak && !isFloat(operand->type->scalarKind());
    texts.push_back(castIt ? "float32(" + text + ")" : text);
    if (castIt || operand->type->scalarKind() == ScalarKind::Float32)
      culprits.push_back(operand->type->str());
  }
  std::string why;
  for (size_t i = 0; i < culprits.size(); ++i)
    why += (i ? " with " : "") + culprits[i];
  float64Warnings_.try_emplace(at.begin.offset, at,
                               "this computes in float64 (" + why + " promotes to float64, as in NumPy) in a " +
                                   functionKindName(*function_) + " that has no float64 data; write '" +
                                   rewrite(texts) + "' to stay in float32");
}

bool Sema::requireBool(Expr &expr, const char *context) {
  if (expr.type->isError() || expr.type->isScalarOf(ScalarKind::Bool))
    return true;
  error(expr.range()) << context << " must be a bool, not " << expr.type->str()
                      << "; compare explicitly, e.g. 'x != 0'";
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
      if (isFloat(operand->type->scalarKind())) {
        error(operand->range()) << "operator '" << binaryOpSpelling(op) << "' needs integers"
                                << (bitwise ? " or bools" : "") << ", not " << operand->type->str();
        return {};
      }
  }
  PromotionOperand promoted = promote(promotionOperand(lhs), promotionOperand(rhs));
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
  if (op == BinaryOp::Div && !isFloat(promoted.kind))
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
  const Type *operandType = checkValue(*expr.operand);
  if (operandType->isError())
    return setType(expr, types_.errorType());
  if (expr.op == UnaryOp::Not) {
    if (!requireBool(*expr.operand, "the operand of 'not'"))
      return setType(expr, types_.errorType());
    if (expr.operand->constant)
      expr.constant = ConstantValue::ofBool(!expr.operand->constant->boolValue);
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
    if (isFloat(kind)) {
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

const Type *Sema::checkBoolOp(BoolOpExpr &expr) {
  bool ok = true, allConstant = true, value = expr.op == BoolOp::And;
  // `i < n and x[i] > 0`: what an 'and' compares guards its later operands.
  const std::set<const Symbol *> guardedBefore = guarded_;
  for (ExprPtr &operand : expr.operands) {
    const Type *type = checkValue(*operand);
    if (expr.op == BoolOp::And)
      for (const Symbol *symbol : guardsOf(*operand))
        guarded_.insert(symbol);
    ok &= !type->isError() && requireBool(*operand, expr.op == BoolOp::And ? "an operand of 'and'"
                                                                            : "an operand of 'or'");
    allConstant &= operand->constant.has_value();
    if (operand->constant)
      value = expr.op == BoolOp::And ? value && operand->constant->boolValue : value || operand->constant->boolValue;
  }
  guarded_ = guardedBefore;
  if (ok && allConstant) {
    expr.constant = ConstantValue::ofBool(value);
    expr.isWeak = true;
  }
  return setType(expr, ok ? types_.boolType() : types_.errorType());
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
  if (!requireBool(*expr.condition, "the condition of a conditional expression"))
    return setType(expr, types_.errorType());
  if (thenType->isTuple() && elseType->isTuple())
    return checkTupleConditional(expr);
  if (!thenType->isScalar() || !elseType->isScalar()) {
    error(expr.range()) << "both branches of a conditional expression must be numbers, or tuples";
    return setType(expr, types_.errorType());
  }
  PromotionOperand promoted = promote(promotionOperand(*expr.thenValue), promotionOperand(*expr.elseValue));
  expr.isWeak = promoted.weak;
  if (expr.condition->constant && expr.thenValue->constant && expr.elseValue->constant)
    expr.constant = expr.condition->constant->boolValue ? expr.thenValue->constant : expr.elseValue->constant;
  return setType(expr, types_.scalar(promoted.kind));
}

} // namespace pyk::sema
