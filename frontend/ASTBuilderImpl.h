//===- ASTBuilderImpl.h - Parse tree to AST builder (private) -------------===//
//
// The one place that reads the ANTLR parse tree. Each grammar rule has a
// build function, with the rule's shape in its comment. Python syntax
// that pyk rejects becomes an Unsupported* node, so that Sema can name it;
// rules the grammar relaxes on purpose (parameter order, assignment
// targets, ...) are checked here.
//
// Declared here because its work is split by concern: ASTBuilder.cpp
// (entry points, module, function definitions), ASTBuilderStatements.cpp
// and ASTBuilderExpressions.cpp (expressions and literals).
//
// Limit: one statement builds at most kMaxNodesPerStatement expression nodes,
// which bounds the depth of every later recursive walk (Sema, lowering,
// printers) whatever the input.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_ASTBUILDERIMPL_H
#define PYK_FRONTEND_ASTBUILDERIMPL_H

#include "ParseTree.h"

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace pyk::astbuilder {

using namespace ast;
using grammar::PykParser;

constexpr unsigned kMaxNodesPerStatement = 2000;

class ASTBuilder {
public:
  ASTBuilder(const LocationMap &locations, DiagnosticEngine &diags) : loc_(locations), diags_(diags) {}

  /// Appends the AST of one top-level statement to `body`.
  void topLevelStatement(PykParser::StmtContext *ctx, StmtList &body) { statement(ctx, body); }
  /// The module of `body`, its docstring taken from its first statement.
  static std::unique_ptr<Module> module(StmtList body);
  ExprPtr expression(PykParser::EvalInputContext *ctx);

private:
  // --- Helpers ---------------------------------------------------------------
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

  ExprPtr unsupported(SourceRange where, UnsupportedSyntax what) { return make<UnsupportedExpr>(where, what); }

  // --- Module and function definitions (ASTBuilder.cpp) ----------------------
  static std::optional<std::string> takeDocstring(StmtList &body);
  StmtPtr definition(PykParser::DefinitionContext *ctx);
  void parameters(PykParser::ParametersContext *ctx, std::vector<Parameter> &out);

  // --- Statements (ASTBuilderStatements.cpp) ---------------------------------
  void statement(PykParser::StmtContext *ctx, StmtList &out);
  void simpleStatements(PykParser::SimpleStmtsContext *ctx, StmtList &out);
  StmtPtr simpleStatement(PykParser::SimpleStmtContext *ctx);
  StmtPtr exprStatement(PykParser::ExprStmtContext *ctx);
  void checkTarget(const Expr &target);
  ExprPtr assignValue(PykParser::AssignValueContext *ctx);
  static BinaryOp augmentedOperator(size_t tokenType);
  StmtPtr importName(PykParser::ImportNameContext *ctx);
  StmtPtr importFrom(PykParser::ImportFromContext *ctx);
  StmtPtr compound(PykParser::CompoundStmtContext *ctx);
  StmtList suite(PykParser::SuiteContext *ctx);
  StmtList elseBody(PykParser::ElseClauseContext *ctx);
  StmtPtr ifStatement(PykParser::IfStmtContext *ctx);

  // --- Expressions, lowest precedence first (ASTBuilderExpressions.cpp) ------
  ExprPtr tupleOrSingle(antlr4::ParserRuleContext *ctx, std::vector<ExprPtr> elements, size_t commas);
  ExprPtr testlistStar(PykParser::TestlistStarExprContext *ctx);
  ExprPtr testlist(PykParser::TestlistContext *ctx);
  ExprPtr exprList(PykParser::ExprListContext *ctx);
  ExprPtr starOrTest(PykParser::StarOrTestContext *ctx);
  ExprPtr starNamedExpr(PykParser::StarNamedExprContext *ctx);
  ExprPtr namedExprTest(PykParser::NamedExprTestContext *ctx);
  ExprPtr test(PykParser::TestContext *ctx);
  ExprPtr orTest(PykParser::OrTestContext *ctx);
  ExprPtr andTest(PykParser::AndTestContext *ctx);
  ExprPtr notTest(PykParser::NotTestContext *ctx);
  ExprPtr comparison(PykParser::ComparisonContext *ctx);
  static CompareOp compareOperator(PykParser::CompOpContext *op);
  static BinaryOp binaryOperator(size_t tokenType);
  template <typename Operand, typename BuildOperand>
  ExprPtr foldLeft(const std::vector<Operand *> &operands, const std::vector<antlr4::Token *> &ops,
                   BuildOperand buildOperand);
  ExprPtr expr(PykParser::ExprContext *ctx);
  ExprPtr xorExpr(PykParser::XorExprContext *ctx);
  ExprPtr andExpr(PykParser::AndExprContext *ctx);
  ExprPtr shiftExpr(PykParser::ShiftExprContext *ctx);
  ExprPtr arithExpr(PykParser::ArithExprContext *ctx);
  ExprPtr term(PykParser::TermContext *ctx);
  ExprPtr factor(PykParser::FactorContext *ctx);
  ExprPtr power(PykParser::PowerContext *ctx);
  ExprPtr awaitPrimary(PykParser::AwaitPrimaryContext *ctx);
  ExprPtr primary(PykParser::PrimaryContext *ctx);
  void arguments(PykParser::ArglistContext *ctx, std::vector<ExprPtr> &args, std::vector<KeywordArgument> &keywords);
  ExprPtr subscriptElement(PykParser::SubscriptContext *ctx);
  ExprPtr atom(PykParser::AtomContext *ctx);

  // --- Literals (ASTBuilderExpressions.cpp) ----------------------------------
  ExprPtr numberLiteral(PykParser::NumberContext *ctx);
  SourceRange within(antlr4::tree::TerminalNode *node, size_t begin, size_t end) const;
  ExprPtr stringLiteral(const std::vector<antlr4::tree::TerminalNode *> &tokens, SourceRange where);

  const LocationMap &loc_;
  DiagnosticEngine &diags_;
  unsigned nodesInStatement_ = 0;
};

} // namespace pyk::astbuilder

#endif // PYK_FRONTEND_ASTBUILDERIMPL_H
