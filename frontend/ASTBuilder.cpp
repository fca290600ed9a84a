//===- ASTBuilder.cpp - Parse tree to AST: module and functions -----------===//
//
// The entry points, the module, and function definitions with their
// decorators, parameters and docstrings. ASTBuilderImpl.h says how the
// builder works.
//
//===----------------------------------------------------------------------===//
#include "ASTBuilderImpl.h"

#include "Literals.h"

#include "llvm/Support/Casting.h"

namespace pyk {
namespace astbuilder {

std::unique_ptr<Module> ASTBuilder::module(StmtList body) {
  auto result = std::make_unique<Module>();
  result->body = std::move(body);
  result->docstring = takeDocstring(result->body);
  return result;
}

// evalInput : INDENT? testlist NEWLINE* DEDENT? EOF
ExprPtr ASTBuilder::expression(PykParser::EvalInputContext *ctx) {
  nodesInStatement_ = 0;
  return testlist(ctx->testlist());
}

/// Removes a leading string statement from `body` and returns its text.
std::optional<std::string> ASTBuilder::takeDocstring(StmtList &body) {
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

// ===================================================================
// Function definitions
// ===================================================================

// definition : decorator* (funcDef | classDef)
StmtPtr ASTBuilder::definition(PykParser::DefinitionContext *ctx) {
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
void ASTBuilder::parameters(PykParser::ParametersContext *ctx, std::vector<Parameter> &out) {
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

} // namespace astbuilder

ModuleBuilder::ModuleBuilder(const LocationMap &locations, DiagnosticEngine &diags)
    : builder_(std::make_unique<astbuilder::ASTBuilder>(locations, diags)) {}

ModuleBuilder::~ModuleBuilder() = default;

void ModuleBuilder::add(grammar::PykParser::StmtContext *stmt) {
  builder_->topLevelStatement(stmt, body_);
}

std::unique_ptr<ast::Module> ModuleBuilder::finish() {
  return astbuilder::ASTBuilder::module(std::move(body_));
}

// fileInput : (NEWLINE | stmt)* EOF
std::unique_ptr<ast::Module> buildModule(grammar::PykParser::FileInputContext *tree, const LocationMap &locations,
                                         DiagnosticEngine &diags) {
  ModuleBuilder builder(locations, diags);
  for (grammar::PykParser::StmtContext *stmt : tree->stmt())
    builder.add(stmt);
  return builder.finish();
}

ast::ExprPtr buildExpression(grammar::PykParser::EvalInputContext *tree, const LocationMap &locations,
                             DiagnosticEngine &diags) {
  return astbuilder::ASTBuilder(locations, diags).expression(tree);
}

} // namespace pyk
