//===- LLVMArithmetic.h - Python's operators in LLVM IR --------------------===//
#ifndef PYK_CODEGEN_LLVM_LLVMARITHMETIC_H
#define PYK_CODEGEN_LLVM_LLVMARITHMETIC_H

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace pyk::llvmgen {

/// a // b (or a % b with `wantRemainder`) on integers, as Python: floor,
/// divisor's sign; by zero gives 0; MIN // -1 wraps and MIN % -1 is 0.
llvm::Value *emitIntegerDivision(llvm::IRBuilder<> &builder, llvm::Value *a, llvm::Value *b, bool isSigned,
                                 bool wantRemainder);

/// a % b on floats, from C's fmod(a, b) already computed as `remainder`.
/// Python's a // b (or a % b with `wantRemainder`) on floats, as NumPy's
/// npy_divmod computes them from `remainder` = fmod(a, b); by zero, a / b
/// (inf or nan) and fmod's nan.
llvm::Value *emitFloatDivmod(llvm::IRBuilder<> &builder, llvm::Value *a, llvm::Value *b, llvm::Value *remainder,
                             bool wantRemainder);

/// a << count or a >> count, as NumPy: counts outside [0, bits) give 0 (or
/// -1 for >> of a negative signed value) instead of LLVM's poison.
llvm::Value *emitShift(llvm::IRBuilder<> &builder, bool left, llvm::Value *a, llvm::Value *count, bool isSigned);

/// The module's internal function pyk.ipow.<type>(base, exponent): integer
/// power by repeated squaring, wrapping; a negative exponent gives the
/// integer part of the real power. Created on first use.
llvm::Function *integerPowFunction(llvm::Module &module, llvm::Type *type, bool isSigned);

} // namespace pyk::llvmgen

#endif // PYK_CODEGEN_LLVM_LLVMARITHMETIC_H
