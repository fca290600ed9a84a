//===- CpuDeviceFunctionEmitter.cpp - Kernels as the CPU device runs them --===//
#include "CpuDeviceFunctionEmitter.h"

#include "SymbolNames.h"

#include "pyk/CpuBlockContext.h"

namespace pyk::llvmgen::emit {

/// A CPU-device thread's stack (a fiber's, or an OS thread's) has a guard
/// below it, but a frame larger than the guard (a big local array) could
/// step over it into other memory. Probing touches each page of a new frame
/// in order, so that such an overflow faults at the guard.
void CpuDeviceFunctionEmitter::finishModule(llvm::Module &module) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.addFnAttr("probe-stack", "inline-asm");
}

void CpuDeviceFunctionEmitter::declareKernel() {
  if (function_.synchronises)
    declareCpuFiberKernel();
  else
    declareCpuEntry();
}

void CpuDeviceFunctionEmitter::emitKernelBody() {
  unpackCpuArguments();
  placeDynamicShared();
  if (function_.synchronises) {
    emitFiberThread();
    emitFiberBlockEntry();
    return;
  }
  placeSharedArrays(sharedFrame(builder_));
  emitThreadLoops();
}

void CpuDeviceFunctionEmitter::returnFromKernel() {
  if (function_.synchronises)
    builder_.CreateRetVoid(); // ends the thread's fiber
  else
    builder_.CreateBr(threadDone_); // this thread is done; on to the next
}

/// A device function takes the block's context and the thread's index.
void CpuDeviceFunctionEmitter::addContextParameterTypes(std::vector<llvm::Type *> &types) {
  types.push_back(llvm::PointerType::get(context_, 0));
  types.insert(types.end(), 3, llvm::Type::getInt32Ty(context_));
}

void CpuDeviceFunctionEmitter::nameContextParameters(unsigned first) {
  llvmFunction_->getArg(first)->setName("block");
  for (unsigned axis = 0; axis < 3; ++axis)
    llvmFunction_->getArg(first + 1 + axis)->setName(std::string("thread.") + "xyz"[axis]);
}

void CpuDeviceFunctionEmitter::addContextArguments(std::vector<llvm::Value *> &args) {
  args.push_back(blockContext_);
  for (unsigned axis = 0; axis < 3; ++axis)
    args.push_back(builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[axis]));
}

void CpuDeviceFunctionEmitter::enterDeviceFunction() {
  takeThreadContext();
  placeDynamicShared();
}

/// The C library's printf.
void CpuDeviceFunctionEmitter::printValues(llvm::Value *format, std::vector<llvm::Value *> values) {
  auto *ptr = llvm::PointerType::get(context_, 0);
  llvm::FunctionCallee printf =
      module_.getOrInsertFunction("printf", llvm::FunctionType::get(builder_.getInt32Ty(), {ptr}, true));
  values.insert(values.begin(), format);
  builder_.CreateCall(printf, values);
}

/// The C library's NAME.
llvm::Value *CpuDeviceFunctionEmitter::mathCall(const std::string &name, std::initializer_list<llvm::Value *> args) {
  return callMathFunction(name, args, /*pure=*/false);
}

/// A kernel's shared arrays are placed by its body, in the block's frame
/// (placeSharedArrays). A device function's is one per block, shared by
/// every call of the function in it (CUDA's static __shared__): an OS
/// thread runs one block at a time, every thread of it on that OS thread,
/// so a thread_local global is the running block's.
void CpuDeviceFunctionEmitter::allocateSharedArray(const Variable *var, llvm::ArrayType *type) {
  if (function_.kind == Function::Kind::Kernel)
    return;
  auto *global = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                          llvm::Constant::getNullValue(type), function_.symbol + "." + var->name,
                                          nullptr, llvm::GlobalValue::GeneralDynamicTLSModel);
  global->setAlignment(llvm::Align(16));
  arrays_[var] = fixedArray(var, global);
}

/// The dynamic shared array is the block context's memory
/// (placeDynamicShared, once the block's context is known).
void CpuDeviceFunctionEmitter::allocateDynamicShared(const Variable *) {}

/// Fences: the block's threads share one OS thread, so a block fence only
/// stops the compiler reordering. Barriers: the runtime's fiber barrier
/// (told where it is, for its messages).
llvm::Value *CpuDeviceFunctionEmitter::barrierOrFence(const GpuOp &g, std::vector<llvm::Value *> &args) {
  switch (g.op) {
  case GpuOpKind::ThreadFenceBlock:
    return builder_.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent, llvm::SyncScope::SingleThread);
  case GpuOpKind::ThreadFence:
  case GpuOpKind::ThreadFenceSystem:
    return builder_.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
  case GpuOpKind::GridSync: {
    // The runtime keeps the grid's blocks itself: no barrier words.
    llvm::FunctionCallee gridSync = module_.getOrInsertFunction(
        "pyk_cpu_grid_sync", llvm::FunctionType::get(builder_.getVoidTy(), {llvm::PointerType::get(context_, 0)}, false));
    return builder_.CreateCall(gridSync, {sourcePosition(g.loc())});
  }
  case GpuOpKind::Nanosleep: {
    llvm::FunctionCallee sleep = module_.getOrInsertFunction(
        "pyk_cpu_nanosleep", llvm::FunctionType::get(builder_.getVoidTy(), {builder_.getInt32Ty()}, false));
    return builder_.CreateCall(sleep, args);
  }
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

/// The thread's index from the thread loop (or its fiber's arguments), the
/// block's values from the runtime's block context; the lane from the
/// linear index, as warps are 32 consecutive threads of the block in
/// x-fastest order.
llvm::Value *CpuDeviceFunctionEmitter::specialReg(const SpecialReg &r) {
  if (r.reg == SpecialRegKind::LaneId) {
    llvm::Value *x = builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[0]);
    llvm::Value *y = builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[1]);
    llvm::Value *z = builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[2]);
    llvm::Value *rows = builder_.CreateAdd(builder_.CreateMul(z, blockValues_[1][1]), y);
    llvm::Value *linear = builder_.CreateAdd(builder_.CreateMul(rows, blockValues_[1][0]), x);
    return builder_.CreateAnd(linear, builder_.getInt32(31));
  }
  if (r.reg == SpecialRegKind::ThreadIdx)
    return builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[r.axis]);
  const int field = r.reg == SpecialRegKind::BlockIdx ? 0 : r.reg == SpecialRegKind::BlockDim ? 1 : 2;
  return blockValues_[field][r.axis];
}

/// CPU device, device function: the block's values and the thread's
/// index come from the caller.
void CpuDeviceFunctionEmitter::takeThreadContext() {
  const unsigned first = llvmFunction_->arg_size() - 4;
  loadBlockValues(llvmFunction_->getArg(first));
  for (unsigned axis = 0; axis < 3; ++axis) {
    threadIndex_[axis] = builder_.CreateAlloca(builder_.getInt32Ty(), nullptr, std::string("thread.") + "xyz"[axis]);
    builder_.CreateStore(llvmFunction_->getArg(first + 1 + axis), threadIndex_[axis]);
  }
}

/// A field of the runtime's CpuBlockContext (pyk/CpuBlockContext.h), at
/// its offset in the runtime's own layout.
llvm::Value *CpuDeviceFunctionEmitter::blockContextField(size_t offset) {
  return builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), blockContext_, offset);
}

void CpuDeviceFunctionEmitter::loadBlockValues(llvm::Value *context) {
  using pyk::detail::CpuBlockContext;
  blockContext_ = context;
  static const char *fields[] = {"blockIdx", "blockDim", "gridDim"};
  static const size_t offsets[] = {offsetof(CpuBlockContext, blockIdx), offsetof(CpuBlockContext, blockDim),
                                    offsetof(CpuBlockContext, gridDim)};
  for (unsigned field = 0; field < 3; ++field)
    for (unsigned axis = 0; axis < 3; ++axis)
      blockValues_[field][axis] =
          builder_.CreateLoad(builder_.getInt32Ty(), blockContextField(offsets[field] + axis * sizeof(uint32_t)),
                              std::string(fields[field]) + "." + "xyz"[axis]);
}

// --- Array locals -----------------------------------------------------------
/// The bytes of the block's shared arrays, each at a 16-byte aligned offset.
uint64_t CpuDeviceFunctionEmitter::sharedLayout(std::map<const Variable *, uint64_t> *offsets) const {
  uint64_t size = 0;
  for (const Variable *var : function_.variables()) {
    if (var->memory != Variable::Memory::Shared)
      continue;
    size = (size + 15) / 16 * 16;
    if (offsets)
      (*offsets)[var] = size;
    size += static_cast<uint64_t>(var->fixedBytes());
  }
  return size;
}

/// CPU device: a dynamic shared array is the block context's shared
/// memory (CpuBlockContext::sharedMemory and sharedBytes).
void CpuDeviceFunctionEmitter::placeDynamicShared() {
  for (const Variable *var : function_.variables()) {
    if (var->memory != Variable::Memory::DynamicShared)
      continue;
    using pyk::detail::CpuBlockContext;
    llvm::Value *data = builder_.CreateLoad(llvm::PointerType::get(context_, 0),
                                            blockContextField(offsetof(CpuBlockContext, sharedMemory)),
                                            "shared.dynamic");
    llvm::Value *bytes =
        builder_.CreateLoad(builder_.getInt64Ty(), blockContextField(offsetof(CpuBlockContext, sharedBytes)));
    arrays_[var] = dynamicSharedArray(var, data, bytes);
  }
}

/// CPU device: the block's shared arrays, in one frame on the stack of
/// the worker running the block (null when there are none).
llvm::Value *CpuDeviceFunctionEmitter::sharedFrame(llvm::IRBuilder<> &builder) {
  const uint64_t size = sharedLayout(nullptr);
  if (size == 0)
    return llvm::ConstantPointerNull::get(llvm::PointerType::get(context_, 0));
  llvm::AllocaInst *frame = builder.CreateAlloca(llvm::ArrayType::get(builder.getInt8Ty(), size), nullptr, "shared");
  frame->setAlignment(llvm::Align(16));
  return frame;
}

void CpuDeviceFunctionEmitter::placeSharedArrays(llvm::Value *frame) {
  std::map<const Variable *, uint64_t> offsets;
  sharedLayout(&offsets);
  for (const auto &[var, offset] : offsets)
    arrays_[var] = fixedArray(var, builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), frame, offset,
                                                                        var->name));
}

// --- The CPU device's fiber kernels ----------------------------------------
/// A kernel that waits at barriers runs each thread on a fiber: the body
/// is `thread(args, block, frame, x, y, z)` and the entry the runtime
/// calls hands it to pyk_cpu_run_block with the block's shared frame.
void CpuDeviceFunctionEmitter::declareCpuFiberKernel() {
  auto *ptr = llvm::PointerType::get(context_, 0);
  auto *i32 = llvm::Type::getInt32Ty(context_);
  auto *voidType = llvm::Type::getVoidTy(context_);
  llvmFunction_ = llvm::Function::Create(llvm::FunctionType::get(voidType, {ptr, ptr, ptr, i32, i32, i32}, false),
                                         llvm::Function::InternalLinkage,
                                         "pyk_cpu_thread." + function_.symbol, module_);
  llvmFunction_->addFnAttr(llvm::Attribute::NoUnwind);
  static const char *names[] = {"args", "block", "frame", "thread.x", "thread.y", "thread.z"};
  for (unsigned i = 0; i < 6; ++i)
    llvmFunction_->getArg(i)->setName(names[i]);
  blockEntry_ = llvm::Function::Create(llvm::FunctionType::get(voidType, {ptr, ptr}, false),
                                       llvm::Function::ExternalLinkage,
                                       cpuEntrySymbol(source_.unitId, function_.symbol), module_);
  // Only the file's own launch code calls it: a shared library does not
  // export it (nor let another library's same-named kernel interpose).
  blockEntry_->setVisibility(llvm::GlobalValue::HiddenVisibility);
  blockEntry_->addFnAttr(llvm::Attribute::NoUnwind);
  blockEntry_->getArg(0)->setName("args");
  blockEntry_->getArg(1)->setName("block");
}

/// The thread function's body (its arguments unpacked already).
void CpuDeviceFunctionEmitter::emitFiberThread() {
  for (unsigned axis = 0; axis < 3; ++axis) {
    threadIndex_[axis] = builder_.CreateAlloca(builder_.getInt32Ty(), nullptr, std::string("thread.") + "xyz"[axis]);
    builder_.CreateStore(llvmFunction_->getArg(3 + axis), threadIndex_[axis]);
  }
  placeSharedArrays(llvmFunction_->getArg(2));
  initAssignedParams();
  block(function_.body);
  if (!builder_.GetInsertBlock()->getTerminator())
    builder_.CreateRetVoid();
}

void CpuDeviceFunctionEmitter::emitFiberBlockEntry() {
  llvm::IRBuilder<> entry(llvm::BasicBlock::Create(context_, "entry", blockEntry_));
  llvm::Value *frame = sharedFrame(entry);
  auto *ptr = llvm::PointerType::get(context_, 0);
  llvm::FunctionCallee runBlock = module_.getOrInsertFunction(
      "pyk_cpu_run_block", llvm::FunctionType::get(entry.getVoidTy(), {ptr, ptr, ptr, ptr}, false));
  entry.CreateCall(runBlock, {llvmFunction_, blockEntry_->getArg(0), blockEntry_->getArg(1), frame});
  entry.CreateRetVoid();
}

/// void pyk_cpu_NAME(ptr args, ptr context): the runtime's CpuKernelEntry.
void CpuDeviceFunctionEmitter::declareCpuEntry() {
  auto *ptr = llvm::PointerType::get(context_, 0);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context_), {ptr, ptr}, false);
  llvmFunction_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                         cpuEntrySymbol(source_.unitId, function_.symbol), module_);
  llvmFunction_->setVisibility(llvm::GlobalValue::HiddenVisibility); // as in declareCpuFiberKernel
  llvmFunction_->addFnAttr(llvm::Attribute::NoUnwind);
  llvmFunction_->getArg(0)->setName("args");
  llvmFunction_->getArg(1)->setName("block");
  for (unsigned i = 0; i < 2; ++i) {
    llvmFunction_->addParamAttr(i, llvm::Attribute::NoAlias);
    llvmFunction_->addParamAttr(i, llvm::Attribute::ReadOnly);
  }
}

/// Loads each parameter from the args array (args[i] points to the i-th
/// value; an array is its data pointer then one int64 per extent) and the
/// block's indices and extents from the context.
void CpuDeviceFunctionEmitter::unpackCpuArguments() {
  auto *ptr = llvm::PointerType::get(context_, 0);
  llvm::Value *args = llvmFunction_->getArg(0);
  unsigned slot = 0;
  auto nextValue = [&](llvm::Type *type, const std::string &name) -> llvm::Value * {
    llvm::Value *address = builder_.CreateLoad(ptr, builder_.CreateConstInBoundsGEP1_64(ptr, args, slot++));
    return builder_.CreateLoad(type, address, name);
  };
  for (const Variable *param : function_.params) {
    if (!param->type.isArray()) {
      llvm::Value *value = nextValue(memoryType(param->type.scalar, context_), param->name);
      scalars_[param] = fromMemory(value, param->type.scalar);
      continue;
    }
    ArrayValue array;
    array.data = nextValue(ptr, param->name);
    for (unsigned axis = 0; axis < param->type.rank; ++axis)
      array.extents.push_back(nextValue(builder_.getInt64Ty(), param->name + ".shape" + std::to_string(axis)));
    arrays_[param] = array;
  }
  if (function_.checked) {
    checkRecord_ = nextValue(ptr, "pyk_check_record");
    checkLaunch_ = nextValue(builder_.getInt64Ty(), "pyk_check_launch");
  }
  loadBlockValues(llvmFunction_->getArg(1));
}

/// for z, for y, for x over the block's threads: the kernel body. A
/// `return` ends one thread: it continues with the next.
void CpuDeviceFunctionEmitter::emitThreadLoops() {
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(context_, "block.done", llvmFunction_);
  llvm::BasicBlock *after = exit;
  std::array<llvm::BasicBlock *, 3> latches{};
  for (int axis = 2; axis >= 0; --axis) {
    const std::string name = std::string("thread.") + "xyz"[axis];
    threadIndex_[axis] = builder_.CreateAlloca(builder_.getInt32Ty(), nullptr, name);
    builder_.CreateStore(builder_.getInt32(0), threadIndex_[axis]);
    auto *condition = llvm::BasicBlock::Create(context_, name + ".cond", llvmFunction_);
    auto *body = llvm::BasicBlock::Create(context_, name + ".body", llvmFunction_);
    latches[axis] = llvm::BasicBlock::Create(context_, name + ".next", llvmFunction_);
    builder_.CreateBr(condition);
    builder_.SetInsertPoint(condition);
    llvm::Value *index = builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[axis]);
    builder_.CreateCondBr(builder_.CreateICmpULT(index, blockValues_[1][axis]), body, after);
    builder_.SetInsertPoint(latches[axis]);
    builder_.CreateStore(builder_.CreateNUWAdd(builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[axis]),
                                               builder_.getInt32(1)),
                         threadIndex_[axis]);
    builder_.CreateBr(condition);
    builder_.SetInsertPoint(body);
    after = latches[axis];
  }
  threadDone_ = latches[0];
  initAssignedParams(); // each thread starts from the launch's values
  block(function_.body);
  if (!builder_.GetInsertBlock()->getTerminator())
    builder_.CreateBr(threadDone_);
  builder_.SetInsertPoint(exit);
  builder_.CreateRetVoid();
}

/// Warp operations: the runtime's rendezvous of the warp's fibers. The
/// source lane of a shuffle is computed here, as CUDA defines it (outside
/// the warp: the caller's own value).
llvm::Value *CpuDeviceFunctionEmitter::warpOp(const GpuOp &g, std::vector<llvm::Value *> &args) {
  auto *i32 = builder_.getInt32Ty(), *i64 = builder_.getInt64Ty();
  auto runtime = [&](const char *name, llvm::Type *result, std::vector<llvm::Value *> values) {
    std::vector<llvm::Type *> types;
    for (llvm::Value *value : values)
      types.push_back(value->getType());
    return builder_.CreateCall(module_.getOrInsertFunction(name, llvm::FunctionType::get(result, types, false)),
                               values);
  };
  llvm::Value *where = sourcePosition(g.loc());
  llvm::Value *lane = specialReg(SpecialReg(g.loc(), SpecialRegKind::LaneId, 0));
  switch (g.op) {
  case GpuOpKind::SyncWarp:
    return runtime("pyk_cpu_syncwarp", builder_.getVoidTy(), {args[0], where});
  case GpuOpKind::ActiveMask:
    return runtime("pyk_cpu_warp_activemask", i32, {});
  case GpuOpKind::LaneMaskLt:
    return builder_.CreateSub(builder_.CreateShl(builder_.getInt32(1), lane), builder_.getInt32(1));
  case GpuOpKind::MatchAny:
    return runtime("pyk_cpu_warp_match_any", i32, {args[0], builder_.CreateZExt(asBits(args[1]), i64), where});
  case GpuOpKind::MatchAll:
    return runtime("pyk_cpu_warp_match_all", i32, {args[0], builder_.CreateZExt(asBits(args[1]), i64), where});
  case GpuOpKind::VoteAll:
  case GpuOpKind::VoteAny:
  case GpuOpKind::VoteEq:
  case GpuOpKind::Ballot: {
    // all: no lane fails; eq: none passes or none fails. Counting the
    // failures, not comparing with the mask, keeps them right when lanes
    // of the mask have returned.
    auto ballot = [&](llvm::Value *predicate) {
      return runtime("pyk_cpu_warp_ballot", i32, {args[0], builder_.CreateZExt(predicate, i32), where});
    };
    llvm::Value *zero = builder_.getInt32(0);
    if (g.op == GpuOpKind::Ballot)
      return ballot(args[1]);
    if (g.op == GpuOpKind::VoteAny)
      return builder_.CreateICmpNE(ballot(args[1]), zero);
    llvm::Value *noneFails = builder_.CreateICmpEQ(ballot(builder_.CreateNot(args[1])), zero);
    if (g.op == GpuOpKind::VoteAll)
      return noneFails;
    return builder_.CreateOr(builder_.CreateICmpEQ(ballot(args[1]), zero), noneFails);
  }
  default:
    break;
  }
  llvm::Value *operand = args[2];
  llvm::Value *source = nullptr;
  switch (g.op) {
  case GpuOpKind::ShflIdx:
    source = builder_.CreateAnd(operand, builder_.getInt32(31));
    break;
  case GpuOpKind::ShflUp:
    source = builder_.CreateSub(lane, operand);
    break;
  case GpuOpKind::ShflDown:
    source = builder_.CreateAdd(lane, operand);
    break;
  default:
    source = builder_.CreateXor(lane, operand);
    break;
  }
  llvm::Value *outside = builder_.CreateICmpUGT(source, builder_.getInt32(31)); // also negative ones
  source = builder_.CreateSelect(outside, lane, source);
  llvm::Value *value = args[1];
  llvm::Value *bits = asBits(value);
  llvm::Value *result = runtime("pyk_cpu_warp_shuffle", i64, {args[0], builder_.CreateZExt(bits, i64), source, where});
  return builder_.CreateBitCast(builder_.CreateTrunc(result, bits->getType()), value->getType());
}

} // namespace pyk::llvmgen::emit
