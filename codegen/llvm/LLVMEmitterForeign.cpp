//===- LLVMEmitterForeign.cpp - Calls of CUDA C++ functions a file declares ===//
//
// A ForeignCall is Numba's ABI, on every target: `i32 @NAME(ptr result,
// params...)`, declared as a C compiler declares `extern "C" int NAME(T *,
// ...)` (small integers and bools sign- or zero-extended), with the result
// in a slot of the entry block, loaded after the call. On a GPU the symbol
// is the linked file's device function; on the CPU device it is the same
// file compiled for the host.
//
//===----------------------------------------------------------------------===//
#include "FunctionEmitter.h"

namespace pyk::llvmgen::emit {

namespace {

/// The extension a C compiler gives a parameter of `kind`.
std::optional<llvm::Attribute::AttrKind> extensionOf(ScalarKind kind) {
  if (kind == ScalarKind::Bool || kind == ScalarKind::UInt8 || kind == ScalarKind::UInt16)
    return llvm::Attribute::ZExt;
  if (kind == ScalarKind::Int8 || kind == ScalarKind::Int16)
    return llvm::Attribute::SExt;
  return std::nullopt;
}

} // namespace

llvm::Value *FunctionEmitter::foreignCall(const ForeignCall &f) {
  const ForeignFunction &function = *f.function;
  std::vector<llvm::Value *> args;
  std::vector<llvm::Type *> types{llvm::PointerType::get(context_, 0)};
  llvm::IRBuilder<> entry(&llvmFunction_->getEntryBlock(), llvmFunction_->getEntryBlock().begin());
  llvm::AllocaInst *slot =
      entry.CreateAlloca(memoryType(function.result.scalar, context_), nullptr, function.name + ".result");
  args.push_back(slot);
  for (const ExprPtr &arg : f.args) {
    args.push_back(expr(*arg));
    types.push_back(args.back()->getType());
  }
  at(f.loc());
  // (Lowering rejects a name the module has for itself: a C library
  // function's, a helper's.)
  llvm::FunctionCallee callee =
      module_.getOrInsertFunction(function.name, llvm::FunctionType::get(builder_.getInt32Ty(), types, false));
  llvm::CallInst *call = builder_.CreateCall(callee, args);
  if (auto *declared = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    declared->addFnAttr(llvm::Attribute::NoUnwind);
    for (size_t i = 0; i < function.params.size(); ++i)
      if (std::optional<llvm::Attribute::AttrKind> extension = extensionOf(function.params[i].scalar))
        declared->addParamAttr(static_cast<unsigned>(i + 1), *extension);
    call->setAttributes(declared->getAttributes());
  }
  llvm::Value *value = builder_.CreateLoad(memoryType(function.result.scalar, context_), slot);
  if (function.result.scalar == ScalarKind::Bool) // a C bool in memory: one byte, 0 or 1
    return builder_.CreateICmpNE(value, llvm::ConstantInt::get(value->getType(), 0));
  return value;
}

} // namespace pyk::llvmgen::emit
