// PykLexerBase: Python's line structure and lexical errors on top of the
// generated PykLexer (see PykLexerBase.h for the rules and the limits).
//
// Algorithm, per raw token of the generated lexer:
//  1. Hidden spacing, comments and line joinings pass through; spacing before
//     the first token of a line is remembered as its indentation.
//  2. Error tokens are reported, then dropped or passed on as what they were
//     meant to be.
//  3. A line end inside brackets or after a blank line becomes hidden; any
//     other ends the logical line as NEWLINE.
//  4. The first significant token of a logical line first emits the
//     INDENT/DEDENTs its indentation calls for.
//  5. Brackets and open nesting levels are counted; past a limit the rest of
//     the logical line is dropped, and closers for the brackets the parser
//     has seen open end it.
//  6. EOF emits closers for brackets left open, the missing NEWLINE and the
//     DEDENTs of the open levels.

#include "PykLexerBase.h"

#include "PykLexer.h"

#include <cctype>
#include <cstdint>
#include <cstdio>

namespace pyk::grammar {

namespace {

using antlr4::Token;

bool isOpeningBracket(std::size_t tokenType) {
  return tokenType == PykLexer::LPAR || tokenType == PykLexer::LSQB || tokenType == PykLexer::LBRACE;
}

bool isClosingBracket(std::size_t tokenType) {
  return tokenType == PykLexer::RPAR || tokenType == PykLexer::RSQB || tokenType == PykLexer::RBRACE;
}

/// True for tokens that can end an operand; an operator after one of them is
/// in infix position, otherwise in prefix position.
bool endsOperand(std::size_t tokenType) {
  switch (tokenType) {
  case PykLexer::NAME:
  case PykLexer::INTEGER:
  case PykLexer::FLOAT_NUMBER:
  case PykLexer::IMAG_NUMBER:
  case PykLexer::STRING:
  case PykLexer::RPAR:
  case PykLexer::RSQB:
  case PykLexer::RBRACE:
  case PykLexer::NONE:
  case PykLexer::TRUE:
  case PykLexer::FALSE:
  case PykLexer::ELLIPSIS:
    return true;
  default:
    return false;
  }
}

/// Decodes the first code point of UTF-8 text (the runtime produced it, so
/// it is well formed); returns 0xFFFD for anything unexpected.
std::uint32_t firstCodePoint(const std::string &text) {
  if (text.empty())
    return 0xFFFD;
  const auto byte = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(text[i])); };
  const std::uint32_t lead = byte(0);
  std::size_t length = 0;
  std::uint32_t codePoint = 0;
  if (lead < 0x80)
    return lead;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    codePoint = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    codePoint = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    codePoint = lead & 0x07;
  } else {
    return 0xFFFD;
  }
  if (text.size() < length)
    return 0xFFFD;
  for (std::size_t i = 1; i < length; ++i)
    codePoint = (codePoint << 6) | (byte(i) & 0x3F);
  return codePoint;
}

/// Control, format and spacing characters that would print as nothing.
bool isNonPrintable(std::uint32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0xA0) || c == 0xAD || (c >= 0x2000 && c <= 0x200F) ||
         (c >= 0x2028 && c <= 0x202F) || (c >= 0x205F && c <= 0x206F) || c == 0x3000 || c == 0xFEFF ||
         (c >= 0xFFF9 && c <= 0xFFFB) || c > 0x10FFFF;
}

/// A letter Python would accept in a name, for the common scripts (Latin,
/// Greek, Cyrillic, CJK, kana, Hangul); an approximation of XID_Start.
bool isNonAsciiLetter(std::uint32_t c) {
  return (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7) || (c >= 0x370 && c <= 0x3FF && c != 0x37E) ||
         (c >= 0x400 && c <= 0x52F) || (c >= 0x3040 && c <= 0x30FF) || (c >= 0x4E00 && c <= 0x9FFF) ||
         (c >= 0xAC00 && c <= 0xD7AF);
}

std::string invalidCharacterMessage(const std::string &text) {
  const std::uint32_t c = firstCodePoint(text);
  char code[16];
  std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
  if (isNonPrintable(c))
    return std::string("invalid non-printable character (") + code + ")";
  return "invalid character '" + text + "' (" + code + ")";
}

} // namespace

PykLexerBase::IndentLevel PykLexerBase::measureIndentation(const std::string &spacing) {
  IndentLevel level;
  for (char c : spacing) {
    if (c == ' ') {
      ++level.width;
      ++level.altWidth;
    } else if (c == '\t') {
      level.width = (level.width / kTabSize + 1) * kTabSize;
      ++level.altWidth;
    } else if (c == '\f') {
      level.width = 0;
      level.altWidth = 0;
    }
  }
  return level;
}

PykLexerBase::PykLexerBase(antlr4::CharStream *input) : antlr4::Lexer(input) {
  clearState();
}

void PykLexerBase::reset() {
  antlr4::Lexer::reset();
  clearState();
}

std::size_t PykLexerBase::getNumberOfSyntaxErrors() {
  return antlr4::Lexer::getNumberOfSyntaxErrors() + errorCount_;
}

void PykLexerBase::clearState() {
  pending_.clear();
  indentStack_.assign(1, IndentLevel{});
  openBrackets_.clear();
  indentText_.clear();
  indentFrozen_ = false;
  atLineStart_ = true;
  droppingLine_ = false;
  finished_ = false;
  indentLimitReported_ = false;
  lineJoiningPending_ = false;
  sawAnyToken_ = false;
  reportedNonAsciiName_ = false;
  bracketDepth_ = 0;
  nesting_.assign(1, NestingLevel{});
  nestingTotal_ = 0;
  previousType_ = 0;
  errorCount_ = 0;
}

std::unique_ptr<antlr4::Token> PykLexerBase::nextToken() {
  while (pending_.empty()) {
    if (finished_)
      return antlr4::Lexer::nextToken();
    processRawToken(antlr4::Lexer::nextToken());
  }
  std::unique_ptr<antlr4::Token> next = std::move(pending_.front());
  pending_.pop_front();
  return next;
}

void PykLexerBase::processRawToken(std::unique_ptr<antlr4::Token> tok) {
  const bool firstInFile = !sawAnyToken_;
  sawAnyToken_ = true;
  switch (tok->getType()) {
  case Token::EOF:
    processEof(std::move(tok));
    return;
  case PykLexer::NEWLINE:
    countLoneCarriageReturns(*tok);
    processNewline(std::move(tok));
    return;
  case PykLexer::WS:
    if (atLineStart_ && !indentFrozen_)
      indentText_ += tok->getText();
    pending_.push_back(std::move(tok));
    return;
  case PykLexer::COMMENT:
    pending_.push_back(std::move(tok));
    return;
  case PykLexer::LINE_JOINING:
    countLoneCarriageReturns(*tok);
    indentFrozen_ = true;
    lineJoiningPending_ = true;
    pending_.push_back(std::move(tok));
    return;
  case PykLexer::BAD_LINE_JOINING:
    reportAt(*tok, "unexpected character after line continuation character");
    indentFrozen_ = true;
    return;
  case PykLexer::ERRORCHAR:
    if (firstInFile && firstCodePoint(tok->getText()) == 0xFEFF)
      return;
    if (isNonAsciiLetter(firstCodePoint(tok->getText()))) {
      // Python allows 'é' in names; pyk does not. Once per file: every
      // use of the name would say it again.
      if (!reportedNonAsciiName_)
        reportAt(*tok, "non-ASCII letter '" + tok->getText() + "' in a name: pyk names use ASCII letters, digits "
                                                                 "and '_' only");
      reportedNonAsciiName_ = true;
    } else {
      reportAt(*tok, invalidCharacterMessage(tok->getText()));
    }
    indentFrozen_ = true;
    return;
  case PykLexer::STRING:
    countLoneCarriageReturns(*tok);
    break;
  case PykLexer::INTEGER:
  case PykLexer::FLOAT_NUMBER:
  case PykLexer::IMAG_NUMBER:
    checkNumberEnd(*tok);
    break;
  case PykLexer::UNTERMINATED_STRING:
    countLoneCarriageReturns(*tok);
    reportAt(*tok, "unterminated string literal");
    static_cast<antlr4::WritableToken &>(*tok).setType(PykLexer::STRING);
    break;
  case PykLexer::UNTERMINATED_LONG_STRING:
    countLoneCarriageReturns(*tok);
    reportAt(*tok, "unterminated triple-quoted string literal");
    static_cast<antlr4::WritableToken &>(*tok).setType(PykLexer::STRING);
    break;
  case PykLexer::LEADING_ZERO_INTEGER:
    reportAt(*tok, "leading zeros in decimal integer literals are not "
                   "permitted; use an 0o prefix for octal integers");
    static_cast<antlr4::WritableToken &>(*tok).setType(PykLexer::INTEGER);
    break;
  default:
    break;
  }
  processSignificant(std::move(tok));
}

static bool isNameChar(std::size_t c) {
  return c < 0x80 && (std::isalnum(static_cast<int>(c)) || c == '_');
}

/// A number must not run into a name or digit it cannot hold (`0b102`,
/// `0xFG`, `1__000`, `1.5f`, `12abc`): Python reports an invalid literal
/// there, not the syntax error the split tokens would give. The rest of the
/// would-be literal is consumed, so that nothing else is reported for it.
void PykLexerBase::checkNumberEnd(const antlr4::Token &number) {
  antlr4::CharStream &input = *_input;
  const std::size_t next = input.LA(1);
  if (!isNameChar(next))
    return;
  // `1if x else 2`: Python allows these keywords right after a number.
  std::string ahead;
  for (ssize_t i = 1; i <= 4 && isNameChar(input.LA(i)); ++i)
    ahead += static_cast<char>(input.LA(i));
  for (const char *keyword : {"and", "else", "for", "if", "in", "is", "not", "or"})
    if (ahead.rfind(keyword, 0) == 0)
      return;
  const std::string text = number.getText();
  const char prefix = text.size() > 1 && text[0] == '0' ? static_cast<char>(std::tolower(text[1])) : 0;
  const bool zero = text.find_first_not_of("0_") == std::string::npos;
  const char following = static_cast<char>(std::tolower(static_cast<int>(next)));
  const bool digit = std::isdigit(static_cast<int>(next)) != 0;
  std::size_t column = number.getCharPositionInLine();
  std::string message;
  auto baseName = [](char base) { return base == 'x' ? "hexadecimal" : base == 'o' ? "octal" : "binary"; };
  if (number.getType() == PykLexer::IMAG_NUMBER) {
    message = "invalid imaginary literal";
  } else if (prefix == 'x' || prefix == 'o' || prefix == 'b') {
    if (digit && prefix != 'x') {
      message = std::string("invalid digit '") + static_cast<char>(next) + "' in " + baseName(prefix) + " literal";
      column += text.size();
    } else {
      message = std::string("invalid ") + baseName(prefix) + " literal";
    }
  } else if (zero && number.getType() == PykLexer::INTEGER && (following == 'x' || following == 'o' || following == 'b')) {
    message = std::string("invalid ") + baseName(following) + " literal";
  } else if (zero && number.getType() == PykLexer::INTEGER && next == '_' &&
             std::isdigit(static_cast<int>(input.LA(2)))) {
    message = "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers";
  } else {
    message = "invalid decimal literal";
  }
  reportError(number.getLine(), column, message);
  std::size_t consumed = 0;
  while (isNameChar(input.LA(1))) {
    input.consume();
    ++consumed;
  }
  setCharPositionInLine(getCharPositionInLine() + consumed);
}

void PykLexerBase::countLoneCarriageReturns(const antlr4::Token &tok) {
  // ANTLR counts lines at '\n' only; Python also ends a line at a lone '\r'.
  const std::string text = tok.getText();
  std::size_t lone = 0;
  std::size_t lastLineEnd = 0;
  bool lastIsLone = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      lastLineEnd = i;
      lastIsLone = false;
    } else if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) {
      ++lone;
      lastLineEnd = i;
      lastIsLone = true;
    }
  }
  if (lone == 0)
    return;
  setLine(getLine() + lone);
  if (!lastIsLone)
    return;
  std::size_t column = 0; // in code points, as ANTLR counts
  for (std::size_t i = lastLineEnd + 1; i < text.size(); ++i)
    column += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  setCharPositionInLine(column);
}

void PykLexerBase::processEof(std::unique_ptr<antlr4::Token> eof) {
  if (lineJoiningPending_)
    reportAt(*eof, "unexpected end of file after line continuation character");
  // After another lexical error (an unterminated string swallowing the
  // closing bracket) the open bracket is a follow-on.
  if (bracketDepth_ > 0 && !droppingLine_ && !openBrackets_.empty() && errorCount_ == 0) {
    const OpenBracket &open = openBrackets_.back();
    const char *name = open.tokenType == PykLexer::LPAR ? "'('" : open.tokenType == PykLexer::LSQB ? "'['" : "'{'";
    reportError(open.line, open.column, std::string(name) + " was never closed");
  }
  if (!atLineStart_) {
    closeOpenBrackets(*eof);
    pushSynthetic(PykLexer::NEWLINE, "<NEWLINE>", *eof);
  }
  while (indentStack_.size() > 1) {
    indentStack_.pop_back();
    pushSynthetic(PykLexer::DEDENT, "<DEDENT>", *eof);
  }
  endLogicalLine();
  pending_.push_back(std::move(eof));
  finished_ = true;
}

void PykLexerBase::processNewline(std::unique_ptr<antlr4::Token> newline) {
  if (atLineStart_) {
    // A blank or comment-only line: the next line measures afresh.
    indentText_.clear();
    indentFrozen_ = false;
    pushHidden(std::move(newline));
    return;
  }
  if (bracketDepth_ > 0) {
    if (!droppingLine_)
      pushHidden(std::move(newline));
    return;
  }
  lineJoiningPending_ = false;
  closeOpenBrackets(*newline);
  pending_.push_back(std::move(newline));
  endLogicalLine();
}

void PykLexerBase::processSignificant(std::unique_ptr<antlr4::Token> tok) {
  const std::size_t tokenType = tok->getType();
  lineJoiningPending_ = false;
  if (droppingLine_) {
    trackBrackets(*tok, /*record=*/false);
    return;
  }
  const bool firstOnLine = atLineStart_;
  if (atLineStart_) {
    processIndentation(*tok);
    atLineStart_ = false;
  }
  trackBrackets(*tok, /*record=*/true);
  if (bracketDepth_ > kMaxBracketDepth) {
    reportAt(*tok, "too many nested parentheses (more than " + std::to_string(kMaxBracketDepth) + ")");
    droppingLine_ = true;
    return;
  }
  trackNesting(tokenType, firstOnLine);
  if (nestingTotal_ > kMaxExpressionNesting) {
    reportAt(*tok, "expression is too deeply nested (more than " + std::to_string(kMaxExpressionNesting) + " levels)");
    droppingLine_ = true;
    return;
  }
  previousType_ = tokenType;
  pending_.push_back(std::move(tok));
}

void PykLexerBase::processIndentation(const antlr4::Token &first) {
  const IndentLevel level = measureIndentation(indentText_);
  const IndentLevel top = indentStack_.back();
  if (level.width == top.width) {
    if (level.altWidth != top.altWidth)
      reportAt(first, "inconsistent use of tabs and spaces in indentation");
    return;
  }
  if (level.width > top.width) {
    if (level.altWidth <= top.altWidth) {
      // Deeper only with tabs 8 wide: keep the level, so that the parser
      // adds no error of its own.
      reportAt(first, "inconsistent use of tabs and spaces in indentation");
      return;
    }
    if (indentStack_.size() > kMaxIndentLevels) {
      if (!indentLimitReported_)
        reportAt(first, "too many levels of indentation (more than " + std::to_string(kMaxIndentLevels) + ")");
      indentLimitReported_ = true;
      return;
    }
    indentStack_.push_back(level);
    pushSynthetic(PykLexer::INDENT, "<INDENT>", first);
    return;
  }
  while (indentStack_.size() > 1 && level.width < indentStack_.back().width) {
    indentStack_.pop_back();
    pushSynthetic(PykLexer::DEDENT, "<DEDENT>", first);
  }
  if (level.width != indentStack_.back().width)
    reportAt(first, "unindent does not match any outer indentation level");
  else if (level.altWidth != indentStack_.back().altWidth)
    reportAt(first, "inconsistent use of tabs and spaces in indentation");
}

void PykLexerBase::trackBrackets(const antlr4::Token &tok, bool record) {
  const std::size_t tokenType = tok.getType();
  if (isOpeningBracket(tokenType)) {
    if (record && bracketDepth_ < kMaxBracketDepth)
      openBrackets_.push_back({tokenType, tok.getLine(), tok.getCharPositionInLine()});
    ++bracketDepth_;
    return;
  }
  if (isClosingBracket(tokenType) && bracketDepth_ > 0) {
    if (record && openBrackets_.size() == bracketDepth_) {
      const OpenBracket &open = openBrackets_.back();
      const std::size_t expected = open.tokenType == PykLexer::LPAR   ? PykLexer::RPAR
                                   : open.tokenType == PykLexer::LSQB ? PykLexer::RSQB
                                                                      : PykLexer::RBRACE;
      if (tokenType != expected) {
        const char *opening = open.tokenType == PykLexer::LPAR ? "'('" : open.tokenType == PykLexer::LSQB ? "'['" : "'{'";
        std::string message = "closing parenthesis '" + tok.getText() + "' does not match opening parenthesis " + opening;
        if (open.line != tok.getLine())
          message += " on line " + std::to_string(open.line);
        reportAt(tok, message);
      }
    }
    --bracketDepth_;
    if (record && openBrackets_.size() > bracketDepth_)
      openBrackets_.pop_back();
  }
}

void PykLexerBase::closeOpenBrackets(const antlr4::Token &at) {
  while (!openBrackets_.empty()) {
    switch (openBrackets_.back().tokenType) {
    case PykLexer::LPAR:
      pushSynthetic(PykLexer::RPAR, ")", at);
      break;
    case PykLexer::LSQB:
      pushSynthetic(PykLexer::RSQB, "]", at);
      break;
    default:
      pushSynthetic(PykLexer::RBRACE, "}", at);
      break;
    }
    openBrackets_.pop_back();
  }
}

void PykLexerBase::trackNesting(std::size_t tokenType, bool firstOnLine) {
  if (isOpeningBracket(tokenType)) {
    nesting_.emplace_back();
    return;
  }
  if (isClosingBracket(tokenType)) {
    if (nesting_.size() > 1) {
      nestingTotal_ -= nesting_.back().total();
      nesting_.pop_back();
    }
    return;
  }
  NestingLevel &level = nesting_.back();
  const bool infix = endsOperand(previousType_);
  const auto open = [&](std::size_t &counter) {
    ++counter;
    ++nestingTotal_;
  };
  const auto close = [&](std::size_t &counter) {
    nestingTotal_ -= counter;
    counter = 0;
  };
  switch (tokenType) {
  case PykLexer::PLUS:
  case PykLexer::MINUS:
    infix ? close(level.unary) : open(level.unary);
    return;
  case PykLexer::TILDE:
    open(level.unary);
    return;
  case PykLexer::DOUBLESTAR:
    if (infix)
      open(level.unary);
    return;
  case PykLexer::STAR:
  case PykLexer::SLASH:
  case PykLexer::DOUBLESLASH:
  case PykLexer::PERCENT:
  case PykLexer::AT:
  case PykLexer::LEFTSHIFT:
  case PykLexer::RIGHTSHIFT:
  case PykLexer::AMPER:
  case PykLexer::VBAR:
  case PykLexer::CIRCUMFLEX:
    if (infix)
      close(level.unary);
    return;
  case PykLexer::LESS:
  case PykLexer::GREATER:
  case PykLexer::EQEQUAL:
  case PykLexer::NOTEQUAL:
  case PykLexer::LESSEQUAL:
  case PykLexer::GREATEREQUAL:
  case PykLexer::IN:
  case PykLexer::IS:
    close(level.unary);
    return;
  case PykLexer::NOT:
    infix ? close(level.unary) : open(level.negation);
    return;
  case PykLexer::AND:
  case PykLexer::OR:
  case PykLexer::ELSE:
    close(level.unary);
    close(level.negation);
    return;
  case PykLexer::IF:
    if (firstOnLine)
      return;
    close(level.unary);
    close(level.negation);
    open(level.test);
    return;
  case PykLexer::LAMBDA:
    open(level.test);
    ++level.lambdaParameters;
    return;
  case PykLexer::COLON:
    if (level.lambdaParameters > 0)
      --level.lambdaParameters;
    return;
  case PykLexer::COMMA:
  case PykLexer::EQUAL:
  case PykLexer::FOR:
  case PykLexer::SEMI:
  case PykLexer::PLUSEQUAL:
  case PykLexer::MINEQUAL:
  case PykLexer::STAREQUAL:
  case PykLexer::SLASHEQUAL:
  case PykLexer::DOUBLESLASHEQUAL:
  case PykLexer::PERCENTEQUAL:
  case PykLexer::DOUBLESTAREQUAL:
  case PykLexer::ATEQUAL:
  case PykLexer::AMPEREQUAL:
  case PykLexer::VBAREQUAL:
  case PykLexer::CIRCUMFLEXEQUAL:
  case PykLexer::LEFTSHIFTEQUAL:
  case PykLexer::RIGHTSHIFTEQUAL:
    if (level.lambdaParameters == 0) {
      close(level.unary);
      close(level.negation);
      close(level.test);
    }
    return;
  default:
    return;
  }
}

void PykLexerBase::endLogicalLine() {
  atLineStart_ = true;
  droppingLine_ = false;
  indentText_.clear();
  indentFrozen_ = false;
  openBrackets_.clear();
  bracketDepth_ = 0;
  nesting_.assign(1, NestingLevel{});
  nestingTotal_ = 0;
  previousType_ = 0;
}

void PykLexerBase::pushSynthetic(std::size_t tokenType, const std::string &text, const antlr4::Token &at) {
  const std::size_t start = at.getStartIndex();
  const std::size_t stop = start == 0 ? 0 : start - 1;
  pending_.push_back(_factory->create({this, _input}, tokenType, text, Token::DEFAULT_CHANNEL, start, stop,
                                      at.getLine(), at.getCharPositionInLine()));
}

void PykLexerBase::pushHidden(std::unique_ptr<antlr4::Token> tok) {
  static_cast<antlr4::WritableToken &>(*tok).setChannel(Token::HIDDEN_CHANNEL);
  pending_.push_back(std::move(tok));
}

void PykLexerBase::reportError(std::size_t line, std::size_t column, const std::string &message) {
  ++errorCount_;
  getErrorListenerDispatch().syntaxError(this, nullptr, line, column, message, nullptr);
}

void PykLexerBase::reportAt(const antlr4::Token &tok, const std::string &message) {
  reportError(tok.getLine(), tok.getCharPositionInLine(), message);
}

} // namespace pyk::grammar
