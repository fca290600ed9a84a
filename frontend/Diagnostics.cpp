//===- Diagnostics.cpp - Errors, warnings and notes about a source file ---===//
#include "Diagnostics.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

namespace pyk {

DiagnosticBuilder::DiagnosticBuilder(DiagnosticEngine &engine, Severity severity, SourceRange range)
    : engine_(&engine), diagnostic_{severity, range, {}} {}

DiagnosticBuilder::DiagnosticBuilder(DiagnosticBuilder &&other) noexcept
    : engine_(other.engine_), diagnostic_(std::move(other.diagnostic_)) {
  other.engine_ = nullptr;
}

DiagnosticBuilder::~DiagnosticBuilder() {
  if (engine_)
    engine_->report(std::move(diagnostic_));
}

void DiagnosticEngine::report(Diagnostic diagnostic) {
  if (diagnostic.severity == Severity::Note) {
    if (!droppingNotes_)
      diagnostics_.push_back(std::move(diagnostic));
    return;
  }
  if (diagnostic.severity == Severity::Error)
    ++errorCount_;
  droppingNotes_ = limitReached();
  if (!droppingNotes_)
    diagnostics_.push_back(std::move(diagnostic));
}

static llvm::SourceMgr::DiagKind toDiagKind(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return llvm::SourceMgr::DK_Error;
  case Severity::Warning:
    return llvm::SourceMgr::DK_Warning;
  case Severity::Note:
    return llvm::SourceMgr::DK_Note;
  }
  return llvm::SourceMgr::DK_Error;
}

static void printWithSourceMgr(llvm::raw_ostream &os, llvm::SourceMgr &sourceMgr, const SourceFile &file,
                               const Diagnostic &diagnostic) {
  if (!diagnostic.range.isValid()) {
    sourceMgr.PrintMessage(os, llvm::SMDiagnostic(file.name(), toDiagKind(diagnostic.severity), diagnostic.message));
    return;
  }
  const char *base = sourceMgr.getMemoryBuffer(1)->getBufferStart();
  llvm::SMLoc at = llvm::SMLoc::getFromPointer(base + diagnostic.range.begin.offset);
  llvm::SmallVector<llvm::SMRange, 1> ranges;
  // Underline the rest of the range only when it stays on one line and is
  // longer than the caret itself.
  if (diagnostic.range.end.line == diagnostic.range.begin.line &&
      diagnostic.range.end.offset > diagnostic.range.begin.offset + 1)
    ranges.push_back(llvm::SMRange(at, llvm::SMLoc::getFromPointer(base + diagnostic.range.end.offset)));
  sourceMgr.PrintMessage(os, at, toDiagKind(diagnostic.severity), diagnostic.message, ranges);
}

static llvm::SourceMgr makeSourceMgr(const SourceFile &file) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(file.text(), file.name(), /*RequiresNullTerminator=*/false), llvm::SMLoc());
  return sourceMgr;
}

void printDiagnostic(llvm::raw_ostream &os, const SourceFile &file, const Diagnostic &diagnostic) {
  llvm::SourceMgr sourceMgr = makeSourceMgr(file);
  printWithSourceMgr(os, sourceMgr, file, diagnostic);
}

void printDiagnostics(llvm::raw_ostream &os, const DiagnosticEngine &engine) {
  llvm::SourceMgr sourceMgr = makeSourceMgr(engine.file());
  for (const Diagnostic &diagnostic : engine.diagnostics())
    printWithSourceMgr(os, sourceMgr, engine.file(), diagnostic);
  if (engine.limitReached())
    os << engine.file().name() << ": fatal error: too many errors emitted, stopping now\n";
}

} // namespace pyk
