//===- Ptxas.cpp - Assemble PTX into a cubin with the toolkit's ptxas -----===//
#include "Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace pyk::llvmgen {

std::string findPtxas() {
  const char *cudaHome = std::getenv("CUDA_HOME");
  for (const char *home : {static_cast<const char *>(cudaHome), "/usr/local/cuda"}) {
    if (!home || !*home)
      continue;
    llvm::SmallString<256> path(home);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

static llvm::Error failure(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::string> assembleCubin(const std::string &ptx, const std::string &arch) {
  const std::string ptxas = findPtxas();
  if (ptxas.empty())
    return failure("cannot find ptxas (set CUDA_HOME to the CUDA toolkit)");
  llvm::SmallString<128> input, output, log;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("pyk", "ptx", input))
    return failure("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removeInput(input);
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("pyk", "cubin", output))
    return failure("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removeOutput(output);
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("pyk", "log", log))
    return failure("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removeLog(log);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    if (ec)
      return failure("cannot write '" + std::string(input) + "': " + ec.message());
    os << ptx;
  }
  const std::string archFlag = "-arch=" + arch;
  llvm::SmallVector<llvm::StringRef, 6> args = {ptxas, archFlag, input, "-o", output};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log), llvm::StringRef(log)};
  std::string runError;
  const int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &runError);
  if (status != 0) {
    auto messages = llvm::MemoryBuffer::getFile(log);
    std::string text = messages ? (*messages)->getBuffer().trim().str() : runError;
    return failure("ptxas rejected the PTX for " + arch + ":\n" + text);
  }
  auto cubin = llvm::MemoryBuffer::getFile(output, /*IsText=*/false);
  if (!cubin)
    return failure("cannot read the cubin ptxas wrote: " + cubin.getError().message());
  return (*cubin)->getBuffer().str();
}

} // namespace pyk::llvmgen
