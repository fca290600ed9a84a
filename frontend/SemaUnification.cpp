//===- SemaUnification.cpp - One type for all the values of a local -------===//
//
// A local's type is the unification of every value assigned to it, as in
// Numba: NumPy's promote_types of the numbers (int32 then int64: int64;
// int64 then float32: float64; uint64 then int64: float64), except that a
// float local keeps its type when it is given an integer. Where that
// quietly makes a local float64, this file warns:
//
//  1. A local that first held an integer (or a bool) and that a later float
//     made float64, in a function without float64 data (`p = 0`, then
//     `p += x[i] * w[i]` on float32 arrays): if a float32 first value would
//     keep it float32, the warning at the first value says so
//     ('p = float32(0)'). Whether it would is found by checking the body
//     again, muted, with the local seeded float32 and the other inferred
//     locals reset.
//  2. A local that holds uint64 and a signed integer is float64, since no
//     integer type holds both: always worth a warning, as it loses
//     precision.
//  3. The float64 warnings of arithmetic that suggest casting such a local
//     (`float32(p) + 0.5`, seen while p was still an integer) are dropped:
//     the cast would not help, and (1) says what does.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

namespace pyk::sema {

using namespace ast;

const Type *Sema::unifyLocalType(const Type *current, const Type *value) {
  if (current == value)
    return current;
  const ScalarKind have = current->scalarKind();
  const ScalarKind given = value->scalarKind();
  // An integer stored into a float local converts to it, as into a float
  // array element (Numba would widen float32 with int64 to float64).
  if (isFloat(have) && !isFloat(given))
    return current;
  return types_.scalar(promoteTyped(have, given));
}

void Sema::checkBodyUntilTypesSettle(FunctionDef &def) {
  // Unification only widens, so this ends quickly.
  constexpr int maxRounds = 8;
  for (int round = 0; round < maxRounds; ++round) {
    DiagnosticEngine scratch(realDiags_->file());
    diags_ = &scratch;
    localTypesChanged_ = false;
    function_->callees.clear(); // a pass whose types had not settled may have called other versions
    flow_ = FlowState();
    resetReturnInference();
    resetGridPositions();
    checkBlock(def.body);
    diags_ = realDiags_;
    if (!localTypesChanged_)
      break;
  }
}

std::set<const Symbol *> Sema::localsKeptFloat32(FunctionDef &def, const std::vector<const Symbol *> &seeded) {
  // Every inferred scalar local starts again from nothing, the seeded ones
  // from float32; what the muted check changes is put back afterwards.
  std::vector<std::pair<Symbol *, const Type *>> saved;
  for (auto &[name, symbol] : functionScope_) {
    if (symbol->kind != SymbolKind::Local || symbol->typeDeclared || (symbol->type && symbol->type->isArray()))
      continue;
    saved.emplace_back(symbol, symbol->type);
    symbol->type = nullptr;
  }
  for (const Symbol *symbol : seeded)
    const_cast<Symbol *>(symbol)->type = types_.scalar(ScalarKind::Float32);
  const auto savedWarnings = float64Warnings_;
  const auto savedWidenings = floatWidenings_;
  checkBodyUntilTypesSettle(def);
  std::set<const Symbol *> kept;
  for (const Symbol *symbol : seeded)
    if (symbol->type == types_.scalar(ScalarKind::Float32))
      kept.insert(symbol);
  for (auto &[symbol, type] : saved)
    symbol->type = type;
  // The check above typed the AST for the seeded locals: type it again.
  checkBodyUntilTypesSettle(def);
  float64Warnings_ = savedWarnings;
  floatWidenings_ = savedWidenings;
  return kept;
}

void Sema::warnAboutWidenedLocals(FunctionDef &def) {
  std::vector<const Symbol *> float64Locals;
  for (const auto &[symbol, widening] : floatWidenings_) {
    if (!symbol->type || !symbol->type->isScalar())
      continue;
    if (!isFloat(widening.widenedKind)) {
      warning(widening.widenedBy) << "'" << symbol->name << "' holds " << scalarName(widening.firstKind)
                                  << " and " << scalarName(widening.widenedKind)
                                  << " values, so it is float64, as in Numba and NumPy (no integer type holds "
                                     "both); convert the values to one type, e.g. with "
                                  << scalarName(widening.firstKind) << "(...)";
      note(symbol->definition) << "'" << symbol->name << "' is first assigned here, as "
                               << scalarName(widening.firstKind);
      continue;
    }
    if (!hasFloat64Data_ && symbol->type->scalarKind() == ScalarKind::Float64)
      float64Locals.push_back(symbol);
  }
  if (float64Locals.empty())
    return;
  const std::set<const Symbol *> kept = localsKeptFloat32(def, float64Locals);
  for (const Symbol *symbol : float64Locals) {
    if (!kept.count(symbol))
      continue;
    const FloatWidening &widening = floatWidenings_.at(symbol);
    const std::string fix = widening.firstValueIsWhole
                                ? "write '" + symbol->name + " = float32(" + sourceText(widening.firstValue) + ")'"
                                : "assign it a float32 here";
    warning(symbol->definition) << "'" << symbol->name << "' is float64: it is assigned "
                                << scalarName(widening.firstKind)
                                << " here and a float later, which unify to float64 as in Numba, in a "
                                << functionKindName(*function_) << " that has no float64 data; " << fix
                                << " to keep it in float32";
    note(widening.widenedBy) << "'" << symbol->name << "' is assigned a float here"
                             << (widening.byTrueDivision ? ": '/' always divides to a float; use '//' for integer "
                                                           "division"
                                                         : "");
  }
}

void Sema::reportFloat64Warnings() {
  for (const auto &[offset, located] : float64Warnings_) {
    bool castsWidenedLocal = false;
    for (const Symbol *local : located.integerLocals)
      castsWidenedLocal |= local->type && local->type->isScalar() && isFloat(local->type->scalarKind());
    if (!castsWidenedLocal)
      warning(located.at) << located.message;
  }
}

} // namespace pyk::sema
