//===- LLVMEmitterLibdevice.cpp - Calls of libdevice's functions ----------===//
//
// libdevice.NAME is a call of __nv_NAME, declared as libdevice.10.bc
// declares it, on every target: the NVPTX module then links libdevice's
// own definition (Libdevice.cpp), and the CPU device's object calls the
// runtime's (runtime/src/Libdevice.cpp). A pointer parameter points at a
// slot in the entry block, and the value the IR asks for is loaded from it;
// libdevice's zero-extended i16 keeps its zeroext attribute.
//
//===----------------------------------------------------------------------===//
#include "FunctionEmitter.h"

namespace pyk::llvmgen::emit {

llvm::Value *FunctionEmitter::libdeviceCall(const LibdeviceCall &l) {
  const LibdeviceFunction &function = *l.function;
  std::vector<llvm::Value *> args;
  std::vector<llvm::Type *> types;
  for (const ExprPtr &arg : l.args) {
    args.push_back(expr(*arg));
    types.push_back(args.back()->getType());
  }
  at(l.loc());
  // The outputs' slots, after the arguments (LibdeviceFunction::outputs).
  llvm::IRBuilder<> entry(&llvmFunction_->getEntryBlock(), llvmFunction_->getEntryBlock().begin());
  std::vector<llvm::AllocaInst *> slots;
  for (const LibdeviceType &output : function.outputs) {
    slots.push_back(entry.CreateAlloca(registerType(output.kind, context_), nullptr,
                                       std::string(function.name) + ".out" + std::to_string(slots.size())));
    args.push_back(slots.back());
    types.push_back(llvm::PointerType::get(context_, 0));
  }
  llvm::Type *result = function.result ? registerType(function.result->kind, context_) : builder_.getVoidTy();
  llvm::FunctionCallee callee =
      module_.getOrInsertFunction(function.symbol(), llvm::FunctionType::get(result, types, false));
  llvm::CallInst *call = builder_.CreateCall(callee, args);
  if (auto *declared = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    declared->addFnAttr(llvm::Attribute::NoUnwind);
    for (unsigned i = 0; i < function.params.size(); ++i)
      if (function.params[i].zeroExtended())
        declared->addParamAttr(i, llvm::Attribute::ZExt);
    if (function.result && function.result->zeroExtended())
      declared->addRetAttr(llvm::Attribute::ZExt);
    call->setAttributes(declared->getAttributes());
  }
  if (l.output < 0)
    return call;
  return builder_.CreateLoad(registerType(function.outputs[l.output].kind, context_), slots[l.output]);
}

} // namespace pyk::llvmgen::emit
