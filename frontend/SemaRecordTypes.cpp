//===- SemaRecordTypes.cpp - Records a file defines -----------------------===//
//
// A file defines a record type as NumPy and Numba users do, at module level:
//
//   Particle = np.dtype([('x', np.float32), ('v', 'f4'), ('id', np.int32)], align=True)
//   particle_t = from_dtype(Particle)      # Numba's type of it; the same record
//
// Signatures and annotations then name arrays of it (`particle_t[:]`, or
// `Particle[:]`). pykc lays the fields out as NumPy does (RecordTypes.h:
// packed, or aligned with `align=True`), and the launch header defines a
// C++ struct with that layout, named after the np.dtype's constant.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

bool isPythonIdentifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front())))
    return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool isDtypeFunction(const std::string &dotted) {
  return dotted == "np.dtype" || dotted == "cp.dtype";
}

bool isFromDtypeFunction(const std::string &dotted) {
  return dotted == "numba.from_dtype" || dotted == "numba.np.numpy_support.from_dtype";
}

} // namespace

/// `np.dtype`, `numba.from_dtype`, `cuda.declare_device`: the
/// callee's dotted name, its first part resolved where it is a builtin
/// module (`import numpy as xp` gives `np`); empty where it is not a chain of
/// names.
std::string dottedName(const Expr &expr, const std::function<const Symbol *(const std::string &)> &lookup) {
  if (auto *name = dyn_cast<NameExpr>(&expr)) {
    const Symbol *symbol = lookup(name->name);
    if (symbol && symbol->kind == SymbolKind::Builtin && symbol->builtin != Builtin::IgnoredImport)
      return std::string(builtinName(symbol->builtin));
    return symbol ? "" : name->name;
  }
  if (auto *attribute = dyn_cast<AttributeExpr>(&expr)) {
    std::string object = dottedName(*attribute->object, lookup);
    return object.empty() ? "" : object + "." + attribute->attribute;
  }
  return "";
}

bool Sema::looksLikeRecordDefinition(const Expr &value) {
  auto *call = dyn_cast<CallExpr>(&value);
  if (!call)
    return false;
  const std::string callee = dottedName(*call->callee, [&](const std::string &name) { return lookup(name); });
  return isDtypeFunction(callee) || isFromDtypeFunction(callee);
}

const RecordType *Sema::recordOfFromDtype(const Expr &expr) {
  auto *call = dyn_cast<CallExpr>(&expr);
  if (!call || call->args.size() != 1 || !call->keywords.empty() ||
      !isFromDtypeFunction(dottedName(*call->callee, [&](const std::string &name) { return lookup(name); })))
    return nullptr;
  return recordTypeNamedBy(*call->args.front());
}

void Sema::declareRecordType(NameExpr &target, Expr &value) {
  Symbol symbol{SymbolKind::RecordType, target.name,   target.range(), nullptr, std::nullopt,
                ScalarKind::Bool,       Builtin::None, nullptr,        0};
  symbol.record = evaluateRecordDefinition(value, target.name);
  if (!symbol.record) {
    // Its uses stay silent: a constant of the error type.
    symbol.kind = SymbolKind::Constant;
    symbol.type = types_.errorType();
  }
  addSymbol(moduleScope_, std::move(symbol));
}

const RecordType *Sema::evaluateRecordDefinition(Expr &value, const std::string &name) {
  auto &call = llvm::cast<CallExpr>(value);
  const std::string callee = dottedName(*call.callee, [&](const std::string &n) { return lookup(n); });
  if (isDtypeFunction(callee))
    return evaluateDtypeCall(call, name);
  // from_dtype(Point), or from_dtype(np.dtype([...])).
  if (call.args.size() != 1 || !call.keywords.empty()) {
    error(call.range()) << "from_dtype takes one argument, a structured dtype, as in 'from_dtype(Point)'";
    return nullptr;
  }
  Expr &dtype = *call.args.front();
  if (looksLikeRecordDefinition(dtype))
    return evaluateRecordDefinition(dtype, name);
  if (const RecordType *record = recordTypeNamedBy(dtype))
    return record;
  error(dtype.range()) << "from_dtype needs a structured dtype that the file defines, as in "
                          "'Point = np.dtype([(\"x\", np.float32), (\"y\", np.float32)])'";
  return nullptr;
}

const RecordType *Sema::evaluateDtypeCall(CallExpr &call, const std::string &name) {
  const std::string example = "'np.dtype([(\"x\", np.float32), (\"y\", np.float32)])'";
  if (call.args.size() != 1) {
    error(call.range()) << "a record's dtype is np.dtype of one list of (name, type) pairs, as in " << example;
    return nullptr;
  }
  bool align = false;
  for (KeywordArgument &keyword : call.keywords) {
    if (keyword.name != "align") {
      error(keyword.nameRange) << "np.dtype takes the fields and 'align', not '" << keyword.name << "'";
      return nullptr;
    }
    checkValue(*keyword.value);
    if (!keyword.value->constant || keyword.value->constant->kind != ConstantValue::Kind::Bool) {
      error(keyword.value->range()) << "'align' is True or False";
      return nullptr;
    }
    align = keyword.value->constant->truth();
  }
  Expr &list = *call.args.front();
  std::vector<Expr *> entries;
  auto *display = dyn_cast<UnsupportedExpr>(&list);
  if (display && display->what == UnsupportedSyntax::ListDisplay)
    for (ExprPtr &entry : display->elements)
      entries.push_back(entry.get());
  if (entries.empty()) {
    if (display && display->what == UnsupportedSyntax::DictDisplay)
      notSupportedYet(list.range(), "a dtype given as a dict of names and formats");
    else
      error(list.range()) << "a record's dtype is np.dtype of a list of (name, type) pairs, as in " << example;
    return nullptr;
  }
  auto record = std::make_shared<RecordType>();
  record->name = name;
  std::set<std::string> names;
  for (Expr *entry : entries) {
    auto *pair = dyn_cast<TupleExpr>(entry);
    auto *fieldName = pair && !pair->elements.empty() ? dyn_cast<StringLiteralExpr>(pair->elements[0].get()) : nullptr;
    if (!fieldName || pair->elements.size() < 2) {
      error(entry->range()) << "a field is a (name, type) pair, as in '(\"x\", np.float32)'";
      return nullptr;
    }
    if (pair->elements.size() > 2) {
      notSupportedYet(pair->elements[2]->range(), "a field that is an array (a shape in a dtype's field)");
      return nullptr;
    }
    if (!isPythonIdentifier(fieldName->value)) {
      error(fieldName->range()) << "'" << fieldName->value
                                << "' cannot name a field in pyk: kernels read fields as 'a[i].name'";
      return nullptr;
    }
    if (!names.insert(fieldName->value).second) {
      error(fieldName->range()) << "the field '" << fieldName->value << "' is named twice";
      return nullptr;
    }
    std::optional<ScalarKind> kind = recordFieldKind(*pair->elements[1]);
    if (!kind)
      return nullptr;
    record->fields.push_back({fieldName->value, *kind, 0});
  }
  record->size = layOutRecordFields(record->fields, align);
  // CUDA's __half cannot be a field of a packed struct.
  const bool hasFloat16 = std::any_of(record->fields.begin(), record->fields.end(), [](const RecordField &field) {
    return field.kind == ScalarKind::Float16 || field.kind == ScalarKind::BFloat16;
  });
  if (hasFloat16 && !record->hasCLayout()) {
    notSupportedYet(call.range(), "a 16-bit float field in a record that C does not lay out as NumPy does (give "
                                  "the dtype align=True, or order its fields so that each is at a multiple of its "
                                  "width)");
    return nullptr;
  }
  info_.recordTypes.push_back(record);
  return record.get();
}

std::optional<ScalarKind> Sema::recordFieldKind(Expr &type) {
  std::optional<ScalarKind> kind = recordFieldScalar(type);
  if (kind && isComplex(*kind)) {
    // NumPy aligns a complex field to its part, CUDA's complex types to
    // their size: a layout of its own to state first.
    notSupportedYet(type.range(), "a complex field in a record");
    return std::nullopt;
  }
  return kind;
}

std::optional<ScalarKind> Sema::recordFieldScalar(Expr &type) {
  if (auto *text = dyn_cast<StringLiteralExpr>(&type)) {
    std::string_view code = text->value;
    if (!code.empty() && code.front() == '>') {
      error(type.range()) << "a big-endian field ('" << code << "') is not one pyk has: GPUs are little-endian";
      return std::nullopt;
    }
    if (!code.empty() && (code.front() == '<' || code.front() == '=' || code.front() == '|'))
      code.remove_prefix(1);
    if (code == "?")
      return ScalarKind::Bool;
    if (auto kind = scalarKindFromName(code); kind)
      return kind;
  } else if (recordTypeNamedBy(type) || looksLikeRecordDefinition(type)) {
    notSupportedYet(type.range(), "a field that is itself a record");
    return std::nullopt;
  } else if (auto kind = scalarTypeNamed(type); kind) {
    return kind;
  }
  error(type.range()) << "a field's type is a NumPy scalar type, such as np.float32, np.int32 or 'f8'";
  return std::nullopt;
}

} // namespace pyk::sema
