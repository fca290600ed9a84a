//===- GuardWalk.cpp - What tests and loops say about integer variables ---===//
#include "GuardWalk.h"

#include "IRWalk.h"

#include "llvm/Support/Casting.h"

#include <algorithm>

namespace pyk::ir {

using llvm::cast;
using llvm::dyn_cast;

CompareOp GuardWalk::swapped(CompareOp op) {
  switch (op) {
  case CompareOp::Lt:
    return CompareOp::Gt;
  case CompareOp::Le:
    return CompareOp::Ge;
  case CompareOp::Gt:
    return CompareOp::Lt;
  case CompareOp::Ge:
    return CompareOp::Le;
  case CompareOp::Eq:
  case CompareOp::Ne:
    return op;
  }
  return op;
}

CompareOp GuardWalk::negated(CompareOp op) {
  switch (op) {
  case CompareOp::Lt:
    return CompareOp::Ge;
  case CompareOp::Le:
    return CompareOp::Gt;
  case CompareOp::Gt:
    return CompareOp::Le;
  case CompareOp::Ge:
    return CompareOp::Lt;
  case CompareOp::Eq:
    return CompareOp::Ne;
  case CompareOp::Ne:
    return CompareOp::Eq;
  }
  return op;
}

void GuardWalk::addLower(Env &env, const Variable *var, int64_t lower, const std::string &why) {
  Facts &facts = env[var];
  if (!facts.lower || *facts.lower < lower) {
    facts.lower = lower;
    facts.lowerWhy = why;
  }
}

/// `var + offset  op  bound` holds.
void GuardWalk::addComparison(Env &env, Linear value, CompareOp op, Limit bound, SourceRange at) {
  const std::string from = "by the test at " + position(at);
  bound.why = from;
  switch (op) {
  case CompareOp::Lt:
    bound.offset -= value.offset;
    env[value.var].uppers.push_back(bound);
    return;
  case CompareOp::Le:
    bound.offset -= value.offset - 1;
    env[value.var].uppers.push_back(bound);
    return;
  case CompareOp::Gt:
    if (!bound.array)
      addLower(env, value.var, bound.offset - value.offset + 1, from);
    return;
  case CompareOp::Ge:
    if (!bound.array)
      addLower(env, value.var, bound.offset - value.offset, from);
    return;
  case CompareOp::Eq:
    if (!bound.array)
      addLower(env, value.var, bound.offset - value.offset, from);
    bound.offset -= value.offset - 1;
    env[value.var].uppers.push_back(bound);
    return;
  case CompareOp::Ne:
    return;
  }
}

/// Adds what `condition` being `truth` says about variables.
void GuardWalk::addFacts(Env &env, const Expr &condition, bool truth) const {
  if (auto *logical = dyn_cast<Logical>(&condition)) {
    // (a and b) true, or (a or b) false: both sides hold (negated).
    if ((logical->op == LogicalOp::And) == truth) {
      addFacts(env, *logical->lhs, truth);
      addFacts(env, *logical->rhs, truth);
    }
    return;
  }
  if (auto *unary = dyn_cast<Unary>(&condition); unary && unary->op == UnaryOp::Not)
    return addFacts(env, *unary->operand, !truth);
  auto *compare = dyn_cast<Compare>(&condition);
  if (!compare || !typeRange(compare->lhs->type()))
    return;
  const CompareOp op = truth ? compare->op : negated(compare->op);
  std::optional<Linear> lhs = algebra_.linear(*compare->lhs), rhs = algebra_.linear(*compare->rhs);
  std::optional<Limit> lhsLimit = algebra_.limit(*compare->lhs), rhsLimit = algebra_.limit(*compare->rhs);
  if (lhs && lhs->var && rhsLimit)
    addComparison(env, *lhs, op, *rhsLimit, condition.loc());
  else if (rhs && rhs->var && lhsLimit)
    addComparison(env, *rhs, swapped(op), *lhsLimit, condition.loc());
}

Flow GuardWalk::join(const Flow &a, const Flow &b) {
  if (!a)
    return b;
  if (!b)
    return a;
  Env result;
  for (const auto &[var, fa] : *a) {
    auto it = b->find(var);
    if (it == b->end())
      continue;
    const Facts &fb = it->second;
    Facts both;
    if (fa.lower && fb.lower) {
      both.lower = std::min(*fa.lower, *fb.lower);
      both.lowerWhy = *fa.lower <= *fb.lower ? fa.lowerWhy : fb.lowerWhy;
    }
    for (const Limit &la : fa.uppers)
      for (const Limit &lb : fb.uppers)
        if (la.array == lb.array && la.axis == lb.axis)
          both.uppers.push_back(la.offset >= lb.offset ? la : lb);
    result[var] = both;
  }
  return result;
}

/// `var = value`: var's old facts die; when value is `u + c`, var gets
/// u's facts shifted by c (a loop counter copied into the user's
/// variable, say), and the values `value` may take bound it below.
void GuardWalk::assigned(Env &env, const Variable *var, const Expr *value, SourceRange at) const {
  Facts facts;
  if (value && !algebra_.isStable(var) && var->type.isScalar()) {
    if (std::optional<Linear> from = algebra_.linear(*value); from && from->var && from->var != var) {
      if (auto it = env.find(from->var); it != env.end()) {
        facts = it->second;
        if (facts.lower)
          *facts.lower += from->offset;
        for (Limit &bound : facts.uppers)
          bound.offset += from->offset;
      }
    }
    if (std::optional<Interval> range = algebra_.interval(*value);
        range && range->lo > INT64_MIN && range->lo < INT64_MAX && (!facts.lower || range->lo > *facts.lower)) {
      facts.lower = static_cast<int64_t>(range->lo);
      facts.lowerWhy = "by its assignment at " + position(at);
    }
  }
  env = without(std::move(env), {var});
  if (facts.lower || !facts.uppers.empty())
    env[var] = std::move(facts);
}

Env GuardWalk::without(Env env, const std::set<const Variable *> &killed) const {
  for (const Variable *var : algebra_.withAtoms(killed))
    env.erase(var);
  // A view local given another array: bounds by its old extents die too.
  for (auto &[var, facts] : env)
    std::erase_if(facts.uppers, [&](const Limit &limit) { return killed.count(limit.array) != 0; });
  return env;
}

Flow GuardWalk::block(StmtList &body, Env env) {
  Flow flow = std::move(env);
  for (StmtPtr &s : body) {
    // Code no path reaches is still planned, knowing nothing.
    Flow after = stmt(*s, flow ? *flow : Env{});
    if (flow)
      flow = std::move(after);
  }
  return flow;
}

Flow GuardWalk::stmt(Stmt &s, Env env) {
  switch (s.kind()) {
  case NodeKind::Declare: {
    auto &d = cast<Declare>(s);
    if (d.init)
      expr(*d.init, env);
    assigned(env, d.var, d.init.get(), s.loc());
    return env;
  }
  case NodeKind::Assign: {
    auto &a = cast<Assign>(s);
    expr(*a.value, env);
    assigned(env, a.var, a.value.get(), s.loc());
    return env;
  }
  case NodeKind::ArrayStore: {
    auto &st = cast<ArrayStore>(s);
    for (ExprPtr &index : st.indices)
      expr(*index, env);
    access(st.array, st.indices, st.boundsChecks, env, s.loc());
    expr(*st.value, env);
    return env;
  }
  case NodeKind::If: {
    auto &i = cast<If>(s);
    expr(*i.condition, env);
    Env thenEnv = env, elseEnv = env;
    addFacts(thenEnv, *i.condition, true);
    addFacts(elseEnv, *i.condition, false);
    Flow thenFlow = block(i.thenBody, std::move(thenEnv));
    Flow elseFlow = block(i.elseBody, std::move(elseEnv));
    return join(thenFlow, elseFlow);
  }
  case NodeKind::While: {
    auto &loop = cast<While>(s);
    Env base = without(std::move(env), assignedVariables(loop.body));
    expr(*loop.condition, base);
    Env bodyEnv = base;
    addFacts(bodyEnv, *loop.condition, true);
    block(loop.body, std::move(bodyEnv));
    return base;
  }
  case NodeKind::ForRange:
    return forRange(cast<ForRange>(s), std::move(env));
  case NodeKind::Print:
    for (Print::Part &part : cast<Print>(s).parts)
      if (part.value)
        expr(*part.value, env);
    return env;
  case NodeKind::Evaluate:
    expr(*cast<Evaluate>(s).call, env);
    return env;
  case NodeKind::Assert: {
    auto &a = cast<Assert>(s);
    expr(*a.condition, env);
    assertion(a);
    return env;
  }
  case NodeKind::Return:
    if (ExprPtr &value = cast<Return>(s).value)
      expr(*value, env);
    return std::nullopt;
  case NodeKind::Break:
  case NodeKind::Continue:
    return std::nullopt;
#define PYK_IR_EXPR(Name) case NodeKind::Name:
#include "IRNodes.def"
    break;
  }
  return env;
}

Flow GuardWalk::forRange(ForRange &loop, Env env) {
  expr(*loop.start, env);
  expr(*loop.stop, env);
  expr(*loop.step, env);
  std::set<const Variable *> written = assignedVariables(loop.body);
  written.insert(loop.var);
  Env base = without(std::move(env), written);
  Env bodyEnv = base;
  std::optional<Interval> step = algebra_.interval(*loop.step);
  const bool up = loop.stepSign > 0 || (loop.stepSign == 0 && step && step->lo >= 1);
  const bool down = loop.stepSign < 0 || (loop.stepSign == 0 && step && step->hi <= -1);
  if (!algebra_.isAssignedLoopCounter(loop.var) && (up || down)) {
    const Expr &first = *loop.start, &end = *loop.stop;
    // Counting up: start <= var < stop; down: stop < var <= start.
    const Expr &lowEnd = up ? first : end;
    const std::string why = "by the loop at " + position(loop.loc());
    if (std::optional<Interval> low = algebra_.interval(lowEnd); low && low->lo > INT64_MIN && low->lo < INT64_MAX)
      addLower(bodyEnv, loop.var, static_cast<int64_t>(low->lo) + (up ? 0 : 1), why);
    if (std::optional<Limit> high = algebra_.limit(up ? end : first)) {
      high->offset += up ? 0 : 1;
      high->why = why;
      bodyEnv[loop.var].uppers.push_back(*high);
    }
  }
  block(loop.body, std::move(bodyEnv));
  return base;
}

void GuardWalk::expr(Expr &e, const Env &env) {
  switch (e.kind()) {
  case NodeKind::Logical: {
    // The right side runs only when the left side decided nothing.
    auto &l = cast<Logical>(e);
    expr(*l.lhs, env);
    Env rhsEnv = env;
    addFacts(rhsEnv, *l.lhs, l.op == LogicalOp::And);
    expr(*l.rhs, rhsEnv);
    return;
  }
  case NodeKind::Select: {
    auto &s = cast<Select>(e);
    expr(*s.condition, env);
    Env thenEnv = env, elseEnv = env;
    addFacts(thenEnv, *s.condition, true);
    addFacts(elseEnv, *s.condition, false);
    expr(*s.thenValue, thenEnv);
    expr(*s.elseValue, elseEnv);
    return;
  }
  case NodeKind::ArrayLoad: {
    auto &l = cast<ArrayLoad>(e);
    for (ExprPtr &index : l.indices)
      expr(*index, env);
    access(l.array, l.indices, l.boundsChecks, env, e.loc());
    return;
  }
  case NodeKind::Atomic: {
    auto &a = cast<Atomic>(e);
    for (ExprPtr &index : a.indices)
      expr(*index, env);
    if (a.compare)
      expr(*a.compare, env);
    expr(*a.value, env);
    access(a.array, a.indices, a.boundsChecks, env, e.loc());
    return;
  }
  case NodeKind::Binary: {
    auto &b = cast<Binary>(e);
    expr(*b.lhs, env);
    expr(*b.rhs, env);
    if ((b.op == BinaryOp::FloorDiv || b.op == BinaryOp::Mod) && typeRange(b.type()))
      division(b, env);
    return;
  }
  case NodeKind::Constant:
  case NodeKind::VarRef:
  case NodeKind::Cast:
  case NodeKind::Unary:
  case NodeKind::DivisorCheck: // made after the guard analysis, as is CheckFailed
  case NodeKind::CheckFailed:
  case NodeKind::Let: // its local is known to no test
  case NodeKind::Compare:
  case NodeKind::SpecialReg:
  case NodeKind::ArrayDim:
  case NodeKind::ArrayStride:
  case NodeKind::ArrayView:
  case NodeKind::MathCall:
  case NodeKind::LibdeviceCall:
  case NodeKind::Call:
  case NodeKind::ForeignCall:
  case NodeKind::GpuOp:
  case NodeKind::ComplexMake:
  case NodeKind::ComplexPart:
    forEachOperand(e, [&](const Expr &operand) { expr(const_cast<Expr &>(operand), env); });
    return;
  case NodeKind::WrapIndex:
    forEachOperand(e, [&](const Expr &operand) { expr(const_cast<Expr &>(operand), env); });
    wrapIndex(cast<WrapIndex>(e), env);
    return;
#define PYK_IR_STMT(Name) case NodeKind::Name:
#include "IRNodes.def"
    return;
  }
}
std::optional<WideInt> GuardWalk::lowerBound(const Expr &index, const Env &env, std::string &why) const {
  std::optional<Linear> value = algebra_.linear(index);
  if (!value) {
    // Not `v + c`: what its terms' ranges give.
    if (std::optional<Interval> range = algebra_.interval(index, &env)) {
      why = "from the values its terms may take";
      return range->lo;
    }
    why = "the index is not a variable plus a constant, which is all the guard analysis follows";
    return std::nullopt;
  }
  if (!value->var) {
    why = "it is a constant";
    return value->offset;
  }
  const Variable *var = value->var;
  // A test, or how the variable is defined.
  auto facts = env.find(var);
  std::optional<WideInt> lower;
  if (facts != env.end() && facts->second.lower) {
    lower = *facts->second.lower;
    why = facts->second.lowerWhy;
  }
  if (const Expr *atomExpr = algebra_.atomExpression(var)) {
    if (std::optional<Interval> range = algebra_.interval(*atomExpr, &env); range && (!lower || range->lo > *lower)) {
      lower = range->lo;
      why = "as its terms are non-negative";
    }
  } else if (const Expr *init = algebra_.definition(var)) {
    if (std::optional<Interval> defined = algebra_.interval(*init); defined && (!lower || defined->lo > *lower)) {
      lower = defined->lo;
      why = "by its definition at " + position(var->range);
    }
  } else if (std::optional<Interval> range = typeRange(var->type); range && range->lo == 0 && !lower) {
    lower = 0;
    why = "as it is unsigned";
  }
  if (!lower) {
    why = "no test or definition bounds " + var->name + " below";
    return std::nullopt;
  }
  return *lower + value->offset;
}

} // namespace pyk::ir
