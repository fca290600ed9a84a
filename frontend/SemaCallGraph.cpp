//===- SemaCallGraph.cpp - Which function calls which, and in what order --===//
//
// A call's type is its callee's return type, which may be inferred from the
// callee's body, so callees are checked before their callers. The order
// comes from the call graph, read from the syntax before any body is
// checked:
//  1. For each function, the calls `f(...)` whose name `f` is a function of
//     the module and not a parameter or a local of the caller (those shadow
//     it, as in Python).
//  2. A depth-first walk from each function in source order; a function is
//     placed after everything it calls (post-order). Reaching a function
//     that is still on the walk's stack closes a cycle: recursion, which
//     GPUs do not do well and pyk rejects, naming the cycle.
//
//===----------------------------------------------------------------------===//
#include "ASTWalk.h"
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

#include <map>
#include <set>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;

namespace {

struct CallSite {
  size_t callee; ///< index into ModuleInfo::functions
  SourceRange range;
};

/// The names a function binds itself: parameters and assignment targets.
std::set<std::string> localNames(const FunctionDef &def) {
  std::set<std::string> names;
  for (const Parameter &param : def.params)
    names.insert(param.name);
  auto addTargets = [&](const Expr &target) {
    forEachExprIn(target, [&](const Expr &e) {
      if (auto *name = dyn_cast<NameExpr>(&e))
        names.insert(name->name);
    });
  };
  forEachStmtIn(def.body, [&](const Stmt &s) {
    if (auto *assign = dyn_cast<AssignStmt>(&s))
      for (const ExprPtr &target : assign->targets)
        addTargets(*target);
    else if (auto *aug = dyn_cast<AugAssignStmt>(&s))
      addTargets(*aug->target);
    else if (auto *annotated = dyn_cast<AnnAssignStmt>(&s))
      addTargets(*annotated->target);
    else if (auto *loop = dyn_cast<ForStmt>(&s))
      addTargets(*loop->target);
  });
  return names;
}

std::vector<CallSite> callSites(const FunctionDef &def, const std::map<std::string, size_t> &functionsByName) {
  const std::set<std::string> shadowed = localNames(def);
  std::vector<CallSite> calls;
  auto visit = [&](const Expr &e) {
    forEachExprIn(e, [&](const Expr &inner) {
      auto *call = dyn_cast<CallExpr>(&inner);
      auto *name = call ? dyn_cast<NameExpr>(call->callee.get()) : nullptr;
      if (!name || shadowed.count(name->name))
        return;
      if (auto it = functionsByName.find(name->name); it != functionsByName.end())
        calls.push_back({it->second, call->range()});
    });
  };
  forEachStmtIn(def.body, [&](const Stmt &s) { forEachPart(s, visit, [](const StmtList &) {}); });
  return calls;
}

} // namespace

void Sema::orderFunctions() {
  std::deque<FunctionInfo> &functions = info_.functions;
  std::map<std::string, size_t> functionsByName;
  for (size_t i = 0; i < functions.size(); ++i)
    functionsByName.emplace(functions[i].def->name, i);
  std::vector<std::vector<CallSite>> calls;
  for (const FunctionInfo &function : functions)
    calls.push_back(callSites(*function.def, functionsByName));

  enum class State { New, OnStack, Placed };
  std::vector<State> state(functions.size(), State::New);
  std::vector<size_t> stack;
  auto reportCycle = [&](size_t callee, SourceRange callRange) {
    // The stack from `callee` up is the cycle, in call order.
    auto start = std::find(stack.begin(), stack.end(), callee);
    std::string chain = "'" + functions[callee].def->name + "'";
    for (auto it = std::next(start); it != stack.end(); ++it)
      chain += " calls '" + functions[*it].def->name + "', which";
    chain += " calls '" + functions[callee].def->name + "'";
    if (start + 1 == stack.end())
      chain = "'" + functions[callee].def->name + "' calls itself";
    error(callRange) << "recursion is not supported on the GPU: " << chain
                     << "; rewrite it as a loop";
    for (auto it = start; it != stack.end(); ++it)
      functions[*it].recursive = true;
  };
  auto visit = [&](auto &self, size_t index) -> void {
    state[index] = State::OnStack;
    stack.push_back(index);
    for (const CallSite &call : calls[index]) {
      if (functions[call.callee].kind == FunctionKind::Kernel)
        continue; // An error at the call: kernels are launched, not called.
      if (state[call.callee] == State::OnStack)
        reportCycle(call.callee, call.range);
      else if (state[call.callee] == State::New)
        self(self, call.callee);
    }
    stack.pop_back();
    state[index] = State::Placed;
    info_.definitionOrder.push_back(index);
  };
  for (size_t i = 0; i < functions.size(); ++i)
    if (state[i] == State::New)
      visit(visit, i);
}

namespace {

/// `float32_1d_int64`: a version's parameter types, as a name may hold them.
std::string versionTag(const FunctionInfo &function) {
  std::string tag;
  for (const Symbol *param : function.params) {
    const Type *type = param->type;
    std::string part = type->isRecordArray()                   ? type->record()->name + "_1d"
                       : type->isArray() || type->isScalar() ? std::string(scalarName(type->scalarKind()))
                                                             : "tuple";
    for (const Type *element : type->isTuple() ? type->elements() : std::vector<const Type *>{})
      part += "_" + std::string(scalarName(element->scalarKind()));
    if (type->isArray())
      part += "_" + std::to_string(type->rank()) + "d" + (type->isContiguous() ? "" : "_A");
    tag += (tag.empty() ? "" : "_") + part;
  }
  return tag.empty() ? "void" : tag;
}

} // namespace

void Sema::finishDefinitionOrder() {
  std::deque<FunctionInfo> &functions = info_.functions;
  std::map<const FunctionInfo *, size_t> indexOf;
  for (size_t i = 0; i < functions.size(); ++i)
    indexOf[&functions[i]] = i;
  std::vector<bool> placed(functions.size(), false);
  std::vector<size_t> order;
  auto visit = [&](auto &self, size_t index) -> void {
    placed[index] = true;
    for (const FunctionInfo *callee : functions[index].callees)
      if (!placed[indexOf.at(callee)])
        self(self, indexOf.at(callee));
    order.push_back(index);
  };
  // Roots: what the file defines with types (a kernel's versions included);
  // a generic function's instances come in through the calls that use them.
  // A kernel's versions follow it, so that its overloads stay together.
  for (size_t i = 0; i < functions.size(); ++i) {
    const FunctionInfo &function = functions[i];
    if (function.instanceOf)
      continue;
    if (!placed[i] && !function.generic)
      visit(visit, i);
    for (size_t j = i + 1; j < functions.size(); ++j)
      if (functions[j].instanceOf == &function && !function.generic && !placed[j])
        visit(visit, j);
  }
  info_.definitionOrder = std::move(order);
  // A function for Numba's CPU compiler that no kernel calls is host code,
  // which pyk does not compile: say so, since the file meant it to run.
  std::set<const FunctionInfo *> reached;
  auto reach = [&](auto &self, const FunctionInfo &function) -> void {
    if (!reached.insert(&function).second)
      return;
    for (const FunctionInfo *callee : function.callees)
      self(self, *callee);
  };
  for (const FunctionInfo &function : functions)
    if (function.kind == FunctionKind::Kernel)
      reach(reach, function);
  for (const FunctionInfo &function : functions)
    if (function.fromCpuJit && !function.instanceOf && !reached.count(&function) &&
        !std::any_of(reached.begin(), reached.end(), [&](const FunctionInfo *r) { return r->instanceOf == &function; }))
      warning(function.def->nameRange)
          << "'" << function.def->name
          << "' is compiled by Numba's CPU compiler (@njit, @jit): pyk compiles it as a device function for the "
             "kernels that call it, and no kernel does, so it is not compiled";
  std::map<const FunctionDef *, std::vector<FunctionInfo *>> versions;
  for (size_t index : info_.definitionOrder) {
    FunctionInfo &function = functions[index];
    versions[(function.instanceOf ? function.instanceOf : &function)->def].push_back(&function);
  }
  for (auto &[def, compiled] : versions)
    if (compiled.size() > 1)
      for (FunctionInfo *function : compiled)
        function->versionTag = versionTag(*function);
}

} // namespace pyk::sema
