//===- DiagnosticVerifier.h - Check diagnostics against the source's notes -===//
//
// Tests of error paths are .pyk files that say which diagnostics they
// expect, in comments, as Clang's -verify does:
//
//   x = 1 +     # expected-error {{invalid syntax}}
//   # expected-error@+1 {{name 'y' is not defined}}
//   z = y
//   # expected-warning@-3:5 {{...}}    (line 3 above, column 5)
//
// `@+N` / `@-N` are relative to the comment's line, `@N` is absolute, and
// `:COL` (1-based) also pins the column. The text between `{{` and `}}`
// must occur in the message.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_DIAGNOSTICVERIFIER_H
#define PYK_FRONTEND_DIAGNOSTICVERIFIER_H

#include "Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

namespace pyk {

/// Matches `diagnostics` one to one with the expectations written in
/// `file`. Returns true when every expectation is met and no diagnostic is
/// unexpected; otherwise writes what differs to `os` and returns false.
bool verifyDiagnostics(const SourceFile &file, const std::vector<Diagnostic> &diagnostics, llvm::raw_ostream &os);

} // namespace pyk

#endif // PYK_FRONTEND_DIAGNOSTICVERIFIER_H
