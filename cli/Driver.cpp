//===- Driver.cpp - The compiler pipeline, stage by stage -----------------===//
#include "Driver.h"

#include "ASTDumper.h"
#include "CpuDeviceTarget.h"
#include "CudaEmitter.h"
#include "CudaOnCpu.h"
#include "IRPrinter.h"
#include "LLVMEmitter.h"
#include "LaunchEmitter.h"
#include "Libdevice.h"
#include "Lower.h"
#include "NVPTXTarget.h"
#include "Parser.h"
#include "CudaToolkit.h"
#include "Sema.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

namespace pyk::driver {
namespace {

/// Times one stage into `times` from construction to destruction.
class StageTimer {
public:
  StageTimer(StageTimes &times, std::string name)
      : times_(times), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}
  ~StageTimer() {
    std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start_;
    times_.emplace_back(std::move(name_), elapsed.count());
  }
  StageTimer(const StageTimer &) = delete;
  StageTimer &operator=(const StageTimer &) = delete;

private:
  StageTimes &times_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
};

/// Runs `stage` and records its wall time as `name`.
template <typename Stage> auto timed(StageTimes &times, std::string name, Stage stage) {
  StageTimer timer(times, std::move(name));
  return stage();
}

Result internalError(Result result, std::string what) {
  result.status = Status::InternalError;
  result.internalError = std::move(what);
  return result;
}

/// A module's LLVM IR for one target, and the target.
struct TargetModule {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<llvm::Module> module;
};

/// The LLVM steps every target takes, in one place: the target machine,
/// the module emitted from the IR and verified, libdevice where the GPU
/// code calls it, then LLVM's optimisation (left out with `optimize`
/// false: pykc --emit=llvm -O0 shows the IR as emitted). Null (a
/// diagnostic or an internal error recorded in `result`) when one fails.
/// `what` names the target in the stage times ("" for the GPU).
std::optional<TargetModule> targetModule(const ir::Module &module, const Options &options,
                                         llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine,
                                         llvm::LLVMContext &context, llvmgen::LLVMTarget target, bool optimize,
                                         DiagnosticEngine &diags, Result &result) {
  const std::string what = target == llvmgen::LLVMTarget::NVPTX ? "" : " (CPU device)";
  if (!machine) {
    diags.error(SourceRange()) << llvm::toString(machine.takeError());
    result.status = Status::CompileError;
    return std::nullopt;
  }
  std::unique_ptr<llvm::Module> llvmModule = timed(result.times, "LLVM IR generation" + what, [&] {
    llvmgen::LLVMEmitOptions llvmOptions;
    llvmOptions.target = target;
    llvmOptions.lineInfo = options.lineInfo && target == llvmgen::LLVMTarget::NVPTX;
    std::unique_ptr<llvm::Module> emitted = llvmgen::emitLLVMModule(module, context, llvmOptions);
    llvmgen::prepareModule(*emitted, **machine);
    return emitted;
  });
  std::string verifierMessage;
  llvm::raw_string_ostream verifierStream(verifierMessage);
  if (llvm::verifyModule(*llvmModule, &verifierStream)) {
    result = internalError(std::move(result), "the generated LLVM IR" + what + " is invalid:\n" + verifierMessage);
    return std::nullopt;
  }
  if (!optimize)
    return TargetModule{std::move(*machine), std::move(llvmModule)};
  if (target == llvmgen::LLVMTarget::NVPTX && llvmgen::needsLibdevice(*llvmModule)) {
    StageTimer timer(result.times, "libdevice linking");
    if (llvm::Error error = llvmgen::linkLibdevice(*llvmModule, llvmgen::defaultLibdevicePath(), false)) {
      diags.error(SourceRange()) << llvm::toString(std::move(error));
      result.status = Status::CompileError;
      return std::nullopt;
    }
  }
  {
    StageTimer timer(result.times, "LLVM optimisation (O" + std::to_string(options.optLevel) + ")" + what);
    llvmgen::optimizeModule(*llvmModule, **machine, options.optLevel);
  }
  return TargetModule{std::move(*machine), std::move(llvmModule)};
}

/// The module's CUDA C++ (NAME.pyk.cu).
std::string cudaSource(const ir::Module &module, const Options &options) {
  cuda::CudaEmitOptions cudaOptions;
  cudaOptions.compilerVersion = options.compilerVersion;
  cudaOptions.lineDirectives = options.lineDirectives;
  std::string text;
  llvm::raw_string_ostream os(text);
  cuda::emitCuda(module, cudaOptions, os);
  return text;
}

/// The module's LLVM IR for the GPU architecture `arch`.
std::optional<TargetModule> gpuModule(const ir::Module &module, const Options &options, const std::string &arch,
                                      llvm::LLVMContext &context, bool optimize, DiagnosticEngine &diags,
                                      Result &result) {
  auto machine = timed(result.times, "NVPTX target set-up", [&] {
    return llvmgen::createNVPTXTargetMachine(arch, options.optLevel, options.fuseMultiplyAdd);
  });
  return targetModule(module, options, std::move(machine), context, llvmgen::LLVMTarget::NVPTX, optimize, diags,
                      result);
}

/// The module's PTX for `arch`, or null (recorded in `result`).
std::optional<std::string> ptxFor(const ir::Module &module, const Options &options, const std::string &arch,
                                  DiagnosticEngine &diags, Result &result) {
  llvm::LLVMContext context;
  std::optional<TargetModule> gpu = gpuModule(module, options, arch, context, true, diags, result);
  if (!gpu)
    return std::nullopt;
  llvm::Expected<std::string> ptx =
      timed(result.times, "PTX emission", [&] { return llvmgen::emitPTX(*gpu->module, *gpu->machine); });
  if (!ptx) {
    result = internalError(std::move(result), llvm::toString(ptx.takeError()));
    return std::nullopt;
  }
  return std::move(*ptx);
}

using FileList = std::vector<std::pair<std::string, std::string>>;

/// The CPU device's code for `module`, added to `files`: NAME.pyk.cpu.o
/// from the LLVM backend, or NAME.pyk.cu and NAME.pyk.cpu.cpp (the CUDA
/// C++ for the host); false after an error, recorded in `result`.
bool emitCpuDeviceCode(const ir::Module &module, const Options &options, DiagnosticEngine &diags, Result &result,
                       FileList &files) {
  if (options.cpuDeviceCode == CpuDeviceCode::Cuda) {
    StageTimer timer(result.times, "CUDA C++ emission (CPU device)");
    const std::string cudaFile = options.baseName + ".pyk.cu";
    files.emplace_back(cudaFile, cudaSource(module, options));
    files.emplace_back(options.baseName + ".pyk.cpu.cpp",
                       cuda::emitCudaOnCpu(module, cudaFile, options.compilerVersion));
    return true;
  }
  auto machine = timed(result.times, "CPU device target set-up",
                       [&] { return llvmgen::createCpuDeviceTargetMachine(options.optLevel); });
  llvm::LLVMContext context;
  std::optional<TargetModule> cpu =
      targetModule(module, options, std::move(machine), context, llvmgen::LLVMTarget::CpuDevice, true, diags, result);
  if (!cpu)
    return false;
  llvm::Expected<std::string> object = timed(result.times, "object emission (CPU device)",
                                             [&] { return llvmgen::emitObject(*cpu->module, *cpu->machine); });
  if (!object) {
    result = internalError(std::move(result), llvm::toString(object.takeError()));
    return false;
  }
  files.emplace_back(options.baseName + ".pyk.cpu.o", std::move(*object));
  return true;
}

/// The files `link=` names, each relative to the .pyk file's directory
/// (or absolute), then those of --link, as absolute paths, each once;
/// false after reporting one that does not exist.
bool findLinkFiles(const ModuleInfo &info, const SourceFile &file, const Options &options, DiagnosticEngine &diags,
                   std::vector<std::string> &found) {
  llvm::SmallString<256> directory(file.name());
  llvm::sys::fs::make_absolute(directory);
  llvm::sys::path::remove_filename(directory);
  bool ok = true;
  for (const auto &[name, range] : info.linkFiles) {
    llvm::SmallString<256> path(name);
    if (!llvm::sys::path::is_absolute(path)) {
      path = directory;
      llvm::sys::path::append(path, name);
    }
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    if (!llvm::sys::fs::is_regular_file(path)) {
      diags.error(range) << "cannot find the file to link, '" << name << "' (looked for " << path.str()
                         << "; a path is relative to the .pyk file)";
      ok = false;
      continue;
    }
    if (std::find(found.begin(), found.end(), std::string(path)) == found.end())
      found.push_back(std::string(path));
  }
  for (const std::string &name : options.linkFiles) {
    llvm::SmallString<256> path(name);
    llvm::sys::fs::make_absolute(path);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    if (!llvm::sys::fs::is_regular_file(path)) {
      diags.error(SourceRange()) << "cannot find the file to link, '" << name << "' (--link)";
      ok = false;
    } else if (std::find(found.begin(), found.end(), std::string(path)) == found.end()) {
      found.push_back(std::string(path));
    }
  }
  return ok;
}

/// The CUDA C++ files the kernels link, compiled by nvcc to PTX once for
/// each architecture that needs them (the embedded PTX's, each cubin's).
class LinkedCuda {
public:
  LinkedCuda(const ir::Module &module, DiagnosticEngine &diags, Result &result)
      : module_(module), diags_(diags), result_(result) {}

  /// Each linked file's PTX for `arch`, in module.linkFiles' order; null
  /// after an error, recorded in the result.
  const std::vector<std::string> *ptxFor(const std::string &arch) {
    if (auto it = byArch_.find(arch); it != byArch_.end())
      return &it->second;
    std::vector<std::string> compiled;
    for (const std::string &path : module_.linkFiles) {
      llvm::Expected<std::string> ptx =
          timed(result_.times, "nvcc (" + llvm::sys::path::filename(path).str() + ", " + arch + ")",
                [&] { return llvmgen::compileCudaToPtx(path, arch); });
      if (!ptx) {
        diags_.error(SourceRange()) << llvm::toString(ptx.takeError());
        result_.status = Status::CompileError;
        return nullptr;
      }
      compiled.push_back(std::move(*ptx));
    }
    return &(byArch_[arch] = std::move(compiled));
  }

private:
  const ir::Module &module_;
  DiagnosticEngine &diags_;
  Result &result_;
  std::map<std::string, std::vector<std::string>> byArch_;
};

/// `ptx`, the kernels' PTX for `arch`, as a cubin a GPU loads: assembled
/// by ptxas and, when the kernels call declared CUDA C++ functions, linked
/// by nvlink with the linked files that define them. Null after an error,
/// recorded in `result`.
std::optional<std::string> cubinFor(const ir::Module &module, const std::string &ptx, const std::string &arch,
                                    LinkedCuda &linked, DiagnosticEngine &diags, Result &result) {
  auto failed = [&](llvm::Error error) -> std::optional<std::string> {
    diags.error(SourceRange()) << llvm::toString(std::move(error));
    result.status = Status::CompileError;
    return std::nullopt;
  };
  const bool callsCuda = !module.foreignFunctions.empty();
  const std::string kernelsName = llvm::sys::path::filename(module.sourceName).str();
  llvm::Expected<std::string> kernels = timed(result.times, "ptxas (" + arch + ")", [&] {
    return llvmgen::assembleCubin(ptx, arch, callsCuda, kernelsName);
  });
  if (!kernels)
    return failed(kernels.takeError());
  if (!callsCuda)
    return std::move(*kernels);
  const std::vector<std::string> *cudaPtx = linked.ptxFor(arch);
  if (!cudaPtx)
    return std::nullopt;
  std::vector<std::pair<std::string, std::string>> objects = {{kernelsName + ".o", std::move(*kernels)}};
  for (std::size_t i = 0; i < cudaPtx->size(); ++i) {
    const std::string fileName = llvm::sys::path::filename(module.linkFiles[i]).str();
    llvm::Expected<std::string> object = timed(result.times, "ptxas (" + fileName + ", " + arch + ")", [&] {
      return llvmgen::assembleCubin((*cudaPtx)[i], arch, true, fileName);
    });
    if (!object)
      return failed(object.takeError());
    objects.emplace_back(fileName + ".o", std::move(*object));
  }
  llvm::Expected<std::string> cubin =
      timed(result.times, "nvlink (" + arch + ")", [&] { return llvmgen::linkCubins(objects, arch); });
  if (!cubin)
    return failed(cubin.takeError());
  return std::move(*cubin);
}

/// False, after an error at the first declared CUDA C++ function, when the
/// kernels call some and link no file: no GPU could run them.
bool linksWhatItCalls(const ir::Module &module, DiagnosticEngine &diags, Result &result) {
  if (module.foreignFunctions.empty() || !module.linkFiles.empty())
    return true;
  const ir::ForeignFunction &first = *module.foreignFunctions.front();
  diags.error(first.loc) << "'" << first.name
                         << "' is a declared CUDA C++ function, but no file is linked to define it: name its .cu file "
                            "with link=[\"...\"] (or pyk_add_kernels LINK, pykc --link)";
  result.status = Status::CompileError;
  return false;
}

/// NAME.pyk.h, NAME.pyk.cpp (with `ptx` embedded, with the PTX of the
/// CUDA C++ files the kernels link, and a cubin for each architecture of
/// options.cubinArchs) and the CPU device's code, from the same IR.
Result emitLaunchFiles(const ir::Module &module, const Options &options, DiagnosticEngine &diags, std::string ptx,
                       Result result) {
  FileList cpuFiles;
  if (!emitCpuDeviceCode(module, options, diags, result, cpuFiles))
    return result;

  launch::LaunchEmitOptions launchOptions;
  // The embedded PTX is for the first architecture (or nvcc's); each
  // other one gets PTX of its own, which ptxas assembles.
  const std::string embeddedArch = options.arch.empty() ? llvmgen::defaultArchitecture : options.arch;
  LinkedCuda linked(module, diags, result);
  for (const std::string &cubinArch : options.cubinArchs) {
    std::optional<std::string> archPtx;
    if (options.embeddedPtx || cubinArch == embeddedArch)
      archPtx = ptx;
    else if (!(archPtx = ptxFor(module, options, cubinArch, diags, result)))
      return result;
    std::optional<std::string> cubin = cubinFor(module, *archPtx, cubinArch, linked, diags, result);
    if (!cubin)
      return result;
    launchOptions.cubins.emplace_back(cubinArch, std::move(*cubin));
  }
  // Linked once when no cubin is, so that a function no linked file
  // defines is an error here, not at the program's first launch.
  if (!module.foreignFunctions.empty() && options.cubinArchs.empty() &&
      !cubinFor(module, ptx, embeddedArch, linked, diags, result))
    return result;
  if (!module.foreignFunctions.empty()) {
    // A GPU without a cubin links the kernels' PTX with these when it
    // loads them.
    const std::vector<std::string> *linkedPtx = linked.ptxFor(embeddedArch);
    if (!linkedPtx)
      return result;
    for (std::size_t i = 0; i < linkedPtx->size(); ++i)
      launchOptions.linkedPtx.emplace_back(module.linkFiles[i], (*linkedPtx)[i]);
  }
  launchOptions.baseName = options.baseName;
  launchOptions.ptx = std::move(ptx);
  launchOptions.compilerVersion = options.compilerVersion;
  launchOptions.cpuDeviceFile =
      options.baseName + (options.cpuDeviceCode == CpuDeviceCode::Cuda ? ".pyk.cpu.cpp" : ".pyk.cpu.o");
  launch::LaunchFiles files =
      timed(result.times, "launch functions", [&] { return launch::emitLaunchCode(module, launchOptions); });
  result.files.emplace_back(options.baseName + ".pyk.h", std::move(files.header));
  result.files.emplace_back(options.baseName + ".pyk.cpp", std::move(files.source));
  for (auto &file : cpuFiles)
    result.files.push_back(std::move(file));
  result.files.emplace_back(options.baseName + ".pyk.link.cpp",
                            cuda::emitLinkedFilesOnCpu(module, options.compilerVersion));
  return result;
}

/// The GPU backends after the IR: CUDA C++, or LLVM IR / PTX / cubin.
Result emitBackend(const ir::Module &module, const Options &options, DiagnosticEngine &diags, Result result) {
  llvm::raw_string_ostream out(result.output);
  if ((options.emit == EmitKind::Host || options.emit == EmitKind::Cubin) &&
      !linksWhatItCalls(module, diags, result))
    return result;
  if (options.emit == EmitKind::Host && options.embeddedPtx)
    return emitLaunchFiles(module, options, diags, *options.embeddedPtx, std::move(result));
  if (options.emit == EmitKind::Cuda) {
    {
      // Its own scope: the time is recorded before `result` is returned.
      StageTimer timer(result.times, "CUDA C++ emission");
      out << cudaSource(module, options);
    }
    return result;
  }

  std::string arch = options.arch.empty() ? llvmgen::defaultArchitecture : options.arch;
  llvm::LLVMContext context;
  if (options.emit == EmitKind::Llvm) {
    // -O0: the LLVM IR as the emitter wrote it, before any LLVM pass.
    std::optional<TargetModule> gpu = gpuModule(module, options, arch, context, options.optLevel > 0, diags, result);
    if (gpu)
      gpu->module->print(out, nullptr);
    return result;
  }
  std::optional<std::string> ptx = ptxFor(module, options, arch, diags, result);
  if (!ptx)
    return result;
  if (options.emit == EmitKind::Ptx) {
    out << *ptx;
    return result;
  }
  if (options.emit == EmitKind::Host)
    return emitLaunchFiles(module, options, diags, std::move(*ptx), std::move(result));
  LinkedCuda linked(module, diags, result);
  if (std::optional<std::string> cubin = cubinFor(module, *ptx, arch, linked, diags, result))
    out << *cubin;
  return result;
}

} // namespace

Result compile(const SourceFile &file, const Options &options, DiagnosticEngine &diags) {
  Result result;
  auto failed = [&] {
    result.status = Status::CompileError;
    return std::move(result);
  };
  if (auto bad = file.firstInvalidUtf8()) {
    diags.error(SourceRange(file.locForOffset(*bad))) << "the file is not valid UTF-8 text";
    return failed();
  }
  llvm::raw_string_ostream out(result.output);
  if (options.emit == EmitKind::Tokens) {
    StageTimer timer(result.times, "lexing");
    if (!dumpTokens(file, diags, out))
      result.status = Status::CompileError;
    return result;
  }

  std::unique_ptr<ast::Module> module = timed(result.times, "parsing", [&] { return parseModule(file, diags); });
  if (!module)
    return failed();
  if (options.emit == EmitKind::Ast) {
    dumpAST(*module, out);
    return result;
  }
  result.imports = std::make_unique<ImportedFiles>();
  // After an error in an import Sema still checks this file, whose uses
  // of what could not be imported stay silent.
  resolveModuleImports(*module, file, diags, *result.imports);

  std::unique_ptr<ModuleInfo> info =
      timed(result.times, "semantic analysis", [&] { return checkModule(*module, diags, options.sema); });
  if (diags.hasErrors())
    return failed();

  ir::LowerOptions lowerOptions;
  lowerOptions.checkEveryKernel = options.checked;
  lowerOptions.remarks = options.remarks;
  lowerOptions.narrowIndices = options.narrowIndices;
  if (!options.printIrAfter.empty())
    lowerOptions.afterPass = [&](std::string_view pass, const ir::Module &lowered) {
      const auto &wanted = options.printIrAfter;
      if (std::find(wanted.begin(), wanted.end(), "all") == wanted.end() &&
          std::find(wanted.begin(), wanted.end(), pass) == wanted.end())
        return;
      llvm::raw_string_ostream dump(result.irDumps);
      dump << "// --- IR after " << pass << " ---\n";
      ir::printModule(lowered, dump);
    };
  llvm::Expected<std::unique_ptr<ir::Module>> ir = timed(
      result.times, "IR lowering and passes", [&] { return ir::lowerAndOptimize(*info, file, diags, lowerOptions); });
  if (!ir)
    return internalError(std::move(result), llvm::toString(ir.takeError()));
  if (diags.hasErrors())
    return failed();
  for (const auto &imported : result.imports->files)
    (*ir)->importedSourceNames.push_back(imported->name());
  if (!findLinkFiles(*info, file, options, diags, result.linkFiles))
    return failed();
  (*ir)->linkFiles = result.linkFiles;
  (*ir)->unitId = options.unitId;
  if (options.emit == EmitKind::Ir) {
    ir::printModule(**ir, out);
    return result;
  }
  return emitBackend(**ir, options, diags, std::move(result));
}

} // namespace pyk::driver
