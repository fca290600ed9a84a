//===- SemaGuards.cpp - Accesses by thread position that no test bounds ---===//
//
// A grid has more threads than elements whenever the element count is not
// a multiple of the block size, so an access indexed by the thread's
// position in the grid without a test such as `if i < x.shape[0]` reads or
// writes past the array. This warns at such an access, with a note where
// the index comes from, and suggests a test that bounds it.
//
//  1. What a value holds of the thread's position (ThreadPosition) follows
//     from what it is computed from: cuda.grid(n) is the position;
//     cuda.threadIdx (in the block) plus cuda.blockIdx (times blockDim) is
//     too; `+ - * // << >>` keep it, and a cast. A value read from memory,
//     `i % n`, `i & mask`, a call, min/max, a comparison hold none of it.
//  2. A local holds what its last assignment in the text stored, so that a
//     reused name (`i = cuda.grid(1)`, later `for i in range(n)` or
//     `i = perm[i]`) stops being the position. A `for` loop's variable is
//     not the position: range() bounds it.
//  3. A local that holds something of the position is guarded inside an
//     `if` or `while` whose condition compares it, and after
//     `if <comparison of it>: return` for the rest of the block, until it
//     is assigned again.
//  4. An index into an array parameter (global memory) that is the
//     position and mentions an unguarded local that is, or computes the
//     position itself, is reported, once per local. Shared and local
//     arrays, indexed by thread indices sized to the block, are not. The
//     suggested test bounds every such index of the access by the extent
//     of its own axis.
//
//===----------------------------------------------------------------------===//
#include "ASTWalk.h"
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

#include <algorithm>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

using Kind = ThreadPosition::Kind;

ThreadPosition grid(bool fromGridCall) {
  return {Kind::Grid, fromGridCall, {}};
}

bool fromGridCall(const ThreadPosition &a, const ThreadPosition &b) {
  return (a.kind == Kind::Grid && a.fromGridCall) || (b.kind == Kind::Grid && b.fromGridCall);
}

/// `a + b`: the position plus anything is the position; the thread's index
/// in its block plus the block's start is the thread's position.
ThreadPosition sum(const ThreadPosition &a, const ThreadPosition &b) {
  if (a.kind == Kind::Grid || b.kind == Kind::Grid)
    return grid(fromGridCall(a, b));
  if ((a.kind == Kind::InBlock && b.kind == Kind::Block) || (a.kind == Kind::Block && b.kind == Kind::InBlock))
    return grid(false);
  return {std::max(a.kind, b.kind), false, {}};
}

/// `a * b`: `blockIdx.x * blockDim.x` is the block's start.
ThreadPosition product(const ThreadPosition &a, const ThreadPosition &b) {
  if (a.kind == Kind::Grid || b.kind == Kind::Grid)
    return grid(fromGridCall(a, b));
  return {std::max(a.kind, b.kind), false, {}};
}

ThreadPosition binaryPosition(BinaryOp op, const ThreadPosition &lhs, const ThreadPosition &rhs) {
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
    return sum(lhs, rhs);
  case BinaryOp::Mul:
    return product(lhs, rhs);
  case BinaryOp::FloorDiv:
  case BinaryOp::LShift:
  case BinaryOp::RShift:
    return {lhs.kind, lhs.fromGridCall, {}}; // i // 2 still grows with the position
  case BinaryOp::Div:
  case BinaryOp::Mod:
  case BinaryOp::Pow:
  case BinaryOp::MatMul:
  case BinaryOp::BitAnd:
    return {}; // a float, or bounded by the other operand
  }
  return {};
}

/// Step 1: what `e` holds of the thread's position.
ThreadPosition positionOf(const Expr &e) {
  switch (e.builtin) {
  case Builtin::ThreadIdxX:
  case Builtin::ThreadIdxY:
  case Builtin::ThreadIdxZ:
    return {Kind::InBlock, false, {}};
  case Builtin::BlockIdxX:
  case Builtin::BlockIdxY:
  case Builtin::BlockIdxZ:
    return {Kind::Block, false, {}};
  default:
    break;
  }
  if (auto *name = dyn_cast<NameExpr>(&e))
    return name->symbol && name->symbol->kind == SymbolKind::Local ? name->symbol->position : ThreadPosition{};
  if (auto *call = dyn_cast<CallExpr>(&e)) {
    if (call->function == Builtin::Grid)
      return grid(true);
    if (call->function == Builtin::Cast && call->args.size() == 1)
      return positionOf(*call->args[0]);
    return {};
  }
  // An element of a tuple of positions (`cuda.grid(2)[0]`); an array's
  // element is data.
  if (auto *subscript = dyn_cast<SubscriptExpr>(&e))
    return subscript->object->type && subscript->object->type->isTuple() ? positionOf(*subscript->object)
                                                                         : ThreadPosition{};
  if (auto *unary = dyn_cast<UnaryExpr>(&e))
    return unary->op == UnaryOp::Minus || unary->op == UnaryOp::Plus ? positionOf(*unary->operand) : ThreadPosition{};
  if (auto *binary = dyn_cast<BinaryExpr>(&e))
    return binaryPosition(binary->op, positionOf(*binary->lhs), positionOf(*binary->rhs));
  // `i if i < n else n - 1` is bounded; only both values the position are.
  if (auto *conditional = dyn_cast<ConditionalExpr>(&e)) {
    const ThreadPosition a = positionOf(*conditional->thenValue), b = positionOf(*conditional->elseValue);
    return a.kind == Kind::Grid && b.kind == Kind::Grid ? grid(fromGridCall(a, b)) : ThreadPosition{};
  }
  if (auto *tuple = dyn_cast<TupleExpr>(&e)) {
    bool fromCall = false;
    for (const ExprPtr &element : tuple->elements) {
      const ThreadPosition position = positionOf(*element);
      if (position.kind != Kind::Grid)
        return {};
      fromCall |= position.fromGridCall;
    }
    return tuple->elements.empty() ? ThreadPosition{} : grid(fromCall);
  }
  return {};
}

/// The locals holding something of the thread's position that `e`
/// compares (in a comparison anywhere in it).
std::set<const Symbol *> comparedPositions(const Expr &e) {
  std::set<const Symbol *> compared;
  forEachExprIn(e, [&](const Expr &inner) {
    if (!isa<CompareExpr>(inner))
      return;
    forEachExprIn(inner, [&](const Expr &operand) {
      if (auto *name = dyn_cast<NameExpr>(&operand);
          name && name->symbol && name->symbol->kind == SymbolKind::Local && name->symbol->position.kind != Kind::None)
        compared.insert(name->symbol);
    });
  });
  return compared;
}

bool endsInReturn(const StmtList &body) {
  return !body.empty() && isa<ReturnStmt>(*body.back());
}

/// `e`'s text as the left operand of `<`: parenthesized where `<` would
/// bind tighter than its own operator.
std::string comparable(const Expr &e, std::string text) {
  if (isa<ConditionalExpr, BoolOpExpr, CompareExpr>(e) ||
      (isa<UnaryExpr>(e) && llvm::cast<UnaryExpr>(e).op == UnaryOp::Not))
    return "(" + text + ")";
  return text;
}

/// An index of an access that is the thread's position and that no test
/// bounds.
struct UnboundedIndex {
  const Expr *index;
  unsigned axis;
  /// A tuple index (`a[p]`, p = cuda.grid(2)) bounds one axis per element:
  /// which; -1 for a scalar index.
  int element;
  /// The unguarded local the index has the position from; null where the
  /// index computes it (`cuda.grid(1)`, `tx + bx * bw`).
  const Symbol *local;
};

/// Step 4: the indices of `expr` that are the position and that `guarded`
/// does not bound. An index is bounded where it has the position from a
/// guarded local, or only from guarded parts (`tx + bx * bw` after a test
/// of `tx` and `bx`).
std::vector<UnboundedIndex> unboundedIndices(const SubscriptExpr &expr, const std::set<const Symbol *> &guarded) {
  std::vector<UnboundedIndex> unbounded;
  unsigned axis = 0;
  for (const ExprPtr &index : expr.indices) {
    const size_t width = index->type && index->type->isTuple() ? index->type->elements().size() : 0;
    const unsigned first = axis;
    axis += width ? static_cast<unsigned>(width) : 1;
    if (positionOf(*index).kind != Kind::Grid)
      continue;
    const Symbol *unguardedLocal = nullptr;
    bool guardedLocal = false, unguardedPart = false;
    forEachExprIn(*index, [&](const Expr &inner) {
      auto *name = dyn_cast<NameExpr>(&inner);
      if (name && name->symbol && name->symbol->kind == SymbolKind::Local &&
          name->symbol->position.kind != Kind::None) {
        const bool isGuarded = guarded.count(name->symbol);
        if (name->symbol->position.kind != Kind::Grid)
          unguardedPart |= !isGuarded;
        else if (isGuarded)
          guardedLocal = true;
        else if (!unguardedLocal)
          unguardedLocal = name->symbol;
        return;
      }
      // cuda.grid(...), cuda.threadIdx.x, cuda.blockIdx.x.
      auto *call = dyn_cast<CallExpr>(&inner);
      unguardedPart |= (call && call->function == Builtin::Grid) ||
                       (!name && !call && inner.builtin != Builtin::None && positionOf(inner).kind != Kind::None);
    });
    if (!unguardedLocal && (guardedLocal || !unguardedPart))
      continue;
    if (!width)
      unbounded.push_back({index.get(), first, -1, unguardedLocal});
    for (size_t k = 0; k < width; ++k)
      unbounded.push_back({index.get(), first + static_cast<unsigned>(k), static_cast<int>(k), unguardedLocal});
  }
  return unbounded;
}

} // namespace

void Sema::assignPosition(Expr &target, const ThreadPosition &position) {
  if (auto *name = dyn_cast<NameExpr>(&target); name && name->symbol && name->symbol->kind == SymbolKind::Local) {
    auto *symbol = const_cast<Symbol *>(name->symbol);
    symbol->position = position;
    symbol->position.assigned = target.range();
    guarded_.erase(symbol); // a new value: earlier tests do not bound it
    return;
  }
  // i, j = cuda.grid(2): each element is the position.
  if (auto *tuple = dyn_cast<TupleExpr>(&target))
    for (ExprPtr &element : tuple->elements)
      assignPosition(*element, position);
  // An element of an array holds data, not the position: `buf[k] = i`
  // changes neither `buf` nor `k`.
}

void Sema::noteGridPositions(Expr &target, const Expr &value) {
  assignPosition(target, positionOf(value));
}

void Sema::noteGridPositions(AugAssignStmt &stmt) {
  assignPosition(*stmt.target, binaryPosition(stmt.op, positionOf(*stmt.target), positionOf(*stmt.value)));
}

void Sema::forgetGridPositions(Expr &target) {
  assignPosition(target, ThreadPosition{});
}

void Sema::resetGridPositions() {
  guarded_.clear();
  warnedGridIndices_.clear();
  if (function_)
    for (const Symbol *local : function_->locals)
      const_cast<Symbol *>(local)->position = {};
}

std::set<const Symbol *> Sema::guardsOf(const Expr &condition) const {
  return comparedPositions(condition);
}

void Sema::guardAfterEarlyReturn(const IfStmt &stmt) {
  if (endsInReturn(stmt.thenBody) && stmt.elseBody.empty())
    for (const Symbol *symbol : comparedPositions(*stmt.condition))
      guarded_.insert(symbol);
}

/// A name for a new local, one the function does not use yet: the first
/// of `preferred` that is free, or the first with a number.
std::string Sema::unusedLocalName(const std::vector<std::string> &preferred) {
  auto unused = [&](const std::string &name) { return !functionScope_.count(name) && !lookup(name); };
  for (const std::string &name : preferred)
    if (unused(name))
      return name;
  for (unsigned n = 1;; ++n)
    if (unused(preferred.front() + std::to_string(n)))
      return preferred.front() + std::to_string(n);
}

/// Warns at the first index of `expr` that is the thread's position and
/// that no test bounds, naming its unguarded local (or saying that the
/// index computes the position), and suggests one test that bounds them
/// all, each by the extent of its own axis.
void Sema::checkGridIndex(const SubscriptExpr &expr) {
  auto *array = dyn_cast<NameExpr>(expr.object.get());
  if (!array || !array->symbol || array->symbol->kind != SymbolKind::Parameter || !function_)
    return;
  const std::vector<UnboundedIndex> unbounded = unboundedIndices(expr, guarded_);
  if (unbounded.empty())
    return;
  auto named = std::find_if(unbounded.begin(), unbounded.end(), [](const UnboundedIndex &u) { return u.local; });
  const UnboundedIndex reported = named != unbounded.end() ? *named : unbounded.front();
  if (!warnedGridIndices_.insert(reported.local).second)
    return;
  std::vector<std::string> texts;
  for (const UnboundedIndex &u : unbounded) {
    const std::string text = comparable(*u.index, sourceText(u.index->range()));
    texts.push_back(u.element < 0 ? text : text + "[" + std::to_string(u.element) + "]");
    if (u.local)
      warnedGridIndices_.insert(u.local); // the suggested test bounds it too
  }
  auto test = [&](const std::vector<std::string> &operands) {
    std::string condition;
    for (size_t i = 0; i < unbounded.size(); ++i)
      condition +=
          (i ? " and " : "") + operands[i] + " < " + array->name + ".shape[" + std::to_string(unbounded[i].axis) + "]";
    return "if " + condition + ":";
  };
  if (reported.local) {
    warning(reported.index->range()) << "'" << reported.local->name
                                     << "' is the thread's position and no test bounds it here: a grid larger than '"
                                     << array->name << "' accesses past its end; guard the access, e.g. '"
                                     << test(texts) << "'";
    note(reported.local->position.assigned)
        << "'" << reported.local->name << "' comes from "
        << (reported.local->position.fromGridCall ? "cuda.grid" : "cuda.threadIdx and cuda.blockIdx") << " here";
    return;
  }
  // The index computes the position itself. `x[cuda.grid(1)]`: name it
  // first, with names the function does not use yet; otherwise test the
  // indices as written.
  std::string suggestion = "'" + test(texts) + "'";
  auto *call = dyn_cast<CallExpr>(reported.index);
  const bool onlyThisCall = std::all_of(unbounded.begin(), unbounded.end(),
                                        [&](const UnboundedIndex &u) { return u.index == reported.index; });
  if (call && call->function == Builtin::Grid && onlyThisCall && unbounded.size() <= 3) {
    static const std::vector<std::string> preferred[] = {{"i", "idx", "pos"}, {"j", "col"}, {"k", "depth"}};
    std::vector<std::string> names;
    std::string targets;
    for (size_t i = 0; i < unbounded.size(); ++i) {
      names.push_back(unusedLocalName(preferred[i]));
      targets += (i ? ", " : "") + names.back();
    }
    suggestion = "'" + targets + " = " + sourceText(call->range()) + "' then '" + test(names) + "'";
  }
  warning(reported.index->range()) << "this index is the thread's position and no test bounds it: a grid larger than '"
                                   << array->name << "' accesses past its end; test it first, e.g. " << suggestion;
}

} // namespace pyk::sema
