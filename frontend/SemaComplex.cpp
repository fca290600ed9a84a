//===- SemaComplex.cpp - complex(), a number's real, imag, conjugate() ----===//
//
// Complex values are scalars (complex64, complex128) that promote as NumPy
// 2 has them (Types.cpp) and compute as Python does (lowerComplex). Here:
// how they are made and taken apart, as Numba types them.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include <complex>
#include <optional>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;

bool Sema::checkNotComplexToReal(const Type *valueType, SourceRange at, ScalarKind to, const char *action) {
  if (!valueType->isScalar() || !isComplex(valueType->scalarKind()) || isComplex(to))
    return true;
  std::string text = sourceText(at);
  if (text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[]") != std::string::npos)
    text = "(" + text + ")";
  error(at) << "cannot " << action << " a " << valueType->str() << " value as " << scalarName(to)
            << " (Python has no such conversion); take a part: '" << text << ".real', '" << text << ".imag' or 'abs("
            << sourceText(at) << ")'";
  return false;
}

/// complex(re) and complex(re, im): complex64 when the parts promote to
/// float32 (Python numbers beside it are weak, as NEP 50 has them; Numba
/// types complex(float32, float32) so too), else complex128; of Python
/// numbers alone, a Python complex (weak, as `1 + 2j` is). complex(z) of a
/// complex z is complex128, as Numba's and Python's.
const Type *Sema::checkComplexConstructor(CallExpr &expr) {
  if (!requirePositional(expr, "complex", 1, 2))
    return setType(expr, types_.errorType());
  bool ok = true, ofComplex = false;
  std::optional<PromotionOperand> parts;
  for (size_t i = 0; i < expr.args.size(); ++i) {
    Expr &arg = *expr.args[i];
    const Type *type = checkValue(arg);
    if (type->isError()) {
      ok = false;
      continue;
    }
    if (!type->isScalar()) {
      error(arg.range()) << "complex() needs numbers, not " << describe(arg);
      ok = false;
      continue;
    }
    if (expr.args.size() == 2 && isComplex(type->scalarKind())) {
      notSupportedYet(arg.range(), "a complex part in complex(re, im)");
      ok = false;
    }
    ofComplex |= isComplex(type->scalarKind());
    parts = parts ? promote(*parts, promotionOperand(arg)) : promotionOperand(arg);
  }
  if (!ok)
    return setType(expr, types_.errorType());
  expr.isWeak = parts->weak;
  const bool single = !parts->weak && !ofComplex && complexHolding(parts->kind) == ScalarKind::Complex64;
  return setType(expr, types_.scalar(single ? ScalarKind::Complex64 : ScalarKind::Complex128));
}

const Type *Sema::checkNumberAttribute(AttributeExpr &expr, const Type *type) {
  const ScalarKind kind = type->scalarKind();
  const bool known = expr.attribute == "real" || expr.attribute == "imag" || expr.attribute == "conjugate";
  if (!known || kind == ScalarKind::Bool) {
    error(expr.attributeRange) << describe(*expr.object) << " has no attribute '" << expr.attribute << "'"
                               << (kind == ScalarKind::Bool ? "" : "; numbers have real, imag and conjugate()");
    return setType(expr, types_.errorType());
  }
  if (expr.attribute == "conjugate") {
    expr.builtin = Builtin::Conjugate;
    return setType(expr, types_.voidType());
  }
  // A real number is its own real part, and its imaginary part is its
  // type's zero (Numba's).
  expr.builtin = expr.attribute == "real" ? Builtin::NumberReal : Builtin::NumberImag;
  expr.isWeak = expr.object->isWeak;
  if (!isComplex(kind) && expr.object->constant)
    expr.constant = expr.builtin == Builtin::NumberReal ? *expr.object->constant
                    : isFloat(kind)                     ? ConstantValue::ofFloat(0.0)
                                                        : ConstantValue::ofInt(0);
  return setType(expr, types_.scalar(isComplex(kind) ? complexPart(kind) : kind));
}

/// z.conjugate(): of a complex number its conjugate, of a real one itself.
const Type *Sema::checkConjugate(CallExpr &expr) {
  expr.function = Builtin::Conjugate;
  if (!requirePositional(expr, "conjugate", 0, 0))
    return setType(expr, types_.errorType());
  const Expr &object = *llvm::cast<AttributeExpr>(*expr.callee).object;
  expr.isWeak = object.isWeak;
  if (!isComplex(object.type->scalarKind()))
    expr.constant = object.constant;
  return setType(expr, object.type);
}

std::optional<std::complex<double>> Sema::complexConstantOf(const Expr &value) const {
  using Complex = std::complex<double>;
  if (value.type->isError() || !value.type->isScalar())
    return std::nullopt;
  if (value.constant && !value.constant->exceedsInt64)
    return Complex(value.constant->asDouble(), 0.0);
  if (auto *imag = dyn_cast<ImagLiteralExpr>(&value))
    return Complex(0.0, imag->value);
  if (auto *name = dyn_cast<NameExpr>(&value))
    return name->symbol ? name->symbol->complexConstant : std::nullopt;
  if (auto *unary = dyn_cast<UnaryExpr>(&value)) {
    std::optional<Complex> operand = complexConstantOf(*unary->operand);
    if (!operand || (unary->op != UnaryOp::Minus && unary->op != UnaryOp::Plus))
      return std::nullopt;
    return unary->op == UnaryOp::Minus ? Complex(-operand->real(), -operand->imag()) : *operand;
  }
  if (auto *binary = dyn_cast<BinaryExpr>(&value)) {
    std::optional<Complex> a = complexConstantOf(*binary->lhs), b = complexConstantOf(*binary->rhs);
    if (!a || !b)
      return std::nullopt;
    // Python's formulas, as lowerComplex's functions compute them.
    switch (binary->op) {
    case BinaryOp::Add:
      return Complex(a->real() + b->real(), a->imag() + b->imag());
    case BinaryOp::Sub:
      return Complex(a->real() - b->real(), a->imag() - b->imag());
    case BinaryOp::Mul:
      return Complex(a->real() * b->real() - a->imag() * b->imag(), a->real() * b->imag() + a->imag() * b->real());
    default:
      return std::nullopt;
    }
  }
  auto *call = dyn_cast<CallExpr>(&value);
  if (call && call->function == Builtin::Complex) {
    std::optional<Complex> re = complexConstantOf(*call->args[0]);
    if (call->args.size() == 1)
      return re;
    std::optional<Complex> im = complexConstantOf(*call->args[1]);
    if (!re || !im || re->imag() != 0 || im->imag() != 0)
      return std::nullopt;
    return Complex(re->real(), im->real());
  }
  return std::nullopt;
}

} // namespace pyk::sema
