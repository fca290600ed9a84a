//===- TypesTest.cpp - NumPy 2 (NEP 50) promotion and type spellings ------===//
#include "Types.h"

#include <gtest/gtest.h>

using namespace pyk;

namespace {

constexpr ScalarKind B = ScalarKind::Bool, I8 = ScalarKind::Int8, I16 = ScalarKind::Int16, I32 = ScalarKind::Int32,
                     I64 = ScalarKind::Int64, U8 = ScalarKind::UInt8, U16 = ScalarKind::UInt16,
                     U32 = ScalarKind::UInt32, U64 = ScalarKind::UInt64, F16 = ScalarKind::Float16,
                     F32 = ScalarKind::Float32, F64 = ScalarKind::Float64;

PromotionOperand weakInt() { return {I64, true}; }
PromotionOperand weakFloat() { return {F64, true}; }
PromotionOperand weakBool() { return {B, true}; }
PromotionOperand typed(ScalarKind k) { return PromotionOperand::typed(k); }

// numpy.result_type for typed operands, checked against NumPy 2.
TEST(PromoteTyped, SameKindTakesTheWider) {
  EXPECT_EQ(promoteTyped(I32, I64), I64);
  EXPECT_EQ(promoteTyped(U8, U32), U32);
  EXPECT_EQ(promoteTyped(F32, F64), F64);
  EXPECT_EQ(promoteTyped(F16, F32), F32);
}

TEST(PromoteTyped, SignedWithUnsigned) {
  EXPECT_EQ(promoteTyped(I8, U8), I16);
  EXPECT_EQ(promoteTyped(I16, U8), I16);
  EXPECT_EQ(promoteTyped(I32, U32), I64);
  EXPECT_EQ(promoteTyped(I64, U32), I64);
  EXPECT_EQ(promoteTyped(I64, U64), F64) << "NumPy has no integer type holding both";
}

TEST(PromoteTyped, IntegerWithFloat) {
  EXPECT_EQ(promoteTyped(I8, F16), F16);
  EXPECT_EQ(promoteTyped(I16, F16), F32);
  EXPECT_EQ(promoteTyped(I16, F32), F32);
  EXPECT_EQ(promoteTyped(U16, F32), F32);
  EXPECT_EQ(promoteTyped(I32, F32), F64) << "x[i] * idx with int32 idx gives float64 in NumPy";
  EXPECT_EQ(promoteTyped(I64, F32), F64);
  EXPECT_EQ(promoteTyped(U64, F64), F64);
}

TEST(PromoteTyped, BoolTakesTheOtherType) {
  EXPECT_EQ(promoteTyped(B, B), B);
  EXPECT_EQ(promoteTyped(B, I8), I8);
  EXPECT_EQ(promoteTyped(F32, B), F32);
}

TEST(PromoteTyped, IsSymmetric) {
  const ScalarKind all[] = {B, I8, I16, I32, I64, U8, U16, U32, U64, F16, F32, F64};
  for (ScalarKind a : all)
    for (ScalarKind b : all)
      EXPECT_EQ(promoteTyped(a, b), promoteTyped(b, a)) << scalarName(a) << " with " << scalarName(b);
}

// NEP 50: Python scalars are weak.
TEST(PromoteWeak, PythonIntTakesTheTypedKind) {
  EXPECT_EQ(promote(typed(F32), weakInt()).kind, F32);
  EXPECT_EQ(promote(typed(I8), weakInt()).kind, I8);
  EXPECT_EQ(promote(weakInt(), typed(U16)).kind, U16);
  EXPECT_EQ(promote(typed(B), weakInt()).kind, I64);
  EXPECT_FALSE(promote(typed(F32), weakInt()).weak);
}

TEST(PromoteWeak, PythonFloatKeepsFloatsAndPromotesIntegers) {
  EXPECT_EQ(promote(typed(F32), weakFloat()).kind, F32) << "x[i] * 2.0 stays float32";
  EXPECT_EQ(promote(typed(F16), weakFloat()).kind, F16);
  EXPECT_EQ(promote(typed(I32), weakFloat()).kind, F64);
  EXPECT_EQ(promote(typed(U8), weakFloat()).kind, F64);
}

TEST(PromoteWeak, PythonBoolChangesNothing) {
  EXPECT_EQ(promote(typed(I16), weakBool()).kind, I16);
  EXPECT_EQ(promote(typed(F32), weakBool()).kind, F32);
}

TEST(PromoteWeak, TwoPythonScalarsFollowPython) {
  PromotionOperand intInt = promote(weakInt(), weakInt());
  EXPECT_TRUE(intInt.weak);
  EXPECT_EQ(intInt.kind, I64);
  PromotionOperand intFloat = promote(weakInt(), weakFloat());
  EXPECT_TRUE(intFloat.weak);
  EXPECT_EQ(intFloat.kind, F64);
  EXPECT_EQ(promote(weakBool(), weakInt()).kind, I64);
}

TEST(ArithmeticResult, BoolArithmeticIsInt64) {
  EXPECT_EQ(arithmeticResult(typed(B)).kind, I64);
  EXPECT_EQ(arithmeticResult(typed(I8)).kind, I8);
  EXPECT_TRUE(arithmeticResult(weakBool()).weak);
}

TEST(ScalarNames, NumbaAndNumpySpellings) {
  EXPECT_EQ(scalarKindFromName("float32"), F32);
  EXPECT_EQ(scalarKindFromName("f4"), F32);
  EXPECT_EQ(scalarKindFromName("f8"), F64);
  EXPECT_EQ(scalarKindFromName("i4"), I32);
  EXPECT_EQ(scalarKindFromName("intp"), I64);
  EXPECT_EQ(scalarKindFromName("u8"), U64);
  EXPECT_EQ(scalarKindFromName("b1"), B);
  EXPECT_EQ(scalarKindFromName("boolean"), B);
  EXPECT_EQ(scalarKindFromName("int"), I64) << "Python's int is int64, as in Numba";
  EXPECT_EQ(scalarKindFromName("float"), F64);
  EXPECT_EQ(scalarKindFromName("float128"), std::nullopt);
  EXPECT_EQ(scalarKindFromName("x"), std::nullopt);
}

TEST(TypeContext, InternsTypes) {
  TypeContext types;
  EXPECT_EQ(types.array(F32, 1), types.array(F32, 1));
  EXPECT_NE(types.array(F32, 1), types.array(F32, 2));
  EXPECT_EQ(types.tuple({types.int64Type(), types.int64Type()}), types.tuple({types.int64Type(), types.int64Type()}));
  EXPECT_EQ(types.scalar(F32), types.scalar(F32));
}

TEST(TypeContext, SpellsTypesAsTheUserWrites) {
  TypeContext types;
  EXPECT_EQ(types.array(F32, 1)->str(), "float32[:]");
  EXPECT_EQ(types.array(I64, 3)->str(), "int64[:, :, :]");
  EXPECT_EQ(types.tuple({types.int64Type()})->str(), "(int64,)");
  EXPECT_EQ(types.tuple({types.int64Type(), types.int64Type()})->str(), "(int64, int64)");
  EXPECT_EQ(types.voidType()->str(), "void");
}

} // namespace
