//===- LLVMEmitterBFloat16.cpp - bfloat16's conversions, on its bits ------===//
//
// After lowerFloat16 a bfloat16 is only loaded, stored, moved and converted
// from and to float32 and from float64, so pykc keeps it as its 16 bits
// (an i16) and converts it here, with integer operations every target has:
// no bf16 instructions (sm_80 and later) and no library calls (the host's
// compiler runtime may lack them).
//
//===----------------------------------------------------------------------===//
#include "FunctionEmitter.h"

#include "llvm/Support/ErrorHandling.h"

namespace pyk::llvmgen::emit {

llvm::Value *FunctionEmitter::convertBFloat16(llvm::Value *value, ScalarKind from, ScalarKind to) {
  llvm::IRBuilder<> &b = builder_;
  if (from == ScalarKind::BFloat16) {
    // Exact: the bits are float32's top half.
    if (to != ScalarKind::Float32)
      llvm::report_fatal_error("lowerFloat16 leaves only bfloat16 -> float32");
    return b.CreateBitCast(b.CreateShl(b.CreateZExt(value, b.getInt32Ty()), 16), b.getFloatTy());
  }
  llvm::Value *single = value;
  llvm::Value *bits = nullptr;
  if (from == ScalarKind::Float64) {
    // Rounded to float32 first, which may land exactly on a bfloat16
    // midpoint that the float64 was not on: then the float32 is moved one
    // unit toward the float64, so that the rounding below goes its way.
    single = b.CreateFPTrunc(value, b.getFloatTy());
    llvm::Value *back = b.CreateFPExt(single, b.getDoubleTy());
    bits = b.CreateBitCast(single, b.getInt32Ty());
    llvm::Value *onMidpoint = b.CreateICmpEQ(b.CreateAnd(bits, 0xffff), b.getInt32(0x8000));
    llvm::Value *inexact = b.CreateFCmpONE(back, value);
    llvm::Value *larger = b.CreateFCmpOGT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, value),
                                          b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, back));
    llvm::Value *nudge = b.CreateSelect(larger, b.getInt32(1), b.getInt32(-1));
    bits = b.CreateSelect(b.CreateAnd(onMidpoint, inexact), b.CreateAdd(bits, nudge), bits);
  } else {
    if (from != ScalarKind::Float32)
      llvm::report_fatal_error("lowerFloat16 leaves only float32 and float64 -> bfloat16");
    bits = b.CreateBitCast(single, b.getInt32Ty());
  }
  // To nearest, ties to even, on the bits; a NaN stays a quiet NaN.
  llvm::Value *even = b.CreateAnd(b.CreateLShr(bits, 16), 1);
  llvm::Value *rounded = b.CreateLShr(b.CreateAdd(bits, b.CreateAdd(even, b.getInt32(0x7fff))), 16);
  llvm::Value *quietNaN = b.CreateOr(b.CreateLShr(bits, 16), 0x40);
  llvm::Value *isNaN = b.CreateFCmpUNO(single, single);
  return b.CreateTrunc(b.CreateSelect(isNaN, quietNaN, rounded), b.getInt16Ty());
}

} // namespace pyk::llvmgen::emit
