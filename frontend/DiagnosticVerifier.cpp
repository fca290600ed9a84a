//===- DiagnosticVerifier.cpp - Check diagnostics against the source's notes -===//
#include "DiagnosticVerifier.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>

namespace pyk {
namespace {

struct Expectation {
  Severity severity;
  uint32_t line;
  std::optional<uint32_t> column;
  std::string text;
  uint32_t writtenOnLine;
  bool met = false;
};

const char *severityName(Severity severity) {
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
  return "?";
}

/// A decimal number of at most 9 digits (larger ones cannot be a line or a
/// column of a file pyk reads).
std::optional<uint32_t> smallNumber(const std::string &digits) {
  if (digits.empty() || digits.size() > 9)
    return std::nullopt;
  return static_cast<uint32_t>(std::stoul(digits));
}

/// Reads the expectations of every line; malformed ones go to `problems`.
std::vector<Expectation> parseExpectations(const SourceFile &file, std::vector<std::string> &problems) {
  static const std::regex pattern(R"(expected-(error|warning|note|remark)(@([+-]?)(\d+))?(:(\d+))?\s*\{\{(.*?)\}\})");
  static const std::regex anyMarker(R"(expected-(error|warning|note|remark))");
  std::vector<Expectation> result;
  for (uint32_t line = 1; line <= file.lineCount(); ++line) {
    std::string text(file.lineText(line));
    size_t hash = text.find('#');
    if (hash == std::string::npos)
      continue;
    std::string comment = text.substr(hash);
    size_t found = 0;
    for (std::sregex_iterator it(comment.begin(), comment.end(), pattern), end; it != end; ++it) {
      const std::smatch &m = *it;
      Expectation e;
      e.severity = m[1] == "error"     ? Severity::Error
                   : m[1] == "warning" ? Severity::Warning
                   : m[1] == "remark"  ? Severity::Remark
                                       : Severity::Note;
      e.writtenOnLine = line;
      e.line = line;
      ++found;
      if (m[2].matched) {
        const std::optional<uint32_t> amount = smallNumber(m[4]);
        const int64_t target = !amount          ? -1
                               : m[3] == "+"    ? int64_t(line) + *amount
                               : m[3] == "-"    ? int64_t(line) - *amount
                                                : int64_t(*amount);
        if (target < 1 || target > int64_t(file.lineCount())) {
          problems.push_back("line " + std::to_string(line) + ": the expectation points at line " +
                             (amount ? std::to_string(target) : m[3].str() + m[4].str()) +
                             ", which is not in the file");
          continue;
        }
        e.line = static_cast<uint32_t>(target);
      }
      if (m[5].matched) {
        e.column = smallNumber(m[6]);
        if (!e.column || *e.column == 0) {
          problems.push_back("line " + std::to_string(line) + ": the expectation's column " + m[6].str() +
                             " cannot be on a line");
          continue;
        }
      }
      e.text = m[7];
      result.push_back(std::move(e));
    }
    auto markers = static_cast<size_t>(
        std::distance(std::sregex_iterator(comment.begin(), comment.end(), anyMarker), std::sregex_iterator()));
    if (markers != found)
      problems.push_back("line " + std::to_string(line) + ": cannot read the expectation; write e.g. "
                                                          "'# expected-error@+1 {{message}}'");
  }
  return result;
}

bool matches(const Expectation &e, const Diagnostic &d) {
  return e.severity == d.severity && e.line == d.range.begin.line &&
         (!e.column || *e.column == d.range.begin.column) && d.message.find(e.text) != std::string::npos;
}

} // namespace

bool verifyDiagnostics(const SourceFile &file, const std::vector<Diagnostic> &diagnostics, llvm::raw_ostream &os) {
  std::vector<std::string> problems;
  std::vector<Expectation> expectations = parseExpectations(file, problems);
  std::vector<const Diagnostic *> unexpected;
  for (const Diagnostic &diagnostic : diagnostics) {
    bool matched = false;
    if (diagnostic.range.begin.file != file.id()) {
      unexpected.push_back(&diagnostic); // in a file this one imports
      continue;
    }
    for (Expectation &e : expectations) {
      if (!e.met && matches(e, diagnostic)) {
        e.met = true;
        matched = true;
        break;
      }
    }
    if (!matched)
      unexpected.push_back(&diagnostic);
  }
  for (const std::string &problem : problems)
    os << file.name() << ": " << problem << "\n";
  for (const Expectation &e : expectations) {
    if (e.met)
      continue;
    os << file.name() << ":" << e.writtenOnLine << ": expected " << severityName(e.severity) << " on line " << e.line;
    if (e.column)
      os << ", column " << *e.column;
    os << " was not produced: {{" << e.text << "}}\n";
  }
  for (const Diagnostic *d : unexpected)
    os << file.name() << ":" << d->range.begin.line << ":" << d->range.begin.column << ": unexpected "
       << severityName(d->severity) << ": " << d->message << "\n";
  return problems.empty() && unexpected.empty() &&
         std::all_of(expectations.begin(), expectations.end(), [](const Expectation &e) { return e.met; });
}

} // namespace pyk
