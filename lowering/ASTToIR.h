//===- ASTToIR.h - Lower a checked AST to the IR --------------------------===//
#ifndef PYK_LOWERING_ASTTOIR_H
#define PYK_LOWERING_ASTTOIR_H

#include "AST.h"
#include "IR.h"
#include "Sema.h"

#include <memory>

namespace pyk::ir {

/// Builds the IR of every kernel that Sema checked, without errors, into
/// `info`: every expression has its type and every name its symbol. Makes
/// each implicit conversion an explicit Cast.
std::unique_ptr<Module> lowerToIR(const ModuleInfo &info, const SourceFile &file);

} // namespace pyk::ir

#endif // PYK_LOWERING_ASTTOIR_H
