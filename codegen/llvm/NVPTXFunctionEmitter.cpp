//===- NVPTXFunctionEmitter.cpp - The GPU's side of the LLVM emitter -------===//
#include "NVPTXFunctionEmitter.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#include <algorithm>

namespace pyk::llvmgen::emit {

void NVPTXFunctionEmitter::prepareModule(llvm::Module &module) {
  module.setTargetTriple("nvptx64-nvidia-cuda");
}

void NVPTXFunctionEmitter::declareKernel() {
  std::vector<llvm::Type *> paramTypes = parameterTypes(AddressSpace::Global);
  addCheckParameterTypes(paramTypes);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context_), paramTypes, false);
  llvmFunction_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, function_.symbol, module_);
  llvmFunction_->setCallingConv(llvm::CallingConv::PTX_Kernel);
  llvmFunction_->addFnAttr(llvm::Attribute::NoUnwind);
  annotateResources();

  // noalias on the arrays it never writes: pyk arrays passed to one launch
  // do not overlap (LANGUAGE.md); with readonly it lets NVPTX load through
  // the non-coherent cache (bindParameters says why not on written ones).
  bindCheckParameters(bindParameters(/*noAlias=*/true));
}

/// launch_bounds and max_registers, as NVPTX reads them: nvvm.annotations
/// (.maxntid, .minnctapersm and .maxnreg in the PTX).
void NVPTXFunctionEmitter::annotateResources() {
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

/// One call per GPU thread: the body as written.
void NVPTXFunctionEmitter::emitKernelBody() {
  initAssignedParams();
  block(function_.body);
  if (!builder_.GetInsertBlock()->getTerminator())
    builder_.CreateRetVoid();
}

void NVPTXFunctionEmitter::returnFromKernel() {
  builder_.CreateRetVoid(); // ends the thread
}

/// vprintf(format, buffer), the values laid out in the buffer as C's
/// varargs would be (CUDA's device printf).
void NVPTXFunctionEmitter::printValues(llvm::Value *format, std::vector<llvm::Value *> values) {
  auto *ptr = llvm::PointerType::get(context_, 0);
  llvm::Value *buffer = llvm::ConstantPointerNull::get(ptr);
  if (!values.empty()) {
    std::vector<llvm::Type *> fields;
    for (llvm::Value *value : values)
      fields.push_back(value->getType());
    auto *layout = llvm::StructType::get(context_, fields);
    llvm::IRBuilder<> entry(&llvmFunction_->getEntryBlock(), llvmFunction_->getEntryBlock().begin());
    buffer = entry.CreateAlloca(layout, nullptr, "printf.args");
    for (unsigned i = 0; i < values.size(); ++i)
      builder_.CreateStore(values[i], builder_.CreateStructGEP(layout, buffer, i));
  }
  llvm::FunctionCallee vprintf =
      module_.getOrInsertFunction("vprintf", llvm::FunctionType::get(builder_.getInt32Ty(), {ptr, ptr}, false));
  builder_.CreateCall(vprintf, {format, buffer});
}

/// The load is invariant, so NVPTX reads it through the non-coherent cache
/// (ld.global.nc) even where it cannot trace the address back to the
/// parameter (the eighth load of a loop unrolled eight times lost it).
void NVPTXFunctionEmitter::markReadOnlyLoad(llvm::LoadInst *load) {
  load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(context_, {}));
}

llvm::Value *NVPTXFunctionEmitter::fastDivide(llvm::Value *lhs, llvm::Value *rhs) {
  return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_div_approx_ftz_f, {}, {lhs, rhs});
}

/// libdevice's __nv_NAME (linked in after emission). With fastmath,
/// float32 functions that libdevice has a fast version of use it
/// (__nv_fast_expf, ...), and sqrtf is sqrt.approx.
llvm::Value *NVPTXFunctionEmitter::mathCall(const std::string &name, std::initializer_list<llvm::Value *> args) {
  std::string symbol = "__nv_" + name;
  if (function_.fastMath) {
    if (name == "sqrtf")
      return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_sqrt_approx_ftz_f, {}, std::vector<llvm::Value *>(args));
    static const char *const withFastVersion[] = {"expf", "exp10f", "logf", "log2f", "log10f",
                                                  "sinf", "cosf",   "tanf", "powf"};
    if (std::find(std::begin(withFastVersion), std::end(withFastVersion), name) != std::end(withFastVersion))
      symbol = "__nv_fast_" + name;
  }
  return callMathFunction(symbol, args, /*pure=*/true);
}

/// fastmath on the GPU also flushes float32 denormals to zero.
void NVPTXFunctionEmitter::addFastMathAttributes() {
  llvmFunction_->addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
}

/// A global in shared memory, one per block.
void NVPTXFunctionEmitter::allocateSharedArray(const Variable *var, llvm::ArrayType *type) {
  auto *global = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                          llvm::UndefValue::get(type), function_.symbol + "." + var->name, nullptr,
                                          llvm::GlobalValue::NotThreadLocal, AddressSpace::Shared);
  global->setAlignment(llvm::Align(16));
  arrays_[var] = fixedArray(var, global);
}

/// One extern shared symbol, sized by the launch; %dynamic_smem_size says
/// how many bytes.
void NVPTXFunctionEmitter::allocateDynamicShared(const Variable *var) {
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
}

/// bar.sync and its counting forms; membar at each scope; a call of the
/// grid barrier.
llvm::Value *NVPTXFunctionEmitter::barrierOrFence(const GpuOp &g, std::vector<llvm::Value *> &args) {
  if (g.op == GpuOpKind::GridSync)
    return builder_.CreateCall(gridSyncFunction(), args);
  if (g.op == GpuOpKind::Nanosleep)
    return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_nanosleep, {}, args);
  static constexpr llvm::Intrinsic::ID ids[] = {
      llvm::Intrinsic::nvvm_barrier0,    llvm::Intrinsic::nvvm_barrier0_popc, llvm::Intrinsic::nvvm_barrier0_and,
      llvm::Intrinsic::nvvm_barrier0_or, llvm::Intrinsic::nvvm_membar_cta,    llvm::Intrinsic::nvvm_membar_gl,
      llvm::Intrinsic::nvvm_membar_sys};
  return builder_.CreateIntrinsic(ids[static_cast<int>(g.op)], {}, args);
}

/// `void pyk_grid_sync(i64 barrier)`, made once per module: the steps of
/// prelude.cuh's pyk_grid_sync (which says why they are right), so that
/// both GPU paths wait at the grid barrier alike.
llvm::Function *NVPTXFunctionEmitter::gridSyncFunction() {
  if (llvm::Function *existing = module_.getFunction("pyk_grid_sync"))
    return existing;
  auto *type = llvm::FunctionType::get(builder_.getVoidTy(), {builder_.getInt64Ty()}, false);
  auto *function = llvm::Function::Create(type, llvm::Function::InternalLinkage, "pyk_grid_sync", module_);
  function->addFnAttr(llvm::Attribute::NoInline);
  function->addFnAttr(llvm::Attribute::NoUnwind);
  auto *entry = llvm::BasicBlock::Create(context_, "entry", function);
  auto *leader = llvm::BasicBlock::Create(context_, "leader", function);
  auto *release = llvm::BasicBlock::Create(context_, "release", function);
  auto *wait = llvm::BasicBlock::Create(context_, "wait", function);
  auto *passed = llvm::BasicBlock::Create(context_, "passed", function);
  auto *done = llvm::BasicBlock::Create(context_, "done", function);
  llvm::IRBuilder<> b(entry);
  auto read = [&](llvm::Intrinsic::ID id) { return b.CreateIntrinsic(id, {}, {}); };
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
  llvm::Value *thread = b.CreateOr(b.CreateOr(read(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x),
                                              read(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y)),
                                   read(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z));
  b.CreateCondBr(b.CreateICmpEQ(thread, b.getInt32(0)), leader, done);

  b.SetInsertPoint(leader);
  llvm::Value *arrived = b.CreateIntToPtr(function->getArg(0), llvm::PointerType::get(context_, 0), "arrived");
  llvm::Value *generation = b.CreateConstGEP1_32(b.getInt32Ty(), arrived, 1, "generation");
  llvm::Value *blocks = b.CreateMul(b.CreateMul(read(llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x),
                                                read(llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y)),
                                    read(llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z), "blocks");
  llvm::LoadInst *seen = b.CreateLoad(b.getInt32Ty(), generation, /*isVolatile=*/true, "seen");
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});
  llvm::Value *before = b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, arrived, b.getInt32(1), llvm::MaybeAlign(4),
                                          llvm::AtomicOrdering::Monotonic);
  b.CreateCondBr(b.CreateICmpEQ(before, b.CreateSub(blocks, b.getInt32(1))), release, wait);

  b.SetInsertPoint(release);
  b.CreateAtomicRMW(llvm::AtomicRMWInst::Xchg, arrived, b.getInt32(0), llvm::MaybeAlign(4),
                    llvm::AtomicOrdering::Monotonic);
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});
  b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, generation, b.getInt32(1), llvm::MaybeAlign(4),
                    llvm::AtomicOrdering::Monotonic);
  b.CreateBr(passed);

  b.SetInsertPoint(wait);
  llvm::LoadInst *now = b.CreateLoad(b.getInt32Ty(), generation, /*isVolatile=*/true, "now");
  b.CreateCondBr(b.CreateICmpEQ(now, seen), wait, passed);

  b.SetInsertPoint(passed);
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});
  b.CreateBr(done);

  b.SetInsertPoint(done);
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
  b.CreateRetVoid();
  return function;
}

/// Warp operations on the GPU: the sync intrinsics; 64-bit shuffles move
/// the two halves.
llvm::Value *NVPTXFunctionEmitter::warpOp(const GpuOp &g, std::vector<llvm::Value *> &args) {
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
  case GpuOpKind::MatchAll: {
    // {mask or 0, whether all matched}: the predicate is the mask != 0.
    llvm::Value *bits = asBits(args[1]);
    const I id = bits->getType()->isIntegerTy(64) ? llvm::Intrinsic::nvvm_match_all_sync_i64p
                                                   : llvm::Intrinsic::nvvm_match_all_sync_i32p;
    return builder_.CreateExtractValue(builder_.CreateIntrinsic(id, {}, {args[0], bits}), 0);
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

llvm::Value *NVPTXFunctionEmitter::specialReg(const SpecialReg &r) {
  if (r.reg == SpecialRegKind::LaneId)
    return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {});
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
