//===- SemaModuleJit.cpp - Functions compiled by a call at module level ---===//
//
// Numba compiles a function without a decorator too:
//
//   kernel = cuda.jit("void(float32[:])")(py_func)
//   f = cuda.jit(f, device=True)          f = cuda.jit(device=True)(f)
//
// where py_func and f are plain defs earlier in the file. pyk reads such an
// assignment as the decorator of that def:
//  1. The target names the compiled function. When it is the def's own
//     name, the def itself takes the decorator; otherwise a copy of the def
//     named after the target does (ASTClone.h), and the def stays a plain
//     Python function, as in Numba.
//  2. A def that nothing compiles is plain Python, which pyk does not
//     compile: a warning, or an error where a compiled function calls it.
//
//===----------------------------------------------------------------------===//
#include "ASTClone.h"
#include "ASTWalk.h"
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// `a.b.c` or `a`: what a decorator's callee may be.
bool isNameOrAttribute(const Expr &expr) { return isa<NameExpr>(expr) || isa<AttributeExpr>(expr); }

} // namespace

bool Sema::declareCompiledByCall(AssignStmt &stmt) {
  auto *call = dyn_cast<CallExpr>(stmt.value.get());
  if (!call)
    return false;
  auto namesCudaJit = [&](Expr &callee) {
    if (!isNameOrAttribute(callee))
      return false;
    DiagnosticEngine scratch(realDiags_->file());
    DiagnosticEngine *saved = std::exchange(diags_, &scratch);
    checkExpr(callee);
    diags_ = saved;
    return callee.builtin == Builtin::CudaJit;
  };
  auto namesFunction = [&](const Expr &expr) {
    auto *name = dyn_cast<NameExpr>(&expr);
    const Symbol *symbol = name ? lookupGlobal(name->name) : nullptr;
    return symbol && symbol->kind == SymbolKind::Function;
  };
  Expr *compiled = nullptr;
  ExprPtr decorator;
  if (auto *factory = dyn_cast<CallExpr>(call->callee.get()); factory && namesCudaJit(*factory->callee)) {
    // cuda.jit(options)(f)
    if (call->args.size() != 1 || !call->keywords.empty()) {
      error(call->range()) << "cuda.jit(...)(f) compiles one function 'f': write 'NAME = cuda.jit(...)(f)'";
      return true;
    }
    compiled = call->args[0].get();
    decorator = cloneExpr(*factory);
  } else if (namesCudaJit(*call->callee)) {
    // cuda.jit(f, options); cuda.jit(sig) alone is a decorator.
    auto *first = call->args.empty() ? nullptr : dyn_cast<NameExpr>(call->args[0].get());
    if (first && !lookupGlobal(first->name)) {
      error(first->range()) << "name '" << first->name << "' is not defined";
      return true;
    }
    if (!first || !namesFunction(*first)) {
      error(call->range()) << "'cuda.jit(...)' alone makes a decorator, which pyk does not keep in a variable; "
                              "decorate the def with @cuda.jit(...), or compile it here: 'NAME = cuda.jit(...)(f)'";
      return true;
    }
    if (call->args.size() > 1) {
      error(call->args[1]->range()) << "pass cuda.jit's options by keyword, as in 'cuda.jit(f, device=True)'";
      return true;
    }
    compiled = call->args[0].get();
    std::vector<KeywordArgument> keywords;
    for (const KeywordArgument &keyword : call->keywords)
      keywords.push_back(KeywordArgument{keyword.name, keyword.nameRange, cloneExpr(*keyword.value)});
    decorator = std::make_unique<CallExpr>(call->range(), cloneExpr(*call->callee), std::vector<ExprPtr>{},
                                           std::move(keywords));
  } else {
    return false;
  }

  auto *target = stmt.targets.size() == 1 ? dyn_cast<NameExpr>(stmt.targets[0].get()) : nullptr;
  if (!target) {
    error(stmt.range()) << "assign the compiled function to one name, as in 'k = cuda.jit(sig)(f)'";
    return true;
  }
  auto *name = dyn_cast<NameExpr>(compiled);
  const Symbol *symbol = name ? lookupGlobal(name->name) : nullptr;
  if (!symbol || symbol->kind != SymbolKind::Function) {
    error(compiled->range()) << "cuda.jit(...)(f) compiles a function 'f' defined earlier in this file with 'def'"
                             << (name && !symbol ? "; '" + name->name + "' is not defined" : "");
    return true;
  }
  auto &def = const_cast<FunctionDef &>(*symbol->function);
  if (!def.decorators.empty()) {
    error(compiled->range()) << "'" << def.name << "' is compiled already";
    note(def.decorators.front()->range()) << "'" << def.name << "' is compiled here";
    return true;
  }
  if (target->name == def.name) {
    def.decorators.push_back(std::move(decorator));
    return true;
  }
  if (auto it = moduleScope_.find(target->name); it != moduleScope_.end()) {
    error(target->range()) << "'" << target->name << "' is already defined at module level";
    note(it->second->definition) << "previous definition is here";
    return true;
  }
  std::unique_ptr<FunctionDef> copy = cloneFunction(def);
  copy->name = target->name;
  copy->decorators.clear();
  copy->decorators.push_back(std::move(decorator));
  addSymbol(moduleScope_, Symbol{SymbolKind::Function, target->name, target->range(), nullptr, std::nullopt,
                                 ScalarKind::Bool, Builtin::None, copy.get(), 0});
  FunctionInfo function;
  function.def = copy.get();
  info_.functions.push_back(std::move(function));
  info_.instanceDefs.push_back(std::move(copy));
  compiledAs_.emplace(&def, target->name);
  return true;
}

void Sema::checkPlainFunction(FunctionDef &def, FunctionInfo &function) {
  // Never launched, never compiled: a device function that no kernel
  // reaches, whose calls (reported here) say nothing more.
  function.kind = FunctionKind::Device;
  std::optional<SourceRange> firstCall;
  for (size_t i = 0; i < info_.functions.size() && !firstCall; ++i) {
    const FunctionDef &caller = *info_.functions[i].def;
    if (caller.decorators.empty())
      continue;
    auto visit = [&](const Expr &e) {
      forEachExprIn(e, [&](const Expr &inner) {
        auto *call = dyn_cast<CallExpr>(&inner);
        auto *callee = call ? dyn_cast<NameExpr>(call->callee.get()) : nullptr;
        if (callee && callee->name == def.name && !firstCall)
          firstCall = callee->range();
      });
    };
    forEachStmtIn(caller.body, [&](const Stmt &s) { forEachPart(s, visit, [](const StmtList &) {}); });
  }
  auto compiled = compiledAs_.find(&def);
  if (firstCall && compiled != compiledAs_.end()) {
    error(*firstCall) << "'" << def.name << "' is a Python function (it has no @cuda.jit decorator); the "
                      << "function compiled from it is '" << compiled->second << "'";
    return;
  }
  if (firstCall) {
    error(def.nameRange) << "function '" << def.name
                         << "' has no @cuda.jit decorator; pyk compiles kernels (@cuda.jit) and device functions "
                            "(@cuda.jit(device=True)) only";
    note(*firstCall) << "'" << def.name << "' is called here";
    return;
  }
  if (options_.signatures.count(def.name)) {
    error(def.nameRange) << "the build gives a signature for '" << def.name
                         << "', which is not compiled: it has no @cuda.jit decorator";
    return;
  }
  if (compiled == compiledAs_.end())
    warning(def.nameRange) << "function '" << def.name
                           << "' is not compiled: it has no @cuda.jit decorator (pyk compiles kernels and device "
                              "functions; other Python functions are left out)";
}

} // namespace pyk::sema
