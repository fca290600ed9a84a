//===- SemaTypeExpr.cpp - Types written in annotations and signatures -----===//
//
// type    ::= scalar | scalar '[' dims ']'
// scalar  ::= NAME | module ('.' NAME)* '.' NAME
//             (module: numba, numba.types, numba.core.types,
//              numba.cuda.types, numpy, cupy, under any name they are
//              imported as; `types`, `np`, `nb` and `cp` work unimported)
// dims    ::= ':' (',' ':')* [',' '::1'] | '::1'   (rank 1 to 4)
//
// A signature is read in SemaSignatures.cpp.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "Parser.h"

#include "llvm/Support/Casting.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

static std::vector<std::string> dottedName(const Expr &expr) {
  std::vector<std::string> reversed;
  const Expr *part = &expr;
  while (auto *attribute = dyn_cast<AttributeExpr>(part)) {
    reversed.push_back(attribute->attribute);
    part = attribute->object.get();
  }
  auto *root = dyn_cast<NameExpr>(part);
  if (!root)
    return {};
  reversed.push_back(root->name);
  return {reversed.rbegin(), reversed.rend()};
}

std::string Sema::moduleNamed(const std::string &name) {
  if (const Symbol *symbol = lookupGlobal(name)) {
    if (symbol->kind != SymbolKind::Builtin)
      return ""; // a constant, a function or a type name of that name
    if (symbol->builtin == Builtin::NumpyModule)
      return "numpy";
    if (symbol->builtin == Builtin::CudaModule)
      return "numba.cuda";
    if (symbol->builtin == Builtin::MathModule)
      return "math";
  }
  // As the imports bind it: `import numba as nb`, `from numba import types`.
  std::string bound;
  for (const StmtPtr &stmt : module_.body) {
    if (auto *import = dyn_cast<ImportStmt>(stmt.get())) {
      for (const ImportedName &imported : import->names) {
        if (!imported.asName.empty() && imported.asName == name)
          bound = imported.name;
        else if (imported.asName.empty() && imported.name.substr(0, imported.name.find('.')) == name)
          bound = name;
      }
    } else if (auto *importFrom = dyn_cast<ImportFromStmt>(stmt.get()); importFrom && importFrom->level == 0) {
      for (const ImportedName &imported : importFrom->names)
        if ((imported.asName.empty() ? imported.name : imported.asName) == name)
          bound = importFrom->module + "." + imported.name;
    }
  }
  if (!bound.empty())
    return bound;
  // The names these modules usually go by, for files that rely on pyk's
  // predeclared names.
  static const std::pair<const char *, const char *> usual[] = {
      {"numba", "numba"}, {"nb", "numba"}, {"types", "numba.types"}, {"numpy", "numpy"},
      {"np", "numpy"},    {"cupy", "cupy"}, {"cp", "cupy"}};
  for (const auto &[usualName, module] : usual)
    if (name == usualName)
      return module;
  return "";
}

/// The modules whose attributes name scalar types.
static bool isTypeModule(const std::string &module) {
  return module == "numba" || module == "numba.types" || module == "numba.core.types" ||
         module == "numba.cuda.types" || module == "numpy" || module == "cupy";
}

std::optional<Sema::ModuleAttribute> Sema::typeModuleAttribute(const Expr &expr) {
  if (!isa<AttributeExpr>(expr))
    return std::nullopt;
  std::vector<std::string> parts = dottedName(expr);
  if (parts.size() < 2)
    return std::nullopt;
  std::string module = moduleNamed(parts.front());
  if (module.empty())
    return std::nullopt;
  for (size_t i = 1; i + 1 < parts.size(); ++i)
    module += "." + parts[i];
  if (!isTypeModule(module))
    return std::nullopt;
  return ModuleAttribute{module, parts.back()};
}

std::optional<ScalarKind> Sema::scalarTypeNamed(Expr &expr) {
  if (auto *name = dyn_cast<NameExpr>(&expr)) {
    const Symbol *symbol = lookupGlobal(name->name);
    if (symbol && symbol->kind == SymbolKind::TypeName)
      return symbol->scalarKind;
    return std::nullopt;
  }
  if (std::optional<ModuleAttribute> attribute = typeModuleAttribute(expr))
    return scalarKindInModule(attribute->module, attribute->name);
  return std::nullopt;
}

const RecordType *Sema::recordTypeNamedBy(const Expr &expr) {
  if (isa<CallExpr>(expr))
    return recordOfFromDtype(expr);
  auto *name = dyn_cast<NameExpr>(&expr);
  const Symbol *symbol = name ? lookupGlobal(name->name) : nullptr;
  if (symbol && symbol->kind == SymbolKind::RecordType)
    return symbol->record;
  // The built-in ones are predeclared, as Numba's type names are: the
  // build's signatures name them in files that import only the functions.
  // Another definition of the name shadows them.
  if (!name || (symbol && symbol->kind != SymbolKind::TypeName))
    return nullptr;
  return builtinRecordTypeNamed(name->name);
}

bool Sema::isVoidNamed(const Expr &expr) {
  if (auto *name = dyn_cast<NameExpr>(&expr))
    return name->name == "void";
  std::optional<ModuleAttribute> attribute = typeModuleAttribute(expr);
  return attribute && (attribute->name == "void" || attribute->name == "none");
}

static bool isWholeAxis(const SliceExpr &slice) { return !slice.lower && !slice.upper && !slice.step; }

static bool isContiguousAxis(const SliceExpr &slice) {
  auto *step = slice.step ? dyn_cast<IntLiteralExpr>(slice.step.get()) : nullptr;
  return !slice.lower && !slice.upper && step && !step->tooLarge && step->value == 1;
}

/// `float32[:, ::1]`-style spellings of an array type: `contiguousAxis` is
/// written '::1'.
static std::string arraySpelling(const std::string &element, size_t rank, size_t contiguousAxis) {
  std::string text = element + "[";
  for (size_t axis = 0; axis < rank; ++axis)
    text += std::string(axis ? ", " : "") + (axis == contiguousAxis ? "::1" : ":");
  return text + "]";
}

std::string typeSpelling(const Expr &type) {
  auto *subscript = dyn_cast<SubscriptExpr>(&type);
  std::vector<std::string> parts = dottedName(subscript ? *subscript->object : type);
  std::string text;
  for (const std::string &part : parts)
    text += (text.empty() ? "" : ".") + part;
  if (!subscript)
    return text;
  text += "[";
  for (size_t axis = 0; axis < subscript->indices.size(); ++axis) {
    auto *slice = dyn_cast<SliceExpr>(subscript->indices[axis].get());
    text += std::string(axis ? ", " : "") + (slice && isContiguousAxis(*slice) ? "::1" : ":");
  }
  return text + "]";
}

/// "UniTuple" or "Tuple" when `callee` names Numba's tuple types
/// (`UniTuple`, `types.Tuple`, `numba.types.UniTuple`).
std::optional<std::string> Sema::tupleTypeName(const Expr &callee) {
  std::optional<std::string> name;
  if (auto *plain = dyn_cast<NameExpr>(&callee)) {
    const Symbol *symbol = lookupGlobal(plain->name);
    if (!symbol || symbol->builtin == Builtin::IgnoredImport)
      name = plain->name;
  } else if (std::optional<ModuleAttribute> attribute = typeModuleAttribute(callee)) {
    name = attribute->name;
  }
  if (name && (*name == "UniTuple" || *name == "Tuple"))
    return name;
  return std::nullopt;
}

/// UniTuple(int64, 2), Tuple((float32, int32)): a tuple of scalars, as a
/// kernel's or device function's parameter type.
const Type *Sema::evaluateTupleType(CallExpr &call) {
  const std::string name = *tupleTypeName(*call.callee);
  const bool uniform = name == "UniTuple";
  auto *elementList = !uniform && call.args.size() == 1 ? dyn_cast<TupleExpr>(call.args[0].get()) : nullptr;
  if (!call.keywords.empty() || (uniform && call.args.size() != 2) || (!uniform && !elementList)) {
    error(call.range()) << (uniform ? "UniTuple takes an element type and a length, as in 'UniTuple(int64, 2)'"
                                    : "Tuple takes a tuple of element types, as in 'Tuple((float32, int32))'");
    return nullptr;
  }
  std::vector<const Type *> elements;
  if (uniform) {
    const Type *element = evaluateTypeExpr(*call.args[0], /*allowVoid=*/false);
    auto *length = dyn_cast<IntLiteralExpr>(call.args[1].get());
    if (!element)
      return nullptr;
    if (!length || length->value < 1 || length->value > 8) {
      error(call.args[1]->range()) << "a UniTuple's length is an integer literal from 1 to 8";
      return nullptr;
    }
    elements.assign(length->value, element);
  } else {
    for (ExprPtr &elementExpr : elementList->elements) {
      const Type *element = evaluateTypeExpr(*elementExpr, /*allowVoid=*/false);
      if (!element)
        return nullptr;
      elements.push_back(element);
    }
  }
  for (size_t i = 0; i < elements.size(); ++i) {
    if (!elements[i]->isScalar()) {
      error((uniform ? call.args[0] : elementList->elements[i])->range())
          << "a tuple type holds scalars, not " << elements[i]->str();
      return nullptr;
    }
  }
  return types_.tuple(elements);
}

const Type *Sema::evaluateTypeExpr(Expr &expr, bool allowVoid) {
  if (auto *literal = dyn_cast<StringLiteralExpr>(&expr)) {
    ExprPtr parsed = parseStringAsExpression(*literal, *diags_);
    return parsed ? evaluateTypeExpr(*parsed, allowVoid) : nullptr;
  }
  if (isVoidNamed(expr)) {
    if (allowVoid)
      return types_.voidType();
    error(expr.range()) << "'void' is only a signature's return type";
    return nullptr;
  }
  if (isa<NoneLiteralExpr>(expr) && allowVoid)
    return types_.voidType();
  if (auto kind = scalarTypeNamed(expr)) {
    return types_.scalar(*kind);
  }
  if (auto *call = dyn_cast<CallExpr>(&expr); call && tupleTypeName(*call->callee))
    return evaluateTupleType(*call);
  auto *subscript = dyn_cast<SubscriptExpr>(&expr);
  if (auto *name = dyn_cast<NameExpr>(&expr); name && !subscript) {
    const Symbol *symbol = lookupGlobal(name->name);
    if (symbol && symbol->kind == SymbolKind::Signature)
      error(expr.range()) << "'" << name->name << "' is a signature, not a type";
    else
      error(expr.range()) << "'" << name->name << "' is not a type; expected a scalar type such as float32 or an "
                             "array type such as float32[:]";
    return nullptr;
  }
  if (!subscript) {
    error(expr.range()) << "expected a type, such as float32 or float32[:]";
    return nullptr;
  }
  if (const RecordType *record = recordTypeNamedBy(*subscript->object)) {
    // numba.cuda.random's states, as Numba's signatures spell them. Numba
    // makes them with one axis only.
    auto *slice = subscript->indices.size() == 1 ? dyn_cast<SliceExpr>(subscript->indices.front().get()) : nullptr;
    if (!slice || !(isWholeAxis(*slice) || isContiguousAxis(*slice))) {
      error(expr.range()) << "an array of " << record->name << " has one axis: write " << record->name << "[:]";
      return nullptr;
    }
    return types_.recordArray(*record);
  }
  auto element = scalarTypeNamed(*subscript->object);
  if (!element) {
    error(subscript->object->range()) << "expected a scalar element type before '[', such as float32[:]";
    return nullptr;
  }
  const size_t rank = subscript->indices.size();
  // Numba's layouts: 'A' (every axis ':'), 'C' ('::1' last) and 'F' ('::1'
  // first). pyk arrays are C-contiguous: 'A' and 'C' are the same to it.
  auto *first = rank ? dyn_cast<SliceExpr>(subscript->indices.front().get()) : nullptr;
  bool fortran = rank > 1 && first && isContiguousAxis(*first);
  for (size_t axis = 1; fortran && axis < rank; ++axis) {
    auto *slice = dyn_cast<SliceExpr>(subscript->indices[axis].get());
    fortran = slice && isWholeAxis(*slice);
  }
  if (fortran && rank <= 4) {
    const std::string spelled = typeSpelling(*subscript->object);
    error(expr.range()) << arraySpelling(spelled, rank, 0)
                        << " is a Fortran-ordered (column-major) array; pyk arrays are C-contiguous: write "
                        << arraySpelling(spelled, rank, rank - 1) << " (or " << arraySpelling(spelled, rank, rank)
                        << ") and pass the transposed array";
    return nullptr;
  }
  for (size_t axis = 0; axis < rank; ++axis) {
    auto *slice = dyn_cast<SliceExpr>(subscript->indices[axis].get());
    const bool last = axis + 1 == rank;
    if (slice && (isWholeAxis(*slice) || (last && isContiguousAxis(*slice))))
      continue;
    error(subscript->indices[axis]->range())
        << "an array type lists one ':' per axis, as in float32[:, :] (only the last axis may be written '::1')";
    return nullptr;
  }
  if (rank > 4) {
    error(expr.range()) << "arrays of rank " << rank << " are not supported; pyk arrays have rank 1 to 4";
    return nullptr;
  }
  return types_.array(*element, static_cast<unsigned>(rank));
}

} // namespace pyk::sema
