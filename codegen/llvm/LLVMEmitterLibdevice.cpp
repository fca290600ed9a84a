//===- LLVMEmitterLibdevice.cpp - Calls of libdevice's functions ----------===//
//
// libdevice.NAME is a call of __nv_NAME, declared as libdevice.10.bc
// declares it, on every target: the NVPTX module then links libdevice's
// own definition (Libdevice.cpp), and the CPU device's object calls the
// runtime's (runtime/src/Libdevice.cpp). A pointer parameter points at a
// slot in the entry block, and the value the IR asks for is loaded from it.
//
//===----------------------------------------------------------------------===//
#include "FunctionEmitter.h"

namespace pyk::llvmgen::emit {

/// The LLVM type of one of libdevice's C types; `unsigned short` is its
/// zero-extended i16 (zeroExtended).
static llvm::Type *libdeviceType(const LibdeviceType &type, llvm::LLVMContext &context) {
  return registerType(type.kind, context);
}

static bool zeroExtended(const LibdeviceType &type) { return type.c == "unsigned short"; }

llvm::Value *FunctionEmitter::libdeviceCall(const LibdeviceCall &l) {
  const LibdeviceFunction &function = *l.function;
  std::vector<llvm::Value *> inputs;
  for (const ExprPtr &arg : l.args)
    inputs.push_back(expr(*arg));
  at(l.loc());
  llvm::IRBuilder<> entry(&llvmFunction_->getEntryBlock(), llvmFunction_->getEntryBlock().begin());
  std::vector<llvm::Type *> types;
  std::vector<llvm::Value *> args;
  std::vector<llvm::AllocaInst *> slots;
  std::vector<unsigned> zeroExtendedArgs;
  size_t input = 0;
  for (unsigned position = 0; position < function.params.size() + function.outputs.size(); ++position) {
    if (slots.size() < function.outputs.size() && function.outputPositions[slots.size()] == position) {
      const LibdeviceType &output = function.outputs[slots.size()];
      slots.push_back(entry.CreateAlloca(libdeviceType(output, context_), nullptr,
                                         std::string(function.name) + ".out" + std::to_string(slots.size())));
      types.push_back(llvm::PointerType::get(context_, 0));
      args.push_back(slots.back());
      continue;
    }
    if (zeroExtended(function.params[input]))
      zeroExtendedArgs.push_back(position);
    types.push_back(libdeviceType(function.params[input], context_));
    args.push_back(inputs[input++]);
  }
  llvm::Type *result = function.result ? libdeviceType(*function.result, context_) : builder_.getVoidTy();
  llvm::FunctionCallee callee =
      module_.getOrInsertFunction(function.symbol(), llvm::FunctionType::get(result, types, false));
  llvm::CallInst *call = builder_.CreateCall(callee, args);
  if (auto *declared = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    declared->addFnAttr(llvm::Attribute::NoUnwind);
    for (unsigned position : zeroExtendedArgs)
      declared->addParamAttr(position, llvm::Attribute::ZExt);
    if (function.result && zeroExtended(*function.result))
      declared->addRetAttr(llvm::Attribute::ZExt);
    call->setAttributes(declared->getAttributes());
  }
  if (l.output < 0)
    return call;
  const LibdeviceType &wanted = function.outputs[l.output];
  return builder_.CreateLoad(libdeviceType(wanted, context_), slots[l.output]);
}

} // namespace pyk::llvmgen::emit
