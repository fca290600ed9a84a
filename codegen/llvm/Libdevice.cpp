//===- Libdevice.cpp - Math functions from CUDA's libdevice ---------------===//
#include "Libdevice.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <optional>
#include <vector>

namespace pyk::llvmgen {

std::string defaultLibdevicePath() {
  const char *cudaHome = std::getenv("CUDA_HOME");
  llvm::SmallString<256> path(cudaHome && *cudaHome ? cudaHome : "/usr/local/cuda");
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return std::string(path);
}

/// The string a `__nvvm_reflect("...")` call asks about.
static std::optional<llvm::StringRef> reflectQuery(const llvm::CallInst &call) {
  auto *global = llvm::dyn_cast<llvm::GlobalVariable>(call.getArgOperand(0)->stripPointerCasts());
  if (!global || !global->hasInitializer())
    return std::nullopt;
  auto *text = llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer());
  if (!text || !text->isString())
    return std::nullopt;
  return text->getAsCString();
}

/// libdevice asks __nvvm_reflect whether division and square root must be
/// IEEE-rounded; LLVM 19's NVVMReflect only knows about denormals and the
/// architecture and answers 0 (approximate) to the rest. Python's `/` and
/// math.sqrt are correctly rounded, so answer 1 unless fastmath allows less.
static void answerPrecisionQueries(llvm::Module &module, bool precise) {
  llvm::Function *reflect = module.getFunction("__nvvm_reflect");
  if (!reflect)
    return;
  std::vector<llvm::CallInst *> answered;
  for (llvm::User *user : reflect->users()) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call)
      continue;
    std::optional<llvm::StringRef> query = reflectQuery(*call);
    if (query && (*query == "__CUDA_PREC_SQRT" || *query == "__CUDA_PREC_DIV")) {
      call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), precise ? 1 : 0));
      answered.push_back(call);
    }
  }
  for (llvm::CallInst *call : answered)
    call->eraseFromParent();
}

bool needsLibdevice(const llvm::Module &module) {
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_"))
      return true;
  return false;
}

llvm::Error linkLibdevice(llvm::Module &module, const std::string &path, bool flushDenormals) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read libdevice '" + path + "': " + buffer.getError().message() +
                                       " (set CUDA_HOME to the CUDA toolkit)");
  llvm::Expected<std::unique_ptr<llvm::Module>> libdevice =
      llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!libdevice)
    return libdevice.takeError();
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  llvm::Linker linker(module);
  if (linker.linkInModule(std::move(*libdevice), llvm::Linker::LinkOnlyNeeded,
                          [](llvm::Module &linked, const llvm::StringSet<> &names) {
                            for (llvm::Function &function : linked)
                              if (!function.isDeclaration() && names.contains(function.getName()))
                                function.setLinkage(llvm::GlobalValue::InternalLinkage);
                          }))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "linking libdevice failed");
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", flushDenormals ? 1 : 0);
  answerPrecisionQueries(module, /*precise=*/!flushDenormals);
  return llvm::Error::success();
}

} // namespace pyk::llvmgen
