//===- SemaFlow.cpp - Definite assignment across branches and loops -------===//
//
// Which locals are assigned on every path to a statement. Numba accepts a
// local that some path leaves unassigned (its value there is whatever the
// register held); pyk accepts it too, with a warning naming the path, and
// the local starts at 0 so that such a read is never undefined (ASTToIR
// declares every local not first assigned at the top level with 0).
// A loop that runs at least once, `for _ in range(2)`, assigns what its
// body assigns. Not for the types of locals: that is SemaUnification.cpp.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include <string>

namespace pyk {
namespace sema {

using namespace ast;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

std::string lineOf(SourceRange range) { return "line " + std::to_string(range.begin.line); }

} // namespace

Sema::FlowState Sema::mergeBranches(const IfStmt &stmt, FlowState afterThen, FlowState afterElse) const {
  // A branch that returned does not count against a local.
  if (afterThen.returned)
    return afterElse;
  if (afterElse.returned)
    return afterThen;
  FlowState merged = afterElse;
  merged.maybeAssigned.insert(afterThen.maybeAssigned.begin(), afterThen.maybeAssigned.end());
  merged.unassignedOn.insert(afterThen.unassignedOn.begin(), afterThen.unassignedOn.end());
  merged.assigned.clear();
  const std::string where = std::string(stmt.isElif ? "the 'elif' on " : "the 'if' on ") + lineOf(stmt.range());
  // A path inside a branch that leaves the local unassigned is the more
  // precise one; else the branch that does not assign it.
  auto noteSkipped = [&](const FlowState &assigning, const FlowState &other, const std::string &path) {
    for (const Symbol *symbol : assigning.assigned) {
      if (other.assigned.count(symbol))
        merged.assigned.insert(symbol);
      else if (!other.unassignedOn.count(symbol))
        merged.unassignedOn[symbol] = path;
      else
        merged.unassignedOn[symbol] = other.unassignedOn.at(symbol);
    }
  };
  noteSkipped(afterThen, afterElse, "when " + where + " is false");
  noteSkipped(afterElse, afterThen, "when " + where + " is true");
  return merged;
}

Sema::FlowState Sema::afterLoop(SourceRange loop, FlowState before, FlowState afterBody, bool runsToEnd,
                                bool runsZeroTimes) const {
  if (runsToEnd) {
    // Whether the body returned does not carry over: a path through the
    // loop still reaches the statement after it as far as the backends know.
    afterBody.returned = before.returned;
    return afterBody;
  }
  const std::string path = "when the loop on " + lineOf(loop) +
                           (runsZeroTimes ? " runs zero times" : " leaves its body by 'break' or 'continue'");
  for (const Symbol *symbol : afterBody.maybeAssigned) {
    if (before.assigned.count(symbol))
      continue;
    auto inBody = afterBody.unassignedOn.find(symbol);
    if (!afterBody.assigned.count(symbol) && inBody != afterBody.unassignedOn.end())
      before.unassignedOn[symbol] = inBody->second;
    else if (!before.unassignedOn.count(symbol))
      before.unassignedOn[symbol] = path;
  }
  before.maybeAssigned.insert(afterBody.maybeAssigned.begin(), afterBody.maybeAssigned.end());
  return before;
}

bool Sema::runsAtLeastOnce(const ForStmt &stmt) {
  auto valueOf = [](const ExprPtr *bound, int64_t absent) -> std::optional<int64_t> {
    if (!bound)
      return absent;
    const auto &constant = (*bound)->constant;
    if (!constant || constant->kind != ConstantValue::Kind::Int || constant->exceedsInt64)
      return std::nullopt;
    return constant->intValue;
  };
  if (!stmt.rangeStop)
    return false; // range() was rejected
  const auto start = valueOf(stmt.rangeStart, 0);
  const auto stop = valueOf(stmt.rangeStop, 0);
  const auto step = valueOf(stmt.rangeStep, 1);
  if (!start || !stop || !step || *step == 0)
    return false;
  return *step > 0 ? *start < *stop : *start > *stop;
}

bool Sema::leavesEarly(const StmtList &body, bool orContinue) {
  for (const StmtPtr &stmt : body) {
    if (isa<BreakStmt>(*stmt) || (orContinue && isa<ContinueStmt>(*stmt)))
      return true;
    if (auto *branch = dyn_cast<IfStmt>(stmt.get());
        branch && (leavesEarly(branch->thenBody, orContinue) || leavesEarly(branch->elseBody, orContinue)))
      return true;
    // A nested loop's body has its own break and continue; its `else`
    // belongs to this loop.
    if (auto *loop = dyn_cast<ForStmt>(stmt.get()); loop && leavesEarly(loop->elseBody, orContinue))
      return true;
    if (auto *loop = dyn_cast<WhileStmt>(stmt.get()); loop && leavesEarly(loop->elseBody, orContinue))
      return true;
  }
  return false;
}

void Sema::warnMaybeUnassigned(const NameExpr &read, const Symbol &symbol) {
  auto path = flow_.unassignedOn.find(&symbol);
  warning(read.range()) << "local variable '" << read.name << "' is not assigned on every path to here"
                        << (path != flow_.unassignedOn.end() ? " (not " + path->second + ")" : std::string())
                        << "; there it reads 0";
}

} // namespace sema
} // namespace pyk
