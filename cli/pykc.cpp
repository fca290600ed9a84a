//===- pykc.cpp - The pyk compiler's command line -------------------------===//
//
// Runs the pipeline top to bottom, stopping at the stage --emit asks for:
//   read -> tokens | parse -> ast | check, lower -> ir | emit -> cuda
// and decides the exit code: 0 success, 1 errors in the program (or
// diagnostics that differ from the expected ones under
// --verify-diagnostics), 2 usage or I/O errors, 3 an internal compiler error.
//
//===----------------------------------------------------------------------===//
#include "ASTDumper.h"
#include "CudaEmitter.h"
#include "DiagnosticVerifier.h"
#include "Diagnostics.h"
#include "IRPrinter.h"
#include "Lower.h"
#include "Parser.h"
#include "Sema.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <optional>
#include <string>

namespace {

enum class EmitKind { Tokens, Ast, Ir, Cuda };

enum ExitCode { Success = 0, CompileError = 1, UsageError = 2, InternalError = 3 };

llvm::cl::OptionCategory pykCategory("pykc options");

llvm::cl::opt<std::string> inputFile(llvm::cl::Positional, llvm::cl::desc("<input .pyk file>"), llvm::cl::Required,
                                     llvm::cl::cat(pykCategory));

llvm::cl::opt<EmitKind> emitKind(
    "emit", llvm::cl::desc("What to produce"), llvm::cl::init(EmitKind::Cuda),
    llvm::cl::values(clEnumValN(EmitKind::Tokens, "tokens", "the token stream"),
                     clEnumValN(EmitKind::Ast, "ast", "the syntax tree, as parsed"),
                     clEnumValN(EmitKind::Ir, "ir", "pyk's typed kernel IR"),
                     clEnumValN(EmitKind::Cuda, "cuda", "CUDA C++ source (.cu) (default)")),
    llvm::cl::cat(pykCategory));

llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("Write the output to <file> (default: standard output)"),
                                      llvm::cl::value_desc("file"), llvm::cl::init("-"), llvm::cl::cat(pykCategory));

llvm::cl::opt<bool> verifyMode("verify-diagnostics",
                               llvm::cl::desc("Check the diagnostics against '# expected-error {{...}}' comments "
                                              "in the input instead of printing them"),
                               llvm::cl::cat(pykCategory));

llvm::cl::opt<bool> noLineDirectives("no-line-directives",
                                     llvm::cl::desc("Leave out the #line directives in --emit=cuda output"),
                                     llvm::cl::cat(pykCategory));

/// Reads the input, or reports why not (exit code 2).
std::optional<pyk::SourceFile> readInput(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    llvm::WithColor::error(llvm::errs(), "pykc") << "cannot read '" << path << "': " << buffer.getError().message()
                                                 << "\n";
    return std::nullopt;
  }
  return pyk::SourceFile(path == "-" ? "<stdin>" : path, (*buffer)->getBuffer().str());
}

/// Runs the pipeline up to `emitKind` into `out`. Returns false if the
/// program has errors (they are in `diags`).
bool compile(const pyk::SourceFile &file, pyk::DiagnosticEngine &diags, llvm::raw_ostream &out,
             ExitCode &internal) {
  if (auto bad = file.firstInvalidUtf8()) {
    diags.error(pyk::SourceRange(file.locForOffset(*bad))) << "the file is not valid UTF-8 text";
    return false;
  }
  if (emitKind == EmitKind::Tokens)
    return pyk::dumpTokens(file, diags, out);

  std::unique_ptr<pyk::ast::Module> module = pyk::parseModule(file, diags);
  if (!module)
    return false;
  if (emitKind == EmitKind::Ast) {
    pyk::dumpAST(*module, out);
    return true;
  }

  std::unique_ptr<pyk::ModuleInfo> info = pyk::checkModule(*module, diags);
  if (diags.hasErrors())
    return false;
  auto ir = pyk::ir::lowerAndOptimize(*info, file);
  if (!ir) {
    llvm::WithColor::error(llvm::errs(), "pykc") << "internal compiler error: " << llvm::toString(ir.takeError())
                                                 << "\n";
    internal = InternalError;
    return false;
  }
  if (emitKind == EmitKind::Ir) {
    pyk::ir::printModule(**ir, out);
    return true;
  }
  pyk::cuda::CudaEmitOptions options;
  options.compilerVersion = PYK_VERSION;
  options.lineDirectives = !noLineDirectives;
  pyk::cuda::emitCuda(**ir, options, out);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(pykCategory);
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) { os << "pykc " << PYK_VERSION << "\n"; });
  if (!llvm::cl::ParseCommandLineOptions(argc, argv,
                                         "pykc: compiles .pyk GPU kernels (typed Python, Numba-CUDA spelling) "
                                         "to CUDA C++\n",
                                         &llvm::errs()))
    return UsageError;

  std::optional<pyk::SourceFile> file = readInput(inputFile);
  if (!file)
    return UsageError;

  pyk::DiagnosticEngine diags(*file);
  std::string output;
  llvm::raw_string_ostream out(output);
  ExitCode internal = Success;
  bool ok = false;
  // The pipeline's walks are recursive; the frontend bounds their depth, and
  // a roomy stack makes sure those bounds are far from the limit.
  constexpr unsigned compilerStackBytes = 256u << 20;
  llvm::thread compiler(std::optional<unsigned>(compilerStackBytes), [&] { ok = compile(*file, diags, out, internal); });
  compiler.join();
  if (internal != Success)
    return internal;

  if (verifyMode)
    return pyk::verifyDiagnostics(*file, diags.diagnostics(), llvm::errs()) ? Success : CompileError;

  pyk::printDiagnostics(llvm::errs(), diags);
  if (!ok || diags.hasErrors())
    return CompileError;

  std::error_code error;
  llvm::ToolOutputFile result(outputFile, error, llvm::sys::fs::OF_None);
  if (error) {
    llvm::WithColor::error(llvm::errs(), "pykc") << "cannot write '" << outputFile << "': " << error.message()
                                                 << "\n";
    return UsageError;
  }
  result.os() << output;
  result.keep();
  return Success;
}
