//===- ASTBuilderExpressions.cpp - Expressions and literals to AST --------===//
//
// One build function per precedence level, from the lowest to the highest,
// then number and string literals. Every node is made through make(), so
// that each counts against the statement's node budget.
//
//===----------------------------------------------------------------------===//
#include "ASTBuilderImpl.h"

#include "Literals.h"

#include "PykLexer.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace pyk::astbuilder {

using grammar::PykLexer;

/// A list of elements: the element itself when there is one and no
/// comma, otherwise a tuple.
ExprPtr ASTBuilder::tupleOrSingle(antlr4::ParserRuleContext *ctx, std::vector<ExprPtr> elements, size_t commas) {
  if (elements.size() == 1 && commas == 0)
    return std::move(elements.front());
  return make<TupleExpr>(range(ctx), std::move(elements));
}

// testlistStarExpr : starOrTest (',' starOrTest)* ','?
ExprPtr ASTBuilder::testlistStar(PykParser::TestlistStarExprContext *ctx) {
  std::vector<ExprPtr> elements;
  for (PykParser::StarOrTestContext *element : ctx->starOrTest())
    elements.push_back(starOrTest(element));
  return tupleOrSingle(ctx, std::move(elements), ctx->COMMA().size());
}

// testlist : test (',' test)* ','?
ExprPtr ASTBuilder::testlist(PykParser::TestlistContext *ctx) {
  std::vector<ExprPtr> elements;
  for (PykParser::TestContext *element : ctx->test())
    elements.push_back(test(element));
  return tupleOrSingle(ctx, std::move(elements), ctx->COMMA().size());
}

// exprList : starOrExpr (',' starOrExpr)* ','?
ExprPtr ASTBuilder::exprList(PykParser::ExprListContext *ctx) {
  std::vector<ExprPtr> elements;
  for (PykParser::StarOrExprContext *element : ctx->starOrExpr())
    elements.push_back(element->starExpr() ? unsupported(range(element), UnsupportedSyntax::Starred)
                                           : expr(element->expr()));
  return tupleOrSingle(ctx, std::move(elements), ctx->COMMA().size());
}

// starOrTest : starExpr | test
ExprPtr ASTBuilder::starOrTest(PykParser::StarOrTestContext *ctx) {
  if (ctx->starExpr())
    return unsupported(range(ctx), UnsupportedSyntax::Starred);
  return test(ctx->test());
}

// starNamedExpr : starExpr | namedExprTest
ExprPtr ASTBuilder::starNamedExpr(PykParser::StarNamedExprContext *ctx) {
  if (ctx->starExpr())
    return unsupported(range(ctx), UnsupportedSyntax::Starred);
  return namedExprTest(ctx->namedExprTest());
}

// namedExprTest : (target ':=')? test
ExprPtr ASTBuilder::namedExprTest(PykParser::NamedExprTestContext *ctx) {
  if (ctx->target) {
    auto walrus = make<UnsupportedExpr>(range(ctx), UnsupportedSyntax::NamedExpr);
    walrus->boundName = ctx->target->getText();
    return walrus;
  }
  return test(ctx->test());
}

// test : body=orTest ('if' condition=orTest 'else' orelse=test)? | lambdef
ExprPtr ASTBuilder::test(PykParser::TestContext *ctx) {
  auto *conditional = dynamic_cast<PykParser::ConditionalTestContext *>(ctx);
  if (!conditional)
    return unsupported(range(ctx), UnsupportedSyntax::Lambda);
  if (!conditional->condition)
    return orTest(conditional->body);
  ExprPtr thenValue = orTest(conditional->body);
  ExprPtr condition = orTest(conditional->condition);
  return make<ConditionalExpr>(range(ctx), std::move(condition), std::move(thenValue), test(conditional->orelse));
}

// orTest : andTest ('or' andTest)*
ExprPtr ASTBuilder::orTest(PykParser::OrTestContext *ctx) {
  std::vector<PykParser::AndTestContext *> operands = ctx->andTest();
  if (operands.size() == 1)
    return andTest(operands.front());
  std::vector<ExprPtr> built;
  for (PykParser::AndTestContext *operand : operands)
    built.push_back(andTest(operand));
  return make<BoolOpExpr>(range(ctx), BoolOp::Or, std::move(built));
}

// andTest : notTest ('and' notTest)*
ExprPtr ASTBuilder::andTest(PykParser::AndTestContext *ctx) {
  std::vector<PykParser::NotTestContext *> operands = ctx->notTest();
  if (operands.size() == 1)
    return notTest(operands.front());
  std::vector<ExprPtr> built;
  for (PykParser::NotTestContext *operand : operands)
    built.push_back(notTest(operand));
  return make<BoolOpExpr>(range(ctx), BoolOp::And, std::move(built));
}

// notTest : 'not' notTest | comparison
ExprPtr ASTBuilder::notTest(PykParser::NotTestContext *ctx) {
  if (auto *notExpr = dynamic_cast<PykParser::NotExprContext *>(ctx))
    return make<UnaryExpr>(range(ctx), UnaryOp::Not, notTest(notExpr->operand));
  return comparison(static_cast<PykParser::ComparisonNotTestContext *>(ctx)->comparison());
}

// comparison : expr (compOp expr)*
ExprPtr ASTBuilder::comparison(PykParser::ComparisonContext *ctx) {
  std::vector<PykParser::ExprContext *> operands = ctx->expr();
  if (operands.size() == 1)
    return expr(operands.front());
  std::vector<CompareOp> ops;
  std::vector<SourceRange> opRanges;
  for (PykParser::CompOpContext *op : ctx->compOp()) {
    ops.push_back(compareOperator(op));
    opRanges.push_back(range(op));
  }
  ExprPtr first = expr(operands.front());
  std::vector<ExprPtr> comparators;
  for (size_t i = 1; i < operands.size(); ++i)
    comparators.push_back(expr(operands[i]));
  return make<CompareExpr>(range(ctx), std::move(first), std::move(ops), std::move(opRanges),
                           std::move(comparators));
}

CompareOp ASTBuilder::compareOperator(PykParser::CompOpContext *op) {
  if (dynamic_cast<PykParser::LtOpContext *>(op))
    return CompareOp::Lt;
  if (dynamic_cast<PykParser::GtOpContext *>(op))
    return CompareOp::Gt;
  if (dynamic_cast<PykParser::EqOpContext *>(op))
    return CompareOp::Eq;
  if (dynamic_cast<PykParser::GeOpContext *>(op))
    return CompareOp::Ge;
  if (dynamic_cast<PykParser::LeOpContext *>(op))
    return CompareOp::Le;
  if (dynamic_cast<PykParser::NeOpContext *>(op))
    return CompareOp::Ne;
  if (dynamic_cast<PykParser::InOpContext *>(op))
    return CompareOp::In;
  if (dynamic_cast<PykParser::NotInOpContext *>(op))
    return CompareOp::NotIn;
  if (dynamic_cast<PykParser::IsOpContext *>(op))
    return CompareOp::Is;
  return CompareOp::IsNot;
}

BinaryOp ASTBuilder::binaryOperator(size_t tokenType) {
  switch (tokenType) {
  case PykLexer::VBAR:
    return BinaryOp::BitOr;
  case PykLexer::CIRCUMFLEX:
    return BinaryOp::BitXor;
  case PykLexer::AMPER:
    return BinaryOp::BitAnd;
  case PykLexer::LEFTSHIFT:
    return BinaryOp::LShift;
  case PykLexer::RIGHTSHIFT:
    return BinaryOp::RShift;
  case PykLexer::PLUS:
    return BinaryOp::Add;
  case PykLexer::MINUS:
    return BinaryOp::Sub;
  case PykLexer::STAR:
    return BinaryOp::Mul;
  case PykLexer::AT:
    return BinaryOp::MatMul;
  case PykLexer::SLASH:
    return BinaryOp::Div;
  case PykLexer::DOUBLESLASH:
    return BinaryOp::FloorDiv;
  default:
    return BinaryOp::Mod; // '%'
  }
}

/// Folds `operands[0] ops[0] operands[1] ...` to the left.
template <typename Operand, typename BuildOperand>
ExprPtr ASTBuilder::foldLeft(const std::vector<Operand *> &operands, const std::vector<antlr4::Token *> &ops,
                             BuildOperand buildOperand) {
  ExprPtr result = buildOperand(operands.front());
  for (size_t i = 0; i < ops.size() && !overBudget(); ++i) {
    ExprPtr rhs = buildOperand(operands[i + 1]);
    SourceRange where = SourceRange::cover(result->range(), rhs->range());
    result = make<BinaryExpr>(where, binaryOperator(ops[i]->getType()), range(ops[i]), std::move(result),
                              std::move(rhs));
  }
  return result;
}

// expr : xorExpr ('|' xorExpr)*   ... down to term : factor (op factor)*
ExprPtr ASTBuilder::expr(PykParser::ExprContext *ctx) {
  return foldLeft(ctx->xorExpr(), ctx->ops, [&](auto *c) { return xorExpr(c); });
}
ExprPtr ASTBuilder::xorExpr(PykParser::XorExprContext *ctx) {
  return foldLeft(ctx->andExpr(), ctx->ops, [&](auto *c) { return andExpr(c); });
}
ExprPtr ASTBuilder::andExpr(PykParser::AndExprContext *ctx) {
  return foldLeft(ctx->shiftExpr(), ctx->ops, [&](auto *c) { return shiftExpr(c); });
}
ExprPtr ASTBuilder::shiftExpr(PykParser::ShiftExprContext *ctx) {
  return foldLeft(ctx->arithExpr(), ctx->ops, [&](auto *c) { return arithExpr(c); });
}
ExprPtr ASTBuilder::arithExpr(PykParser::ArithExprContext *ctx) {
  return foldLeft(ctx->term(), ctx->ops, [&](auto *c) { return term(c); });
}
ExprPtr ASTBuilder::term(PykParser::TermContext *ctx) {
  return foldLeft(ctx->factor(), ctx->ops, [&](auto *c) { return factor(c); });
}

// factor : ('+' | '-' | '~') factor | power
ExprPtr ASTBuilder::factor(PykParser::FactorContext *ctx) {
  if (auto *plus = dynamic_cast<PykParser::UnaryPlusContext *>(ctx))
    return make<UnaryExpr>(range(ctx), UnaryOp::Plus, factor(plus->operand));
  if (auto *minus = dynamic_cast<PykParser::UnaryMinusContext *>(ctx))
    return make<UnaryExpr>(range(ctx), UnaryOp::Minus, factor(minus->operand));
  if (auto *invert = dynamic_cast<PykParser::UnaryInvertContext *>(ctx))
    return make<UnaryExpr>(range(ctx), UnaryOp::Invert, factor(invert->operand));
  return power(static_cast<PykParser::PowerFactorContext *>(ctx)->power());
}

// power : base=awaitPrimary ('**' exponent=factor)?
ExprPtr ASTBuilder::power(PykParser::PowerContext *ctx) {
  ExprPtr base = awaitPrimary(ctx->base);
  if (!ctx->exponent)
    return base;
  ExprPtr exponent = factor(ctx->exponent);
  return make<BinaryExpr>(range(ctx), BinaryOp::Pow, range(ctx->DOUBLESTAR()), std::move(base),
                          std::move(exponent));
}

// awaitPrimary : AWAIT? primary
ExprPtr ASTBuilder::awaitPrimary(PykParser::AwaitPrimaryContext *ctx) {
  if (ctx->AWAIT())
    return unsupported(range(ctx), UnsupportedSyntax::Await);
  return primary(ctx->primary());
}

// primary : atom trailer*
ExprPtr ASTBuilder::primary(PykParser::PrimaryContext *ctx) {
  ExprPtr result = atom(ctx->atom());
  for (PykParser::TrailerContext *trailer : ctx->trailer()) {
    if (overBudget())
      break;
    SourceRange where(result->range().begin, range(trailer).end);
    if (auto *call = dynamic_cast<PykParser::CallTrailerContext *>(trailer)) {
      std::vector<ExprPtr> args;
      std::vector<KeywordArgument> keywords;
      if (call->arglist())
        arguments(call->arglist(), args, keywords);
      result = make<CallExpr>(where, std::move(result), std::move(args), std::move(keywords));
    } else if (auto *subscript = dynamic_cast<PykParser::SubscriptTrailerContext *>(trailer)) {
      std::vector<ExprPtr> indices;
      for (PykParser::SubscriptContext *index : subscript->subscriptList()->subscript())
        indices.push_back(subscriptElement(index));
      result = make<SubscriptExpr>(where, std::move(result), std::move(indices));
    } else {
      auto *attribute = static_cast<PykParser::AttributeTrailerContext *>(trailer);
      result = make<AttributeExpr>(where, std::move(result), attribute->name->getText(), range(attribute->name));
    }
  }
  return result;
}

// arglist : argument (',' argument)* ','?
void ASTBuilder::arguments(PykParser::ArglistContext *ctx, std::vector<ExprPtr> &args,
                           std::vector<KeywordArgument> &keywords) {
  // Python's order: positional and `*iterable` arguments, then keywords
  // (`*iterable` may still follow them), with `**mapping` anywhere after.
  bool sawKeyword = false, sawMappingUnpack = false;
  for (PykParser::ArgumentContext *arg : ctx->argument()) {
    if (auto *keyword = dynamic_cast<PykParser::KeywordArgumentContext *>(arg)) {
      const std::string name = keyword->name->getText();
      if (std::any_of(keywords.begin(), keywords.end(), [&](const KeywordArgument &k) { return k.name == name; }))
        diags_.error(range(keyword->name)) << "keyword argument '" << name << "' is repeated; pass it once";
      keywords.push_back({keyword->name->getText(), range(keyword->name), test(keyword->value)});
      sawKeyword = true;
      continue;
    }
    if (dynamic_cast<PykParser::DoubleStarArgumentContext *>(arg)) {
      args.push_back(unsupported(range(arg), UnsupportedSyntax::DoubleStarred));
      sawMappingUnpack = true;
      continue;
    }
    if (dynamic_cast<PykParser::StarArgumentContext *>(arg)) {
      if (sawMappingUnpack)
        diags_.error(range(arg)) << "iterable argument unpacking follows keyword argument unpacking";
      args.push_back(unsupported(range(arg), UnsupportedSyntax::Starred));
      continue;
    }
    if (sawMappingUnpack)
      diags_.error(range(arg)) << "positional argument follows keyword argument unpacking";
    else if (sawKeyword)
      diags_.error(range(arg)) << "positional argument follows keyword argument";
    auto *positional = static_cast<PykParser::PositionalArgumentContext *>(arg);
    args.push_back(positional->comprehension() ? unsupported(range(arg), UnsupportedSyntax::GeneratorExpression)
                                               : namedExprTest(positional->value));
  }
}

// subscript : starExpr | lower=namedExprTest sliceTail? | sliceTail
// sliceTail : ':' upper=test? (':' step=test?)?
ExprPtr ASTBuilder::subscriptElement(PykParser::SubscriptContext *ctx) {
  if (ctx->starExpr())
    return unsupported(range(ctx), UnsupportedSyntax::Starred);
  PykParser::SliceTailContext *tail = ctx->sliceTail();
  if (!tail)
    return namedExprTest(ctx->lower);
  ExprPtr lower = ctx->lower ? namedExprTest(ctx->lower) : nullptr;
  ExprPtr upper = tail->upper ? test(tail->upper) : nullptr;
  ExprPtr step = tail->step ? test(tail->step) : nullptr;
  return make<SliceExpr>(range(ctx), std::move(lower), std::move(upper), std::move(step));
}

// atom : '(' ... ')' | '[' ... ']' | '{' ... '}' | NAME | number | STRING+ | '...' | None | True | False
ExprPtr ASTBuilder::atom(PykParser::AtomContext *ctx) {
  SourceRange where = range(ctx);
  if (auto *name = dynamic_cast<PykParser::NameAtomContext *>(ctx))
    return make<NameExpr>(where, name->NAME()->getText());
  if (auto *number = dynamic_cast<PykParser::NumberAtomContext *>(ctx))
    return numberLiteral(number->number());
  if (auto *strings = dynamic_cast<PykParser::StringAtomContext *>(ctx))
    return stringLiteral(strings->STRING(), where);
  if (dynamic_cast<PykParser::NoneAtomContext *>(ctx))
    return make<NoneLiteralExpr>(where);
  if (dynamic_cast<PykParser::TrueAtomContext *>(ctx))
    return make<BoolLiteralExpr>(where, true);
  if (dynamic_cast<PykParser::FalseAtomContext *>(ctx))
    return make<BoolLiteralExpr>(where, false);
  if (dynamic_cast<PykParser::EllipsisAtomContext *>(ctx))
    return unsupported(where, UnsupportedSyntax::Ellipsis);
  if (dynamic_cast<PykParser::ParenYieldAtomContext *>(ctx))
    return unsupported(where, UnsupportedSyntax::Yield);
  if (auto *paren = dynamic_cast<PykParser::ParenAtomContext *>(ctx)) {
    PykParser::TestlistCompContext *inside = paren->testlistComp();
    if (!inside)
      return make<TupleExpr>(where, std::vector<ExprPtr>());
    if (inside->comprehension())
      return unsupported(where, UnsupportedSyntax::GeneratorExpression);
    std::vector<ExprPtr> elements;
    for (PykParser::StarNamedExprContext *element : inside->starNamedExpr())
      elements.push_back(starNamedExpr(element));
    if (elements.size() == 1 && inside->COMMA().empty())
      return std::move(elements.front());
    return make<TupleExpr>(where, std::move(elements));
  }
  if (auto *list = dynamic_cast<PykParser::ListAtomContext *>(ctx)) {
    PykParser::TestlistCompContext *inside = list->testlistComp();
    if (inside && inside->comprehension())
      return unsupported(where, UnsupportedSyntax::ListComprehension);
    auto display = make<UnsupportedExpr>(where, UnsupportedSyntax::ListDisplay);
    if (inside)
      for (PykParser::StarNamedExprContext *element : inside->starNamedExpr())
        display->elements.push_back(starNamedExpr(element));
    return display;
  }
  auto *braces = static_cast<PykParser::DictOrSetAtomContext *>(ctx);
  PykParser::DictOrSetMakerContext *maker = braces->dictOrSetMaker();
  if (!maker)
    return unsupported(where, UnsupportedSyntax::DictDisplay);
  bool isDict = false;
  for (PykParser::DictOrSetEntryContext *entry : maker->dictOrSetEntry())
    isDict |= entry->value != nullptr || entry->mapping != nullptr;
  if (maker->comprehension())
    return unsupported(where, isDict ? UnsupportedSyntax::DictComprehension : UnsupportedSyntax::SetComprehension);
  return unsupported(where, isDict ? UnsupportedSyntax::DictDisplay : UnsupportedSyntax::SetDisplay);
}

// ===================================================================
// Literals
// ===================================================================

// number : INTEGER | FLOAT_NUMBER | IMAG_NUMBER
ExprPtr ASTBuilder::numberLiteral(PykParser::NumberContext *ctx) {
  SourceRange where = range(ctx);
  std::string text;
  for (char c : ctx->getText())
    if (c != '_')
      text += c;
  if (ctx->IMAG_NUMBER()) {
    text.pop_back(); // the j
    return make<ImagLiteralExpr>(where, std::strtod(text.c_str(), nullptr));
  }
  if (ctx->FLOAT_NUMBER()) {
    double value = std::strtod(text.c_str(), nullptr);
    return make<FloatLiteralExpr>(where, value);
  }
  IntegerLiteral integer = parseIntegerLiteral(text);
  return make<IntLiteralExpr>(where, integer.value, integer.tooLarge);
}

/// The bytes [begin, end) of a token's text; the whole token where its
/// text is not where it stands in the file (a re-parsed string).
SourceRange ASTBuilder::within(antlr4::tree::TerminalNode *node, size_t begin, size_t end) const {
  SourceRange whole = range(node);
  const std::string &file = diags_.file().text();
  const std::string text = node->getText();
  if (whole.begin.offset + text.size() > file.size() || file.compare(whole.begin.offset, text.size(), text) != 0)
    return whole;
  return {diags_.file().locForOffset(whole.begin.offset + static_cast<uint32_t>(begin)),
          diags_.file().locForOffset(whole.begin.offset + static_cast<uint32_t>(end))};
}

// STRING+: adjacent literals concatenate.
ExprPtr ASTBuilder::stringLiteral(const std::vector<antlr4::tree::TerminalNode *> &tokens, SourceRange where) {
  std::string value;
  bool anyBytes = false, anyText = false, anyFormatted = false, simple = tokens.size() == 1;
  uint32_t textStart = 0;
  for (antlr4::tree::TerminalNode *token : tokens) {
    const std::string text = token->getText();
    size_t prefixLength = 0;
    bool raw = false, bytes = false;
    while (prefixLength < text.size() && text[prefixLength] != '\'' && text[prefixLength] != '"') {
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[prefixLength])));
      raw |= c == 'r';
      bytes |= c == 'b';
      anyFormatted |= c == 'f';
      ++prefixLength;
    }
    anyBytes |= bytes;
    anyText |= !bytes;
    simple &= prefixLength == 0;
    const size_t quote = text.compare(prefixLength, 3, "'''") == 0 || text.compare(prefixLength, 3, "\"\"\"") == 0
                             ? 3
                             : 1;
    // An unterminated literal (already reported by the lexer) may lack
    // its closing quotes.
    const size_t bodyStart = std::min(text.size(), prefixLength + quote);
    textStart = range(token).begin.offset + static_cast<uint32_t>(bodyStart);
    const size_t bodyEnd = text.size() >= bodyStart + quote ? text.size() - quote : bodyStart;
    // Python reads source with universal newlines: a line end inside a
    // literal is "\n" whatever the file uses.
    std::string body;
    std::vector<size_t> textOffset; // of each byte of body in text
    for (size_t i = bodyStart; i < bodyEnd; ++i) {
      textOffset.push_back(i);
      if (text[i] != '\r') {
        body += text[i];
        continue;
      }
      body += '\n';
      if (i + 1 < bodyEnd && text[i + 1] == '\n')
        ++i;
    }
    textOffset.push_back(bodyEnd);
    simple &= body.find('\\') == std::string::npos;
    if (raw) {
      value += body;
      continue;
    }
    std::vector<EscapeError> errors;
    value += decodeEscapes(body, bytes, &errors);
    for (const EscapeError &error : errors)
      diags_.error(within(token, textOffset[error.offset], textOffset[error.offset + error.length]))
          << error.message;
  }
  if (anyBytes && anyText)
    diags_.error(where) << "cannot mix bytes and text string literals";
  auto flavor = anyFormatted ? StringLiteralExpr::Flavor::Formatted
                : anyBytes   ? StringLiteralExpr::Flavor::Bytes
                             : StringLiteralExpr::Flavor::Text;
  return make<StringLiteralExpr>(where, std::move(value), flavor,
                                 simple ? std::optional<uint32_t>(textStart) : std::nullopt);
}

} // namespace pyk::astbuilder
