//===- CheckKernelLimits.h - A kernel's totals against the GPU's limits ---===//
//
// Sema checks each shared and local array on its own; only the IR knows a
// kernel's totals: all its static shared arrays, the local arrays of every
// device function it calls (boundLocalMemory), and its parameters as the
// backends lay them out (checked mode's included). Past a limit, ptxas or
// the driver would reject the kernel later with no .pyk position; this
// pass reports it at the kernel's `def` instead.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_CHECKKERNELLIMITS_H
#define PYK_IR_PASSES_CHECKKERNELLIMITS_H

#include "Diagnostics.h"
#include "IR.h"

namespace pyk::ir {

/// Reports each kernel whose static shared arrays, local arrays (its
/// callees' included, once per call site, as Function::localMemoryBytes
/// counts them) or parameters exceed GpuLimits.h, as an error at its name.
/// Requires planChecks (which adds checked mode's parameters) and
/// boundLocalMemory to have run. Dynamic shared memory is the launch's
/// and is not counted.
void checkKernelLimits(const Module &module, DiagnosticEngine &diags);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_CHECKKERNELLIMITS_H
