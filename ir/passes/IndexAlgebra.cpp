//===- IndexAlgebra.cpp - How the guard analysis reads integer expressions ===//
#include "IndexAlgebra.h"

#include "IRWalk.h"

#include "llvm/Support/Casting.h"

#include <algorithm>
#include <functional>

namespace pyk::ir {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// Deep enough for any index a person writes; bounds the recursion through
/// definitions.
constexpr unsigned maxDepth = 16;

bool fits(const Interval &value, const Type &type) {
  std::optional<Interval> range = typeRange(type);
  return range && value.lo >= range->lo && value.hi <= range->hi;
}

/// The ranges CUDA gives the thread and block registers.
Interval registerRange(const SpecialReg &reg) {
  const WideInt maxBlocks = reg.axis == 0 ? (WideInt(1) << 31) - 1 : 65535;
  switch (reg.reg) {
  case SpecialRegKind::ThreadIdx:
    return {0, 1023};
  case SpecialRegKind::BlockDim:
    return {1, 1024};
  case SpecialRegKind::BlockIdx:
    return {0, maxBlocks - 1};
  case SpecialRegKind::GridDim:
    return {1, maxBlocks};
  case SpecialRegKind::LaneId:
    return {0, 31};
  }
  return {0, 0};
}

std::optional<int64_t> fixedExtent(const ArrayDim &dim) {
  const Variable *array = dim.array;
  if (!array->fixedShape.empty())
    return array->fixedShape[dim.axis];
  return std::nullopt;
}

} // namespace

std::optional<Interval> typeRange(const Type &type) {
  if (!type.isScalar() || !isInteger(type.scalar))
    return std::nullopt;
  const unsigned bits = byteWidth(type.scalar) * 8;
  if (isSignedInteger(type.scalar))
    return Interval{-(WideInt(1) << (bits - 1)), (WideInt(1) << (bits - 1)) - 1};
  return Interval{0, (WideInt(1) << bits) - 1};
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

IndexAlgebra::IndexAlgebra(const Function &function, bool assumeIndexSums) : assumeIndexSums_(assumeIndexSums) {
  std::map<const Variable *, int> writes;
  std::map<const Variable *, const Expr *> init;
  forEachStmt(function.body, [&](const Stmt &s) {
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
  for (const Variable *param : function.params)
    if (!writes.count(param))
      stable_[param] = nullptr;
  for (auto [var, count] : writes)
    if (count == 1 && var->kind == Variable::Kind::Local)
      stable_[var] = init[var];
}

const Expr *IndexAlgebra::definition(const Variable *var) const {
  auto it = stable_.find(var);
  return it == stable_.end() ? nullptr : it->second;
}

bool IndexAlgebra::isStableBase(const Variable *var) const {
  return stable_.count(var) || (loopVars_.count(var) && !assignedLoopVars_.count(var));
}

std::optional<Interval> IndexAlgebra::interval(const Expr &e, const Env *env, unsigned depth) const {
  if (depth > maxDepth)
    return std::nullopt;
  std::optional<Interval> result;
  if (auto *constant = dyn_cast<Constant>(&e)) {
    if (typeRange(e.type()))
      result = Interval{constant->intValue, constant->intValue};
  } else if (auto *reg = dyn_cast<SpecialReg>(&e)) {
    result = registerRange(*reg);
  } else if (isa<ArrayDim>(e)) {
    result = Interval{0, (WideInt(1) << 63) - 1};
  } else if (auto *c = dyn_cast<Cast>(&e)) {
    // Whatever the operand is, its value is one of its type's.
    result = interval(*c->operand, env, depth + 1);
    if (!result && c->operand->type().isScalarOf(ScalarKind::Bool))
      result = Interval{0, 1};
    else if (!result)
      result = typeRange(c->operand->type());
  } else if (auto *b = dyn_cast<Binary>(&e)) {
    std::optional<Interval> lhs = interval(*b->lhs, env, depth + 1), rhs = interval(*b->rhs, env, depth + 1);
    // Python's %: the divisor's sign, whatever the dividend.
    if (b->op == BinaryOp::Mod && rhs && rhs->lo >= 1)
      return Interval{0, rhs->hi - 1};
    if (!lhs || !rhs)
      return std::nullopt;
    const WideInt huge = WideInt(1) << 64;
    if (b->op == BinaryOp::Add)
      result = Interval{lhs->lo + rhs->lo, lhs->hi + rhs->hi};
    else if (b->op == BinaryOp::Sub)
      result = Interval{lhs->lo - rhs->hi, lhs->hi - rhs->lo};
    else if (b->op == BinaryOp::Mul && lhs->lo >= 0 && rhs->lo >= 0 && lhs->hi < huge && rhs->hi < huge)
      result = Interval{lhs->lo * rhs->lo, lhs->hi * rhs->hi};
    else if (b->op == BinaryOp::FloorDiv && lhs->lo >= 0 && rhs->lo >= 1)
      result = Interval{0, lhs->hi};
    else if (b->op == BinaryOp::Min)
      result = Interval{std::min(lhs->lo, rhs->lo), std::min(lhs->hi, rhs->hi)};
    else if (b->op == BinaryOp::Max)
      result = Interval{std::max(lhs->lo, rhs->lo), std::max(lhs->hi, rhs->hi)};
    const WideInt int64Max = (WideInt(1) << 63) - 1;
    if (assumeIndexSums_ && result && e.type().isScalarOf(ScalarKind::Int64) &&
        (b->op == BinaryOp::Add || b->op == BinaryOp::Mul) && lhs->lo >= 0 && rhs->lo >= 0)
      result->hi = std::min(result->hi, int64Max);
  } else if (auto *ref = dyn_cast<VarRef>(&e)) {
    const Variable *var = ref->var;
    if (const Expr *init = definition(var))
      result = interval(*init, env, depth + 1);
    if (!result && var->type.isScalar() && isUnsignedInteger(var->type.scalar))
      result = typeRange(var->type);
    auto facts = env ? env->find(var) : Env::const_iterator();
    if (env && facts != env->end() && facts->second.lower) {
      std::optional<Interval> range = typeRange(var->type);
      if (range && (!result || *facts->second.lower > result->lo))
        result = Interval{*facts->second.lower, result ? result->hi : range->hi};
    }
  }
  // A value that may not fit its type wraps: nothing is known then.
  if (result && !fits(*result, e.type()))
    return std::nullopt;
  return result;
}

bool IndexAlgebra::keepsValue(const Cast &c) {
  const Type &from = c.operand->type(), &to = c.type();
  if (!from.isScalar() || !to.isScalar() || !isInteger(from.scalar) || !isInteger(to.scalar))
    return false;
  std::optional<Interval> source = typeRange(from);
  return source && fits(*source, to);
}

std::optional<Linear> IndexAlgebra::linear(const Expr &e, unsigned depth) const {
  if (depth > maxDepth)
    return std::nullopt;
  if (auto *constant = dyn_cast<Constant>(&e)) {
    if (typeRange(e.type()))
      return Linear{nullptr, constant->intValue};
    return std::nullopt;
  }
  if (auto *dim = dyn_cast<ArrayDim>(&e)) {
    if (std::optional<int64_t> fixed = fixedExtent(*dim))
      return Linear{nullptr, *fixed};
    return std::nullopt;
  }
  if (auto *c = dyn_cast<Cast>(&e)) {
    if (keepsValue(*c))
      return linear(*c->operand, depth + 1);
    if (const Variable *term = atom(e))
      return Linear{term, 0};
    return std::nullopt;
  }
  if (auto *ref = dyn_cast<VarRef>(&e)) {
    const Variable *var = ref->var;
    if (!var->type.isScalar() || !isInteger(var->type.scalar))
      return std::nullopt;
    if (const Expr *init = definition(var))
      if (std::optional<Linear> through = linear(*init, depth + 1);
          through && (!through->var || isStableBase(through->var)))
        return through;
    return Linear{var, 0};
  }
  if (auto *b = dyn_cast<Binary>(&e); b && (b->op == BinaryOp::Add || b->op == BinaryOp::Sub)) {
    std::optional<Linear> lhs = linear(*b->lhs, depth + 1), rhs = linear(*b->rhs, depth + 1);
    if (lhs && rhs && !(lhs->var && rhs->var) && !(rhs->var && b->op == BinaryOp::Sub)) {
      const int64_t offset = b->op == BinaryOp::Add ? lhs->offset + rhs->offset : lhs->offset - rhs->offset;
      return Linear{lhs->var ? lhs->var : rhs->var, offset};
    }
  }
  if (const Variable *term = atom(e))
    return Linear{term, 0};
  return std::nullopt;
}

std::optional<Limit> IndexAlgebra::limit(const Expr &e, unsigned depth) const {
  if (depth > maxDepth)
    return std::nullopt;
  if (auto *dim = dyn_cast<ArrayDim>(&e)) {
    if (std::optional<int64_t> fixed = fixedExtent(*dim))
      return Limit{nullptr, 0, *fixed, {}};
    return Limit{dim->array, dim->axis, 0, {}};
  }
  if (auto *constant = dyn_cast<Constant>(&e)) {
    if (typeRange(e.type()))
      return Limit{nullptr, 0, constant->intValue, {}};
    return std::nullopt;
  }
  if (auto *c = dyn_cast<Cast>(&e)) {
    if (keepsValue(*c))
      return limit(*c->operand, depth + 1);
    return std::nullopt;
  }
  if (auto *b = dyn_cast<Binary>(&e); b && (b->op == BinaryOp::Add || b->op == BinaryOp::Sub)) {
    std::optional<Linear> constant = linear(*b->rhs);
    std::optional<Limit> base = limit(*b->lhs, depth + 1);
    if (!base || !constant || constant->var)
      return std::nullopt;
    base->offset += b->op == BinaryOp::Add ? constant->offset : -constant->offset;
    return base;
  }
  if (auto *ref = dyn_cast<VarRef>(&e))
    if (const Expr *init = definition(ref->var))
      return limit(*init, depth + 1);
  return std::nullopt;
}

bool IndexAlgebra::isPure(const Expr &e) {
  if (!e.type().isScalar() || !isInteger(e.type().scalar))
    return false;
  if (isa<Constant, SpecialReg, ArrayDim, VarRef>(e))
    return true;
  if (auto *c = dyn_cast<Cast>(&e))
    return isPure(*c->operand);
  if (auto *u = dyn_cast<Unary>(&e))
    return isPure(*u->operand);
  if (auto *b = dyn_cast<Binary>(&e))
    return isPure(*b->lhs) && isPure(*b->rhs);
  return false;
}

std::string IndexAlgebra::describe(const Expr &e) {
  if (auto *constant = dyn_cast<Constant>(&e))
    return std::to_string(constant->intValue);
  if (auto *ref = dyn_cast<VarRef>(&e))
    return ref->var->name;
  if (auto *c = dyn_cast<Cast>(&e))
    return describe(*c->operand);
  if (auto *reg = dyn_cast<SpecialReg>(&e))
    return reg->reg == SpecialRegKind::LaneId ? std::string("laneid")
                                              : std::string(specialRegName(reg->reg)) + "." + "xyz"[reg->axis];
  if (auto *dim = dyn_cast<ArrayDim>(&e))
    return dim->array->name + ".shape[" + std::to_string(dim->axis) + "]";
  if (auto *b = dyn_cast<Binary>(&e)) {
    if (b->op == BinaryOp::Min || b->op == BinaryOp::Max)
      return std::string(b->op == BinaryOp::Min ? "min(" : "max(") + describe(*b->lhs) + ", " + describe(*b->rhs) +
             ")";
    static const char *const spelling[] = {" + ", " - ", " * ", " / ", " // ", " % ", " ** ",
                                           " & ", " | ", " ^ ", " << ", " >> "};
    auto operand = [](const Expr &side) { return isa<Binary>(side) ? "(" + describe(side) + ")" : describe(side); };
    return operand(*b->lhs) + spelling[static_cast<int>(b->op)] + operand(*b->rhs);
  }
  return "the index";
}

const Variable *IndexAlgebra::atom(const Expr &e) const {
  if (!isPure(e) || isa<Constant, VarRef>(e))
    return nullptr;
  std::string key = describe(e) + "|" + e.type().str();
  std::set<const Variable *> reads;
  std::function<void(const Expr &)> collect = [&](const Expr &inner) {
    if (auto *ref = dyn_cast<VarRef>(&inner))
      reads.insert(ref->var);
    forEachOperand(inner, collect);
  };
  collect(e);
  for (const Variable *var : reads)
    key += "|" + std::to_string(reinterpret_cast<std::uintptr_t>(var));
  std::unique_ptr<Variable> &slot = atoms_[key];
  if (!slot) {
    slot = std::make_unique<Variable>(Variable::Kind::Local, describe(e), e.type(), e.loc());
    atomExpressions_[slot.get()] = &e;
    atomReads_[slot.get()] = std::move(reads);
  }
  return slot.get();
}

std::set<const Variable *> IndexAlgebra::withAtoms(std::set<const Variable *> killed) const {
  for (const auto &[atomVar, reads] : atomReads_)
    for (const Variable *read : reads)
      if (killed.count(read)) {
        killed.insert(atomVar);
        break;
      }
  return killed;
}

const Expr *IndexAlgebra::atomExpression(const Variable *var) const {
  auto it = atomExpressions_.find(var);
  return it == atomExpressions_.end() ? nullptr : it->second;
}

} // namespace pyk::ir
