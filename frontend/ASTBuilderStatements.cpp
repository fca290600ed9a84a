//===- ASTBuilderStatements.cpp - Statements to AST -----------------------===//
//
// Simple and compound statements, the targets of assignments, and imports.
// Function definitions are in ASTBuilder.cpp.
//
//===----------------------------------------------------------------------===//
#include "ASTBuilderImpl.h"

#include "PykLexer.h"

#include "llvm/Support/Casting.h"

namespace pyk::astbuilder {

using grammar::PykLexer;

// stmt : simpleStmts | compoundStmt
void ASTBuilder::statement(PykParser::StmtContext *ctx, StmtList &out) {
  if (auto *simple = ctx->simpleStmts())
    return simpleStatements(simple, out);
  nodesInStatement_ = 0;
  out.push_back(compound(ctx->compoundStmt()));
}

// simpleStmts : simpleStmt (';' simpleStmt)* ';'? NEWLINE
void ASTBuilder::simpleStatements(PykParser::SimpleStmtsContext *ctx, StmtList &out) {
  for (PykParser::SimpleStmtContext *simple : ctx->simpleStmt()) {
    nodesInStatement_ = 0;
    out.push_back(simpleStatement(simple));
  }
}

StmtPtr ASTBuilder::simpleStatement(PykParser::SimpleStmtContext *ctx) {
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
StmtPtr ASTBuilder::exprStatement(PykParser::ExprStmtContext *ctx) {
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
void ASTBuilder::checkTarget(const Expr &target) {
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
ExprPtr ASTBuilder::assignValue(PykParser::AssignValueContext *ctx) {
  if (ctx->yieldExpr())
    return unsupported(range(ctx), UnsupportedSyntax::Yield);
  return testlistStar(ctx->testlistStarExpr());
}

BinaryOp ASTBuilder::augmentedOperator(size_t tokenType) {
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
StmtPtr ASTBuilder::importName(PykParser::ImportNameContext *ctx) {
  std::vector<ImportedName> names;
  for (PykParser::DottedAsNameContext *name : ctx->dottedAsName())
    names.push_back({name->dottedName()->getText(), name->alias ? name->alias->getText() : "", range(name)});
  return std::make_unique<ImportStmt>(range(ctx), std::move(names));
}

// importFrom : 'from' dots* moduleName 'import' ('*' | '(' importAsNames ')' | importAsNames)
StmtPtr ASTBuilder::importFrom(PykParser::ImportFromContext *ctx) {
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
StmtPtr ASTBuilder::compound(PykParser::CompoundStmtContext *ctx) {
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
StmtList ASTBuilder::suite(PykParser::SuiteContext *ctx) {
  StmtList body;
  if (auto *inlineSuite = dynamic_cast<PykParser::InlineSuiteContext *>(ctx)) {
    simpleStatements(inlineSuite->simpleStmts(), body);
    return body;
  }
  for (PykParser::StmtContext *stmt : static_cast<PykParser::BlockSuiteContext *>(ctx)->stmt())
    statement(stmt, body);
  return body;
}

StmtList ASTBuilder::elseBody(PykParser::ElseClauseContext *ctx) {
  return ctx ? suite(ctx->body) : StmtList();
}

// ifStmt : 'if' condition ':' body elifClause* elseClause?
StmtPtr ASTBuilder::ifStatement(PykParser::IfStmtContext *ctx) {
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

} // namespace pyk::astbuilder
