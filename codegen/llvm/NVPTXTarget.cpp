//===- NVPTXTarget.cpp - Optimise LLVM IR and emit PTX ---------------------===//
#include "NVPTXTarget.h"

#include "InlineSingleCalls.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/PassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace pyk::llvmgen {

static constexpr const char *targetTriple = "nvptx64-nvidia-cuda";

const std::vector<std::string> &supportedArchitectures() {
  static const std::vector<std::string> archs = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};
  return archs;
}

/// Shared, constant and local memory are far smaller than 4 GiB, so their
/// addresses and the index arithmetic into them fit 32 bits, as in nvcc's
/// code (clang's -fcuda-short-ptr): `ld.shared [%r]` with 32-bit adds rather
/// than 64-bit ones. NVPTX reads this option when a target machine is made,
/// and it sets the data layout to match.
static void useShortPointersForSmallAddressSpaces() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find("nvptx-short-ptr");
  if (found != options.end() && found->second->getNumOccurrences() == 0)
    found->second->addOccurrence(0, "nvptx-short-ptr", "true");
}

/// Registers the NVPTX target only: the other targets' start-up cost is
/// never paid.
static void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    useShortPointersForSmallAddressSpaces();
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createNVPTXTargetMachine(const std::string &arch,
                                                                              unsigned optLevel, bool fuseMultiplyAdd) {
  const auto &archs = supportedArchitectures();
  if (std::find(archs.begin(), archs.end(), arch) == archs.end()) {
    std::string list;
    for (const std::string &a : archs)
      list += (list.empty() ? "" : ", ") + a;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unsupported GPU architecture '" + arch + "' (supported: " + list + ")");
  }
  initializeNVPTX();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(targetTriple, error);
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "NVPTX target unavailable: " + error);
  static constexpr llvm::CodeGenOptLevel levels[] = {llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
                                                     llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  llvm::TargetOptions options;
  // What nvcc's --fmad=true and Numba do: a multiply feeding an add becomes
  // one fma (and the remaining mul/add lose their .rn, so ptxas may fuse
  // them too). Without it NVPTX keeps every product rounded on its own.
  options.AllowFPOpFusion = fuseMultiplyAdd ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      targetTriple, arch, "", options, std::nullopt, std::nullopt, levels[std::min(optLevel, 3u)]));
  if (!machine)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot create the NVPTX target for " + arch);
  return machine;
}

void prepareModule(llvm::Module &module, llvm::TargetMachine &machine) {
  module.setTargetTriple(machine.getTargetTriple().str());
  module.setDataLayout(machine.createDataLayout());
}

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  static const llvm::OptimizationLevel levels[] = {llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
                                                   llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  const llvm::OptimizationLevel level = levels[std::min(optLevel, 3u)];
  if (level == llvm::OptimizationLevel::O0) {
    builder.buildO0DefaultPipeline(level).run(module, modules);
    return;
  }
  inlineSingleCalls(module);
  llvm::ModulePassManager passes = builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, modules);
}

bool timePassesEnabled() {
  return llvm::TimePassesIsEnabled;
}

llvm::Expected<std::string> emitPTX(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the NVPTX target cannot emit PTX");
  passes.run(module);
  return std::string(ptx.str());
}

} // namespace pyk::llvmgen
