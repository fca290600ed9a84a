//===- Sema.cpp - Module-level checks, functions and decorators -----------===//
//
// Algorithm:
//  1. Declare the predeclared names (cuda, math, np, numba, type names).
//  2. Walk the module body in order: imports bind names (SemaImports.cpp),
//     `NAME = constant` declares a constant, `def` declares a function;
//     anything else at module level is an error.
//  3. Check each function's signature: its decorator and options, its
//     parameters' types (annotations and/or signature), its return type.
//  4. Order the functions so that each comes after the device functions it
//     calls, reporting recursion (SemaCallGraph.cpp).
//  5. In that order, check each body until the types of its locals stop
//     changing (see checkBodyToFixpoint); a device function's inferred
//     return type is then known to its callers.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "Parser.h"

#include "llvm/Support/Casting.h"

namespace pyk {

std::unique_ptr<ModuleInfo> checkModule(ast::Module &module, DiagnosticEngine &diags, const SemaOptions &options) {
  auto info = std::make_unique<ModuleInfo>();
  sema::Sema(module, diags, *info, options).run();
  return info;
}

namespace sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

Sema::Sema(Module &module, DiagnosticEngine &diags, ModuleInfo &info, const SemaOptions &options)
    : module_(module), options_(options), realDiags_(&diags), diags_(&diags), info_(info), types_(info.types) {}

Symbol *Sema::addSymbol(std::map<std::string, Symbol *> &scope, Symbol symbol) {
  info_.symbols.push_back(std::make_unique<Symbol>(std::move(symbol)));
  Symbol *added = info_.symbols.back().get();
  scope[added->name] = added;
  return added;
}

const Symbol *Sema::lookup(const std::string &name) {
  auto it = functionScope_.find(name);
  return it != functionScope_.end() ? it->second : lookupGlobal(name);
}

const Symbol *Sema::lookupGlobal(const std::string &name) {
  for (auto *scope : {&moduleScope_, &predeclared_}) {
    auto it = scope->find(name);
    if (it != scope->end())
      return it->second;
  }
  if (auto kind = scalarKindFromName(name)) {
    Symbol symbol{SymbolKind::TypeName, name, {}, nullptr, std::nullopt, *kind, Builtin::None, nullptr, 0};
    return addSymbol(predeclared_, std::move(symbol));
  }
  return nullptr;
}

/// The first element of a tuple display, looking into nested displays,
/// that is not a compile-time constant.
static const Expr *firstNonConstant(const TupleExpr &tuple) {
  for (const ExprPtr &element : tuple.elements) {
    if (auto *inner = dyn_cast<TupleExpr>(element.get())) {
      if (const Expr *found = firstNonConstant(*inner))
        return found;
      continue;
    }
    auto *name = dyn_cast<NameExpr>(element.get());
    const bool tupleConstant = name && name->symbol && name->symbol->kind == SymbolKind::Constant &&
                               name->type && name->type->isTuple();
    if (!element->constant && !tupleConstant)
      return element.get();
  }
  return &tuple;
}

void Sema::notSupportedYet(SourceRange range, const std::string &what) {
  error(range) << what << " is not supported yet";
}

void Sema::run() {
  for (auto [name, builtin] : {std::pair{"cuda", Builtin::CudaModule}, std::pair{"math", Builtin::MathModule},
                               std::pair{"np", Builtin::NumpyModule}}) {
    addSymbol(predeclared_, Symbol{SymbolKind::Builtin, name, {}, nullptr, std::nullopt, ScalarKind::Bool, builtin,
                                   nullptr, 0});
  }
  for (StmtPtr &stmt : module_.body)
    checkModuleStatement(*stmt);
  checkBuildSignatureNames();
  // Every signature first: a call checks its arguments against its
  // callee's parameters, and the call graph needs to know the kernels.
  // A kernel's versions after the first are added as this goes.
  std::vector<bool> signatureChecked(info_.functions.size(), false);
  const size_t defined = info_.functions.size();
  for (size_t index = 0; index < defined; ++index) {
    FunctionInfo &function = info_.functions[index];
    const unsigned errorsBefore = realDiags_->errorCount();
    signatureChecked[index] = checkSignature(function);
    if (!signatureChecked[index])
      rejectedDecorators_.insert(&function);
    if (realDiags_->errorCount() != errorsBefore)
      signatureErrors_.insert(&function);
  }
  signatureChecked.resize(info_.functions.size(), true);
  orderFunctions();
  for (size_t index : info_.definitionOrder) {
    if (realDiags_->limitReached())
      return;
    if (signatureChecked[index] && !info_.functions[index].generic)
      checkFunction(info_.functions[index]);
  }
  finishDefinitionOrder();
}

void Sema::checkModuleStatement(Stmt &stmt) {
  if (auto *import = dyn_cast<ImportStmt>(&stmt))
    return checkImport(*import);
  if (auto *importFrom = dyn_cast<ImportFromStmt>(&stmt))
    return checkImportFrom(*importFrom);
  if (auto *def = dyn_cast<FunctionDef>(&stmt))
    return declareFunction(*def);
  if (auto *assign = dyn_cast<AssignStmt>(&stmt)) {
    if (declareCompiledByCall(*assign))
      return;
    return declareConstants(*assign);
  }
  if (auto *unsupported = dyn_cast<UnsupportedStmt>(&stmt)) {
    error(stmt.range()) << unsupportedSyntaxName(unsupported->what) << " are not supported in pyk";
    // A rejected class or function: its uses stay silent, as a rejected
    // constant's do.
    if (!unsupported->boundName.empty() && !moduleScope_.count(unsupported->boundName))
      addSymbol(moduleScope_, Symbol{SymbolKind::Constant, unsupported->boundName, stmt.range(), types_.errorType(),
                                     std::nullopt, ScalarKind::Bool, Builtin::None, nullptr, 0});
    return;
  }
  if (auto *exprStmt = dyn_cast<ExprStmt>(&stmt); exprStmt && isa<StringLiteralExpr>(*exprStmt->expr))
    return; // A string at module level documents, like a comment.
  if (isa<PassStmt>(stmt))
    return;
  error(stmt.range()) << "only imports, constants, kernels and device functions may appear at module level "
                         "(host code belongs in C++)";
}

//===----------------------------------------------------------------------===//
// Constants and functions
//===----------------------------------------------------------------------===//

void Sema::declareConstant(NameExpr &target, Expr &value) {
  if (auto it = moduleScope_.find(target.name); it != moduleScope_.end()) {
    error(target.range()) << "'" << target.name << "' is already defined at module level";
    note(it->second->definition) << "previous definition is here";
    return;
  }
  if (looksLikeSignature(value))
    return declareSignatureConstant(target, value);
  if (looksLikeRecordDefinition(value))
    return declareRecordType(target, value);
  if (looksLikeDeclareDevice(value))
    return declareForeignFunction(target, llvm::cast<CallExpr>(value));
  if (looksLikeConstantArray(value))
    return declareConstantArray(target, value);
  // Declared even when its value is rejected (with the error type), so that
  // its uses give no second error.
  Symbol symbol{SymbolKind::Constant, target.name, target.range(), types_.errorType(), std::nullopt,
                ScalarKind::Bool, Builtin::None, nullptr, 0};
  const Type *type = checkValue(value);
  if (auto *tuple = dyn_cast<TupleExpr>(&value); tuple && type->isTuple()) {
    // A tuple of tuples keeps its leaves in order (tupleLeaves).
    const std::vector<const Type *> leaves = tupleLeaves(*type);
    for (size_t leaf = 0; leaf < leaves.size(); ++leaf) {
      std::optional<ConstantValue> leafValue = tupleLeafConstant(*tuple, leaf);
      if (!leafValue) {
        error(firstNonConstant(*tuple)->range()) << "the elements of a module-level tuple must be compile-time constants";
        type = types_.errorType();
        break;
      }
      symbol.tupleConstant.push_back(*leafValue);
    }
    if (!type->isError()) {
      symbol.type = type;
      target.type = type;
    }
    addSymbol(moduleScope_, std::move(symbol));
    return;
  }
  if (!type->isError() && type->isScalar() && isComplex(type->scalarKind())) {
    if (std::optional<std::complex<double>> complex = complexConstantOf(value)) {
      symbol.type = types_.scalar(ScalarKind::Complex128);
      symbol.complexConstant = complex;
      target.type = symbol.type;
      target.isWeak = true;
      addSymbol(moduleScope_, std::move(symbol));
      return;
    }
    error(value.range()) << "a complex module constant is made of numbers known at compile time with + - * and "
                            "complex(re, im); '"
                         << target.name << "' is not";
    type = types_.errorType();
  } else if (!type->isError() && (!value.constant || !type->isScalar())) {
    error(value.range()) << "module-level variables must be compile-time constants (int, float or bool "
                            "literals, or expressions of them); '"
                         << target.name << "' is not";
    type = types_.errorType();
  }
  if (!type->isError()) {
    symbol.type = type;
    symbol.constant = value.constant;
    target.type = type;
    target.isWeak = true;
    target.constant = value.constant;
  }
  addSymbol(moduleScope_, std::move(symbol));
}

void Sema::declareFunction(FunctionDef &def) {
  if (auto it = moduleScope_.find(def.name); it != moduleScope_.end()) {
    error(def.nameRange) << "'" << def.name << "' is already defined at module level";
    note(it->second->definition) << "previous definition is here";
    return;
  }
  addSymbol(moduleScope_, Symbol{SymbolKind::Function, def.name, def.nameRange, nullptr, std::nullopt,
                                 ScalarKind::Bool, Builtin::None, &def, 0});
  FunctionInfo function;
  function.def = &def;
  info_.functions.push_back(std::move(function));
}

bool Sema::checkSignature(FunctionInfo &function) {
  auto &def = const_cast<FunctionDef &>(*function.def);
  function_ = &function;
  functionScope_.clear();
  std::vector<Signature> signatures;
  if (!checkDecorators(def, function, signatures)) {
    function_ = nullptr;
    return false;
  }
  if (function.kind == FunctionKind::Kernel)
    for (Signature &fromBuild : buildSignatures(def))
      signatures.push_back(std::move(fromBuild));
  else if (options_.signatures.count(def.name))
    error(def.nameRange) << "the build gives a signature for '" << def.name
                         << "', a device function: device functions take their types from their calls (or their "
                            "own signature); give signatures to kernels";
  if (function.kind == FunctionKind::Device && signatures.size() > 1) {
    error(signatures[1].range) << "a device function takes one signature; without one, pyk compiles a version "
                                  "for each set of argument types it is called with";
    signatures.resize(1);
  }
  // The same parameter types twice (float32[:] and float32[::1]) are one
  // kernel.
  std::vector<Signature> distinct;
  for (Signature &signature : signatures) {
    bool seen = false;
    for (const Signature &earlier : distinct)
      seen |= earlier.params == signature.params;
    if (!seen)
      distinct.push_back(std::move(signature));
  }
  checkTypes(function, distinct.empty() ? std::nullopt : std::optional<Signature>(distinct.front()));
  for (size_t i = 1; i < distinct.size(); ++i) {
    FunctionInfo &version = addVersion(function);
    function_ = &version;
    functionScope_.clear();
    checkTypes(version, distinct[i]);
  }
  function_ = nullptr;
  return true;
}

void Sema::checkTypes(FunctionInfo &function, const std::optional<Signature> &signature) {
  auto &def = const_cast<FunctionDef &>(*function.def);
  checkParameters(def, function, signature);
  const bool annotated = def.returns && !isa<NoneLiteralExpr>(*def.returns);
  if (function.kind == FunctionKind::Kernel) {
    if (annotated)
      error(def.returns->range()) << "a kernel returns nothing; remove the return annotation or write '-> None'";
    function.returnType = types_.voidType();
  } else {
    const Type *fromAnnotation = nullptr;
    if (def.returns) {
      fromAnnotation = evaluateTypeExpr(*def.returns, /*allowVoid=*/true);
      if (!fromAnnotation)
        fromAnnotation = types_.errorType();
    }
    const Type *fromSignature = signature ? signature->returnType : nullptr;
    if (fromAnnotation && fromSignature && fromAnnotation != fromSignature && !fromAnnotation->isError()) {
      error(def.returns->range()) << "'" << def.name << "' is annotated to return " << fromAnnotation->str()
                                  << " but its signature returns " << fromSignature->str();
      fromAnnotation = types_.errorType(); // which one was meant is unknown: its returns stay silent
    }
    function.returnType = fromAnnotation ? fromAnnotation : fromSignature;
    if (function.returnType && !function.returnType->isScalar() && !function.returnType->isVoid() &&
        !function.returnType->isError()) {
      error(def.returns ? def.returns->range() : signature->range)
          << "a device function returns a scalar (or nothing), not " << function.returnType->str();
      function.returnType = types_.errorType();
    }
  }
}

void Sema::checkFunction(FunctionInfo &function) {
  function_ = &function;
  functionScope_.clear();
  for (const Symbol *param : function.params)
    functionScope_[param->name] = const_cast<Symbol *>(param);
  returnTypeDeclared_ = function.returnType != nullptr;
  hasFloat64Data_ = false;
  for (const Symbol *param : function.params)
    hasFloat64Data_ |=
        !param->type->isError() && !param->type->isTuple() && !param->type->isVoid() &&
        (param->type->scalarKind() == ScalarKind::Float64 || param->type->scalarKind() == ScalarKind::Complex128);
  float64Warnings_.clear();
  floatWidenings_.clear();
  firstValues_.clear();
  sawRejectedStatement_ = false;
  const unsigned errorsBefore = realDiags_->errorCount();
  checkBodyToFixpoint(function);
  if (realDiags_->errorCount() != errorsBefore)
    bodyErrors_.insert(&function);
  else
    warnAboutWidenedLocals(const_cast<FunctionDef &>(*function.def));
  reportFloat64Warnings();
  if (function.kind == FunctionKind::Device)
    finishReturnType(function);
  function_ = nullptr;
}

void Sema::finishReturnType(FunctionInfo &function) {
  if (!returnTypeDeclared_)
    function.returnType = inferredReturnType_ ? inferredReturnType_ : types_.voidType();
  if (!function.returnType->isVoid() && !function.returnType->isError() && !flow_.returned &&
      !sawRejectedStatement_) {
    error(function.def->nameRange) << "device function '" << function.def->name << "' returns "
                                   << function.returnType->str()
                                   << " but can reach its end without returning a value; end every path with "
                                      "'return'";
  }
}

bool Sema::checkDecorators(FunctionDef &def, FunctionInfo &function, std::vector<Signature> &signatures) {
  if (def.decorators.empty()) {
    checkPlainFunction(def, function);
    return false;
  }
  if (def.decorators.size() > 1) {
    error(def.decorators[1]->range()) << "a function takes exactly one decorator, @cuda.jit";
    return false;
  }
  Expr &decorator = *def.decorators.front();
  auto *call = dyn_cast<CallExpr>(&decorator);
  Expr &callee = call ? *call->callee : decorator;
  // A decorator pyk does not know (@staticmethod, @numba.njit) is one
  // mistake, whatever its name resolves to.
  std::string dotted;
  const Expr *root = &callee;
  while (auto *attribute = dyn_cast<AttributeExpr>(root)) {
    dotted = "." + attribute->attribute + dotted;
    root = attribute->object.get();
  }
  // What the decorator's root name means through the file's imports:
  // `numba` (also predeclared), `nb` after `import numba as nb`, `numba.njit`
  // after `from numba import njit`.
  auto numbaPath = [&](const std::string &name) -> std::string {
    for (StmtPtr &stmt : module_.body) {
      if (auto *import = dyn_cast<ImportStmt>(stmt.get())) {
        for (const ImportedName &imported : import->names)
          if (imported.name == "numba" && (imported.asName.empty() ? "numba" : imported.asName) == name)
            return "numba";
      } else if (auto *from = dyn_cast<ImportFromStmt>(stmt.get()); from && from->level == 0 && from->module == "numba") {
        for (const ImportedName &imported : from->names)
          if ((imported.asName.empty() ? imported.name : imported.asName) == name)
            return "numba." + imported.name;
      }
    }
    return name == "numba" ? "numba" : "";
  };
  auto *rootName = dyn_cast<NameExpr>(root);
  // A name the file defines itself shadows the import.
  const Symbol *rootSymbol = rootName ? lookup(rootName->name) : nullptr;
  const bool importedRoot = rootName && (!rootSymbol || rootSymbol->kind == SymbolKind::Builtin);
  const std::string numba = importedRoot ? numbaPath(rootName->name) : "";
  const std::string decoratorPath = numba.empty() ? "" : numba + dotted;
  // Numba's CPU compilers: a function they compile that a kernel calls is
  // compiled for the device, as Numba-CUDA does.
  const bool cpuJit = decoratorPath == "numba.njit" || decoratorPath == "numba.jit";
  if (cpuJit || decoratorPath == "numba.cuda.jit") {
    if (cpuJit) {
      function.kind = FunctionKind::Device;
      function.fromCpuJit = true;
    }
    if (call)
      checkDecoratorOptions(*call, function, signatures);
    return true;
  }
  if (rootName && !rootSymbol && (isUnsupportedPythonBuiltin(rootName->name) || !numba.empty())) {
    error(callee.range()) << "unknown decorator '@" << (numba.empty() ? rootName->name : numba) << dotted
                          << "'; pyk kernels are decorated with @cuda.jit";
    return false;
  }
  const Type *type = checkExpr(callee);
  if (type->isError())
    return false;
  if (callee.builtin != Builtin::CudaJit) {
    error(callee.range()) << "unknown decorator; pyk kernels are decorated with @cuda.jit";
    return false;
  }
  if (call)
    checkDecoratorOptions(*call, function, signatures);
  return true;
}

void Sema::checkDecoratorOptions(CallExpr &call, FunctionInfo &function, std::vector<Signature> &signatures) {
  if (call.args.size() > 1)
    error(call.args[1]->range()) << "@cuda.jit takes one signature or a list of them, as its first argument";
  if (!call.args.empty())
    signatures = evaluateSignatures(*call.args[0]);
  for (KeywordArgument &keyword : call.keywords)
    checkDecoratorOption(keyword, function);
  FunctionOptions &options = function.options;
  if (options.maxRegisters && options.maxThreadsPerBlock) {
    for (KeywordArgument &keyword : call.keywords)
      if (keyword.name == "max_registers")
        error(keyword.nameRange) << "options 'max_registers' and 'launch_bounds' cannot both be given (CUDA "
                                    "rejects __maxnreg__ with __launch_bounds__); keep one";
    options.maxRegisters = 0;
  }
  if (function.kind == FunctionKind::Device && (options.maxRegisters || options.maxThreadsPerBlock)) {
    for (KeywordArgument &keyword : call.keywords)
      if (keyword.name == "max_registers" || keyword.name == "launch_bounds")
        error(keyword.nameRange) << "option '" << keyword.name
                                 << "' applies to kernels; a device function runs within its caller's limits";
    options.maxRegisters = options.maxThreadsPerBlock = options.minBlocksPerMultiprocessor = 0;
  }
  if (function.kind == FunctionKind::Kernel && function.options.inlineAlways) {
    for (KeywordArgument &keyword : call.keywords)
      if (keyword.name == "inline" || keyword.name == "forceinline")
        error(keyword.nameRange) << "option '" << keyword.name
                                 << "' applies to device functions; a kernel is launched, not inlined";
    function.options.inlineAlways = false;
  }
}

/// One `name=value` of @cuda.jit(...), as Numba-CUDA's jit takes them.
/// Boolean options take True or False, and False does nothing; cache and
/// opt do nothing either way (a note says so).
void Sema::checkDecoratorOption(KeywordArgument &keyword, FunctionInfo &function) {
  const std::string &name = keyword.name;
  // Options of Numba's CPU compilers (@njit, @jit) that mean nothing on a
  // GPU: accepted, as Numba-CUDA ignores them where it compiles such a
  // function for the device.
  if (function.fromCpuJit && (name == "nopython" || name == "nogil" || name == "parallel" ||
                              name == "error_model" || name == "looplift" || name == "forceobj"))
    return;
  if (name == "max_registers" || name == "launch_bounds")
    return checkResourceOption(keyword, function);
  if (name == "link") {
    // The files that hold the code of the CUDA C++ functions the file
    // declares (SemaForeign.cpp): the whole module links them, as Numba
    // links them into every kernel that calls one.
    addLinkFiles(*keyword.value);
    return;
  }
  if (auto *set = dyn_cast<UnsupportedExpr>(keyword.value.get());
      name == "fastmath" && set && set->what == UnsupportedSyntax::SetDisplay) {
    // fastmath={'nsz', 'arcp', ...}: LLVM's flags one by one in Numba.
    warning(keyword.value->range()) << "pyk applies fastmath as a whole: with a set of flags, this function gets "
                                       "all of fastmath=True (approximate division, square root and math "
                                       "functions, float32 denormals flushed to zero)";
    function.options.fastmath = true;
    return;
  }
  static constexpr std::string_view booleanOptions[] = {"device", "fastmath",   "lineinfo",    "debug",
                                                        "inline", "forceinline", "boundscheck", "opt",
                                                        "cache"};
  if (std::find(std::begin(booleanOptions), std::end(booleanOptions), name) == std::end(booleanOptions)) {
    std::vector<std::string_view> known(std::begin(booleanOptions), std::end(booleanOptions));
    known.insert(known.end(), {"max_registers", "launch_bounds", "link"});
    DiagnosticBuilder message = error(keyword.nameRange);
    message << "unknown @cuda.jit option '" << name << "'";
    if (std::string_view guess = closestName(name, known); !guess.empty())
      message << "; did you mean '" << guess << "'?";
    else
      message << "; pyk accepts device, fastmath, lineinfo, debug, boundscheck, opt, max_registers, "
                 "launch_bounds, inline, forceinline and cache";
    return;
  }
  // inline='always' or 'never', as Numba-CUDA spells it too.
  auto *text = dyn_cast<StringLiteralExpr>(keyword.value.get());
  if (name == "inline" && text && text->flavor == StringLiteralExpr::Flavor::Text &&
      (text->value == "always" || text->value == "never")) {
    function.options.inlineAlways |= text->value == "always";
    return;
  }
  // Only True or False will do: say so once, whatever else the value is.
  DiagnosticEngine scratch(realDiags_->file());
  DiagnosticEngine *saved = std::exchange(diags_, &scratch);
  checkValue(*keyword.value);
  diags_ = saved;
  if (!keyword.value->constant || keyword.value->constant->kind != ConstantValue::Kind::Bool) {
    error(keyword.value->range()) << "option '" << name << "' takes True or False"
                                  << (name == "inline" ? ", or 'always' or 'never'" : "");
    // device=1: checked as what was meant, so that the rest of the
    // function raises no kernel-only errors on top of this one.
    const auto &c = keyword.value->constant;
    if (name == "device" &&
        (c && c->kind == ConstantValue::Kind::Int ? c->intValue != 0 : function.def->returns != nullptr))
      function.kind = FunctionKind::Device;
    return;
  }
  // Either value of these changes nothing pyk writes.
  if (name == "cache") {
    note(keyword.nameRange) << "option 'cache' has no effect: pyk compiles ahead of time";
    return;
  }
  if (name == "opt") {
    note(keyword.nameRange) << "option 'opt' has no effect: pykc's -O sets how far the code is optimised";
    return;
  }
  if (!keyword.value->constant->boolValue)
    return;
  FunctionOptions &options = function.options;
  if (name == "device")
    function.kind = FunctionKind::Device;
  else if (name == "lineinfo")
    options.lineinfo = true;
  else if (name == "fastmath")
    options.fastmath = true;
  else if (name == "debug" || name == "boundscheck")
    options.debug = true; // Checked mode checks bounds (Numba raises NotImplementedError for boundscheck).
  else if (name == "inline" || name == "forceinline")
    options.inlineAlways = true;
}

/// max_registers=N (1 to 255, PTX's limit per thread); launch_bounds=T,
/// (T,) or (T, minBlocks), T the most threads per block (1 to 1024).
void Sema::checkResourceOption(KeywordArgument &keyword, FunctionInfo &function) {
  DiagnosticEngine scratch(realDiags_->file());
  DiagnosticEngine *saved = std::exchange(diags_, &scratch);
  checkValue(*keyword.value);
  diags_ = saved;
  auto constantIn = [&](Expr &value, int64_t low, int64_t high, const char *what) -> unsigned {
    const auto &c = value.constant;
    if (!c || c->kind != ConstantValue::Kind::Int || c->exceedsInt64 || c->intValue < low || c->intValue > high) {
      error(value.range()) << "option '" << keyword.name << "' takes " << what << " from " << low << " to " << high;
      return 0;
    }
    return static_cast<unsigned>(c->intValue);
  };
  if (keyword.name == "max_registers") {
    function.options.maxRegisters = constantIn(*keyword.value, 1, 255, "a constant number of registers");
    return;
  }
  std::vector<Expr *> values{keyword.value.get()};
  if (auto *tuple = dyn_cast<TupleExpr>(keyword.value.get())) {
    values.clear();
    for (ExprPtr &element : tuple->elements)
      values.push_back(element.get());
  }
  if (values.empty() || values.size() > 2) {
    if (values.size() == 3)
      notSupportedYet(keyword.value->range(), "a cluster size in 'launch_bounds'");
    else
      error(keyword.value->range()) << "option 'launch_bounds' takes the most threads per block, or a tuple "
                                       "(threads, minimum blocks per multiprocessor)";
    return;
  }
  function.options.maxThreadsPerBlock = constantIn(*values[0], 1, 1024, "a constant number of threads per block");
  if (values.size() == 2)
    function.options.minBlocksPerMultiprocessor =
        constantIn(*values[1], 1, 1024, "as its second element a constant number of blocks");
}

void Sema::checkParameters(FunctionDef &def, FunctionInfo &function, const std::optional<Signature> &signature) {
  // A signature that was written but had errors already said what is wrong.
  auto *decoratorCall = dyn_cast<CallExpr>(def.decorators.front().get());
  const bool signatureWritten =
      (decoratorCall && !decoratorCall->args.empty()) || options_.signatures.count(def.name) != 0;
  size_t normalCount = 0;
  for (Parameter &param : def.params)
    normalCount += param.kind == Parameter::Kind::Normal;
  if (signature && signature->params.size() != normalCount) {
    error(signature->range) << "the signature gives " << signature->params.size() << " parameter type"
                            << (signature->params.size() == 1 ? "" : "s") << " but '" << def.name << "' has "
                            << normalCount << " parameter" << (normalCount == 1 ? "" : "s");
  }
  if (signature && function.kind == FunctionKind::Kernel && signature->returnType && !signature->returnType->isVoid())
    error(signature->range) << "a kernel returns nothing; its signature must be 'void(...)'";

  unsigned index = 0;
  std::vector<const Type *> declared;
  bool untyped = false;
  for (Parameter &param : def.params) {
    if (param.kind != Parameter::Kind::Normal) {
      static const char *what[] = {"", "positional-only markers ('/')", "'*args' parameters",
                                   "keyword-only markers ('*')", "'**kwargs' parameters"};
      error(param.range) << what[static_cast<int>(param.kind)] << " are not supported in "
                         << functionKindName(function) << "s";
      continue;
    }
    if (param.defaultValue)
      checkDefaultValue(param, function);
    const Type *annotated = param.annotation ? evaluateTypeExpr(*param.annotation, false) : nullptr;
    warnIfNotPython(param.annotation.get());
    const Type *fromSignature =
        signature && index < signature->params.size() ? signature->params[index] : nullptr;
    const Type *type = annotated ? annotated : fromSignature;
    if (annotated && fromSignature && annotated != fromSignature) {
      error(param.annotation->range()) << "parameter '" << param.name << "' is annotated " << annotated->str()
                                       << " but the signature gives " << fromSignature->str();
      note(signature->paramRanges[index]) << "the signature's type for '" << param.name << "' is here";
    }
    // No type from anywhere: a device function is then generic, as in Numba
    // (a version per set of argument types); a kernel is an error.
    const bool genericParam = !type && !param.annotation && !signatureWritten;
    if (genericParam && function.kind == FunctionKind::Device)
      function.generic = true;
    untyped |= genericParam;
    declared.push_back(type);
    if (functionScope_.count(param.name)) {
      error(param.range) << "duplicate parameter '" << param.name << "'";
      continue;
    }
    const Type *symbolType = type ? type : genericParam && function.kind == FunctionKind::Device ? nullptr
                                                                                               : types_.errorType();
    Symbol *symbol = addSymbol(functionScope_, Symbol{SymbolKind::Parameter, param.name, param.range, symbolType,
                                                      std::nullopt, ScalarKind::Bool, Builtin::None, nullptr, index});
    function.params.push_back(symbol);
    ++index;
  }
  if (untyped && function.kind == FunctionKind::Kernel)
    reportUntypedKernel(def, declared);
}

/// `bool[:]` means an array of bools to pyk, but Python evaluates
/// annotations when it defines the function, and the builtin bool cannot
/// be subscripted: the file would no longer run under Numba.
void Sema::warnIfNotPython(const Expr *annotation) {
  auto *subscript = llvm::dyn_cast_or_null<SubscriptExpr>(annotation);
  auto *name = subscript ? dyn_cast<NameExpr>(subscript->object.get()) : nullptr;
  if (name && name->name == "bool" && !moduleScope_.count("bool"))
    warning(name->range()) << "'bool[...]' fails under Python, where the builtin bool cannot be subscripted; write "
                              "'boolean[...]' (or 'b1[...]') so the file also runs under Numba";
}

void Sema::checkBodyToFixpoint(FunctionInfo &function) {
  // A local's type is the unification of everything assigned to it, and an
  // assignment may read locals assigned later in the text (in a loop). Check
  // the body with diagnostics muted until no local's type changes, then
  // once more for real.
  auto &def = const_cast<FunctionDef &>(*function.def);
  checkBodyUntilTypesSettle(def);
  function.callees.clear();
  flow_ = FlowState();
  resetReturnInference();
  resetGridPositions();
  checkBlock(def.body);
}

void Sema::resetReturnInference() {
  inferredReturnType_ = nullptr;
  firstValueReturn_ = nullptr;
  firstBareReturn_ = nullptr;
}

} // namespace sema
} // namespace pyk
