//===- ASTClone.cpp - Copies of functions, for one body per type signature -===//
#include "ASTClone.h"

#include "llvm/Support/Casting.h"

namespace pyk::ast {
namespace {

using llvm::cast;

ExprPtr cloneOptional(const ExprPtr &expr) { return expr ? cloneExpr(*expr) : nullptr; }

std::vector<ExprPtr> cloneAll(const std::vector<ExprPtr> &exprs) {
  std::vector<ExprPtr> copies;
  copies.reserve(exprs.size());
  for (const ExprPtr &expr : exprs)
    copies.push_back(cloneExpr(*expr));
  return copies;
}

StmtPtr cloneStmt(const Stmt &stmt);

StmtList cloneBody(const StmtList &body) {
  StmtList copies;
  copies.reserve(body.size());
  for (const StmtPtr &stmt : body)
    copies.push_back(cloneStmt(*stmt));
  return copies;
}

class ExprCloner : public ExprVisitor<ExprCloner, ExprPtr> {
public:
  ExprPtr visitNameExpr(const NameExpr &e) { return std::make_unique<NameExpr>(e.range(), e.name); }
  ExprPtr visitIntLiteralExpr(const IntLiteralExpr &e) {
    return std::make_unique<IntLiteralExpr>(e.range(), e.value, e.tooLarge);
  }
  ExprPtr visitFloatLiteralExpr(const FloatLiteralExpr &e) {
    return std::make_unique<FloatLiteralExpr>(e.range(), e.value);
  }
  ExprPtr visitImagLiteralExpr(const ImagLiteralExpr &e) {
    return std::make_unique<ImagLiteralExpr>(e.range(), e.value);
  }
  ExprPtr visitBoolLiteralExpr(const BoolLiteralExpr &e) {
    return std::make_unique<BoolLiteralExpr>(e.range(), e.value);
  }
  ExprPtr visitNoneLiteralExpr(const NoneLiteralExpr &e) { return std::make_unique<NoneLiteralExpr>(e.range()); }
  ExprPtr visitStringLiteralExpr(const StringLiteralExpr &e) {
    return std::make_unique<StringLiteralExpr>(e.range(), e.value, e.flavor, e.textOffset);
  }
  ExprPtr visitTupleExpr(const TupleExpr &e) { return std::make_unique<TupleExpr>(e.range(), cloneAll(e.elements)); }
  ExprPtr visitAttributeExpr(const AttributeExpr &e) {
    return std::make_unique<AttributeExpr>(e.range(), cloneExpr(*e.object), e.attribute, e.attributeRange);
  }
  ExprPtr visitSubscriptExpr(const SubscriptExpr &e) {
    return std::make_unique<SubscriptExpr>(e.range(), cloneExpr(*e.object), cloneAll(e.indices));
  }
  ExprPtr visitSliceExpr(const SliceExpr &e) {
    return std::make_unique<SliceExpr>(e.range(), cloneOptional(e.lower), cloneOptional(e.upper),
                                       cloneOptional(e.step));
  }
  ExprPtr visitCallExpr(const CallExpr &e) {
    std::vector<KeywordArgument> keywords;
    for (const KeywordArgument &keyword : e.keywords)
      keywords.push_back({keyword.name, keyword.nameRange, cloneExpr(*keyword.value)});
    return std::make_unique<CallExpr>(e.range(), cloneExpr(*e.callee), cloneAll(e.args), std::move(keywords));
  }
  ExprPtr visitUnaryExpr(const UnaryExpr &e) {
    return std::make_unique<UnaryExpr>(e.range(), e.op, cloneExpr(*e.operand));
  }
  ExprPtr visitBinaryExpr(const BinaryExpr &e) {
    return std::make_unique<BinaryExpr>(e.range(), e.op, e.opRange, cloneExpr(*e.lhs), cloneExpr(*e.rhs));
  }
  ExprPtr visitBoolOpExpr(const BoolOpExpr &e) {
    return std::make_unique<BoolOpExpr>(e.range(), e.op, cloneAll(e.operands));
  }
  ExprPtr visitCompareExpr(const CompareExpr &e) {
    return std::make_unique<CompareExpr>(e.range(), cloneExpr(*e.first), e.ops, e.opRanges, cloneAll(e.comparators));
  }
  ExprPtr visitConditionalExpr(const ConditionalExpr &e) {
    return std::make_unique<ConditionalExpr>(e.range(), cloneExpr(*e.condition), cloneExpr(*e.thenValue),
                                             cloneExpr(*e.elseValue));
  }
  ExprPtr visitUnsupportedExpr(const UnsupportedExpr &e) {
    auto copy = std::make_unique<UnsupportedExpr>(e.range(), e.what);
    copy->boundName = e.boundName;
    copy->elements = cloneAll(e.elements);
    return copy;
  }
};

class StmtCloner : public StmtVisitor<StmtCloner, StmtPtr> {
public:
  StmtPtr visitExprStmt(const ExprStmt &s) { return std::make_unique<ExprStmt>(s.range(), cloneExpr(*s.expr)); }
  StmtPtr visitAssignStmt(const AssignStmt &s) {
    return std::make_unique<AssignStmt>(s.range(), cloneAll(s.targets), cloneExpr(*s.value));
  }
  StmtPtr visitAugAssignStmt(const AugAssignStmt &s) {
    return std::make_unique<AugAssignStmt>(s.range(), cloneExpr(*s.target), s.op, s.opRange, cloneExpr(*s.value));
  }
  StmtPtr visitAnnAssignStmt(const AnnAssignStmt &s) {
    return std::make_unique<AnnAssignStmt>(s.range(), cloneExpr(*s.target), cloneExpr(*s.annotation),
                                           cloneOptional(s.value));
  }
  StmtPtr visitIfStmt(const IfStmt &s) {
    return std::make_unique<IfStmt>(s.range(), cloneExpr(*s.condition), cloneBody(s.thenBody), cloneBody(s.elseBody),
                                    s.isElif);
  }
  StmtPtr visitWhileStmt(const WhileStmt &s) {
    return std::make_unique<WhileStmt>(s.range(), cloneExpr(*s.condition), cloneBody(s.body), cloneBody(s.elseBody));
  }
  StmtPtr visitForStmt(const ForStmt &s) {
    return std::make_unique<ForStmt>(s.range(), cloneExpr(*s.target), cloneExpr(*s.iterable), cloneBody(s.body),
                                     cloneBody(s.elseBody));
  }
  StmtPtr visitBreakStmt(const BreakStmt &s) { return std::make_unique<BreakStmt>(s.range()); }
  StmtPtr visitContinueStmt(const ContinueStmt &s) { return std::make_unique<ContinueStmt>(s.range()); }
  StmtPtr visitPassStmt(const PassStmt &s) { return std::make_unique<PassStmt>(s.range()); }
  StmtPtr visitReturnStmt(const ReturnStmt &s) {
    return std::make_unique<ReturnStmt>(s.range(), cloneOptional(s.value));
  }
  StmtPtr visitAssertStmt(const AssertStmt &s) {
    return std::make_unique<AssertStmt>(s.range(), cloneExpr(*s.condition), cloneOptional(s.message));
  }
  StmtPtr visitImportStmt(const ImportStmt &s) { return std::make_unique<ImportStmt>(s.range(), s.names); }
  StmtPtr visitImportFromStmt(const ImportFromStmt &s) {
    return std::make_unique<ImportFromStmt>(s.range(), s.module, s.moduleRange, s.level, s.names, s.importsAll);
  }
  StmtPtr visitFunctionDef(const FunctionDef &s) { return cloneFunction(s); }
  StmtPtr visitUnsupportedStmt(const UnsupportedStmt &s) {
    auto copy = std::make_unique<UnsupportedStmt>(s.range(), s.what);
    copy->boundName = s.boundName;
    return copy;
  }
};

StmtPtr cloneStmt(const Stmt &stmt) { return StmtCloner().visitStmt(const_cast<Stmt &>(stmt)); }

} // namespace

ExprPtr cloneExpr(const Expr &expr) { return ExprCloner().visitExpr(const_cast<Expr &>(expr)); }

std::unique_ptr<FunctionDef> cloneFunction(const FunctionDef &def) {
  auto copy = std::make_unique<FunctionDef>(def.range(), def.name, def.nameRange);
  copy->decorators = cloneAll(def.decorators);
  for (const Parameter &param : def.params)
    copy->params.push_back(
        {param.kind, param.name, param.range, cloneOptional(param.annotation), cloneOptional(param.defaultValue)});
  copy->returns = cloneOptional(def.returns);
  copy->docstring = def.docstring;
  copy->body = cloneBody(def.body);
  return copy;
}

} // namespace pyk::ast
