//===- ParseTree.h - Between the ANTLR parse tree and the AST (private) ---===//
//
// Internal to frontend/: shared by Parser.cpp (drives ANTLR) and
// ASTBuilder*.cpp (turn the parse tree into the AST). Includes ANTLR.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_PARSETREE_H
#define PYK_FRONTEND_PARSETREE_H

#include "AST.h"
#include "Diagnostics.h"

#include "PykParser.h"

namespace pyk {

/// Converts ANTLR token positions to locations in the file. Text that was
/// parsed from inside a string literal maps into that literal.
class LocationMap {
public:
  /// Positions in `file` itself.
  explicit LocationMap(const SourceFile &file) : file_(file) {}
  /// Positions in `inner`, the text of a string literal of `file`: shifted
  /// by `baseOffset` when the literal's text appears unchanged in the file,
  /// otherwise all mapped to `fallback`.
  LocationMap(const SourceFile &file, const SourceFile &inner, uint32_t baseOffset, bool exact, SourceRange fallback)
      : file_(file), inner_(&inner), baseOffset_(baseOffset), exact_(exact), fallback_(fallback) {}

  /// Where a lexer or parser position (1-based line, 0-based code point
  /// column) is.
  SourceLoc at(size_t line, size_t column) const;
  /// The range of one token.
  SourceRange range(const antlr4::Token *token) const;
  /// The range from the start of `first` to the end of `last`.
  SourceRange range(const antlr4::Token *first, const antlr4::Token *last) const;
  /// The range of a rule match.
  SourceRange range(antlr4::ParserRuleContext *ctx) const { return range(ctx->getStart(), ctx->getStop()); }

private:
  SourceLoc endOf(const antlr4::Token *token) const;

  const SourceFile &file_;
  const SourceFile *inner_ = nullptr;
  uint32_t baseOffset_ = 0;
  bool exact_ = true;
  SourceRange fallback_;
};

namespace astbuilder {
class ASTBuilder;
} // namespace astbuilder

/// Builds the AST of a file from the parse trees of its top-level
/// statements, given in order, one at a time: the caller may free each tree
/// once it is added. Reports constructs the parse tree allows but Python does
/// not (a non-default parameter after a default one, `f() = 1`, ...) to
/// `diags`.
class ModuleBuilder {
public:
  ModuleBuilder(const LocationMap &locations, DiagnosticEngine &diags);
  ~ModuleBuilder();
  ModuleBuilder(const ModuleBuilder &) = delete;
  ModuleBuilder &operator=(const ModuleBuilder &) = delete;

  void add(grammar::PykParser::StmtContext *stmt);
  /// The module of the statements added so far.
  std::unique_ptr<ast::Module> finish();

private:
  std::unique_ptr<astbuilder::ASTBuilder> builder_;
  ast::StmtList body_;
};

/// Builds the AST of a file from its whole parse tree, as ModuleBuilder does.
std::unique_ptr<ast::Module> buildModule(grammar::PykParser::FileInputContext *tree, const LocationMap &locations,
                                         DiagnosticEngine &diags);

/// Builds the expression of a re-parsed string literal.
ast::ExprPtr buildExpression(grammar::PykParser::EvalInputContext *tree, const LocationMap &locations,
                             DiagnosticEngine &diags);

} // namespace pyk

#endif // PYK_FRONTEND_PARSETREE_H
