//===- SemaTypeExpr.cpp - Types written in annotations and signatures -----===//
//
// type       ::= scalar | scalar '[' dims ']'
// scalar     ::= NAME | ('np' | 'numpy' | 'numba') '.' NAME
// dims       ::= ':' (',' ':')* [',' '::1']   (rank 1 to 3; '::1' last only)
// signature  ::= ('void' | scalar) '(' [type (',' type)*] ')'  or that text in a string
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "Parser.h"

#include "llvm/Support/Casting.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

std::optional<ScalarKind> Sema::scalarTypeNamed(Expr &expr) {
  if (auto *name = dyn_cast<NameExpr>(&expr)) {
    const Symbol *symbol = lookupGlobal(name->name);
    if (symbol && symbol->kind == SymbolKind::TypeName)
      return symbol->scalarKind;
    return std::nullopt;
  }
  if (auto *attribute = dyn_cast<AttributeExpr>(&expr)) {
    auto *object = dyn_cast<NameExpr>(attribute->object.get());
    if (!object)
      return std::nullopt;
    const Symbol *symbol = lookupGlobal(object->name);
    const bool isTypeModule =
        (symbol && symbol->kind == SymbolKind::Builtin &&
         (symbol->builtin == Builtin::NumpyModule || symbol->builtin == Builtin::CupyModule ||
          symbol->builtin == Builtin::NumbaModule || symbol->builtin == Builtin::NumbaTypesModule)) ||
        object->name == "numba" || object->name == "numpy";
    if (isTypeModule)
      return scalarKindFromName(attribute->attribute);
  }
  return std::nullopt;
}

static bool isWholeAxis(const SliceExpr &slice) { return !slice.lower && !slice.upper && !slice.step; }

static bool isContiguousAxis(const SliceExpr &slice) {
  auto *step = slice.step ? dyn_cast<IntLiteralExpr>(slice.step.get()) : nullptr;
  return !slice.lower && !slice.upper && step && !step->tooLarge && step->value == 1;
}

const Type *Sema::evaluateTypeExpr(Expr &expr, bool allowVoid) {
  if (auto *literal = dyn_cast<StringLiteralExpr>(&expr)) {
    ExprPtr parsed = parseStringAsExpression(*literal, *diags_);
    return parsed ? evaluateTypeExpr(*parsed, allowVoid) : nullptr;
  }
  if (auto *name = dyn_cast<NameExpr>(&expr); name && name->name == "void") {
    if (allowVoid)
      return types_.voidType();
    error(expr.range()) << "'void' is only a signature's return type";
    return nullptr;
  }
  if (isa<NoneLiteralExpr>(expr) && allowVoid)
    return types_.voidType();
  if (auto kind = scalarTypeNamed(expr)) {
    if (*kind == ScalarKind::Float16) {
      notSupportedYet(expr.range(), "float16");
      return nullptr;
    }
    return types_.scalar(*kind);
  }
  auto *subscript = dyn_cast<SubscriptExpr>(&expr);
  if (auto *name = dyn_cast<NameExpr>(&expr); name && !subscript) {
    error(expr.range()) << "'" << name->name << "' is not a type; expected a scalar type such as float32 or an "
                           "array type such as float32[:]";
    return nullptr;
  }
  if (!subscript) {
    error(expr.range()) << "expected a type, such as float32 or float32[:]";
    return nullptr;
  }
  auto element = scalarTypeNamed(*subscript->object);
  if (!element) {
    error(subscript->object->range()) << "expected a scalar element type before '[', such as float32[:]";
    return nullptr;
  }
  if (*element == ScalarKind::Float16) {
    notSupportedYet(subscript->object->range(), "float16");
    return nullptr;
  }
  const size_t rank = subscript->indices.size();
  for (size_t axis = 0; axis < rank; ++axis) {
    auto *slice = dyn_cast<SliceExpr>(subscript->indices[axis].get());
    const bool last = axis + 1 == rank;
    if (slice && (isWholeAxis(*slice) || (last && isContiguousAxis(*slice))))
      continue;
    error(subscript->indices[axis]->range())
        << "an array type lists one ':' per axis, as in float32[:, :] (only the last axis may be written '::1')";
    return nullptr;
  }
  if (rank > 3) {
    error(expr.range()) << "arrays of rank " << rank << " are not supported; pyk arrays have rank 1 to 3";
    return nullptr;
  }
  return types_.array(*element, static_cast<unsigned>(rank));
}

std::optional<Signature> Sema::evaluateSignature(Expr &expr) {
  if (auto *literal = dyn_cast<StringLiteralExpr>(&expr)) {
    ExprPtr parsed = parseStringAsExpression(*literal, *diags_);
    return parsed ? evaluateSignature(*parsed) : std::nullopt;
  }
  auto *call = dyn_cast<CallExpr>(&expr);
  if (!call || !call->keywords.empty()) {
    error(expr.range()) << "expected a signature such as \"void(float32[:], float32[:])\"";
    return std::nullopt;
  }
  Signature signature;
  signature.range = expr.range();
  signature.returnType = evaluateTypeExpr(*call->callee, /*allowVoid=*/true);
  bool ok = signature.returnType != nullptr;
  for (ExprPtr &arg : call->args) {
    const Type *type = evaluateTypeExpr(*arg, /*allowVoid=*/false);
    ok &= type != nullptr;
    signature.params.push_back(type ? type : types_.errorType());
    signature.paramRanges.push_back(arg->range());
  }
  if (!ok)
    return std::nullopt;
  return signature;
}

} // namespace pyk::sema
