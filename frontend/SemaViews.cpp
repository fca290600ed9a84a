//===- SemaViews.cpp - Views of arrays: a[i], a[i, :], a[:, j], a[lo:hi:step] //
//
// Indexing an array with fewer indices than it has axes, or with a slice,
// gives a view: an array that shares the elements of the one it views, as
// in NumPy and Numba. Sema decides the view's type: its rank (one axis per
// slice and per axis not indexed) and whether its elements stay in C order
// without gaps (contiguous), which decides how it may be passed on.
//
//===----------------------------------------------------------------------===//
#include "ASTWalk.h"
#include "SemaImpl.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// `lo:hi` or `:`, with no step or a step of 1: the elements it selects
/// are adjacent.
bool hasUnitStep(const SliceExpr &slice) {
  return !slice.step || (slice.step->constant && slice.step->constant->kind == ConstantValue::Kind::Int &&
                         slice.step->constant->intValue == 1);
}

bool isWhole(const SliceExpr &slice) {
  return !slice.lower && !slice.upper && hasUnitStep(slice);
}

/// Whether an element read through `view` indexes its array directly
/// (a[i][j], a[:, j][i]): every index an integer or a plain ':'. Lowering
/// makes no view for those (ASTToIRViews.cpp, accessThrough).
bool indexesArrayDirectly(const SubscriptExpr &view) {
  for (const ExprPtr &index : view.indices)
    if (auto *slice = dyn_cast<SliceExpr>(index.get()); slice && (slice->lower || slice->upper || slice->step))
      return false;
  return true;
}

} // namespace

bool Sema::checkSliceBound(Expr &bound, const char *what) {
  const Type *type = checkValue(bound);
  if (type->isError())
    return false;
  if (!type->isScalar() || !isInteger(type->scalarKind())) {
    error(bound.range()) << "a slice's " << what << " must be an integer, not " << type->str();
    return false;
  }
  return true;
}

const Type *Sema::checkArrayView(SubscriptExpr &expr, const Type *arrayType) {
  const size_t rank = arrayType->rank();
  if (expr.indices.size() > rank) {
    error(expr.range()) << "array of type " << arrayType->str() << " has " << rank << " dimension"
                        << (rank == 1 ? "" : "s") << " but " << expr.indices.size() << " ind"
                        << (expr.indices.size() == 1 ? "ex was" : "ices were") << " given";
    return setType(expr, types_.errorType());
  }
  bool ok = true;
  unsigned viewRank = 0;
  // C order survives while the indexed axes lead, the first sliced axis
  // has unit steps and every later one is whole.
  bool contiguous = arrayType->isContiguous();
  bool sliced = false;
  for (size_t axis = 0; axis < rank; ++axis) {
    Expr *index = axis < expr.indices.size() ? expr.indices[axis].get() : nullptr;
    auto *slice = index ? dyn_cast<SliceExpr>(index) : nullptr;
    if (index && !slice) {
      const Type *indexType = checkValue(*index);
      if (indexType->isError()) {
        ok = false;
      } else if (!indexType->isScalar() || !isInteger(indexType->scalarKind())) {
        error(index->range()) << "an array index must be an integer, not " << indexType->str();
        ok = false;
      }
      contiguous &= !sliced;
      continue;
    }
    ++viewRank;
    if (slice) {
      for (auto [bound, what] : {std::pair{slice->lower.get(), "start"}, std::pair{slice->upper.get(), "stop"},
                                 std::pair{slice->step.get(), "step"}})
        if (bound)
          ok &= checkSliceBound(*bound, what);
      if (slice->step && slice->step->constant && slice->step->constant->kind == ConstantValue::Kind::Int &&
          slice->step->constant->intValue == 0) {
        error(slice->step->range()) << "a slice's step cannot be zero";
        ok = false;
      }
    }
    const bool whole = !slice || isWhole(*slice);
    contiguous &= sliced ? whole : !slice || hasUnitStep(*slice);
    sliced = true;
  }
  if (!ok)
    return setType(expr, types_.errorType());
  if (viewRank == 0) {
    checkGridIndex(expr);
    return setType(expr, types_.scalar(arrayType->scalarKind()));
  }
  return setType(expr, types_.array(arrayType->scalarKind(), viewRank, contiguous));
}

/// `row = a[i]`, `b = a`, `src, dst = dst, src`: the local names an array
/// it does not own, and may name another of the same element type and rank
/// later. It is contiguous while every array it is given is.
void Sema::assignViewToName(NameExpr &target, Symbol &symbol, const Type *valueType, SourceRange valueRange) {
  if (symbol.type && symbol.type->isArray() && symbol.storage != ArrayStorage::View) {
    error(target.range()) << "'" << target.name << "' is a "
                          << (symbol.storage == ArrayStorage::Shared ? "shared" : "local")
                          << " array; it cannot be assigned again";
    note(symbol.definition) << "'" << target.name << "' is made here";
    return;
  }
  if (symbol.type && (!symbol.type->isArray() || symbol.type->scalarKind() != valueType->scalarKind() ||
                      symbol.type->rank() != valueType->rank())) {
    error(valueRange) << "cannot assign a value of type " << valueType->str() << " to '" << target.name
                      << "', which holds " << symbol.type->str();
    return;
  }
  const Type *unified = symbol.type ? types_.array(valueType->scalarKind(), valueType->rank(),
                                                   symbol.type->isContiguous() && valueType->isContiguous())
                                    : valueType;
  symbol.storage = ArrayStorage::View;
  // A view of a constant array is read-only too (viewsConstantMemory).
  if (const Symbol *root = assignedValue_ ? rootArraySymbol(*assignedValue_) : nullptr;
      root && viewsConstantMemory(*root))
    symbol.namesConstantMemory = true;
  if (unified != symbol.type) {
    symbol.type = unified;
    localTypesChanged_ = true;
  }
  target.type = symbol.type;
}

void Sema::rejectViewsInWhileCondition(const Expr &condition) {
  auto report = [&](const Expr &view) {
    error(view.range()) << "a view in a 'while' condition is not supported yet: the condition runs before each "
                           "iteration; name the view with a local, assigned before the loop and where it changes";
  };
  auto visit = [&](const Expr &e, auto &self) -> void {
    if ((isa<SubscriptExpr>(e) || isa<ConditionalExpr>(e)) && e.type && e.type->isArray())
      return report(e);
    if (auto *subscript = dyn_cast<SubscriptExpr>(&e)) {
      // An element through views that index their array directly.
      const Expr *object = subscript->object.get();
      for (auto *view = dyn_cast<SubscriptExpr>(object);
           view && view->type && view->type->isArray() && indexesArrayDirectly(*view);
           view = dyn_cast<SubscriptExpr>(object)) {
        for (const ExprPtr &index : view->indices)
          self(*index, self);
        object = view->object.get();
      }
      self(*object, self);
      for (const ExprPtr &index : subscript->indices)
        self(*index, self);
      return;
    }
    forEachChild(e, [&](const Expr &child) { self(child, self); });
  };
  visit(condition, visit);
}

const Symbol *Sema::rootArraySymbol(const Expr &array) {
  const Expr *e = &array;
  while (auto *subscript = dyn_cast<SubscriptExpr>(e))
    e = subscript->object.get();
  if (auto *conditional = dyn_cast<ConditionalExpr>(e)) {
    // Either branch: a constant one makes the whole read-only.
    const Symbol *thenRoot = rootArraySymbol(*conditional->thenValue);
    if (thenRoot && viewsConstantMemory(*thenRoot))
      return thenRoot;
    return rootArraySymbol(*conditional->elseValue);
  }
  auto *name = dyn_cast<NameExpr>(e);
  return name ? name->symbol : nullptr;
}

bool Sema::viewsConstantMemory(const Symbol &symbol) {
  return symbol.storage == ArrayStorage::Constant || symbol.namesConstantMemory ||
         (symbol.kind == SymbolKind::Constant && symbol.type && symbol.type->isArray());
}

} // namespace pyk::sema
