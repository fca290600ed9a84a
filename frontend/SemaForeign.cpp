//===- SemaForeign.cpp - CUDA C++ device functions a file declares --------===//
//
// Numba's FFI, as its documentation writes it:
//
//   mul = cuda.declare_device("mul_f32", "float32(float32, float32)")
//
//   @cuda.jit(link=["functions.cu"])
//   def kernel(out, x, y):
//       out[i] = mul(x[i], y[i])
//
// declares a device function written in CUDA C++ with Numba's ABI,
// `extern "C" __device__ int mul_f32(float *result, float a, float b)`, and
// names the file that holds it. Sema checks the declaration (a C name, a
// signature of scalars) and each call (arguments by position, converted to
// the declared types as a device function's are); the IR calls it as a
// ForeignCall, and each backend maps Numba's ABI to its target.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include <algorithm>
#include <cctype>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;

namespace {

bool isCIdentifier(const std::string &name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
    return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

const StringLiteralExpr *textLiteral(const Expr &expr) {
  auto *text = dyn_cast<StringLiteralExpr>(&expr);
  return text && text->flavor == StringLiteralExpr::Flavor::Text ? text : nullptr;
}

} // namespace

bool Sema::looksLikeDeclareDevice(const Expr &value) {
  auto *call = dyn_cast<CallExpr>(&value);
  if (!call)
    return false;
  const std::string callee = dottedName(*call->callee, [&](const std::string &name) { return lookup(name); });
  return callee == "cuda.declare_device" || callee == "numba.cuda.declare_device";
}

void Sema::declareForeignFunction(NameExpr &target, CallExpr &call) {
  static const char *const example = "'mul = cuda.declare_device(\"mul\", \"float32(float32, float32)\")'";
  // Declared even when the declaration is rejected, so that calls of it
  // give no second error.
  Symbol symbol{SymbolKind::ForeignFunction, target.name, target.range(), nullptr, std::nullopt, ScalarKind::Bool,
                Builtin::None, nullptr, 0};
  const StringLiteralExpr *name = call.args.size() == 2 ? textLiteral(*call.args[0]) : nullptr;
  const StringLiteralExpr *signatureText = call.args.size() == 2 ? textLiteral(*call.args[1]) : nullptr;
  if (!name || !signatureText) {
    error(call.range()) << "cuda.declare_device takes the function's C name and its signature, two strings, as in "
                        << example;
    addSymbol(moduleScope_, std::move(symbol));
    return;
  }
  bool ok = true;
  for (KeywordArgument &keyword : call.keywords) {
    if (keyword.name == "link") {
      ok &= addLinkFiles(*keyword.value);
    } else if (keyword.name == "use_cooperative") {
      notSupportedYet(keyword.nameRange, "option 'use_cooperative' of cuda.declare_device");
      ok = false;
    } else {
      error(keyword.nameRange) << "cuda.declare_device takes the options 'link' and 'use_cooperative', not '"
                               << keyword.name << "'";
      ok = false;
    }
  }
  if (!isCIdentifier(name->value)) {
    error(name->range()) << "'" << name->value << "' is not a C function name; the declared name is the symbol of an "
                         << "'extern \"C\"' CUDA C++ function, as in " << example;
    ok = false;
  }
  std::optional<Signature> signature = evaluateSignature(*call.args[1]);
  if (signature && !signature->returnType) {
    error(signatureText->range()) << "the signature of a declared function gives its return type, as in "
                                     "'float32(float32, float32)'";
    signature.reset();
  }
  if (signature && signature->returnType->isVoid()) {
    notSupportedYet(signatureText->range(), "a declared function that returns nothing");
    signature.reset();
  }
  if (signature) {
    std::vector<const Type *> types = signature->params;
    types.insert(types.begin(), signature->returnType);
    for (size_t i = 0; i < types.size(); ++i) {
      const SourceRange range = i == 0 ? signatureText->range() : signature->paramRanges[i - 1];
      if (!types[i]->isScalar()) {
        notSupportedYet(range, (i == 0 ? std::string("a declared function's result of type ")
                                       : std::string("a declared function's parameter of type ")) +
                                   types[i]->str() + " (scalars only: Numba passes arrays as its own structs)");
        signature.reset();
        break;
      }
      const ScalarKind kind = types[i]->scalarKind();
      if (isComplex(kind) || kind == ScalarKind::Float16 || kind == ScalarKind::BFloat16) {
        notSupportedYet(range, std::string(isComplex(kind) ? "a complex number" : "a 16-bit float") +
                                   " in a declared function's signature");
        signature.reset();
        break;
      }
    }
  }
  if (!signature || !ok) {
    addSymbol(moduleScope_, std::move(symbol));
    return;
  }
  // One C function may be declared under two Python names, with one
  // signature: the symbol has one type.
  for (const ForeignFunction &declared : info_.foreignFunctions) {
    if (declared.name != name->value)
      continue;
    if (declared.result == signature->returnType && declared.params == signature->params) {
      symbol.foreign = &declared;
    } else {
      error(signatureText->range()) << "'" << name->value << "' is declared again with another signature; a C "
                                    << "function has one";
      note(declared.declaration) << "the first declaration is here";
    }
    addSymbol(moduleScope_, std::move(symbol));
    return;
  }
  ForeignFunction &function = info_.foreignFunctions.emplace_back();
  function.name = name->value;
  function.result = signature->returnType;
  function.params = signature->params;
  function.declaration = call.range();
  for (size_t i = 0; i < function.params.size(); ++i) {
    info_.symbols.push_back(std::make_unique<Symbol>(Symbol{SymbolKind::Parameter, "#" + std::to_string(i + 1),
                                                            signature->paramRanges[i], function.params[i],
                                                            std::nullopt, ScalarKind::Bool, Builtin::None, nullptr,
                                                            static_cast<unsigned>(i)}));
    function.paramSymbols.push_back(info_.symbols.back().get());
  }
  symbol.foreign = &function;
  target.type = types_.voidType();
  addSymbol(moduleScope_, std::move(symbol));
}

bool Sema::addLinkFiles(Expr &value) {
  std::vector<const Expr *> files;
  if (auto *list = dyn_cast<UnsupportedExpr>(&value); list && list->what == UnsupportedSyntax::ListDisplay) {
    for (const ExprPtr &element : list->elements)
      files.push_back(element.get());
  } else if (auto *tuple = dyn_cast<TupleExpr>(&value)) {
    for (const ExprPtr &element : tuple->elements)
      files.push_back(element.get());
  } else {
    files.push_back(&value);
  }
  bool ok = true;
  for (const Expr *file : files) {
    const StringLiteralExpr *path = textLiteral(*file);
    if (!path || path->value.empty()) {
      error(file->range()) << "'link' takes the files to link, as strings: a path relative to the .pyk file, as in "
                              "'link=[\"functions.cu\"]'";
      ok = false;
      continue;
    }
    if (std::none_of(info_.linkFiles.begin(), info_.linkFiles.end(),
                     [&](const auto &linked) { return linked.first == path->value; }))
      info_.linkFiles.emplace_back(path->value, path->range());
  }
  return ok;
}

/// mul(a, b) of a declared function: positional arguments, each converted
/// to its declared type as a device function's argument is.
const Type *Sema::checkForeignCall(CallExpr &expr, const Symbol &symbol) {
  auto &calleeName = llvm::cast<NameExpr>(*expr.callee);
  calleeName.symbol = &symbol;
  calleeName.type = types_.voidType();
  for (ExprPtr &arg : expr.args)
    checkValue(*arg);
  for (KeywordArgument &keyword : expr.keywords)
    checkValue(*keyword.value);
  const ForeignFunction *function = symbol.foreign;
  if (!function) // its declaration's error says why
    return setType(expr, types_.errorType());
  if (!expr.keywords.empty()) {
    error(expr.keywords.front().nameRange) << "'" << symbol.name << "' is declared by a signature, which names no "
                                           << "parameter: pass its arguments by position";
    return setType(expr, types_.errorType());
  }
  const size_t count = function->params.size();
  if (expr.args.size() != count) {
    error(expr.range()) << "'" << symbol.name << "' takes " << count << " argument" << (count == 1 ? "" : "s")
                        << " but " << expr.args.size() << (expr.args.size() == 1 ? " was" : " were") << " given";
    note(symbol.definition) << "'" << symbol.name << "' is declared here";
    return setType(expr, types_.errorType());
  }
  bool ok = true;
  for (size_t i = 0; i < count; ++i)
    ok &= checkArgument(*expr.args[i], function->params[i], *function->paramSymbols[i], symbol.name);
  if (!ok)
    return setType(expr, types_.errorType());
  // Its code is the user's: it may write memory or print, so it runs once
  // and in Python's order, as a device function with side effects does.
  function_->hasSideEffects = true;
  if (&expr != statementValue_)
    nestedEffectfulCalls_.push_back({&expr, statementValue_, symbol.name, "is CUDA C++ that may write memory"});
  expr.foreign = function;
  return setType(expr, function->result);
}

} // namespace pyk::sema
