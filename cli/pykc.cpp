//===- pykc.cpp - The pyk compiler's command line -------------------------===//
//
// Reads the options and the input, runs the pipeline (Driver.h) on a roomy
// stack, prints diagnostics, writes the output, and decides the exit code:
// 0 success, 1 errors in the program (or diagnostics that differ from the
// expected ones under --verify-diagnostics), 2 usage or I/O errors, 3 an
// internal compiler error.
//
//===----------------------------------------------------------------------===//
#include "DiagnosticVerifier.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "Lower.h"
#include "NVPTXTarget.h"
#include "OutputFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <optional>
#include <string>

namespace {

using pyk::driver::EmitKind;

enum ExitCode { Success = 0, CompileError = 1, UsageError = 2, InternalError = 3 };

llvm::cl::OptionCategory pykCategory("pykc options");

llvm::cl::opt<std::string> inputFile(llvm::cl::Positional, llvm::cl::desc("<input .pyk file, or - for stdin>"),
                                     llvm::cl::Required, llvm::cl::cat(pykCategory));

llvm::cl::opt<EmitKind>
    emitKind("emit", llvm::cl::desc("What to produce"), llvm::cl::init(EmitKind::Cuda),
             llvm::cl::values(clEnumValN(EmitKind::Tokens, "tokens", "the token stream"),
                              clEnumValN(EmitKind::Ast, "ast", "the syntax tree, as parsed"),
                              clEnumValN(EmitKind::Ir, "ir", "pyk's typed kernel IR"),
                              clEnumValN(EmitKind::Cuda, "cuda", "CUDA C++ source (.cu) (default)"),
                              clEnumValN(EmitKind::Llvm, "llvm", "optimised LLVM IR for NVPTX"),
                              clEnumValN(EmitKind::Ptx, "ptx", "PTX assembly, through LLVM's NVPTX backend"),
                              clEnumValN(EmitKind::Cubin, "cubin", "a cubin, assembled by the CUDA toolkit's ptxas"),
                              clEnumValN(EmitKind::Host, "host",
                                         "C++ launch functions: NAME.pyk.h, NAME.pyk.cpp (PTX embedded) and "
                                         "NAME.pyk.cpu.o (the CPU device's code), written into the -o directory")),
             llvm::cl::cat(pykCategory));

llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("Write the output to <file> (default: standard output)"),
                                      llvm::cl::value_desc("file"), llvm::cl::init("-"), llvm::cl::cat(pykCategory));

llvm::cl::opt<std::string> depFile("depfile",
                                   llvm::cl::desc("Also write a Makefile rule naming the files the output depends "
                                                  "on: the input and every file it imports (for CMake's DEPFILE)"),
                                   llvm::cl::value_desc("file"), llvm::cl::cat(pykCategory));

llvm::cl::opt<std::string> arch("arch",
                                llvm::cl::desc("GPU architecture for llvm/ptx/cubin: sm_75, sm_80 "
                                               "(default), sm_86, sm_89, sm_90"),
                                llvm::cl::value_desc("sm_XX"), llvm::cl::cat(pykCategory));

llvm::cl::opt<unsigned> optLevel("O", llvm::cl::desc("LLVM optimisation level 0-3 (default 3)"), llvm::cl::Prefix,
                                 llvm::cl::init(3), llvm::cl::cat(pykCategory));

llvm::cl::opt<bool> lineInfo("lineinfo", llvm::cl::desc("Put .pyk line information (.file/.loc) into the PTX"),
                             llvm::cl::cat(pykCategory));

llvm::cl::opt<bool> fmad("fmad",
                         llvm::cl::desc("Contract a float multiply and add into one fused multiply-add in the PTX, as "
                                        "nvcc does (default true; --fmad=false rounds each on its own)"),
                         llvm::cl::init(true), llvm::cl::cat(pykCategory));

llvm::cl::opt<unsigned> indexBits(
    "index-bits",
    llvm::cl::desc("Width of the arithmetic that turns array indices into element offsets: 64 (default) or 32, "
                   "which is faster on a GPU; with 32 each launch checks that every array argument has fewer "
                   "than 2^31 elements"),
    llvm::cl::value_desc("32|64"), llvm::cl::init(64), llvm::cl::cat(pykCategory));

llvm::cl::opt<bool> checked("checked",
                            llvm::cl::desc("Checked mode for every kernel: array indices, integer division and "
                                           "asserts are checked at run time (as debug=True does for one kernel)"),
                            llvm::cl::cat(pykCategory));

llvm::cl::opt<bool> remarks("remarks",
                            llvm::cl::desc("Say, for every array access of a checked kernel, whether its bounds "
                                           "check was kept or proven unnecessary, and why"),
                            llvm::cl::cat(pykCategory));

llvm::cl::list<std::string> cubinArchs(
    "cubin",
    llvm::cl::desc("With --emit=host: also embed a cubin for each of these architectures (comma-separated, e.g. "
                   "sm_80,sm_90), assembled by the toolkit's ptxas, so that those GPUs load the kernels without "
                   "compiling the PTX"),
    llvm::cl::value_desc("sm_XX,..."), llvm::cl::CommaSeparated, llvm::cl::cat(pykCategory));

llvm::cl::list<std::string> linkFiles(
    "link",
    llvm::cl::desc("Link these CUDA C++ files, which define the functions the .pyk file declares with "
                   "cuda.declare_device, besides those its link= options name (comma-separated)"),
    llvm::cl::value_desc("file,..."), llvm::cl::CommaSeparated, llvm::cl::cat(pykCategory));

llvm::cl::opt<std::string> embedPtx("embed-ptx",
                                    llvm::cl::desc("With --emit=host: embed the PTX in <file> (e.g. nvcc's, from the "
                                                   "CUDA C++ backend) instead of compiling the kernels with LLVM"),
                                    llvm::cl::value_desc("file"), llvm::cl::cat(pykCategory));

llvm::cl::opt<pyk::driver::CpuDeviceCode> cpuDeviceCode(
    "cpu-device-code",
    llvm::cl::desc("With --emit=host: what the CPU device runs (default llvm)"),
    llvm::cl::values(clEnumValN(pyk::driver::CpuDeviceCode::Llvm, "llvm",
                                "the LLVM backend's code, as an object (NAME.pyk.cpu.o)"),
                     clEnumValN(pyk::driver::CpuDeviceCode::Cuda, "cuda",
                                "the CUDA C++ backend's code (NAME.pyk.cu), compiled by the host's C++ compiler "
                                "from NAME.pyk.cpu.cpp against pyk/CudaOnCpu.h")),
    llvm::cl::init(pyk::driver::CpuDeviceCode::Llvm), llvm::cl::cat(pykCategory));

llvm::cl::list<std::string> printIrAfter(
    "print-ir-after",
    llvm::cl::desc("Print the IR to stderr after the IR pass NAME (comma-separated, repeatable), or after every "
                   "one (all); --print-ir-after=help lists the passes in order"),
    llvm::cl::value_desc("NAME|all"), llvm::cl::CommaSeparated, llvm::cl::cat(pykCategory));

llvm::cl::opt<bool> verifyMode("verify-diagnostics",
                               llvm::cl::desc("Check the diagnostics against '# expected-error {{...}}' comments "
                                              "in the input instead of printing them"),
                               llvm::cl::cat(pykCategory));

llvm::cl::opt<bool> noLineDirectives("no-line-directives",
                                     llvm::cl::desc("Leave out the #line directives in --emit=cuda output"),
                                     llvm::cl::cat(pykCategory));

llvm::cl::list<std::string> signatures(
    "signature",
    llvm::cl::desc("A type signature for kernel NAME, in any form @cuda.jit takes: for a lazily typed kernel "
                   "(plain @cuda.jit), or one more version of a typed one (repeatable; one overload of the launch "
                   "function per signature)"),
    llvm::cl::value_desc("NAME=SIGNATURE"), llvm::cl::cat(pykCategory));

/// Reads the input, or reports why not (exit code 2).
std::optional<pyk::SourceFile> readInput(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    llvm::WithColor::error(llvm::errs(), "pykc")
        << "cannot read '" << path << "': " << buffer.getError().message() << "\n";
    return std::nullopt;
  }
  return pyk::SourceFile(path == "-" ? "<stdin>" : path, (*buffer)->getBuffer().str());
}

/// `--depfile`: `OUTPUT: INPUT IMPORTED... LINKED...`, where OUTPUT is the
/// first file written (NAME.pyk.h for --emit=host), so that a build reruns
/// pykc when a file the kernels import or link (`link=`) changes.
bool writeDepFile(const pyk::driver::Result &result) {
  auto escaped = [](const std::string &path) {
    std::string text;
    for (char c : path) {
      if (c == ' ' || c == '#')
        text += '\\';
      if (c == '$')
        text += '$';
      text += c;
    }
    return text;
  };
  std::string target = outputFile;
  if (emitKind == EmitKind::Host && !result.files.empty()) {
    llvm::SmallString<256> first(outputFile.getValue());
    llvm::sys::path::append(first, result.files.front().first);
    target = std::string(first);
  }
  std::string rule = escaped(target) + ":";
  if (inputFile != "-")
    rule += " " + escaped(inputFile);
  if (result.imports)
    for (const std::string &path : result.imports->paths)
      rule += " " + escaped(path);
  for (const std::string &path : result.linkFiles)
    rule += " " + escaped(path);
  rule += "\n";
  return pyk::cli::writeOutputFile(depFile, rule, /*isText=*/true, llvm::errs());
}

/// The tag of this compilation's host symbols (ir::Module::unitId): a hash
/// of the file's absolute path (its text, for standard input) and of the
/// options that change its code. Two files with a kernel of the same name,
/// or one file compiled two ways, linked into one program then each run
/// their own code; a body-only edit keeps the tag, so the header does not
/// change.
std::string unitIdentity(const pyk::SourceFile &file, const pyk::driver::Options &options) {
  std::string key;
  if (inputFile == "-") {
    key = "stdin:" + file.text();
  } else {
    llvm::SmallString<256> path(inputFile.getValue());
    if (llvm::sys::fs::real_path(inputFile.getValue(), path))
      llvm::sys::fs::make_absolute(path);
    key = path.str().str();
  }
  key += '\0';
  key += options.checked ? "checked;" : "";
  key += options.narrowIndices ? "index-bits=32;" : "";
  key += options.fuseMultiplyAdd ? "" : "fmad=false;";
  key += options.embeddedPtx ? "embedded-ptx;" : "";
  key += options.cpuDeviceCode == pyk::driver::CpuDeviceCode::Cuda ? "cpu-device-code=cuda;" : "";
  for (const auto &[kernel, texts] : options.sema.signatures)
    for (const std::string &text : texts)
      key += "signature=" + kernel + "=" + text + ";";
  return llvm::utohexstr(llvm::xxh3_64bits(llvm::StringRef(key)), /*LowerCase=*/true, /*Width=*/16);
}

void printTimes(const pyk::driver::StageTimes &times) {
  double total = 0;
  llvm::errs() << "===-------------------------------------------===\n"
               << "  pykc: time per stage (ms)\n"
               << "===-------------------------------------------===\n";
  for (const auto &[stage, ms] : times) {
    llvm::errs() << llvm::format("  %-34s %9.3f\n", stage.c_str(), ms);
    total += ms;
  }
  llvm::errs() << llvm::format("  %-34s %9.3f\n", static_cast<const char *>("total (after start-up)"), total);
}

} // namespace

/// LLVM owns a --time-passes option (it times LLVM's own passes too); pyk
/// shows it among its options and adds its per-stage table.
void adoptTimePassesOption() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find("time-passes");
  if (found == options.end())
    return;
  found->second->addCategory(pykCategory);
  found->second->setDescription("Print the time spent in each stage (and in LLVM's passes) to stderr");
}

int main(int argc, char **argv) {
  adoptTimePassesOption();
  llvm::cl::HideUnrelatedOptions(pykCategory);
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) { os << "pykc " << PYK_VERSION << "\n"; });
  if (!llvm::cl::ParseCommandLineOptions(argc, argv,
                                         "pykc: compiles .pyk GPU kernels (typed Python, Numba-CUDA spelling) "
                                         "to CUDA C++ and PTX\n",
                                         &llvm::errs()))
    return UsageError;
  if (indexBits != 32 && indexBits != 64) {
    llvm::WithColor::error(llvm::errs(), "pykc") << "--index-bits=" << indexBits << ": the index width is 32 or 64\n";
    return UsageError;
  }
  if (optLevel > 3) {
    llvm::WithColor::error(llvm::errs(), "pykc") << "-O" << optLevel << " is not an optimisation level (0-3)\n";
    return UsageError;
  }

  const std::vector<std::string> passes = pyk::ir::passNames();
  for (const std::string &named : printIrAfter) {
    if (named == "all" || std::find(passes.begin(), passes.end(), named) != passes.end())
      continue;
    auto &os = named == "help" ? llvm::outs() << "the IR passes, in order:"
                               : llvm::WithColor::error(llvm::errs(), "pykc")
                                     << "--print-ir-after: no IR pass is named '" << named
                                     << "'; the passes, in order:";
    for (const std::string &pass : passes)
      os << " " << pass;
    os << " (or all)\n";
    return named == "help" ? Success : UsageError;
  }

  std::vector<std::string> architectures(cubinArchs.begin(), cubinArchs.end());
  if (!arch.empty())
    architectures.push_back(arch);
  for (const std::string &named : architectures) {
    const auto &supported = pyk::llvmgen::supportedArchitectures();
    if (std::find(supported.begin(), supported.end(), named) == supported.end()) {
      auto &os = llvm::WithColor::error(llvm::errs(), "pykc")
                 << "unknown GPU architecture '" << named << "'; supported:";
      for (const std::string &known : supported)
        os << " " << known;
      os << "\n";
      return UsageError;
    }
  }
  if (!cubinArchs.empty() && emitKind != EmitKind::Host) {
    llvm::WithColor::error(llvm::errs(), "pykc")
        << "--cubin embeds cubins in the launch code: use it with --emit=host\n";
    return UsageError;
  }

  if (cpuDeviceCode.getNumOccurrences() && emitKind != EmitKind::Host) {
    llvm::WithColor::error(llvm::errs(), "pykc")
        << "--cpu-device-code chooses the CPU device's code among the launch files: use it with --emit=host\n";
    return UsageError;
  }

  if (emitKind == EmitKind::Host && outputFile == "-") {
    llvm::WithColor::error(llvm::errs(), "pykc") << "--emit=host writes several files: give a directory with -o\n";
    return UsageError;
  }

  std::optional<pyk::SourceFile> file = readInput(inputFile);
  if (!file)
    return UsageError;

  pyk::driver::Options options;
  if (!embedPtx.empty()) {
    auto ptx = llvm::MemoryBuffer::getFile(embedPtx, /*IsText=*/true);
    if (!ptx) {
      llvm::WithColor::error(llvm::errs(), "pykc")
          << "cannot read '" << embedPtx << "': " << ptx.getError().message() << "\n";
      return UsageError;
    }
    options.embeddedPtx = (*ptx)->getBuffer().str();
  }
  options.emit = emitKind;
  options.arch = arch;
  options.optLevel = optLevel;
  options.lineInfo = lineInfo;
  options.fuseMultiplyAdd = fmad;
  options.narrowIndices = indexBits == 32;
  options.lineDirectives = !noLineDirectives;
  options.checked = checked;
  options.cubinArchs.assign(cubinArchs.begin(), cubinArchs.end());
  options.linkFiles.assign(linkFiles.begin(), linkFiles.end());
  options.cpuDeviceCode = cpuDeviceCode;
  options.remarks = remarks;
  options.printIrAfter.assign(printIrAfter.begin(), printIrAfter.end());
  for (const std::string &given : signatures) {
    const size_t equals = given.find('=');
    const std::string name = llvm::StringRef(given.substr(0, equals)).trim().str();
    if (equals == std::string::npos || name.empty() || llvm::StringRef(given.substr(equals + 1)).trim().empty()) {
      llvm::WithColor::error(llvm::errs(), "pykc") << "--signature '" << given
                                                   << "': write NAME=SIGNATURE, as in --signature "
                                                      "'scale=void(float32[:], float32)'\n";
      return UsageError;
    }
    options.sema.signatures[name].push_back(given.substr(equals + 1));
  }
  options.compilerVersion = PYK_VERSION;
  options.baseName = llvm::sys::path::stem(inputFile == "-" ? "stdin.pyk" : inputFile.getValue()).str();
  options.unitId = unitIdentity(*file, options);

  pyk::DiagnosticEngine diags(*file);
  pyk::driver::Result result;
  // The pipeline's walks are recursive; the frontend bounds their depth, and
  // a roomy stack keeps those bounds far from the limit.
  constexpr unsigned compilerStackBytes = 256u << 20;
  llvm::thread compiler(std::optional<unsigned>(compilerStackBytes),
                        [&] { result = pyk::driver::compile(*file, options, diags); });
  compiler.join();

  if (pyk::llvmgen::timePassesEnabled())
    printTimes(result.times);
  llvm::errs() << result.irDumps;
  if (result.status == pyk::driver::Status::InternalError) {
    pyk::printDiagnostics(llvm::errs(), diags);
    llvm::WithColor::error(llvm::errs(), "pykc") << "internal compiler error: " << result.internalError << "\n";
    return InternalError;
  }
  if (verifyMode)
    return pyk::verifyDiagnostics(*file, diags.diagnostics(), llvm::errs()) ? Success : CompileError;

  pyk::printDiagnostics(llvm::errs(), diags);
  if (result.status != pyk::driver::Status::Success || diags.hasErrors())
    return CompileError;
  if (!depFile.empty() && !writeDepFile(result))
    return UsageError;
  if (emitKind == EmitKind::Host)
    return pyk::cli::writeOutputFiles(outputFile, result.files, llvm::errs()) ? Success : UsageError;
  const bool isText = emitKind != EmitKind::Cubin;
  return pyk::cli::writeOutputFile(outputFile, result.output, isText, llvm::errs()) ? Success : UsageError;
}
