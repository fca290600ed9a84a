//===- LLVMEmitterGpuOps.cpp - Memory model, warps and code attributes ----===//
//
// Thread registers, shared and local arrays, barriers and fences, atomics and warp
// operations on the GPU (the CPU device's rendezvous are in
// LLVMEmitterCpuDevice.cpp), and the attributes fastmath and launch
// bounds put on a function.
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
  if (target_ == LLVMTarget::NVPTX)
    llvmFunction_->addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
}

/// launch_bounds and max_registers, as NVPTX reads them: nvvm.annotations
/// (.maxntid, .minnctapersm and .maxnreg in the PTX).
void FunctionEmitter::annotateResources() {
  auto annotate = [&](const char *key, unsigned value) {
    if (!value)
      return;
    llvm::Metadata *fields[] = {llvm::ValueAsMetadata::get(llvmFunction_), llvm::MDString::get(context_, key),
                                llvm::ConstantAsMetadata::get(builder_.getInt32(value))};
    module_.getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(context_, fields));
  };
  annotate("maxntidx", function_.maxThreadsPerBlock);
  annotate("maxntidy", function_.maxThreadsPerBlock ? 1 : 0);
  annotate("maxntidz", function_.maxThreadsPerBlock ? 1 : 0);
  annotate("minctasm", function_.minBlocksPerMultiprocessor);
  annotate("maxnreg", function_.maxRegisters);
}

ArrayValue FunctionEmitter::fixedArray(const Variable *var, llvm::Value *data) {
  ArrayValue array;
  array.data = data;
  for (int64_t extent : var->fixedShape)
    array.extents.push_back(builder_.getInt64(static_cast<uint64_t>(extent)));
  return array;
}

/// Local arrays are allocas; shared ones, on the GPU, globals in shared
/// memory (on the CPU device, placeSharedArrays puts them in the block's
/// frame).
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
    } else if (var->memory == Variable::Memory::DynamicShared && target_ == LLVMTarget::NVPTX) {
      // One extern shared symbol, sized by the launch; %dynamic_smem_size
      // says how many bytes.
      auto *bytes = llvm::ArrayType::get(builder_.getInt8Ty(), 0);
      llvm::GlobalVariable *global = module_.getNamedGlobal("pyk_dynamic_shared");
      if (!global) {
        global = new llvm::GlobalVariable(module_, bytes, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                          "pyk_dynamic_shared", nullptr, llvm::GlobalValue::NotThreadLocal,
                                          AddressSpace::Shared);
        global->setAlignment(llvm::Align(16));
      }
      auto *sizeRegister = llvm::InlineAsm::get(llvm::FunctionType::get(builder_.getInt32Ty(), false),
                                                "mov.u32 $0, %dynamic_smem_size;", "=r", false);
      llvm::Value *size = builder_.CreateZExt(builder_.CreateCall(sizeRegister), builder_.getInt64Ty());
      arrays_[var] = dynamicSharedArray(var, global, size);
    } else if (var->memory == Variable::Memory::Shared && target_ == LLVMTarget::NVPTX) {
      auto *global = new llvm::GlobalVariable(module_, arrayType, false, llvm::GlobalValue::InternalLinkage,
                                              llvm::UndefValue::get(arrayType), function_.symbol + "." + var->name,
                                              nullptr, llvm::GlobalValue::NotThreadLocal, AddressSpace::Shared);
      global->setAlignment(llvm::Align(16));
      arrays_[var] = fixedArray(var, global);
    }
  }
}

/// The program's one copy of a NumPy array constant: in constant memory
/// (.const) on the GPU, a read-only global on the CPU device.
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
    const llvm::fltSemantics &semantics =
        element->isFloatTy() ? llvm::APFloat::IEEEsingle() : llvm::APFloat::IEEEdouble();
    elements.push_back(llvm::ConstantFP::get(context_, llvm::APFloat(semantics, llvm::APInt(width, bits))));
  }
  const unsigned space = target_ == LLVMTarget::NVPTX ? AddressSpace::Const : AddressSpace::Generic;
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

/// Barriers: bar.sync and its counting forms on the GPU, the runtime's
/// fiber barrier on the CPU device (told where it is, for its messages).
/// Fences: membar on the GPU; on the CPU device the block's threads share
/// one OS thread, so a block fence only stops the compiler reordering.
llvm::Value *FunctionEmitter::gpuOp(const GpuOp &g) {
  std::vector<llvm::Value *> args;
  for (const ExprPtr &arg : g.args)
    args.push_back(expr(*arg));
  at(g.loc());
  if (g.op >= GpuOpKind::SyncWarp)
    return target_ == LLVMTarget::NVPTX ? warpOpOnGpu(g, args) : warpOpOnCpu(g, args);
  if (target_ == LLVMTarget::NVPTX) {
    static constexpr llvm::Intrinsic::ID ids[] = {
        llvm::Intrinsic::nvvm_barrier0,     llvm::Intrinsic::nvvm_barrier0_popc, llvm::Intrinsic::nvvm_barrier0_and,
        llvm::Intrinsic::nvvm_barrier0_or,  llvm::Intrinsic::nvvm_membar_cta,    llvm::Intrinsic::nvvm_membar_gl,
        llvm::Intrinsic::nvvm_membar_sys};
    return builder_.CreateIntrinsic(ids[static_cast<int>(g.op)], {}, args);
  }
  switch (g.op) {
  case GpuOpKind::ThreadFenceBlock:
    return builder_.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent, llvm::SyncScope::SingleThread);
  case GpuOpKind::ThreadFence:
  case GpuOpKind::ThreadFenceSystem:
    return builder_.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
  default:
    break;
  }
  static const char *const runtimeNames[] = {"pyk_cpu_syncthreads", "pyk_cpu_syncthreads_count",
                                             "pyk_cpu_syncthreads_and", "pyk_cpu_syncthreads_or"};
  auto *ptr = llvm::PointerType::get(context_, 0);
  std::vector<llvm::Type *> types;
  for (llvm::Value *arg : args)
    types.push_back(arg->getType());
  types.push_back(ptr);
  llvm::Type *result = g.type().isVoid() ? builder_.getVoidTy() : builder_.getInt32Ty();
  llvm::FunctionCallee function =
      module_.getOrInsertFunction(runtimeNames[static_cast<int>(g.op)], llvm::FunctionType::get(result, types, false));
  args.push_back(sourcePosition(g.loc()));
  return builder_.CreateCall(function, args);
}

/// A value's bits as an integer of its width (floats bit-cast).
llvm::Value *FunctionEmitter::asBits(llvm::Value *value) {
  return builder_.CreateBitCast(value, builder_.getIntNTy(value->getType()->getPrimitiveSizeInBits()));
}

/// Warp operations on the GPU: the sync intrinsics; 64-bit shuffles move
/// the two halves.
llvm::Value *FunctionEmitter::warpOpOnGpu(const GpuOp &g, std::vector<llvm::Value *> &args) {
  using I = llvm::Intrinsic::ID;
  switch (g.op) {
  case GpuOpKind::SyncWarp:
    return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_bar_warp_sync, {}, args);
  case GpuOpKind::VoteAll:
  case GpuOpKind::VoteAny:
  case GpuOpKind::VoteEq:
  case GpuOpKind::Ballot: {
    static constexpr I ids[] = {llvm::Intrinsic::nvvm_vote_all_sync, llvm::Intrinsic::nvvm_vote_any_sync,
                                llvm::Intrinsic::nvvm_vote_uni_sync, llvm::Intrinsic::nvvm_vote_ballot_sync};
    return builder_.CreateIntrinsic(ids[static_cast<int>(g.op) - static_cast<int>(GpuOpKind::VoteAll)], {}, args);
  }
  case GpuOpKind::MatchAny: {
    llvm::Value *bits = asBits(args[1]);
    const I id = bits->getType()->isIntegerTy(64) ? llvm::Intrinsic::nvvm_match_any_sync_i64
                                                   : llvm::Intrinsic::nvvm_match_any_sync_i32;
    return builder_.CreateIntrinsic(id, {}, {args[0], bits});
  }
  case GpuOpKind::ActiveMask:
    return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_activemask, {}, {});
  case GpuOpKind::LaneMaskLt:
    return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_lanemask_lt, {}, {});
  default:
    break;
  }
  static constexpr I shuffles[] = {llvm::Intrinsic::nvvm_shfl_sync_idx_i32, llvm::Intrinsic::nvvm_shfl_sync_up_i32,
                                   llvm::Intrinsic::nvvm_shfl_sync_down_i32,
                                   llvm::Intrinsic::nvvm_shfl_sync_bfly_i32};
  const I id = shuffles[static_cast<int>(g.op) - static_cast<int>(GpuOpKind::ShflIdx)];
  // The clamp operand: the warp's last lane, except for up, which clamps
  // at lane 0.
  llvm::Value *clamp = builder_.getInt32(g.op == GpuOpKind::ShflUp ? 0 : 31);
  llvm::Value *value = args[1];
  llvm::Type *type = value->getType();
  llvm::Value *bits = asBits(value);
  auto shuffle32 = [&](llvm::Value *word) { return builder_.CreateIntrinsic(id, {}, {args[0], word, args[2], clamp}); };
  llvm::Value *result;
  if (bits->getType()->isIntegerTy(64)) {
    llvm::Value *low = shuffle32(builder_.CreateTrunc(bits, builder_.getInt32Ty()));
    llvm::Value *high = shuffle32(builder_.CreateTrunc(builder_.CreateLShr(bits, 32), builder_.getInt32Ty()));
    result = builder_.CreateOr(builder_.CreateZExt(low, builder_.getInt64Ty()),
                               builder_.CreateShl(builder_.CreateZExt(high, builder_.getInt64Ty()), 32));
  } else {
    result = shuffle32(bits);
  }
  return builder_.CreateBitCast(result, type);
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
  llvm::BasicBlock *skip = checkIndices(a.array, indices, a.boundsChecks);
  return guarded(skip, atomicAt(a, elementAddress(a.array, indices, a.narrowOffset), compare, value));
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
    op = floating ? B::FMax : isSigned ? B::Max : B::UMax;
    break;
  case AtomicOp::Min:
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

llvm::Value *FunctionEmitter::specialReg(const SpecialReg &r) {
  if (r.reg == SpecialRegKind::LaneId) {
    if (target_ == LLVMTarget::NVPTX)
      return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {});
    // Warps are 32 consecutive threads of the block in x-fastest order.
    llvm::Value *x = builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[0]);
    llvm::Value *y = builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[1]);
    llvm::Value *z = builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[2]);
    llvm::Value *rows = builder_.CreateAdd(builder_.CreateMul(z, blockValues_[1][1]), y);
    llvm::Value *linear = builder_.CreateAdd(builder_.CreateMul(rows, blockValues_[1][0]), x);
    return builder_.CreateAnd(linear, builder_.getInt32(31));
  }
  if (target_ == LLVMTarget::CpuDevice) {
    if (r.reg == SpecialRegKind::ThreadIdx)
      return builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[r.axis]);
    const int field = r.reg == SpecialRegKind::BlockIdx ? 0 : r.reg == SpecialRegKind::BlockDim ? 1 : 2;
    return blockValues_[field][r.axis];
  }
  static constexpr llvm::Intrinsic::ID ids[4][3] = {
      {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
       llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z},
      {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
       llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
      {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
       llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z},
      {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
       llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z}};
  return builder_.CreateIntrinsic(ids[static_cast<int>(r.reg)][r.axis], {}, {});
}

} // namespace pyk::llvmgen::emit
