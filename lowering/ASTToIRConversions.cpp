//===- ASTToIRConversions.cpp - Constants and conversions as IR ------------===//
//
// A Sema constant as an IR Constant of its type, and the conversion of a
// lowered value to another type, folded where the value is a constant (or
// a choice among constants, or a complex number made of parts).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"

namespace pyk::ir::lowering {

using llvm::dyn_cast;
using llvm::isa;

ExprPtr Lowering::constantOf(const ast::ConstantValue &value, Type type, SourceRange loc) {
  switch (value.kind) {
  case ast::ConstantValue::Kind::Bool:
    return std::make_unique<Constant>(loc, type, value.boolValue, value.boolValue);
  case ast::ConstantValue::Kind::Int: {
    // Folding in Python's ints may leave the type's range (-int8(-128)
    // is 128): the value wraps, as the operation would at run time.
    const int64_t wrapped = isInteger(type.scalar) ? wrapToWidth(value.intValue, type.scalar) : value.intValue;
    return std::make_unique<Constant>(loc, type, wrapped, static_cast<double>(wrapped));
  }
  case ast::ConstantValue::Kind::Float:
    return std::make_unique<Constant>(loc, type, 0, value.floatValue);
  }
  llvm_unreachable("unknown constant kind");
}

/// `value`'s bits cut to `kind`'s width, sign-extended for a signed kind
/// (a Constant's intValue is the bit pattern, sign-extended).
int64_t Lowering::wrapToWidth(int64_t value, ScalarKind kind) {
  const unsigned bits = byteWidth(kind) * 8;
  auto pattern = static_cast<uint64_t>(value);
  if (bits < 64) {
    pattern &= (uint64_t(1) << bits) - 1;
    if (isSignedInteger(kind) && (pattern >> (bits - 1)))
      pattern |= ~((uint64_t(1) << bits) - 1);
  }
  return static_cast<int64_t>(pattern);
}

/// Whether `e` is a constant or a choice among constants.
bool Lowering::isConstantChoice(const Expr &e) {
  if (isa<Constant>(e))
    return true;
  auto *select = dyn_cast<Select>(&e);
  return select && isConstantChoice(*select->thenValue) && isConstantChoice(*select->elseValue);
}

/// Converts `e` to `type`, folding the conversion of a constant (and of
/// a choice among constants: WEIGHTS[k]).
ExprPtr Lowering::castTo(ExprPtr e, Type type) {
  if (e->type() == type)
    return e;
  if (type.isScalar() && isComplex(type.scalar)) {
    // Part by part: 2j as complex64 is a complex64 of two constants.
    const Type part = Type::scalarType(complexPart(type.scalar));
    const SourceRange loc = e->loc();
    if (auto *made = dyn_cast<ComplexMake>(e.get()))
      return std::make_unique<ComplexMake>(loc, type, castTo(std::move(made->real), part),
                                           castTo(std::move(made->imag), part));
    if (isa<Constant>(*e))
      return std::make_unique<ComplexMake>(loc, type, castTo(std::move(e), part),
                                           std::make_unique<Constant>(loc, part, 0, 0.0));
  }
  if (auto *select = dyn_cast<Select>(e.get()); select && isConstantChoice(*select)) {
    return std::make_unique<Select>(select->loc(), std::move(select->condition),
                                    castTo(std::move(select->thenValue), type),
                                    castTo(std::move(select->elseValue), type));
  }
  if (auto *c = dyn_cast<Constant>(e.get())) {
    const bool fromFloat = isFloat(c->type().scalar);
    if (type.isBool()) {
      const bool truth = fromFloat ? c->floatValue != 0 : c->intValue != 0;
      return std::make_unique<Constant>(c->loc(), type, truth, truth);
    }
    if (isFloat(type.scalar)) {
      double value = fromFloat                             ? c->floatValue
                     : isUnsignedInteger(c->type().scalar) ? double(uint64_t(c->intValue))
                                                           : double(c->intValue);
      if (type.scalar == ScalarKind::Float32)
        value = static_cast<float>(value);
      return std::make_unique<Constant>(c->loc(), type, 0, value);
    }
    if (!fromFloat) {
      // Integer to integer: wrap to the target width, as a C cast does.
      const int64_t wrapped = wrapToWidth(c->intValue, type.scalar);
      return std::make_unique<Constant>(c->loc(), type, wrapped, double(wrapped));
    }
  }
  SourceRange loc = e->loc();
  return std::make_unique<Cast>(loc, type, std::move(e));
}

} // namespace pyk::ir::lowering
