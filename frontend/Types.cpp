//===- Types.cpp - The types of pyk values and NumPy 2 promotion ----------===//
#include "Types.h"

#include <array>
#include <cassert>

namespace pyk {

std::string Type::str() const {
  switch (kind_) {
  case Kind::Error:
    return "<error>";
  case Kind::Void:
    return "void";
  case Kind::Scalar:
    return std::string(scalarName(scalar_));
  case Kind::Array: {
    if (!contiguous_) // Numba's spelling of a view with steps
      return "array(" + std::string(scalarName(scalar_)) + ", " + std::to_string(rank_) + "d, A)";
    std::string s(scalarName(scalar_));
    s += "[:";
    for (unsigned i = 1; i < rank_; ++i)
      s += ", :";
    return s + "]";
  }
  case Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < elements_.size(); ++i)
      s += (i ? ", " : "") + elements_[i]->str();
    return s + (elements_.size() == 1 ? ",)" : ")");
  }
  case Kind::RecordArray:
    return record_->name + "[:]";
  case Kind::Record:
    return "a record of " + record_->name;
  case Kind::GridGroup:
    return "GridGroup";
  }
  return "?";
}

TypeContext::TypeContext() {
  auto make = [&](Type::Kind kind, ScalarKind scalar) {
    owned_.push_back(std::unique_ptr<Type>(new Type(kind, scalar, 0, {})));
    return owned_.back().get();
  };
  error_ = make(Type::Kind::Error, ScalarKind::Bool);
  void_ = make(Type::Kind::Void, ScalarKind::Bool);
  gridGroup_ = make(Type::Kind::GridGroup, ScalarKind::Bool);
  for (unsigned k = 0; k <= static_cast<unsigned>(lastScalarKind); ++k)
    scalars_.push_back(make(Type::Kind::Scalar, static_cast<ScalarKind>(k)));
}

const Type *TypeContext::array(ScalarKind element, unsigned rank, bool contiguous) {
  assert(rank >= 1 && rank <= 4 && "pyk arrays have rank 1 to 4");
  auto &slot = arrays_[{element, rank, contiguous}];
  if (!slot) {
    owned_.push_back(std::unique_ptr<Type>(new Type(Type::Kind::Array, element, rank, {}, contiguous)));
    slot = owned_.back().get();
  }
  return slot;
}

const Type *TypeContext::tuple(const std::vector<const Type *> &elements) {
  auto &slot = tuples_[elements];
  if (!slot) {
    owned_.push_back(std::unique_ptr<Type>(new Type(Type::Kind::Tuple, ScalarKind::Bool, 0, elements)));
    slot = owned_.back().get();
  }
  return slot;
}

const Type *TypeContext::recordArray(const RecordType &record) { return recordType(record, /*array=*/true); }

const Type *TypeContext::record(const RecordType &record) { return recordType(record, /*array=*/false); }

const Type *TypeContext::recordType(const RecordType &record, bool array) {
  auto &slot = records_[{&record, array}];
  if (!slot) {
    owned_.push_back(std::unique_ptr<Type>(new Type(array ? Type::Kind::RecordArray : Type::Kind::Record,
                                                    ScalarKind::Bool, array ? 1 : 0, {}, true, &record)));
    slot = owned_.back().get();
  }
  return slot;
}

//===----------------------------------------------------------------------===//
// Promotion
//===----------------------------------------------------------------------===//

WeakKind PromotionOperand::weakKind() const {
  if (kind == ScalarKind::Bool)
    return WeakKind::Bool;
  if (isComplex(kind))
    return WeakKind::Complex;
  return isFloat(kind) ? WeakKind::Float : WeakKind::Int;
}

static ScalarKind signedOfWidth(unsigned bytes) {
  switch (bytes) {
  case 1:
    return ScalarKind::Int8;
  case 2:
    return ScalarKind::Int16;
  case 4:
    return ScalarKind::Int32;
  default:
    return ScalarKind::Int64;
  }
}

static ScalarKind floatOfWidth(unsigned bytes) {
  switch (bytes) {
  case 2:
    return ScalarKind::Float16;
  case 4:
    return ScalarKind::Float32;
  default:
    return ScalarKind::Float64;
  }
}

/// The smallest float that holds every value of integer `kind` exactly as
/// NumPy decides it: (u)int8 -> float16, (u)int16 -> float32, wider ->
/// float64.
static unsigned floatWidthForInteger(ScalarKind kind) {
  switch (byteWidth(kind)) {
  case 1:
    return 2;
  case 2:
    return 4;
  default:
    return 8;
  }
}

ScalarKind promoteTyped(ScalarKind a, ScalarKind b) {
  if (a == b)
    return a;
  if (a == ScalarKind::Bool)
    return b;
  if (b == ScalarKind::Bool)
    return a;
  // A complex type's parts promote as reals do: complex64 with int32 is
  // complex128, with float16 complex64.
  if (isComplex(a) || isComplex(b)) {
    auto part = [](ScalarKind k) { return isComplex(k) ? complexPart(k) : k; };
    return complexHolding(promoteTyped(part(a), part(b)));
  }
  if (isFloat(a) || isFloat(b)) {
    unsigned width = 0;
    for (ScalarKind k : {a, b})
      width = std::max(width, isFloat(k) ? byteWidth(k) : floatWidthForInteger(k));
    // Two bytes: bfloat16 with an 8-bit integer stays bfloat16 (as
    // ml_dtypes has it); with float16, neither holds the other: float32.
    const bool bfloat = a == ScalarKind::BFloat16 || b == ScalarKind::BFloat16;
    if (width == 2 && bfloat)
      return a == ScalarKind::Float16 || b == ScalarKind::Float16 ? ScalarKind::Float32 : ScalarKind::BFloat16;
    return floatOfWidth(width);
  }
  if (isSignedInteger(a) == isSignedInteger(b))
    return byteWidth(a) >= byteWidth(b) ? a : b;
  ScalarKind signedKind = isSignedInteger(a) ? a : b;
  ScalarKind unsignedKind = isSignedInteger(a) ? b : a;
  if (byteWidth(signedKind) > byteWidth(unsignedKind))
    return signedKind;
  if (byteWidth(unsignedKind) == 8)
    return ScalarKind::Float64; // NumPy: no integer type holds both.
  return signedOfWidth(byteWidth(unsignedKind) * 2);
}

PromotionOperand promote(PromotionOperand a, PromotionOperand b) {
  if (a.weak && b.weak) {
    // Python's own rules between Python scalars: bool < int < float < complex.
    return {static_cast<uint8_t>(a.weakKind()) >= static_cast<uint8_t>(b.weakKind()) ? a.kind : b.kind, true};
  }
  if (!a.weak && !b.weak)
    return PromotionOperand::typed(promoteTyped(a.kind, b.kind));
  PromotionOperand typed = a.weak ? b : a;
  PromotionOperand weak = a.weak ? a : b;
  switch (weak.weakKind()) {
  case WeakKind::Bool:
    return typed;
  case WeakKind::Int:
    // A Python int takes the typed operand's kind, unless that is bool.
    return PromotionOperand::typed(typed.kind == ScalarKind::Bool ? ScalarKind::Int64 : typed.kind);
  case WeakKind::Float:
    // A Python float keeps a float or complex type and turns integers
    // into float64.
    return PromotionOperand::typed(isFloat(typed.kind) || isComplex(typed.kind) ? typed.kind : ScalarKind::Float64);
  case WeakKind::Complex:
    // A Python complex: the complex type that holds the typed operand
    // (float32 gives complex64, an integer complex128).
    return PromotionOperand::typed(isInteger(typed.kind) ? ScalarKind::Complex128 : complexHolding(typed.kind));
  }
  return typed;
}

PromotionOperand arithmeticResult(PromotionOperand promoted) {
  if (promoted.kind == ScalarKind::Bool)
    return {ScalarKind::Int64, promoted.weak};
  return promoted;
}

bool Type::isNestedTuple() const {
  for (const Type *element : elements_)
    if (element->isTuple())
      return true;
  return false;
}

std::vector<const Type *> tupleLeaves(const Type &type) {
  if (!type.isTuple())
    return {&type};
  std::vector<const Type *> leaves;
  for (const Type *element : type.elements()) {
    std::vector<const Type *> inner = tupleLeaves(*element);
    leaves.insert(leaves.end(), inner.begin(), inner.end());
  }
  return leaves;
}

size_t tupleLeafOffset(const Type &tuple, size_t position) {
  size_t offset = 0;
  for (size_t i = 0; i < position; ++i)
    offset += tupleLeaves(*tuple.elements()[i]).size();
  return offset;
}

} // namespace pyk
