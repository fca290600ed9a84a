//===- LLVMEmitterChecks.cpp - Checked mode's run-time checks -------------===//
//
// The IR states the checks (insertChecks); what is left to the backend is
// the CheckFailed node: a call of pyk_check_failed, a cold function that
// claims the check record with a compare-and-swap (so the first failure
// wins) and fills it in. No trap: the GPU context stays usable, and the
// runtime reads the record after the launch. Being cold, the call puts the
// failure paths out of the way of the passing ones.
//
//===----------------------------------------------------------------------===//
#include "FunctionEmitter.h"

#include "pyk/CheckRecord.h"

#include <cstddef>

namespace pyk::llvmgen::emit {

/// void pyk_check_failed(ptr record, i64 launch, i32 site, i64 index,
/// i64 extent, i32 tid.x, tid.y, tid.z, ctaid.x, ctaid.y, ctaid.z),
/// defined once per module. A null record (an unchecked kernel calling a
/// checked device function) records nothing.
llvm::Function *FunctionEmitter::checkFailedFunction() {
  if (llvm::Function *existing = module_.getFunction("pyk_check_failed"))
    return existing;
  auto *i32 = llvm::Type::getInt32Ty(context_), *i64 = llvm::Type::getInt64Ty(context_);
  auto *ptr = llvm::PointerType::get(context_, 0);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context_),
                                       {ptr, i64, i32, i64, i64, i32, i32, i32, i32, i32, i32}, false);
  auto *function = llvm::Function::Create(type, llvm::Function::InternalLinkage, "pyk_check_failed", module_);
  function->addFnAttr(llvm::Attribute::NoInline);
  function->addFnAttr(llvm::Attribute::Cold);
  function->addFnAttr(llvm::Attribute::NoUnwind);
  static const char *const names[] = {"record", "launch",   "site",     "index",    "extent",  "thread.x",
                                      "thread.y", "thread.z", "block.x", "block.y", "block.z"};
  for (unsigned i = 0; i < 11; ++i)
    function->getArg(i)->setName(names[i]);

  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context_, "entry", function));
  auto *claim = llvm::BasicBlock::Create(context_, "claim", function);
  auto *fill = llvm::BasicBlock::Create(context_, "fill", function);
  auto *done = llvm::BasicBlock::Create(context_, "done", function);
  llvm::Value *record = function->getArg(0);
  b.CreateCondBr(b.CreateIsNull(record), done, claim);
  b.SetInsertPoint(claim);
  llvm::Value *pair = b.CreateAtomicCmpXchg(record, b.getInt32(0), b.getInt32(1), llvm::Align(4),
                                            llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic);
  b.CreateCondBr(b.CreateExtractValue(pair, 1), fill, done);
  b.SetInsertPoint(fill);
  auto field = [&](size_t offset, unsigned arg) {
    b.CreateStore(function->getArg(arg), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), record, offset));
  };
  field(offsetof(pyk_check_record, site), 2);
  field(offsetof(pyk_check_record, launch), 1);
  field(offsetof(pyk_check_record, index), 3);
  field(offsetof(pyk_check_record, extent), 4);
  for (unsigned axis = 0; axis < 3; ++axis) {
    field(offsetof(pyk_check_record, thread) + 4 * axis, 5 + axis);
    field(offsetof(pyk_check_record, block) + 4 * axis, 8 + axis);
  }
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return function;
}

void FunctionEmitter::reportFailure(CheckSiteId site, llvm::Value *index, llvm::Value *extent) {
  std::vector<llvm::Value *> args = {checkRecord_, checkLaunch_, builder_.getInt32(site),
                                     index ? index : builder_.getInt64(0), extent ? extent : builder_.getInt64(0)};
  for (SpecialRegKind kind : {SpecialRegKind::ThreadIdx, SpecialRegKind::BlockIdx})
    for (unsigned axis = 0; axis < 3; ++axis)
      args.push_back(specialReg(SpecialReg(SourceRange(), kind, axis)));
  builder_.CreateCall(checkFailedFunction(), args);
}

llvm::Value *FunctionEmitter::checkFailed(const CheckFailed &f) {
  llvm::Value *index = f.index ? expr(*f.index) : nullptr;
  llvm::Value *extent = f.extent ? expr(*f.extent) : nullptr;
  at(f.loc());
  reportFailure(f.site, index, extent);
  if (f.type().isVoid())
    return nullptr;
  return llvm::Constant::getNullValue(registerType(f.type().scalar, context_));
}

} // namespace pyk::llvmgen::emit
