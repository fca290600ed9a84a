//===- ASTToIRExpr.cpp - Lower expressions to the IR -----------------------===//
//
// Every expression becomes IR of exactly the type Sema gave it: builtins
// become explicit operations (grid values, extents, the GPU's barriers,
// atomics and warp operations), tuples their elements, and every implicit
// conversion a Cast, folded into constants where it can be.
//
//===----------------------------------------------------------------------===//
#include "IRWalk.h"
#include "Lowering.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cmath>

namespace pyk::ir::lowering {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

/// The elements of a tuple-typed value: a tuple display, a tuple local or
/// module constant, an element of a tuple of tuples, cuda.grid(n),
/// cuda.gridsize(n), an array's shape. A tuple of tuples gives its leaves
/// in order (tupleLeaves).
std::vector<ExprPtr> Lowering::tupleElements(const ast::Expr &e) {
  std::vector<ExprPtr> elements;
  if (auto *tuple = dyn_cast<ast::TupleExpr>(&e)) {
    for (const ast::ExprPtr &element : tuple->elements) {
      if (!element->type->isTuple()) {
        elements.push_back(expr(*element));
        continue;
      }
      for (ExprPtr &leaf : tupleElements(*element))
        elements.push_back(std::move(leaf));
    }
    return elements;
  }
  if (auto *row = dyn_cast<ast::SubscriptExpr>(&e))
    return rowOf(*row);
  if (auto *choice = dyn_cast<ast::ConditionalExpr>(&e)) {
    // One select per element; each evaluates only its chosen side.
    PreludeScope conditional(*this, nullptr);
    std::vector<ExprPtr> thenValues = tupleElements(*choice->thenValue);
    std::vector<ExprPtr> elseValues = tupleElements(*choice->elseValue);
    for (size_t i = 0; i < thenValues.size(); ++i) {
      const Type type = toIRType(e.type->elements()[i]);
      elements.push_back(std::make_unique<Select>(e.range(), truthOf(*choice->condition),
                                                  castTo(std::move(thenValues[i]), type),
                                                  castTo(std::move(elseValues[i]), type)));
    }
    return elements;
  }
  if (auto *name = dyn_cast<ast::NameExpr>(&e)) {
    if (auto it = tupleVars_.find(name->symbol); it != tupleVars_.end()) {
      for (const Variable *var : it->second)
        elements.push_back(std::make_unique<VarRef>(e.range(), var));
      return elements;
    }
    const auto &values = name->symbol->tupleConstant;
    const std::vector<const pyk::Type *> leaves = tupleLeaves(*e.type);
    for (size_t i = 0; i < values.size(); ++i)
      elements.push_back(constantOf(values[i], toIRType(leaves[i]), e.range()));
    return elements;
  }
  if (auto *call = dyn_cast<ast::CallExpr>(&e)) {
    const auto count = static_cast<unsigned>(call->args.front()->constant->intValue);
    for (unsigned axis = 0; axis < count; ++axis)
      elements.push_back(gridValue(call->function, axis, e.range()));
    return elements;
  }
  auto &attribute = cast<ast::AttributeExpr>(e);
  assert(attribute.builtin == Builtin::ArrayShape && "only grids and shapes are tuples");
  const Variable *array = arrayOf(*attribute.object);
  for (unsigned axis = 0; axis < attribute.object->type->rank(); ++axis)
    elements.push_back(extent(array, axis, e.range()));
  return elements;
}

/// One axis of cuda.grid (blockIdx * blockDim + threadIdx) or of
/// cuda.gridsize (blockDim * gridDim), in int64.
ExprPtr Lowering::gridValue(Builtin which, unsigned axis, SourceRange loc) {
  const Type i64 = Type::scalarType(ScalarKind::Int64);
  auto reg = [&](SpecialRegKind kind) { return castTo(std::make_unique<SpecialReg>(loc, kind, axis), i64); };
  if (which == Builtin::Gridsize)
    return std::make_unique<Binary>(loc, BinaryOp::Mul, reg(SpecialRegKind::BlockDim), reg(SpecialRegKind::GridDim));
  ExprPtr product =
      std::make_unique<Binary>(loc, BinaryOp::Mul, reg(SpecialRegKind::BlockIdx), reg(SpecialRegKind::BlockDim));
  return std::make_unique<Binary>(loc, BinaryOp::Add, std::move(product), reg(SpecialRegKind::ThreadIdx));
}

// --- Expressions ----------------------------------------------------------
ExprPtr Lowering::expr(const ast::Expr &e) {
  if (e.constant && e.type->isScalar())
    return constantOf(*e.constant, toIRType(e.type), e.range());
  switch (e.kind()) {
  case ast::NodeKind::NameExpr:
    if (const auto &complex = cast<ast::NameExpr>(e).symbol->complexConstant)
      return complexOf(*complex, toIRType(e.type), e.range());
    return std::make_unique<VarRef>(e.range(), vars_.at(cast<ast::NameExpr>(e).symbol));
  case ast::NodeKind::ImagLiteralExpr:
    return complexOf({0.0, cast<ast::ImagLiteralExpr>(e).value}, toIRType(e.type), e.range());
  case ast::NodeKind::AttributeExpr:
    return attribute(cast<ast::AttributeExpr>(e));
  case ast::NodeKind::SubscriptExpr:
    return subscript(cast<ast::SubscriptExpr>(e));
  case ast::NodeKind::CallExpr:
    return call(cast<ast::CallExpr>(e));
  case ast::NodeKind::UnaryExpr:
    return unary(cast<ast::UnaryExpr>(e));
  case ast::NodeKind::BinaryExpr: {
    auto &b = cast<ast::BinaryExpr>(e);
    Type operandType = toIRType(b.operandType);
    return arithmetic(b.op, castTo(expr(*b.lhs), operandType), castTo(expr(*b.rhs), operandType), e.range());
  }
  case ast::NodeKind::BoolOpExpr:
    // On bools, a bool: the operands' truth. With a number, Python's value.
    if (e.type->scalarKind() == ScalarKind::Bool)
      return truthOf(e);
    return boolOpValue(cast<ast::BoolOpExpr>(e), 0);
  case ast::NodeKind::CompareExpr:
    return compare(cast<ast::CompareExpr>(e));
  case ast::NodeKind::ConditionalExpr: {
    auto &c = cast<ast::ConditionalExpr>(e);
    Type type = toIRType(e.type);
    ExprPtr condition = truthOf(*c.condition);
    PreludeScope conditional(*this, nullptr);
    ExprPtr thenValue = castTo(expr(*c.thenValue), type);
    ExprPtr elseValue = castTo(expr(*c.elseValue), type);
    return std::make_unique<Select>(e.range(), std::move(condition), std::move(thenValue), std::move(elseValue));
  }
  default:
    llvm_unreachable("Sema rejects this expression before lowering");
  }
}

// --- Truth ------------------------------------------------------------------
// Python's truth, stated once: every condition (`if`, `while`, `assert`,
// `not`, the condition of `x if c else y`, an operand of `and`/`or`) is
// lowered by truthOf, and the value of `and`/`or` on numbers by
// boolOpValue; the backends see only comparisons, Logical and Select.

ExprPtr Lowering::truthOf(const ast::Expr &e) {
  if (auto *b = dyn_cast<ast::BoolOpExpr>(&e); b && !e.constant) {
    // `if a or b:` tests each operand's own truth, as Python's jumps do,
    // not that of the value converted to the operands' unified type.
    ExprPtr result = truthOf(*b->operands.front());
    PreludeScope conditional(*this, nullptr); // later operands run only when needed
    for (size_t i = 1; i < b->operands.size(); ++i)
      result = std::make_unique<Logical>(e.range(), b->op == ast::BoolOp::And ? LogicalOp::And : LogicalOp::Or,
                                         std::move(result), truthOf(*b->operands[i]));
    return result;
  }
  return truthOfValue(expr(e));
}

ExprPtr Lowering::truthOfValue(ExprPtr value) {
  if (value->type().isBool())
    return value;
  if (isa<Constant>(*value))
    return castTo(std::move(value), Type::scalarType(ScalarKind::Bool));
  const SourceRange loc = value->loc();
  const Type type = value->type();
  return std::make_unique<Compare>(loc, CompareOp::Ne, std::move(value), zeroOf(type, loc));
}

ExprPtr Lowering::boolOpValue(const ast::BoolOpExpr &e, size_t first) {
  const Type type = toIRType(e.type);
  const ast::Expr &operand = *e.operands[first];
  if (first + 1 == e.operands.size())
    return castTo(expr(operand), type);
  // The operand is tested in its own type (0.5 is true, though int(0.5)
  // is not) and, when it decides, converted.
  ExprPtr tested = expr(operand);
  if (!copyOfStable(*tested) && prelude_)
    tested = evaluatedOnce(std::move(tested), e.op == ast::BoolOp::Or ? "pyk_or" : "pyk_and", *prelude_);
  ExprPtr chosen = copyOfStable(*tested);
  if (!chosen) // nowhere to compute it first: again, to the same value, as Sema allows no effects here
    chosen = expr(operand);
  ExprPtr test = truthOfValue(std::move(tested));
  chosen = castTo(std::move(chosen), type);
  PreludeScope conditional(*this, nullptr); // later operands run only when needed
  ExprPtr rest = boolOpValue(e, first + 1);
  if (e.op == ast::BoolOp::Or)
    return std::make_unique<Select>(e.range(), std::move(test), std::move(chosen), std::move(rest));
  return std::make_unique<Select>(e.range(), std::move(test), std::move(rest), std::move(chosen));
}

ExprPtr Lowering::attribute(const ast::AttributeExpr &e) {
  if (e.object->type->isRecord()) {
    auto [array, at, field] = recordField(*e.object, e.attribute);
    return std::make_unique<ArrayLoad>(e.range(), array, std::move(at), field);
  }
  auto reg = [&](SpecialRegKind kind, unsigned axis) { return std::make_unique<SpecialReg>(e.range(), kind, axis); };
  switch (e.builtin) {
  case Builtin::NumberReal:
  case Builtin::NumberImag:
    return numberPart(e);
  case Builtin::ThreadIdxX:
    return reg(SpecialRegKind::ThreadIdx, 0);
  case Builtin::ThreadIdxY:
    return reg(SpecialRegKind::ThreadIdx, 1);
  case Builtin::ThreadIdxZ:
    return reg(SpecialRegKind::ThreadIdx, 2);
  case Builtin::BlockIdxX:
    return reg(SpecialRegKind::BlockIdx, 0);
  case Builtin::BlockIdxY:
    return reg(SpecialRegKind::BlockIdx, 1);
  case Builtin::BlockIdxZ:
    return reg(SpecialRegKind::BlockIdx, 2);
  case Builtin::BlockDimX:
    return reg(SpecialRegKind::BlockDim, 0);
  case Builtin::BlockDimY:
    return reg(SpecialRegKind::BlockDim, 1);
  case Builtin::BlockDimZ:
    return reg(SpecialRegKind::BlockDim, 2);
  case Builtin::GridDimX:
    return reg(SpecialRegKind::GridDim, 0);
  case Builtin::GridDimY:
    return reg(SpecialRegKind::GridDim, 1);
  case Builtin::GridDimZ:
    return reg(SpecialRegKind::GridDim, 2);
  case Builtin::LaneId:
    return reg(SpecialRegKind::LaneId, 0);
  case Builtin::ArraySize: {
    const Variable *array = arrayOf(*e.object);
    ExprPtr size = extent(array, 0, e.range());
    for (unsigned axis = 1; axis < e.object->type->rank(); ++axis)
      size = std::make_unique<Binary>(e.range(), BinaryOp::Mul, std::move(size),
                                      extent(array, axis, e.range()));
    return size;
  }
  default:
    llvm_unreachable("attribute without a value reached lowering");
  }
}

ExprPtr Lowering::subscript(const ast::SubscriptExpr &e) {
  if (e.object->type->isTuple()) {
    std::vector<ExprPtr> elements = tupleElements(*e.object);
    const ast::Expr &index = *e.indices.front();
    // a.shape[k], cuda.grid(2)[k]: the k-th element (Sema normalised k).
    if (index.constant)
      return std::move(elements[tupleLeafOffset(*e.object->type, static_cast<size_t>(index.constant->intValue))]);
    return chooseByIndex(index, std::move(elements), toIRType(e.type), e.range());
  }
  if (e.type->isArray()) // a view used as a value: only a view local's
    return arrayValue(e, toIRType(e.type));
  if (e.object->type->isRecord()) {
    auto [array, at, field] = recordField(*e.object, fieldName(e));
    return std::make_unique<ArrayLoad>(e.range(), array, std::move(at), field);
  }
  auto [array, at] = accessThrough(*e.object, indices(e));
  return std::make_unique<ArrayLoad>(e.range(), array, std::move(at));
}

/// candidates[k] at run time: k == 0 || k == -n ? c0 : k == 1 || k == 1 -
/// n ? c1 : ... : the last (also for k out of range, which is unchecked).
/// The index is pure (Sema allows no call with effects in it), so each
/// test may evaluate it again; the optimiser shares the value.
ExprPtr Lowering::chooseByIndex(const ast::Expr &index, std::vector<ExprPtr> candidates, Type type,
                                SourceRange loc) {
  const Type i64 = Type::scalarType(ScalarKind::Int64);
  const auto size = static_cast<int64_t>(candidates.size());
  ExprPtr result = castTo(std::move(candidates.back()), type);
  for (size_t k = candidates.size() - 1; k-- > 0;) {
    auto equals = [&](int64_t position) {
      return std::make_unique<Compare>(loc, CompareOp::Eq, castTo(expr(index), i64),
                                       std::make_unique<Constant>(loc, i64, position, double(position)));
    };
    ExprPtr test = isSignedInteger(index.type->scalarKind()) && !isNonNegative(index)
                       ? std::make_unique<Logical>(loc, LogicalOp::Or, equals(int64_t(k)), equals(int64_t(k) - size))
                       : ExprPtr(equals(int64_t(k)));
    result = std::make_unique<Select>(loc, std::move(test), castTo(std::move(candidates[k]), type), std::move(result));
  }
  return result;
}

/// PAIRS[k], a tuple taken from a tuple of tuples: with a constant k the
/// leaves of row k; at run time, per column, the choice among the rows'
/// elements in that column (Sema made every row as long).
std::vector<ExprPtr> Lowering::rowOf(const ast::SubscriptExpr &e) {
  const pyk::Type &tupleType = *e.object->type;
  std::vector<ExprPtr> leaves = tupleElements(*e.object);
  const ast::Expr &index = *e.indices.front();
  std::vector<ExprPtr> row;
  if (index.constant) {
    const auto position = static_cast<size_t>(index.constant->intValue);
    const size_t start = tupleLeafOffset(tupleType, position);
    const size_t count = tupleLeaves(*tupleType.elements()[position]).size();
    for (size_t i = start; i < start + count; ++i)
      row.push_back(std::move(leaves[i]));
    return row;
  }
  const size_t rows = tupleType.elements().size();
  const size_t columns = e.type->elements().size();
  for (size_t column = 0; column < columns; ++column) {
    std::vector<ExprPtr> candidates;
    for (size_t r = 0; r < rows; ++r)
      candidates.push_back(std::move(leaves[r * columns + column]));
    row.push_back(chooseByIndex(index, std::move(candidates), toIRType(e.type->elements()[column]), e.range()));
  }
  return row;
}

/// f(args): scalars converted to the parameters' types, arrays passed as
/// themselves.
ExprPtr Lowering::deviceCall(const ast::CallExpr &e) {
  const Function &callee = *functions_.at(e.calleeDef);
  std::vector<ExprPtr> args;
  size_t next = 0; // a tuple is one parameter per element
  for (const ast::ExprPtr &arg : e.args) {
    if (arg->type->isTuple()) {
      for (ExprPtr &element : tupleElements(*arg)) {
        const Type paramType = callee.params[next++]->type;
        args.push_back(castTo(std::move(element), paramType));
      }
      continue;
    }
    if (arg->type->isRecord()) { // the element's array and index
      FieldAccess element = recordField(*arg, arg->type->record()->fields.front().name);
      args.push_back(std::make_unique<VarRef>(arg->range(), element.array));
      args.push_back(std::move(element.at.front()));
      next += 2;
      continue;
    }
    const Type paramType = callee.params[next++]->type;
    if (paramType.isArray())
      args.push_back(std::make_unique<VarRef>(arg->range(), arrayOf(*arg)));
    else
      args.push_back(castTo(expr(*arg), paramType));
  }
  if (callee.gridSynchronises) // the grid barrier's address, passed on
    args.push_back(std::make_unique<VarRef>(e.range(), function_.gridBarrier));
  return std::make_unique<Call>(e.range(), &callee, callee.returnType, std::move(args));
}

/// mul(a, b) of a CUDA C++ function the file declares: each argument
/// converted to its declared type.
ExprPtr Lowering::foreignCall(const ast::CallExpr &e) {
  const ForeignFunction &function = *foreign_.at(e.foreign);
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < e.args.size(); ++i)
    args.push_back(castTo(expr(*e.args[i]), function.params[i]));
  return std::make_unique<ForeignCall>(e.range(), &function, std::move(args));
}

std::optional<GpuOpKind> Lowering::gpuOpOf(Builtin builtin) {
  switch (builtin) {
  case Builtin::SyncThreads:
    return GpuOpKind::SyncThreads;
  case Builtin::SyncThreadsCount:
    return GpuOpKind::SyncThreadsCount;
  case Builtin::SyncThreadsAnd:
    return GpuOpKind::SyncThreadsAnd;
  case Builtin::SyncThreadsOr:
    return GpuOpKind::SyncThreadsOr;
  case Builtin::ThreadFence:
    return GpuOpKind::ThreadFence;
  case Builtin::ThreadFenceBlock:
    return GpuOpKind::ThreadFenceBlock;
  case Builtin::ThreadFenceSystem:
    return GpuOpKind::ThreadFenceSystem;
  case Builtin::GridSync:
    return GpuOpKind::GridSync;
  case Builtin::Nanosleep:
    return GpuOpKind::Nanosleep;
  case Builtin::SyncWarp:
    return GpuOpKind::SyncWarp;
  case Builtin::ShflSync:
    return GpuOpKind::ShflIdx;
  case Builtin::ShflUpSync:
    return GpuOpKind::ShflUp;
  case Builtin::ShflDownSync:
    return GpuOpKind::ShflDown;
  case Builtin::ShflXorSync:
    return GpuOpKind::ShflXor;
  case Builtin::AllSync:
    return GpuOpKind::VoteAll;
  case Builtin::AnySync:
    return GpuOpKind::VoteAny;
  case Builtin::EqSync:
    return GpuOpKind::VoteEq;
  case Builtin::BallotSync:
    return GpuOpKind::Ballot;
  case Builtin::MatchAnySync:
    return GpuOpKind::MatchAny;
  case Builtin::MatchAllSync:
    return GpuOpKind::MatchAll;
  case Builtin::ActiveMask:
    return GpuOpKind::ActiveMask;
  case Builtin::LaneMaskLt:
    return GpuOpKind::LaneMaskLt;
  default:
    return std::nullopt;
  }
}

std::optional<AtomicOp> Lowering::atomicOpOf(Builtin builtin) {
  switch (builtin) {
  case Builtin::AtomicAdd:
    return AtomicOp::Add;
  case Builtin::AtomicSub:
    return AtomicOp::Sub;
  case Builtin::AtomicAnd:
    return AtomicOp::And;
  case Builtin::AtomicOr:
    return AtomicOp::Or;
  case Builtin::AtomicXor:
    return AtomicOp::Xor;
  case Builtin::AtomicMax:
    return AtomicOp::Max;
  case Builtin::AtomicMin:
    return AtomicOp::Min;
  case Builtin::AtomicExch:
    return AtomicOp::Exch;
  case Builtin::AtomicInc:
    return AtomicOp::Inc;
  case Builtin::AtomicDec:
    return AtomicOp::Dec;
  case Builtin::AtomicCas:
  case Builtin::AtomicCompareAndSwap:
    return AtomicOp::Cas;
  case Builtin::AtomicNanMax:
    return AtomicOp::NanMax;
  case Builtin::AtomicNanMin:
    return AtomicOp::NanMin;
  default:
    return std::nullopt;
  }
}

/// A predicate as `type` (bool or int32): its truth; an int32 as it is,
/// since the operation takes non-zero as true.
ExprPtr Lowering::predicate(const ast::Expr &arg, Type type) {
  if (toIRType(arg.type) == type)
    return expr(arg);
  return castTo(truthOf(arg), type);
}

/// A barrier, fence or warp operation. The counting barriers take their
/// predicate as an int32, the votes as a bool; masks are uint32 and
/// lanes int32 (GpuOpKind).
ExprPtr Lowering::gpuOp(const ast::CallExpr &e, GpuOpKind op) {
  const Type u32 = Type::scalarType(ScalarKind::UInt32), i32 = Type::scalarType(ScalarKind::Int32);
  std::vector<ExprPtr> args;
  if (op >= GpuOpKind::SyncWarp) {
    if (e.args.empty() && op == GpuOpKind::SyncWarp)
      args.push_back(std::make_unique<Constant>(e.range(), u32, 0xFFFFFFFFll, 4294967295.0));
    for (size_t i = 0; i < e.args.size(); ++i) {
      const ast::Expr &arg = *e.args[i];
      if (i == 0)
        args.push_back(castTo(expr(arg), u32));
      else if (op == GpuOpKind::VoteAll || op == GpuOpKind::VoteAny || op == GpuOpKind::VoteEq ||
               op == GpuOpKind::Ballot)
        args.push_back(predicate(arg, Type::scalarType(ScalarKind::Bool)));
      else if (i == 2)
        args.push_back(castTo(expr(arg), i32));
      else
        args.push_back(castTo(expr(arg), op == GpuOpKind::MatchAny || op == GpuOpKind::MatchAll
                                             ? toIRType(arg.type)
                                             : toIRType(e.type)));
    }
    // match_all_sync's tuple is made from its mask (mathTuple's caller).
    const Type type = op == GpuOpKind::MatchAll ? Type::scalarType(ScalarKind::UInt32) : toIRType(e.type);
    return std::make_unique<GpuOp>(e.range(), op, type, std::move(args));
  }
  for (const ast::ExprPtr &arg : e.args)
    args.push_back(op == GpuOpKind::Nanosleep ? castTo(expr(*arg), u32) : predicate(*arg, i32));
  if (op == GpuOpKind::GridSync)
    args.push_back(std::make_unique<VarRef>(e.range(), function_.gridBarrier));
  return std::make_unique<GpuOp>(e.range(), op, toIRType(e.type), std::move(args));
}

/// cuda.atomic.OP(array, index, [expected,] value): the index as one
/// int64 per axis, the operands in the element type; compare_and_swap's
/// index is 0.
ExprPtr Lowering::atomic(const ast::CallExpr &e, AtomicOp op) {
  const Variable *array = arrayOf(*e.args[0]);
  const Type element = Type::scalarType(array->type.scalar);
  const Type i64 = Type::scalarType(ScalarKind::Int64);
  std::vector<ExprPtr> indexList;
  const ast::Expr &index = *e.args[1];
  if (e.function == Builtin::AtomicCompareAndSwap) {
    indexList.push_back(std::make_unique<Constant>(e.range(), i64, 0, 0.0));
    ExprPtr compare = castTo(expr(*e.args[1]), element);
    ExprPtr value = castTo(expr(*e.args[2]), element);
    return std::make_unique<Atomic>(e.range(), op, array, std::move(indexList), std::move(value),
                                    std::move(compare));
  }
  if (index.type->isTuple()) {
    for (ExprPtr &value : tupleElements(index))
      indexList.push_back(castTo(std::move(value), i64));
  } else {
    indexList.push_back(castTo(expr(index), i64));
  }
  ExprPtr compare = op == AtomicOp::Cas ? castTo(expr(*e.args[2]), element) : nullptr;
  ExprPtr value = castTo(expr(*e.args.back()), element);
  return std::make_unique<Atomic>(e.range(), op, array, std::move(indexList), std::move(value), std::move(compare));
}

/// An extent of `array`: a constant for an array local.
ExprPtr Lowering::extent(const Variable *array, unsigned axis, SourceRange loc) {
  if (!array->fixedShape.empty()) {
    const int64_t value = array->fixedShape[axis];
    return std::make_unique<Constant>(loc, Type::scalarType(ScalarKind::Int64), value, double(value));
  }
  return std::make_unique<ArrayDim>(loc, array, axis);
}

/// cuda.popc/brev/clz/ffs in the operand's 32 or 64 bits (the counts
/// then as int32); cuda.fma and cuda.cbrt as math functions.
ExprPtr Lowering::intrinsic(const ast::CallExpr &e) {
  const Type operandType = toIRType(e.operandType);
  std::vector<ExprPtr> args;
  for (const ast::ExprPtr &arg : e.args)
    args.push_back(castTo(expr(*arg), operandType));
  if (e.function == Builtin::Fma || e.function == Builtin::Cbrt)
    return std::make_unique<MathCall>(e.range(), operandType, e.function == Builtin::Fma ? "fma" : "cbrt",
                                      std::move(args));
  const UnaryOp op = e.function == Builtin::Popc   ? UnaryOp::Popc
                     : e.function == Builtin::Brev ? UnaryOp::Brev
                     : e.function == Builtin::Clz  ? UnaryOp::Clz
                                                   : UnaryOp::Ffs;
  return castTo(std::make_unique<Unary>(e.range(), op, std::move(args.front())), toIRType(e.type));
}

/// cuda.selp(test, a, b): a select, its three arguments all evaluated, in
/// order, as a call's are. Where one has effects or reads memory, each that
/// evaluating again could change is held in a Let first, since a select
/// evaluates one side only.
ExprPtr Lowering::selp(const ast::CallExpr &e) {
  const Type type = toIRType(e.type);
  const SourceRange loc = e.range();
  std::vector<ExprPtr> args;
  args.push_back(truthOf(*e.args[0]));
  args.push_back(castTo(expr(*e.args[1]), type));
  args.push_back(castTo(expr(*e.args[2]), type));
  const bool anyToHold = std::any_of(args.begin(), args.end(), [](const ExprPtr &arg) {
    unsigned budget = 16;
    return !isCheapAndHarmless(*arg, budget);
  });
  std::vector<std::pair<Variable *, ExprPtr>> held;
  for (ExprPtr &arg : args) {
    if (!anyToHold || copyOfStable(*arg))
      continue;
    Variable *var = function_.addHiddenLocal(uniqueName("pyk_selp"), arg->type(), arg->loc());
    held.emplace_back(var, std::move(arg));
    arg = std::make_unique<VarRef>(loc, var);
  }
  ExprPtr result = std::make_unique<Select>(loc, std::move(args[0]), std::move(args[1]), std::move(args[2]));
  for (auto it = held.rbegin(); it != held.rend(); ++it)
    result = std::make_unique<Let>(loc, it->first, std::move(it->second), std::move(result));
  return result;
}

ExprPtr Lowering::call(const ast::CallExpr &e) {
  if (e.calleeDef)
    return deviceCall(e);
  if (e.foreign)
    return foreignCall(e);
  if (e.function == Builtin::Selp)
    return selp(e);
  if (isHalfFunction(e.function))
    return fp16(e);
  if (e.function == Builtin::Complex || e.function == Builtin::Conjugate)
    return complexCall(e);
  if (e.function == Builtin::Popc || e.function == Builtin::Brev || e.function == Builtin::Clz ||
      e.function == Builtin::Ffs || e.function == Builtin::Fma || e.function == Builtin::Cbrt)
    return intrinsic(e);
  if (auto op = gpuOpOf(e.function))
    return gpuOp(e, *op);
  if (auto op = atomicOpOf(e.function))
    return atomic(e, *op);
  const Type type = toIRType(e.type);
  switch (e.function) {
  case Builtin::Cast:
    if (type.isBool()) // bool(z): Python's truth
      return truthOf(*e.args.front());
    return castTo(expr(*e.args.front()), type);
  case Builtin::Abs: {
    ExprPtr value = expr(*e.args.front());
    if (isComplex(value->type().scalar)) // |z|, a float
      return std::make_unique<Unary>(e.range(), UnaryOp::Abs, std::move(value), type);
    return std::make_unique<Unary>(e.range(), UnaryOp::Abs, castTo(std::move(value), type));
  }
  case Builtin::Min:
  case Builtin::Max: {
    const BinaryOp op = e.function == Builtin::Min ? BinaryOp::Min : BinaryOp::Max;
    ExprPtr result = castTo(expr(*e.args.front()), type);
    for (size_t i = 1; i < e.args.size(); ++i)
      result = std::make_unique<Binary>(e.range(), op, std::move(result), castTo(expr(*e.args[i]), type));
    return result;
  }
  case Builtin::MathFunction:
    return math(e);
  case Builtin::LibdeviceFunction:
    return libdevice(e);
  case Builtin::Len:
    return extent(arrayOf(*e.args.front()), 0, e.range());
  case Builtin::Round: {
    if (e.args.size() == 2)
      return roundToDigits(e);
    ExprPtr value = expr(*e.args.front());
    if (!isFloat(value->type().scalar))
      return castTo(std::move(value), type);
    SourceRange loc = e.range();
    return castTo(std::make_unique<Unary>(loc, UnaryOp::Round, std::move(value)), type);
  }
  default:
    break;
  }
  assert((e.function == Builtin::Grid || e.function == Builtin::Gridsize) && "Sema resolved every call");
  // cuda.grid(1) == blockIdx.x * blockDim.x + threadIdx.x (tuples are
  // unpacked by their users: tupleElements).
  return gridValue(e.function, 0, e.range());
}

/// round(x, n) of a float: rint(x * 10**n) / 10**n, or for negative n
/// rint(x / 10**-n) * 10**-n (NumPy's method). x is pure (Sema allows no
/// call with effects here), so a run-time n may evaluate it twice.
ExprPtr Lowering::roundToDigits(const ast::CallExpr &e) {
  const Type type = toIRType(e.type);
  if (!isFloat(type.scalar))
    return castTo(expr(*e.args[0]), type);
  const SourceRange loc = e.range();
  auto scaled = [&](bool multiplyFirst, ExprPtr scale, ExprPtr scaleAgain) -> ExprPtr {
    ExprPtr inner = std::make_unique<Binary>(loc, multiplyFirst ? BinaryOp::Mul : BinaryOp::Div,
                                             castTo(expr(*e.args[0]), type), std::move(scale));
    ExprPtr rounded = std::make_unique<Unary>(loc, UnaryOp::Round, std::move(inner));
    return std::make_unique<Binary>(loc, multiplyFirst ? BinaryOp::Div : BinaryOp::Mul, std::move(rounded),
                                    std::move(scaleAgain));
  };
  if (const auto &digits = e.args[1]->constant) {
    double scale = std::pow(10.0, static_cast<double>(digits->intValue < 0 ? -digits->intValue : digits->intValue));
    auto constant = [&] { return castTo(std::make_unique<Constant>(loc, Type::scalarType(ScalarKind::Float64), 0, scale), type); };
    return scaled(digits->intValue >= 0, constant(), constant());
  }
  // 10.0 ** |n| in x's type, for a run-time n.
  const Type i64 = Type::scalarType(ScalarKind::Int64);
  auto power = [&](bool negate) -> ExprPtr {
    ExprPtr n = castTo(expr(*e.args[1]), i64);
    if (negate)
      n = std::make_unique<Unary>(loc, UnaryOp::Neg, std::move(n));
    return std::make_unique<Binary>(loc, BinaryOp::Pow, std::make_unique<Constant>(loc, type, 0, 10.0),
                                    castTo(std::move(n), type));
  };
  ExprPtr nonNegative = std::make_unique<Compare>(loc, CompareOp::Ge, castTo(expr(*e.args[1]), i64),
                                                  std::make_unique<Constant>(loc, i64, 0, 0.0));
  return std::make_unique<Select>(loc, std::move(nonNegative), scaled(true, power(false), power(false)),
                                  scaled(false, power(true), power(true)));
}

ExprPtr Lowering::unary(const ast::UnaryExpr &e) {
  if (e.op == ast::UnaryOp::Not)
    return std::make_unique<Unary>(e.range(), UnaryOp::Not, truthOf(*e.operand));
  Type type = toIRType(e.type);
  ExprPtr operand = castTo(expr(*e.operand), type);
  switch (e.op) {
  case ast::UnaryOp::Plus:
    return operand;
  case ast::UnaryOp::Minus:
    return std::make_unique<Unary>(e.range(), UnaryOp::Neg, std::move(operand));
  case ast::UnaryOp::Not:
    llvm_unreachable("'not' is lowered above, by truthOf");
  case ast::UnaryOp::Invert:
    return std::make_unique<Unary>(e.range(), type.isBool() ? UnaryOp::Not : UnaryOp::BitNot, std::move(operand));
  }
  llvm_unreachable("unknown unary operator");
}

ExprPtr Lowering::arithmetic(ast::BinaryOp op, ExprPtr lhs, ExprPtr rhs, SourceRange loc) {
  switch (op) {
  case ast::BinaryOp::Add:
    return std::make_unique<Binary>(loc, BinaryOp::Add, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::Sub:
    return std::make_unique<Binary>(loc, BinaryOp::Sub, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::Mul:
    return std::make_unique<Binary>(loc, BinaryOp::Mul, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::Div:
    return std::make_unique<Binary>(loc, BinaryOp::Div, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::FloorDiv:
    return std::make_unique<Binary>(loc, BinaryOp::FloorDiv, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::Mod:
    return std::make_unique<Binary>(loc, BinaryOp::Mod, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::Pow:
    return std::make_unique<Binary>(loc, BinaryOp::Pow, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::BitAnd:
    return std::make_unique<Binary>(loc, BinaryOp::And, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::BitOr:
    return std::make_unique<Binary>(loc, BinaryOp::Or, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::BitXor:
    return std::make_unique<Binary>(loc, BinaryOp::Xor, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::LShift:
    return std::make_unique<Binary>(loc, BinaryOp::Shl, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::RShift:
    return std::make_unique<Binary>(loc, BinaryOp::Shr, std::move(lhs), std::move(rhs));
  case ast::BinaryOp::MatMul:
    break;
  }
  llvm_unreachable("Sema rejects '@' before lowering");
}

/// a < b < c is (a < b) and (b < c), with b's value shared: IR
/// expressions are pure, so evaluating b twice gives the same value.
ExprPtr Lowering::compare(const ast::CompareExpr &e) {
  static const std::map<ast::CompareOp, CompareOp> ops = {
      {ast::CompareOp::Lt, CompareOp::Lt}, {ast::CompareOp::Le, CompareOp::Le}, {ast::CompareOp::Gt, CompareOp::Gt},
      {ast::CompareOp::Ge, CompareOp::Ge}, {ast::CompareOp::Eq, CompareOp::Eq}, {ast::CompareOp::Ne, CompareOp::Ne}};
  ExprPtr result;
  const ast::Expr *lhs = e.first.get();
  std::optional<PreludeScope> conditional;
  for (size_t i = 0; i < e.ops.size(); ++i) {
    if (i == 1)
      conditional.emplace(*this, nullptr); // later links run only when the earlier hold
    const ast::Expr *rhs = e.comparators[i].get();
    const Type operandType = toIRType(e.operandTypes[i]);
    ExprPtr link = std::make_unique<Compare>(e.range(), ops.at(e.ops[i]), castTo(expr(*lhs), operandType),
                                             castTo(expr(*rhs), operandType));
    result = result ? std::make_unique<Logical>(e.range(), LogicalOp::And, std::move(result), std::move(link))
                    : std::move(link);
    lhs = rhs;
  }
  return result;
}

std::vector<ExprPtr> Lowering::indices(const ast::SubscriptExpr &e) {
  std::vector<ExprPtr> result;
  // a[gid], gid a tuple: one index per element.
  if (e.indices.size() == 1 && e.indices.front()->type->isTuple()) {
    for (ExprPtr &element : tupleElements(*e.indices.front()))
      result.push_back(castTo(std::move(element), Type::scalarType(ScalarKind::Int64)));
    return result;
  }
  for (const ast::ExprPtr &index : e.indices)
    result.push_back(castTo(expr(*index), Type::scalarType(ScalarKind::Int64)));
  return result;
}

} // namespace pyk::ir::lowering
