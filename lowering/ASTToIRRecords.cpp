//===- ASTToIRRecords.cpp - Records: fields, names and copies -------------===//
//
// An element of an array of records is never a value of its own in the IR:
// its fields are loads and stores that name the field (ArrayLoad::field). A
// record local or a device function's record parameter (`r = ps[i]`,
// `f(ps[i])`) is the array and the index of the element it names, as
// Numba's records are references; a copy is a load and a store per field.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace pyk::ir::lowering {

using llvm::cast;
using llvm::dyn_cast;

Lowering::FieldAccess Lowering::recordField(const ast::Expr &record, const std::string &field) {
  const int index = record.type->record()->fieldIndex(field);
  assert(index >= 0 && "Sema checked the field's name");
  if (auto *name = dyn_cast<ast::NameExpr>(&record)) {
    const RecordLocal &local = recordLocals_.at(name->symbol);
    std::vector<ExprPtr> at;
    at.push_back(std::make_unique<VarRef>(record.range(), local.index));
    return {local.array, std::move(at), index};
  }
  const auto &element = cast<ast::SubscriptExpr>(record);
  auto [array, at] = accessThrough(*element.object, indices(element));
  return {array, std::move(at), index};
}

std::pair<const Variable *, ExprPtr> Lowering::recordElement(const ast::Expr &record, StmtList &out) {
  if (auto *name = dyn_cast<ast::NameExpr>(&record)) {
    const RecordLocal &local = recordLocals_.at(name->symbol);
    return {local.array, std::make_unique<VarRef>(record.range(), local.index)};
  }
  const auto &element = cast<ast::SubscriptExpr>(record);
  auto [array, at] = accessThrough(*element.object, indices(element));
  return {array, evaluatedOnce(std::move(at.front()), "pyk_record", out)};
}

void Lowering::assignRecord(const ast::Expr &target, const ast::Expr &value, SourceRange loc, StmtList &out) {
  if (auto *name = dyn_cast<ast::NameExpr>(&target)) {
    FieldAccess element = recordField(value, value.type->record()->fields.front().name);
    out.push_back(std::make_unique<Assign>(loc, recordLocals_.at(name->symbol).index, std::move(element.at.front())));
    return;
  }
  // Python evaluates the value before the target's index.
  auto [source, sourceIndex] = recordElement(value, out);
  auto [destination, destinationIndex] = recordElement(target, out);
  const RecordType &record = *target.type->record();
  for (size_t field = 0; field < record.fields.size(); ++field) {
    std::vector<ExprPtr> from, to;
    from.push_back(copyOfStable(*sourceIndex));
    to.push_back(copyOfStable(*destinationIndex));
    auto load = std::make_unique<ArrayLoad>(loc, source, std::move(from), static_cast<int>(field));
    out.push_back(std::make_unique<ArrayStore>(loc, destination, std::move(to), std::move(load), static_cast<int>(field)));
  }
}

const std::string &Lowering::fieldName(const ast::Expr &access) {
  if (auto *attribute = dyn_cast<ast::AttributeExpr>(&access))
    return attribute->attribute;
  return cast<ast::StringLiteralExpr>(*cast<ast::SubscriptExpr>(access).indices.front()).value;
}

} // namespace pyk::ir::lowering
