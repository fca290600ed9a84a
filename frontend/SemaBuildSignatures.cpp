//===- SemaBuildSignatures.cpp - Kernel types that come from the build ----===//
//
// Most Numba kernels are lazily typed (`@cuda.jit` with no signature): Numba
// types them at their first launch. pyk compiles ahead of time, so their
// types come from the build (`pykc --signature NAME=SIG`, pyk_add_kernels'
// SIGNATURES), and the file stays as it is. A kernel with no types from
// anywhere is one error at its `def` that shows every way to give them.
//
//===----------------------------------------------------------------------===//
#include "ASTWalk.h"
#include "SemaImpl.h"

#include "Parser.h"

#include "llvm/Support/Casting.h"

#include <functional>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;

namespace {

/// The .pyk file's name without its directories, as messages name it.
std::string baseName(const std::string &path) { return path.substr(path.find_last_of('/') + 1); }

} // namespace

std::vector<Signature> Sema::buildSignatures(const FunctionDef &def) {
  auto it = options_.signatures.find(def.name);
  if (it == options_.signatures.end())
    return {};
  std::vector<Signature> signatures;
  for (const std::string &text : it->second) {
    // Read as the text of a string in the decorator would be; its
    // diagnostics point at the kernel's name, with the text quoted.
    StringLiteralExpr literal(def.nameRange, text, StringLiteralExpr::Flavor::Text, std::nullopt);
    DiagnosticEngine scratch(realDiags_->file());
    DiagnosticEngine *saved = std::exchange(diags_, &scratch);
    std::vector<Signature> read = evaluateSignatures(literal);
    diags_ = saved;
    for (const Diagnostic &diagnostic : scratch.diagnostics()) {
      Diagnostic located = diagnostic;
      located.range = def.nameRange;
      if (diagnostic.severity != Severity::Note)
        located.message = "in the build's signature '" + text + "' for '" + def.name + "': " + diagnostic.message;
      realDiags_->report(std::move(located));
    }
    for (Signature &signature : read) {
      signature.range = def.nameRange;
      signature.paramRanges.assign(signature.params.size(), def.nameRange);
      signatures.push_back(std::move(signature));
    }
  }
  return signatures;
}

void Sema::checkBuildSignatureNames() {
  for (const auto &[name, texts] : options_.signatures) {
    const Symbol *symbol = lookupGlobal(name);
    if (symbol && (symbol->kind == SymbolKind::Function || (symbol->type && symbol->type->isError())))
      continue; // A device function's is reported with its decorator; a rejected definition's already was.
    error(SourceRange(realDiags_->file().locForOffset(0)))
        << "the build gives a signature for '" << name << "', but " << baseName(realDiags_->file().name())
        << " defines no kernel '" << name << "'";
  }
}

namespace {

/// How `name` is used in `def`: as an array of some rank (subscripted,
/// `.shape`, `len`), as an integer (a bound of range(), an index), or else.
struct Use {
  unsigned rank = 0;
  bool asArray = false;
  bool asInteger = false;
  /// The declared type of a device function's parameter it is passed for
  /// (`xoroshiro128p_uniform_float32(rng_states, i)`).
  const Type *passedFor = nullptr;
};

/// The declared type of parameter `index` of the device function `callee`
/// names, or null.
using ParameterTypeOf = std::function<const Type *(const std::string &callee, size_t index)>;

Use useOf(const FunctionDef &def, const std::string &name, const ParameterTypeOf &parameterTypeOf) {
  Use use;
  auto isName = [&](const Expr *e) {
    auto *n = e ? dyn_cast<NameExpr>(e) : nullptr;
    return n && n->name == name;
  };
  auto visit = [&](const Expr &e) {
    forEachExprIn(e, [&](const Expr &inner) {
      if (auto *subscript = dyn_cast<SubscriptExpr>(&inner)) {
        if (isName(subscript->object.get())) {
          use.asArray = true;
          use.rank = std::max<unsigned>(use.rank, subscript->indices.size());
        }
        for (const ExprPtr &index : subscript->indices)
          use.asInteger |= isName(index.get());
      } else if (auto *attribute = dyn_cast<AttributeExpr>(&inner)) {
        if (isName(attribute->object.get()) &&
            (attribute->attribute == "shape" || attribute->attribute == "size" || attribute->attribute == "ndim"))
          use.asArray = true;
      } else if (auto *call = dyn_cast<CallExpr>(&inner)) {
        auto *callee = dyn_cast<NameExpr>(call->callee.get());
        if (callee && callee->name == "len" && call->args.size() == 1 && isName(call->args[0].get()))
          use.asArray = true;
        if (callee && callee->name == "range")
          for (const ExprPtr &arg : call->args)
            use.asInteger |= isName(arg.get());
        for (size_t i = 0; callee && !use.passedFor && i < call->args.size(); ++i)
          if (isName(call->args[i].get()))
            use.passedFor = parameterTypeOf(callee->name, i);
      }
    });
  };
  forEachStmtIn(def.body, [&](const Stmt &s) {
    forEachPart(s, visit, [](const StmtList &) {});
    if (auto *loop = dyn_cast<ForStmt>(&s))
      visit(*loop->iterable);
  });
  return use;
}

} // namespace

void Sema::reportUntypedKernel(const FunctionDef &def, const std::vector<const Type *> &declared) {
  std::string types, annotated;
  size_t index = 0;
  for (const Parameter &param : def.params) {
    if (param.kind != Parameter::Kind::Normal)
      continue;
    std::string type;
    if (index < declared.size() && declared[index] && !declared[index]->isError()) {
      type = declared[index]->str();
    } else {
      const Use use = useOf(def, param.name, [&](const std::string &callee, size_t i) -> const Type * {
        const Symbol *symbol = lookupGlobal(callee);
        const FunctionInfo *function =
            symbol && symbol->kind == SymbolKind::Function ? info_.infoFor(symbol->function) : nullptr;
        if (!function || i >= function->params.size() || !function->params[i]->type ||
            function->params[i]->type->isError())
          return nullptr;
        return function->params[i]->type;
      });
      if (use.passedFor) {
        type = use.passedFor->str();
      } else if (use.asArray) {
        type = "float32[";
        for (unsigned axis = 0; axis < std::max(use.rank, 1u); ++axis)
          type += axis ? ", :" : ":";
        type += "]";
      } else {
        type = use.asInteger ? "int64" : "float32";
      }
    }
    types += (index ? ", " : "") + type;
    annotated += (index ? ", " : "") + param.name + ": " + type;
    ++index;
  }
  const std::string signature = "void(" + types + ")";
  const std::string file = baseName(realDiags_->file().name());
  std::string missing;
  size_t missingCount = 0;
  index = 0;
  for (const Parameter &param : def.params) {
    if (param.kind != Parameter::Kind::Normal)
      continue;
    if (index >= declared.size() || !declared[index]) {
      missing += (missing.empty() ? "'" : ", '") + param.name + "'";
      ++missingCount;
    }
    ++index;
  }
  if (missingCount == index)
    error(def.nameRange) << "kernel '" << def.name
                         << "' has no parameter types; pyk compiles ahead of time, so they come from the build or "
                            "from the file";
  else
    error(def.nameRange) << "kernel '" << def.name << "' has no type for " << (missingCount == 1 ? "parameter " : "parameters ")
                         << missing << "; pyk compiles ahead of time, so types come from the build or from the file";
  note(def.nameRange) << "in the build: 'pykc " << file << " --signature \"" << def.name << "=" << signature
                      << "\"', or 'pyk_add_kernels(TARGET ... SIGNATURES " << def.name << " \"" << signature
                      << "\")' in CMake";
  note(def.nameRange) << "or in the file: '@cuda.jit(\"" << signature << "\")', or annotations 'def " << def.name
                      << "(" << annotated << ")' (the types shown are guesses from how the parameters are used)";
}

} // namespace pyk::sema
