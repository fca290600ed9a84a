//===- Libdevice.cpp - Math functions from CUDA's libdevice ---------------===//
#include "Libdevice.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

namespace pyk::llvmgen {

std::string defaultLibdevicePath() {
  const char *cudaHome = std::getenv("CUDA_HOME");
  llvm::SmallString<256> path(cudaHome && *cudaHome ? cudaHome : "/usr/local/cuda");
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return std::string(path);
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
  return llvm::Error::success();
}

} // namespace pyk::llvmgen
