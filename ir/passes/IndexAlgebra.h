//===- IndexAlgebra.h - How the guard analysis reads integer expressions --===//
//
// Checked mode's guard analysis (PlanChecks.cpp) proves `0 <= index <
// extent` from facts about variables. This is what it knows about
// expressions: the values one may take (interval), an index as a variable
// plus a constant (linear), a bound as an array's extent plus a constant
// (limit), and any other pure integer expression as an "atom", a variable
// of its own, so that a test of `tx + i * 16` bounds an access at
// `tx + i * 16`.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_INDEXALGEBRA_H
#define PYK_IR_PASSES_INDEXALGEBRA_H

#include "IR.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pyk::ir {

__extension__ typedef __int128 WideInt;

/// `v < limit`: limit is dim(array, axis) + offset, or the constant offset
/// when array is null. `why` names the test or loop it came from.
struct Limit {
  const Variable *array = nullptr;
  unsigned axis = 0;
  int64_t offset = 0;
  std::string why;
};

/// What holds for a variable at one point of a function.
struct Facts {
  std::optional<int64_t> lower; ///< v >= lower
  std::string lowerWhy;
  std::vector<Limit> uppers; ///< v < each
};

/// Facts per variable (atoms included).
using Env = std::map<const Variable *, Facts>;

/// An integer expression as `var + offset` (a constant when var is null).
struct Linear {
  const Variable *var = nullptr;
  int64_t offset = 0;
};

struct Interval {
  WideInt lo, hi;
};

/// The values of an integer type; nullopt for other types.
std::optional<Interval> typeRange(const Type &type);

/// "x.shape[0] - 1", or the constant.
std::string limitText(const Limit &limit);

/// "line:column".
std::string position(SourceRange range);

class IndexAlgebra {
public:
  /// Learns which of `function`'s variables are stable. `assumeIndexSums`:
  /// the assumption interval() states below; without it every interval is
  /// sound, overflow or not.
  explicit IndexAlgebra(const Function &function, bool assumeIndexSums = true);

  /// Stable variables have one value for their whole life: parameters
  /// never assigned, and locals declared once with a value and never
  /// assigned. Their definition (null for a parameter).
  bool isStable(const Variable *var) const { return stable_.count(var) != 0; }
  const Expr *definition(const Variable *var) const;

  /// A `for` counter the loop's body assigns: nothing the loop says about
  /// it holds.
  bool isAssignedLoopCounter(const Variable *var) const { return assignedLoopVars_.count(var) != 0; }

  /// The values `e` may take, from constants, the ranges of the thread and
  /// block registers, the definitions of stable variables and, given `env`,
  /// the lower bounds tests and loops put on other variables.
  ///
  /// One assumption: int64 sums and products of non-negative values do not
  /// overflow (that takes values of 2^63; an index never gets near), so
  /// their upper end saturates rather than making the result unknown.
  std::optional<Interval> interval(const Expr &e, const Env *env = nullptr, unsigned depth = 0) const;

  /// `e` as a variable (or atom) plus a constant, looking through casts
  /// that keep the value and through stable variables' definitions.
  std::optional<Linear> linear(const Expr &e, unsigned depth = 0) const;

  /// `e` as a bound: an array's extent plus a constant, or a constant.
  std::optional<Limit> limit(const Expr &e, unsigned depth = 0) const;

  /// `killed` and the atoms that read any of them.
  std::set<const Variable *> withAtoms(std::set<const Variable *> killed) const;

  /// The expression an atom stands for; null for a real variable.
  const Expr *atomExpression(const Variable *var) const;

  /// "tx + (i * 16)": `e` as messages name it.
  static std::string describe(const Expr &e);

private:
  /// A variable that a stable variable's definition may refer to: one
  /// that never changes once defined (a loop counter changes only between
  /// iterations, when whatever was defined from it is defined again).
  bool isStableBase(const Variable *var) const;

  /// A conversion that keeps every value of its operand.
  static bool keepsValue(const Cast &c);

  /// A pure integer expression (no loads, calls or effects): its value
  /// changes only when a variable it reads is assigned.
  static bool isPure(const Expr &e);

  /// The atom of a pure expression that is not a variable or a constant;
  /// the same expression over the same variables is the same atom.
  const Variable *atom(const Expr &e) const;

  bool assumeIndexSums_;
  std::map<const Variable *, const Expr *> stable_;
  std::set<const Variable *> loopVars_;
  std::set<const Variable *> assignedLoopVars_;
  mutable std::map<std::string, std::unique_ptr<Variable>> atoms_;
  mutable std::map<const Variable *, const Expr *> atomExpressions_;
  mutable std::map<const Variable *, std::set<const Variable *>> atomReads_;
};

} // namespace pyk::ir

#endif // PYK_IR_PASSES_INDEXALGEBRA_H
