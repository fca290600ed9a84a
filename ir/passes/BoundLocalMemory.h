//===- BoundLocalMemory.h - The local-array bytes a thread may hold -------===//
//
// A thread's local arrays (cuda.local.array) live on its stack on the CPU
// device: a fiber's stack for a kernel that synchronises, an OS thread's
// otherwise. This analysis bounds how many bytes of them one thread may
// hold at once, so that the runtime can size those stacks before a launch.
// It is not a frame-size estimate: scalars, spills and runtime calls are
// the runtime's margin (runtime/README.md, "Fiber stacks").
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_PASSES_BOUNDLOCALMEMORY_H
#define PYK_IR_PASSES_BOUNDLOCALMEMORY_H

#include "IR.h"

namespace pyk::ir {

/// Sets Function::localMemoryBytes of every function: the bytes of its own
/// local arrays plus, for each call site in it, its callee's bound. Summed
/// over call sites, not the deepest one, because the optimiser may inline
/// every call, and then each inlined copy's arrays are in the caller's
/// frame. Requires callees before callers (Module's order; Sema rejects
/// recursion, so the call graph is acyclic). Saturates at UINT64_MAX.
void boundLocalMemory(Module &module);

} // namespace pyk::ir

#endif // PYK_IR_PASSES_BOUNDLOCALMEMORY_H
