//===- LowerPythonOps.cpp - Python's operations as primitive IR -----------===//
#include "passes/LowerPythonOps.h"

#include "IRMutator.h"

#include "llvm/Support/Casting.h"

#include <algorithm>

namespace pyk::ir {
namespace {

const Type i64 = Type::scalarType(ScalarKind::Int64);

/// `pyk_wrap_index(i, n)`: `i < 0 ? i + n : i`.
std::unique_ptr<Function> makeWrapIndex(const Module &module) {
  std::string symbol = "pyk_wrap_index";
  auto taken = [&](const std::string &name) {
    return std::any_of(module.functions.begin(), module.functions.end(),
                       [&](const auto &function) { return function->symbol == name; });
  };
  while (taken(symbol))
    symbol += "_";
  auto function = std::make_unique<Function>(Function::Kind::Device, symbol, SourceRange{});
  function->symbol = symbol;
  function->docstring = "Python's negative index: index i counts from the end of an axis of n elements.";
  function->inlineAlways = true;
  function->returnType = i64;
  const Variable *index = function->addParam("i", i64, {});
  const Variable *extent = function->addParam("n", i64, {});
  auto ref = [](const Variable *var) { return std::make_unique<VarRef>(SourceRange{}, var); };
  auto negative = std::make_unique<Compare>(SourceRange{}, CompareOp::Lt, ref(index),
                                            std::make_unique<Constant>(SourceRange{}, i64, 0, 0.0));
  auto counted = std::make_unique<Binary>(SourceRange{}, BinaryOp::Add, ref(index), ref(extent));
  function->body.push_back(std::make_unique<Return>(
      SourceRange{}, std::make_unique<Select>(SourceRange{}, std::move(negative), std::move(counted), ref(index))));
  return function;
}

} // namespace

void lowerPythonOps(Module &module) {
  std::unique_ptr<Function> wrapIndex; // made on first use
  for (auto &function : module.functions) {
    rewriteExprs(function->body, [&](ExprPtr &slot) {
      auto *wrap = llvm::dyn_cast<WrapIndex>(slot.get());
      if (!wrap)
        return;
      if (wrap->nonNegative) {
        slot = std::move(wrap->index);
        return;
      }
      if (!wrapIndex)
        wrapIndex = makeWrapIndex(module);
      std::vector<ExprPtr> args;
      args.push_back(std::move(wrap->index));
      args.push_back(std::move(wrap->extent));
      slot = std::make_unique<Call>(wrap->loc(), wrapIndex.get(), i64, std::move(args));
    });
  }
  // First in the module: callees come before their callers.
  if (wrapIndex)
    module.functions.insert(module.functions.begin(), std::move(wrapIndex));
}

} // namespace pyk::ir
