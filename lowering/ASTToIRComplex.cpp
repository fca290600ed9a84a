//===- ASTToIRComplex.cpp - Making complex numbers and taking them apart --===//
//
// What Sema typed in SemaComplex.cpp, as the IR's ComplexMake and
// ComplexPart; the arithmetic stays Python's operations for lowerComplex.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "llvm/Support/Casting.h"

namespace pyk::ir::lowering {

using llvm::cast;

ExprPtr Lowering::numberPart(const ast::AttributeExpr &e) {
  const bool imag = e.builtin == Builtin::NumberImag;
  if (isComplex(e.object->type->scalarKind()))
    return std::make_unique<ComplexPart>(e.range(), expr(*e.object), imag);
  // A real number's real part is itself; its imaginary part is zero.
  if (imag)
    return zeroOf(toIRType(e.type), e.range());
  return expr(*e.object);
}

ExprPtr Lowering::complexOf(std::complex<double> value, Type type, SourceRange loc) {
  const Type float64 = Type::scalarType(ScalarKind::Float64);
  return castTo(std::make_unique<ComplexMake>(loc, Type::scalarType(ScalarKind::Complex128),
                                              std::make_unique<Constant>(loc, float64, 0, value.real()),
                                              std::make_unique<Constant>(loc, float64, 0, value.imag())),
                type);
}

ExprPtr Lowering::complexCall(const ast::CallExpr &e) {
  const Type type = toIRType(e.type);
  if (e.function == Builtin::Conjugate) {
    ExprPtr value = expr(*cast<ast::AttributeExpr>(*e.callee).object);
    if (!isComplex(value->type().scalar))
      return value;
    return std::make_unique<Unary>(e.range(), UnaryOp::Conj, std::move(value));
  }
  if (e.args.size() == 1)
    return castTo(expr(*e.args.front()), type);
  const Type part = Type::scalarType(complexPart(type.scalar));
  return std::make_unique<ComplexMake>(e.range(), type, castTo(expr(*e.args[0]), part), castTo(expr(*e.args[1]), part));
}

} // namespace pyk::ir::lowering
