//===- LLVMEmitter.cpp - IR to LLVM IR for the NVPTX target ----------------===//
//
// Algorithm:
//  1. Declare every function, so that calls find their callees: for each
//     array parameter a global pointer and its extents, for each scalar its
//     value. Kernels use the PTX kernel calling convention (on the CPU
//     device, the runtime's entry signature); device functions are
//     internal, and on the CPU device also take the block's context and the
//     thread's index, which kernels pass down.
//  2. Per function, in the entry block, give every local an alloca (SROA/mem2reg promote
//     them to registers at -O1 and above).
//  3. Emit statements in order. `if` becomes then/else/merge blocks;
//     `return` ends its block and code after it goes to a fresh block that
//     has no predecessor (removed by the optimiser). Short-circuit `and`/
//     `or` and conditional expressions branch, so the side not taken is
//     never evaluated (it may load out of bounds).
//
//===----------------------------------------------------------------------===//
#include "LLVMEmitter.h"

#include "LLVMArithmetic.h"

#include "IRWalk.h"

#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <array>
#include <map>

namespace pyk::llvmgen {
namespace {

using llvm::cast;
using llvm::isa;
using namespace ir;

/// The LLVM type a scalar has in registers (bool is i1).
llvm::Type *registerType(ScalarKind kind, llvm::LLVMContext &context) {
  switch (kind) {
  case ScalarKind::Bool:
    return llvm::Type::getInt1Ty(context);
  case ScalarKind::Int8:
  case ScalarKind::UInt8:
    return llvm::Type::getInt8Ty(context);
  case ScalarKind::Int16:
  case ScalarKind::UInt16:
    return llvm::Type::getInt16Ty(context);
  case ScalarKind::Int32:
  case ScalarKind::UInt32:
    return llvm::Type::getInt32Ty(context);
  case ScalarKind::Int64:
  case ScalarKind::UInt64:
    return llvm::Type::getInt64Ty(context);
  case ScalarKind::Float16:
    return llvm::Type::getHalfTy(context);
  case ScalarKind::Float32:
    return llvm::Type::getFloatTy(context);
  case ScalarKind::Float64:
    return llvm::Type::getDoubleTy(context);
  }
  return nullptr;
}

/// The LLVM type a scalar has in memory (bool is one byte, as in NumPy).
llvm::Type *memoryType(ScalarKind kind, llvm::LLVMContext &context) {
  return kind == ScalarKind::Bool ? llvm::Type::getInt8Ty(context) : registerType(kind, context);
}

/// An array parameter: its global pointer and one extent per axis.
struct ArrayValue {
  llvm::Value *data = nullptr;
  std::vector<llvm::Value *> extents;
};

/// The LLVM function of each IR function of the module.
using FunctionMap = std::map<const Function *, llvm::Function *>;

class FunctionEmitter {
public:
  FunctionEmitter(const Function &function, const std::string &sourceName, llvm::Module &module, LLVMTarget target,
                  llvm::DIBuilder *debug, llvm::DIFile *file, const FunctionMap &functions)
      : function_(function), sourceName_(sourceName), module_(module), context_(module.getContext()),
        builder_(context_), target_(target), debug_(debug), file_(file), functions_(functions) {}

  llvm::Function *declare() {
    if (function_.kind == Function::Kind::Device)
      declareDeviceFunction();
    else if (target_ == LLVMTarget::NVPTX)
      declareKernel();
    else if (function_.synchronises)
      declareCpuFiberKernel();
    else
      declareCpuEntry();
    return llvmFunction_;
  }

  void emitBody() {
    attachDebugInfo();
    if (function_.fastMath)
      enableFastMath();
    llvm::BasicBlock *entry = llvm::BasicBlock::Create(context_, "entry", llvmFunction_);
    builder_.SetInsertPoint(entry);
    for (const Variable *var : function_.variables()) {
      if (var->kind != Variable::Kind::Local || var->memory != Variable::Memory::Global)
        continue;
      locals_[var] = builder_.CreateAlloca(memoryType(var->type.scalar, context_), nullptr, var->name);
    }
    allocateArrayLocals();
    // A parameter the body assigns lives in memory, like a local.
    forEachStmt(function_.body, [&](const Stmt &s) {
      auto *assign = llvm::dyn_cast<Assign>(&s);
      if (assign && assign->var->kind == Variable::Kind::Param && !locals_.count(assign->var))
        locals_[assign->var] = builder_.CreateAlloca(memoryType(assign->var->type.scalar, context_), nullptr,
                                                     assign->var->name + ".var");
    });
    if (function_.kind == Function::Kind::Device) {
      if (target_ == LLVMTarget::Host)
        takeThreadContext();
      initAssignedParams();
      block(function_.body);
      if (!builder_.GetInsertBlock()->getTerminator())
        returnFromFunction(nullptr);
      return;
    }
    if (target_ == LLVMTarget::NVPTX) {
      initAssignedParams();
      block(function_.body);
      if (!builder_.GetInsertBlock()->getTerminator())
        builder_.CreateRetVoid();
      return;
    }
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

private:
  // --- Declaration ----------------------------------------------------------
  void declareKernel() {
    std::vector<llvm::Type *> paramTypes;
    for (const Variable *param : function_.params) {
      if (param->type.isArray()) {
        paramTypes.push_back(llvm::PointerType::get(context_, AddressSpace::Global));
        paramTypes.insert(paramTypes.end(), param->type.rank, llvm::Type::getInt64Ty(context_));
      } else {
        paramTypes.push_back(registerType(param->type.scalar, context_));
      }
    }
    auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context_), paramTypes, false);
    llvmFunction_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, function_.symbol, module_);
    llvmFunction_->setCallingConv(llvm::CallingConv::PTX_Kernel);
    llvmFunction_->addFnAttr(llvm::Attribute::NoUnwind);
    annotateResources();

    unsigned index = 0;
    for (const Variable *param : function_.params) {
      llvm::Argument *arg = llvmFunction_->getArg(index++);
      arg->setName(param->name);
      if (!param->type.isArray()) {
        scalars_[param] = arg;
        continue;
      }
      // noalias: pyk arrays passed to one launch do not overlap (LANGUAGE.md);
      // with readonly it lets NVPTX load through the non-coherent cache.
      arg->addAttr(llvm::Attribute::NoAlias);
      if (param->readOnly)
        arg->addAttr(llvm::Attribute::ReadOnly);
      arg->addAttr(llvm::Attribute::getWithAlignment(context_, llvm::Align(byteWidth(param->type.scalar))));
      ArrayValue array;
      array.data = arg;
      for (unsigned axis = 0; axis < param->type.rank; ++axis) {
        llvm::Argument *extent = llvmFunction_->getArg(index++);
        extent->setName(param->name + ".shape" + std::to_string(axis));
        array.extents.push_back(extent);
      }
      arrays_[param] = array;
    }
  }

  /// An internal function: arrays as generic pointers (global, shared or
  /// local memory: after inlining, NVPTX infers which) and not noalias (a
  /// device function may be passed the same array twice), and their
  /// extents; on the CPU device then the block's context and the thread's
  /// index.
  void declareDeviceFunction() {
    const unsigned space = 0;
    std::vector<llvm::Type *> paramTypes;
    for (const Variable *param : function_.params) {
      if (param->type.isArray()) {
        paramTypes.push_back(llvm::PointerType::get(context_, space));
        paramTypes.insert(paramTypes.end(), param->type.rank, llvm::Type::getInt64Ty(context_));
      } else {
        paramTypes.push_back(registerType(param->type.scalar, context_));
      }
    }
    if (target_ == LLVMTarget::Host) {
      paramTypes.push_back(llvm::PointerType::get(context_, 0));
      paramTypes.insert(paramTypes.end(), 3, llvm::Type::getInt32Ty(context_));
    }
    llvm::Type *returnType = function_.returnType.isVoid() ? llvm::Type::getVoidTy(context_)
                                                           : registerType(function_.returnType.scalar, context_);
    auto *type = llvm::FunctionType::get(returnType, paramTypes, false);
    llvmFunction_ = llvm::Function::Create(type, llvm::Function::InternalLinkage, function_.symbol, module_);
    llvmFunction_->addFnAttr(llvm::Attribute::NoUnwind);
    if (function_.inlineAlways)
      llvmFunction_->addFnAttr(llvm::Attribute::AlwaysInline);
    unsigned index = 0;
    for (const Variable *param : function_.params) {
      llvm::Argument *arg = llvmFunction_->getArg(index++);
      arg->setName(param->name);
      if (!param->type.isArray()) {
        scalars_[param] = arg;
        continue;
      }
      if (param->readOnly)
        arg->addAttr(llvm::Attribute::ReadOnly);
      arg->addAttr(llvm::Attribute::getWithAlignment(context_, llvm::Align(byteWidth(param->type.scalar))));
      ArrayValue array;
      array.data = arg;
      for (unsigned axis = 0; axis < param->type.rank; ++axis) {
        llvm::Argument *extent = llvmFunction_->getArg(index++);
        extent->setName(param->name + ".shape" + std::to_string(axis));
        array.extents.push_back(extent);
      }
      arrays_[param] = array;
    }
    if (target_ == LLVMTarget::Host) {
      llvmFunction_->getArg(index)->setName("block");
      for (unsigned axis = 0; axis < 3; ++axis)
        llvmFunction_->getArg(index + 1 + axis)->setName(std::string("thread.") + "xyz"[axis]);
    }
  }

  /// fastmath=True: the instruction flags of LLVM's `fast` but nnan and ninf
  /// (so isnan and isinf keep working), and on the GPU float32 denormals
  /// flushed to zero. Approximate division and square root are explicit
  /// (div/sqrt.approx): NVPTX's own choice follows "unsafe-fp-math", which
  /// inlining any libdevice function resets.
  void enableFastMath() {
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

  /// Stores the values of the parameters the body assigns into their
  /// memory.
  void initAssignedParams() {
    for (const Variable *param : function_.params)
      if (auto it = locals_.find(param); it != locals_.end())
        builder_.CreateStore(toMemory(scalars_.at(param), param->type.scalar), it->second);
  }

  /// CPU device, device function: the block's values and the thread's
  /// index come from the caller.
  void takeThreadContext() {
    const unsigned first = llvmFunction_->arg_size() - 4;
    loadBlockValues(llvmFunction_->getArg(first));
    for (unsigned axis = 0; axis < 3; ++axis) {
      threadIndex_[axis] = builder_.CreateAlloca(builder_.getInt32Ty(), nullptr, std::string("thread.") + "xyz"[axis]);
      builder_.CreateStore(llvmFunction_->getArg(first + 1 + axis), threadIndex_[axis]);
    }
  }

  /// struct CpuBlockContext { u32 blockIdx[3], blockDim[3], gridDim[3]; void *sharedMemory; }
  void loadBlockValues(llvm::Value *context) {
    blockContext_ = context;
    static const char *fields[] = {"blockIdx", "blockDim", "gridDim"};
    for (unsigned field = 0; field < 3; ++field)
      for (unsigned axis = 0; axis < 3; ++axis)
        blockValues_[field][axis] = builder_.CreateLoad(
            builder_.getInt32Ty(), builder_.CreateConstInBoundsGEP1_64(builder_.getInt32Ty(), context, field * 3 + axis),
            std::string(fields[field]) + "." + "xyz"[axis]);
  }

  /// launch_bounds and max_registers, as NVPTX reads them: nvvm.annotations
  /// (.maxntid, .minnctapersm and .maxnreg in the PTX).
  void annotateResources() {
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

  // --- Array locals -----------------------------------------------------------
  /// The bytes of the block's shared arrays, each at a 16-byte aligned offset.
  uint64_t sharedLayout(std::map<const Variable *, uint64_t> *offsets) const {
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

  ArrayValue fixedArray(const Variable *var, llvm::Value *data) {
    ArrayValue array;
    array.data = data;
    for (int64_t extent : var->fixedShape)
      array.extents.push_back(builder_.getInt64(static_cast<uint64_t>(extent)));
    return array;
  }

  /// Local arrays are allocas; shared ones, on the GPU, globals in shared
  /// memory (on the CPU device, placeSharedArrays puts them in the block's
  /// frame).
  void allocateArrayLocals() {
    for (const Variable *var : function_.variables()) {
      auto *arrayType = llvm::ArrayType::get(memoryType(var->type.scalar, context_),
                                             static_cast<uint64_t>(var->fixedBytes() / byteWidth(var->type.scalar)));
      if (var->memory == Variable::Memory::Local) {
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

  ArrayValue dynamicSharedArray(const Variable *var, llvm::Value *data, llvm::Value *bytes) {
    ArrayValue array;
    array.data = data;
    array.extents.push_back(builder_.CreateUDiv(bytes, builder_.getInt64(byteWidth(var->type.scalar)), var->name + ".shape0"));
    return array;
  }

  /// CPU device: a dynamic shared array is the block context's shared
  /// memory (CpuBlockContext::sharedMemory and sharedBytes).
  void placeDynamicShared() {
    for (const Variable *var : function_.variables()) {
      if (var->memory != Variable::Memory::DynamicShared)
        continue;
      auto *ptr = llvm::PointerType::get(context_, 0);
      auto *layout = llvm::StructType::get(context_, {llvm::ArrayType::get(builder_.getInt32Ty(), 9), ptr,
                                                      builder_.getInt64Ty()});
      llvm::Value *data = builder_.CreateLoad(ptr, builder_.CreateStructGEP(layout, blockContext_, 1), "shared.dynamic");
      llvm::Value *bytes = builder_.CreateLoad(builder_.getInt64Ty(), builder_.CreateStructGEP(layout, blockContext_, 2));
      arrays_[var] = dynamicSharedArray(var, data, bytes);
    }
  }

  /// CPU device: the block's shared arrays, in one frame on the stack of
  /// the worker running the block (null when there are none).
  llvm::Value *sharedFrame(llvm::IRBuilder<> &builder) {
    const uint64_t size = sharedLayout(nullptr);
    if (size == 0)
      return llvm::ConstantPointerNull::get(llvm::PointerType::get(context_, 0));
    llvm::AllocaInst *frame = builder.CreateAlloca(llvm::ArrayType::get(builder.getInt8Ty(), size), nullptr, "shared");
    frame->setAlignment(llvm::Align(16));
    return frame;
  }

  void placeSharedArrays(llvm::Value *frame) {
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
  void declareCpuFiberKernel() {
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
                                         llvm::Function::ExternalLinkage, cpuEntrySymbol(function_.symbol), module_);
    blockEntry_->addFnAttr(llvm::Attribute::NoUnwind);
    blockEntry_->getArg(0)->setName("args");
    blockEntry_->getArg(1)->setName("block");
  }

  /// The thread function's body (its arguments unpacked already).
  void emitFiberThread() {
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

  void emitFiberBlockEntry() {
    llvm::IRBuilder<> entry(llvm::BasicBlock::Create(context_, "entry", blockEntry_));
    llvm::Value *frame = sharedFrame(entry);
    auto *ptr = llvm::PointerType::get(context_, 0);
    llvm::FunctionCallee runBlock = module_.getOrInsertFunction(
        "pyk_cpu_run_block", llvm::FunctionType::get(entry.getVoidTy(), {ptr, ptr, ptr, ptr}, false));
    entry.CreateCall(runBlock, {llvmFunction_, blockEntry_->getArg(0), blockEntry_->getArg(1), frame});
    entry.CreateRetVoid();
  }

  /// void pyk_cpu_NAME(ptr args, ptr context): the runtime's CpuKernelEntry.
  void declareCpuEntry() {
    auto *ptr = llvm::PointerType::get(context_, 0);
    auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context_), {ptr, ptr}, false);
    llvmFunction_ =
        llvm::Function::Create(type, llvm::Function::ExternalLinkage, cpuEntrySymbol(function_.symbol), module_);
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
  void unpackCpuArguments() {
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
    loadBlockValues(llvmFunction_->getArg(1));
  }

  /// for z, for y, for x over the block's threads: the kernel body. A
  /// `return` ends one thread: it continues with the next.
  void emitThreadLoops() {
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

  void attachDebugInfo() {
    if (debug_) {
      llvm::DISubprogram *subprogram = debug_->createFunction(
          file_, function_.name, function_.name, file_, function_.loc.begin.line,
          debug_->createSubroutineType(debug_->getOrCreateTypeArray({})), function_.loc.begin.line,
          llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition);
      llvmFunction_->setSubprogram(subprogram);
      scope_ = subprogram;
    }
  }

  void at(SourceRange loc) {
    if (scope_ && loc.isValid())
      builder_.SetCurrentDebugLocation(llvm::DILocation::get(context_, loc.begin.line, loc.begin.column, scope_));
  }

  // --- Statements -----------------------------------------------------------
  void block(const StmtList &body) {
    for (const StmtPtr &s : body)
      stmt(*s);
  }

  void stmt(const Stmt &s) {
    at(s.loc());
    switch (s.kind()) {
    case NodeKind::Declare: {
      auto &d = cast<Declare>(s);
      if (d.init)
        storeLocal(d.var, expr(*d.init));
      return;
    }
    case NodeKind::Assign: {
      auto &a = cast<Assign>(s);
      storeLocal(a.var, expr(*a.value));
      return;
    }
    case NodeKind::ArrayStore: {
      auto &st = cast<ArrayStore>(s);
      llvm::Value *value = expr(*st.value);
      llvm::Value *address = elementAddress(st.array, st.indices);
      at(s.loc());
      builder_.CreateAlignedStore(toMemory(value, st.array->type.scalar), address,
                                  llvm::Align(byteWidth(st.array->type.scalar)));
      return;
    }
    case NodeKind::If:
      return ifStmt(cast<If>(s));
    case NodeKind::While:
      return whileLoop(cast<While>(s));
    case NodeKind::ForRange:
      return forRange(cast<ForRange>(s));
    case NodeKind::Print:
      return print(cast<Print>(s));
    case NodeKind::Break:
    case NodeKind::Continue:
      builder_.CreateBr(isa<Break>(s) ? loops_.back().exit : loops_.back().next);
      // Code after break/continue is unreachable; give it a block of its own.
      builder_.SetInsertPoint(llvm::BasicBlock::Create(context_, "after.jump", llvmFunction_));
      return;
    case NodeKind::Evaluate:
      expr(*cast<Evaluate>(s).call);
      return;
    case NodeKind::Return:
      if (function_.kind == Function::Kind::Device) {
        const ExprPtr &value = cast<Return>(s).value;
        returnFromFunction(value ? expr(*value) : nullptr);
      } else if (target_ == LLVMTarget::NVPTX || function_.synchronises) {
        builder_.CreateRetVoid(); // ends the thread (on the CPU device, its fiber)
      } else {
        builder_.CreateBr(threadDone_); // this thread is done; on to the next
      }
      // Code after a return is unreachable; give it a block of its own.
      builder_.SetInsertPoint(llvm::BasicBlock::Create(context_, "after.return", llvmFunction_));
      return;
#define PYK_IR_EXPR(Name) case NodeKind::Name:
#include "IRNodes.def"
      return;
    }
  }

  /// Barriers: bar.sync and its counting forms on the GPU, the runtime's
  /// fiber barrier on the CPU device (told where it is, for its messages).
  /// Fences: membar on the GPU; on the CPU device the block's threads share
  /// one OS thread, so a block fence only stops the compiler reordering.
  llvm::Value *gpuOp(const GpuOp &g) {
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
  llvm::Value *asBits(llvm::Value *value) {
    return builder_.CreateBitCast(value, builder_.getIntNTy(value->getType()->getPrimitiveSizeInBits()));
  }

  /// Warp operations on the GPU: the sync intrinsics; 64-bit shuffles move
  /// the two halves.
  llvm::Value *warpOpOnGpu(const GpuOp &g, std::vector<llvm::Value *> &args) {
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

  /// Warp operations on the CPU device: the runtime's rendezvous of the
  /// warp's fibers. The source lane of a shuffle is computed here, as CUDA
  /// defines it (outside the warp: the caller's own value).
  llvm::Value *warpOpOnCpu(const GpuOp &g, std::vector<llvm::Value *> &args) {
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

  /// "file.pyk:line:col" as a constant string, for the runtime's messages.
  llvm::Value *sourcePosition(SourceRange loc) {
    return stringConstant(sourceName_ + ":" + std::to_string(loc.begin.line) + ":" + std::to_string(loc.begin.column));
  }

  /// cuda.atomic.*: atomicrmw (cmpxchg for cas) on the element, relaxed, as
  /// CUDA's atomics are. Floats compare-and-swap through their bits.
  llvm::Value *atomic(const Atomic &a) {
    llvm::Value *address = elementAddress(a.array, a.indices);
    llvm::Value *compare = a.compare ? expr(*a.compare) : nullptr;
    llvm::Value *value = expr(*a.value);
    at(a.loc());
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

  /// `ret value` from a device function. Sema has checked that a function
  /// with a value returns on every path, so a null value there ends a block
  /// no path reaches; it returns zero rather than leave the block open.
  void returnFromFunction(llvm::Value *value) {
    if (function_.returnType.isVoid())
      builder_.CreateRetVoid();
    else
      builder_.CreateRet(value ? value : llvm::Constant::getNullValue(llvmFunction_->getReturnType()));
  }

  /// A device function's call: each array as its pointer and extents; on
  /// the CPU device then this thread's context.
  llvm::Value *call(const Call &c) {
    std::vector<llvm::Value *> args;
    for (const ExprPtr &arg : c.args) {
      auto *ref = llvm::dyn_cast<VarRef>(arg.get());
      if (!ref || !ref->var->type.isArray()) {
        args.push_back(expr(*arg));
        continue;
      }
      const ArrayValue &array = arrays_.at(ref->var);
      args.push_back(builder_.CreateAddrSpaceCast(array.data, llvm::PointerType::get(context_, 0)));
      args.insert(args.end(), array.extents.begin(), array.extents.end());
    }
    if (target_ == LLVMTarget::Host) {
      args.push_back(blockContext_);
      for (unsigned axis = 0; axis < 3; ++axis)
        args.push_back(builder_.CreateLoad(builder_.getInt32Ty(), threadIndex_[axis]));
    }
    at(c.loc());
    return builder_.CreateCall(functions_.at(c.callee), args);
  }

  void ifStmt(const If &s) {
    llvm::Value *condition = expr(*s.condition);
    auto *thenBlock = llvm::BasicBlock::Create(context_, "if.then", llvmFunction_);
    auto *elseBlock = s.elseBody.empty() ? nullptr : llvm::BasicBlock::Create(context_, "if.else", llvmFunction_);
    auto *mergeBlock = llvm::BasicBlock::Create(context_, "if.end", llvmFunction_);
    at(s.loc());
    builder_.CreateCondBr(condition, thenBlock, elseBlock ? elseBlock : mergeBlock);
    builder_.SetInsertPoint(thenBlock);
    block(s.thenBody);
    if (!builder_.GetInsertBlock()->getTerminator())
      builder_.CreateBr(mergeBlock);
    if (elseBlock) {
      builder_.SetInsertPoint(elseBlock);
      block(s.elseBody);
      if (!builder_.GetInsertBlock()->getTerminator())
        builder_.CreateBr(mergeBlock);
    }
    builder_.SetInsertPoint(mergeBlock);
  }

  /// print(...): on the GPU, vprintf(format, buffer) with the values laid
  /// out as C's varargs would be (CUDA's device printf); on the CPU device,
  /// the C library's printf.
  void print(const Print &s) {
    std::vector<llvm::Value *> values;
    for (const Print::Part &part : s.parts) {
      if (!part.value)
        continue;
      llvm::Value *value = expr(*part.value);
      const ScalarKind kind = part.value->type().scalar;
      if (kind == ScalarKind::Bool)
        value = builder_.CreateSelect(value, stringConstant("True"), stringConstant("False"));
      else if (isFloat(kind))
        value = builder_.CreateFPExt(value, builder_.getDoubleTy());
      else
        value = builder_.CreateIntCast(value, builder_.getInt64Ty(), isSignedInteger(kind));
      values.push_back(value);
    }
    at(s.loc());
    llvm::Value *format = stringConstant(s.format());
    auto *ptr = llvm::PointerType::get(context_, 0);
    if (target_ == LLVMTarget::Host) {
      llvm::FunctionCallee printf =
          module_.getOrInsertFunction("printf", llvm::FunctionType::get(builder_.getInt32Ty(), {ptr}, true));
      values.insert(values.begin(), format);
      builder_.CreateCall(printf, values);
      return;
    }
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

  /// A pointer to a null-terminated constant string (in the GPU's constant
  /// memory on NVPTX, as a generic pointer).
  llvm::Value *stringConstant(const std::string &text) {
    auto *data = llvm::ConstantDataArray::getString(context_, text);
    const unsigned space = target_ == LLVMTarget::NVPTX ? 4 : 0;
    auto *global = new llvm::GlobalVariable(module_, data->getType(), true, llvm::GlobalValue::PrivateLinkage, data,
                                            "pyk.str", nullptr, llvm::GlobalValue::NotThreadLocal, space);
    global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    if (space == 0)
      return global;
    return builder_.CreateAddrSpaceCast(global, llvm::PointerType::get(context_, 0));
  }

  void whileLoop(const While &s) {
    auto *condition = llvm::BasicBlock::Create(context_, "while.cond", llvmFunction_);
    auto *body = llvm::BasicBlock::Create(context_, "while.body", llvmFunction_);
    auto *exit = llvm::BasicBlock::Create(context_, "while.end", llvmFunction_);
    builder_.CreateBr(condition);
    builder_.SetInsertPoint(condition);
    builder_.CreateCondBr(expr(*s.condition), body, exit);
    builder_.SetInsertPoint(body);
    loops_.push_back({condition, exit});
    block(s.body);
    loops_.pop_back();
    if (!builder_.GetInsertBlock()->getTerminator())
      builder_.CreateBr(condition);
    builder_.SetInsertPoint(exit);
  }

  /// start, stop and step are evaluated once; the counter lives in an
  /// alloca like any local.
  void forRange(const ForRange &s) {
    llvm::Value *start = expr(*s.start);
    llvm::Value *stop = expr(*s.stop);
    llvm::Value *step = expr(*s.step);
    storeLocal(s.var, start);
    auto *condition = llvm::BasicBlock::Create(context_, "for.cond", llvmFunction_);
    auto *body = llvm::BasicBlock::Create(context_, "for.body", llvmFunction_);
    auto *next = llvm::BasicBlock::Create(context_, "for.next", llvmFunction_);
    auto *exit = llvm::BasicBlock::Create(context_, "for.end", llvmFunction_);
    builder_.CreateBr(condition);

    builder_.SetInsertPoint(condition);
    at(s.loc());
    const bool isSigned = isSignedInteger(s.var->type.scalar);
    llvm::Value *i = builder_.CreateLoad(registerType(s.var->type.scalar, context_), locals_.at(s.var));
    llvm::Value *ascending = builder_.CreateICmp(isSigned ? llvm::CmpInst::ICMP_SLT : llvm::CmpInst::ICMP_ULT, i, stop);
    llvm::Value *descending = builder_.CreateICmp(isSigned ? llvm::CmpInst::ICMP_SGT : llvm::CmpInst::ICMP_UGT, i, stop);
    llvm::Value *test = s.stepSign > 0 ? ascending : s.stepSign < 0 ? descending : nullptr;
    if (!test) {
      // A step of zero runs no iteration (Python raises ValueError); an
      // unsigned step is never negative.
      llvm::Value *zero = llvm::ConstantInt::get(step->getType(), 0);
      llvm::Value *positive = builder_.CreateICmp(isSigned ? llvm::CmpInst::ICMP_SGT : llvm::CmpInst::ICMP_NE, step, zero);
      llvm::Value *negative = isSigned ? builder_.CreateICmpSLT(step, zero) : builder_.getFalse();
      test = builder_.CreateSelect(positive, ascending, builder_.CreateAnd(negative, descending));
    }
    builder_.CreateCondBr(test, body, exit);

    builder_.SetInsertPoint(body);
    loops_.push_back({next, exit});
    block(s.body);
    loops_.pop_back();
    if (!builder_.GetInsertBlock()->getTerminator())
      builder_.CreateBr(next);

    builder_.SetInsertPoint(next);
    llvm::Value *current = builder_.CreateLoad(registerType(s.var->type.scalar, context_), locals_.at(s.var));
    storeLocal(s.var, builder_.CreateAdd(current, step));
    builder_.CreateBr(condition);
    builder_.SetInsertPoint(exit);
  }

  void storeLocal(const Variable *var, llvm::Value *value) {
    builder_.CreateStore(toMemory(value, var->type.scalar), locals_.at(var));
  }

  // --- Expressions ----------------------------------------------------------
  llvm::Value *expr(const Expr &e) {
    at(e.loc());
    switch (e.kind()) {
    case NodeKind::Constant:
      return constant(cast<Constant>(e));
    case NodeKind::VarRef: {
      const Variable *var = cast<VarRef>(e).var;
      if (!locals_.count(var))
        return scalars_.at(var);
      llvm::Value *loaded = builder_.CreateLoad(memoryType(var->type.scalar, context_), locals_.at(var), var->name);
      return fromMemory(loaded, var->type.scalar);
    }
    case NodeKind::Cast: {
      auto &c = cast<Cast>(e);
      return convert(expr(*c.operand), c.operand->type().scalar, c.type().scalar);
    }
    case NodeKind::Unary: {
      auto &u = cast<Unary>(e);
      llvm::Value *operand = expr(*u.operand);
      if (u.op == UnaryOp::Not || u.op == UnaryOp::BitNot)
        return builder_.CreateNot(operand);
      if (u.op == UnaryOp::Round)
        return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, operand);
      if (u.op == UnaryOp::Popc)
        return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, operand);
      if (u.op == UnaryOp::Brev)
        return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, operand);
      if (u.op == UnaryOp::Clz)
        return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, operand, builder_.getFalse());
      if (u.op == UnaryOp::Ffs) {
        // The 1-based position of the lowest set bit; 0 for 0.
        llvm::Value *zero = llvm::ConstantInt::get(operand->getType(), 0);
        llvm::Value *position = builder_.CreateAdd(
            builder_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, operand, builder_.getTrue()),
            llvm::ConstantInt::get(operand->getType(), 1));
        return builder_.CreateSelect(builder_.CreateICmpEQ(operand, zero), zero, position);
      }
      if (u.op == UnaryOp::Abs) {
        if (isFloat(e.type().scalar))
          return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, operand);
        if (isUnsignedInteger(e.type().scalar))
          return operand;
        // abs(MIN) wraps to MIN (NumPy), so it is not poison here.
        return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, operand, builder_.getFalse());
      }
      return isFloat(e.type().scalar) ? builder_.CreateFNeg(operand) : builder_.CreateNeg(operand);
    }
    case NodeKind::Binary:
      return binary(cast<Binary>(e));
    case NodeKind::Compare:
      return compare(cast<Compare>(e));
    case NodeKind::Logical: {
      auto &l = cast<Logical>(e);
      return shortCircuit(l.op == LogicalOp::And, *l.lhs, *l.rhs);
    }
    case NodeKind::Select: {
      auto &s = cast<Select>(e);
      return conditional(*s.condition, *s.thenValue, *s.elseValue);
    }
    case NodeKind::SpecialReg:
      return specialReg(cast<SpecialReg>(e));
    case NodeKind::ArrayDim: {
      auto &d = cast<ArrayDim>(e);
      return arrays_.at(d.array).extents[d.axis];
    }
    case NodeKind::MathCall: {
      auto &m = cast<MathCall>(e);
      std::vector<llvm::Value *> args;
      for (const ExprPtr &arg : m.args)
        args.push_back(expr(*arg));
      at(e.loc());
      const std::string name = m.name + (e.type().scalar == ScalarKind::Float32 ? "f" : "");
      if (args.size() == 1)
        return mathCall(name, {args[0]});
      if (args.size() == 2)
        return mathCall(name, {args[0], args[1]});
      return mathCall(name, {args[0], args[1], args[2]});
    }
    case NodeKind::ArrayLoad: {
      auto &l = cast<ArrayLoad>(e);
      llvm::Value *address = elementAddress(l.array, l.indices);
      at(e.loc());
      ScalarKind element = l.array->type.scalar;
      llvm::Value *loaded = builder_.CreateAlignedLoad(memoryType(element, context_), address,
                                                       llvm::Align(byteWidth(element)), l.array->name);
      return fromMemory(loaded, element);
    }
    case NodeKind::Call:
      return call(cast<Call>(e));
    case NodeKind::GpuOp:
      return gpuOp(cast<GpuOp>(e));
    case NodeKind::Atomic:
      return atomic(cast<Atomic>(e));
#define PYK_IR_STMT(Name) case NodeKind::Name:
#include "IRNodes.def"
      break;
    }
    return nullptr;
  }

  llvm::Value *constant(const Constant &c) {
    ScalarKind kind = c.type().scalar;
    llvm::Type *type = registerType(kind, context_);
    if (isFloat(kind))
      return llvm::ConstantFP::get(type, c.floatValue);
    return llvm::ConstantInt::get(type, static_cast<uint64_t>(c.intValue), isSignedInteger(kind));
  }

  llvm::Value *binary(const Binary &b) {
    llvm::Value *lhs = expr(*b.lhs);
    llvm::Value *rhs = expr(*b.rhs);
    at(b.loc());
    const ScalarKind kind = b.type().scalar;
    const bool floating = isFloat(kind);
    switch (b.op) {
    case BinaryOp::Add:
      return floating ? builder_.CreateFAdd(lhs, rhs) : builder_.CreateAdd(lhs, rhs);
    case BinaryOp::Sub:
      return floating ? builder_.CreateFSub(lhs, rhs) : builder_.CreateSub(lhs, rhs);
    case BinaryOp::Mul:
      return floating ? builder_.CreateFMul(lhs, rhs) : builder_.CreateMul(lhs, rhs);
    case BinaryOp::Div:
      if (function_.fastMath && target_ == LLVMTarget::NVPTX && kind == ScalarKind::Float32)
        return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_div_approx_ftz_f, {}, {lhs, rhs});
      return builder_.CreateFDiv(lhs, rhs);
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod: {
      const bool wantRemainder = b.op == BinaryOp::Mod;
      if (floating)
        return emitFloatDivmod(builder_, lhs, rhs, mathCall(kind == ScalarKind::Float32 ? "fmodf" : "fmod", {lhs, rhs}),
                               wantRemainder);
      return emitIntegerDivision(builder_, lhs, rhs, isSignedInteger(kind), wantRemainder);
    }
    case BinaryOp::Pow:
      if (floating)
        return mathCall(kind == ScalarKind::Float32 ? "powf" : "pow", {lhs, rhs});
      return builder_.CreateCall(integerPowFunction(module_, lhs->getType(), isSignedInteger(kind)), {lhs, rhs});
    case BinaryOp::And:
      return builder_.CreateAnd(lhs, rhs);
    case BinaryOp::Or:
      return builder_.CreateOr(lhs, rhs);
    case BinaryOp::Xor:
      return builder_.CreateXor(lhs, rhs);
    case BinaryOp::Shl:
    case BinaryOp::Shr:
      return emitShift(builder_, b.op == BinaryOp::Shl, lhs, rhs, isSignedInteger(kind));
    case BinaryOp::Min:
    case BinaryOp::Max: {
      // b if b < a else a (max: b > a): NaN in b never wins, as in Python.
      const bool isMin = b.op == BinaryOp::Min;
      llvm::Value *takeRight =
          floating ? (isMin ? builder_.CreateFCmpOLT(rhs, lhs) : builder_.CreateFCmpOGT(rhs, lhs))
                   : builder_.CreateICmp(isMin ? (isSignedInteger(kind) ? llvm::CmpInst::ICMP_SLT : llvm::CmpInst::ICMP_ULT)
                                               : (isSignedInteger(kind) ? llvm::CmpInst::ICMP_SGT : llvm::CmpInst::ICMP_UGT),
                                         rhs, lhs);
      return builder_.CreateSelect(takeRight, rhs, lhs);
    }
    }
    return nullptr;
  }

  /// A math function of the C library: libdevice's __nv_NAME on the GPU
  /// (linked in after emission), the C library's NAME on the CPU device.
  /// With fastmath on the GPU, float32 functions that libdevice has a fast
  /// version of use it (__nv_fast_expf, ...), and sqrtf is sqrt.approx.
  llvm::Value *mathCall(const std::string &name, std::initializer_list<llvm::Value *> args) {
    std::vector<llvm::Type *> types;
    for (llvm::Value *arg : args)
      types.push_back(arg->getType());
    auto *type = llvm::FunctionType::get(types.front(), types, false);
    std::string symbol = target_ == LLVMTarget::NVPTX ? "__nv_" + name : name;
    if (function_.fastMath && target_ == LLVMTarget::NVPTX) {
      if (name == "sqrtf")
        return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_sqrt_approx_ftz_f, {}, std::vector<llvm::Value *>(args));
      static const char *const withFastVersion[] = {"expf", "exp10f", "logf", "log2f", "log10f",
                                                    "sinf", "cosf",   "tanf", "powf"};
      if (std::find(std::begin(withFastVersion), std::end(withFastVersion), name) != std::end(withFastVersion))
        symbol = "__nv_fast_" + name;
    }
    llvm::FunctionCallee callee = module_.getOrInsertFunction(symbol, type);
    if (auto *function = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      function->addFnAttr(llvm::Attribute::NoUnwind);
      if (target_ == LLVMTarget::NVPTX)
        function->setDoesNotAccessMemory();
    }
    return builder_.CreateCall(callee, std::vector<llvm::Value *>(args));
  }

  llvm::Value *compare(const Compare &c) {
    llvm::Value *lhs = expr(*c.lhs);
    llvm::Value *rhs = expr(*c.rhs);
    at(c.loc());
    ScalarKind kind = c.lhs->type().scalar;
    using P = llvm::CmpInst::Predicate;
    static constexpr P floatPredicates[] = {P::FCMP_OLT, P::FCMP_OLE, P::FCMP_OGT,
                                            P::FCMP_OGE, P::FCMP_OEQ, P::FCMP_UNE};
    static constexpr P signedPredicates[] = {P::ICMP_SLT, P::ICMP_SLE, P::ICMP_SGT,
                                             P::ICMP_SGE, P::ICMP_EQ,  P::ICMP_NE};
    static constexpr P unsignedPredicates[] = {P::ICMP_ULT, P::ICMP_ULE, P::ICMP_UGT,
                                               P::ICMP_UGE, P::ICMP_EQ,  P::ICMP_NE};
    const auto index = static_cast<size_t>(c.op);
    if (isFloat(kind))
      return builder_.CreateFCmp(floatPredicates[index], lhs, rhs);
    // NaN compares unequal to everything, as in Python: `!=` is the unordered
    // predicate above; bools and unsigned integers compare unsigned.
    return builder_.CreateICmp(isSignedInteger(kind) ? signedPredicates[index] : unsignedPredicates[index], lhs, rhs);
  }

  /// `lhs and rhs` / `lhs or rhs`, evaluating `rhs` only when needed.
  llvm::Value *shortCircuit(bool isAnd, const Expr &lhsExpr, const Expr &rhsExpr) {
    llvm::Value *lhs = expr(lhsExpr);
    llvm::BasicBlock *lhsEnd = builder_.GetInsertBlock();
    auto *rhsBlock = llvm::BasicBlock::Create(context_, isAnd ? "and.rhs" : "or.rhs", llvmFunction_);
    auto *mergeBlock = llvm::BasicBlock::Create(context_, isAnd ? "and.end" : "or.end", llvmFunction_);
    if (isAnd)
      builder_.CreateCondBr(lhs, rhsBlock, mergeBlock);
    else
      builder_.CreateCondBr(lhs, mergeBlock, rhsBlock);
    builder_.SetInsertPoint(rhsBlock);
    llvm::Value *rhs = expr(rhsExpr);
    llvm::BasicBlock *rhsEnd = builder_.GetInsertBlock();
    builder_.CreateBr(mergeBlock);
    builder_.SetInsertPoint(mergeBlock);
    llvm::PHINode *result = builder_.CreatePHI(llvm::Type::getInt1Ty(context_), 2);
    result->addIncoming(llvm::ConstantInt::getBool(context_, !isAnd), lhsEnd);
    result->addIncoming(rhs, rhsEnd);
    return result;
  }

  /// `thenValue if condition else elseValue`, evaluating one side only.
  llvm::Value *conditional(const Expr &conditionExpr, const Expr &thenExpr, const Expr &elseExpr) {
    llvm::Value *condition = expr(conditionExpr);
    auto *thenBlock = llvm::BasicBlock::Create(context_, "cond.then", llvmFunction_);
    auto *elseBlock = llvm::BasicBlock::Create(context_, "cond.else", llvmFunction_);
    auto *mergeBlock = llvm::BasicBlock::Create(context_, "cond.end", llvmFunction_);
    builder_.CreateCondBr(condition, thenBlock, elseBlock);
    builder_.SetInsertPoint(thenBlock);
    llvm::Value *thenValue = expr(thenExpr);
    llvm::BasicBlock *thenEnd = builder_.GetInsertBlock();
    builder_.CreateBr(mergeBlock);
    builder_.SetInsertPoint(elseBlock);
    llvm::Value *elseValue = expr(elseExpr);
    llvm::BasicBlock *elseEnd = builder_.GetInsertBlock();
    builder_.CreateBr(mergeBlock);
    builder_.SetInsertPoint(mergeBlock);
    llvm::PHINode *result = builder_.CreatePHI(thenValue->getType(), 2);
    result->addIncoming(thenValue, thenEnd);
    result->addIncoming(elseValue, elseEnd);
    return result;
  }

  llvm::Value *specialReg(const SpecialReg &r) {
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
    if (target_ == LLVMTarget::Host) {
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

  /// data + row-major offset of `indices`, as an inbounds GEP.
  llvm::Value *elementAddress(const Variable *array, const std::vector<ExprPtr> &indices) {
    const ArrayValue &value = arrays_.at(array);
    llvm::Value *offset = expr(*indices[0]);
    for (size_t axis = 1; axis < indices.size(); ++axis)
      offset = builder_.CreateAdd(builder_.CreateMul(offset, value.extents[axis]), expr(*indices[axis]));
    return builder_.CreateInBoundsGEP(memoryType(array->type.scalar, context_), value.data, offset);
  }

  // --- Conversions ----------------------------------------------------------
  llvm::Value *toMemory(llvm::Value *value, ScalarKind kind) {
    return kind == ScalarKind::Bool ? builder_.CreateZExt(value, llvm::Type::getInt8Ty(context_)) : value;
  }

  llvm::Value *fromMemory(llvm::Value *value, ScalarKind kind) {
    return kind == ScalarKind::Bool ? builder_.CreateICmpNE(value, builder_.getInt8(0)) : value;
  }

  /// Numeric conversion with C semantics (the CUDA C++ backend's casts).
  llvm::Value *convert(llvm::Value *value, ScalarKind from, ScalarKind to) {
    llvm::Type *type = registerType(to, context_);
    if (from == to)
      return value;
    if (to == ScalarKind::Bool)
      return isFloat(from) ? builder_.CreateFCmpUNE(value, llvm::ConstantFP::get(value->getType(), 0.0))
                           : builder_.CreateICmpNE(value, llvm::ConstantInt::get(value->getType(), 0));
    if (isFloat(from) && isFloat(to))
      return builder_.CreateFPCast(value, type);
    if (isFloat(from))
      return isSignedInteger(to) ? builder_.CreateFPToSI(value, type) : builder_.CreateFPToUI(value, type);
    if (isFloat(to))
      return isSignedInteger(from) ? builder_.CreateSIToFP(value, type) : builder_.CreateUIToFP(value, type);
    return builder_.CreateIntCast(value, type, isSignedInteger(from));
  }

  const Function &function_;
  /// The .pyk file's name, for the runtime's messages.
  const std::string &sourceName_;
  llvm::Module &module_;
  llvm::LLVMContext &context_;
  llvm::IRBuilder<> builder_;
  LLVMTarget target_;
  // Host only: the thread loop counters, the block's values, and where a
  // thread goes when it is done.
  std::array<llvm::AllocaInst *, 3> threadIndex_{};
  std::array<std::array<llvm::Value *, 3>, 3> blockValues_{};
  llvm::Value *blockContext_ = nullptr;
  /// CPU device, kernels that synchronise: the entry the runtime calls.
  llvm::Function *blockEntry_ = nullptr;
  llvm::BasicBlock *threadDone_ = nullptr;
  /// The enclosing loops, innermost last: where continue and break go.
  struct LoopTargets {
    llvm::BasicBlock *next;
    llvm::BasicBlock *exit;
  };
  std::vector<LoopTargets> loops_;
  llvm::DIBuilder *debug_;
  llvm::DIFile *file_;
  llvm::DIScope *scope_ = nullptr;
  llvm::Function *llvmFunction_ = nullptr;
  const FunctionMap &functions_;
  std::map<const Variable *, llvm::Value *> scalars_;
  std::map<const Variable *, ArrayValue> arrays_;
  std::map<const Variable *, llvm::AllocaInst *> locals_;
};

} // namespace

std::string cpuEntrySymbol(const std::string &symbol) { return "pyk_cpu_" + symbol; }

std::unique_ptr<llvm::Module> emitLLVMModule(const Module &module, llvm::LLVMContext &context,
                                             const LLVMEmitOptions &options) {
  auto result = std::make_unique<llvm::Module>(module.sourceName, context);
  if (options.target == LLVMTarget::NVPTX)
    result->setTargetTriple("nvptx64-nvidia-cuda");
  std::unique_ptr<llvm::DIBuilder> debug;
  llvm::DIFile *file = nullptr;
  bool lineInfo = options.lineInfo;
  for (const auto &function : module.functions)
    lineInfo |= function->lineInfo;
  if (lineInfo) {
    debug = std::make_unique<llvm::DIBuilder>(*result);
    // An absolute path, so that profilers and debuggers find the .pyk file
    // from wherever they run.
    llvm::SmallString<256> path(module.sourceName);
    llvm::sys::fs::make_absolute(path);
    file = debug->createFile(llvm::sys::path::filename(path), llvm::sys::path::parent_path(path));
    debug->createCompileUnit(llvm::dwarf::DW_LANG_Python, file, "pykc", /*isOptimized=*/true, "", 0, "",
                             llvm::DICompileUnit::DebugDirectivesOnly);
    result->addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
    result->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 2);
  }
  FunctionMap functions;
  std::vector<std::unique_ptr<FunctionEmitter>> emitters;
  for (const auto &function : module.functions) {
    const bool withLines = options.lineInfo || function->lineInfo;
    emitters.push_back(std::make_unique<FunctionEmitter>(*function, module.sourceName, *result, options.target,
                                                         withLines ? debug.get() : nullptr, file, functions));
    functions[function.get()] = emitters.back()->declare();
  }
  for (auto &emitter : emitters)
    emitter->emitBody();
  if (debug)
    debug->finalize();
  return result;
}

} // namespace pyk::llvmgen
