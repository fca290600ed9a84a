//===- SourceFile.h - A .pyk file's text and positions in it --------------===//
//
// Holds the text of one source file and converts between the positions the
// parser reports (1-based line, 0-based column in code points) and pyk's own
// locations (byte offset, 1-based line and byte column). Not for printing
// diagnostics: that is DiagnosticEngine's job.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_BASIC_SOURCEFILE_H
#define PYK_BASIC_SOURCEFILE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pyk {

/// A position in a source file. Lines and columns are 1-based; columns count
/// bytes, as Python's own `ast` module and LLVM's SourceMgr do. A
/// default-constructed location is invalid (line 0).
struct SourceLoc {
  uint32_t offset = 0;
  uint32_t line = 0;
  uint32_t column = 0;
  /// Which file of the compilation: 0 for the file pykc was given, others
  /// for the files it imports (DiagnosticEngine::addFile).
  uint32_t file = 0;

  bool isValid() const { return line != 0; }
  friend bool operator==(const SourceLoc &, const SourceLoc &) = default;
};

/// A half-open range [begin, end) of source text.
struct SourceRange {
  SourceLoc begin;
  SourceLoc end;

  SourceRange() = default;
  SourceRange(SourceLoc b, SourceLoc e) : begin(b), end(e) {}
  explicit SourceRange(SourceLoc at) : begin(at), end(at) {}

  bool isValid() const { return begin.isValid(); }
  /// The smallest range covering both; an invalid side is ignored.
  static SourceRange cover(SourceRange a, SourceRange b);
};

/// The text of one source file (without a UTF-8 byte order mark), with a
/// line table built once.
class SourceFile {
public:
  SourceFile(std::string name, std::string text, uint32_t id = 0);

  const std::string &name() const { return name_; }
  /// SourceLoc::file of the locations in this file.
  uint32_t id() const { return id_; }
  const std::string &text() const { return text_; }
  /// The file name without directories, as used in `#line` directives.
  std::string baseName() const;

  /// The location of byte `offset` (clamped to the end of the text).
  SourceLoc locForOffset(uint32_t offset) const;
  /// The location of the `codePointColumn`-th code point (0-based) on
  /// `line` (1-based), as ANTLR reports positions. Clamped to the line end.
  SourceLoc locForLineAndCodePoint(uint32_t line, uint32_t codePointColumn) const;
  /// The text of line `line` (1-based) without its line terminator.
  std::string_view lineText(uint32_t line) const;
  uint32_t lineCount() const { return static_cast<uint32_t>(lineStarts_.size()); }

  /// The offset of the first byte that is not valid UTF-8, if any.
  std::optional<uint32_t> firstInvalidUtf8() const;

private:
  std::string name_;
  std::string text_;
  uint32_t id_ = 0;
  std::vector<uint32_t> lineStarts_;
  /// Per line: only ASCII, so code point columns are byte columns. Keeps
  /// locForLineAndCodePoint O(1) on the lines nearly every file consists of.
  std::vector<bool> lineIsAscii_;
};

} // namespace pyk

#endif // PYK_BASIC_SOURCEFILE_H
