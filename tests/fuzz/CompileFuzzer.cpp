//===- CompileFuzzer.cpp - libFuzzer target: any bytes through pykc's pipeline ===//
//
// Each input is a .pyk file. It goes through driver::compile as pykc would
// run it (on the same roomy stack), once per emission that together cover
// every stage that runs in process:
//   --emit=tokens  the lexer alone (its own error paths)
//   --emit=ast     the parser and the AST printer
//   --emit=cuda    Sema, IR lowering and passes, the CUDA C++ emitter
//   --emit=host    LLVM IR for NVPTX, libdevice, optimisation, PTX (all of
//                  --emit=ptx), then LLVM IR, optimisation and an object
//                  for the CPU device, and the C++ launch functions
// The options pykc takes besides --emit (-O0..3, --arch, --lineinfo,
// --no-line-directives, --checked with --remarks) are chosen from a hash of
// the input, so each input always compiles the same way and the corpus
// covers them all.
// (--emit=cubin runs ptxas, an external process, and is left out.) The
// diagnostics are printed, into a string, as pykc prints them, and checked
// against the input's `# expected-error {{...}}` comments as
// --verify-diagnostics does (that parser reads the input too).
//
// A finding is anything but "output or diagnostics": a crash, a sanitizer
// report, a leak, a hang (libFuzzer's -timeout), an internal compiler error,
// a failure without an error diagnostic, or errors with a success status.
// The last three abort here, so that libFuzzer keeps the input.
//
// scripts/test-sanitized runs it; tests/fuzz/README.md says how to run it
// by hand.
//
//===----------------------------------------------------------------------===//
#include "DiagnosticVerifier.h"
#include "Diagnostics.h"
#include "Driver.h"
#include "NVPTXTarget.h"
#include "SourceFile.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace {

using pyk::driver::EmitKind;
using pyk::driver::Status;

const char *emitName(EmitKind kind) {
  switch (kind) {
  case EmitKind::Tokens:
    return "tokens";
  case EmitKind::Ast:
    return "ast";
  case EmitKind::Ir:
    return "ir";
  case EmitKind::Cuda:
    return "cuda";
  case EmitKind::Llvm:
    return "llvm";
  case EmitKind::Ptx:
    return "ptx";
  case EmitKind::Cubin:
    return "cubin";
  case EmitKind::Host:
    return "host";
  }
  return "?";
}

[[noreturn]] void finding(const pyk::driver::Options &options, const std::string &what,
                          const std::string &diagnostics) {
  std::fprintf(stderr, "pyk fuzz finding with --emit=%s -O%u --arch=%s%s%s%s%s%s: %s\n%s\n",
               emitName(options.emit), options.optLevel, options.arch.c_str(), options.lineInfo ? " --lineinfo" : "",
               options.fuseMultiplyAdd ? "" : " --fmad=false", options.narrowIndices ? " --index-bits=32" : "",
               options.lineDirectives ? "" : " --no-line-directives", options.checked ? " --checked --remarks" : "", what.c_str(), diagnostics.c_str());
  std::abort();
}

/// pykc's options for this input, from a hash of it.
pyk::driver::Options optionsFor(const pyk::SourceFile &file) {
  std::size_t hash = std::hash<std::string_view>{}(file.text());
  const auto &architectures = pyk::llvmgen::supportedArchitectures();
  pyk::driver::Options options;
  options.optLevel = static_cast<unsigned>(hash % 4);
  options.lineInfo = (hash >> 2) & 1;
  options.lineDirectives = (hash >> 3) & 1;
  options.arch = architectures[(hash >> 4) % architectures.size()];
  options.checked = options.remarks = (hash >> 8) & 1;
  options.fuseMultiplyAdd = (hash >> 9) & 1;
  options.narrowIndices = (hash >> 10) & 1;
  options.compilerVersion = "fuzz";
  options.baseName = "fuzz";
  return options;
}

/// Compiles `file` as pykc --emit=`kind` would; aborts on a finding.
/// Returns whether the compilation succeeded.
bool compileOnce(const pyk::SourceFile &file, EmitKind kind) {
  pyk::driver::Options options = optionsFor(file);
  options.emit = kind;
  pyk::DiagnosticEngine diags(file);
  pyk::driver::Result result;
  // pykc's stack (pykc.cpp): the frontend bounds the recursion depth with
  // that stack in mind.
  constexpr unsigned compilerStackBytes = 256u << 20;
  llvm::thread compiler(std::optional<unsigned>(compilerStackBytes),
                        [&] { result = pyk::driver::compile(file, options, diags); });
  compiler.join();

  std::string printed;
  llvm::raw_string_ostream os(printed);
  pyk::printDiagnostics(os, diags);
  if (kind == EmitKind::Cuda) {
    std::string verifierOutput;
    llvm::raw_string_ostream verifierStream(verifierOutput);
    (void)pyk::verifyDiagnostics(file, diags.diagnostics(), verifierStream);
  }
  os.flush();

  if (result.status == Status::InternalError)
    finding(options, "internal compiler error: " + result.internalError, printed);
  if (result.status == Status::CompileError && !diags.hasErrors())
    finding(options, "the compilation failed without an error diagnostic", printed);
  if (result.status == Status::Success && diags.hasErrors())
    finding(options, "the compilation succeeded with error diagnostics", printed);
  if (result.status == Status::Success && kind != EmitKind::Host && kind != EmitKind::Tokens && result.output.empty())
    finding(options, "the compilation succeeded with no output", printed);
  // NAME.pyk.h, NAME.pyk.cpp, NAME.pyk.cpu.o and NAME.pyk.link.cpp.
  if (result.status == Status::Success && kind == EmitKind::Host && result.files.size() != 4)
    finding(options, "--emit=host succeeded without its four files", printed);
  return result.status == Status::Success;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  pyk::SourceFile file("fuzz.pyk", std::string(reinterpret_cast<const char *>(data), size));
  compileOnce(file, EmitKind::Tokens);
  if (!compileOnce(file, EmitKind::Ast))
    return 0;
  // The backends run only on what Sema accepts: once --emit=cuda has
  // failed, --emit=host would stop at the same diagnostics.
  if (!compileOnce(file, EmitKind::Cuda))
    return 0;
  compileOnce(file, EmitKind::Host);
  return 0;
}
