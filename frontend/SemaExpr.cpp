//===- SemaExpr.cpp - Names, builtins, subscripts and tuples --------------===//
//
// Each check returns the expression's type and records it in the node. The
// error type marks an expression that already has a diagnostic; checks that
// meet it stay silent, so one mistake gives one error. Operators are in
// SemaOperators.cpp.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

const Type *Sema::checkValue(Expr &expr) {
  const Type *type = checkExpr(expr);
  if (type->isRecord() && &expr != recordValue_)
    return rejectWholeRecord(expr);
  if (type->isGridGroup() && &expr != arrayDefinitionValue_) {
    error(expr.range()) << "a grid group is not a value to compute with, store or pass; name it "
                        << "('g = cuda.cg.this_grid()') and call its sync() method";
    return setType(expr, types_.errorType());
  }
  if (!type->isVoid())
    return type;
  if (expr.builtin == Builtin::ThreadIdx || expr.builtin == Builtin::BlockIdx || expr.builtin == Builtin::BlockDim ||
      expr.builtin == Builtin::GridDim)
    error(expr.range()) << describe(expr) << " has three components, not one value; use one of them, as in '"
                        << builtinName(expr.builtin) << ".x'";
  else if (isNamespace(expr.builtin))
    error(expr.range()) << describe(expr) << " is a module, not a value";
  else if (expr.builtin == Builtin::MathFunction || expr.builtin == Builtin::LibdeviceFunction)
    error(expr.range()) << "'" << sourceText(expr.range()) << "' is a function; call it";
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
  case NodeKind::ImagLiteralExpr:
    // A Python complex: weak, as a Python float is; it has no constant
    // value, as NumPy's complex results are computed when the kernel runs.
    expr.isWeak = true;
    return setType(expr, types_.scalar(ScalarKind::Complex128));
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
  case NodeKind::UnsupportedExpr: {
    auto &unsupported = llvm::cast<UnsupportedExpr>(expr);
    if (function_)
      error(expr.range()) << unsupportedSyntaxName(unsupported.what) << " are not supported in kernels";
    else // WEIGHTS = [0.25, 0.5]
      error(expr.range()) << unsupportedSyntaxName(unsupported.what)
                          << " are not supported in module constants; a module constant is a number or a tuple "
                             "of numbers, as in 'SHAPE = (16, 16)'";
    // The name a walrus binds stays silent where it is used.
    const Symbol *bound = unsupported.boundName.empty() ? nullptr : lookup(unsupported.boundName);
    if (function_ && !unsupported.boundName.empty() && (!bound || bound->kind == SymbolKind::Local)) {
      NameExpr target(expr.range(), unsupported.boundName);
      assignToName(target, types_.errorType(), expr.range());
    }
    return setType(expr, types_.errorType());
  }
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
    else if (expr.name == "sum")
      error(expr.range()) << "Python's 'sum' is not supported in kernels; add the elements in a "
                             "'for i in range(...)' loop";
    else if (expr.name == "enumerate" || expr.name == "zip")
      error(expr.range()) << "Python's '" << expr.name << "' is supported only as what a 'for' loop iterates, as in "
                          << (expr.name == "zip" ? "'for a, b in zip(x, y)'" : "'for i, v in enumerate(x)'");
    else if (expr.name == "reversed")
      error(expr.range()) << "Python's '" << expr.name
                          << "' is not supported in kernels; loop over range(...) and index the arrays";
    else if (isUnsupportedPythonBuiltin(expr.name))
      error(expr.range()) << "Python's '" << expr.name << "' is not supported in kernels";
    else
      error(expr.range()) << "name '" << expr.name << "' is not defined";
    return setType(expr, types_.errorType());
  }
  switch (symbol->kind) {
  case SymbolKind::Parameter:
    return setType(expr, symbol->type);
  case SymbolKind::Local:
    if (symbol->type && !flow_.assigned.count(symbol) && flow_.maybeAssigned.count(symbol)) {
      // The grid group is one whatever path named it: it reads no 0.
      if (!flow_.returned && !symbol->type->isGridGroup())
        warnMaybeUnassigned(expr, *symbol);
      return setType(expr, symbol->type);
    }
    if (!symbol->type || !flow_.assigned.count(symbol)) {
      if (!flow_.returned)
        error(expr.range()) << "local variable '" << expr.name << "' is used before it is assigned";
      return setType(expr, types_.errorType());
    }
    return setType(expr, symbol->type);
  case SymbolKind::Constant:
    if (symbol->constantArray) {
      // Read from constant memory: the function's IR gives it a variable.
      if (function_ && std::find(function_->constantArrays.begin(), function_->constantArrays.end(), symbol) ==
                           function_->constantArrays.end())
        function_->constantArrays.push_back(symbol);
      return setType(expr, symbol->type);
    }
    // A rejected constant has the error type: its uses stay silent.
    expr.isWeak = !symbol->type->isError();
    expr.constant = symbol->constant;
    return setType(expr, symbol->type);
  case SymbolKind::Builtin:
    if (symbol->builtin == Builtin::IgnoredImport) {
      reportIgnoredImport(expr.range(), *symbol);
      return setType(expr, types_.errorType());
    }
    if (symbol->builtin == Builtin::Prange) {
      error(expr.range()) << "prange() can only be iterated by a 'for' loop";
      return setType(expr, types_.errorType());
    }
    if (symbol->builtin == Builtin::DeclareDevice) {
      error(expr.range()) << "declare_device declares a CUDA C++ device function at module level, as in "
                             "'mul = declare_device(\"mul\", \"float32(float32, float32)\")'";
      return setType(expr, types_.errorType());
    }
    if (symbol->builtin == Builtin::FromDtype) {
      error(expr.range()) << "from_dtype() makes a record type at module level, as in 'point_t = from_dtype(Point)'";
      return setType(expr, types_.errorType());
    }
    expr.builtin = symbol->builtin;
    return setType(expr, types_.voidType());
  case SymbolKind::TypeName:
    error(expr.range()) << "the type '" << expr.name << "' is not a value; convert with " << expr.name << "(x)";
    return setType(expr, types_.errorType());
  case SymbolKind::Function:
  case SymbolKind::ForeignFunction:
    error(expr.range()) << "'" << expr.name << "' is a function, not a value; call it: '" << expr.name << "(...)'";
    return setType(expr, types_.errorType());
  case SymbolKind::Signature:
    error(expr.range()) << "'" << expr.name << "' is a signature, not a value";
    return setType(expr, types_.errorType());
  case SymbolKind::RecordType:
    error(expr.range()) << "'" << expr.name << "' is a record type, not a value; arrays of it are parameters ('"
                        << expr.name << "[:]' in a signature), and their elements have fields";
    return setType(expr, types_.errorType());
  }
  return setType(expr, types_.errorType());
}

void Sema::reportIgnoredImport(SourceRange use, const Symbol &symbol) {
  const auto &[shown, key] = ignoredImports_.at(&symbol);
  if (key.empty())
    return; // a file of the program that could not be imported: reported at its import (ModuleImports.cpp)
  if (!reportMissingName(use, shown, key))
    error(use) << "'" << shown << "' is not available in pyk kernels";
}

bool Sema::reportMissingName(SourceRange range, const std::string &shown, const std::string &key) {
  const MissingName missing = classifyMissingName(key);
  switch (missing.kind) {
  case MissingNameKind::Unknown:
    return false;
  case MissingNameKind::NotSupportedYet:
    notSupportedYet(range, "'" + shown + "'");
    return true;
  case MissingNameKind::HostApi: {
    DiagnosticBuilder message = error(range);
    message << "'" << shown << "' is not available in pyk kernels: host code belongs in C++";
    if (!missing.cxxCounterpart.empty())
      message << "; use " << missing.cxxCounterpart;
    return true;
  }
  case MissingNameKind::NotAvailable:
    error(range) << "'" << shown << "' is not available in pyk kernels";
    return true;
  }
  return false;
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

std::optional<ScalarKind> Sema::arrayDtypeNamed(const Expr &expr) {
  auto *attribute = dyn_cast<AttributeExpr>(&expr);
  if (!attribute)
    return std::nullopt;
  if (attribute->attribute == "type")
    return arrayDtypeNamed(*attribute->object);
  auto *array = dyn_cast<NameExpr>(attribute->object.get());
  if (attribute->attribute != "dtype" || !array || !function_)
    return std::nullopt;
  const Symbol *symbol = lookup(array->name);
  if (!symbol || !symbol->type || !symbol->type->isArray())
    return std::nullopt;
  return symbol->type->scalarKind();
}

const Type *Sema::checkAttribute(AttributeExpr &expr) {
  // cuda.const.array_like: planned, though its namespace is not known.
  if (auto *namespaceAttribute = dyn_cast<AttributeExpr>(expr.object.get())) {
    auto *module = dyn_cast<NameExpr>(namespaceAttribute->object.get());
    const Symbol *symbol = module ? lookup(module->name) : nullptr;
    if (symbol && symbol->kind == SymbolKind::Builtin && isNamespace(symbol->builtin)) {
      std::string dotted = std::string(builtinName(symbol->builtin)) + "." + namespaceAttribute->attribute + "." +
                           expr.attribute;
      if (dotted.rfind("cuda.random.", 0) == 0 && classifyMissingName(dotted).kind == MissingNameKind::NotSupportedYet) {
        error(expr.range()) << "'" << dotted << "' is not supported yet as an attribute of 'cuda'; import it, as in "
                            << "'from numba.cuda.random import " << expr.attribute << "'";
        return setType(expr, types_.errorType());
      }
      if (isKnownUnimplementedBuiltin(dotted)) {
        notSupportedYet(expr.range(), "'" + dotted + "'");
        return setType(expr, types_.errorType());
      }
    }
  }
  // numba.cuda.grid(1), numba.float32: `numba` needs no import.
  auto *root = dyn_cast<NameExpr>(expr.object.get());
  const bool implicitNumba = root && root->name == "numba" && !lookup("numba");
  if (implicitNumba)
    root->builtin = Builtin::NumbaModule;
  const Type *objectType = implicitNumba ? setType(*root, types_.voidType()) : checkExpr(*expr.object);
  if (objectType->isError())
    return setType(expr, types_.errorType());
  if (objectType->isRecord())
    return checkRecordField(expr, *expr.object, expr.attribute, expr.attributeRange);
  if (objectType->isGridGroup()) {
    if (expr.attribute == "sync") {
      expr.builtin = Builtin::GridSync;
      return setType(expr, types_.voidType());
    }
    error(expr.attributeRange) << "a grid group has no attribute '" << expr.attribute
                               << "'; its one method is sync(), as in '" << sourceText(expr.object->range())
                               << ".sync()'";
    return setType(expr, types_.errorType());
  }
  if (objectType->isArray() || objectType->isRecordArray()) {
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
    if (objectType->isRecordArray()) {
      error(expr.attributeRange) << "an array of " << objectType->record()->name << " has no attribute '"
                                 << expr.attribute << "'; it has shape, size and ndim, and its elements have fields";
      return setType(expr, types_.errorType());
    }
    if (expr.attribute == "dtype") {
      const std::string array = sourceText(expr.object->range());
      error(expr.range()) << "'" << array << ".dtype' is a type (" << scalarName(objectType->scalarKind())
                          << "), not a value: convert with '" << array << ".dtype.type(v)', or annotate a local, as "
                          << "in 'acc: " << array << ".dtype = 0'";
      return setType(expr, types_.errorType());
    }
    error(expr.attributeRange) << "arrays have no attribute '" << expr.attribute
                               << "'; pyk arrays have shape, size, ndim and dtype";
    return setType(expr, types_.errorType());
  }
  if (objectType->isScalar())
    return checkNumberAttribute(expr, objectType);
  if (!objectType->isVoid() || !isNamespace(expr.object->builtin)) {
    error(expr.attributeRange) << describe(*expr.object) << " has no attribute '" << expr.attribute << "'";
    return setType(expr, types_.errorType());
  }
  const Builtin module = expr.object->builtin;
  const std::string moduleName(builtinName(module));
  const bool typeModule = module == Builtin::NumpyModule || module == Builtin::CupyModule ||
                          module == Builtin::NumbaModule || module == Builtin::NumbaTypesModule;
  if (typeModule && scalarKindFromName(expr.attribute)) {
    error(expr.range()) << "the type '" << moduleName << "." << expr.attribute << "' is not a value; convert with "
                        << moduleName << "." << expr.attribute << "(x)";
    return setType(expr, types_.errorType());
  }
  if (module == Builtin::NumbaModule && (expr.attribute == "cuda" || expr.attribute == "types")) {
    expr.builtin = expr.attribute == "cuda" ? Builtin::CudaModule : Builtin::NumbaTypesModule;
    return setType(expr, types_.voidType());
  }
  // math.pi, np.inf ...: Python floats, so float64 and weak, as literals.
  if (module == Builtin::NumpyModule || module == Builtin::CupyModule)
    if (auto value = numpyConstant(expr.attribute)) {
      expr.isWeak = true;
      expr.constant = ConstantValue::ofFloat(*value);
      return setType(expr, types_.float64Type());
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
  if (module == Builtin::LibdeviceModule && libdeviceFunction(expr.attribute)) {
    expr.builtin = Builtin::LibdeviceFunction;
    return setType(expr, types_.voidType());
  }
  std::string dotted = std::string(builtinName(expr.object->builtin)) + "." + expr.attribute;
  if (auto builtin = builtinFromName(dotted)) {
    expr.builtin = *builtin;
    if (*builtin == Builtin::WarpSize)
      expr.constant = ConstantValue::ofInt(32); // on every NVIDIA GPU, and the CPU device's warps
    return setType(expr, threadIndexType(*builtin, types_));
  }
  if ((module == Builtin::NumpyModule || module == Builtin::CupyModule) && mathFunction(expr.attribute)) {
    error(expr.range()) << "'" << dotted << "' is not available in pyk kernels; use 'math." << expr.attribute
                        << "'";
    return setType(expr, types_.errorType());
  }
  // A real name of Numba, CUDA Python or Python that pyk lacks says why;
  // only a name none of them has is a typo.
  const std::string key = module == Builtin::NumbaTypesModule ? "numba." + expr.attribute : dotted;
  if (reportMissingName(expr.range(), dotted, key))
    return setType(expr, types_.errorType());
  DiagnosticBuilder message = error(expr.attributeRange);
  message << "'" << moduleName << "' has no attribute '" << expr.attribute << "'";
  if (std::string_view guess = closestName(expr.attribute, builtinNamesIn(moduleName)); !guess.empty())
    message << "; did you mean '" << moduleName << "." << guess << "'?";
  return setType(expr, types_.errorType());
}

//===----------------------------------------------------------------------===//
// Subscripts
//===----------------------------------------------------------------------===//

const Type *Sema::checkSubscript(SubscriptExpr &expr) {
  const Type *objectType = checkExpr(*expr.object);
  if (objectType->isError())
    return setType(expr, types_.errorType());
  if (objectType->isArray())
    return checkArrayIndex(expr, objectType);
  if (objectType->isRecordArray())
    return checkRecordElement(expr, objectType);
  if (objectType->isRecord())
    return checkRecordFieldByName(expr);
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
  if (expr.indices.size() == 1 && !isa<SliceExpr>(*expr.indices.front()) &&
      checkValue(*expr.indices.front())->isTuple())
    return checkTupleArrayIndex(expr, arrayType);
  const bool view = expr.indices.size() < arrayType->rank() ||
                    std::any_of(expr.indices.begin(), expr.indices.end(),
                                [](const ExprPtr &index) { return isa<SliceExpr>(*index); });
  if (view)
    return checkArrayView(expr, arrayType);
  bool ok = true;
  for (size_t axis = 0; axis < expr.indices.size(); ++axis) {
    Expr &index = *expr.indices[axis];
    const Type *indexType = checkValue(index);
    if (indexType->isError()) {
      ok = false;
      continue;
    }
    if (!indexType->isScalar() || !isInteger(indexType->scalarKind())) {
      auto *division = dyn_cast<BinaryExpr>(&index);
      if (division && division->op == BinaryOp::Div) {
        // x[i / 2]: the fix is '//', not the float32 the promotion
        // warning would suggest for the same '/'.
        error(index.range()) << "an array index must be an integer, not " << indexType->str()
                             << "; '/' always divides to a float: use '//' for integer division";
        float64Warnings_.erase(division->opRange.begin.offset);
      } else {
        error(index.range()) << "an array index must be an integer, not " << indexType->str();
      }
      ok = false;
      continue;
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

/// (a, b, ...) of scalars or tuples: a value of tuple type, which locals
/// can hold (of scalars) and which can be indexed and unpacked.
const Type *Sema::checkTuple(TupleExpr &expr) {
  std::vector<const Type *> elements;
  for (ExprPtr &element : expr.elements) {
    const Type *type = checkValue(*element);
    if (type->isError())
      return setType(expr, types_.errorType());
    if (!type->isScalar() && !type->isTuple()) {
      error(element->range()) << "a tuple holds scalars or tuples, not " << describe(*element);
      return setType(expr, types_.errorType());
    }
    elements.push_back(type);
  }
  return setType(expr, types_.tuple(elements));
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
  if (tupleType->isNestedTuple())
    return checkDynamicRowIndex(expr, tupleType);
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

/// a[gid] with gid = cuda.grid(2), a[idx] with idx = (i, j): a tuple of
/// integers, one per axis, as Numba takes it.
const Type *Sema::checkTupleArrayIndex(SubscriptExpr &expr, const Type *arrayType) {
  Expr &index = *expr.indices.front();
  const Type *tupleType = index.type;
  for (const Type *element : tupleType->elements()) {
    if (!element->isScalar() || !isInteger(element->scalarKind())) {
      error(index.range()) << "an array index must be an integer or a tuple of integers, not " << tupleType->str();
      return setType(expr, types_.errorType());
    }
  }
  const size_t count = tupleType->elements().size();
  if (count != arrayType->rank()) {
    error(index.range()) << "array of type " << arrayType->str() << " has " << arrayType->rank() << " dimension"
                         << (arrayType->rank() == 1 ? "" : "s") << " but the tuple index has " << count
                         << " element" << (count == 1 ? "" : "s");
    return setType(expr, types_.errorType());
  }
  return setType(expr, types_.scalar(arrayType->scalarKind()));
}

/// PAIRS[k] at run time, PAIRS a tuple of tuples: the rows must be tuples
/// of scalars of one length, each column of one kind; the row has, per
/// column, the type its elements promote to.
const Type *Sema::checkDynamicRowIndex(SubscriptExpr &expr, const Type *tupleType) {
  const Type *first = tupleType->elements().front();
  auto reject = [&] {
    error(expr.indices.front()->range())
        << "a tuple of " << tupleType->str()
        << " can only be indexed by a constant; a run-time index needs rows of one length whose columns are each "
           "of one kind";
    return setType(expr, types_.errorType());
  };
  for (const Type *row : tupleType->elements())
    if (!row->isTuple() || row->isNestedTuple() || row->elements().size() != first->elements().size())
      return reject();
  std::vector<const Type *> columns;
  for (size_t column = 0; column < first->elements().size(); ++column) {
    std::optional<PromotionOperand> common;
    for (size_t row = 0; row < tupleType->elements().size(); ++row) {
      const bool weak = tupleLeafConstant(*expr.object, leafOffset(*tupleType, row) + column).has_value();
      const PromotionOperand operand{tupleType->elements()[row]->elements()[column]->scalarKind(), weak};
      common = common ? promote(*common, operand) : operand;
    }
    for (const Type *row : tupleType->elements()) {
      const ScalarKind have = row->elements()[column]->scalarKind();
      if (isFloat(have) != isFloat(common->kind) ||
          (have == ScalarKind::Bool) != (common->kind == ScalarKind::Bool))
        return reject();
    }
    columns.push_back(types_.scalar(common->kind));
  }
  return setType(expr, types_.tuple(columns));
}

} // namespace pyk::sema
