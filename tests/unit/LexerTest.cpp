// Unit tests of the grammar stage: PykLexerBase's line structure (NEWLINE,
// INDENT, DEDENT), its lexical errors and limits, and a few parser checks
// (a representative kernel file parses cleanly; `-x ** 2` is `-(x ** 2)`).
//
// Not for: what pyk accepts or rejects (frontend tests) or the exact wording
// of ANTLR's own parser messages.

#include "PykLexer.h"
#include "PykParser.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace {

using pyk::grammar::PykLexer;
using pyk::grammar::PykParser;

/// Collects every reported error as "line:column: message".
class CollectingErrorListener : public antlr4::BaseErrorListener {
public:
  void syntaxError(antlr4::Recognizer * /*recognizer*/, antlr4::Token * /*offendingSymbol*/, size_t line,
                   size_t charPositionInLine, const std::string &msg, std::exception_ptr /*e*/) override {
    errors.push_back(std::to_string(line) + ":" + std::to_string(charPositionInLine) + ": " + msg);
  }

  std::vector<std::string> errors;
};

/// The default-channel tokens of a source text, and the lexer's errors.
struct Lexed {
  std::vector<std::string> names;     ///< Symbolic token names, EOF included.
  std::vector<std::string> positions; ///< "line:column" of each token.
  std::vector<std::unique_ptr<antlr4::Token>> tokens;
  std::vector<std::string> errors;

  /// The names joined with spaces: "NAME NEWLINE INDENT ... EOF".
  std::string types() const {
    std::string joined;
    for (const std::string &name : names)
      joined += (joined.empty() ? "" : " ") + name;
    return joined;
  }
};

Lexed lex(const std::string &source) {
  antlr4::ANTLRInputStream input(source);
  PykLexer lexer(&input);
  CollectingErrorListener listener;
  lexer.removeErrorListeners();
  lexer.addErrorListener(&listener);
  Lexed result;
  // Bounded, so that a lexer that never reaches EOF fails instead of hanging.
  for (size_t i = 0; i < 10 * source.size() + 100; ++i) {
    std::unique_ptr<antlr4::Token> token = lexer.nextToken();
    const size_t type = token->getType();
    if (token->getChannel() == antlr4::Token::DEFAULT_CHANNEL) {
      result.names.push_back(type == antlr4::Token::EOF ? "EOF"
                                                        : std::string(lexer.getVocabulary().getSymbolicName(type)));
      result.positions.push_back(std::to_string(token->getLine()) + ":" +
                                 std::to_string(token->getCharPositionInLine()));
      result.tokens.push_back(std::move(token));
    }
    if (type == antlr4::Token::EOF)
      break;
  }
  result.errors = listener.errors;
  return result;
}

/// A parse with everything it depends on kept alive.
struct Parsed {
  std::unique_ptr<antlr4::ANTLRInputStream> input;
  std::unique_ptr<PykLexer> lexer;
  std::unique_ptr<antlr4::CommonTokenStream> tokens;
  std::unique_ptr<PykParser> parser;
  CollectingErrorListener listener;
  antlr4::tree::ParseTree *tree = nullptr;
};

enum class Entry { File, Eval };

std::unique_ptr<Parsed> parse(const std::string &source, Entry entry = Entry::File) {
  auto result = std::make_unique<Parsed>();
  result->input = std::make_unique<antlr4::ANTLRInputStream>(source);
  result->lexer = std::make_unique<PykLexer>(result->input.get());
  result->lexer->removeErrorListeners();
  result->lexer->addErrorListener(&result->listener);
  result->tokens = std::make_unique<antlr4::CommonTokenStream>(result->lexer.get());
  result->parser = std::make_unique<PykParser>(result->tokens.get());
  result->parser->removeErrorListeners();
  result->parser->addErrorListener(&result->listener);
  if (entry == Entry::File)
    result->tree = result->parser->fileInput();
  else
    result->tree = result->parser->evalInput();
  return result;
}

/// Every node of type T, in source order (an explicit stack, no recursion).
template <typename T> std::vector<T *> findAll(antlr4::tree::ParseTree *tree) {
  std::vector<T *> found;
  std::vector<antlr4::tree::ParseTree *> stack{tree};
  while (!stack.empty()) {
    antlr4::tree::ParseTree *node = stack.back();
    stack.pop_back();
    if (auto *match = dynamic_cast<T *>(node))
      found.push_back(match);
    for (auto it = node->children.rbegin(); it != node->children.rend(); ++it)
      stack.push_back(*it);
  }
  return found;
}

/// The first node of type T in source order, or nullptr.
template <typename T> T *findFirst(antlr4::tree::ParseTree *tree) {
  std::vector<T *> found = findAll<T>(tree);
  return found.empty() ? nullptr : found.front();
}

std::string repeat(const std::string &text, size_t count) {
  std::string out;
  out.reserve(text.size() * count);
  for (size_t i = 0; i < count; ++i)
    out += text;
  return out;
}

// ------------------------------------------------------------ Line structure

TEST(LexerTest, EmptyFileIsJustEof) {
  Lexed lexed = lex("");
  EXPECT_EQ(lexed.types(), "EOF");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, SpacesCommentsAndBlankLinesAloneAreJustEof) {
  EXPECT_EQ(lex("    ").types(), "EOF");
  EXPECT_EQ(lex("\n\n   \n\t\n").types(), "EOF");
  EXPECT_EQ(lex("# only a comment").types(), "EOF");
  EXPECT_EQ(lex("  # indented comment\n# another\n").types(), "EOF");
  EXPECT_TRUE(lex("  # c\n").errors.empty());
}

TEST(LexerTest, SimpleIndentAndDedent) {
  Lexed lexed = lex("if x:\n    y = 1\nz\n");
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT NAME EQUAL INTEGER "
                           "NEWLINE DEDENT NAME NEWLINE EOF");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, IndentAndDedentSitAtTheFirstTokenOfTheLine) {
  Lexed lexed = lex("if x:\n    y\nz\n");
  // IF NAME COLON NEWLINE INDENT NAME NEWLINE DEDENT NAME NEWLINE EOF
  ASSERT_EQ(lexed.names.size(), 11u);
  EXPECT_EQ(lexed.names[4], "INDENT");
  EXPECT_EQ(lexed.positions[4], "2:4");
  EXPECT_EQ(lexed.tokens[4]->getStartIndex(), 10u);
  EXPECT_EQ(lexed.tokens[4]->getStopIndex(), 9u);
  EXPECT_EQ(lexed.tokens[4]->getText(), "<INDENT>");
  EXPECT_EQ(lexed.names[7], "DEDENT");
  EXPECT_EQ(lexed.positions[7], "3:0");
  EXPECT_EQ(lexed.tokens[7]->getStartIndex(), 12u);
  EXPECT_EQ(lexed.tokens[7]->getStopIndex(), 11u);
}

TEST(LexerTest, SeveralDedentsAtOnce) {
  Lexed lexed = lex("if a:\n  if b:\n    if c:\n      d\ne\n");
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT IF NAME COLON NEWLINE INDENT IF NAME "
                           "COLON NEWLINE INDENT NAME NEWLINE DEDENT DEDENT DEDENT NAME "
                           "NEWLINE EOF");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, DedentToAnIntermediateLevel) {
  Lexed lexed = lex("if a:\n  if b:\n    c\n  d\n");
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT IF NAME COLON NEWLINE INDENT NAME "
                           "NEWLINE DEDENT NAME NEWLINE DEDENT EOF");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, BlankAndCommentLinesInsideABlockAreIgnored) {
  Lexed lexed = lex("if a:\n    b\n\n    # c\n  # shallower comment\n"
                    "        # deeper comment\n\t\n    e\n");
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT NAME NEWLINE NAME "
                           "NEWLINE DEDENT EOF");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, TrailingCommentDoesNotChangeTheLine) {
  EXPECT_EQ(lex("x = 1  # one\n").types(), "NAME EQUAL INTEGER NEWLINE EOF");
}

TEST(LexerTest, ImplicitJoiningInsideBrackets) {
  Lexed lexed = lex("x = (1,\n  2,\n        [3,\n\n 4], {5:\n6})\ny\n");
  EXPECT_EQ(lexed.types(), "NAME EQUAL LPAR INTEGER COMMA INTEGER COMMA LSQB INTEGER COMMA "
                           "INTEGER RSQB COMMA LBRACE INTEGER COLON INTEGER RBRACE RPAR "
                           "NEWLINE NAME NEWLINE EOF");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, ImplicitJoiningInsideAnIndentedBlock) {
  Lexed lexed = lex("def f(a,\nb):\n    return g(a,\n  b)\n");
  EXPECT_EQ(lexed.types(), "DEF NAME LPAR NAME COMMA NAME RPAR COLON NEWLINE INDENT RETURN "
                           "NAME LPAR NAME COMMA NAME RPAR NEWLINE DEDENT EOF");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, BackslashContinuationJoinsLines) {
  Lexed lexed = lex("x = 1 + \\\n        2\ny\n");
  EXPECT_EQ(lexed.types(), "NAME EQUAL INTEGER PLUS INTEGER NEWLINE NAME NEWLINE EOF");
  EXPECT_TRUE(lexed.errors.empty());
  EXPECT_EQ(lexed.positions[4], "2:8");
}

TEST(LexerTest, BackslashContinuationInsideABlock) {
  Lexed lexed = lex("if a:\n    x = \\\n1\n    y\n");
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT NAME EQUAL INTEGER "
                           "NEWLINE NAME NEWLINE DEDENT EOF");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, BackslashNotBeforeALineEndIsAnError) {
  Lexed lexed = lex("x = 1 \\ + 2\n");
  EXPECT_EQ(lexed.types(), "NAME EQUAL INTEGER PLUS INTEGER NEWLINE EOF");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "1:6: unexpected character after line continuation character");
}

TEST(LexerTest, FileOfOnlyABackslash) {
  Lexed lexed = lex("\\");
  EXPECT_EQ(lexed.types(), "EOF");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "1:0: unexpected character after line continuation character");
}

TEST(LexerTest, MissingFinalNewlineIsAdded) {
  Lexed lexed = lex("x = 1");
  EXPECT_EQ(lexed.types(), "NAME EQUAL INTEGER NEWLINE EOF");
  EXPECT_EQ(lexed.positions[3], "1:5");
  EXPECT_EQ(lexed.tokens[3]->getText(), "<NEWLINE>");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, MissingFinalNewlineAfterAComment) {
  EXPECT_EQ(lex("x  # c").types(), "NAME NEWLINE EOF");
}

TEST(LexerTest, DedentsAtEndOfFile) {
  Lexed lexed = lex("if a:\n  if b:\n    c");
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT IF NAME COLON NEWLINE "
                           "INDENT NAME NEWLINE DEDENT DEDENT EOF");
  // The added NEWLINE and the DEDENTs sit at the end-of-file position.
  const size_t n = lexed.names.size();
  EXPECT_EQ(lexed.positions[n - 4], "3:5");
  EXPECT_EQ(lexed.positions[n - 3], "3:5");
  EXPECT_EQ(lexed.positions[n - 2], "3:5");
  EXPECT_EQ(lexed.positions[n - 1], "3:5");
}

TEST(LexerTest, DedentsAtEndOfFileAfterNewline) {
  Lexed lexed = lex("if a:\n    b\n");
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT NAME NEWLINE DEDENT EOF");
  EXPECT_EQ(lexed.positions[7], "3:0");
}

TEST(LexerTest, CrLfLineEnds) {
  Lexed lexed = lex("if a:\r\n    b = (1,\r\n  2)\r\n\r\nc\r\n");
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT NAME EQUAL LPAR INTEGER COMMA INTEGER "
                           "RPAR NEWLINE DEDENT NAME NEWLINE EOF");
  EXPECT_TRUE(lexed.errors.empty());
  EXPECT_EQ(lexed.positions[14], "5:0"); // `c`
}

TEST(LexerTest, LoneCarriageReturnEndsALine) {
  Lexed lexed = lex("x = 1\ry = 2\r");
  EXPECT_EQ(lexed.types(), "NAME EQUAL INTEGER NEWLINE NAME EQUAL INTEGER NEWLINE EOF");
  EXPECT_EQ(lexed.positions[4], "2:0");
}

TEST(LexerTest, LoneCarriageReturnInsideAStringEndsALine) {
  Lexed lexed = lex("s = '''a\rbc''' + 1\rx\r");
  EXPECT_EQ(lexed.types(), "NAME EQUAL STRING PLUS INTEGER NEWLINE NAME NEWLINE EOF");
  EXPECT_EQ(lexed.positions[3], "2:6"); // `+`
  EXPECT_EQ(lexed.positions[6], "3:0"); // `x`
}

TEST(LexerTest, SemicolonsDoNotEndTheLogicalLine) {
  EXPECT_EQ(lex("a; b;\n").types(), "NAME SEMI NAME SEMI NEWLINE EOF");
}

// --------------------------------------------------------------- Indentation

TEST(LexerTest, UnindentMismatchIsAnError) {
  Lexed lexed = lex("if a:\n    b\n  c\n");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "3:2: unindent does not match any outer indentation level");
  // Lexing goes on: the popped level still gives its DEDENT.
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT NAME NEWLINE DEDENT "
                           "NAME NEWLINE EOF");
}

TEST(LexerTest, InconsistentTabsAndSpacesAtTheSameLevel) {
  // A tab and eight spaces are the same width only if tabs are 8 wide.
  Lexed lexed = lex("if a:\n\tb\n        c\n");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "3:8: inconsistent use of tabs and spaces in indentation");
}

TEST(LexerTest, InconsistentTabsAndSpacesWhenIndenting) {
  // Deeper with tabs 8 wide, not deeper with tabs 1 wide.
  Lexed lexed = lex("if a:\n    b\n    if c:\n\td\n");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "4:1: inconsistent use of tabs and spaces in indentation");
  // The line stays at the open level: no INDENT, so no parser error follows.
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT NAME NEWLINE IF NAME COLON NEWLINE NAME NEWLINE DEDENT EOF");
}

TEST(LexerTest, InconsistentTabsAndSpacesWhenDedenting) {
  // Back to the tab level with eight spaces.
  Lexed lexed = lex("if a:\n\tif b:\n\t\tc\n        d\n");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "4:8: inconsistent use of tabs and spaces in indentation");
}

TEST(LexerTest, TabsUsedConsistentlyAreAccepted) {
  Lexed lexed = lex("if a:\n\tif b:\n\t\tc\n\td\ne\n");
  EXPECT_TRUE(lexed.errors.empty());
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT IF NAME COLON NEWLINE INDENT NAME "
                           "NEWLINE DEDENT NAME NEWLINE DEDENT NAME NEWLINE EOF");
}

TEST(LexerTest, SameMixOfTabsAndSpacesOnEveryLineIsAccepted) {
  Lexed lexed = lex("if a:\n  \tb\n  \tc\n");
  EXPECT_TRUE(lexed.errors.empty());
  EXPECT_EQ(lexed.types(), "IF NAME COLON NEWLINE INDENT NAME NEWLINE NAME NEWLINE DEDENT EOF");
}

TEST(LexerTest, TooManyIndentationLevels) {
  std::string source;
  for (size_t level = 0; level <= 101; ++level)
    source += std::string(level, ' ') + "if x:\n";
  source += std::string(102, ' ') + "pass\n";
  Lexed lexed = lex(source);
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "102:101: too many levels of indentation (more than 100)");
  size_t indents = 0;
  for (const std::string &name : lexed.names)
    indents += name == "INDENT";
  EXPECT_EQ(indents, 100u);
}

TEST(LexerTest, UnexpectedIndentIsLeftToTheParser) {
  Lexed lexed = lex("  x\n");
  EXPECT_EQ(lexed.types(), "INDENT NAME NEWLINE DEDENT EOF");
  EXPECT_TRUE(lexed.errors.empty());
  auto parsed = parse("  x\n");
  EXPECT_FALSE(parsed->listener.errors.empty());
}

// ------------------------------------------------------------ Lexical errors

TEST(LexerTest, UnterminatedStringAtTheOpeningQuote) {
  Lexed lexed = lex("x = 'abc\ny = \"d\n");
  EXPECT_EQ(lexed.types(), "NAME EQUAL STRING NEWLINE NAME EQUAL STRING NEWLINE EOF");
  ASSERT_EQ(lexed.errors.size(), 2u);
  EXPECT_EQ(lexed.errors[0], "1:4: unterminated string literal");
  EXPECT_EQ(lexed.errors[1], "2:4: unterminated string literal");
}

TEST(LexerTest, UnterminatedStringAtEndOfFile) {
  Lexed lexed = lex("x = rb'abc\\");
  EXPECT_EQ(lexed.types(), "NAME EQUAL STRING NEWLINE EOF");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "1:4: unterminated string literal");
}

TEST(LexerTest, UnterminatedTripleQuotedString) {
  Lexed lexed = lex("x = 1\ns = '''abc\n\ndef ''\n");
  EXPECT_EQ(lexed.types(), "NAME EQUAL INTEGER NEWLINE NAME EQUAL STRING "
                           "NEWLINE EOF");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "2:4: unterminated triple-quoted string literal");
  Lexed doubleQuoted = lex("  \"\"\"doc");
  ASSERT_EQ(doubleQuoted.errors.size(), 1u);
  EXPECT_EQ(doubleQuoted.errors[0], "1:2: unterminated triple-quoted string literal");
}

TEST(LexerTest, StringForms) {
  Lexed lexed = lex("'a' \"b\" '''c\n'd'\n''' \"\"\"e\"\"\" r'\\'' b'x' Rb'y' "
                    "bR'z' f'{v}' u'w' '' '\\\n'\n");
  EXPECT_EQ(lexed.types(), "STRING STRING STRING STRING STRING STRING STRING "
                           "STRING STRING STRING STRING STRING NEWLINE EOF");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, NumberForms) {
  Lexed lexed = lex("0 00 7 1_000 0xFF 0o17 0b1_0 1. .5 1.5 1e-3 1.5E+3 1_0.0_1 "
                    "1j 1.5J 1e3j\n");
  EXPECT_EQ(lexed.types(), "INTEGER INTEGER INTEGER INTEGER INTEGER INTEGER INTEGER "
                           "FLOAT_NUMBER FLOAT_NUMBER FLOAT_NUMBER FLOAT_NUMBER FLOAT_NUMBER "
                           "FLOAT_NUMBER IMAG_NUMBER IMAG_NUMBER IMAG_NUMBER NEWLINE EOF");
  EXPECT_TRUE(lexed.errors.empty());
}

TEST(LexerTest, LeadingZerosAreAnError) {
  Lexed lexed = lex("x = 0123\n");
  EXPECT_EQ(lexed.types(), "NAME EQUAL INTEGER NEWLINE EOF");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "1:4: leading zeros in decimal integer literals are not permitted; "
                             "use an 0o prefix for octal integers");
}

TEST(LexerTest, InvalidCharacters) {
  Lexed lexed = lex("x = $ ? !\n");
  EXPECT_EQ(lexed.types(), "NAME EQUAL NEWLINE EOF");
  ASSERT_EQ(lexed.errors.size(), 3u);
  EXPECT_EQ(lexed.errors[0], "1:4: invalid character '$' (U+0024)");
  EXPECT_EQ(lexed.errors[1], "1:6: invalid character '?' (U+003F)");
  EXPECT_EQ(lexed.errors[2], "1:8: invalid character '!' (U+0021)");
}

TEST(LexerTest, NonAsciiLettersInNamesAreInvalid) {
  Lexed lexed = lex("\xC3\xA9t\xC3\xA9 = 1\n"); // "été": said once
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "1:0: non-ASCII letter '\xC3\xA9' in a name: pyk names use ASCII letters, digits and "
                             "'_' only");
  Lexed emoji = lex("x = \xF0\x9F\x98\x80\n");
  ASSERT_EQ(emoji.errors.size(), 1u);
  EXPECT_EQ(emoji.errors[0], "1:4: invalid character '\xF0\x9F\x98\x80' (U+1F600)");
}

TEST(LexerTest, NonAsciiInStringsAndCommentsIsFine) {
  Lexed lexed = lex("s = '\xC3\xA9'  # \xC3\xA9\n");
  EXPECT_TRUE(lexed.errors.empty());
  EXPECT_EQ(lexed.types(), "NAME EQUAL STRING NEWLINE EOF");
}

TEST(LexerTest, NulAndControlCharacters) {
  Lexed lexed = lex(std::string("x = 1\0\n\x01", 8));
  EXPECT_EQ(lexed.types(), "NAME EQUAL INTEGER NEWLINE EOF");
  ASSERT_EQ(lexed.errors.size(), 2u);
  EXPECT_EQ(lexed.errors[0], "1:5: invalid non-printable character (U+0000)");
  EXPECT_EQ(lexed.errors[1], "2:0: invalid non-printable character (U+0001)");
}

TEST(LexerTest, ByteOrderMarkAtStartIsSkipped) {
  Lexed lexed = lex("\xEF\xBB\xBFx = 1\n");
  EXPECT_TRUE(lexed.errors.empty());
  EXPECT_EQ(lexed.types(), "NAME EQUAL INTEGER NEWLINE EOF");
}

TEST(LexerTest, UnclosedBracketAtEndOfFile) {
  Lexed lexed = lex("x = f(a, [1,\n  2\n");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "1:9: '[' was never closed");
  // The closers are added at the end of the file, so the parser adds no error.
  EXPECT_EQ(lexed.types(), "NAME EQUAL NAME LPAR NAME COMMA LSQB INTEGER COMMA INTEGER RSQB RPAR NEWLINE EOF");
  EXPECT_EQ(lexed.positions[10], "3:0");
  EXPECT_EQ(lexed.tokens[10]->getText(), "]");
  auto parsed = parse("x = f(a, [1,\n  2\n");
  ASSERT_EQ(parsed->listener.errors.size(), 1u);
}

TEST(LexerTest, BackslashContinuationIntoEndOfFile) {
  Lexed lexed = lex("x = 4\\\n");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "2:0: unexpected end of file after line continuation character");
  EXPECT_TRUE(lex("x = 4\\\n\ny = 5\n").errors.empty());
}

TEST(LexerTest, LexerAndParserErrorsReachTheSameListener) {
  auto parsed = parse("x = $\n");
  ASSERT_EQ(parsed->listener.errors.size(), 2u);
  EXPECT_EQ(parsed->listener.errors[0], "1:4: invalid character '$' (U+0024)");
  EXPECT_EQ(parsed->listener.errors[1].substr(0, 4), "1:5:");
  EXPECT_EQ(parsed->lexer->getNumberOfSyntaxErrors(), 1u);
}

// -------------------------------------------------------------------- Limits

TEST(LexerTest, BracketNestingLimit) {
  Lexed lexed = lex("x = " + repeat("(", 201) + "1" + repeat(")", 201) + "\n");
  ASSERT_EQ(lexed.errors.size(), 1u);
  EXPECT_EQ(lexed.errors[0], "1:204: too many nested parentheses (more than 200)");
  // The rest of the logical line is dropped; the parser gets closers for the
  // brackets it saw and the NEWLINE.
  EXPECT_EQ(lexed.types(), "NAME EQUAL " + repeat("LPAR ", 200) + repeat("RPAR ", 200) + "NEWLINE EOF");
  EXPECT_EQ(parse("x = " + repeat("(", 201) + "1" + repeat(")", 201) + "\n")->listener.errors.size(), 1u);
  // 200 levels are fine.
  EXPECT_TRUE(lex("x = " + repeat("[", 200) + repeat("]", 200) + "\n").errors.empty());
}

TEST(LexerTest, BracketNestingLimitIsPerLogicalLine) {
  std::string line = "x = " + repeat("{", 201) + repeat("}", 201) + "\n";
  Lexed lexed = lex(line + "y = 1\n" + line);
  ASSERT_EQ(lexed.errors.size(), 2u);
  EXPECT_EQ(lexed.errors[1], "3:204: too many nested parentheses (more than 200)");
}

TEST(LexerTest, HundredThousandOpenParenthesesDoNotCrash) {
  const std::string source = repeat("(", 100000);
  auto parsed = parse(source);
  ASSERT_FALSE(parsed->listener.errors.empty());
  EXPECT_EQ(parsed->listener.errors[0], "1:200: too many nested parentheses (more than 200)");
  auto balanced = parse("x = " + source + "1" + repeat(")", 100000) + "\n");
  ASSERT_FALSE(balanced->listener.errors.empty());
  EXPECT_EQ(balanced->listener.errors[0], "1:204: too many nested parentheses (more than 200)");
}

TEST(LexerTest, HundredThousandUnaryMinusDoNotCrash) {
  auto parsed = parse("x = " + repeat("-", 100000) + "1\n");
  ASSERT_FALSE(parsed->listener.errors.empty());
  EXPECT_EQ(parsed->listener.errors[0], "1:204: expression is too deeply nested (more than 200 levels)");
  // 200 are fine.
  EXPECT_TRUE(parse("x = " + repeat("- ", 200) + "1\n")->listener.errors.empty());
}

TEST(LexerTest, OtherNestingTokensHaveTheSameLimit) {
  const std::string message = "expression is too deeply nested (more than 200 levels)";
  const std::vector<std::string> sources = {
      "x = " + repeat("not ", 10000) + "y\n",         "x = " + repeat("~", 10000) + "y\n",
      "x = " + repeat("2 ** ", 10000) + "2\n",        "x = " + repeat("lambda: ", 10000) + "1\n",
      "x = " + repeat("a if b else ", 10000) + "c\n", "x = " + repeat("(+", 150) + repeat("-", 100) + "1\n",
  };
  for (const std::string &source : sources) {
    auto parsed = parse(source);
    ASSERT_FALSE(parsed->listener.errors.empty()) << source.substr(0, 20);
    EXPECT_NE(parsed->listener.errors[0].find(message), std::string::npos) << parsed->listener.errors[0];
  }
}

TEST(LexerTest, FlatExpressionsAreNotNested) {
  // Each operand closes its unary, `**` or `not` level: no limit applies.
  const std::vector<std::string> sources = {
      "table = (" + repeat("-1.5, ", 1000) + ")\n", "table = {" + repeat("-1: -2, ", 1000) + "}\n",
      "f(" + repeat("-a, ", 1000) + ")\n",          "p = " + repeat("c * x ** 2 + ", 1000) + "1\n",
      "p = " + repeat("-a * -b - ", 1000) + "1\n",  "ok = " + repeat("not a and ", 1000) + "b\n",
      "ok = " + repeat("-a < ", 1000) + "b\n",      "x = [" + repeat("a if b else c, ", 1000) + "]\n",
      "x = -1; " + repeat("y = -1; ", 1000) + "\n",
  };
  for (const std::string &source : sources) {
    auto parsed = parse(source);
    EXPECT_TRUE(parsed->listener.errors.empty()) << source.substr(0, 30) << ": " << parsed->listener.errors.front();
  }
}

TEST(LexerTest, NestingAddsUpAcrossBrackets) {
  auto parsed = parse("x = " + repeat("(-", 150) + repeat("-", 60) + "1\n");
  ASSERT_FALSE(parsed->listener.errors.empty());
  EXPECT_EQ(parsed->listener.errors[0], "1:354: expression is too deeply nested (more than 200 levels)");
}

TEST(LexerTest, LambdaParametersDoNotCloseLevels) {
  auto parsed = parse("f = " + repeat("lambda a, b=1: ", 300) + "1\n");
  ASSERT_FALSE(parsed->listener.errors.empty());
  EXPECT_EQ(parsed->listener.errors[0], "1:3004: expression is too deeply nested (more than 200 levels)");
  EXPECT_TRUE(parse("f = lambda a=lambda b, c: 1, d: 2\n")->listener.errors.empty());
}

TEST(LexerTest, BinaryOperatorsAndUnpackingAreNotNesting) {
  // Infix `-` and `not in`, prefix `**` (unpacking) do not recurse.
  std::string minus = "x = a" + repeat(" - a", 1000) + "\n";
  std::string notIn = "x = a" + repeat(" not in a", 300) + "\n";
  std::string unpack = "x = {" + repeat("**a, ", 300) + "}\n";
  EXPECT_TRUE(parse(minus)->listener.errors.empty());
  EXPECT_TRUE(parse(notIn)->listener.errors.empty());
  EXPECT_TRUE(parse(unpack)->listener.errors.empty());
}

TEST(LexerTest, LongFlatInputsParse) {
  EXPECT_TRUE(parse("x = " + repeat("a + ", 5000) + "a\n")->listener.errors.empty());
  EXPECT_TRUE(parse("f(" + repeat("a, ", 5000) + ")\n")->listener.errors.empty());
  EXPECT_TRUE(parse(repeat("x = 1\n", 5000))->listener.errors.empty());
  EXPECT_TRUE(parse("x = a" + repeat(".b[0](c)", 2000) + "\n")->listener.errors.empty());
}

TEST(LexerTest, HostileInputsDoNotCrash) {
  std::string garbage;
  unsigned state = 12345;
  for (int i = 0; i < 20000; ++i) {
    state = state * 1103515245u + 12345u;
    garbage += static_cast<char>((state >> 16) % 128);
  }
  const std::vector<std::string> sources = {
      garbage,
      std::string(1000, '\0'),
      repeat("\t \n", 1000),
      repeat("    \\\n", 1000),
      repeat("'''", 1001),
      repeat("[{(", 40000),
      repeat(")]}", 40000),
      repeat("await ", 10000) + "x\n",
      repeat("@d\n", 10000),
      "x = [y " + repeat("for y in z ", 10000) + "]\n",
  };
  for (const std::string &source : sources) {
    auto parsed = parse(source);
    SUCCEED();
  }
}

// -------------------------------------------------------------------- Parser

const char *const kRepresentativeKernel = R"pyk("""Kernels for the parser smoke test."""
from numba import cuda, float32
from .util import (clamp as clip, scale,)
import math, numpy as np

TPB = 16
EPS = 1e-3
SHAPE = (TPB, TPB)


@cuda.jit(device=True, inline=True)
def square(v: float32) -> float32:
    return v * v


@cuda.jit("void(float32[:], float32[:], float32[:])")
def vector_add(x, y, out):
    """Add two vectors."""
    idx = cuda.grid(1)
    if idx < x.shape[0]:
        out[idx] = x[idx] + y[idx]


@cuda.jit
def matmul(A: float32[:, ::1], B: float32[:, :], C: float32[:, :]):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tmp = float32(0.)
    for i in range(cuda.gridDim.x):
        if 0 <= y < A.shape[0] and x is not None:
            sA[cuda.threadIdx.y, cuda.threadIdx.x] = A[y, i * TPB]
        cuda.syncthreads()
        tmp += -sA[0, 0] ** 2 + 2 ** -1
    C[y, x] = tmp if tmp > 0 else -tmp
    assert x >= 0, "negative"


class Config(object):
    scale: float = 1.5

    @staticmethod
    def make(*args, key=None, **kwargs):
        f = lambda a, b=2: a + b
        squares = [k * k for k in range(10) if k % 2]
        table = {k: v for k, v in kwargs.items()}
        unique = {k for k in args}
        total = sum(k for k in args)
        try:
            with open("cfg") as handle, lock:
                data = handle.read()
        except (IOError, ValueError) as error:
            raise RuntimeError("bad") from error
        finally:
            pass
        while total > 0:
            total -= 1
        else:
            del table
        return f, squares, unique, data
)pyk";

TEST(ParserTest, RepresentativeKernelParsesWithoutErrors) {
  auto parsed = parse(kRepresentativeKernel);
  EXPECT_TRUE(parsed->listener.errors.empty()) << parsed->listener.errors.front();
  EXPECT_EQ(parsed->parser->getNumberOfSyntaxErrors(), 0u);
}

TEST(ParserTest, UnaryMinusBindsLooserThanPower) {
  auto parsed = parse("y = -x ** 2\n");
  ASSERT_TRUE(parsed->listener.errors.empty());
  auto *minus = findFirst<PykParser::UnaryMinusContext>(parsed->tree);
  ASSERT_NE(minus, nullptr);
  auto *operand = dynamic_cast<PykParser::PowerFactorContext *>(minus->operand);
  ASSERT_NE(operand, nullptr);
  PykParser::PowerContext *power = operand->power();
  ASSERT_NE(power->exponent, nullptr);
  EXPECT_EQ(power->base->getText(), "x");
  EXPECT_EQ(power->exponent->getText(), "2");
  EXPECT_NE(minus->toStringTree(parsed->parser.get())
                .find("(factor - (factor (power (awaitPrimary (primary "
                      "(atom x))) ** (factor"),
            std::string::npos);
}

TEST(ParserTest, PowerTakesAUnaryExponentAndIsRightAssociative) {
  auto parsed = parse("y = 2 ** -1 * 3\nz = a ** b ** c\n");
  ASSERT_TRUE(parsed->listener.errors.empty());
  // `2 ** -1 * 3` is a term of two factors, the first being `2 ** (-1)`.
  PykParser::TermContext *term = nullptr;
  for (auto *candidate : findAll<PykParser::TermContext>(parsed->tree))
    if (candidate->factor().size() == 2)
      term = candidate;
  ASSERT_NE(term, nullptr);
  EXPECT_EQ(term->factor(0)->getText(), "2**-1");
  auto *power = findFirst<PykParser::PowerContext>(term->factor(0));
  ASSERT_NE(power, nullptr);
  ASSERT_NE(power->exponent, nullptr);
  EXPECT_NE(dynamic_cast<PykParser::UnaryMinusContext *>(power->exponent), nullptr);
  // `a ** b ** c` is `a ** (b ** c)`.
  PykParser::PowerContext *outer = nullptr;
  for (auto *candidate : findAll<PykParser::PowerContext>(parsed->tree))
    if (candidate->getText() == "a**b**c")
      outer = candidate;
  ASSERT_NE(outer, nullptr);
  EXPECT_EQ(outer->base->getText(), "a");
  EXPECT_EQ(outer->exponent->getText(), "b**c");
}

TEST(ParserTest, ChainedComparisonIsOneNode) {
  auto parsed = parse("ok = 0 <= i < n\n");
  ASSERT_TRUE(parsed->listener.errors.empty());
  PykParser::ComparisonContext *comparison = nullptr;
  for (auto *candidate : findAll<PykParser::ComparisonContext>(parsed->tree))
    if (!candidate->compOp().empty())
      comparison = candidate;
  ASSERT_NE(comparison, nullptr);
  ASSERT_EQ(comparison->expr().size(), 3u);
  ASSERT_EQ(comparison->compOp().size(), 2u);
  EXPECT_NE(dynamic_cast<PykParser::LeOpContext *>(comparison->compOp(0)), nullptr);
  EXPECT_NE(dynamic_cast<PykParser::LtOpContext *>(comparison->compOp(1)), nullptr);
}

TEST(ParserTest, SubscriptsWithSlices) {
  auto parsed = parse("a[i, j]\nb[:, ::1]\nc[1:2:3]\n");
  ASSERT_TRUE(parsed->listener.errors.empty());
  std::vector<PykParser::SubscriptContext *> subscripts = findAll<PykParser::SubscriptContext>(parsed->tree);
  ASSERT_EQ(subscripts.size(), 5u);
  EXPECT_EQ(subscripts[0]->sliceTail(), nullptr); // i
  EXPECT_EQ(subscripts[1]->sliceTail(), nullptr); // j
  ASSERT_NE(subscripts[2]->sliceTail(), nullptr); // :
  EXPECT_EQ(subscripts[2]->lower, nullptr);
  EXPECT_EQ(subscripts[2]->sliceTail()->upper, nullptr);
  ASSERT_NE(subscripts[3]->sliceTail(), nullptr); // ::1
  EXPECT_EQ(subscripts[3]->sliceTail()->step->getText(), "1");
  ASSERT_NE(subscripts[4]->sliceTail(), nullptr); // 1:2:3
  EXPECT_EQ(subscripts[4]->lower->getText(), "1");
  EXPECT_EQ(subscripts[4]->sliceTail()->upper->getText(), "2");
  EXPECT_EQ(subscripts[4]->sliceTail()->step->getText(), "3");
}

TEST(ParserTest, EvalInputParsesASignatureString) {
  auto parsed = parse("void(float32[:], float32[:, ::1])", Entry::Eval);
  EXPECT_TRUE(parsed->listener.errors.empty());
  auto indented = parse("  float32(int32, float32)", Entry::Eval);
  EXPECT_TRUE(indented->listener.errors.empty());
  auto bad = parse("void(float32[:]", Entry::Eval);
  ASSERT_EQ(bad->listener.errors.size(), 1u);
  EXPECT_EQ(bad->listener.errors[0], "1:4: '(' was never closed");
}

TEST(ParserTest, SoftKeywordsAreStillNames) {
  auto parsed = parse("match = 1\nmatch(x)\ncase = [type]\ntype = 2\n"
                      "match x:\n    case [a, *rest] if a:\n        pass\n"
                      "    case _:\n        pass\n"
                      "type Vector = list[float]\n");
  EXPECT_TRUE(parsed->listener.errors.empty()) << parsed->listener.errors.front();
  EXPECT_NE(findFirst<PykParser::MatchStmtContext>(parsed->tree), nullptr);
  EXPECT_NE(findFirst<PykParser::TypeAliasStmtContext>(parsed->tree), nullptr);
}

} // namespace
