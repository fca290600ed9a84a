// PykLexerBase: the superclass of the generated PykLexer. It turns the raw
// tokens of PykLexer.g4 into the token stream of Python's line structure, and
// reports every lexical error.
//
// Not for: deciding what pyk supports (the frontend does that), or anything
// the parser can see by itself (an unexpected INDENT is the parser's error).
//
// Line structure (Python 3's rules):
//  - A NEWLINE ends each logical line. Line ends inside (), [] and {} are
//    dropped (implicit joining), as are backslash-newline pairs (explicit
//    joining). Blank lines and comment-only lines produce no token.
//  - At the start of each logical line the indentation is compared with a
//    stack of open levels: deeper pushes a level and emits INDENT; shallower
//    pops levels and emits one DEDENT per popped level; a width that matches
//    no open level is an error.
//  - Tabs advance to the next multiple of 8; a form feed resets the width.
//    Indentation is inconsistent, and an error, when comparing it with the
//    open level gives a different answer with tabs 8 wide and 1 wide.
//  - At end of file: a NEWLINE if the last logical line did not end with one,
//    one DEDENT per open level, then EOF.
//  - INDENT and DEDENT sit at the first token of their line (start index of
//    that token, stop = start - 1); the end-of-file NEWLINE and DEDENTs sit at
//    the EOF position. Their texts are "<INDENT>", "<DEDENT>", "<NEWLINE>".
//
// Errors are reported, as parser errors are, through
// getErrorListenerDispatch().syntaxError(this, nullptr, line, column, message,
// nullptr) (line 1-based, column 0-based), and lexing continues:
//  - "invalid character 'X' (U+XXXX)" (non-ASCII letters included; a
//    non-printable one reads "invalid non-printable character (U+XXXX)"); the
//    character is dropped. A UTF-8 byte order mark at the very start is
//    skipped silently.
//  - "unexpected character after line continuation character" for a
//    backslash not followed by a line end; the backslash is dropped.
//  - "unterminated string literal" / "unterminated triple-quoted string
//    literal" at the opening quote; the token is passed on as a STRING.
//  - "leading zeros in decimal integer literals are not permitted; use an 0o
//    prefix for octal integers"; passed on as an INTEGER.
//  - "'(' was never closed" (or '[' / '{') at the innermost bracket still open
//    at end of file. The missing closers are then emitted (text ")", "]",
//    "}", at the EOF position) so that the parser adds no error of its own.
//  - "unexpected end of file after line continuation character" at EOF when
//    a backslash continuation runs into the end of the file.
//  - "unindent does not match any outer indentation level",
//    "inconsistent use of tabs and spaces in indentation". Where a line is
//    deeper only with tabs 8 wide, no INDENT is emitted (the line stays at the
//    open level); otherwise the tabs-8-wide reading decides the tokens.
//
// Limits, so that no input can make the recursive-descent parser (or a
// recursive walk of its tree) overflow the stack:
//  - kMaxBracketDepth (200) open brackets: "too many nested parentheses (more
//    than 200)".
//  - kMaxExpressionNesting (200) levels of right-recursive expression syntax
//    open at once: "expression is too deeply nested (more than 200 levels)".
//    These are the constructs the parser recurses on without a bracket: unary
//    `+ - ~` and `not` in prefix position (after an operator, an opening
//    bracket, a comma, a keyword or at line start), `**` in infix position,
//    `lambda`, and `if` anywhere but at the start of the line. A level closes
//    where Python's precedence ends its operand: unary and `**` levels at a
//    binary operator or comparison of lower precedence, `not` levels at
//    `and`, `or`, `if`, `else`, and every level at `,`, `=`, `;`, `for` and
//    the closing bracket (a `,` or `=` inside lambda parameters closes
//    nothing). So `(-1, -2, ..., -999)` and `a**2 + b**2 + ...` are flat, while
//    `- - x` and `a if b else c if d else e` nest. Levels inside brackets add
//    to those outside.
//  After either error the rest of the logical line is dropped, then closers
//  for the brackets the parser has seen open and the NEWLINE are emitted, so
//  the parser only sees a short, shallow line.
//  - kMaxIndentLevels (100) open indentation levels: "too many levels of
//    indentation (more than 100)" (reported once per file); deeper lines stay
//    at level 100.
//
// Line ends: "\n", "\r\n" and a lone "\r" (Python's universal newlines; the
// lexer corrects ANTLR's line count, which knows only "\n", so token
// positions count a lone "\r" as a line end everywhere).
//
// Input: ANTLRInputStream throws std::range_error on invalid UTF-8, before this
// lexer runs; the caller must check the encoding first.

#pragma once

#include "antlr4-runtime.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace pyk::grammar {

class PykLexerBase : public antlr4::Lexer {
public:
  static constexpr std::size_t kMaxBracketDepth = 200;
  static constexpr std::size_t kMaxExpressionNesting = 200;
  static constexpr std::size_t kMaxIndentLevels = 100;
  static constexpr int kTabSize = 8;

  explicit PykLexerBase(antlr4::CharStream *input);

  /// Returns the next token of the processed stream (hidden-channel tokens
  /// included); after EOF, EOF again.
  std::unique_ptr<antlr4::Token> nextToken() override;

  /// Rewinds to the start of the input, with all indentation state cleared.
  void reset() override;

  /// ANTLR's count plus the errors this class reported.
  std::size_t getNumberOfSyntaxErrors() override;

private:
  struct IndentLevel {
    int width = 0;    ///< Tabs advance to the next multiple of kTabSize.
    int altWidth = 0; ///< Tabs count as one column.
  };
  /// Open right-recursive constructs of one bracket level.
  struct NestingLevel {
    std::size_t unary = 0;            ///< Unary `+ - ~`, infix `**`.
    std::size_t negation = 0;         ///< Prefix `not`.
    std::size_t test = 0;             ///< `lambda`, conditional `if`.
    std::size_t lambdaParameters = 0; ///< Lambdas still before their `:`.
    std::size_t total() const { return unary + negation + test; }
  };
  struct OpenBracket {
    std::size_t tokenType;
    std::size_t line;
    std::size_t column;
  };

  static IndentLevel measureIndentation(const std::string &spacing);
  void clearState();
  void processRawToken(std::unique_ptr<antlr4::Token> tok);
  void countLoneCarriageReturns(const antlr4::Token &tok);
  void checkNumberEnd(const antlr4::Token &number);
  void processEof(std::unique_ptr<antlr4::Token> eof);
  void processNewline(std::unique_ptr<antlr4::Token> newline);
  void processSignificant(std::unique_ptr<antlr4::Token> tok);
  void processIndentation(const antlr4::Token &first);
  /// Counts brackets; `record` also keeps the ones the parser sees.
  void trackBrackets(const antlr4::Token &tok, bool record);
  /// Emits closers for the brackets the parser still has open.
  void closeOpenBrackets(const antlr4::Token &at);
  void trackNesting(std::size_t tokenType, bool firstOnLine);
  void endLogicalLine();

  void pushSynthetic(std::size_t tokenType, const std::string &text, const antlr4::Token &at);
  void pushHidden(std::unique_ptr<antlr4::Token> tok);
  void reportError(std::size_t line, std::size_t column, const std::string &message);
  void reportAt(const antlr4::Token &tok, const std::string &message);

  std::deque<std::unique_ptr<antlr4::Token>> pending_;
  std::vector<IndentLevel> indentStack_;
  std::vector<OpenBracket> openBrackets_;
  std::string indentText_;    ///< Spacing before the line's first token.
  bool indentFrozen_ = false; ///< Something other than spacing was seen.
  bool atLineStart_ = true;   ///< No significant token on this line yet.
  bool droppingLine_ = false; ///< A nesting limit was hit on this line.
  bool finished_ = false;     ///< EOF was emitted.
  bool indentLimitReported_ = false;
  bool lineJoiningPending_ = false; ///< A backslash continuation awaits a token.
  bool sawAnyToken_ = false;        ///< For the byte order mark.
  bool reportedNonAsciiName_ = false; ///< Said once per file: names are ASCII.
  std::size_t bracketDepth_ = 0;
  std::vector<NestingLevel> nesting_; ///< One per open bracket, plus the line.
  std::size_t nestingTotal_ = 0;      ///< Sum of the levels' totals.
  std::size_t previousType_ = 0;      ///< Last significant type on this line.
  std::size_t errorCount_ = 0;
};

} // namespace pyk::grammar
