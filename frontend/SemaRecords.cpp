//===- SemaRecords.cpp - Arrays of records and their fields ---------------===//
//
// An array of records (`states: xoroshiro128p_type[:]`) has a length, a
// shape and a size as a 1-D array has (SemaExpr.cpp). One of its elements, `states[i]`,
// is only the object of a field access: `states[i]['s0']` or
// `states[i].s0`, read, assigned or updated (`+=`) as an array element is.
// A whole record is a value in two places: `r = states[i]` names the
// element (a reference, as Numba's records are), and `states[i] = r` or
// `states[i] = states[j]` copies one, field by field.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

const Type *Sema::checkRecordElement(SubscriptExpr &expr, const Type *arrayType) {
  const std::string array = sourceText(expr.object->range());
  if (expr.indices.size() != 1 || isa<SliceExpr>(*expr.indices.front())) {
    error(expr.range()) << "an array of " << arrayType->record()->name << " takes one index, as in '" << array
                        << "[i]'; views of it are not supported yet";
    return setType(expr, types_.errorType());
  }
  const Type *indexType = checkValue(*expr.indices.front());
  if (indexType->isError())
    return setType(expr, types_.errorType());
  if (!indexType->isScalar() || !isInteger(indexType->scalarKind())) {
    error(expr.indices.front()->range()) << "an array index must be an integer, not " << indexType->str();
    return setType(expr, types_.errorType());
  }
  return setType(expr, types_.record(*arrayType->record()));
}

const Type *Sema::checkRecordField(Expr &access, Expr &record, const std::string &field, SourceRange fieldRange) {
  const RecordType &type = *record.type->record();
  const int index = type.fieldIndex(field);
  if (index < 0) {
    error(fieldRange) << type.name << " has no field '" << field << "'; its fields are " << type.fieldList();
    return setType(access, types_.errorType());
  }
  return setType(access, types_.scalar(type.fields[static_cast<size_t>(index)].kind));
}

const Type *Sema::checkRecordFieldByName(SubscriptExpr &expr) {
  auto *name = expr.indices.size() == 1 ? dyn_cast<StringLiteralExpr>(expr.indices.front().get()) : nullptr;
  if (!name || name->flavor != StringLiteralExpr::Flavor::Text) {
    const RecordType &type = *expr.object->type->record();
    error(expr.range()) << "a record's fields are named by a string, as in '" << sourceText(expr.object->range())
                        << "['" << type.fields.front().name << "']'";
    return setType(expr, types_.errorType());
  }
  return checkRecordField(expr, *expr.object, name->value, name->range());
}

bool Sema::assignToRecordField(Expr &target, const Type *valueType, SourceRange valueRange) {
  auto *subscript = dyn_cast<SubscriptExpr>(&target);
  auto *attribute = dyn_cast<AttributeExpr>(&target);
  Expr *record = subscript ? subscript->object.get() : attribute ? attribute->object.get() : nullptr;
  if (!record)
    return false;
  // Only an element of an array of records, or a local naming one, is a
  // record; anything else is assignTo's to check.
  auto *element = dyn_cast<SubscriptExpr>(record);
  const Type *arrayType = element ? checkExpr(*element->object) : nullptr;
  if (auto *name = dyn_cast<NameExpr>(record)) {
    const Symbol *symbol = lookup(name->name);
    if (symbol && symbol->type && symbol->type->isRecord())
      arrayType = types_.recordArray(*symbol->type->record());
  }
  if (arrayType && arrayType->isError())
    return true; // reported where it was made
  if (!arrayType || !arrayType->isRecordArray())
    return false;
  const Type *fieldType = checkValue(target);
  if (fieldType->isError() || valueType->isError())
    return true;
  if (!valueType->isScalar()) {
    error(valueRange) << "cannot store a value of type " << valueType->str() << " into a field of "
                      << record->type->record()->name;
    return true;
  }
  function_->hasSideEffects = true;
  return true;
}

bool Sema::assignWholeRecord(Expr &target, const Type *valueType, SourceRange valueRange) {
  auto *element = dyn_cast<SubscriptExpr>(&target);
  const Type *arrayType = element ? checkExpr(*element->object) : nullptr;
  if (!arrayType || !arrayType->isRecordArray())
    return false;
  const Type *elementType = checkExpr(target);
  if (elementType->isError() || valueType->isError())
    return true;
  if (valueType != elementType) {
    error(valueRange) << "cannot store a value of type " << valueType->str() << " into an element of "
                      << arrayType->str() << "; store a record of " << arrayType->record()->name
                      << " (as in '" << sourceText(target.range()) << " = " << sourceText(element->object->range())
                      << "[j]') or into one of its fields";
    return true;
  }
  function_->hasSideEffects = true;
  return true;
}

bool Sema::namesOrCopiesRecord(const Expr &target) {
  if (isa<NameExpr>(target))
    return true;
  auto *element = dyn_cast<SubscriptExpr>(&target);
  auto *array = element ? dyn_cast<NameExpr>(element->object.get()) : nullptr;
  const Symbol *symbol = array ? lookup(array->name) : nullptr;
  return symbol && symbol->type && symbol->type->isRecordArray();
}

const Symbol *Sema::recordArrayOf(const Expr &record) const {
  if (auto *element = dyn_cast<SubscriptExpr>(&record))
    return rootArraySymbol(*element->object);
  if (auto *name = dyn_cast<NameExpr>(&record)) {
    // A device function's record parameter stands for the array it names
    // an element of.
    if (name->symbol && name->symbol->kind == SymbolKind::Parameter)
      return name->symbol;
    return name->symbol ? name->symbol->recordArray : nullptr;
  }
  return nullptr;
}

void Sema::assignRecordToName(NameExpr &target, Symbol &symbol, const Type *valueType, SourceRange valueRange) {
  if (symbol.type && valueType != symbol.type) {
    error(valueRange) << "cannot assign a value of type " << valueType->str() << " to '" << target.name
                      << "', which names a record of " << symbol.type->record()->name;
    return;
  }
  if (!valueType->isRecord()) {
    error(valueRange) << "cannot assign a value of type " << valueType->str() << " to '" << target.name
                      << "', which names a record of " << symbol.type->record()->name;
    return;
  }
  const Symbol *array = assignedValue_ ? recordArrayOf(*assignedValue_) : nullptr;
  if (!array) {
    notSupportedYet(valueRange, "a record local given this value (it names an element of an array parameter, "
                                "as in 'r = ps[i]')");
    symbol.type = types_.errorType();
    return;
  }
  if (symbol.recordArray && symbol.recordArray != array) {
    notSupportedYet(valueRange, "a record local that names elements of two arrays ('" + symbol.recordArray->name +
                                    "' and '" + array->name + "')");
    return;
  }
  if (!symbol.type)
    localTypesChanged_ = true;
  symbol.type = valueType;
  symbol.recordArray = array;
  target.type = valueType;
}

const Type *Sema::rejectWholeRecord(Expr &expr) {
  const RecordType &type = *expr.type->record();
  const std::string text = sourceText(expr.range());
  error(expr.range()) << "'" << text << "' is a whole record of " << type.name << "; read or write one of its fields, "
                      << "as in '" << text << "['" << type.fields.front().name << "']' or '" << text << "."
                      << type.fields.front().name << "', name it ('r = " << text << "') or copy it ('a[i] = " << text
                      << "')";
  return setType(expr, types_.errorType());
}

} // namespace pyk::sema
