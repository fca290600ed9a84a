//===- InsertChecks.cpp - Checked mode written out as IR ------------------===//
//
// One unsigned compare per checked axis covers both ends of the range: a
// negative index is a huge unsigned one. The failure path is a CheckFailed,
// which backends make a call of a cold function, so the passing path is the
// one a compiler lays out and vectorises.
//
//===----------------------------------------------------------------------===//
#include "passes/InsertChecks.h"

#include "IRMutator.h"
#include "IRWalk.h"

#include "llvm/Support/Casting.h"

#include <set>
#include <string>
#include <utility>

namespace pyk::ir {
namespace {

using llvm::cast;
using llvm::dyn_cast;

/// The largest expression written out again rather than held in a local:
/// `i + 1`, `i * n + j` stay readable where they are used.
constexpr unsigned rewriteBudget = 8;

const Type uint64Type = Type::scalarType(ScalarKind::UInt64);

class Inserter {
public:
  explicit Inserter(Function &function) : function_(function) {
    for (const Variable *var : function.variables())
      names_.insert(var->name);
  }

  void block(StmtList &body) {
    StmtList rewritten;
    for (StmtPtr &s : body) {
      // An atomic whose value is unused is guarded as a statement.
      auto *evaluate = dyn_cast<Evaluate>(s.get());
      auto *atomic = evaluate ? dyn_cast<Atomic>(evaluate->call.get()) : nullptr;
      if (atomic && isChecked(atomic->boundsChecks)) {
        std::vector<ExprPtr *> operands = atomicOperands(*atomic);
        for (ExprPtr &index : atomic->indices)
          rewriteExpr(index, [&](ExprPtr &slot) { expression(slot); });
        for (ExprPtr *operand : operands)
          rewriteExpr(*operand, [&](ExprPtr &slot) { expression(slot); });
        guardStatement(std::move(s), atomic->array, atomic->indices, atomic->boundsChecks, {}, operands, rewritten);
        continue;
      }
      rewriteOwnExprs(*s, [&](ExprPtr &slot) { expression(slot); });
      if (auto *branch = dyn_cast<If>(s.get())) {
        block(branch->thenBody);
        block(branch->elseBody);
      } else if (auto *loop = dyn_cast<While>(s.get())) {
        block(loop->body);
      } else if (auto *range = dyn_cast<ForRange>(s.get())) {
        block(range->body);
      }
      auto *store = dyn_cast<ArrayStore>(s.get());
      if (store && !isChecked(store->boundsChecks))
        store->boundsChecks.clear();
      if (store && !store->boundsChecks.empty())
        guardStatement(std::move(s), store->array, store->indices, store->boundsChecks, {&store->value}, {},
                       rewritten);
      else if (auto *assertion = dyn_cast<Assert>(s.get()))
        rewritten.push_back(checkedAssert(*assertion));
      else
        rewritten.push_back(std::move(s));
    }
    body = std::move(rewritten);
  }

private:
  static bool isChecked(const std::vector<CheckSiteId> &sites) {
    for (CheckSiteId site : sites)
      if (site != NoCheck)
        return true;
    return false;
  }

  /// Operands come first (rewriteOwnExprs), so the indices of a checked
  /// load are already checked themselves.
  void expression(ExprPtr &slot) {
    if (auto *load = dyn_cast<ArrayLoad>(slot.get())) {
      if (!isChecked(load->boundsChecks))
        return load->boundsChecks.clear();
      return checkedAccess(slot, load->array, load->indices, load->boundsChecks, {});
    }
    if (auto *atomic = dyn_cast<Atomic>(slot.get())) {
      if (!isChecked(atomic->boundsChecks))
        return atomic->boundsChecks.clear();
      return checkedAccess(slot, atomic->array, atomic->indices, atomic->boundsChecks, atomicOperands(*atomic));
    }
    if (auto *divisor = dyn_cast<DivisorCheck>(slot.get()))
      return checkedDivisor(slot, *divisor);
  }

  /// In the order they are evaluated, after the indices.
  static std::vector<ExprPtr *> atomicOperands(Atomic &atomic) {
    std::vector<ExprPtr *> operands;
    if (atomic.compare)
      operands.push_back(&atomic.compare);
    operands.push_back(&atomic.value);
    return operands;
  }

  // --- Values used more than once -----------------------------------------

  /// A hidden local of `type`, named from `stem`.
  Variable *temporary(const std::string &stem, Type type, SourceRange loc) {
    std::string name;
    do
      name = "pyk_" + stem + "_" + std::to_string(counter_++);
    while (names_.count(name));
    names_.insert(name);
    return function_.addHiddenLocal(name, type, loc);
  }

  /// Whether `e` may be written out again instead of held in a local.
  static bool rewritable(const Expr &e) {
    unsigned budget = rewriteBudget;
    return isCheapAndHarmless(e, budget) && copyOfPure(e) != nullptr;
  }

  /// Where `slot` is not rewritable: moves its expression into a new local,
  /// returned with the expression, and leaves a reference to the local.
  std::pair<Variable *, ExprPtr> holdInLocal(ExprPtr &slot, const std::string &stem) {
    if (rewritable(*slot))
      return {nullptr, nullptr};
    Variable *var = temporary(stem, slot->type(), slot->loc());
    ExprPtr value = std::move(slot);
    slot = std::make_unique<VarRef>(value->loc(), var);
    return {var, std::move(value)};
  }

  // --- The checks ------------------------------------------------------------

  /// `index <u extent` for axis `axis` of `array`.
  static ExprPtr inBounds(const Expr &index, const Variable *array, unsigned axis) {
    SourceRange loc = index.loc();
    return std::make_unique<Compare>(loc, CompareOp::Lt, std::make_unique<Cast>(loc, uint64Type, copyOfPure(index)),
                                     std::make_unique<Cast>(loc, uint64Type,
                                                            std::make_unique<ArrayDim>(loc, array, axis)));
  }

  static ExprPtr failure(Type type, CheckSiteId site, const Expr &index, const Variable *array, unsigned axis,
                         SourceRange loc) {
    return std::make_unique<CheckFailed>(loc, type, site, copyOfPure(index),
                                         std::make_unique<ArrayDim>(loc, array, axis));
  }

  /// A load or atomic: each index and operand that is used again is held in
  /// a Let, in the order they are evaluated; then one select per checked
  /// axis, the first outermost.
  void checkedAccess(ExprPtr &slot, const Variable *array, std::vector<ExprPtr> &indices,
                     std::vector<CheckSiteId> &sites, const std::vector<ExprPtr *> &operands) {
    std::vector<std::pair<Variable *, ExprPtr>> held;
    for (ExprPtr &index : indices)
      if (auto hold = holdInLocal(index, "index"); hold.first)
        held.push_back(std::move(hold));
    for (ExprPtr *operand : operands)
      if (auto hold = holdInLocal(*operand, "operand"); hold.first)
        held.push_back(std::move(hold));

    const std::vector<CheckSiteId> checks = std::move(sites);
    sites.clear();
    std::vector<const Expr *> checkedIndices;
    for (const ExprPtr &index : indices)
      checkedIndices.push_back(index.get());
    const Type type = slot->type();
    const SourceRange loc = slot->loc();
    ExprPtr guarded = std::move(slot);
    for (unsigned axis = static_cast<unsigned>(checks.size()); axis-- > 0;) {
      if (checks[axis] == NoCheck)
        continue;
      const Expr &index = *checkedIndices[axis];
      guarded = std::make_unique<Select>(loc, inBounds(index, array, axis), std::move(guarded),
                                         failure(type, checks[axis], index, array, axis, loc));
    }
    for (auto it = held.rbegin(); it != held.rend(); ++it)
      guarded = std::make_unique<Let>(loc, it->first, std::move(it->second), std::move(guarded));
    slot = std::move(guarded);
  }

  /// A store, or an atomic whose value is unused: the values evaluated
  /// before the indices (a store's), the indices, and those after (an
  /// atomic's operands), each in a local declared before the statement
  /// where it must be evaluated once or whatever the checks find; then one
  /// `if` per checked axis around the statement, the first outermost.
  void guardStatement(StmtPtr s, const Variable *array, std::vector<ExprPtr> &indices,
                      std::vector<CheckSiteId> &sites, const std::vector<ExprPtr *> &valuesFirst,
                      const std::vector<ExprPtr *> &valuesAfter, StmtList &out) {
    const SourceRange loc = s->loc();
    auto hold = [&](ExprPtr &slot, const char *stem, bool usedAgain) {
      unsigned budget = rewriteBudget;
      if (usedAgain ? rewritable(*slot) : isCheapAndHarmless(*slot, budget))
        return;
      Variable *var = temporary(stem, slot->type(), slot->loc());
      ExprPtr value = std::move(slot);
      slot = std::make_unique<VarRef>(value->loc(), var);
      out.push_back(std::make_unique<Declare>(loc, var, std::move(value)));
    };
    for (ExprPtr *value : valuesFirst)
      hold(*value, "value", false);
    for (ExprPtr &index : indices)
      hold(index, "index", true);
    for (ExprPtr *value : valuesAfter)
      hold(*value, "operand", false);

    const std::vector<CheckSiteId> checks = std::move(sites);
    sites.clear();
    std::vector<std::pair<ExprPtr, ExprPtr>> axisChecks; // condition, failure
    for (unsigned axis = 0; axis < checks.size(); ++axis) {
      if (checks[axis] == NoCheck)
        continue;
      const Expr &index = *indices[axis];
      axisChecks.emplace_back(inBounds(index, array, axis),
                              failure(Type::voidType(), checks[axis], index, array, axis, loc));
    }
    StmtList inner;
    inner.push_back(std::move(s));
    for (auto it = axisChecks.rbegin(); it != axisChecks.rend(); ++it) {
      StmtList otherwise;
      otherwise.push_back(std::make_unique<Evaluate>(loc, std::move(it->second)));
      StmtList wrapped;
      wrapped.push_back(std::make_unique<If>(loc, std::move(it->first), std::move(inner), std::move(otherwise)));
      inner = std::move(wrapped);
    }
    out.push_back(std::move(inner.front()));
  }

  /// `select(d != 0, d, check_failed)`: the failure's zero is the divisor's
  /// value there, so the division sees what it would have.
  void checkedDivisor(ExprPtr &slot, DivisorCheck &check) {
    const SourceRange loc = check.loc();
    const Type type = check.type();
    auto [var, value] = holdInLocal(check.divisor, "divisor");
    const Expr &divisor = *check.divisor;
    ExprPtr zero = std::make_unique<Constant>(loc, type, 0, 0.0);
    ExprPtr guarded = std::make_unique<Select>(
        loc, std::make_unique<Compare>(loc, CompareOp::Ne, copyOfPure(divisor), std::move(zero)), copyOfPure(divisor),
        std::make_unique<CheckFailed>(loc, type, check.site, nullptr, nullptr));
    if (var)
      guarded = std::make_unique<Let>(loc, var, std::move(value), std::move(guarded));
    slot = std::move(guarded);
  }

  static StmtPtr checkedAssert(Assert &a) {
    const SourceRange loc = a.loc();
    StmtList report;
    report.push_back(std::make_unique<Evaluate>(
        loc, std::make_unique<CheckFailed>(loc, Type::voidType(), a.check, nullptr, nullptr)));
    ExprPtr failed = std::make_unique<Unary>(a.condition->loc(), UnaryOp::Not, std::move(a.condition));
    return std::make_unique<If>(loc, std::move(failed), std::move(report), StmtList());
  }

  Function &function_;
  std::set<std::string> names_;
  unsigned counter_ = 0;
};

/// Unchecked code does not evaluate asserts at all.
void removeAsserts(StmtList &body) {
  StmtList kept;
  for (StmtPtr &s : body) {
    if (llvm::isa<Assert>(*s))
      continue;
    if (auto *branch = dyn_cast<If>(s.get())) {
      removeAsserts(branch->thenBody);
      removeAsserts(branch->elseBody);
    } else if (auto *loop = dyn_cast<While>(s.get())) {
      removeAsserts(loop->body);
    } else if (auto *range = dyn_cast<ForRange>(s.get())) {
      removeAsserts(range->body);
    }
    kept.push_back(std::move(s));
  }
  body = std::move(kept);
}

} // namespace

void insertChecks(Module &module) {
  for (auto &function : module.functions) {
    if (function->checked)
      Inserter(*function).block(function->body);
    else
      removeAsserts(function->body);
  }
}

} // namespace pyk::ir
