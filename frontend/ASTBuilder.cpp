//===- ASTBuilder.cpp - Parse tree to AST ---------------------------------===//
//
// The one place that reads the ANTLR parse tree. Each grammar rule has a
// build function below, with the rule's shape in its comment. Python syntax
// that pyk rejects becomes an Unsupported* node, so that Sema can name it;
// rules the grammar relaxes on purpose (parameter order, assignment
// targets, ...) are checked here.
//
// Limit: one statement builds at most kMaxNodesPerStatement expression nodes,
// which bounds the depth of every later recursive walk (Sema, lowering,
// printers) whatever the input.
//
//===----------------------------------------------------------------------===//
#include "ParseTree.h"

#include "Literals.h"

#include "PykLexer.h"

#include "llvm/Support/Casting.h"

#include <algorithm>
#include <cstdlib>

namespace pyk {
namespace {

using namespace ast;
using grammar::PykLexer;
using grammar::PykParser;

constexpr unsigned kMaxNodesPerStatement = 2000;

class ASTBuilder {
public:
  ASTBuilder(const LocationMap &locations, DiagnosticEngine &diags) : loc_(locations), diags_(diags) {}

  // fileInput : (NEWLINE | stmt)* EOF
  std::unique_ptr<Module> module(PykParser::FileInputContext *ctx) {
    auto result = std::make_unique<Module>();
    for (PykParser::StmtContext *stmt : ctx->stmt())
      statement(stmt, result->body);
    result->docstring = takeDocstring(result->body);
    return result;
  }

  // evalInput : INDENT? testlist NEWLINE* DEDENT? EOF
  ExprPtr expression(PykParser::EvalInputContext *ctx) {
    nodesInStatement_ = 0;
    return testlist(ctx->testlist());
  }

private:
  // ===================================================================
  // Helpers
  // ===================================================================

  template <typename Node, typename... Args> std::unique_ptr<Node> make(Args &&...args) {
    if (++nodesInStatement_ == kMaxNodesPerStatement + 1)
      diags_.error(std::get<0>(std::forward_as_tuple(args...)))
          << "this statement is too complex (more than " << kMaxNodesPerStatement
          << " expression nodes); split it using intermediate variables";
    return std::make_unique<Node>(std::forward<Args>(args)...);
  }

  /// Past the node budget (already reported): stop growing chains, so that
  /// no later walk, not even the destructor, recurses deeper.
  bool overBudget() const { return nodesInStatement_ > kMaxNodesPerStatement; }

  SourceRange range(antlr4::ParserRuleContext *ctx) const { return loc_.range(ctx); }
  SourceRange range(antlr4::Token *token) const { return loc_.range(token); }
  SourceRange range(antlr4::tree::TerminalNode *node) const { return loc_.range(node->getSymbol()); }

  /// The bytes [begin, end) of a token's text; the whole token where its
  /// text is not where it stands in the file (a re-parsed string).
  SourceRange within(antlr4::tree::TerminalNode *node, size_t begin, size_t end) const {
    SourceRange whole = range(node);
    const std::string &file = diags_.file().text();
    const std::string text = node->getText();
    if (whole.begin.offset + text.size() > file.size() || file.compare(whole.begin.offset, text.size(), text) != 0)
      return whole;
    return {diags_.file().locForOffset(whole.begin.offset + static_cast<uint32_t>(begin)),
            diags_.file().locForOffset(whole.begin.offset + static_cast<uint32_t>(end))};
  }

  ExprPtr unsupported(SourceRange where, UnsupportedSyntax what) { return make<UnsupportedExpr>(where, what); }

  /// Removes a leading string statement from `body` and returns its text.
  static std::optional<std::string> takeDocstring(StmtList &body) {
    if (body.empty())
      return std::nullopt;
    auto *stmt = llvm::dyn_cast<ExprStmt>(body.front().get());
    auto *literal = stmt ? llvm::dyn_cast<StringLiteralExpr>(stmt->expr.get()) : nullptr;
    if (!literal || literal->flavor != StringLiteralExpr::Flavor::Text)
      return std::nullopt;
    std::string text = cleanDocstring(literal->value);
    body.erase(body.begin());
    return text;
  }

  /// A list of elements: the element itself when there is one and no
  /// comma, otherwise a tuple.
  ExprPtr tupleOrSingle(antlr4::ParserRuleContext *ctx, std::vector<ExprPtr> elements, size_t commas) {
    if (elements.size() == 1 && commas == 0)
      return std::move(elements.front());
    return make<TupleExpr>(range(ctx), std::move(elements));
  }

  // ===================================================================
  // Statements
  // ===================================================================

  // stmt : simpleStmts | compoundStmt
  void statement(PykParser::StmtContext *ctx, StmtList &out) {
    if (auto *simple = ctx->simpleStmts())
      return simpleStatements(simple, out);
    nodesInStatement_ = 0;
    out.push_back(compound(ctx->compoundStmt()));
  }

  // simpleStmts : simpleStmt (';' simpleStmt)* ';'? NEWLINE
  void simpleStatements(PykParser::SimpleStmtsContext *ctx, StmtList &out) {
    for (PykParser::SimpleStmtContext *simple : ctx->simpleStmt()) {
      nodesInStatement_ = 0;
      out.push_back(simpleStatement(simple));
    }
  }

  StmtPtr simpleStatement(PykParser::SimpleStmtContext *ctx) {
    SourceRange where = range(ctx);
    if (auto *e = ctx->exprStmt())
      return exprStatement(e);
    if (ctx->passStmt())
      return std::make_unique<PassStmt>(where);
    if (ctx->breakStmt())
      return std::make_unique<BreakStmt>(where);
    if (ctx->continueStmt())
      return std::make_unique<ContinueStmt>(where);
    if (auto *r = ctx->returnStmt())
      return std::make_unique<ReturnStmt>(where, r->testlistStarExpr() ? testlistStar(r->testlistStarExpr()) : nullptr);
    if (auto *a = ctx->assertStmt())
      return std::make_unique<AssertStmt>(where, test(a->condition), a->message ? test(a->message) : nullptr);
    if (auto *i = ctx->importName())
      return importName(i);
    if (auto *i = ctx->importFrom())
      return importFrom(i);
    if (ctx->yieldStmt())
      return std::make_unique<ExprStmt>(where, unsupported(where, UnsupportedSyntax::Yield));
    if (ctx->delStmt())
      return std::make_unique<UnsupportedStmt>(where, UnsupportedSyntax::Del);
    if (ctx->raiseStmt())
      return std::make_unique<UnsupportedStmt>(where, UnsupportedSyntax::Raise);
    if (ctx->globalStmt())
      return std::make_unique<UnsupportedStmt>(where, UnsupportedSyntax::Global);
    if (ctx->nonlocalStmt())
      return std::make_unique<UnsupportedStmt>(where, UnsupportedSyntax::Nonlocal);
    return std::make_unique<UnsupportedStmt>(where, UnsupportedSyntax::TypeAlias);
  }

  // exprStmt : testlistStarExpr ( ':' annotation ('=' annValue)?
  //                             | augOp augValue | ('=' assignValue)* )
  StmtPtr exprStatement(PykParser::ExprStmtContext *ctx) {
    SourceRange where = range(ctx);
    ExprPtr first = testlistStar(ctx->testlistStarExpr());
    if (ctx->annotation) {
      checkTarget(*first);
      return std::make_unique<AnnAssignStmt>(where, std::move(first), test(ctx->annotation),
                                             ctx->annValue ? assignValue(ctx->annValue) : nullptr);
    }
    if (ctx->augOp) {
      checkTarget(*first);
      antlr4::Token *op = ctx->augOp->op;
      return std::make_unique<AugAssignStmt>(where, std::move(first), augmentedOperator(op->getType()), range(op),
                                             assignValue(ctx->augValue));
    }
    std::vector<PykParser::AssignValueContext *> values = ctx->assignValue();
    if (values.empty())
      return std::make_unique<ExprStmt>(where, std::move(first));
    std::vector<ExprPtr> targets;
    targets.push_back(std::move(first));
    for (size_t i = 0; i + 1 < values.size(); ++i)
      targets.push_back(assignValue(values[i]));
    for (ExprPtr &target : targets)
      checkTarget(*target);
    return std::make_unique<AssignStmt>(where, std::move(targets), assignValue(values.back()));
  }

  /// Python's rule for what can be assigned to; the grammar allows more.
  void checkTarget(const Expr &target) {
    switch (target.kind()) {
    case NodeKind::NameExpr:
    case NodeKind::AttributeExpr:
    case NodeKind::SubscriptExpr:
      return;
    case NodeKind::TupleExpr:
      for (const ExprPtr &element : llvm::cast<TupleExpr>(target).elements)
        checkTarget(*element);
      return;
    case NodeKind::UnsupportedExpr:
      if (llvm::cast<UnsupportedExpr>(target).what == UnsupportedSyntax::Starred)
        return;
      break;
    default:
      break;
    }
    diags_.error(target.range()) << "cannot assign to this expression";
  }

  // assignValue : yieldExpr | testlistStarExpr
  ExprPtr assignValue(PykParser::AssignValueContext *ctx) {
    if (ctx->yieldExpr())
      return unsupported(range(ctx), UnsupportedSyntax::Yield);
    return testlistStar(ctx->testlistStarExpr());
  }

  static BinaryOp augmentedOperator(size_t tokenType) {
    switch (tokenType) {
    case PykLexer::PLUSEQUAL:
      return BinaryOp::Add;
    case PykLexer::MINEQUAL:
      return BinaryOp::Sub;
    case PykLexer::STAREQUAL:
      return BinaryOp::Mul;
    case PykLexer::SLASHEQUAL:
      return BinaryOp::Div;
    case PykLexer::DOUBLESLASHEQUAL:
      return BinaryOp::FloorDiv;
    case PykLexer::PERCENTEQUAL:
      return BinaryOp::Mod;
    case PykLexer::DOUBLESTAREQUAL:
      return BinaryOp::Pow;
    case PykLexer::ATEQUAL:
      return BinaryOp::MatMul;
    case PykLexer::LEFTSHIFTEQUAL:
      return BinaryOp::LShift;
    case PykLexer::RIGHTSHIFTEQUAL:
      return BinaryOp::RShift;
    case PykLexer::AMPEREQUAL:
      return BinaryOp::BitAnd;
    case PykLexer::VBAREQUAL:
      return BinaryOp::BitOr;
    default:
      return BinaryOp::BitXor; // '^='
    }
  }

  // importName : 'import' dottedAsName (',' dottedAsName)*
  StmtPtr importName(PykParser::ImportNameContext *ctx) {
    std::vector<ImportedName> names;
    for (PykParser::DottedAsNameContext *name : ctx->dottedAsName())
      names.push_back({name->dottedName()->getText(), name->alias ? name->alias->getText() : "", range(name)});
    return std::make_unique<ImportStmt>(range(ctx), std::move(names));
  }

  // importFrom : 'from' dots* moduleName 'import' ('*' | '(' importAsNames ')' | importAsNames)
  StmtPtr importFrom(PykParser::ImportFromContext *ctx) {
    unsigned level = 0;
    for (antlr4::Token *dot : ctx->dots)
      level += dot->getType() == PykLexer::ELLIPSIS ? 3 : 1;
    std::string module = ctx->moduleName ? ctx->moduleName->getText() : "";
    SourceRange moduleRange = ctx->moduleName ? range(ctx->moduleName) : range(ctx);
    // `.helpers` is the module's name as messages write it: it starts at the dots.
    if (!ctx->dots.empty())
      moduleRange = loc_.range(ctx->dots.front(), ctx->moduleName ? ctx->moduleName->getStop() : ctx->dots.back());
    std::vector<ImportedName> names;
    if (auto *list = ctx->importAsNames())
      for (PykParser::ImportAsNameContext *name : list->importAsName())
        names.push_back({name->name->getText(), name->alias ? name->alias->getText() : "", range(name)});
    return std::make_unique<ImportFromStmt>(range(ctx), std::move(module), moduleRange, level, std::move(names),
                                            ctx->star != nullptr);
  }

  // compoundStmt : ifStmt | whileStmt | forStmt | tryStmt | withStmt | definition | matchStmt
  StmtPtr compound(PykParser::CompoundStmtContext *ctx) {
    SourceRange where = range(ctx);
    if (auto *s = ctx->ifStmt())
      return ifStatement(s);
    if (auto *s = ctx->whileStmt())
      return std::make_unique<WhileStmt>(where, namedExprTest(s->condition), suite(s->body), elseBody(s->elseClause()));
    if (auto *s = ctx->forStmt()) {
      if (s->ASYNC())
        return std::make_unique<UnsupportedStmt>(where, UnsupportedSyntax::Async);
      ExprPtr target = exprList(s->targets);
      checkTarget(*target);
      return std::make_unique<ForStmt>(where, std::move(target), testlistStar(s->iterable), suite(s->body),
                                       elseBody(s->elseClause()));
    }
    if (ctx->tryStmt())
      return std::make_unique<UnsupportedStmt>(where, UnsupportedSyntax::Try);
    if (auto *s = ctx->withStmt())
      return std::make_unique<UnsupportedStmt>(where, s->ASYNC() ? UnsupportedSyntax::Async : UnsupportedSyntax::With);
    if (auto *s = ctx->definition())
      return definition(s);
    return std::make_unique<UnsupportedStmt>(where, UnsupportedSyntax::Match);
  }

  // suite : simpleStmts | NEWLINE INDENT stmt+ DEDENT
  StmtList suite(PykParser::SuiteContext *ctx) {
    StmtList body;
    if (auto *inlineSuite = dynamic_cast<PykParser::InlineSuiteContext *>(ctx)) {
      simpleStatements(inlineSuite->simpleStmts(), body);
      return body;
    }
    for (PykParser::StmtContext *stmt : static_cast<PykParser::BlockSuiteContext *>(ctx)->stmt())
      statement(stmt, body);
    return body;
  }

  StmtList elseBody(PykParser::ElseClauseContext *ctx) { return ctx ? suite(ctx->body) : StmtList(); }

  // ifStmt : 'if' condition ':' body elifClause* elseClause?
  StmtPtr ifStatement(PykParser::IfStmtContext *ctx) {
    // Build from the last clause back: each elif is an IfStmt alone in the
    // else body of the clause before it.
    StmtList orElse = elseBody(ctx->elseClause());
    std::vector<PykParser::ElifClauseContext *> elifs = ctx->elifClause();
    for (auto it = elifs.rbegin(); it != elifs.rend(); ++it) {
      PykParser::ElifClauseContext *elif = *it;
      SourceRange where(range(elif).begin, range(ctx).end);
      StmtPtr nested = std::make_unique<IfStmt>(where, namedExprTest(elif->condition), suite(elif->body),
                                                std::move(orElse), /*isElif=*/true);
      orElse = StmtList();
      orElse.push_back(std::move(nested));
    }
    return std::make_unique<IfStmt>(range(ctx), namedExprTest(ctx->condition), suite(ctx->body), std::move(orElse),
                                    /*isElif=*/false);
  }

  // definition : decorator* (funcDef | classDef)
  StmtPtr definition(PykParser::DefinitionContext *ctx) {
    // Rejected definitions still bind their names, so that their uses are
    // not reported again. The error is at the definition, not a decorator.
    auto rejected = [](SourceRange where, UnsupportedSyntax what, antlr4::Token *name) {
      auto stmt = std::make_unique<UnsupportedStmt>(where, what);
      stmt->boundName = name->getText();
      return stmt;
    };
    if (auto *classDef = ctx->classDef())
      return rejected(range(classDef), UnsupportedSyntax::ClassDef, classDef->name);
    PykParser::FuncDefContext *def = ctx->funcDef();
    if (def->ASYNC())
      return rejected(range(def), UnsupportedSyntax::Async, def->name);
    if (def->typeParams())
      return rejected(range(def->typeParams()), UnsupportedSyntax::TypeParameters, def->name);
    auto function = std::make_unique<FunctionDef>(range(ctx), def->name->getText(), range(def->name));
    for (PykParser::DecoratorContext *decorator : ctx->decorator()) {
      nodesInStatement_ = 0;
      function->decorators.push_back(namedExprTest(decorator->namedExprTest()));
    }
    nodesInStatement_ = 0;
    if (def->parameters())
      parameters(def->parameters(), function->params);
    if (def->returnType)
      function->returns = test(def->returnType);
    function->body = suite(def->body);
    function->docstring = takeDocstring(function->body);
    return function;
  }

  // parameters : parameter (',' parameter)* ','?
  void parameters(PykParser::ParametersContext *ctx, std::vector<Parameter> &out) {
    bool sawDefault = false, sawStar = false;
    for (PykParser::ParameterContext *p : ctx->parameter()) {
      Parameter param;
      param.range = range(p);
      if (auto *named = dynamic_cast<PykParser::NamedParameterContext *>(p)) {
        param.name = named->name->getText();
        if (named->annotation)
          param.annotation = test(named->annotation);
        if (named->defaultValue)
          param.defaultValue = test(named->defaultValue);
        if (param.defaultValue)
          sawDefault = true;
        else if (sawDefault && !sawStar)
          diags_.error(param.range) << "parameter without a default follows a parameter with a default";
      } else if (auto *star = dynamic_cast<PykParser::StarParameterContext *>(p)) {
        param.kind = star->name ? Parameter::Kind::VarArgs : Parameter::Kind::KeywordOnlyMarker;
        param.name = star->name ? star->name->getText() : "";
        sawStar = true;
      } else if (auto *doubleStar = dynamic_cast<PykParser::DoubleStarParameterContext *>(p)) {
        param.kind = Parameter::Kind::KeywordArgs;
        param.name = doubleStar->name->getText();
      } else {
        param.kind = Parameter::Kind::PositionalOnlyMarker;
      }
      out.push_back(std::move(param));
    }
  }

  // ===================================================================
  // Expressions, from the lowest precedence to the highest
  // ===================================================================

  // testlistStarExpr : starOrTest (',' starOrTest)* ','?
  ExprPtr testlistStar(PykParser::TestlistStarExprContext *ctx) {
    std::vector<ExprPtr> elements;
    for (PykParser::StarOrTestContext *element : ctx->starOrTest())
      elements.push_back(starOrTest(element));
    return tupleOrSingle(ctx, std::move(elements), ctx->COMMA().size());
  }

  // testlist : test (',' test)* ','?
  ExprPtr testlist(PykParser::TestlistContext *ctx) {
    std::vector<ExprPtr> elements;
    for (PykParser::TestContext *element : ctx->test())
      elements.push_back(test(element));
    return tupleOrSingle(ctx, std::move(elements), ctx->COMMA().size());
  }

  // exprList : starOrExpr (',' starOrExpr)* ','?
  ExprPtr exprList(PykParser::ExprListContext *ctx) {
    std::vector<ExprPtr> elements;
    for (PykParser::StarOrExprContext *element : ctx->starOrExpr())
      elements.push_back(element->starExpr() ? unsupported(range(element), UnsupportedSyntax::Starred)
                                             : expr(element->expr()));
    return tupleOrSingle(ctx, std::move(elements), ctx->COMMA().size());
  }

  // starOrTest : starExpr | test
  ExprPtr starOrTest(PykParser::StarOrTestContext *ctx) {
    if (ctx->starExpr())
      return unsupported(range(ctx), UnsupportedSyntax::Starred);
    return test(ctx->test());
  }

  // starNamedExpr : starExpr | namedExprTest
  ExprPtr starNamedExpr(PykParser::StarNamedExprContext *ctx) {
    if (ctx->starExpr())
      return unsupported(range(ctx), UnsupportedSyntax::Starred);
    return namedExprTest(ctx->namedExprTest());
  }

  // namedExprTest : (target ':=')? test
  ExprPtr namedExprTest(PykParser::NamedExprTestContext *ctx) {
    if (ctx->target) {
      auto walrus = make<UnsupportedExpr>(range(ctx), UnsupportedSyntax::NamedExpr);
      walrus->boundName = ctx->target->getText();
      return walrus;
    }
    return test(ctx->test());
  }

  // test : body=orTest ('if' condition=orTest 'else' orelse=test)? | lambdef
  ExprPtr test(PykParser::TestContext *ctx) {
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
  ExprPtr orTest(PykParser::OrTestContext *ctx) {
    std::vector<PykParser::AndTestContext *> operands = ctx->andTest();
    if (operands.size() == 1)
      return andTest(operands.front());
    std::vector<ExprPtr> built;
    for (PykParser::AndTestContext *operand : operands)
      built.push_back(andTest(operand));
    return make<BoolOpExpr>(range(ctx), BoolOp::Or, std::move(built));
  }

  // andTest : notTest ('and' notTest)*
  ExprPtr andTest(PykParser::AndTestContext *ctx) {
    std::vector<PykParser::NotTestContext *> operands = ctx->notTest();
    if (operands.size() == 1)
      return notTest(operands.front());
    std::vector<ExprPtr> built;
    for (PykParser::NotTestContext *operand : operands)
      built.push_back(notTest(operand));
    return make<BoolOpExpr>(range(ctx), BoolOp::And, std::move(built));
  }

  // notTest : 'not' notTest | comparison
  ExprPtr notTest(PykParser::NotTestContext *ctx) {
    if (auto *notExpr = dynamic_cast<PykParser::NotExprContext *>(ctx))
      return make<UnaryExpr>(range(ctx), UnaryOp::Not, notTest(notExpr->operand));
    return comparison(static_cast<PykParser::ComparisonNotTestContext *>(ctx)->comparison());
  }

  // comparison : expr (compOp expr)*
  ExprPtr comparison(PykParser::ComparisonContext *ctx) {
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

  static CompareOp compareOperator(PykParser::CompOpContext *op) {
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

  static BinaryOp binaryOperator(size_t tokenType) {
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
  ExprPtr foldLeft(const std::vector<Operand *> &operands, const std::vector<antlr4::Token *> &ops,
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
  ExprPtr expr(PykParser::ExprContext *ctx) {
    return foldLeft(ctx->xorExpr(), ctx->ops, [&](auto *c) { return xorExpr(c); });
  }
  ExprPtr xorExpr(PykParser::XorExprContext *ctx) {
    return foldLeft(ctx->andExpr(), ctx->ops, [&](auto *c) { return andExpr(c); });
  }
  ExprPtr andExpr(PykParser::AndExprContext *ctx) {
    return foldLeft(ctx->shiftExpr(), ctx->ops, [&](auto *c) { return shiftExpr(c); });
  }
  ExprPtr shiftExpr(PykParser::ShiftExprContext *ctx) {
    return foldLeft(ctx->arithExpr(), ctx->ops, [&](auto *c) { return arithExpr(c); });
  }
  ExprPtr arithExpr(PykParser::ArithExprContext *ctx) {
    return foldLeft(ctx->term(), ctx->ops, [&](auto *c) { return term(c); });
  }
  ExprPtr term(PykParser::TermContext *ctx) {
    return foldLeft(ctx->factor(), ctx->ops, [&](auto *c) { return factor(c); });
  }

  // factor : ('+' | '-' | '~') factor | power
  ExprPtr factor(PykParser::FactorContext *ctx) {
    if (auto *plus = dynamic_cast<PykParser::UnaryPlusContext *>(ctx))
      return make<UnaryExpr>(range(ctx), UnaryOp::Plus, factor(plus->operand));
    if (auto *minus = dynamic_cast<PykParser::UnaryMinusContext *>(ctx))
      return make<UnaryExpr>(range(ctx), UnaryOp::Minus, factor(minus->operand));
    if (auto *invert = dynamic_cast<PykParser::UnaryInvertContext *>(ctx))
      return make<UnaryExpr>(range(ctx), UnaryOp::Invert, factor(invert->operand));
    return power(static_cast<PykParser::PowerFactorContext *>(ctx)->power());
  }

  // power : base=awaitPrimary ('**' exponent=factor)?
  ExprPtr power(PykParser::PowerContext *ctx) {
    ExprPtr base = awaitPrimary(ctx->base);
    if (!ctx->exponent)
      return base;
    ExprPtr exponent = factor(ctx->exponent);
    return make<BinaryExpr>(range(ctx), BinaryOp::Pow, range(ctx->DOUBLESTAR()), std::move(base),
                            std::move(exponent));
  }

  // awaitPrimary : AWAIT? primary
  ExprPtr awaitPrimary(PykParser::AwaitPrimaryContext *ctx) {
    if (ctx->AWAIT())
      return unsupported(range(ctx), UnsupportedSyntax::Await);
    return primary(ctx->primary());
  }

  // primary : atom trailer*
  ExprPtr primary(PykParser::PrimaryContext *ctx) {
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
  void arguments(PykParser::ArglistContext *ctx, std::vector<ExprPtr> &args, std::vector<KeywordArgument> &keywords) {
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
  ExprPtr subscriptElement(PykParser::SubscriptContext *ctx) {
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
  ExprPtr atom(PykParser::AtomContext *ctx) {
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
      const bool comprehension = list->testlistComp() && list->testlistComp()->comprehension();
      return unsupported(where, comprehension ? UnsupportedSyntax::ListComprehension : UnsupportedSyntax::ListDisplay);
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
  ExprPtr numberLiteral(PykParser::NumberContext *ctx) {
    SourceRange where = range(ctx);
    std::string text;
    for (char c : ctx->getText())
      if (c != '_')
        text += c;
    if (ctx->IMAG_NUMBER())
      return unsupported(where, UnsupportedSyntax::ImaginaryLiteral);
    if (ctx->FLOAT_NUMBER()) {
      double value = std::strtod(text.c_str(), nullptr);
      return make<FloatLiteralExpr>(where, value);
    }
    IntegerLiteral integer = parseIntegerLiteral(text);
    return make<IntLiteralExpr>(where, integer.value, integer.tooLarge);
  }

  // STRING+: adjacent literals concatenate.
  ExprPtr stringLiteral(const std::vector<antlr4::tree::TerminalNode *> &tokens, SourceRange where) {
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

  const LocationMap &loc_;
  DiagnosticEngine &diags_;
  unsigned nodesInStatement_ = 0;
};

} // namespace

std::unique_ptr<ast::Module> buildModule(PykParser::FileInputContext *tree, const LocationMap &locations,
                                         DiagnosticEngine &diags) {
  return ASTBuilder(locations, diags).module(tree);
}

ast::ExprPtr buildExpression(PykParser::EvalInputContext *tree, const LocationMap &locations,
                             DiagnosticEngine &diags) {
  return ASTBuilder(locations, diags).expression(tree);
}

} // namespace pyk
