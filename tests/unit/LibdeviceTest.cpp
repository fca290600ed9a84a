//===- LibdeviceTest.cpp - Math calls resolve to libdevice in the PTX -----===//
#include "Libdevice.h"
#include "NVPTXTarget.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

using namespace pyk::llvmgen;

namespace {

/// A kernel that stores sqrtf(x[0]) back into x[0], calling libdevice.
std::unique_ptr<llvm::Module> sqrtKernel(llvm::LLVMContext &context) {
  auto module = std::make_unique<llvm::Module>("sqrt", context);
  auto *ptr = llvm::PointerType::get(context, 1);
  auto *kernel = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr}, false),
                                        llvm::Function::ExternalLinkage, "sqrt_kernel", *module);
  kernel->setCallingConv(llvm::CallingConv::PTX_Kernel);
  auto *floatType = llvm::Type::getFloatTy(context);
  llvm::FunctionCallee sqrtf =
      module->getOrInsertFunction("__nv_sqrtf", llvm::FunctionType::get(floatType, {floatType}, false));
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", kernel));
  llvm::Value *x = builder.CreateLoad(floatType, kernel->getArg(0));
  builder.CreateStore(builder.CreateCall(sqrtf, {x}), kernel->getArg(0));
  builder.CreateRetVoid();
  return module;
}

TEST(Libdevice, LinksOnlyTheFunctionsUsedAndLeavesNoExternalCalls) {
  if (!llvm::sys::fs::exists(defaultLibdevicePath()))
    GTEST_SKIP() << "no libdevice at " << defaultLibdevicePath();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = sqrtKernel(context);
  auto machine = createNVPTXTargetMachine("sm_80", 3);
  ASSERT_TRUE(static_cast<bool>(machine)) << llvm::toString(machine.takeError());
  prepareModule(*module, **machine);
  ASSERT_TRUE(needsLibdevice(*module));

  llvm::Error error = linkLibdevice(*module, defaultLibdevicePath(), /*flushDenormals=*/false);
  ASSERT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
  EXPECT_FALSE(needsLibdevice(*module));
  llvm::Function *linked = module->getFunction("__nv_sqrtf");
  ASSERT_NE(linked, nullptr);
  EXPECT_FALSE(linked->isDeclaration());
  EXPECT_TRUE(linked->hasInternalLinkage());
  EXPECT_EQ(module->getFunction("__nv_expf"), nullptr) << "only what is used is linked";
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));

  optimizeModule(*module, **machine, 3);
  auto ptx = emitPTX(*module, **machine);
  ASSERT_TRUE(static_cast<bool>(ptx)) << llvm::toString(ptx.takeError());
  EXPECT_NE(ptx->find(".entry sqrt_kernel"), std::string::npos);
  EXPECT_EQ(ptx->find(".extern"), std::string::npos) << *ptx;
  EXPECT_NE(ptx->find("sqrt.rn.f32"), std::string::npos) << *ptx;
}

TEST(Libdevice, MissingFileIsAnErrorNamingIt) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = sqrtKernel(context);
  llvm::Error error = linkLibdevice(*module, "/nonexistent/libdevice.10.bc", false);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("/nonexistent/libdevice.10.bc"), std::string::npos);
}

TEST(NVPTXTarget, RejectsUnknownArchitectures) {
  auto machine = createNVPTXTargetMachine("sm_70", 3);
  ASSERT_FALSE(static_cast<bool>(machine));
  EXPECT_NE(llvm::toString(machine.takeError()).find("sm_75, sm_80, sm_86, sm_89, sm_90"), std::string::npos);
}

} // namespace
