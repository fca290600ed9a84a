//===- ASTToIRTuples.cpp - Tuple locals and the values stored in them -----===//
//
// A tuple is one value per element after lowering: a local holding one is
// a hidden local per element, and storing a tuple stores each element,
// from a display, a tuple-valued builtin (math.modf, libdevice.sincosf,
// cuda.match_all_sync) or a device function's results.
//
//===----------------------------------------------------------------------===//
#include "IRWalk.h"
#include "Lowering.h"

#include "llvm/Support/Casting.h"

#include <set>

namespace pyk::ir::lowering {

using llvm::cast;
using llvm::dyn_cast;

/// A local holding a tuple is one hidden local per element.
void Lowering::declareTupleLocal(const Symbol &local, bool declaredInline, StmtList &hoisted) {
  std::vector<Variable *> &elements = tupleVars_[&local];
  for (size_t i = 0; i < local.type->elements().size(); ++i) {
    const Type type = toIRType(local.type->elements()[i]);
    Variable *var = function_.addHiddenLocal(uniqueName("pyk_" + local.name + "_" + std::to_string(i)), type,
                                             local.definition);
    elements.push_back(var);
    if (declaredInline)
      continue;
    hoisted.push_back(std::make_unique<Declare>(local.definition, var, zeroOf(type, local.definition)));
    declared_.insert(var);
  }
}

/// t = (a, b): each element to its local, through temporaries when a
/// value reads an element the assignment changes (t = (t[1], t[0])).
void Lowering::storeTuple(const Symbol &symbol, const ast::Expr &value, SourceRange loc, StmtList &out) {
  const std::vector<Variable *> &targets = tupleVars_.at(&symbol);
  std::vector<ExprPtr> values = tupleValues(value, loc, out);
  const std::set<const Variable *> assigned(targets.begin(), targets.end());
  bool readsATarget = false;
  for (const ExprPtr &v : values)
    readsATarget |= readsAnyOf(*v, assigned);
  if (readsATarget) {
    for (ExprPtr &v : values) {
      Variable *temp = function_.addHiddenLocal(uniqueName("pyk_value"), v->type(), loc);
      out.push_back(std::make_unique<Declare>(loc, temp, std::move(v)));
      declared_.insert(temp);
      v = std::make_unique<VarRef>(loc, temp);
    }
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    Variable *var = targets[i];
    ExprPtr converted = castTo(std::move(values[i]), var->type);
    if (declared_.insert(var).second)
      out.push_back(std::make_unique<Declare>(loc, var, std::move(converted)));
    else
      out.push_back(std::make_unique<Assign>(loc, var, std::move(converted)));
  }
}

std::vector<ExprPtr> Lowering::tupleValues(const ast::Expr &value, SourceRange loc, StmtList &out) {
  auto *call = dyn_cast<ast::CallExpr>(&value);
  if (call && call->function == Builtin::MathFunction)
    return mathTuple(*call, loc, out);
  if (call && call->function == Builtin::LibdeviceFunction)
    return libdeviceTuple(*call, loc, out);
  if (call && call->function == Builtin::MatchAllSync)
    return matchAllTuple(*call, loc, out);
  if (!call || !call->calleeDef)
    return tupleElements(value);
  // A device function's results go to hidden locals of the caller,
  // declared uninitialised: the call writes them.
  ExprPtr lowered = expr(*call);
  auto &callNode = cast<Call>(*lowered);
  std::vector<ExprPtr> values;
  for (const Variable *result : callNode.callee->results) {
    Variable *temp = function_.addHiddenLocal(uniqueName("pyk_" + callNode.callee->name + "_" + std::to_string(values.size())), result->type, loc);
    out.push_back(std::make_unique<Declare>(loc, temp, nullptr));
    declared_.insert(temp);
    callNode.results.push_back(temp);
    values.push_back(std::make_unique<VarRef>(loc, temp));
  }
  out.push_back(std::make_unique<Evaluate>(loc, std::move(lowered)));
  return values;
}

} // namespace pyk::ir::lowering
