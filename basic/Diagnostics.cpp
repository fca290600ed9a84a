//===- Diagnostics.cpp - Errors, warnings and notes about a source file ---===//
#include "Diagnostics.h"

#include <algorithm>
#include <string_view>

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
  // One text checked once per type signature (Sema's instances) says the
  // same thing each time: once is enough, with its notes.
  const bool repeated = !reported_
                             .insert({static_cast<int>(diagnostic.severity), diagnostic.range.begin.file,
                                      diagnostic.range.begin.offset, diagnostic.range.end.offset, diagnostic.message})
                             .second;
  if (repeated) {
    droppingNotes_ = true;
    return;
  }
  if (diagnostic.severity == Severity::Error)
    ++errorCount_;
  droppingNotes_ = limitReached();
  if (!droppingNotes_)
    diagnostics_.push_back(std::move(diagnostic));
}

static const char *severityLabel(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  case Severity::Remark:
    return "remark";
  }
  return "error";
}

namespace {

/// One source line as it is shown under a diagnostic: tabs expanded, control
/// characters and broken UTF-8 shown as '?', and, for a long line, only a
/// window around the caret.
class ShownLine {
public:
  ShownLine(std::string_view line, uint32_t caretByte, uint32_t underlineEndByte) {
    const bool validUtf8 = !SourceFile("", std::string(line)).firstInvalidUtf8();
    for (uint32_t i = 0; i <= line.size(); ++i) {
      if (i == caretByte)
        caret_ = columns_.size();
      if (i == underlineEndByte)
        underlineEnd_ = columns_.size();
      if (i == line.size())
        break;
      const auto c = static_cast<unsigned char>(line[i]);
      if (c == '\t') {
        do
          columns_.push_back(" ");
        while (columns_.size() % 8 != 0);
      } else if (c < 0x20 || c == 0x7f || (c >= 0x80 && !validUtf8)) {
        columns_.push_back("?");
      } else if ((c & 0xC0) == 0x80 && !columns_.empty()) {
        columns_.back() += static_cast<char>(c); // continuation byte: same column
      } else {
        columns_.push_back(std::string(1, static_cast<char>(c)));
      }
    }
    if (underlineEnd_ < caret_ + 1)
      underlineEnd_ = caret_ + 1;
  }

  void print(llvm::raw_ostream &os) const {
    constexpr size_t width = 120, before = 60;
    size_t first = caret_ > before && columns_.size() > width ? caret_ - before : 0;
    size_t last = std::min(columns_.size(), first + width);
    std::string prefix = first > 0 ? "..." : "";
    os << prefix;
    for (size_t i = first; i < last; ++i)
      os << columns_[i];
    os << (last < columns_.size() ? "...\n" : "\n");
    os.indent(prefix.size() + caret_ - first) << "^";
    for (size_t i = caret_ + 1; i < std::min(underlineEnd_, last); ++i)
      os << "~";
    os << "\n";
  }

private:
  std::vector<std::string> columns_;
  size_t caret_ = 0;
  size_t underlineEnd_ = 0;
};

} // namespace

void printDiagnostic(llvm::raw_ostream &os, const SourceFile &file, const Diagnostic &diagnostic) {
  const SourceRange &range = diagnostic.range;
  if (!range.isValid()) {
    os << file.name() << ": " << severityLabel(diagnostic.severity) << ": " << diagnostic.message << "\n";
    return;
  }
  os << file.name() << ":" << range.begin.line << ":" << range.begin.column << ": "
     << severityLabel(diagnostic.severity) << ": " << diagnostic.message << "\n";
  // Underline the rest of the range only while it stays on the caret's line.
  const uint32_t caret = range.begin.column - 1;
  const uint32_t underlineEnd =
      range.end.line == range.begin.line && range.end.offset > range.begin.offset ? range.end.column - 1 : caret + 1;
  ShownLine(file.lineText(range.begin.line), caret, underlineEnd).print(os);
}

const SourceFile &DiagnosticEngine::fileOf(SourceLoc loc) const {
  for (const SourceFile *other : otherFiles_)
    if (other->id() == loc.file)
      return *other;
  return file_;
}

void printDiagnostics(llvm::raw_ostream &os, const DiagnosticEngine &engine) {
  for (const Diagnostic &diagnostic : engine.diagnostics())
    printDiagnostic(os, engine.fileOf(diagnostic.range.begin), diagnostic);
  if (engine.limitReached())
    os << engine.file().name() << ": fatal error: too many errors emitted, stopping now\n";
}

} // namespace pyk
