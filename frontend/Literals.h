//===- Literals.h - The text of Python string literals and docstrings ------===//
//
// Python's rules for what a string literal means, apart from the parse tree:
// escape sequences and docstring cleaning. Not for numbers or for which
// tokens make a literal (ASTBuilderExpressions.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_LITERALS_H
#define PYK_FRONTEND_LITERALS_H

#include <cstdint>
#include <string>
#include <vector>

namespace pyk {

struct IntegerLiteral {
  uint64_t value = 0;
  bool tooLarge = false; ///< more than 64 bits; value is then meaningless
};

/// The value of an integer literal's text without underscores: decimal, or
/// 0x / 0o / 0b prefixed.
IntegerLiteral parseIntegerLiteral(const std::string &digits);

/// An escape sequence Python rejects ("\x4", "\N{nope}"): `offset` and
/// `length` in bytes of the body passed to decodeEscapes.
struct EscapeError {
  size_t offset = 0;
  size_t length = 0;
  std::string message;
};

/// The body of a non-raw literal with Python's escape sequences decoded
/// (\n, \x41, \u00e9, octal, line continuation, ...); unknown escapes stay as
/// written, as Python leaves them. In `bytes` literals \u, \U and \N are
/// not escapes. Malformed escapes are appended to `errors` when given.
std::string decodeEscapes(const std::string &body, bool bytes = false, std::vector<EscapeError> *errors = nullptr);

/// Python's inspect.cleandoc: tabs expanded, the indentation the lines after
/// the first share removed, leading and trailing blank lines dropped.
std::string cleanDocstring(const std::string &raw);

} // namespace pyk

#endif // PYK_FRONTEND_LITERALS_H
