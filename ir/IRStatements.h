//===- IRStatements.h - pyk IR: statements --------------------------------===//
//
// The IR's statements: structured control flow over the expressions of
// IRExpressions.h.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_IRSTATEMENTS_H
#define PYK_IR_IRSTATEMENTS_H

#include "IRExpressions.h"

#include <string>
#include <vector>

namespace pyk::ir {

#define PYK_IR_CLASSOF(Name)                                                                                       \
  static bool classof(const Node *node) { return node->kind() == NodeKind::Name; }

class Declare : public Stmt {
public:
  Declare(SourceRange loc, const Variable *var, ExprPtr init)
      : Stmt(NodeKind::Declare, loc), var(var), init(std::move(init)) {}
  PYK_IR_CLASSOF(Declare)
  const Variable *var;
  ExprPtr init; // may be null
};

class Assign : public Stmt {
public:
  Assign(SourceRange loc, const Variable *var, ExprPtr value)
      : Stmt(NodeKind::Assign, loc), var(var), value(std::move(value)) {}
  PYK_IR_CLASSOF(Assign)
  const Variable *var;
  ExprPtr value;
};

class ArrayStore : public Stmt {
public:
  ArrayStore(SourceRange loc, const Variable *array, std::vector<ExprPtr> indices, ExprPtr value, int field = -1)
      : Stmt(NodeKind::ArrayStore, loc), array(array), indices(std::move(indices)), value(std::move(value)),
        field(field) {}
  PYK_IR_CLASSOF(ArrayStore)
  const Variable *array;
  std::vector<ExprPtr> indices;
  ExprPtr value;
  /// As ArrayLoad's: the field of a record written, or -1.
  int field;
  /// As ArrayLoad's: a failed check drops the store (the value is still
  /// evaluated, first, as Python evaluates it).
  std::vector<CheckSiteId> boundsChecks;
  /// As ArrayLoad's.
  bool narrowOffset = false;
};

class If : public Stmt {
public:
  If(SourceRange loc, ExprPtr condition, StmtList thenBody, StmtList elseBody)
      : Stmt(NodeKind::If, loc), condition(std::move(condition)), thenBody(std::move(thenBody)),
        elseBody(std::move(elseBody)) {}
  PYK_IR_CLASSOF(If)
  /// The If that is the whole else body (an `elif`), or null: printers
  /// follow these in a loop, so a long elif chain prints flat.
  const If *elseIf() const {
    return elseBody.size() == 1 ? llvm::dyn_cast<If>(elseBody.front().get()) : nullptr;
  }
  ExprPtr condition;
  StmtList thenBody;
  StmtList elseBody;
};

class While : public Stmt {
public:
  While(SourceRange loc, ExprPtr condition, StmtList body)
      : Stmt(NodeKind::While, loc), condition(std::move(condition)), body(std::move(body)) {}
  PYK_IR_CLASSOF(While)
  ExprPtr condition;
  StmtList body;
};

/// for (var = start; step > 0 ? var < stop : step < 0 && var > stop; var += step)
///   body
/// (a zero step runs no iteration, where Python raises ValueError).
///
/// `var` is declared by the loop and lives in its body. `stop` and `step`
/// are evaluated once, before the first iteration, so lowering makes them
/// constants or variables the body does not assign. All four share var's
/// integer type.
class ForRange : public Stmt {
public:
  /// The sign of `step` when it is a constant; 0 when it is known only at
  /// run time.
  ForRange(SourceRange loc, const Variable *var, ExprPtr start, ExprPtr stop, ExprPtr step, int stepSign,
           StmtList body)
      : Stmt(NodeKind::ForRange, loc), var(var), start(std::move(start)), stop(std::move(stop)),
        step(std::move(step)), stepSign(stepSign), body(std::move(body)) {}
  PYK_IR_CLASSOF(ForRange)

  /// A constant step of 1 (or -1 on a signed counter): `v < stop; ++v`
  /// then never carries v past stop. Any other step can overshoot stop by
  /// up to step - 1 and wrap around the type's end, so the loop counts its
  /// iterations instead (tripCount).
  bool hasUnitStep() const {
    auto *constant = llvm::dyn_cast<Constant>(step.get());
    return constant && (constant->intValue == 1 || (constant->intValue == -1 && isSignedInteger(var->type.scalar)));
  }

  const Variable *var;
  ExprPtr start;
  ExprPtr stop;
  ExprPtr step;
  int stepSign;
  StmtList body;
  /// Where the step is not a unit one, lowerPythonOps sets this to Python's
  /// len(range(start, stop, step)), in the unsigned type of the counter's
  /// width, evaluated once after the counter takes `start` (it may read the
  /// counter): the loop then runs that many times, the counter being
  /// start + k * step (wrapping) on iteration k, and tests nothing else.
  ExprPtr tripCount;
};

class Break : public Stmt {
public:
  explicit Break(SourceRange loc) : Stmt(NodeKind::Break, loc) {}
  PYK_IR_CLASSOF(Break)
};

class Continue : public Stmt {
public:
  explicit Continue(SourceRange loc) : Stmt(NodeKind::Continue, loc) {}
  PYK_IR_CLASSOF(Continue)
};

/// print(...): the parts in order, each a piece of text or a scalar value
/// (Python's separators and line end are already text parts).
class Print : public Stmt {
public:
  struct Part {
    std::string text; // used when value is null
    ExprPtr value;
    /// A float printed with its sign, `+` too: a complex number's
    /// imaginary part, as in `(1.5-2j)`.
    bool withSign = false;
  };
  Print(SourceRange loc, std::vector<Part> parts) : Stmt(NodeKind::Print, loc), parts(std::move(parts)) {}
  PYK_IR_CLASSOF(Print)
  std::vector<Part> parts;

  /// The printf format and, in order, the values it formats: bools as
  /// "%s" (True/False), signed integers "%lld", unsigned "%llu", floats "%g";
  /// '%' in text is escaped.
  std::string format() const;
};

/// A call, GPU operation, atomic or CheckFailed whose value, if any, is
/// unused.
class Evaluate : public Stmt {
public:
  Evaluate(SourceRange loc, ExprPtr call) : Stmt(NodeKind::Evaluate, loc), call(std::move(call)) {}
  PYK_IR_CLASSOF(Evaluate)
  ExprPtr call;
};

/// `assert condition`: in checked functions a false condition is reported
/// (execution goes on); elsewhere it is not evaluated at all, as Numba
/// compiles asserts out. insertChecks writes it as an If of a CheckFailed,
/// or removes it.
class Assert : public Stmt {
public:
  Assert(SourceRange loc, ExprPtr condition, std::string message)
      : Stmt(NodeKind::Assert, loc), condition(std::move(condition)), message(std::move(message)) {}
  PYK_IR_CLASSOF(Assert)
  ExprPtr condition;
  /// The assert's message, or its condition as the source spells it.
  std::string message;
  CheckSiteId check = NoCheck;
};

class Return : public Stmt {
public:
  /// `value` is null in a function that returns nothing.
  Return(SourceRange loc, ExprPtr value) : Stmt(NodeKind::Return, loc), value(std::move(value)) {}
  PYK_IR_CLASSOF(Return)
  ExprPtr value;
};

#undef PYK_IR_CLASSOF

} // namespace pyk::ir

#endif // PYK_IR_IRSTATEMENTS_H
