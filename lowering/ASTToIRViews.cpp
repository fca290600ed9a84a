//===- ASTToIRViews.cpp - Views of arrays, with Python's rules applied -----===//
//
// A view (`a[i]`, `a[:, j]`, `a[lo:hi:step]`, `b = a`) becomes an
// ArrayView: a base array, an element offset, extents and strides. Python's
// rules (a negative index counts from the end, a slice's bounds are
// clamped to the axis, its length follows from its step) are applied here,
// in IR arithmetic, so that no backend states them again.
//
//===----------------------------------------------------------------------===//
#include "IRWalk.h"
#include "Lowering.h"

#include "llvm/Support/Casting.h"

namespace pyk::ir::lowering {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

const Type i64 = Type::scalarType(ScalarKind::Int64);

ExprPtr constant64(int64_t value, SourceRange loc) {
  return std::make_unique<Constant>(loc, i64, value, static_cast<double>(value));
}

const Constant *asConstant(const ExprPtr &e) {
  return dyn_cast<Constant>(e.get());
}

ExprPtr binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs, SourceRange loc) {
  const Constant *a = asConstant(lhs);
  const Constant *b = asConstant(rhs);
  if (a && b) {
    switch (op) {
    case BinaryOp::Add:
      return constant64(a->intValue + b->intValue, loc);
    case BinaryOp::Sub:
      return constant64(a->intValue - b->intValue, loc);
    case BinaryOp::Mul:
      return constant64(a->intValue * b->intValue, loc);
    case BinaryOp::Min:
      return constant64(std::min(a->intValue, b->intValue), loc);
    case BinaryOp::Max:
      return constant64(std::max(a->intValue, b->intValue), loc);
    default:
      break;
    }
  }
  if (op == BinaryOp::Mul && ((a && a->intValue == 1) || (b && b->intValue == 1)))
    return a && a->intValue == 1 ? std::move(rhs) : std::move(lhs);
  if (op == BinaryOp::Mul && ((a && a->intValue == 0) || (b && b->intValue == 0)))
    return constant64(0, loc);
  if ((op == BinaryOp::Add || op == BinaryOp::Sub) && b && b->intValue == 0)
    return lhs;
  if (op == BinaryOp::Add && a && a->intValue == 0)
    return rhs;
  return std::make_unique<Binary>(loc, op, std::move(lhs), std::move(rhs));
}

ExprPtr less(ExprPtr lhs, ExprPtr rhs, SourceRange loc) {
  return std::make_unique<Compare>(loc, CompareOp::Lt, std::move(lhs), std::move(rhs));
}

ExprPtr select(ExprPtr condition, ExprPtr thenValue, ExprPtr elseValue, SourceRange loc) {
  return std::make_unique<Select>(loc, std::move(condition), std::move(thenValue), std::move(elseValue));
}

} // namespace

/// An index of a view's axis: counted from the end where negative.
ExprPtr Lowering::viewIndex(const ast::Expr &index, const Variable *array, unsigned axis) {
  ExprPtr value = castTo(expr(index), i64);
  if (auto *c = dyn_cast<Constant>(value.get()); c && c->intValue < 0)
    return binary(BinaryOp::Add, extent(array, axis, index.range()), std::move(value), index.range());
  if (isNonNegative(index))
    return value;
  return std::make_unique<WrapIndex>(index.range(), std::move(value), extent(array, axis, index.range()));
}

/// A value the view's arithmetic reads more than once, computed once before
/// the statement unless it is a constant or a variable.
ExprPtr Lowering::viewOperand(ExprPtr value, const char *name) {
  if (isa<Constant>(*value) || (isa<VarRef>(*value) && !assignedParams_.count(cast<VarRef>(*value).var) &&
                                cast<VarRef>(*value).var->kind == Variable::Kind::Param))
    return value;
  return evaluatedOnce(std::move(value), name, *statementPrelude_);
}

/// Python's slice of an axis of `n` elements (slice.indices(n)): bounds
/// counted from the end where negative, then clamped to the axis; the
/// length is how many steps fit between them.
AxisSlice Lowering::sliceAxis(const ast::SliceExpr &slice, const Variable *array, unsigned axis) {
  const SourceRange loc = slice.range();
  auto n = [&] { return extent(array, axis, loc); };
  auto bound = [&](const ast::ExprPtr &given, const char *name) {
    return viewOperand(castTo(expr(*given), i64), name);
  };
  ExprPtr step = slice.step ? bound(slice.step, "pyk_step") : constant64(1, loc);
  const Constant *constantStep = asConstant(step);
  // Clamped into [low, n + high]: [0, n] going up, [-1, n - 1] going down.
  auto clamp = [&](ExprPtr value, int64_t low, int64_t high) -> ExprPtr {
    if (const Constant *c = asConstant(value); c && c->intValue < 0)
      return binary(BinaryOp::Max, binary(BinaryOp::Add, n(), std::move(value), loc), constant64(low, loc), loc);
    if (asConstant(value))
      return binary(BinaryOp::Min, std::move(value), binary(BinaryOp::Add, n(), constant64(high, loc), loc), loc);
    ExprPtr negative = less(copyOfPure(*value), constant64(0, loc), loc);
    ExprPtr fromEnd =
        binary(BinaryOp::Max, binary(BinaryOp::Add, n(), copyOfPure(*value), loc), constant64(low, loc), loc);
    ExprPtr fromStart =
        binary(BinaryOp::Min, std::move(value), binary(BinaryOp::Add, n(), constant64(high, loc), loc), loc);
    return select(std::move(negative), std::move(fromEnd), std::move(fromStart), loc);
  };
  auto up = [&](ExprPtr lower, ExprPtr upper) -> std::pair<ExprPtr, ExprPtr> {
    return {lower ? clamp(std::move(lower), 0, 0) : constant64(0, loc), upper ? clamp(std::move(upper), 0, 0) : n()};
  };
  auto down = [&](ExprPtr lower, ExprPtr upper) -> std::pair<ExprPtr, ExprPtr> {
    return {lower ? clamp(std::move(lower), -1, -1) : binary(BinaryOp::Sub, n(), constant64(1, loc), loc),
            upper ? clamp(std::move(upper), -1, -1) : constant64(-1, loc)};
  };
  ExprPtr lower = slice.lower ? bound(slice.lower, "pyk_start") : nullptr;
  ExprPtr upper = slice.upper ? bound(slice.upper, "pyk_stop") : nullptr;
  // ceil(distance / |step|) for a positive distance, else 0.
  auto length = [&](const Expr &from, const Expr &to, ExprPtr magnitude) {
    ExprPtr distance =
        binary(BinaryOp::Max, binary(BinaryOp::Sub, copyOfPure(to), copyOfPure(from), loc),
               constant64(0, loc), loc);
    if (const Constant *m = asConstant(magnitude); m && m->intValue == 1)
      return distance;
    ExprPtr rounded =
        binary(BinaryOp::Sub, binary(BinaryOp::Add, std::move(distance), copyOfPure(*magnitude), loc),
               constant64(1, loc), loc);
    return ExprPtr(std::make_unique<Binary>(loc, BinaryOp::FloorDiv, std::move(rounded), std::move(magnitude)));
  };
  AxisSlice result;
  if (constantStep) {
    auto [start, stop] =
        constantStep->intValue > 0 ? up(std::move(lower), std::move(upper)) : down(std::move(lower), std::move(upper));
    start = viewOperand(std::move(start), "pyk_start");
    stop = viewOperand(std::move(stop), "pyk_stop");
    const int64_t magnitude = constantStep->intValue > 0 ? constantStep->intValue : -constantStep->intValue;
    result.length = constantStep->intValue > 0 ? length(*start, *stop, constant64(magnitude, loc))
                                               : length(*stop, *start, constant64(magnitude, loc));
    result.start = std::move(start);
    result.step = std::move(step);
    return result;
  }
  // A step known only at run time: both directions, chosen by its sign.
  auto positive = [&] { return less(constant64(0, loc), copyOfPure(*step), loc); };
  auto [upStart, upStop] =
      up(lower ? copyOfPure(*lower) : nullptr, upper ? copyOfPure(*upper) : nullptr);
  auto [downStart, downStop] = down(std::move(lower), std::move(upper));
  ExprPtr start = viewOperand(select(positive(), std::move(upStart), std::move(downStart), loc), "pyk_start");
  ExprPtr stop = viewOperand(select(positive(), std::move(upStop), std::move(downStop), loc), "pyk_stop");
  ExprPtr magnitude =
      viewOperand(select(positive(), copyOfPure(*step),
                         binary(BinaryOp::Sub, constant64(0, loc), copyOfPure(*step), loc), loc),
                  "pyk_step_size");
  ExprPtr upLength = length(*start, *stop, copyOfPure(*magnitude));
  ExprPtr downLength = length(*stop, *start, std::move(magnitude));
  result.length = select(positive(), std::move(upLength), std::move(downLength), loc);
  result.start = std::move(start);
  result.step = std::move(step);
  return result;
}

/// Stride of `axis` of `array`, in elements: a strided array's own, or the
/// product of the later extents of a contiguous one.
ExprPtr Lowering::strideOf(const Variable *array, unsigned axis, SourceRange loc) {
  if (!array->type.contiguous)
    return std::make_unique<ArrayStride>(loc, array, axis);
  ExprPtr stride = constant64(1, loc);
  for (unsigned later = axis + 1; later < array->type.rank; ++later)
    stride = binary(BinaryOp::Mul, std::move(stride), extent(array, later, loc), loc);
  return stride;
}

ExprPtr Lowering::arrayValue(const ast::Expr &e, Type type) {
  const SourceRange loc = e.range();
  std::vector<ExprPtr> extents;
  std::vector<ExprPtr> strides;
  ExprPtr offset = constant64(0, loc);
  const Variable *base = nullptr;
  auto *subscript = dyn_cast<ast::SubscriptExpr>(&e);
  if (!subscript || !subscript->object->type->isArray()) {
    return wholeView(arrayOf(e), type, loc); // a name, or `a if c else b` made a local
  } else {
    base = arrayOf(*subscript->object);
    for (unsigned axis = 0; axis < base->type.rank; ++axis) {
      const ast::Expr *index = axis < subscript->indices.size() ? subscript->indices[axis].get() : nullptr;
      auto *slice = index ? dyn_cast<ast::SliceExpr>(index) : nullptr;
      if (index && !slice) {
        ExprPtr at = viewIndex(*index, base, axis);
        offset = binary(BinaryOp::Add, std::move(offset),
                        binary(BinaryOp::Mul, std::move(at), strideOf(base, axis, loc), loc), loc);
        continue;
      }
      if (!slice || (!slice->lower && !slice->upper && !slice->step)) {
        extents.push_back(extent(base, axis, loc));
        strides.push_back(strideOf(base, axis, loc));
        continue;
      }
      AxisSlice part = sliceAxis(*slice, base, axis);
      offset = binary(BinaryOp::Add, std::move(offset),
                      binary(BinaryOp::Mul, std::move(part.start), strideOf(base, axis, loc), loc), loc);
      extents.push_back(std::move(part.length));
      strides.push_back(binary(BinaryOp::Mul, std::move(part.step), strideOf(base, axis, loc), loc));
    }
  }
  if (type.contiguous)
    strides.clear();
  return std::make_unique<ArrayView>(loc, type, base, std::move(offset), std::move(extents), std::move(strides));
}

ExprPtr Lowering::wholeView(const Variable *array, Type type, SourceRange loc) {
  std::vector<ExprPtr> extents;
  std::vector<ExprPtr> strides;
  for (unsigned axis = 0; axis < array->type.rank; ++axis) {
    extents.push_back(extent(array, axis, loc));
    if (!type.contiguous)
      strides.push_back(strideOf(array, axis, loc));
  }
  return std::make_unique<ArrayView>(loc, type, array, constant64(0, loc), std::move(extents), std::move(strides));
}

/// Whether an access through view `e` can index its base directly: every
/// axis of the view is whole (a[i][j], a[:, j][i], a[i, :][j]).
static bool indexesBaseDirectly(const ast::SubscriptExpr &e) {
  for (const ast::ExprPtr &index : e.indices)
    if (auto *slice = dyn_cast<ast::SliceExpr>(index.get()); slice && (slice->lower || slice->upper || slice->step))
      return false;
  return true;
}

std::pair<const Variable *, std::vector<ExprPtr>> Lowering::accessThrough(const ast::Expr &object,
                                                                          std::vector<ExprPtr> indices) {
  auto *view = dyn_cast<ast::SubscriptExpr>(&object);
  if (!view || !view->object->type->isArray() || !indexesBaseDirectly(*view))
    return {arrayOf(object), std::move(indices)};
  // a[i][j] is a[i, j]: the view's indices go to the axes it left whole.
  const unsigned rank = view->object->type->rank();
  std::vector<ExprPtr> baseIndices;
  size_t next = 0;
  for (unsigned axis = 0; axis < rank; ++axis) {
    const ast::Expr *index = axis < view->indices.size() ? view->indices[axis].get() : nullptr;
    if (index && !isa<ast::SliceExpr>(*index))
      baseIndices.push_back(castTo(expr(*index), i64));
    else
      baseIndices.push_back(std::move(indices[next++]));
  }
  return accessThrough(*view->object, std::move(baseIndices));
}

const Variable *Lowering::arrayOf(const ast::Expr &e) {
  if (auto *name = dyn_cast<ast::NameExpr>(&e))
    return vars_.at(name->symbol);
  // A view used where an array variable is needed (a call's argument,
  // len(a[i])): a hidden view local, made before the statement.
  const Type type = toIRType(e.type);
  Variable *view = function_.addHiddenLocal(uniqueName("pyk_view"), type, e.range());
  view->memory = Variable::Memory::View;
  assignView(view, e, e.range(), *statementPrelude_);
  return view;
}

void Lowering::assignView(Variable *var, const ast::Expr &value, SourceRange loc, StmtList &out) {
  auto *conditional = dyn_cast<ast::ConditionalExpr>(&value);
  if (!conditional) {
    ExprPtr view = arrayValue(value, var->type);
    if (declared_.insert(var).second)
      out.push_back(std::make_unique<Declare>(loc, var, std::move(view)));
    else
      out.push_back(std::make_unique<Assign>(loc, var, std::move(view)));
    return;
  }
  // b = a if flip else c: an if statement, each branch assigning b.
  if (declared_.insert(var).second)
    out.push_back(std::make_unique<Declare>(loc, var, nullptr));
  ExprPtr condition = truthOf(*conditional->condition);
  StmtList thenBody, elseBody;
  {
    StmtList *const outer = std::exchange(statementPrelude_, &thenBody);
    assignView(var, *conditional->thenValue, loc, thenBody);
    statementPrelude_ = &elseBody;
    assignView(var, *conditional->elseValue, loc, elseBody);
    statementPrelude_ = outer;
  }
  out.push_back(std::make_unique<If>(loc, std::move(condition), std::move(thenBody), std::move(elseBody)));
}

} // namespace pyk::ir::lowering
