//===- ASTToIRModule.cpp - The module's functions, named, then lowered ----===//
//
// lowerToIR: the kernels and the device functions they call, in
// definition order (callees first), each a Function with its symbol in the
// generated code, its options and its parameters; the CUDA C++ functions
// the file declares (cuda.declare_device), whose C names the file's own
// functions then avoid; then each body, lowered by Lowering (ASTToIR.cpp);
// then, of the declared functions, those the bodies call.
//
//===----------------------------------------------------------------------===//
#include "ASTToIR.h"

#include "IRWalk.h"
#include "Lowering.h"
#include "SymbolNames.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace pyk::ir {
namespace {

using lowering::toIRType;

/// The kernels and every device function a kernel calls, directly or not:
/// a device function no kernel calls is checked but not compiled.
std::set<const FunctionInfo *> reachableFromKernels(const ModuleInfo &info) {
  std::set<const FunctionInfo *> reached;
  std::vector<const FunctionInfo *> work;
  for (const FunctionInfo &function : info.functions)
    if (function.kind == FunctionKind::Kernel)
      work.push_back(&function);
  while (!work.empty()) {
    const FunctionInfo *function = work.back();
    work.pop_back();
    if (!reached.insert(function).second)
      continue;
    work.insert(work.end(), function->callees.begin(), function->callees.end());
  }
  return reached;
}

} // namespace

std::unique_ptr<Module> lowerToIR(const ModuleInfo &info, const SourceFile &file) {
  auto result = std::make_unique<Module>();
  result->ownedRecordTypes = info.recordTypes;
  result->sourceName = file.name();
  const std::set<const FunctionInfo *> reached = reachableFromKernels(info);
  lowering::FunctionMap functions;
  // A version of a definition compiled more than once is named by its
  // parameter types (`scale_float32_1d_float32`), unless a name of the
  // file already means something else.
  // The C names of the CUDA C++ functions the file declares are the
  // linked code's: a function of the file named so becomes pyk_NAME.
  lowering::ForeignMap foreign;
  std::set<std::string> foreignNames;
  for (const pyk::ForeignFunction &declared : info.foreignFunctions) {
    auto function = std::make_unique<ForeignFunction>();
    function->name = declared.name;
    function->result = toIRType(declared.result);
    for (const pyk::Type *param : declared.params)
      function->params.push_back(toIRType(param));
    function->loc = declared.declaration;
    foreign[&declared] = function.get();
    foreignNames.insert(declared.name);
    result->foreignFunctions.push_back(std::move(function));
  }
  auto ownSymbol = [&](const std::string &name) {
    const std::string symbol = kernelSymbol(name);
    return foreignNames.count(symbol) ? "pyk_" + symbol : symbol;
  };
  std::set<std::string> taken(foreignNames);
  for (const FunctionInfo &function : info.functions)
    taken.insert(ownSymbol(function.def->name));
  auto symbolFor = [&](const FunctionInfo &function) {
    if (function.versionTag.empty())
      return ownSymbol(function.def->name);
    const std::string base = ownSymbol(function.def->name + "_" + function.versionTag);
    std::string symbol = base;
    for (unsigned n = 2; !taken.insert(symbol).second; ++n)
      symbol = base + "_" + std::to_string(n);
    return symbol;
  };
  for (size_t index : info.definitionOrder) {
    const FunctionInfo &functionInfo = info.functions[index];
    if (!reached.count(&functionInfo))
      continue;
    const ast::FunctionDef &def = *functionInfo.def;
    auto function = std::make_unique<Function>(
        functionInfo.kind == FunctionKind::Kernel ? Function::Kind::Kernel : Function::Kind::Device, def.name,
        def.nameRange);
    function->symbol = symbolFor(functionInfo);
    function->docstring = def.docstring.value_or("");
    function->lineInfo = functionInfo.options.lineinfo;
    function->inlineAlways = functionInfo.options.inlineAlways;
    function->fastMath = functionInfo.options.fastmath;
    function->checked = functionInfo.options.debug;
    function->synchronises = functionInfo.synchronises;
    function->maxThreadsPerBlock = functionInfo.options.maxThreadsPerBlock;
    function->minBlocksPerMultiprocessor = functionInfo.options.minBlocksPerMultiprocessor;
    function->maxRegisters = functionInfo.options.maxRegisters;
    if (!functionInfo.returnType->isTuple())
      function->returnType = toIRType(functionInfo.returnType);
    for (const Symbol *param : functionInfo.params)
      function->pykParameterTypes.push_back(param->type->str());
    for (const Symbol *param : functionInfo.params) {
      if (param->type->isRecord()) {
        // A record passed whole: the array and the index of the element.
        for (auto [suffix, type] : {std::pair{"_array", Type::recordArrayType(*param->type->record())},
                                    std::pair{"_index", Type::scalarType(ScalarKind::Int64)}})
          function->addParam("pyk_" + param->name + suffix, type, param->definition)->hidden = true;
        continue;
      }
      if (!param->type->isTuple()) {
        function->addParam(param->name, toIRType(param->type), param->definition);
        continue;
      }
      // A tuple is one parameter per element, as a tuple local is one
      // local per element.
      for (size_t i = 0; i < param->type->elements().size(); ++i) {
        Variable *element = function->addParam("pyk_" + param->name + "_" + std::to_string(i),
                                               toIRType(param->type->elements()[i]), param->definition);
        element->hidden = true;
        element->tupleParam = param->name;
      }
    }
    if (functionInfo.gridSynchronises) {
      // The grid barrier's address, last (pyk/Launch.h: the runtime fills
      // in a kernel's last argument).
      Variable *barrier =
          function->addParam("pyk_grid_barrier", Type::scalarType(ScalarKind::UInt64), def.nameRange);
      barrier->hidden = true;
      function->gridSynchronises = true;
      function->gridBarrier = barrier;
    }
    if (functionInfo.returnType->isTuple()) {
      // `return a, b`: one result per element, written through references.
      for (size_t i = 0; i < functionInfo.returnType->elements().size(); ++i)
        function->addResult("pyk_result_" + std::to_string(i), toIRType(functionInfo.returnType->elements()[i]),
                            def.nameRange);
    }
    lowering::Lowering(functionInfo, *function, functions, foreign, file).run();
    functions[&def] = function.get();
    result->functions.push_back(std::move(function));
  }
  // Only the declared functions the kernels call: those alone need code
  // from a linked file.
  std::set<const ForeignFunction *> called;
  std::function<void(const Expr &)> findCalls = [&](const Expr &e) {
    if (auto *call = llvm::dyn_cast<ForeignCall>(&e))
      called.insert(call->function);
    forEachOperand(e, findCalls);
  };
  for (const auto &function : result->functions)
    forEachExprIn(function->body, findCalls);
  std::erase_if(result->foreignFunctions, [&](const auto &declared) { return !called.count(declared.get()); });
  return result;
}

} // namespace pyk::ir
