//===- GuardWalk.h - What tests and loops say about integer variables -----===//
//
// The guard analysis is a forward walk over the structured IR that carries,
// at each point, facts about integer variables: a lower bound `v >= c` and
// upper bounds `v < extent + c`, where `extent` is an array's extent along
// an axis (or 0, for constant bounds). Tests add facts to the code they
// dominate; an assignment to a variable kills its facts; the two sides of
// an `if` meet with the facts both keep; a side that always leaves
// (return, break, continue) keeps nothing, so `if i >= n: return` bounds i
// for the rest of the block; a loop starts from the facts about variables
// its body does not assign.
//
// Variables assigned once (declared with a value and never reassigned) are
// replaced by their definition where it is `w + c`, so `j = i + 1` is
// bounded by the tests on i, and a variable defined from thread and block
// indices gets its lower bound from the ranges CUDA gives those registers.
//
// Checked mode (PlanChecks) and the wraparound of negative indices
// (WrapNegativeIndices) each decide, at every array access, from the facts
// that hold there.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_GUARDWALK_H
#define PYK_IR_PASSES_GUARDWALK_H

#include "IR.h"
#include "IndexAlgebra.h"

#include <optional>
#include <set>
#include <string>

namespace pyk::ir {

/// Facts per variable; nullopt where no path arrives (after a return).
using Flow = std::optional<Env>;

class GuardWalk {
public:
  explicit GuardWalk(Function &function) : function_(function), algebra_(function) {}
  virtual ~GuardWalk() = default;

  /// Walks the function's body once, calling the hooks in program order.
  void run() { block(function_.body, Env{}); }

protected:
  /// An array access (load, store or atomic) after its indices were
  /// walked: `env` holds where the access is.
  virtual void access(const Variable *array, std::vector<ExprPtr> &indices, std::vector<CheckSiteId> &boundsChecks,
                      const Env &env, SourceRange loc) = 0;
  /// An integer `//` or `%`, after its operands were walked.
  virtual void division(Binary &, const Env &) {}
  /// A negative index that lowering made (a view's `m[i]`), after its
  /// operands.
  virtual void wrapIndex(WrapIndex &, const Env &) {}
  virtual void assertion(Assert &) {}

  /// The least value `index` may have where `env` holds, when the facts
  /// bound it; `why` says where the bound comes from, or why there is none.
  std::optional<WideInt> lowerBound(const Expr &index, const Env &env, std::string &why) const;

  Function &function_;
  IndexAlgebra algebra_;

private:
  // --- Facts ------------------------------------------------------------------
  static CompareOp swapped(CompareOp op);
  static CompareOp negated(CompareOp op);
  static void addLower(Env &env, const Variable *var, int64_t lower, const std::string &why);
  /// `var + offset  op  bound` holds.
  static void addComparison(Env &env, Linear value, CompareOp op, Limit bound, SourceRange at);
  /// Adds what `condition` being `truth` says about variables.
  void addFacts(Env &env, const Expr &condition, bool truth) const;
  static Flow join(const Flow &a, const Flow &b);
  /// `var = value`: var's old facts die; when value is `u + c`, var gets
  /// u's facts shifted by c (a loop counter copied into the user's
  /// variable, say), and the values `value` may take bound it below.
  void assigned(Env &env, const Variable *var, const Expr *value, SourceRange at) const;
  Env without(Env env, const std::set<const Variable *> &killed) const;
  // --- The walk -------------------------------------------------------------
  Flow block(StmtList &body, Env env);
  Flow stmt(Stmt &s, Env env);
  Flow forRange(ForRange &loop, Env env);
  void expr(Expr &e, const Env &env);
};

} // namespace pyk::ir

#endif // PYK_IR_PASSES_GUARDWALK_H
