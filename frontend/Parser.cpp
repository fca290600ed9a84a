//===- Parser.cpp - Drive the ANTLR lexer and parser ----------------------===//
//
// Parsing runs in two stages, as ANTLR recommends for speed: first with the
// fast SLL prediction and a strategy that gives up at the first error; only
// if that fails, again with full LL prediction and error recovery, so that
// the reported errors are the precise ones. ANTLR's exceptions stay inside
// this file; what leaves it is an AST or diagnostics.
//
//===----------------------------------------------------------------------===//
#include "Parser.h"

#include "ParseTree.h"

#include "PykLexer.h"
#include "PykParser.h"

#include <algorithm>
#include <limits>
#include <set>
#include <vector>

namespace pyk {

using grammar::PykLexer;
using grammar::PykParser;

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

SourceLoc LocationMap::at(size_t line, size_t column) const {
  if (!inner_)
    return file_.locForLineAndCodePoint(static_cast<uint32_t>(line), static_cast<uint32_t>(column));
  if (!exact_)
    return fallback_.begin;
  SourceLoc inside = inner_->locForLineAndCodePoint(static_cast<uint32_t>(line), static_cast<uint32_t>(column));
  return file_.locForOffset(baseOffset_ + inside.offset);
}

static bool isSynthetic(const antlr4::Token *token) {
  switch (token->getType()) {
  case PykLexer::INDENT:
  case PykLexer::DEDENT:
  case PykLexer::NEWLINE:
  case antlr4::Token::EOF:
    return true;
  default:
    return false;
  }
}

SourceLoc LocationMap::endOf(const antlr4::Token *token) const {
  SourceLoc begin = at(token->getLine(), token->getCharPositionInLine());
  if (isSynthetic(token) || (inner_ && !exact_))
    return inner_ && !exact_ ? fallback_.end : begin;
  // The token's text is its source text, so its byte length is the distance
  // to its end, also across lines (triple-quoted strings).
  return file_.locForOffset(begin.offset + static_cast<uint32_t>(token->getText().size()));
}

SourceRange LocationMap::range(const antlr4::Token *token) const {
  return {at(token->getLine(), token->getCharPositionInLine()), endOf(token)};
}

SourceRange LocationMap::range(const antlr4::Token *first, const antlr4::Token *last) const {
  SourceLoc begin = at(first->getLine(), first->getCharPositionInLine());
  if (!last || last->getTokenIndex() < first->getTokenIndex())
    return SourceRange(begin);
  SourceLoc end = endOf(last);
  return end.offset < begin.offset ? SourceRange(begin) : SourceRange(begin, end);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

namespace {

/// Turns ANTLR's syntax errors into pyk diagnostics, one per line at most
/// (ANTLR's recovery tends to report follow-on errors on the same line).
class DiagnosticListener : public antlr4::BaseErrorListener {
public:
  DiagnosticListener(const LocationMap &locations, DiagnosticEngine &diags) : locations_(locations), diags_(diags) {}

  void syntaxError(antlr4::Recognizer *recognizer, antlr4::Token *offending, size_t line, size_t column,
                   const std::string &message, std::exception_ptr) override {
    ++count;
    // Like Python, report the parser's first error only: what ANTLR's
    // recovery finds after it is mostly the same mistake again. The lexer's
    // errors are independent of each other and all reported.
    auto *parser = dynamic_cast<antlr4::Parser *>(recognizer);
    const bool fromParser = parser != nullptr;
    // A lexical error (an unclosed bracket, an unterminated string, a bad
    // literal) explains what the parser then trips over, as in Python,
    // whose tokenizer errors take precedence over "invalid syntax".
    sawLexerError_ |= !fromParser;
    if (fromParser && (sawParserError_ || sawLexerError_))
      return;
    sawParserError_ |= fromParser;
    if (!reportedLines_.insert(line).second || diags_.limitReached())
      return;
    SourceRange range = offending ? locations_.range(offending) : SourceRange(locations_.at(line, column));
    if (parser && offending && isLegacyPrint(*parser, *offending)) {
      diags_.error(range) << "missing parentheses in call to 'print'; write print(...)";
      return;
    }
    if (parser && offending && isMissingComma(*parser, *offending)) {
      diags_.error(range) << "invalid syntax; perhaps you forgot a comma before this?";
      return;
    }
    if (parser && offending) {
      if (std::string advice = commonMistake(*parser, *offending); !advice.empty()) {
        diags_.error(range) << advice;
        return;
      }
    }
    // ANTLR blames the statement's first token when no statement form fits
    // ('elseif x:', 'x[] = 1'); Python, and the reader, want the token
    // where it stops making sense.
    if (parser && offending && message.rfind("no viable alternative at input", 0) == 0) {
      if (const antlr4::Token *culprit = firstInvalidToken(*parser, *offending)) {
        if (offending->getText() == "elseif" || offending->getText() == "elsif")
          diags_.error(range) << "invalid syntax at '" << offending->getText() << "'; write 'elif'";
        else
          diags_.error(locations_.range(culprit)) << "invalid syntax at '" << culprit->getText() << "'";
        return;
      }
    }
    diags_.error(range) << (offending ? describeParserError(offending, message) : message);
  }

  size_t count = 0;

private:
  /// `print "x"`: Python 2's print statement, a name followed by the start
  /// of an expression.
  static bool isLegacyPrint(antlr4::Parser &parser, const antlr4::Token &offending) {
    if (offending.getType() != PykLexer::NAME || offending.getText() != "print")
      return false;
    antlr4::TokenStream &tokens = *parser.getTokenStream();
    for (size_t i = offending.getTokenIndex() + 1; i < tokens.size(); ++i) {
      antlr4::Token *next = tokens.get(i);
      if (next->getChannel() != antlr4::Token::DEFAULT_CHANNEL)
        continue;
      switch (next->getType()) {
      case PykLexer::STRING:
      case PykLexer::NAME:
      case PykLexer::INTEGER:
      case PykLexer::FLOAT_NUMBER:
      case PykLexer::TRUE:
      case PykLexer::FALSE:
      case PykLexer::NONE:
        return true;
      default:
        return false;
      }
    }
    return false;
  }

  static bool endsOperand(size_t type) {
    switch (type) {
    case PykLexer::NAME:
    case PykLexer::INTEGER:
    case PykLexer::FLOAT_NUMBER:
    case PykLexer::STRING:
    case PykLexer::TRUE:
    case PykLexer::FALSE:
    case PykLexer::NONE:
    case PykLexer::RPAR:
    case PykLexer::RSQB:
    case PykLexer::RBRACE:
      return true;
    default:
      return false;
    }
  }

  /// The tokens of `offending`'s logical line before it, nearest first.
  static std::vector<const antlr4::Token *> lineBefore(antlr4::Parser &parser, const antlr4::Token &offending) {
    antlr4::TokenStream &tokens = *parser.getTokenStream();
    std::vector<const antlr4::Token *> before;
    for (size_t i = offending.getTokenIndex(); i-- > 0;) {
      const antlr4::Token *token = tokens.get(i);
      if (token->getChannel() != antlr4::Token::DEFAULT_CHANNEL)
        continue;
      const size_t type = token->getType();
      if (type == PykLexer::NEWLINE || type == PykLexer::INDENT || type == PykLexer::DEDENT)
        break;
      before.push_back(token);
    }
    return before;
  }

  /// `max(a b)`, `def f(x: int32 y: int32)`: inside brackets, an operand
  /// right after another one, where Python asks whether a comma is missing.
  static bool isMissingComma(antlr4::Parser &parser, const antlr4::Token &offending) {
    const size_t type = offending.getType();
    if (type != PykLexer::NAME && type != PykLexer::INTEGER && type != PykLexer::FLOAT_NUMBER &&
        type != PykLexer::STRING)
      return false;
    const std::vector<const antlr4::Token *> before = lineBefore(parser, offending);
    const antlr4::Token *previous = before.empty() ? nullptr : before.front();
    int depth = 0;
    for (const antlr4::Token *token : before) {
      const size_t t = token->getType();
      depth += t == PykLexer::LPAR || t == PykLexer::LSQB || t == PykLexer::LBRACE;
      depth -= t == PykLexer::RPAR || t == PykLexer::RSQB || t == PykLexer::RBRACE;
    }
    // `f(name "text")` is more likely a string prefix typo than a comma.
    return depth > 0 && previous && endsOperand(previous->getType()) &&
           !(previous->getType() == PykLexer::NAME && type == PykLexer::STRING);
  }

  /// Advice for a few mistakes the parser sees as a stray token: '=' in a
  /// condition, a keyword where a parameter or argument name goes.
  static std::string commonMistake(antlr4::Parser &parser, const antlr4::Token &offending) {
    const std::vector<const antlr4::Token *> before = lineBefore(parser, offending);
    const antlr4::Token *previous = before.size() > 0 ? before[0] : nullptr;
    const antlr4::Token *beforePrevious = before.size() > 1 ? before[1] : nullptr;
    const antlr4::Token *first = before.empty() ? &offending : before.back();
    const size_t type = offending.getType();
    const size_t firstType = first->getType();
    if (type == PykLexer::EQUAL &&
        (firstType == PykLexer::IF || firstType == PykLexer::ELIF || firstType == PykLexer::WHILE))
      return "invalid syntax at '=': a condition compares with '==', not '='";
    const std::string text = offending.getText();
    const bool keyword = type != PykLexer::NAME && !text.empty() &&
                         std::all_of(text.begin(), text.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    if (keyword && previous && (previous->getType() == PykLexer::LPAR || previous->getType() == PykLexer::COMMA))
      return "'" + text + "' is a keyword and cannot be used as a name; choose another name";
    // min(a: 1.0): a parameter's annotation where a call's keyword goes.
    if (type == PykLexer::COLON && previous && previous->getType() == PykLexer::NAME && beforePrevious &&
        (beforePrevious->getType() == PykLexer::LPAR || beforePrevious->getType() == PykLexer::COMMA))
      return "invalid syntax at ':': a keyword argument is written 'name=value'";
    return "";
  }

  /// On the logical line from `start`: the first token that cannot follow
  /// the one before it (an operand after an operand, ']' right after '[').
  static const antlr4::Token *firstInvalidToken(antlr4::Parser &parser, const antlr4::Token &start) {
    antlr4::TokenStream &tokens = *parser.getTokenStream();
    const antlr4::Token *previous = &start;
    for (size_t i = start.getTokenIndex() + 1; i < tokens.size(); ++i) {
      antlr4::Token *token = tokens.get(i);
      if (token->getChannel() != antlr4::Token::DEFAULT_CHANNEL)
        continue;
      const size_t type = token->getType();
      if (type == PykLexer::NEWLINE || type == antlr4::Token::EOF)
        return nullptr;
      const bool operand = type == PykLexer::NAME || type == PykLexer::INTEGER || type == PykLexer::FLOAT_NUMBER ||
                           type == PykLexer::STRING;
      if (operand && endsOperand(previous->getType()))
        return token;
      if (type == PykLexer::RSQB && previous->getType() == PykLexer::LSQB)
        return token;
      previous = token;
    }
    return nullptr;
  }

  /// Python-style wording instead of ANTLR's "mismatched input ... expecting
  /// {a long set}".
  static std::string describeParserError(const antlr4::Token *offending, const std::string &message) {
    std::string found;
    switch (offending->getType()) {
    case antlr4::Token::EOF:
      found = "unexpected end of file";
      break;
    case PykLexer::INDENT:
      return "unexpected indent";
    case PykLexer::DEDENT:
      found = "unexpected unindent";
      break;
    case PykLexer::NEWLINE:
      found = "unexpected end of line";
      break;
    default:
      found = "invalid syntax at '" + offending->getText() + "'";
      break;
    }
    if (message.rfind("missing INDENT", 0) == 0)
      return "expected an indented block";
    // Keep ANTLR's expectation when it names one token: "expected ':'".
    size_t expecting = message.find("expecting ");
    if (expecting != std::string::npos) {
      std::string what = message.substr(expecting + 10);
      if (what.find('{') == std::string::npos && what.find(',') == std::string::npos) {
        if (what == "INDENT")
          return found + "; expected an indented block";
        // Token names are grammar jargon: say what they are.
        if (what == "NAME")
          return found + "; expected a name";
        if (what == "NEWLINE")
          return found + "; expected the end of the line";
        return found + "; expected " + what;
      }
    }
    return found;
  }

  const LocationMap &locations_;
  DiagnosticEngine &diags_;
  std::set<size_t> reportedLines_;
  bool sawParserError_ = false;
  bool sawLexerError_ = false;
};

/// ANTLR's token stream, which keeps every token it has read, with a way to
/// free those of statements already built.
class ReleasingTokenStream : public antlr4::CommonTokenStream {
public:
  using CommonTokenStream::CommonTokenStream;

  /// Frees the tokens before `index`. The parser may still look back over
  /// the tokens after it (`LT(-1)` walks back to the previous token on the
  /// default channel), but never again before it; nor may a reparse.
  void releaseBefore(size_t index) {
    for (; released_ < index && released_ < _tokens.size(); ++released_)
      _tokens[released_].reset();
  }

private:
  size_t released_ = 0;
};

/// The lexer and parser over one text, wired to report into `diags`.
struct ParserPipeline {
  ParserPipeline(const std::string &text, const LocationMap &locations, DiagnosticEngine &diags)
      : input(text), lexer(&input), tokens(&lexer), parser(&tokens), listener(locations, diags) {
    lexer.removeErrorListeners();
    lexer.addErrorListener(&listener);
    parser.removeErrorListeners();
  }

  /// Runs `rule` in two stages (SLL, then LL with recovery). Returns null
  /// when there were errors, which are then reported.
  template <typename Context> Context *parse(Context *(PykParser::*rule)()) {
    startFastStage();
    if (Context *tree = parseFast(rule))
      return tree;
    return reparseWithRecovery(rule);
  }

  /// The first stage: SLL prediction, giving up at the first error.
  void startFastStage() {
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  }

  /// Runs `rule` once from where the last run stopped. Returns null when
  /// the first stage failed or the lexer reported errors.
  template <typename Context> Context *parseFast(Context *(PykParser::*rule)()) {
    Context *tree = nullptr;
    try {
      tree = (parser.*rule)();
    } catch (const antlr4::ParseCancellationException &) {
      tree = nullptr;
    }
    return listener.count == 0 ? tree : nullptr;
  }

  /// The second stage: from the start, full LL prediction with error
  /// recovery, so that the reported errors are the precise ones. Returns
  /// null when there were errors.
  template <typename Context> Context *reparseWithRecovery(Context *(PykParser::*rule)()) {
    tokens.fill(); // every lexical error first: they take precedence
    tokens.seek(0);
    parser.reset();
    parser.addErrorListener(&listener);
    parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::LL);
    Context *tree = (parser.*rule)();
    return listener.count == 0 ? tree : nullptr;
  }

  /// The first stage over a whole file, one top-level statement at a time:
  /// each statement's AST is built as soon as it is parsed, and its parse
  /// tree and (one statement later) its tokens are freed, so that memory
  /// follows the largest statement, not the file (a parse tree takes some
  /// 500 bytes per byte of source, the tokens some 100). Returns false when
  /// the stage failed; the tokens are then gone, and a second stage needs a
  /// new pipeline.
  bool buildEachStatement(ModuleBuilder &builder) {
    startFastStage();
    size_t previousStart = 0;
    for (;;) {
      PykParser::FileItemContext *item = parseFast(&PykParser::fileItem);
      if (!item)
        return false;
      const size_t start = item->getStart()->getTokenIndex();
      PykParser::StmtContext *stmt = item->stmt();
      if (stmt)
        builder.add(stmt);
      parser.getTreeTracker().reset(); // the parser owns every tree node
      if (!stmt)
        return true; // end of file
      tokens.releaseBefore(previousStart);
      previousStart = start;
    }
  }

  antlr4::ANTLRInputStream input;
  PykLexer lexer;
  ReleasingTokenStream tokens;
  PykParser parser;
  DiagnosticListener listener;
};

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::unique_ptr<ast::Module> parseModule(const SourceFile &file, DiagnosticEngine &diags) {
  LocationMap locations(file);
  try {
    // Syntax errors take precedence over what the AST builder reports, as
    // if the whole file were parsed first: the first stage's reports are
    // held back until the last statement has parsed. If it fails, the
    // second stage reads the file again and finds its lexical errors again.
    DiagnosticEngine held(file);
    held.setErrorLimit(std::numeric_limits<unsigned>::max());
    {
      ParserPipeline firstStage(file.text(), locations, held);
      ModuleBuilder builder(locations, held);
      if (firstStage.buildEachStatement(builder)) {
        for (const Diagnostic &diagnostic : held.diagnostics())
          diags.report(diagnostic);
        std::unique_ptr<ast::Module> module = builder.finish();
        return diags.hasErrors() ? nullptr : std::move(module);
      }
    }
    ParserPipeline secondStage(file.text(), locations, diags);
    PykParser::FileInputContext *tree = secondStage.reparseWithRecovery(&PykParser::fileInput);
    if (!tree)
      return nullptr;
    std::unique_ptr<ast::Module> module = buildModule(tree, locations, diags);
    return diags.hasErrors() ? nullptr : std::move(module);
  } catch (const std::exception &e) {
    // ANTLR reports bad input through listeners; an exception here is a bug
    // in pyk or ANTLR, but the user still gets a located answer.
    diags.error(SourceRange(file.locForOffset(0))) << "internal error while parsing: " << e.what();
    return nullptr;
  }
}

ast::ExprPtr parseStringAsExpression(const ast::StringLiteralExpr &literal, DiagnosticEngine &diags) {
  const SourceFile &file = diags.file();
  SourceFile inner("<string>", literal.value);
  if (inner.firstInvalidUtf8()) {
    diags.error(literal.range()) << "the string is not valid UTF-8 text";
    return nullptr;
  }
  LocationMap locations(file, inner, literal.textOffset.value_or(0), literal.textOffset.has_value(), literal.range());
  try {
    ParserPipeline pipeline(literal.value, locations, diags);
    PykParser::EvalInputContext *tree = pipeline.parse(&PykParser::evalInput);
    if (!tree)
      return nullptr;
    const unsigned errorsBefore = diags.errorCount();
    ast::ExprPtr expr = buildExpression(tree, locations, diags);
    return diags.errorCount() == errorsBefore ? std::move(expr) : nullptr;
  } catch (const std::exception &e) {
    diags.error(literal.range()) << "internal error while parsing a string: " << e.what();
    return nullptr;
  }
}

bool dumpTokens(const SourceFile &file, DiagnosticEngine &diags, llvm::raw_ostream &os) {
  LocationMap locations(file);
  try {
    ParserPipeline pipeline(file.text(), locations, diags);
    pipeline.tokens.fill();
    const antlr4::dfa::Vocabulary &vocabulary = pipeline.lexer.getVocabulary();
    for (antlr4::Token *token : pipeline.tokens.getTokens()) {
      if (token->getChannel() != antlr4::Token::DEFAULT_CHANNEL)
        continue;
      SourceLoc at = locations.at(token->getLine(), token->getCharPositionInLine());
      os << at.line << ":" << at.column << " " << vocabulary.getSymbolicName(token->getType());
      if (!isSynthetic(token))
        os << " '" << token->getText() << "'";
      os << "\n";
    }
    return pipeline.listener.count == 0;
  } catch (const std::exception &e) {
    diags.error(SourceRange(file.locForOffset(0))) << "internal error while lexing: " << e.what();
    return false;
  }
}

} // namespace pyk
