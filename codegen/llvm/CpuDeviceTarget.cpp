//===- CpuDeviceTarget.cpp - Compile LLVM IR for the CPU device -----------===//
#include "CpuDeviceTarget.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <mutex>

namespace pyk::llvmgen {

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createCpuDeviceTargetMachine(unsigned optLevel) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  const std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "no LLVM target for the host: " + error);
  // A baseline CPU, as a compiler's default: the object runs on any machine
  // of this architecture, not just the one that built it.
  const std::string cpu = llvm::Triple(triple).getArch() == llvm::Triple::x86_64 ? "x86-64" : "generic";
  static constexpr llvm::CodeGenOptLevel levels[] = {llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
                                                     llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, "", options, llvm::Reloc::PIC_, std::nullopt, levels[std::min(optLevel, 3u)]));
  if (!machine)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot create the host target " + triple);
  return machine;
}

llvm::Expected<std::string> emitObject(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::SmallString<0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, os, nullptr, llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the host target cannot emit objects");
  passes.run(module);
  return std::string(object.str());
}

} // namespace pyk::llvmgen
