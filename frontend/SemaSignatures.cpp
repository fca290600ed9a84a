//===- SemaSignatures.cpp - The signatures given to @cuda.jit -------------===//
//
// Every spelling Numba's cuda.jit takes (numba.core.sigutils):
//
// signatures ::= signature | '[' signature (',' signature)* ']' | CONSTANT
// signature  ::= ('void' | scalar) '(' [type (',' type)*] ')'   return type given
//             |  '(' [type (',' type)* [',']] ')'                 argument types only
//             |  STRING holding either, or a bare 'type, type'
//             |  CONSTANT                                         a module constant holding one
//
// (`type` and `scalar`: SemaTypeExpr.cpp.) A module constant holds a
// signature when its value has one of these forms; it is read where a
// decorator names it, and is no value in a kernel.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "Parser.h"

#include "llvm/Support/Casting.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

namespace {
bool isListDisplay(const Expr &expr) {
  auto *list = dyn_cast<UnsupportedExpr>(&expr);
  return list && list->what == UnsupportedSyntax::ListDisplay;
}
} // namespace

bool Sema::looksLikeType(Expr &expr) {
  if (auto *subscript = dyn_cast<SubscriptExpr>(&expr))
    return scalarTypeNamed(*subscript->object).has_value();
  return scalarTypeNamed(expr).has_value();
}

bool Sema::looksLikeSignature(Expr &expr) {
  if (auto *literal = dyn_cast<StringLiteralExpr>(&expr)) {
    DiagnosticEngine scratch(realDiags_->file());
    ExprPtr parsed = parseStringAsExpression(*literal, scratch);
    return parsed && !isa<StringLiteralExpr>(*parsed) && (looksLikeSignature(*parsed) || looksLikeType(*parsed));
  }
  if (auto *name = dyn_cast<NameExpr>(&expr)) {
    const Symbol *symbol = lookupGlobal(name->name);
    return symbol && symbol->kind == SymbolKind::Signature;
  }
  if (auto *tuple = dyn_cast<TupleExpr>(&expr)) {
    for (ExprPtr &element : tuple->elements)
      if (looksLikeType(*element))
        return true;
    return false;
  }
  if (auto *call = dyn_cast<CallExpr>(&expr)) {
    // void(...) always; float32(float32) but not the cast float32(2).
    if (isVoidNamed(*call->callee))
      return true;
    if (!scalarTypeNamed(*call->callee) || call->args.empty())
      return false;
    for (ExprPtr &arg : call->args)
      if (!looksLikeType(*arg))
        return false;
    return true;
  }
  if (auto *list = dyn_cast<UnsupportedExpr>(&expr); list && isListDisplay(*list) && !list->elements.empty()) {
    for (ExprPtr &element : list->elements)
      if (!looksLikeSignature(*element))
        return false;
    return true;
  }
  return false;
}

void Sema::declareSignatureConstant(NameExpr &target, Expr &value) {
  Symbol symbol{SymbolKind::Signature, target.name, target.range(), nullptr, std::nullopt, ScalarKind::Bool,
                Builtin::None, nullptr, 0};
  symbol.signatureValue = &value;
  addSymbol(moduleScope_, std::move(symbol));
  // Read now, as Python evaluates it here, so that a mistake in it is
  // reported even when no decorator names it; a decorator that does reads
  // it again (DiagnosticEngine drops the repeats).
  evaluateSignatures(value);
}

/// The signature constant `expr` names, or null.
const Symbol *Sema::signatureConstant(const Expr &expr) {
  auto *name = dyn_cast<NameExpr>(&expr);
  const Symbol *symbol = name ? lookupGlobal(name->name) : nullptr;
  return symbol && symbol->kind == SymbolKind::Signature ? symbol : nullptr;
}

std::optional<Signature> Sema::evaluateSignature(Expr &expr, bool inString) {
  if (auto *literal = dyn_cast<StringLiteralExpr>(&expr); literal && !inString) {
    ExprPtr parsed = parseStringAsExpression(*literal, *diags_);
    return parsed ? evaluateSignature(*parsed, /*inString=*/true) : std::nullopt;
  }
  if (const Symbol *constant = signatureConstant(expr)) {
    if (isListDisplay(*constant->signatureValue)) {
      error(expr.range()) << "'" << constant->name << "' is a list of signatures; a list cannot hold another list";
      return std::nullopt;
    }
    std::optional<Signature> signature = evaluateSignature(*constant->signatureValue);
    if (signature)
      signature->range = expr.range(); // what disagrees with the function is where the decorator uses it
    return signature;
  }
  Signature signature;
  signature.range = expr.range();
  std::vector<Expr *> params;
  if (auto *tuple = dyn_cast<TupleExpr>(&expr)) {
    // Argument types alone: Numba's `(float32[:], int32)`, the return type
    // left to inference.
    for (ExprPtr &element : tuple->elements)
      params.push_back(element.get());
  } else if (auto *call = dyn_cast<CallExpr>(&expr); call && call->keywords.empty()) {
    signature.returnType = evaluateTypeExpr(*call->callee, /*allowVoid=*/true);
    if (!signature.returnType)
      return std::nullopt;
    for (ExprPtr &arg : call->args)
      params.push_back(arg.get());
  } else {
    reportNotASignature(expr);
    return std::nullopt;
  }
  bool ok = true;
  for (Expr *param : params) {
    const Type *type = evaluateTypeExpr(*param, /*allowVoid=*/false);
    ok &= type != nullptr;
    signature.params.push_back(type ? type : types_.errorType());
    signature.paramRanges.push_back(param->range());
  }
  if (!ok)
    return std::nullopt;
  return signature;
}

void Sema::reportNotASignature(Expr &expr) {
  // A lone type: the fix is to wrap it, in the user's own spelling.
  const Type *type = nullptr;
  if (looksLikeType(expr)) {
    DiagnosticEngine scratch(realDiags_->file());
    DiagnosticEngine *saved = std::exchange(diags_, &scratch);
    type = evaluateTypeExpr(expr, /*allowVoid=*/false);
    diags_ = saved;
  }
  if (type) {
    const std::string spelled = typeSpelling(expr);
    error(expr.range()) << "'" << spelled << "' is a type, not a signature; a signature lists the parameter types: "
                        << "write \"void(" << spelled << ")\" or the tuple (" << spelled << ",)";
    return;
  }
  error(expr.range()) << "expected a signature such as \"void(float32[:], float32[:])\" or a tuple of parameter "
                         "types such as (float32[:], float32)";
}

std::vector<Signature> Sema::evaluateSignatures(Expr &expr) {
  if (const Symbol *constant = signatureConstant(expr); constant && isListDisplay(*constant->signatureValue)) {
    std::vector<Signature> signatures = evaluateSignatures(*constant->signatureValue);
    for (Signature &signature : signatures)
      signature.range = expr.range();
    return signatures;
  }
  if (auto *list = dyn_cast<UnsupportedExpr>(&expr); list && isListDisplay(*list)) {
    if (list->elements.empty()) {
      error(expr.range()) << "the list of signatures is empty; give at least one, or none at all";
      return {};
    }
    std::vector<Signature> signatures;
    bool ok = true;
    for (ExprPtr &element : list->elements) {
      std::optional<Signature> signature = evaluateSignature(*element);
      ok &= signature.has_value();
      if (signature)
        signatures.push_back(std::move(*signature));
    }
    return ok ? signatures : std::vector<Signature>{};
  }
  std::optional<Signature> signature = evaluateSignature(expr);
  if (!signature)
    return {};
  return {std::move(*signature)};
}

} // namespace pyk::sema
