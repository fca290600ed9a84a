//===- Diagnostics.h - Errors, warnings and notes about a source file -----===//
//
// The compiler's library code never prints and never exits: every problem in
// the user's program becomes a Diagnostic collected here, with its location.
// The driver decides how to print them (printDiagnostic) and which exit code
// follows. Compiler bugs are asserts, not diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_BASIC_DIAGNOSTICS_H
#define PYK_BASIC_DIAGNOSTICS_H

#include "SourceFile.h"

#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace pyk {

/// Remarks say what the optimiser did (pykc --remarks: which checks of
/// checked mode were kept), never that something is wrong.
enum class Severity { Error, Warning, Note, Remark };

/// One message about the source. Notes attach to the error or warning that
/// precedes them.
struct Diagnostic {
  Severity severity;
  SourceRange range;
  std::string message;
};

class DiagnosticEngine;

/// Builds the message of one diagnostic with `<<` and reports it when it goes
/// out of scope, as MLIR's InFlightDiagnostic does.
class DiagnosticBuilder {
public:
  DiagnosticBuilder(DiagnosticEngine &engine, Severity severity, SourceRange range);
  DiagnosticBuilder(DiagnosticBuilder &&other) noexcept;
  DiagnosticBuilder(const DiagnosticBuilder &) = delete;
  DiagnosticBuilder &operator=(const DiagnosticBuilder &) = delete;
  DiagnosticBuilder &operator=(DiagnosticBuilder &&) = delete;
  ~DiagnosticBuilder();

  template <typename T> DiagnosticBuilder &operator<<(const T &value) {
    llvm::raw_string_ostream os(diagnostic_.message);
    os << value;
    return *this;
  }

private:
  DiagnosticEngine *engine_;
  Diagnostic diagnostic_;
};

/// Collects the diagnostics of one compilation of one file.
class DiagnosticEngine {
public:
  explicit DiagnosticEngine(const SourceFile &file) : file_(file) {}

  DiagnosticBuilder error(SourceRange range) { return {*this, Severity::Error, range}; }
  DiagnosticBuilder warning(SourceRange range) { return {*this, Severity::Warning, range}; }
  DiagnosticBuilder note(SourceRange range) { return {*this, Severity::Note, range}; }
  DiagnosticBuilder remark(SourceRange range) { return {*this, Severity::Remark, range}; }

  /// Records a finished diagnostic. Once the error limit is reached further
  /// errors and their notes are dropped (see limitReached), and so is a
  /// repeat of an error, warning or remark already recorded (same place,
  /// same message), with its notes.
  void report(Diagnostic diagnostic);

  const std::vector<Diagnostic> &diagnostics() const { return diagnostics_; }
  const SourceFile &file() const { return file_; }
  /// Another file of the compilation (an imported one), whose locations
  /// carry its id; it must outlive the engine.
  void addFile(const SourceFile &file) { otherFiles_.push_back(&file); }
  /// Knows the files `other` knows (an engine that collects a part's
  /// diagnostics before they are reported through `other`).
  void addFilesOf(const DiagnosticEngine &other) {
    otherFiles_.insert(otherFiles_.end(), other.otherFiles_.begin(), other.otherFiles_.end());
  }
  /// The file a location is in.
  const SourceFile &fileOf(SourceLoc loc) const;
  unsigned errorCount() const { return errorCount_; }
  bool hasErrors() const { return errorCount_ != 0; }
  /// True once more errors than the limit were reported; the pipeline stops
  /// producing new ones then, as a cascade helps nobody.
  bool limitReached() const { return errorCount_ > errorLimit_; }
  void setErrorLimit(unsigned limit) { errorLimit_ = limit; }

private:
  const SourceFile &file_;
  std::vector<const SourceFile *> otherFiles_;
  std::vector<Diagnostic> diagnostics_;
  /// Severity, range and message of each error, warning and remark.
  std::set<std::tuple<int, uint32_t, uint32_t, uint32_t, std::string>> reported_;
  unsigned errorCount_ = 0;
  unsigned errorLimit_ = 50;
  bool droppingNotes_ = false;
};

/// Prints `file:line:col: severity: message`, the source line and a caret
/// (with `~` under the rest of the range when it is on the same line), in
/// the format of Clang and LLVM's SourceMgr. Tabs in the line are expanded;
/// a line longer than 120 columns is shown as a window around the caret.
void printDiagnostic(llvm::raw_ostream &os, const SourceFile &file, const Diagnostic &diagnostic);

/// Prints all diagnostics in order, then a summary line when the error limit
/// cut the list short.
void printDiagnostics(llvm::raw_ostream &os, const DiagnosticEngine &engine);

} // namespace pyk

#endif // PYK_BASIC_DIAGNOSTICS_H
