//===- SemaNumpyConstants.cpp - NumPy arrays computed at compile time -----===//
//
// Numba captures a global NumPy array as a constant of the kernel, so real
// kernel files make tables at module level:
//
//   PRICES = np.array([1.5, 2.25, 3.0], dtype=np.float32)
//   RAMP = np.arange(8) * 2.0
//   GRID = np.linspace(0.0, 1.0, 11).astype(np.float32)
//
// pykc evaluates such an expression itself, with NumPy's rules for the
// element type (int64 and float64 by default, `dtype=`, NEP 50 promotion
// in arithmetic, Python scalars weak), and the array lives in constant
// memory: kernels read it by name (`PRICES[i]`) or through
// cuda.const.array_like(PRICES). What is evaluated: np.array/np.asarray of
// (nested) lists and tuples, np.arange, np.linspace, np.zeros, np.ones,
// np.full, `.astype`, unary minus and + - * / // % ** between arrays of one
// shape and scalars. Anything else is an error located where it is written.
//
//===----------------------------------------------------------------------===//
#include "ASTWalk.h"
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

#include <cmath>
#include <functional>
#include <map>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// Constant memory on every CUDA GPU: 64 KiB for the whole program.
constexpr int64_t constantMemoryBytes = 64 * 1024;

/// The functions of NumPy that pykc evaluates at module level.
constexpr std::string_view evaluatedFunctions[] = {"array", "asarray", "arange", "linspace", "zeros", "ones", "full"};

bool isEvaluatedFunction(std::string_view name) {
  for (std::string_view known : evaluatedFunctions)
    if (known == name)
      return true;
  return false;
}

bool isListDisplay(const Expr &expr) {
  auto *list = dyn_cast<UnsupportedExpr>(&expr);
  return list && list->what == UnsupportedSyntax::ListDisplay;
}

/// The value `v` has as an element of dtype `kind`, as NumPy's astype
/// converts: floats round to float32, integers wrap to the width, floats
/// truncate towards zero. Empty for a float that no integer holds.
std::optional<ConstantValue> convertElement(const ConstantValue &v, ScalarKind kind) {
  if (kind == ScalarKind::Bool)
    return ConstantValue::ofBool(v.truth());
  if (isFloat(kind)) {
    const double value = v.kind == ConstantValue::Kind::Int && v.exceedsInt64 ? double(uint64_t(v.intValue))
                                                                                : v.asDouble();
    return ConstantValue::ofFloat(kind == ScalarKind::Float32 ? double(float(value)) : value);
  }
  uint64_t bits;
  if (v.kind == ConstantValue::Kind::Float) {
    const double truncated = std::trunc(v.floatValue);
    if (!std::isfinite(truncated) || truncated < -9223372036854775808.0 || truncated >= 18446744073709551616.0)
      return std::nullopt;
    bits = truncated < 0 ? uint64_t(int64_t(truncated)) : uint64_t(truncated);
  } else {
    bits = v.kind == ConstantValue::Kind::Bool ? uint64_t(v.boolValue) : uint64_t(v.intValue);
  }
  const unsigned bitsWide = byteWidth(kind) * 8;
  if (bitsWide < 64) {
    bits &= (uint64_t(1) << bitsWide) - 1;
    if (isSignedInteger(kind) && (bits >> (bitsWide - 1)) & 1)
      bits |= ~((uint64_t(1) << bitsWide) - 1);
  }
  if (kind == ScalarKind::UInt64)
    return ConstantValue::ofUInt64(bits);
  return ConstantValue::ofInt(int64_t(bits));
}

/// Python's kind of a scalar constant, as NumPy's default dtype for it.
ScalarKind defaultKind(const ConstantValue &v) {
  switch (v.kind) {
  case ConstantValue::Kind::Bool:
    return ScalarKind::Bool;
  case ConstantValue::Kind::Int:
    return ScalarKind::Int64;
  case ConstantValue::Kind::Float:
    return ScalarKind::Float64;
  }
  return ScalarKind::Float64;
}

} // namespace

/// An array, or a scalar (weak: a Python number; typed: np.float32(2)).
struct Sema::NumpyValue {
  bool isArray = false;
  bool weak = false;
  ScalarKind dtype = ScalarKind::Float64;
  std::vector<int64_t> shape;
  std::vector<ConstantValue> elements;
};

bool Sema::looksLikeConstantArray(const Expr &value) {
  bool found = false;
  forEachExprIn(value, [&](const Expr &e) {
    if (auto *call = dyn_cast<CallExpr>(&e)) {
      auto *attribute = dyn_cast<AttributeExpr>(call->callee.get());
      if (!attribute)
        return;
      if (attribute->attribute == "astype") {
        found = true;
        return;
      }
      auto *module = dyn_cast<NameExpr>(attribute->object.get());
      const Symbol *symbol = module ? lookup(module->name) : nullptr;
      if (symbol && symbol->kind == SymbolKind::Builtin &&
          (symbol->builtin == Builtin::NumpyModule || symbol->builtin == Builtin::CupyModule) &&
          !scalarKindFromName(attribute->attribute))
        found = true;
    } else if (auto *name = dyn_cast<NameExpr>(&e)) {
      const Symbol *symbol = lookup(name->name);
      if (symbol && symbol->constantArray)
        found = true;
    }
  });
  return found;
}

void Sema::declareConstantArray(NameExpr &target, Expr &value) {
  Symbol symbol{SymbolKind::Constant, target.name, target.range(), types_.errorType(), std::nullopt,
                ScalarKind::Bool, Builtin::None, nullptr, 0};
  std::optional<NumpyValue> result = evaluateNumpy(value);
  if (result && !result->isArray) {
    // A number after all (`N = len(PRICES)`): a constant as any other.
    symbol.type = types_.scalar(result->dtype);
    symbol.constant = result->elements.front();
    target.type = symbol.type;
    target.isWeak = true;
    target.constant = symbol.constant;
    addSymbol(moduleScope_, std::move(symbol));
    return;
  }
  if (result && (result->shape.empty() || result->shape.size() > 3)) {
    error(value.range()) << "constant arrays have 1 to 3 dimensions, not " << result->shape.size();
    result.reset();
  }
  if (result && result->elements.empty()) {
    error(value.range()) << "a constant array needs at least one element";
    result.reset();
  }
  if (result && int64_t(result->elements.size()) * byteWidth(result->dtype) > constantMemoryBytes) {
    error(value.range()) << "'" << target.name << "' takes " << result->elements.size() * byteWidth(result->dtype)
                         << " bytes; constant memory holds 65536 (64 KiB)";
    result.reset();
  }
  if (result) {
    const int64_t bytes = int64_t(result->elements.size()) * byteWidth(result->dtype);
    if (constantArrayBytes_ + bytes > constantMemoryBytes) {
      error(value.range()) << "with '" << target.name << "', the module's constant arrays take "
                           << constantArrayBytes_ + bytes << " bytes; constant memory holds 65536 (64 KiB)";
      result.reset();
    } else {
      constantArrayBytes_ += bytes;
    }
  }
  if (result) {
    auto array = std::make_shared<ConstantArray>();
    array->dtype = result->dtype;
    array->shape = result->shape;
    array->elements = std::move(result->elements);
    array->name = target.name;
    symbol.type = types_.array(array->dtype, static_cast<unsigned>(array->shape.size()));
    symbol.storage = ArrayStorage::Constant;
    symbol.fixedShape = array->shape;
    symbol.constantArray = std::move(array);
    target.type = symbol.type;
  }
  addSymbol(moduleScope_, std::move(symbol));
}

std::optional<ScalarKind> Sema::numpyDtype(Expr &dtype) {
  std::optional<ScalarKind> kind;
  if (auto *text = dyn_cast<StringLiteralExpr>(&dtype))
    kind = scalarKindFromName(text->value);
  if (!kind)
    kind = scalarTypeNamed(dtype);
  if (kind && isComplex(*kind)) {
    notSupportedYet(dtype.range(), "a constant array of complex numbers");
    return std::nullopt;
  }
  if (kind)
    return kind;
  error(dtype.range()) << "this dtype is not one pyk has: use a NumPy scalar type such as np.float32 or np.int32";
  return std::nullopt;
}

std::optional<Sema::NumpyValue> Sema::evaluateNumpy(Expr &e) {
  if (auto *call = dyn_cast<CallExpr>(&e))
    if (auto *attribute = dyn_cast<AttributeExpr>(call->callee.get())) {
      if (attribute->attribute == "astype")
        return evaluateAstype(*call, *attribute);
      if (looksLikeConstantArray(*attribute->object)) {
        error(attribute->attributeRange) << "'." << attribute->attribute
                                         << "()' is not evaluated at module level: pykc computes constant arrays "
                                            "with np.array, np.asarray, np.arange, np.linspace, np.zeros, np.ones, "
                                            "np.full, arithmetic and .astype";
        return std::nullopt;
      }
      auto *module = dyn_cast<NameExpr>(attribute->object.get());
      const Symbol *symbol = module ? lookup(module->name) : nullptr;
      if (symbol && symbol->kind == SymbolKind::Builtin &&
          (symbol->builtin == Builtin::NumpyModule || symbol->builtin == Builtin::CupyModule) &&
          !scalarKindFromName(attribute->attribute)) {
        if (!isEvaluatedFunction(attribute->attribute)) {
          error(call->callee->range()) << "'" << module->name << "." << attribute->attribute
                                       << "' is not evaluated at module level: pykc computes constant arrays with "
                                          "np.array, np.asarray, np.arange, np.linspace, np.zeros, np.ones, "
                                          "np.full, arithmetic and .astype";
          return std::nullopt;
        }
        return evaluateNumpyCall(*call, attribute->attribute);
      }
    }
  if (auto *name = dyn_cast<NameExpr>(&e)) {
    const Symbol *symbol = lookup(name->name);
    if (symbol && symbol->kind == SymbolKind::Constant && symbol->type && symbol->type->isError())
      return std::nullopt; // its error is reported
    if (symbol && symbol->constantArray) {
      NumpyValue value;
      value.isArray = true;
      value.dtype = symbol->constantArray->dtype;
      value.shape = symbol->constantArray->shape;
      value.elements = symbol->constantArray->elements;
      return value;
    }
  }
  if (looksLikeConstantArray(e))
    if (std::optional<std::optional<NumpyValue>> number = evaluateArrayMeasure(e))
      return *number;
  if (auto *attribute = dyn_cast<AttributeExpr>(&e); attribute && looksLikeConstantArray(*attribute->object)) {
    error(attribute->attributeRange) << "'." << attribute->attribute
                                     << "' is not evaluated at module level: of a constant array, pykc evaluates "
                                        "len(), .size, .ndim, .shape[k], elements and .astype()";
    return std::nullopt;
  }
  if (auto *unary = dyn_cast<UnaryExpr>(&e); unary && looksLikeConstantArray(e)) {
    std::optional<NumpyValue> operand = evaluateNumpy(*unary->operand);
    if (!operand)
      return std::nullopt;
    if (unary->op != UnaryOp::Minus && unary->op != UnaryOp::Plus) {
      error(e.range()) << "'" << unaryOpSpelling(unary->op)
                       << "' is not evaluated on constant arrays; pykc evaluates + - * / // % ** and unary -";
      return std::nullopt;
    }
    if (unary->op == UnaryOp::Minus)
      for (ConstantValue &element : operand->elements) {
        if (isFloat(operand->dtype))
          element = ConstantValue::ofFloat(-element.floatValue);
        else
          element = *convertElement(ConstantValue::ofInt(int64_t(0 - uint64_t(element.intValue))), operand->dtype);
      }
    return operand;
  }
  if (auto *binary = dyn_cast<BinaryExpr>(&e); binary && looksLikeConstantArray(e))
    return evaluateNumpyBinary(*binary);
  if (isListDisplay(e) || isa<TupleExpr>(e)) {
    error(e.range()) << "a list or tuple of numbers becomes an array through np.array(...)";
    return std::nullopt;
  }
  // A Python number, or an expression of them.
  const Type *type = checkValue(e);
  if (type->isError())
    return std::nullopt;
  if (!e.constant || !type->isScalar()) {
    error(e.range()) << "constant arrays are computed from numbers known at compile time; this is not one";
    return std::nullopt;
  }
  NumpyValue value;
  value.weak = e.isWeak;
  value.dtype = e.isWeak ? defaultKind(*e.constant) : type->scalarKind();
  value.elements.push_back(e.isWeak ? *e.constant : *convertElement(*e.constant, value.dtype));
  return value;
}

std::optional<std::optional<Sema::NumpyValue>> Sema::evaluateArrayMeasure(Expr &e) {
  // len(A), A.size, A.ndim, A.shape[k], A[i, j]: numbers, at module level.
  auto pythonInt = [](int64_t value) {
    NumpyValue number;
    number.weak = true;
    number.dtype = ScalarKind::Int64;
    number.elements.push_back(ConstantValue::ofInt(value));
    return number;
  };
  auto arrayOf = [&](Expr &object) -> std::optional<NumpyValue> {
    std::optional<NumpyValue> value = evaluateNumpy(object);
    if (value && !value->isArray) {
      error(object.range()) << "this is a number, not an array";
      return std::nullopt;
    }
    return value;
  };
  if (auto *call = dyn_cast<CallExpr>(&e)) {
    auto *callee = dyn_cast<NameExpr>(call->callee.get());
    if (!callee || callee->name != "len" || lookup("len") || call->args.size() != 1)
      return std::nullopt;
    std::optional<NumpyValue> array = arrayOf(*call->args[0]);
    if (!array)
      return std::optional<NumpyValue>();
    return std::optional<NumpyValue>(pythonInt(array->shape[0]));
  }
  if (auto *attribute = dyn_cast<AttributeExpr>(&e); attribute && (attribute->attribute == "size" ||
                                                                    attribute->attribute == "ndim")) {
    std::optional<NumpyValue> array = arrayOf(*attribute->object);
    if (!array)
      return std::optional<NumpyValue>();
    return std::optional<NumpyValue>(pythonInt(attribute->attribute == "size" ? int64_t(array->elements.size())
                                                                              : int64_t(array->shape.size())));
  }
  auto *subscript = dyn_cast<SubscriptExpr>(&e);
  if (!subscript)
    return std::nullopt;
  auto *shape = dyn_cast<AttributeExpr>(subscript->object.get());
  const bool ofShape = shape && shape->attribute == "shape";
  std::optional<NumpyValue> array = arrayOf(ofShape ? *shape->object : *subscript->object);
  if (!array)
    return std::optional<NumpyValue>();
  const size_t wanted = ofShape ? 1 : array->shape.size();
  if (subscript->indices.size() != wanted) {
    error(subscript->range()) << "at module level, index " << (ofShape ? "a shape with one integer" : "every axis")
                              << ", as in " << (ofShape ? "'A.shape[0]'" : "'A[0, 1]'");
    return std::optional<NumpyValue>();
  }
  size_t flat = 0;
  for (size_t axis = 0; axis < wanted; ++axis) {
    Expr &index = *subscript->indices[axis];
    const Type *type = checkValue(index);
    const int64_t extent = ofShape ? int64_t(array->shape.size()) : array->shape[axis];
    if (type->isError())
      return std::optional<NumpyValue>();
    if (!index.constant || index.constant->kind != ConstantValue::Kind::Int || index.constant->intValue >= extent ||
        index.constant->intValue < -extent) {
      error(index.range()) << "at module level, an index is an integer constant from " << -extent << " to "
                           << extent - 1;
      return std::optional<NumpyValue>();
    }
    const int64_t position = index.constant->intValue < 0 ? index.constant->intValue + extent
                                                          : index.constant->intValue;
    flat = ofShape ? size_t(position) : flat * size_t(array->shape[axis]) + size_t(position);
  }
  if (ofShape)
    return std::optional<NumpyValue>(pythonInt(array->shape[flat]));
  NumpyValue element;
  element.dtype = array->dtype;
  element.elements.push_back(array->elements[flat]);
  return std::optional<NumpyValue>(element);
}

std::optional<Sema::NumpyValue> Sema::evaluateAstype(CallExpr &call, AttributeExpr &attribute) {
  std::optional<NumpyValue> object = evaluateNumpy(*attribute.object);
  if (!object)
    return std::nullopt;
  if (call.args.size() != 1 || !call.keywords.empty()) {
    error(call.range()) << "astype() takes one dtype";
    return std::nullopt;
  }
  std::optional<ScalarKind> kind = numpyDtype(*call.args[0]);
  if (!kind)
    return std::nullopt;
  return converted(std::move(*object), *kind, call.range());
}

std::optional<Sema::NumpyValue> Sema::converted(NumpyValue value, ScalarKind kind, SourceRange range) {
  for (ConstantValue &element : value.elements) {
    std::optional<ConstantValue> element32 = convertElement(element, kind);
    if (!element32) {
      error(range) << "cannot convert " << element.str() << " to " << scalarName(kind);
      return std::nullopt;
    }
    element = *element32;
  }
  value.dtype = kind;
  value.weak = false;
  return value;
}

std::optional<Sema::NumpyValue> Sema::evaluateNumpyCall(CallExpr &call, const std::string &function) {
  // Keywords by name, arguments by position, as NumPy's signatures have them.
  std::map<std::string, Expr *> keywords;
  for (KeywordArgument &keyword : call.keywords)
    keywords[keyword.name] = keyword.value.get();
  auto argument = [&](size_t position, const char *name) -> Expr * {
    if (position < call.args.size())
      return call.args[position].get();
    auto it = keywords.find(name);
    return it == keywords.end() ? nullptr : it->second;
  };
  std::optional<ScalarKind> dtype;
  if (Expr *given = keywords.count("dtype") ? keywords["dtype"] : nullptr) {
    dtype = numpyDtype(*given);
    if (!dtype)
      return std::nullopt;
  }
  auto scalar = [&](Expr *expr, const char *what) -> std::optional<ConstantValue> {
    if (!expr) {
      error(call.range()) << "np." << function << "() needs its " << what;
      return std::nullopt;
    }
    const Type *type = checkValue(*expr);
    if (type->isError())
      return std::nullopt;
    if (!expr->constant || !type->isScalar()) {
      error(expr->range()) << "np." << function << "()'s " << what << " must be a number known at compile time";
      return std::nullopt;
    }
    return expr->constant;
  };
  auto shapeOf = [&](Expr *expr) -> std::optional<std::vector<int64_t>> {
    if (!expr) {
      error(call.range()) << "np." << function << "() needs a shape";
      return std::nullopt;
    }
    std::vector<Expr *> extents;
    if (auto *tuple = dyn_cast<TupleExpr>(expr))
      for (ExprPtr &element : tuple->elements)
        extents.push_back(element.get());
    else
      extents.push_back(expr);
    std::vector<int64_t> shape;
    for (Expr *extent : extents) {
      const Type *type = checkValue(*extent);
      if (type->isError())
        return std::nullopt;
      if (!extent->constant || extent->constant->kind != ConstantValue::Kind::Int || extent->constant->intValue < 0) {
        error(extent->range()) << "a shape is made of non-negative integers known at compile time";
        return std::nullopt;
      }
      shape.push_back(extent->constant->intValue);
    }
    return shape;
  };
  auto filled = [&](std::vector<int64_t> shape, ConstantValue fill, ScalarKind kind) -> std::optional<NumpyValue> {
    if (shape.empty()) {
      error(call.range()) << "np." << function << "(()) makes a 0-dimensional array, which pyk has not";
      return std::nullopt;
    }
    int64_t count = 1;
    for (int64_t extent : shape)
      if ((count *= extent) > constantMemoryBytes) {
        error(call.range()) << "this array is larger than constant memory (64 KiB)";
        return std::nullopt;
      }
    NumpyValue value;
    value.isArray = true;
    value.dtype = kind;
    value.shape = std::move(shape);
    value.elements.assign(size_t(count), fill);
    return converted(std::move(value), kind, call.range());
  };

  if (function == "zeros" || function == "ones") {
    std::optional<std::vector<int64_t>> shape = shapeOf(argument(0, "shape"));
    if (!shape)
      return std::nullopt;
    return filled(*shape, ConstantValue::ofInt(function == "ones"), dtype.value_or(ScalarKind::Float64));
  }
  if (function == "full") {
    std::optional<std::vector<int64_t>> shape = shapeOf(argument(0, "shape"));
    std::optional<ConstantValue> fill = shape ? scalar(argument(1, "fill_value"), "fill value") : std::nullopt;
    if (!fill)
      return std::nullopt;
    return filled(*shape, *fill, dtype.value_or(defaultKind(*fill)));
  }
  if (function == "arange") {
    // arange(stop), arange(start, stop[, step])
    std::optional<ConstantValue> start = ConstantValue::ofInt(0), stop, step = ConstantValue::ofInt(1);
    if (call.args.size() <= 1 && !keywords.count("start")) {
      stop = scalar(argument(0, "stop"), "stop");
    } else {
      start = scalar(argument(0, "start"), "start");
      stop = start ? scalar(argument(1, "stop"), "stop") : std::nullopt;
      if (stop && argument(2, "step"))
        step = scalar(argument(2, "step"), "step");
    }
    if (!start || !stop || !step)
      return std::nullopt;
    const bool floats = start->kind == ConstantValue::Kind::Float || stop->kind == ConstantValue::Kind::Float ||
                        step->kind == ConstantValue::Kind::Float;
    if (step->asDouble() == 0) {
      error(call.range()) << "np.arange()'s step must not be zero";
      return std::nullopt;
    }
    const double length = std::ceil((stop->asDouble() - start->asDouble()) / step->asDouble());
    if (length > double(constantMemoryBytes)) {
      error(call.range()) << "this array is larger than constant memory (64 KiB)";
      return std::nullopt;
    }
    NumpyValue value;
    value.isArray = true;
    value.dtype = floats ? ScalarKind::Float64 : ScalarKind::Int64;
    const int64_t count = length > 0 ? int64_t(length) : 0;
    value.shape = {count};
    for (int64_t i = 0; i < count; ++i)
      value.elements.push_back(floats ? ConstantValue::ofFloat(start->asDouble() + double(i) * step->asDouble())
                                      : ConstantValue::ofInt(start->intValue + i * step->intValue));
    return dtype ? converted(std::move(value), *dtype, call.range()) : std::optional<NumpyValue>(std::move(value));
  }
  if (function == "linspace") {
    std::optional<ConstantValue> start = scalar(argument(0, "start"), "start");
    std::optional<ConstantValue> stop = start ? scalar(argument(1, "stop"), "stop") : std::nullopt;
    std::optional<ConstantValue> num = ConstantValue::ofInt(50), endpoint = ConstantValue::ofBool(true);
    if (stop && argument(2, "num"))
      num = scalar(argument(2, "num"), "number of samples");
    if (stop && num && argument(3, "endpoint"))
      endpoint = scalar(argument(3, "endpoint"), "endpoint");
    if (!stop || !num || !endpoint)
      return std::nullopt;
    if (num->kind != ConstantValue::Kind::Int || num->intValue < 0 || num->intValue > constantMemoryBytes) {
      error(call.range()) << "np.linspace()'s number of samples must be an integer from 0 to 65536";
      return std::nullopt;
    }
    // NumPy's own steps: i * step + start, the last sample exactly stop.
    const int64_t count = num->intValue;
    const bool withEnd = endpoint->truth();
    const int64_t divisions = withEnd ? count - 1 : count;
    const double delta = stop->asDouble() - start->asDouble();
    const double stepSize = divisions > 0 ? delta / double(divisions) : std::nan("");
    NumpyValue value;
    value.isArray = true;
    value.dtype = ScalarKind::Float64;
    value.shape = {count};
    for (int64_t i = 0; i < count; ++i) {
      double sample;
      if (divisions > 0 && stepSize == 0)
        sample = double(i) / double(divisions) * delta;
      else if (divisions > 0)
        sample = double(i) * stepSize;
      else
        sample = double(i) * delta;
      value.elements.push_back(ConstantValue::ofFloat(sample + start->asDouble()));
    }
    if (withEnd && count > 1)
      value.elements.back() = ConstantValue::ofFloat(stop->asDouble());
    return dtype ? converted(std::move(value), *dtype, call.range()) : std::optional<NumpyValue>(std::move(value));
  }
  // np.array / np.asarray: nested lists and tuples of numbers, or an array.
  Expr *object = argument(0, "object");
  if (!object) {
    error(call.range()) << "np." << function << "() needs the values";
    return std::nullopt;
  }
  if (!isListDisplay(*object) && !isa<TupleExpr>(*object)) {
    std::optional<NumpyValue> value = evaluateNumpy(*object);
    if (!value)
      return std::nullopt;
    if (!value->isArray) {
      error(object->range()) << "np." << function << "() of one number makes a 0-dimensional array, which pyk has not";
      return std::nullopt;
    }
    return dtype ? converted(std::move(*value), *dtype, call.range()) : value;
  }
  NumpyValue value;
  value.isArray = true;
  bool anyFloat = false, anyInt = false;
  // The depth of nesting, read along the first elements; every list of a
  // level must then have one length, and numbers sit at the last level.
  auto itemsOf = [](Expr &node) {
    std::vector<Expr *> items;
    if (auto *tuple = dyn_cast<TupleExpr>(&node))
      for (ExprPtr &element : tuple->elements)
        items.push_back(element.get());
    else
      for (ExprPtr &element : llvm::cast<UnsupportedExpr>(node).elements)
        items.push_back(element.get());
    return items;
  };
  auto isNested = [](const Expr &node) { return isListDisplay(node) || isa<TupleExpr>(node); };
  size_t levels = 1;
  for (Expr *node = object; isNested(*node) && !itemsOf(*node).empty() && isNested(*itemsOf(*node).front());
       node = itemsOf(*node).front())
    ++levels;
  std::function<bool(Expr &, size_t)> collect = [&](Expr &node, size_t depth) {
    std::vector<Expr *> items = itemsOf(node);
    if (value.shape.size() == depth)
      value.shape.push_back(int64_t(items.size()));
    else if (value.shape[depth] != int64_t(items.size())) {
      error(node.range()) << "the lists of a constant array must have one length per level: " << items.size()
                          << " here, " << value.shape[depth] << " before";
      return false;
    }
    for (Expr *item : items) {
      if (isNested(*item) != (depth + 1 < levels)) {
        error(item->range()) << "the lists of a constant array must nest to one depth";
        return false;
      }
      if (isNested(*item)) {
        if (!collect(*item, depth + 1))
          return false;
        continue;
      }
      const Type *type = checkValue(*item);
      if (type->isError())
        return false;
      if (!item->constant || !type->isScalar()) {
        error(item->range()) << "constant arrays are made of numbers known at compile time; this is not one";
        return false;
      }
      anyFloat |= isFloat(type->scalarKind());
      anyInt |= isInteger(type->scalarKind()) && type->scalarKind() != ScalarKind::Bool;
      value.elements.push_back(*item->constant);
    }
    return true;
  };
  if (!collect(*object, 0))
    return std::nullopt;
  const ScalarKind kind =
      dtype.value_or(anyFloat ? ScalarKind::Float64 : anyInt ? ScalarKind::Int64 : ScalarKind::Bool);
  // NumPy 2 raises for a Python int that the dtype cannot hold.
  if (isInteger(kind) && kind != ScalarKind::Bool)
    for (size_t i = 0; i < value.elements.size(); ++i)
      if (value.elements[i].kind == ConstantValue::Kind::Int && !value.elements[i].fitsIn(kind)) {
        error(object->range()) << "Python integer " << value.elements[i].str() << " is out of bounds for "
                               << scalarName(kind);
        return std::nullopt;
      }
  return converted(std::move(value), kind, call.range());
}

std::optional<Sema::NumpyValue> Sema::evaluateNumpyBinary(BinaryExpr &binary) {
  std::optional<NumpyValue> lhs = evaluateNumpy(*binary.lhs);
  std::optional<NumpyValue> rhs = lhs ? evaluateNumpy(*binary.rhs) : std::nullopt;
  if (!lhs || !rhs)
    return std::nullopt;
  const BinaryOp op = binary.op;
  if (op != BinaryOp::Add && op != BinaryOp::Sub && op != BinaryOp::Mul && op != BinaryOp::Div &&
      op != BinaryOp::FloorDiv && op != BinaryOp::Mod && op != BinaryOp::Pow) {
    error(binary.opRange) << "'" << binaryOpSpelling(op)
                          << "' is not evaluated on constant arrays; pykc evaluates + - * / // % ** and unary -";
    return std::nullopt;
  }
  if (lhs->isArray && rhs->isArray && lhs->shape != rhs->shape) {
    error(binary.opRange) << "the arrays' shapes differ; pykc evaluates arithmetic on arrays of one shape, or an "
                             "array and a number";
    return std::nullopt;
  }
  // NEP 50: a Python number takes the array's dtype (or the default of its
  // kind, when the array's kind cannot hold it).
  PromotionOperand promoted = promote({lhs->dtype, lhs->weak}, {rhs->dtype, rhs->weak});
  ScalarKind kind = promoted.kind;
  if (op == BinaryOp::Div && !isFloat(kind))
    kind = ScalarKind::Float64;
  if (kind == ScalarKind::Bool)
    kind = ScalarKind::Int64; // arithmetic on bools, as pyk's own (LANGUAGE.md, Types)
  NumpyValue result;
  result.isArray = lhs->isArray || rhs->isArray;
  result.weak = promoted.weak;
  result.dtype = kind;
  result.shape = lhs->isArray ? lhs->shape : rhs->shape;
  const size_t count = lhs->isArray ? lhs->elements.size() : rhs->elements.size();
  for (size_t i = 0; i < count; ++i) {
    const ConstantValue a = *convertElement(lhs->elements[lhs->isArray ? i : 0], kind);
    const ConstantValue b = *convertElement(rhs->elements[rhs->isArray ? i : 0], kind);
    if (isFloat(kind)) {
      const bool single = kind == ScalarKind::Float32;
      auto round = [&](double v) { return single ? double(float(v)) : v; };
      const double x = a.floatValue, y = b.floatValue;
      double r = 0;
      switch (op) {
      case BinaryOp::Add: r = x + y; break;
      case BinaryOp::Sub: r = x - y; break;
      case BinaryOp::Mul: r = x * y; break;
      case BinaryOp::Div: r = x / y; break;
      case BinaryOp::FloorDiv: r = std::floor(x / y); break;
      case BinaryOp::Mod: {
        r = std::fmod(x, y);
        if (r != 0 && ((r < 0) != (y < 0)))
          r += y;
        break;
      }
      default: r = std::pow(x, y); break;
      }
      result.elements.push_back(ConstantValue::ofFloat(round(r)));
      continue;
    }
    const int64_t x = a.intValue, y = b.intValue;
    if ((op == BinaryOp::FloorDiv || op == BinaryOp::Mod) && y == 0) {
      error(binary.opRange) << "integer division by zero in a constant array";
      return std::nullopt;
    }
    if (op == BinaryOp::Pow && y < 0) {
      error(binary.opRange) << "integers to negative integer powers are not allowed (NumPy)";
      return std::nullopt;
    }
    uint64_t r = 0;
    switch (op) {
    case BinaryOp::Add: r = uint64_t(x) + uint64_t(y); break;
    case BinaryOp::Sub: r = uint64_t(x) - uint64_t(y); break;
    case BinaryOp::Mul: r = uint64_t(x) * uint64_t(y); break;
    case BinaryOp::FloorDiv: {
      int64_t q = (x == INT64_MIN && y == -1) ? x : x / y;
      if ((x % y != 0) && ((x < 0) != (y < 0)))
        --q;
      r = uint64_t(q);
      break;
    }
    case BinaryOp::Mod: {
      int64_t m = (y == -1) ? 0 : x % y;
      if (m != 0 && ((m < 0) != (y < 0)))
        m += y;
      r = uint64_t(m);
      break;
    }
    default: {
      uint64_t base = uint64_t(x), power = 1;
      for (int64_t e = y; e > 0; e >>= 1, base *= base)
        if (e & 1)
          power *= base;
      r = power;
      break;
    }
    }
    result.elements.push_back(*convertElement(ConstantValue::ofInt(int64_t(r)), kind));
  }
  return result;
}

const Type *Sema::checkConstArrayLike(CallExpr &expr) {
  if (expr.args.size() != 1 || !expr.keywords.empty()) {
    error(expr.range()) << "cuda.const.array_like() takes one array: a module constant such as "
                           "'PRICES = np.array([...])'";
    return setType(expr, types_.errorType());
  }
  Expr &array = *expr.args[0];
  // The array is read through the local, not by its own name.
  const size_t readByName = function_ ? function_->constantArrays.size() : 0;
  const Type *type = checkValue(array);
  if (function_)
    function_->constantArrays.resize(readByName);
  if (type->isError())
    return setType(expr, types_.errorType());
  auto *name = dyn_cast<NameExpr>(&array);
  if (!name || !name->symbol || !name->symbol->constantArray || name->symbol->kind != SymbolKind::Constant) {
    error(array.range()) << "cuda.const.array_like() takes a module constant array, made at module level as in "
                            "'PRICES = np.array([...], dtype=np.float32)'";
    return setType(expr, types_.errorType());
  }
  if (&expr != arrayDefinitionValue_) {
    error(expr.range()) << "cuda.const.array_like() must be assigned to a local as it is made, as in "
                           "'c = cuda.const.array_like("
                        << name->name << ")'";
    return setType(expr, types_.errorType());
  }
  pendingArray_ = {ArrayStorage::Constant, name->symbol->fixedShape, name->symbol->constantArray};
  return setType(expr, type);
}

} // namespace pyk::sema
