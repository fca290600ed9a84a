//===- DiagnosticsTest.cpp - The diagnostics engine and its printer -------===//
#include "Diagnostics.h"

#include <gtest/gtest.h>

using namespace pyk;

namespace {

std::string print(const SourceFile &file, const Diagnostic &diagnostic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printDiagnostic(os, file, diagnostic);
  return os.str();
}

SourceRange rangeOn(const SourceFile &file, uint32_t beginOffset, uint32_t endOffset) {
  return {file.locForOffset(beginOffset), file.locForOffset(endOffset)};
}

TEST(DiagnosticPrinter, PrintsLocationSourceLineAndCaret) {
  SourceFile file("k.pyk", "x = 1\ny = zz + 1\n");
  std::string text = print(file, {Severity::Error, rangeOn(file, 10, 12), "name 'zz' is not defined"});
  EXPECT_EQ(text, "k.pyk:2:5: error: name 'zz' is not defined\n"
                  "y = zz + 1\n"
                  "    ^~\n");
}

TEST(DiagnosticPrinter, WarningsAndNotesSaySo) {
  SourceFile file("k.pyk", "abc\n");
  EXPECT_EQ(print(file, {Severity::Warning, rangeOn(file, 1, 2), "careful"}),
            "k.pyk:1:2: warning: careful\nabc\n ^\n");
  EXPECT_EQ(print(file, {Severity::Note, rangeOn(file, 0, 0), "here"}), "k.pyk:1:1: note: here\nabc\n^\n");
}

TEST(DiagnosticPrinter, RangeSpanningLinesGetsOnlyTheCaret) {
  SourceFile file("k.pyk", "a = (1 +\n     2)\n");
  std::string text = print(file, {Severity::Error, rangeOn(file, 4, 15), "bad"});
  EXPECT_EQ(text, "k.pyk:1:5: error: bad\na = (1 +\n    ^\n");
}

TEST(DiagnosticPrinter, ErrorAtEndOfFileWithoutNewline) {
  SourceFile file("k.pyk", "def f(");
  std::string text = print(file, {Severity::Error, rangeOn(file, 6, 6), "unexpected end of file"});
  EXPECT_EQ(text, "k.pyk:1:7: error: unexpected end of file\ndef f(\n      ^\n");
}

TEST(DiagnosticEngine, CountsErrorsAndBuildsMessagesWithStreams) {
  SourceFile file("k.pyk", "x\n");
  DiagnosticEngine diags(file);
  diags.warning(rangeOn(file, 0, 1)) << "just a warning";
  EXPECT_FALSE(diags.hasErrors());
  diags.error(rangeOn(file, 0, 1)) << "value " << 42 << " is " << "wrong";
  EXPECT_EQ(diags.errorCount(), 1u);
  ASSERT_EQ(diags.diagnostics().size(), 2u);
  EXPECT_EQ(diags.diagnostics()[1].message, "value 42 is wrong");
  EXPECT_EQ(diags.diagnostics()[1].range.begin.line, 1u);
}

TEST(DiagnosticEngine, StopsCollectingPastTheErrorLimit) {
  SourceFile file("k.pyk", "x\n");
  DiagnosticEngine diags(file);
  diags.setErrorLimit(3);
  for (int i = 0; i < 10; ++i) {
    diags.error(rangeOn(file, 0, 1)) << "error " << i;
    diags.note(rangeOn(file, 0, 1)) << "note " << i;
  }
  EXPECT_TRUE(diags.limitReached());
  EXPECT_EQ(diags.diagnostics().size(), 6u) << "three errors, each with its note";
  std::string text;
  llvm::raw_string_ostream os(text);
  printDiagnostics(os, diags);
  EXPECT_NE(os.str().find("too many errors emitted"), std::string::npos);
}

TEST(SourceFile, ConvertsAntlrColumnsCountedInCodePoints) {
  // 'é' is two bytes: the third code point of line 1 starts at byte 3.
  SourceFile file("k.pyk", "\xc3\xa9" "ab\ncd");
  SourceLoc loc = file.locForLineAndCodePoint(1, 2);
  EXPECT_EQ(loc.offset, 3u);
  EXPECT_EQ(loc.column, 4u);
  EXPECT_EQ(file.locForLineAndCodePoint(2, 1).offset, 6u);
  EXPECT_EQ(file.lineText(2), "cd");
}

TEST(SourceFile, HandlesCrLfAndFindsInvalidUtf8) {
  SourceFile file("k.pyk", "a\r\nb\rc\n");
  EXPECT_EQ(file.lineText(1), "a");
  EXPECT_EQ(file.lineText(2), "b");
  EXPECT_EQ(file.lineText(3), "c");
  EXPECT_EQ(file.firstInvalidUtf8(), std::nullopt);
  EXPECT_EQ(SourceFile("k", "ok\xff").firstInvalidUtf8(), 2u);
  EXPECT_EQ(SourceFile("k", "\xc0\x80").firstInvalidUtf8(), 0u) << "overlong encoding";
  EXPECT_EQ(SourceFile("k", "\xe2\x82").firstInvalidUtf8(), 0u) << "truncated sequence";
}

} // namespace
