//===- SemaIteration.cpp - 'for' over arrays, tuples, enumerate and zip ---===//
//
// A `for` loop over anything but range(...) is rewritten, in the AST, into
// a counted loop over the iterable's length that reads the element at the
// counter:
//
//   for v in x:                    for k in range(len(x)):
//       body                   =>      v = x[k]
//                                      body
//
//   for i, (a, b) in enumerate(zip(x, y), 1):
//                              =>  for k in range(min(len(x), len(y))):
//                                      i = k + 1
//                                      a = x[k]
//                                      b = y[k]
//
// so the rest of the compiler sees only what it already knows: `len`, an
// element read, a range loop. An array view is one more array here, and a
// tuple is indexed by the counter as a homogeneous tuple is (a tuple whose
// elements share no type is reported where it is indexed). Assigning to `v`
// changes the local, never the array, as in Python. The counter `k` is a
// local whose name no Python identifier can spell (see
// isCompilerMadeName).
//
// The rewrite happens once, when it succeeds; after an error the loop is
// left as written, so that every checking pass reports the error again.
// This file does not check the range loop it makes: checkFor does.
//
//===----------------------------------------------------------------------===//
#include "ASTClone.h"
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

/// What a `for` loop iterates, as far as the rewrite needs to know.
struct Iterable {
  enum class Kind { Sequence, Enumerate, Zip };
  Kind kind = Kind::Sequence;
  /// Sequence: the array or tuple; Enumerate: the `start` (may be null).
  const Expr *expr = nullptr;
  /// Enumerate: the one inner iterable; Zip: one per argument.
  std::vector<Iterable> parts;
  /// Sequence: a tuple whose elements are not all of one kind (int, float
  /// or bool), which only a constant index reads (checkDynamicTupleIndex).
  bool mixedTuple = false;
};

namespace {

ExprPtr nameRef(const std::string &name, SourceRange range) { return std::make_unique<NameExpr>(range, name); }

ExprPtr call(const std::string &callee, std::vector<ExprPtr> args, SourceRange range) {
  return std::make_unique<CallExpr>(range, nameRef(callee, range), std::move(args), std::vector<KeywordArgument>{});
}

/// The number of iterations: the length of a sequence, the shortest of
/// zip's (as Python's zip stops at the shortest).
ExprPtr lengthOf(const Iterable &it, SourceRange range) {
  switch (it.kind) {
  case Iterable::Kind::Sequence: {
    std::vector<ExprPtr> args;
    args.push_back(cloneExpr(*it.expr));
    return call("len", std::move(args), range);
  }
  case Iterable::Kind::Enumerate:
    return lengthOf(it.parts.front(), range);
  case Iterable::Kind::Zip: {
    if (it.parts.size() == 1)
      return lengthOf(it.parts.front(), range);
    std::vector<ExprPtr> lengths;
    for (const Iterable &part : it.parts)
      lengths.push_back(lengthOf(part, range));
    return call("min", std::move(lengths), range);
  }
  }
  return nullptr;
}

/// The value the loop variable takes at iteration `counter`: a tuple
/// display for enumerate and zip, so that unpacking it needs no tuple.
ExprPtr elementOf(const Iterable &it, const std::string &counter, SourceRange range) {
  switch (it.kind) {
  case Iterable::Kind::Sequence: {
    std::vector<ExprPtr> index;
    index.push_back(nameRef(counter, range));
    return std::make_unique<SubscriptExpr>(it.expr->range(), cloneExpr(*it.expr), std::move(index));
  }
  case Iterable::Kind::Enumerate: {
    ExprPtr position = nameRef(counter, range);
    if (it.expr)
      position = std::make_unique<BinaryExpr>(it.expr->range(), BinaryOp::Add, it.expr->range(), std::move(position),
                                              cloneExpr(*it.expr));
    std::vector<ExprPtr> pair;
    pair.push_back(std::move(position));
    pair.push_back(elementOf(it.parts.front(), counter, range));
    return std::make_unique<TupleExpr>(range, std::move(pair));
  }
  case Iterable::Kind::Zip: {
    std::vector<ExprPtr> elements;
    for (const Iterable &part : it.parts)
      elements.push_back(elementOf(part, counter, range));
    return std::make_unique<TupleExpr>(range, std::move(elements));
  }
  }
  return nullptr;
}

/// Integer, float or bool: what a run-time tuple index needs to be the same
/// over the elements it chooses among (checkDynamicTupleIndex).
int kindClass(const Type &scalar) {
  return isFloat(scalar.scalarKind()) ? 1 : scalar.isScalarOf(ScalarKind::Bool) ? 2 : 3;
}

/// Whether a run-time index can read every element of `tuple`: scalars
/// of one kind, or rows of scalars of one length whose columns are each of
/// one kind (PAIRS = ((0, 1), (1, 2))).
bool indexableAtRunTime(const Type &tuple) {
  const Type &first = *tuple.elements().front();
  for (const Type *element : tuple.elements()) {
    if (element->isScalar() != first.isScalar() || element->isNestedTuple())
      return false;
    if (element->isScalar()) {
      if (kindClass(*element) != kindClass(first))
        return false;
      continue;
    }
    if (element->elements().size() != first.elements().size())
      return false;
    for (size_t column = 0; column < first.elements().size(); ++column)
      if (kindClass(*element->elements()[column]) != kindClass(*first.elements()[column]))
        return false;
  }
  return true;
}

/// `counter == position`.
ExprPtr counterIs(const std::string &counter, size_t position, SourceRange range) {
  std::vector<ExprPtr> comparators;
  comparators.push_back(std::make_unique<IntLiteralExpr>(range, static_cast<uint64_t>(position), /*tooLarge=*/false));
  return std::make_unique<CompareExpr>(range, nameRef(counter, range), std::vector<CompareOp>{CompareOp::Eq},
                                       std::vector<SourceRange>{range}, std::move(comparators));
}

} // namespace

/// Whether `call` calls Python's `enumerate` or `zip` (not a name the
/// module or function gave another meaning).
std::optional<std::string> Sema::iterationBuiltin(const Expr &expr) {
  auto *call = dyn_cast<CallExpr>(&expr);
  auto *callee = call ? dyn_cast<NameExpr>(call->callee.get()) : nullptr;
  if (!callee || (callee->name != "enumerate" && callee->name != "zip") || lookup(callee->name))
    return std::nullopt;
  return callee->name;
}

/// Reports a tuple of mixed kinds given to enumerate or zip, whose
/// elements would need a chain of tests each (assignFromMixedTuple).
bool Sema::mixedTupleInside(const Iterable &part, const char *builtin) {
  if (part.kind != Iterable::Kind::Sequence || !part.mixedTuple)
    return false;
  notSupportedYet(part.expr->range(), "a tuple of " + part.expr->type->str() + " inside " + builtin +
                                          "() (its elements are not of one kind)");
  return true;
}

/// Classifies what `for` iterates; reports an error and returns false when
/// it cannot be iterated.
bool Sema::classifyIterable(Expr &expr, Iterable &out) {
  if (auto builtin = iterationBuiltin(expr)) {
    auto &call = llvm::cast<CallExpr>(expr);
    ExprPtr *start = nullptr;
    for (KeywordArgument &keyword : call.keywords) {
      if (*builtin == "enumerate" && keyword.name == "start" && !start) {
        start = &keyword.value;
        continue;
      }
      error(keyword.nameRange) << *builtin << "() takes no keyword argument '" << keyword.name << "'";
      return false;
    }
    if (*builtin == "enumerate") {
      const size_t count = call.args.size() + (start ? 1 : 0);
      if (call.args.empty() || count > 2) {
        error(call.range()) << "enumerate() takes an iterable and an optional start, as in 'enumerate(x, 1)'";
        return false;
      }
      if (call.args.size() == 2)
        start = &call.args[1];
      if (start) {
        const Type *type = checkValue(**start);
        if (type->isError())
          return false;
        if (!type->isScalar() || !isInteger(type->scalarKind())) {
          error((*start)->range()) << "enumerate()'s start must be an integer, not " << type->str();
          return false;
        }
      }
      out.kind = Iterable::Kind::Enumerate;
      out.expr = start ? start->get() : nullptr;
      out.parts.emplace_back();
      return classifyIterable(*call.args[0], out.parts.back()) && !mixedTupleInside(out.parts.back(), "enumerate");
    }
    if (call.args.empty()) {
      error(call.range()) << "zip() in a 'for' loop takes at least one iterable, as in 'zip(x, y)'";
      return false;
    }
    out.kind = Iterable::Kind::Zip;
    bool ok = true;
    for (ExprPtr &arg : call.args) {
      out.parts.emplace_back();
      ok = classifyIterable(*arg, out.parts.back()) && ok && !mixedTupleInside(out.parts.back(), "zip");
    }
    return ok;
  }
  if (auto *call = dyn_cast<CallExpr>(&expr)) {
    auto *callee = dyn_cast<NameExpr>(call->callee.get());
    if (callee && callee->name == "range" && !lookup("range")) {
      error(expr.range()) << "range(...) inside enumerate() or zip() is not supported yet; loop over "
                             "range(...) and index the arrays";
      return false;
    }
  }
  const Type *type = checkValue(expr);
  if (type->isError())
    return false;
  if (!type->isArray() && !type->isTuple()) {
    error(expr.range()) << "a 'for' loop iterates over range(...), an array, a tuple, enumerate(...) or "
                           "zip(...), not "
                        << describe(expr);
    return false;
  }
  out.kind = Iterable::Kind::Sequence;
  out.expr = &expr;
  out.mixedTuple = type->isTuple() && !type->elements().empty() && !indexableAtRunTime(*type);
  return true;
}

/// `for v in (1, 2.5, True)`: no run-time index reads every element, so
/// the loop variable takes them from a chain of constant indices
///   if k == 0: v = t[0]
///   elif k == 1: v = t[1]
///   else: v = t[2]
/// and has the type they unify to, as a local assigned each of them.
bool Sema::assignFromMixedTuple(const Expr &target, const Iterable &tuple, const std::string &counter,
                                StmtList &out) {
  const size_t count = tuple.expr->type->elements().size();
  SourceRange range = tuple.expr->range();
  StmtList chain;
  for (size_t position = count; position-- > 0;) {
    StmtList assignment;
    std::vector<ExprPtr> index;
    index.push_back(std::make_unique<IntLiteralExpr>(range, static_cast<uint64_t>(position), /*tooLarge=*/false));
    if (!assignIterationTarget(target,
                               std::make_unique<SubscriptExpr>(range, cloneExpr(*tuple.expr), std::move(index)),
                               assignment))
      return false;
    if (position == count - 1) {
      chain = std::move(assignment);
      continue;
    }
    StmtList elif;
    elif.push_back(std::make_unique<IfStmt>(range, counterIs(counter, position, range), std::move(assignment),
                                            std::move(chain), /*isElif=*/position != 0));
    chain = std::move(elif);
  }
  out.insert(out.end(), std::make_move_iterator(chain.begin()), std::make_move_iterator(chain.end()));
  return true;
}

/// `target = value` as statements: a tuple target takes a tuple display
/// element by element (`i, (a, b) = k, (x[k], y[k])` needs no tuple
/// local); anything else is one assignment.
bool Sema::assignIterationTarget(const Expr &target, ExprPtr value, StmtList &out) {
  auto *targets = dyn_cast<TupleExpr>(&target);
  auto *values = dyn_cast<TupleExpr>(value.get());
  if (targets && values) {
    if (targets->elements.size() != values->elements.size()) {
      error(target.range()) << "cannot unpack " << values->elements.size() << " values into "
                            << targets->elements.size() << " targets";
      return false;
    }
    for (size_t i = 0; i < targets->elements.size(); ++i)
      if (!assignIterationTarget(*targets->elements[i], std::move(values->elements[i]), out))
        return false;
    return true;
  }
  if (!isa<NameExpr, TupleExpr>(target)) {
    error(target.range()) << "a 'for' loop assigns to names, as in 'for i, v in enumerate(x)'";
    return false;
  }
  std::vector<ExprPtr> targetList;
  targetList.push_back(cloneExpr(target));
  out.push_back(std::make_unique<AssignStmt>(target.range(), std::move(targetList), std::move(value)));
  return true;
}

bool Sema::rewriteIteration(ForStmt &stmt) {
  Iterable iterable;
  if (!classifyIterable(*stmt.iterable, iterable))
    return false;
  const SourceRange range = stmt.iterable->range();
  const std::string counter = "for." + std::to_string(iterationLoops_++);
  StmtList prologue;
  if (iterable.kind == Iterable::Kind::Sequence && iterable.mixedTuple) {
    if (!assignFromMixedTuple(*stmt.target, iterable, counter, prologue))
      return false;
  } else if (!assignIterationTarget(*stmt.target, elementOf(iterable, counter, range), prologue)) {
    return false;
  }
  std::vector<ExprPtr> rangeArgs;
  rangeArgs.push_back(lengthOf(iterable, range));
  ExprPtr loopRange = call("range", std::move(rangeArgs), range);
  stmt.target = nameRef(counter, stmt.target->range());
  stmt.iterable = std::move(loopRange);
  stmt.body.insert(stmt.body.begin(), std::make_move_iterator(prologue.begin()),
                   std::make_move_iterator(prologue.end()));
  return true;
}

// --- `for` over range() ------------------------------------------------------

bool Sema::isRangeCall(const Expr &expr) {
  auto *call = dyn_cast<CallExpr>(&expr);
  auto *callee = call ? dyn_cast<NameExpr>(call->callee.get()) : nullptr;
  // Numba's prange runs as range in a CUDA kernel.
  const Symbol *calleeSymbol = callee ? lookup(callee->name) : nullptr;
  return callee && ((callee->name == "range" && !calleeSymbol) ||
                    (calleeSymbol && calleeSymbol->kind == SymbolKind::Builtin &&
                     calleeSymbol->builtin == Builtin::Prange));
}

bool Sema::checkRange(ForStmt &stmt) {
  assert(isRangeCall(*stmt.iterable) && "other loops are rewritten into range loops first");
  auto *call = llvm::cast<CallExpr>(stmt.iterable.get());
  if (!call->keywords.empty()) {
    error(call->keywords.front().nameRange) << "range() takes no keyword arguments";
    return false;
  }
  if (call->args.empty() || call->args.size() > 3) {
    error(call->range()) << "range() takes 1 to 3 arguments (start, stop, step), not " << call->args.size();
    return false;
  }
  bool ok = true;
  std::optional<PromotionOperand> common;
  for (ExprPtr &arg : call->args) {
    const Type *type = checkValue(*arg);
    if (type->isError()) {
      ok = false;
      continue;
    }
    if (!type->isScalar() || !isInteger(type->scalarKind())) {
      error(arg->range()) << "range() takes integers, not " << type->str();
      ok = false;
      continue;
    }
    common = common ? promote(*common, promotionOperand(*arg)) : promotionOperand(*arg);
  }
  if (!ok)
    return false;
  ScalarKind kind = common->kind;
  for (ExprPtr &arg : call->args)
    if (!checkLiteralFits(*arg, kind))
      return false;
  const size_t count = call->args.size();
  stmt.rangeStart = count >= 2 ? &call->args[0] : nullptr;
  stmt.rangeStop = count >= 2 ? &call->args[1] : &call->args[0];
  stmt.rangeStep = count == 3 ? &call->args[2] : nullptr;
  if (stmt.rangeStep && (*stmt.rangeStep)->constant && (*stmt.rangeStep)->constant->intValue == 0) {
    error((*stmt.rangeStep)->range()) << "range() step must not be zero";
    return false;
  }
  // Python's range never overflows: count in 64 bits, or `range(0, u, 100)`
  // on a uint8 u would wrap from 200 to 44 and never stop.
  if (byteWidth(kind) < 8)
    kind = ScalarKind::Int64;
  stmt.inductionType = types_.scalar(kind);
  return true;
}

} // namespace pyk::sema
