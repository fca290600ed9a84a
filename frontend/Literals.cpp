//===- Literals.cpp - The text of Python string literals and docstrings ----===//
#include "Literals.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <vector>

namespace pyk {

static void appendUtf8(std::string &out, uint32_t cp) {
  if (cp > 0x10FFFF)
    cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

/// Python's str.expandtabs(8).
static std::string expandTabs(const std::string &line) {
  std::string out;
  for (char c : line) {
    if (c != '\t') {
      out += c;
      continue;
    }
    do
      out += ' ';
    while (out.size() % 8 != 0);
  }
  return out;
}

/// Python's inspect.cleandoc: drops the indentation the lines after the
/// first share, and leading and trailing blank lines.
std::string cleanDocstring(const std::string &raw) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= raw.size()) {
    size_t end = raw.find('\n', start);
    if (end == std::string::npos)
      end = raw.size();
    lines.push_back(expandTabs(raw.substr(start, end - start)));
    start = end + 1;
  }
  auto isBlank = [](const std::string &line) { return line.find_first_not_of(" \t\r") == std::string::npos; };
  size_t margin = std::string::npos;
  for (size_t i = 1; i < lines.size(); ++i)
    if (!isBlank(lines[i]))
      margin = std::min(margin, lines[i].find_first_not_of(" \t"));
  lines[0].erase(0, std::min(lines[0].size(), lines[0].find_first_not_of(" \t")));
  for (size_t i = 1; i < lines.size(); ++i)
    lines[i].erase(0, margin == std::string::npos ? lines[i].size() : std::min(margin, lines[i].size()));
  while (!lines.empty() && isBlank(lines.back()))
    lines.pop_back();
  size_t first = 0;
  while (first < lines.size() && isBlank(lines[first]))
    ++first;
  std::string text;
  for (size_t i = first; i < lines.size(); ++i)
    text += (i == first ? "" : "\n") + lines[i];
  return text;
}

/// Python's escape sequences; unknown ones stay as written, as in Python.
/// Malformed ones, which Python rejects, go to `errors`.
std::string decodeEscapes(const std::string &body, bool bytes, std::vector<EscapeError> *errors) {
  auto fail = [&](size_t at, size_t length, std::string message) {
    if (errors)
      errors->push_back({at, length, std::move(message)});
  };
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 == body.size()) {
      out += body[i];
      continue;
    }
    const size_t escape = i;
    const char c = body[++i];
    switch (c) {
    case '\n':
      break; // line continuation inside the literal
    case '\r':
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      break;
    case 'n':
      out += '\n';
      break;
    case 't':
      out += '\t';
      break;
    case 'r':
      out += '\r';
      break;
    case 'a':
      out += '\a';
      break;
    case 'b':
      out += '\b';
      break;
    case 'f':
      out += '\f';
      break;
    case 'v':
      out += '\v';
      break;
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      unsigned code = 0, digits = 0;
      while (digits < 3 && i < body.size() && body[i] >= '0' && body[i] <= '7') {
        code = code * 8 + unsigned(body[i] - '0');
        ++i;
        ++digits;
      }
      --i;
      if (bytes)
        out += static_cast<char>(code & 0xFF);
      else
        appendUtf8(out, code);
      break;
    }
    case 'x':
    case 'u':
    case 'U': {
      if (bytes && c != 'x') { // no escape in bytes: stays as written
        out += '\\';
        out += c;
        break;
      }
      const size_t digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
      size_t found = 0;
      while (found < digits && i + 1 + found < body.size() &&
             std::isxdigit(static_cast<unsigned char>(body[i + 1 + found])))
        ++found;
      if (found < digits) {
        const std::string example = c == 'x' ? "\\x0a" : c == 'u' ? "\\u00e9" : "\\U0001f600";
        fail(escape, 2 + found,
             std::string("truncated \\") + c + " escape: it takes exactly " + std::to_string(digits) +
                 " hexadecimal digits, as in '" + example + "'");
        i += found;
        break;
      }
      const auto code = static_cast<uint32_t>(std::stoul(body.substr(i + 1, digits), nullptr, 16));
      i += digits;
      if (code > 0x10FFFF) {
        fail(escape, 2 + digits, "'\\U' escape out of range: Unicode code points end at \\U0010ffff");
        break;
      }
      if (bytes)
        out += static_cast<char>(code);
      else
        appendUtf8(out, code);
      break;
    }
    case 'N': {
      if (bytes) {
        out += "\\N";
        break;
      }
      const size_t close = i + 1 < body.size() && body[i + 1] == '{' ? body.find('}', i + 2) : std::string::npos;
      if (close == std::string::npos || close == i + 2) {
        fail(escape, 2, "malformed \\N character escape: write it as '\\N{NAME}'");
        break;
      }
      fail(escape, close + 1 - escape,
           "'\\N{...}' escapes are not supported yet; write the character itself or its '\\u' escape");
      i = close;
      break;
    }
    case '\\':
    case '\'':
    case '"':
      out += c;
      break;
    default:
      out += '\\';
      out += c;
      break;
    }
  }
  return out;
}

IntegerLiteral parseIntegerLiteral(const std::string &digits) {
  unsigned base = 10;
  size_t start = 0;
  if (digits.size() > 2 && digits[0] == '0' && std::isalpha(static_cast<unsigned char>(digits[1]))) {
    const char prefix = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[1])));
    base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : 2;
    start = 2;
  }
  IntegerLiteral result;
  for (size_t i = start; i < digits.size(); ++i) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[i])));
    const unsigned digit = c >= 'a' ? unsigned(c - 'a' + 10) : unsigned(c - '0');
    result.tooLarge |= __builtin_mul_overflow(result.value, base, &result.value) ||
                       __builtin_add_overflow(result.value, digit, &result.value);
  }
  return result;
}

} // namespace pyk
