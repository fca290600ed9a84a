//===- LLVMArithmetic.cpp - Python's operators in LLVM IR ------------------===//
//
// Where Python's arithmetic differs from LLVM's instructions (floor division,
// modulo with the divisor's sign, division by zero, shifts by any count,
// integer powers), the same IR sequences serve the GPU and the CPU device.
//
//===----------------------------------------------------------------------===//
#include "LLVMArithmetic.h"

namespace pyk::llvmgen {

/// Python's // and % on integers: floor division, remainder with the
/// divisor's sign; by zero both give 0, and by -1 they avoid the overflow
/// C and LLVM leave undefined (MIN // -1 wraps to MIN, MIN % -1 is 0).
llvm::Value *emitIntegerDivision(llvm::IRBuilder<> &builder, llvm::Value *a, llvm::Value *b, bool isSigned,
                                 bool wantRemainder) {
  llvm::Type *type = a->getType();
  llvm::Value *zero = llvm::ConstantInt::get(type, 0), *one = llvm::ConstantInt::get(type, 1);
  llvm::Value *byZero = builder.CreateICmpEQ(b, zero);
  if (!isSigned) {
    llvm::Value *safe = builder.CreateSelect(byZero, one, b);
    llvm::Value *result = wantRemainder ? builder.CreateURem(a, safe) : builder.CreateUDiv(a, safe);
    return builder.CreateSelect(byZero, zero, result);
  }
  llvm::Value *byMinusOne = builder.CreateICmpEQ(b, llvm::ConstantInt::getSigned(type, -1));
  llvm::Value *safe = builder.CreateSelect(builder.CreateOr(byZero, byMinusOne), one, b);
  llvm::Value *quotient = builder.CreateSDiv(a, safe);
  llvm::Value *remainder = builder.CreateSRem(a, safe);
  // Round toward minus infinity: when the remainder is not zero and its
  // sign differs from the divisor's.
  llvm::Value *adjust = builder.CreateAnd(builder.CreateICmpNE(remainder, zero),
                                           builder.CreateICmpSLT(builder.CreateXor(remainder, b), zero));
  llvm::Value *result = wantRemainder ? builder.CreateAdd(remainder, builder.CreateSelect(adjust, b, zero))
                                      : builder.CreateSub(quotient, builder.CreateZExt(adjust, type));
  llvm::Value *byMinusOneResult = wantRemainder ? zero : builder.CreateNeg(a);
  return builder.CreateSelect(byZero, zero, builder.CreateSelect(byMinusOne, byMinusOneResult, result));
}

/// The remainder moves to the divisor's sign (a zero one too), and the
/// quotient (a - remainder) / b, nearly an integer, is snapped to one:
/// 1.0 // 0.1 is 9.0, as in Python, where floor(1.0 / 0.1) would be 10.0.
llvm::Value *emitFloatDivmod(llvm::IRBuilder<> &builder, llvm::Value *a, llvm::Value *b, llvm::Value *remainder,
                             bool wantRemainder) {
  llvm::Type *type = a->getType();
  auto constant = [&](double value) { return llvm::ConstantFP::get(type, value); };
  llvm::Value *zero = constant(0.0);
  llvm::Value *quotient = builder.CreateFDiv(a, b);
  llvm::Value *byZero = builder.CreateFCmpOEQ(b, zero);
  // `mod != 0` as C tests it: true for nan.
  llvm::Value *nonZeroRemainder = builder.CreateFCmpUNE(remainder, zero);
  llvm::Value *signsDiffer =
      builder.CreateXor(builder.CreateFCmpOLT(b, zero), builder.CreateFCmpOLT(remainder, zero));
  llvm::Value *adjust = builder.CreateAnd(nonZeroRemainder, signsDiffer);
  if (wantRemainder) {
    llvm::Value *moved = builder.CreateSelect(adjust, builder.CreateFAdd(remainder, b), remainder);
    llvm::Value *signedZero = builder.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, zero, b);
    llvm::Value *result = builder.CreateSelect(nonZeroRemainder, moved, signedZero);
    return builder.CreateSelect(byZero, remainder, result);
  }
  llvm::Value *exact = builder.CreateFDiv(builder.CreateFSub(a, remainder), b);
  llvm::Value *div = builder.CreateSelect(adjust, builder.CreateFSub(exact, constant(1.0)), exact);
  llvm::Value *floored = builder.CreateUnaryIntrinsic(llvm::Intrinsic::floor, div);
  llvm::Value *roundUp = builder.CreateFCmpOGT(builder.CreateFSub(div, floored), constant(0.5));
  llvm::Value *snapped = builder.CreateSelect(roundUp, builder.CreateFAdd(floored, constant(1.0)), floored);
  llvm::Value *signedZero = builder.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, zero, quotient);
  llvm::Value *result = builder.CreateSelect(builder.CreateFCmpUNE(div, zero), snapped, signedZero);
  return builder.CreateSelect(byZero, quotient, result);
}

/// NumPy's shifts: a count outside [0, bits) gives 0, or -1 for >> of a
/// negative value (LLVM's shifts are poison there).
llvm::Value *emitShift(llvm::IRBuilder<> &builder, bool left, llvm::Value *a, llvm::Value *count, bool isSigned) {
  llvm::Type *type = a->getType();
  llvm::Value *bits = llvm::ConstantInt::get(type, type->getIntegerBitWidth());
  llvm::Value *outOfRange = builder.CreateICmpUGE(count, bits); // negative counts are huge unsigned
  llvm::Value *safeCount = builder.CreateSelect(outOfRange, llvm::ConstantInt::get(type, 0), count);
  llvm::Value *shifted = left ? builder.CreateShl(a, safeCount)
                              : isSigned ? builder.CreateAShr(a, safeCount) : builder.CreateLShr(a, safeCount);
  llvm::Value *zero = llvm::ConstantInt::get(type, 0);
  llvm::Value *fill = left || !isSigned
                          ? zero
                          : builder.CreateSelect(builder.CreateICmpSLT(a, zero),
                                                  llvm::ConstantInt::getSigned(type, -1), zero);
  return builder.CreateSelect(outOfRange, fill, shifted);
}

/// pyk.ipow.<type>: base ** exponent by repeated squaring, wrapping; a
/// negative exponent gives the integer part of the real power.
llvm::Function *integerPowFunction(llvm::Module &module, llvm::Type *type, bool isSigned) {
  llvm::LLVMContext &context = module.getContext();
  const std::string name = std::string("pyk.ipow.") + (isSigned ? "i" : "u") +
                           std::to_string(type->getIntegerBitWidth());
  if (llvm::Function *existing = module.getFunction(name))
    return existing;
  auto *function = llvm::Function::Create(llvm::FunctionType::get(type, {type, type}, false),
                                          llvm::Function::InternalLinkage, name, module);
  function->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", function));
  llvm::Value *base = function->getArg(0), *exponent = function->getArg(1);
  llvm::Value *zero = llvm::ConstantInt::get(type, 0), *one = llvm::ConstantInt::get(type, 1);
  auto *loop = llvm::BasicBlock::Create(context, "loop", function);
  auto *done = llvm::BasicBlock::Create(context, "done", function);
  auto *negative = llvm::BasicBlock::Create(context, "negative", function);
  b.CreateCondBr(isSigned ? b.CreateICmpSLT(exponent, zero) : b.getFalse(), negative, loop);
  llvm::BasicBlock *entry = &function->getEntryBlock();

  b.SetInsertPoint(negative);
  llvm::Value *minusOne = llvm::ConstantInt::getSigned(type, -1);
  llvm::Value *odd = b.CreateICmpNE(b.CreateAnd(exponent, one), zero);
  llvm::Value *ofMinusOne = b.CreateSelect(odd, minusOne, one);
  b.CreateRet(b.CreateSelect(b.CreateICmpEQ(base, one), one,
                             b.CreateSelect(b.CreateICmpEQ(base, minusOne), ofMinusOne, zero)));

  b.SetInsertPoint(loop);
  llvm::PHINode *result = b.CreatePHI(type, 2), *power = b.CreatePHI(type, 2), *rest = b.CreatePHI(type, 2);
  result->addIncoming(one, entry);
  power->addIncoming(base, entry);
  rest->addIncoming(exponent, entry);
  llvm::Value *bit = b.CreateICmpNE(b.CreateAnd(rest, one), zero);
  llvm::Value *nextResult = b.CreateSelect(bit, b.CreateMul(result, power), result);
  llvm::Value *nextPower = b.CreateMul(power, power);
  llvm::Value *nextRest = b.CreateLShr(rest, one);
  result->addIncoming(nextResult, loop);
  power->addIncoming(nextPower, loop);
  rest->addIncoming(nextRest, loop);
  b.CreateCondBr(b.CreateICmpEQ(nextRest, zero), done, loop);

  b.SetInsertPoint(done);
  b.CreateRet(nextResult);
  return function;
}

} // namespace pyk::llvmgen
