//===- LLVMEmitterGpuOps.cpp - Array locals, atomics, fastmath ------------===//
//
// Local and constant arrays, the GPU operations every target writes alike
// (atomics; barriers, fences and warp operations dispatch to the target),
// and fastmath's instruction flags.
//
//===----------------------------------------------------------------------===//
#include "FunctionEmitter.h"


#include "IRWalk.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace pyk::llvmgen::emit {

/// fastmath=True: the instruction flags of LLVM's `fast` but nnan and ninf
/// (so isnan and isinf keep working), and on the GPU float32 denormals
/// flushed to zero. Approximate division and square root are explicit
/// (div/sqrt.approx): NVPTX's own choice follows "unsafe-fp-math", which
/// inlining any libdevice function resets.
void FunctionEmitter::enableFastMath() {
  llvm::FastMathFlags flags;
  flags.setAllowContract();
  flags.setAllowReassoc();
  flags.setAllowReciprocal();
  flags.setApproxFunc();
  flags.setNoSignedZeros();
  builder_.setFastMathFlags(flags);
  addFastMathAttributes();
}

ArrayValue FunctionEmitter::fixedArray(const Variable *var, llvm::Value *data) {
  ArrayValue array;
  array.data = data;
  for (int64_t extent : var->fixedShape)
    array.extents.push_back(builder_.getInt64(static_cast<uint64_t>(extent)));
  return array;
}

/// Local arrays are allocas and constant arrays globals; shared ones are
/// the target's.
void FunctionEmitter::allocateArrayLocals() {
  for (const Variable *var : function_.variables()) {
    auto *arrayType = llvm::ArrayType::get(memoryType(var->type.scalar, context_),
                                           static_cast<uint64_t>(var->fixedBytes() / byteWidth(var->type.scalar)));
    if (var->memory == Variable::Memory::Constant) {
      arrays_[var] = fixedArray(var, constantArray(*var));
    } else if (var->memory == Variable::Memory::Local) {
      llvm::AllocaInst *storage = builder_.CreateAlloca(arrayType, nullptr, var->name);
      storage->setAlignment(llvm::Align(16));
      arrays_[var] = fixedArray(var, storage);
    } else if (var->memory == Variable::Memory::DynamicShared) {
      allocateDynamicShared(var);
    } else if (var->memory == Variable::Memory::Shared) {
      allocateSharedArray(var, arrayType);
    }
  }
}

/// The program's one copy of a NumPy array constant, a read-only global in
/// the target's constant memory (.const on the GPU).
llvm::GlobalVariable *FunctionEmitter::constantArray(const Variable &var) {
  const std::string name = "pyk_const_" + var.constantName;
  if (llvm::GlobalVariable *existing = module_.getNamedGlobal(name))
    return existing;
  llvm::Type *element = memoryType(var.type.scalar, context_);
  auto *arrayType = llvm::ArrayType::get(element, var.constantBits.size());
  std::vector<llvm::Constant *> elements;
  const unsigned width = static_cast<unsigned>(element->getPrimitiveSizeInBits());
  for (uint64_t bits : var.constantBits) {
    if (element->isIntegerTy()) {
      elements.push_back(llvm::ConstantInt::get(llvm::IntegerType::get(context_, width), bits));
      continue;
    }
    const llvm::fltSemantics &semantics = element->isHalfTy()    ? llvm::APFloat::IEEEhalf()
                                          : element->isFloatTy() ? llvm::APFloat::IEEEsingle()
                                                                 : llvm::APFloat::IEEEdouble();
    elements.push_back(llvm::ConstantFP::get(context_, llvm::APFloat(semantics, llvm::APInt(width, bits))));
  }
  const unsigned space = constantAddressSpace();
  auto *global = new llvm::GlobalVariable(module_, arrayType, true, llvm::GlobalValue::InternalLinkage,
                                          llvm::ConstantArray::get(arrayType, elements), name, nullptr,
                                          llvm::GlobalValue::NotThreadLocal, space);
  global->setAlignment(llvm::Align(16));
  return global;
}

ArrayValue FunctionEmitter::dynamicSharedArray(const Variable *var, llvm::Value *data, llvm::Value *bytes) {
  ArrayValue array;
  array.data = data;
  array.extents.push_back(builder_.CreateUDiv(bytes, builder_.getInt64(byteWidth(var->type.scalar)), var->name + ".shape0"));
  return array;
}

llvm::Value *FunctionEmitter::gpuOp(const GpuOp &g) {
  std::vector<llvm::Value *> args;
  for (const ExprPtr &arg : g.args)
    args.push_back(expr(*arg));
  at(g.loc());
  return g.op >= GpuOpKind::SyncWarp ? warpOp(g, args) : barrierOrFence(g, args);
}

/// A value's bits as an integer of its width (floats bit-cast).
llvm::Value *FunctionEmitter::asBits(llvm::Value *value) {
  return builder_.CreateBitCast(value, builder_.getIntNTy(value->getType()->getPrimitiveSizeInBits()));
}

/// "file.pyk:line:col" as a constant string, for the runtime's messages:
/// the file's base name, as checked mode's messages give it (KernelModule's
/// sourceName), whatever path pykc was given.
llvm::Value *FunctionEmitter::sourcePosition(SourceRange loc) {
  return stringConstant(llvm::sys::path::filename(sourceName_).str() + ":" + std::to_string(loc.begin.line) + ":" +
                        std::to_string(loc.begin.column));
}

/// cuda.atomic.*: atomicrmw (cmpxchg for cas) on the element, relaxed, as
/// CUDA's atomics are. Floats compare-and-swap through their bits.
llvm::Value *FunctionEmitter::atomic(const Atomic &a) {
  std::vector<llvm::Value *> indices = indexValues(a.indices);
  llvm::Value *compare = a.compare ? expr(*a.compare) : nullptr;
  llvm::Value *value = expr(*a.value);
  at(a.loc());
  return atomicAt(a, elementAddress(a.array, indices, a.narrowOffset), compare, value);
}

/// Numba's atomic max (min) of a float: replaces the element while it is
/// less (greater) than `value`, by compare-and-swap on its bits; a NaN on
/// either side compares false and leaves it. The old value.
llvm::Value *FunctionEmitter::orderedMinMax(llvm::Value *address, llvm::Value *value, bool max) {
  llvm::Type *type = value->getType();
  llvm::Type *bits = builder_.getIntNTy(type->getPrimitiveSizeInBits());
  const llvm::Align align(type->getPrimitiveSizeInBits() / 8);
  const auto ordering = llvm::AtomicOrdering::Monotonic;
  llvm::BasicBlock *entry = builder_.GetInsertBlock();
  auto *test = llvm::BasicBlock::Create(context_, "atomic.test", llvmFunction_);
  auto *swap = llvm::BasicBlock::Create(context_, "atomic.swap", llvmFunction_);
  auto *done = llvm::BasicBlock::Create(context_, "atomic.done", llvmFunction_);
  llvm::LoadInst *first = builder_.CreateAlignedLoad(type, address, align);
  first->setAtomic(ordering);
  builder_.CreateBr(test);
  builder_.SetInsertPoint(test);
  llvm::PHINode *old = builder_.CreatePHI(type, 2, "old");
  old->addIncoming(first, entry);
  builder_.CreateCondBr(max ? builder_.CreateFCmpOLT(old, value) : builder_.CreateFCmpOGT(old, value), swap, done);
  builder_.SetInsertPoint(swap);
  llvm::Value *pair = builder_.CreateAtomicCmpXchg(address, builder_.CreateBitCast(old, bits),
                                                   builder_.CreateBitCast(value, bits), align, ordering, ordering);
  llvm::Value *seen = builder_.CreateBitCast(builder_.CreateExtractValue(pair, 0), type);
  old->addIncoming(seen, swap);
  builder_.CreateCondBr(builder_.CreateExtractValue(pair, 1), done, test);
  builder_.SetInsertPoint(done);
  llvm::PHINode *result = builder_.CreatePHI(type, 2, "atomic.old");
  result->addIncoming(old, test);
  result->addIncoming(old, swap);
  return result;
}

llvm::Value *FunctionEmitter::atomicAt(const Atomic &a, llvm::Value *address, llvm::Value *compare,
                                       llvm::Value *value) {
  const ScalarKind kind = a.array->type.scalar;
  const llvm::Align align(byteWidth(kind));
  const auto ordering = llvm::AtomicOrdering::Monotonic;
  if (a.op == AtomicOp::Cas) {
    llvm::Type *bits = builder_.getIntNTy(byteWidth(kind) * 8);
    llvm::Value *pair = builder_.CreateAtomicCmpXchg(address, builder_.CreateBitCast(compare, bits),
                                                     builder_.CreateBitCast(value, bits), align, ordering, ordering);
    return builder_.CreateBitCast(builder_.CreateExtractValue(pair, 0), value->getType());
  }
  using B = llvm::AtomicRMWInst::BinOp;
  const bool floating = isFloat(kind), isSigned = isSignedInteger(kind);
  B op = B::Xchg;
  switch (a.op) {
  case AtomicOp::Add:
    op = floating ? B::FAdd : B::Add;
    break;
  case AtomicOp::Sub:
    op = floating ? B::FSub : B::Sub;
    break;
  case AtomicOp::And:
    op = B::And;
    break;
  case AtomicOp::Or:
    op = B::Or;
    break;
  case AtomicOp::Xor:
    op = B::Xor;
    break;
  case AtomicOp::Max:
    if (floating)
      return orderedMinMax(address, value, /*max=*/true);
    op = isSigned ? B::Max : B::UMax;
    break;
  case AtomicOp::Min:
    if (floating)
      return orderedMinMax(address, value, /*max=*/false);
    op = isSigned ? B::Min : B::UMin;
    break;
  case AtomicOp::NanMax:
    op = floating ? B::FMax : isSigned ? B::Max : B::UMax;
    break;
  case AtomicOp::NanMin:
    op = floating ? B::FMin : isSigned ? B::Min : B::UMin;
    break;
  case AtomicOp::Exch:
    op = B::Xchg;
    break;
  case AtomicOp::Inc:
    op = B::UIncWrap;
    break;
  case AtomicOp::Dec:
    op = B::UDecWrap;
    break;
  case AtomicOp::Cas:
    break;
  }
  return builder_.CreateAtomicRMW(op, address, value, align, ordering);
}

} // namespace pyk::llvmgen::emit
