//===- PlanChecks.cpp - Checked mode: which accesses need a run-time check ===//
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
//===----------------------------------------------------------------------===//
#include "PlanChecks.h"

#include "IRWalk.h"

#include "llvm/Support/Casting.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace pyk::ir {

namespace {

using llvm::cast;
using llvm::dyn_cast;
__extension__ typedef __int128 Wide;

/// `v < limit`: limit is dim(array, axis) + offset, or the constant offset
/// when array is null. `why` names the test or loop it came from.
struct Limit {
  const Variable *array = nullptr;
  unsigned axis = 0;
  int64_t offset = 0;
  std::string why;
};

struct Facts {
  std::optional<int64_t> lower;
  std::string lowerWhy;
  std::vector<Limit> uppers;
};

/// Facts per variable; nullopt where no path arrives (after a return).
using Env = std::map<const Variable *, Facts>;
using Flow = std::optional<Env>;

/// An integer expression as `var + offset` (a constant when var is null).
struct Linear {
  const Variable *var = nullptr;
  int64_t offset = 0;
};

struct Interval {
  Wide lo, hi;
};

std::optional<Interval> typeRange(const Type &type) {
  if (!type.isScalar() || !isInteger(type.scalar))
    return std::nullopt;
  const unsigned bits = byteWidth(type.scalar) * 8;
  if (isSignedInteger(type.scalar))
    return Interval{-(Wide(1) << (bits - 1)), (Wide(1) << (bits - 1)) - 1};
  return Interval{0, (Wide(1) << bits) - 1};
}

bool fits(const Interval &value, const Type &type) {
  std::optional<Interval> range = typeRange(type);
  return range && value.lo >= range->lo && value.hi <= range->hi;
}

std::string limitText(const Limit &limit) {
  if (!limit.array)
    return std::to_string(limit.offset);
  std::string text = limit.array->name + ".shape[" + std::to_string(limit.axis) + "]";
  if (limit.offset > 0)
    text += " + " + std::to_string(limit.offset);
  else if (limit.offset < 0)
    text += " - " + std::to_string(-limit.offset);
  return text;
}

std::string position(SourceRange range) {
  return std::to_string(range.begin.line) + ":" + std::to_string(range.begin.column);
}

class Planner {
public:
  Planner(Module &module, Function &function, DiagnosticEngine *remarks)
      : module_(module), function_(function), remarks_(remarks) {}

  void run() {
    findStableVariables();
    block(function_.body, Env{});
  }

private:
  // --- What the function's variables are ------------------------------------
  /// Stable variables have one value for their whole life: parameters never
  /// assigned, and locals declared once with a value and never assigned.
  void findStableVariables() {
    std::map<const Variable *, int> writes;
    std::map<const Variable *, const Expr *> init;
    forEachStmt(function_.body, [&](const Stmt &s) {
      if (auto *declare = dyn_cast<Declare>(&s)) {
        writes[declare->var] += declare->init ? 1 : 2;
        init[declare->var] = declare->init.get();
      } else if (auto *assign = dyn_cast<Assign>(&s)) {
        writes[assign->var] += 2;
      } else if (auto *loop = dyn_cast<ForRange>(&s)) {
        forEachStmt(loop->body, [&](const Stmt &inner) {
          if (auto *write = dyn_cast<Assign>(&inner); write && write->var == loop->var)
            assignedLoopVars_.insert(loop->var);
        });
        loopVars_.insert(loop->var);
      }
    });
    for (const Variable *param : function_.params)
      if (!writes.count(param))
        stable_[param] = nullptr;
    for (auto [var, count] : writes)
      if (count == 1 && var->kind == Variable::Kind::Local)
        stable_[var] = init[var];
  }

  /// A variable that a stable variable's definition may refer to: one that
  /// never changes once defined (a loop counter changes only between
  /// iterations, when whatever was defined from it is defined again).
  bool isStableBase(const Variable *var) const {
    return stable_.count(var) || (loopVars_.count(var) && !assignedLoopVars_.count(var));
  }

  const Expr *definition(const Variable *var) const {
    auto it = stable_.find(var);
    return it == stable_.end() ? nullptr : it->second;
  }

  // --- Expressions as the analysis sees them --------------------------------
  /// The values `e` may take, from constants, the ranges of the thread and
  /// block registers, the definitions of stable variables and, given `env`,
  /// the lower bounds tests and loops put on other variables.
  ///
  /// One assumption: int64 sums and products of non-negative values do not
  /// overflow (that takes values of 2^63; an index never gets near), so
  /// their upper end saturates rather than making the result unknown.
  std::optional<Interval> interval(const Expr &e, const Env *env = nullptr, unsigned depth = 0) const {
    if (depth > 16)
      return std::nullopt;
    std::optional<Interval> result;
    switch (e.kind()) {
    case NodeKind::Constant:
      if (typeRange(e.type()))
        result = Interval{cast<Constant>(e).intValue, cast<Constant>(e).intValue};
      break;
    case NodeKind::SpecialReg: {
      auto &reg = cast<SpecialReg>(e);
      const Wide maxBlocks = reg.axis == 0 ? (Wide(1) << 31) - 1 : 65535;
      switch (reg.reg) {
      case SpecialRegKind::ThreadIdx:
        result = Interval{0, 1023};
        break;
      case SpecialRegKind::BlockDim:
        result = Interval{1, 1024};
        break;
      case SpecialRegKind::BlockIdx:
        result = Interval{0, maxBlocks - 1};
        break;
      case SpecialRegKind::GridDim:
        result = Interval{1, maxBlocks};
        break;
      case SpecialRegKind::LaneId:
        result = Interval{0, 31};
        break;
      }
      break;
    }
    case NodeKind::ArrayDim:
      result = Interval{0, (Wide(1) << 63) - 1};
      break;
    case NodeKind::Cast:
      result = interval(*cast<Cast>(e).operand, env, depth + 1);
      break;
    case NodeKind::Binary: {
      auto &b = cast<Binary>(e);
      std::optional<Interval> lhs = interval(*b.lhs, env, depth + 1), rhs = interval(*b.rhs, env, depth + 1);
      if (!lhs || !rhs)
        break;
      const Wide huge = Wide(1) << 64;
      if (b.op == BinaryOp::Add)
        result = Interval{lhs->lo + rhs->lo, lhs->hi + rhs->hi};
      else if (b.op == BinaryOp::Sub)
        result = Interval{lhs->lo - rhs->hi, lhs->hi - rhs->lo};
      else if (b.op == BinaryOp::Mul && lhs->lo >= 0 && rhs->lo >= 0 && lhs->hi < huge && rhs->hi < huge)
        result = Interval{lhs->lo * rhs->lo, lhs->hi * rhs->hi};
      else if (b.op == BinaryOp::Min)
        result = Interval{std::min(lhs->lo, rhs->lo), std::min(lhs->hi, rhs->hi)};
      else if (b.op == BinaryOp::Max)
        result = Interval{std::max(lhs->lo, rhs->lo), std::max(lhs->hi, rhs->hi)};
      const Wide int64Max = (Wide(1) << 63) - 1;
      if (result && e.type().isScalarOf(ScalarKind::Int64) && (b.op == BinaryOp::Add || b.op == BinaryOp::Mul) &&
          lhs->lo >= 0 && rhs->lo >= 0)
        result->hi = std::min(result->hi, int64Max);
      break;
    }
    case NodeKind::VarRef: {
      const Variable *var = cast<VarRef>(e).var;
      if (const Expr *init = definition(var))
        result = interval(*init, env, depth + 1);
      if (!result && var->type.isScalar() && isInteger(var->type.scalar) && isUnsignedInteger(var->type.scalar))
        result = typeRange(var->type);
      if (auto facts = env ? env->find(var) : Env::const_iterator(); env && facts != env->end() &&
                                                                      facts->second.lower) {
        std::optional<Interval> range = typeRange(var->type);
        if (range && (!result || *facts->second.lower > result->lo))
          result = Interval{*facts->second.lower, result ? result->hi : range->hi};
      }
      break;
    }
    default:
      break;
    }
    // A value that may not fit its type wraps: nothing is known then.
    if (result && !fits(*result, e.type()))
      return std::nullopt;
    return result;
  }

  /// A conversion that keeps every value of its operand (to a wider type
  /// that holds them all).
  bool keepsValue(const Cast &c) const {
    const Type &from = c.operand->type(), &to = c.type();
    if (!from.isScalar() || !to.isScalar() || !isInteger(from.scalar) || !isInteger(to.scalar))
      return false;
    std::optional<Interval> source = typeRange(from);
    return source && fits(*source, to);
  }

  std::optional<Linear> linear(const Expr &e, unsigned depth = 0) const {
    if (depth > 16)
      return std::nullopt;
    switch (e.kind()) {
    case NodeKind::Constant:
      if (typeRange(e.type()))
        return Linear{nullptr, cast<Constant>(e).intValue};
      return std::nullopt;
    case NodeKind::ArrayDim: {
      auto &d = cast<ArrayDim>(e);
      if (d.array->memory == Variable::Memory::Shared || d.array->memory == Variable::Memory::Local)
        return Linear{nullptr, d.array->fixedShape[d.axis]};
      return std::nullopt;
    }
    case NodeKind::Cast:
      if (keepsValue(cast<Cast>(e)))
        return linear(*cast<Cast>(e).operand, depth + 1);
      return std::nullopt;
    case NodeKind::Binary: {
      auto &b = cast<Binary>(e);
      std::optional<Linear> lhs, rhs;
      if (b.op == BinaryOp::Add || b.op == BinaryOp::Sub) {
        lhs = linear(*b.lhs, depth + 1);
        rhs = linear(*b.rhs, depth + 1);
      }
      if (!lhs || !rhs || (lhs->var && rhs->var) || (rhs->var && b.op == BinaryOp::Sub)) {
        if (const Variable *term = atom(e))
          return Linear{term, 0};
        return std::nullopt;
      }
      const int64_t offset = b.op == BinaryOp::Add ? lhs->offset + rhs->offset : lhs->offset - rhs->offset;
      return Linear{lhs->var ? lhs->var : rhs->var, offset};
    }
    case NodeKind::VarRef: {
      const Variable *var = cast<VarRef>(e).var;
      if (!var->type.isScalar() || !isInteger(var->type.scalar))
        return std::nullopt;
      if (const Expr *init = definition(var))
        if (std::optional<Linear> through = linear(*init, depth + 1); through && (!through->var || isStableBase(through->var)))
          return through;
      return Linear{var, 0};
    }
    default:
      if (const Variable *term = atom(e))
        return Linear{term, 0};
      return std::nullopt;
    }
  }

  // --- Atoms ----------------------------------------------------------------
  /// A pure integer expression (no loads, calls or effects): its value
  /// changes only when a variable it reads is assigned.
  static bool isPure(const Expr &e) {
    if (!e.type().isScalar() || !isInteger(e.type().scalar))
      return false;
    switch (e.kind()) {
    case NodeKind::Constant:
    case NodeKind::SpecialReg:
    case NodeKind::ArrayDim:
      return true;
    case NodeKind::VarRef:
      return true;
    case NodeKind::Cast:
      return isPure(*cast<Cast>(e).operand);
    case NodeKind::Unary:
      return isPure(*cast<Unary>(e).operand);
    case NodeKind::Binary:
      return isPure(*cast<Binary>(e).lhs) && isPure(*cast<Binary>(e).rhs);
    default:
      return false;
    }
  }

  /// "tx + i * 16": `e` as the remarks name it.
  static std::string describe(const Expr &e) {
    switch (e.kind()) {
    case NodeKind::Constant:
      return std::to_string(cast<Constant>(e).intValue);
    case NodeKind::VarRef:
      return cast<VarRef>(e).var->name;
    case NodeKind::Cast:
      return describe(*cast<Cast>(e).operand);
    case NodeKind::SpecialReg: {
      auto &reg = cast<SpecialReg>(e);
      return reg.reg == SpecialRegKind::LaneId ? std::string("laneid")
                                               : std::string(specialRegName(reg.reg)) + "." + "xyz"[reg.axis];
    }
    case NodeKind::ArrayDim:
      return cast<ArrayDim>(e).array->name + ".shape[" + std::to_string(cast<ArrayDim>(e).axis) + "]";
    case NodeKind::Binary: {
      auto &b = cast<Binary>(e);
      static const char *const spelling[] = {" + ", " - ", " * ", " / ", " // ", " % ", " ** ",
                                             " & ", " | ", " ^ ", " << ", " >> "};
      auto operand = [](const Expr &side) {
        return llvm::isa<Binary>(side) ? "(" + describe(side) + ")" : describe(side);
      };
      if (b.op == BinaryOp::Min || b.op == BinaryOp::Max)
        return std::string(b.op == BinaryOp::Min ? "min(" : "max(") + describe(*b.lhs) + ", " + describe(*b.rhs) + ")";
      return operand(*b.lhs) + spelling[static_cast<int>(b.op)] + operand(*b.rhs);
    }
    default:
      return "the index";
    }
  }

  /// A pure expression the analysis does not break down further (a
  /// product, a sum of two variables, ...) as a variable of its own, so that
  /// a test of `tx + i * 16` bounds an access at `tx + i * 16`. The same
  /// expression over the same variables is the same atom.
  const Variable *atom(const Expr &e) const {
    if (!isPure(e) || llvm::isa<Constant, VarRef>(e))
      return nullptr;
    std::string key = describe(e) + "|" + e.type().str();
    std::set<const Variable *> reads;
    std::function<void(const Expr &)> collect = [&](const Expr &inner) {
      if (auto *ref = dyn_cast<VarRef>(&inner))
        reads.insert(ref->var);
      if (auto *dim = dyn_cast<ArrayDim>(&inner))
        reads.insert(dim->array);
      forEachOperand(inner, collect);
    };
    collect(e);
    for (const Variable *var : reads)
      key += "|" + std::to_string(reinterpret_cast<std::uintptr_t>(var));
    auto &slot = atoms_[key];
    if (!slot) {
      slot = std::make_unique<Variable>(Variable::Kind::Local, describe(e), e.type(), e.loc());
      atomExprs_[slot.get()] = &e;
      atomReads_[slot.get()] = std::move(reads);
    }
    return slot.get();
  }

  /// `killed` and the atoms that read any of them.
  std::set<const Variable *> withAtoms(std::set<const Variable *> killed) const {
    for (const auto &[atomVar, reads] : atomReads_)
      for (const Variable *read : reads)
        if (killed.count(read)) {
          killed.insert(atomVar);
          break;
        }
    return killed;
  }

  /// `e` as a bound: an array's extent plus a constant, or a constant.
  std::optional<Limit> limit(const Expr &e, unsigned depth = 0) const {
    if (depth > 16)
      return std::nullopt;
    switch (e.kind()) {
    case NodeKind::ArrayDim: {
      auto &d = cast<ArrayDim>(e);
      if (std::optional<Linear> fixed = linear(e))
        return Limit{nullptr, 0, fixed->offset, {}};
      return Limit{d.array, d.axis, 0, {}};
    }
    case NodeKind::Constant:
      if (typeRange(e.type()))
        return Limit{nullptr, 0, cast<Constant>(e).intValue, {}};
      return std::nullopt;
    case NodeKind::Cast:
      if (keepsValue(cast<Cast>(e)))
        return limit(*cast<Cast>(e).operand, depth + 1);
      return std::nullopt;
    case NodeKind::Binary: {
      auto &b = cast<Binary>(e);
      if (b.op != BinaryOp::Add && b.op != BinaryOp::Sub)
        return std::nullopt;
      std::optional<Linear> constant = linear(*b.rhs);
      std::optional<Limit> base = limit(*b.lhs, depth + 1);
      if (!base || !constant || constant->var)
        return std::nullopt;
      base->offset += b.op == BinaryOp::Add ? constant->offset : -constant->offset;
      return base;
    }
    case NodeKind::VarRef:
      if (const Expr *init = definition(cast<VarRef>(e).var))
        return limit(*init, depth + 1);
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }

  // --- Facts ------------------------------------------------------------------
  static CompareOp swapped(CompareOp op) {
    switch (op) {
    case CompareOp::Lt:
      return CompareOp::Gt;
    case CompareOp::Le:
      return CompareOp::Ge;
    case CompareOp::Gt:
      return CompareOp::Lt;
    case CompareOp::Ge:
      return CompareOp::Le;
    default:
      return op;
    }
  }

  static CompareOp negated(CompareOp op) {
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

  static void addLower(Env &env, const Variable *var, int64_t lower, const std::string &why) {
    Facts &facts = env[var];
    if (!facts.lower || *facts.lower < lower) {
      facts.lower = lower;
      facts.lowerWhy = why;
    }
  }

  /// `var + offset  op  bound` holds.
  static void addComparison(Env &env, Linear value, CompareOp op, Limit bound, SourceRange at) {
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
  void addFacts(Env &env, const Expr &condition, bool truth) const {
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
    std::optional<Linear> lhs = linear(*compare->lhs), rhs = linear(*compare->rhs);
    std::optional<Limit> lhsLimit = limit(*compare->lhs), rhsLimit = limit(*compare->rhs);
    if (lhs && lhs->var && rhsLimit)
      addComparison(env, *lhs, op, *rhsLimit, condition.loc());
    else if (rhs && rhs->var && lhsLimit)
      addComparison(env, *rhs, swapped(op), *lhsLimit, condition.loc());
  }

  static Flow join(const Flow &a, const Flow &b) {
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
  void assigned(Env &env, const Variable *var, const Expr *value, SourceRange at) const {
    Facts facts;
    if (value && !stable_.count(var)) {
      if (std::optional<Linear> from = linear(*value); from && from->var && from->var != var) {
        if (auto it = env.find(from->var); it != env.end()) {
          facts = it->second;
          if (facts.lower)
            *facts.lower += from->offset;
          for (Limit &bound : facts.uppers)
            bound.offset += from->offset;
        }
      }
      if (std::optional<Interval> range = interval(*value);
          range && range->lo > INT64_MIN && range->lo < INT64_MAX && (!facts.lower || range->lo > *facts.lower)) {
        facts.lower = static_cast<int64_t>(range->lo);
        facts.lowerWhy = "by its assignment at " + position(at);
      }
    }
    env = without(std::move(env), {var});
    if (facts.lower || !facts.uppers.empty())
      env[var] = std::move(facts);
  }

  static std::set<const Variable *> writtenIn(const StmtList &body) {
    std::set<const Variable *> written;
    forEachStmt(body, [&](const Stmt &s) {
      if (auto *declare = dyn_cast<Declare>(&s))
        written.insert(declare->var);
      else if (auto *assign = dyn_cast<Assign>(&s))
        written.insert(assign->var);
      else if (auto *loop = dyn_cast<ForRange>(&s))
        written.insert(loop->var);
    });
    return written;
  }

  Env without(Env env, const std::set<const Variable *> &killed) const {
    for (const Variable *var : withAtoms(killed))
      env.erase(var);
    return env;
  }

  // --- The walk -------------------------------------------------------------
  Flow block(StmtList &body, Env env) {
    Flow flow = std::move(env);
    for (StmtPtr &s : body) {
      // Code no path reaches is still planned, knowing nothing.
      Flow after = stmt(*s, flow ? *flow : Env{});
      if (flow)
        flow = std::move(after);
    }
    return flow;
  }

  Flow stmt(Stmt &s, Env env) {
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
      st.boundsChecks = plan(st.array, st.indices, env, s.loc());
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
      Env base = without(std::move(env), writtenIn(loop.body));
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
      a.check = addSite({CheckSite::Kind::Assertion, s.loc(), "", 0, a.message});
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

  Flow forRange(ForRange &loop, Env env) {
    expr(*loop.start, env);
    expr(*loop.stop, env);
    expr(*loop.step, env);
    std::set<const Variable *> written = writtenIn(loop.body);
    written.insert(loop.var);
    Env base = without(std::move(env), written);
    Env bodyEnv = base;
    std::optional<Interval> step = interval(*loop.step);
    const bool up = loop.stepSign > 0 || (loop.stepSign == 0 && step && step->lo >= 1);
    const bool down = loop.stepSign < 0 || (loop.stepSign == 0 && step && step->hi <= -1);
    if (!assignedLoopVars_.count(loop.var) && (up || down)) {
      const Expr &first = *loop.start, &end = *loop.stop;
      // Counting up: start <= var < stop; down: stop < var <= start.
      const Expr &lowEnd = up ? first : end;
      const std::string why = "by the loop at " + position(loop.loc());
      if (std::optional<Interval> low = interval(lowEnd); low && low->lo > INT64_MIN && low->lo < INT64_MAX)
        addLower(bodyEnv, loop.var, static_cast<int64_t>(low->lo) + (up ? 0 : 1), why);
      if (std::optional<Limit> high = limit(up ? end : first)) {
        high->offset += up ? 0 : 1;
        high->why = why;
        bodyEnv[loop.var].uppers.push_back(*high);
      }
    }
    block(loop.body, std::move(bodyEnv));
    return base;
  }

  void expr(Expr &e, const Env &env) {
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
      l.boundsChecks = plan(l.array, l.indices, env, e.loc());
      return;
    }
    case NodeKind::Atomic: {
      auto &a = cast<Atomic>(e);
      for (ExprPtr &index : a.indices)
        expr(*index, env);
      if (a.compare)
        expr(*a.compare, env);
      expr(*a.value, env);
      a.boundsChecks = plan(a.array, a.indices, env, e.loc());
      return;
    }
    case NodeKind::Binary: {
      auto &b = cast<Binary>(e);
      expr(*b.lhs, env);
      expr(*b.rhs, env);
      if ((b.op == BinaryOp::FloorDiv || b.op == BinaryOp::Mod) && typeRange(b.type())) {
        std::optional<Interval> divisor = interval(*b.rhs);
        if (!divisor || (divisor->lo <= 0 && divisor->hi >= 0))
          b.divisorCheck = addSite({b.op == BinaryOp::FloorDiv ? CheckSite::Kind::DivisionByZero
                                                               : CheckSite::Kind::ModuloByZero,
                                    e.loc(), "", 0, ""});
      }
      return;
    }
    default:
      forEachOperand(e, [&](const Expr &operand) { expr(const_cast<Expr &>(operand), env); });
      return;
    }
  }

  // --- Decisions --------------------------------------------------------------
  CheckSiteId addSite(CheckSite site) {
    module_.checkSites.push_back(std::move(site));
    return static_cast<CheckSiteId>(module_.checkSites.size() - 1);
  }

  std::vector<CheckSiteId> plan(const Variable *array, std::vector<ExprPtr> &indices, const Env &env,
                                SourceRange access) {
    std::vector<CheckSiteId> sites;
    for (unsigned axis = 0; axis < indices.size(); ++axis) {
      const Expr &index = *indices[axis];
      // Cast and constant indices carry the location of what they convert.
      SourceRange at = index.loc().isValid() ? index.loc() : access;
      std::string why;
      if (proven(array, axis, index, env, why)) {
        sites.push_back(NoCheck);
        remark(at, "bounds check of axis " + std::to_string(axis) + " of '" + array->name + "' elided: " + why);
        continue;
      }
      sites.push_back(addSite({CheckSite::Kind::Bounds, at, array->name, axis, ""}));
      remark(at, "bounds check of axis " + std::to_string(axis) + " of '" + array->name + "' kept: " + why);
    }
    return sites;
  }

  std::optional<int64_t> fixedExtent(const Variable *array, unsigned axis) const {
    if (array->memory == Variable::Memory::Shared || array->memory == Variable::Memory::Local)
      return array->fixedShape[axis];
    return std::nullopt;
  }

  /// Whether 0 <= index < extent of `axis` holds; `why` says why (not).
  bool proven(const Variable *array, unsigned axis, const Expr &index, const Env &env, std::string &why) const {
    const std::string extent = array->name + ".shape[" + std::to_string(axis) + "]";
    std::optional<Linear> value = linear(index);
    if (!value) {
      why = "the index is not a variable plus a constant, which is all the guard analysis follows";
      return false;
    }
    const std::optional<int64_t> fixed = fixedExtent(array, axis);
    if (!value->var) {
      if (value->offset >= 0 && fixed && value->offset < *fixed) {
        why = "the constant index is within the array's shape";
        return true;
      }
      why = fixed ? "the constant index is outside the array's shape" : "'" + array->name + "' has its shape only at run time";
      return false;
    }
    const Variable *var = value->var;
    const int64_t offset = value->offset;
    std::string term = var->name;
    if (offset > 0)
      term += " + " + std::to_string(offset);
    else if (offset < 0)
      term += " - " + std::to_string(-offset);

    // Lower bound: a test, or how the variable is defined.
    auto facts = env.find(var);
    std::optional<Wide> lower;
    std::string lowerWhy;
    if (facts != env.end() && facts->second.lower) {
      lower = *facts->second.lower;
      lowerWhy = facts->second.lowerWhy;
    }
    if (auto atomExpr = atomExprs_.find(var); atomExpr != atomExprs_.end()) {
      if (std::optional<Interval> range = interval(*atomExpr->second, &env); range && (!lower || range->lo > *lower)) {
        lower = range->lo;
        lowerWhy = "as its terms are non-negative";
      }
    } else if (const Expr *init = definition(var)) {
      if (std::optional<Interval> defined = interval(*init); defined && (!lower || defined->lo > *lower)) {
        lower = defined->lo;
        lowerWhy = "by its definition at " + position(var->range);
      }
    } else if (std::optional<Interval> range = typeRange(var->type); range && range->lo == 0 && !lower) {
      lower = 0;
      lowerWhy = "as it is unsigned";
    }
    if (!lower || *lower + offset < 0) {
      why = "no test or definition shows that " + term + " >= 0";
      return false;
    }

    if (facts != env.end())
      for (const Limit &bound : facts->second.uppers) {
        const bool sameExtent = bound.array == array && bound.axis == axis && bound.offset + offset <= 0;
        const bool belowFixed = !bound.array && fixed && bound.offset + offset <= *fixed;
        if (sameExtent || belowFixed) {
          why = term + " >= 0 " + lowerWhy + ", and " + var->name + " < " + limitText(bound) + " " + bound.why;
          return true;
        }
      }
    why = "no test shows that " + term + " < " + (fixed ? std::to_string(*fixed) : extent);
    return false;
  }

  /// One remark per position and text: `x[i] += 1` loads and stores the
  /// same element, with the same check decision.
  void remark(SourceRange at, const std::string &text) {
    if (remarks_ && remarked_.insert({at.begin.offset, text}).second)
      remarks_->remark(at) << text;
  }

  Module &module_;
  Function &function_;
  DiagnosticEngine *remarks_;
  std::map<const Variable *, const Expr *> stable_;
  std::set<const Variable *> loopVars_;
  std::set<const Variable *> assignedLoopVars_;
  std::set<std::pair<uint32_t, std::string>> remarked_;
  mutable std::map<std::string, std::unique_ptr<Variable>> atoms_;
  mutable std::map<const Variable *, const Expr *> atomExprs_;
  mutable std::map<const Variable *, std::set<const Variable *>> atomReads_;
};

/// Checked functions: the kernels asked for, and every device function a
/// checked function calls.
void markCheckedFunctions(Module &module, bool checkEveryKernel) {
  for (auto &function : module.functions)
    if (function->kind == Function::Kind::Kernel && checkEveryKernel)
      function->checked = true;
  // Callers come after their callees: walk backwards until nothing changes.
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = module.functions.rbegin(); it != module.functions.rend(); ++it) {
      if (!(*it)->checked)
        continue;
      std::function<void(const Expr &)> visit = [&](const Expr &e) {
        if (auto *call = dyn_cast<Call>(&e); call && !call->callee->checked) {
          const_cast<Function *>(call->callee)->checked = true;
          changed = true;
        }
        forEachOperand(e, visit);
      };
      for (const StmtPtr &s : (*it)->body)
        forEachExpr(*s, visit);
    }
  }
}

} // namespace

void planChecks(Module &module, bool checkEveryKernel, DiagnosticEngine *remarks) {
  markCheckedFunctions(module, checkEveryKernel);
  for (auto &function : module.functions)
    if (function->checked)
      Planner(module, *function, remarks).run();
}

} // namespace pyk::ir
