//===- SourceFile.cpp - A .pyk file's text and positions in it ------------===//
#include "SourceFile.h"

#include <algorithm>

namespace pyk {

SourceRange SourceRange::cover(SourceRange a, SourceRange b) {
  if (!a.isValid())
    return b;
  if (!b.isValid())
    return a;
  SourceRange r = a;
  if (b.begin.offset < r.begin.offset)
    r.begin = b.begin;
  if (b.end.offset > r.end.offset)
    r.end = b.end;
  return r;
}

SourceFile::SourceFile(std::string name, std::string text, uint32_t id)
    : name_(std::move(name)), text_(std::move(text)), id_(id) {
  // A UTF-8 byte order mark is not part of the source (Python skips it
  // too), so columns on the first line count from after it.
  if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0)
    text_.erase(0, 3);
  lineStarts_.push_back(0);
  lineIsAscii_.push_back(true);
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (static_cast<unsigned char>(text_[i]) >= 0x80)
      lineIsAscii_.back() = false;
    // "\r\n" ends one line, as does a lone "\r" (Python's universal newlines).
    if (text_[i] == '\n' || (text_[i] == '\r' && (i + 1 >= text_.size() || text_[i + 1] != '\n'))) {
      lineStarts_.push_back(i + 1);
      lineIsAscii_.push_back(true);
    }
  }
}

std::string SourceFile::baseName() const {
  auto slash = name_.find_last_of('/');
  return slash == std::string::npos ? name_ : name_.substr(slash + 1);
}

SourceLoc SourceFile::locForOffset(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  auto line = static_cast<uint32_t>(it - lineStarts_.begin());
  return SourceLoc{offset, line, offset - lineStarts_[line - 1] + 1, id_};
}

std::string_view SourceFile::lineText(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size())
    return {};
  uint32_t begin = lineStarts_[line - 1];
  uint32_t end = line < lineStarts_.size() ? lineStarts_[line] : static_cast<uint32_t>(text_.size());
  while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r'))
    --end;
  return std::string_view(text_).substr(begin, end - begin);
}

SourceLoc SourceFile::locForLineAndCodePoint(uint32_t line, uint32_t codePointColumn) const {
  if (line == 0)
    line = 1;
  if (line > lineStarts_.size())
    return locForOffset(static_cast<uint32_t>(text_.size()));
  uint32_t offset = lineStarts_[line - 1];
  uint32_t end = line < lineStarts_.size() ? lineStarts_[line] : static_cast<uint32_t>(text_.size());
  if (lineIsAscii_[line - 1]) {
    offset = std::min(offset + codePointColumn, end);
    return SourceLoc{offset, line, offset - lineStarts_[line - 1] + 1, id_};
  }
  for (uint32_t seen = 0; offset < end && seen < codePointColumn; ++seen) {
    ++offset;
    // Skip UTF-8 continuation bytes: one code point, one column.
    while (offset < end && (static_cast<unsigned char>(text_[offset]) & 0xC0) == 0x80)
      ++offset;
  }
  return SourceLoc{offset, line, offset - lineStarts_[line - 1] + 1, id_};
}

std::optional<uint32_t> SourceFile::firstInvalidUtf8() const {
  const auto *bytes = reinterpret_cast<const unsigned char *>(text_.data());
  const size_t n = text_.size();
  for (size_t i = 0; i < n;) {
    unsigned char c = bytes[i];
    size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || i + length > n)
      return static_cast<uint32_t>(i);
    for (size_t k = 1; k < length; ++k)
      if ((bytes[i + k] & 0xC0) != 0x80)
        return static_cast<uint32_t>(i);
    // Reject overlong encodings, surrogates and code points above U+10FFFF.
    uint32_t cp = length == 1 ? c : length == 2 ? (c & 0x1F) : length == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < length; ++k)
      cp = (cp << 6) | (bytes[i + k] & 0x3F);
    static constexpr uint32_t minimum[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < minimum[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return static_cast<uint32_t>(i);
    i += length;
  }
  return std::nullopt;
}

} // namespace pyk
