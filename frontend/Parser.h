//===- Parser.h - From source text to AST ---------------------------------===//
//
// The frontend's door to the ANTLR-generated lexer and parser. Only the
// files behind this header include ANTLR; everything after parsing sees the
// AST alone. Syntax errors become located diagnostics; the parser never
// throws or aborts, whatever the input.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_PARSER_H
#define PYK_FRONTEND_PARSER_H

#include "AST.h"
#include "Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace pyk {

/// Parses the whole file. Returns the module, or null when there were
/// syntax errors (they are in `diags`).
std::unique_ptr<ast::Module> parseModule(const SourceFile &file, DiagnosticEngine &diags);

/// Parses the text of a string literal as one expression, as in
/// `@cuda.jit("void(float32[:])")`. Locations point into the literal when it
/// is simple (no prefix, no escapes), otherwise at the literal. Returns null
/// after reporting syntax errors to `diags`.
ast::ExprPtr parseStringAsExpression(const ast::StringLiteralExpr &literal, DiagnosticEngine &diags);

/// Prints the token stream, one token per line with its position
/// (`--emit=tokens`). Returns false when the lexer reported errors.
bool dumpTokens(const SourceFile &file, DiagnosticEngine &diags, llvm::raw_ostream &os);

} // namespace pyk

#endif // PYK_FRONTEND_PARSER_H
