//===- CheckKernelLimits.cpp - A kernel's totals against the GPU's limits -===//
#include "passes/CheckKernelLimits.h"

#include "GpuLimits.h"
#include "IRWalk.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/MathExtras.h"

#include <set>
#include <string>

namespace pyk::ir {
namespace {

/// A device pointer, an array's extent and each of checked mode's two
/// parameters (the check record's pointer and the launch word,
/// Function::checked) take one 8-byte slot.
constexpr uint64_t wordBytes = 8;
constexpr unsigned checkedParamSlots = 2;

/// The functions `function` may run: itself and every device function it
/// calls, directly or not, each once.
void reachable(const Function &function, std::set<const Function *> &seen) {
  if (!seen.insert(&function).second)
    return;
  auto visit = [&](const Expr &e, auto &self) -> void {
    if (auto *call = llvm::dyn_cast<Call>(&e))
      reachable(*call->callee, seen);
    forEachOperand(e, [&](const Expr &operand) { self(operand, self); });
  };
  forEachExprIn(function.body, [&](const Expr &e) { visit(e, visit); });
}

/// The bytes of `function`'s own fixed-shape shared arrays.
uint64_t ownSharedBytes(const Function &function) {
  uint64_t bytes = 0;
  for (const Variable *var : function.variables())
    if (var->memory == Variable::Memory::Shared)
      bytes = llvm::SaturatingAdd(bytes, static_cast<uint64_t>(var->fixedBytes()));
  return bytes;
}

/// The block's static shared memory: the fixed-shape shared arrays of the
/// kernel and of each device function it may call, once per function (a
/// device function's array is one per block, whatever the calls).
uint64_t staticSharedBytes(const Function &kernel) {
  std::set<const Function *> functions;
  reachable(kernel, functions);
  uint64_t bytes = 0;
  for (const Function *function : functions)
    bytes = llvm::SaturatingAdd(bytes, ownSharedBytes(*function));
  return bytes;
}

/// "48 KiB (49152 bytes)": a limit as the messages spell it.
std::string describeLimit(uint64_t bytes) {
  return std::to_string(bytes / 1024) + " KiB (" + std::to_string(bytes) + " bytes)";
}

/// The bytes of `kernel`'s parameters as its PTX `.entry` lays them out
/// (and CUDA C++ its arguments): each slot at a multiple of its size; an
/// array is its pointer and one int64 per axis; a checked kernel takes a
/// record pointer and a launch word after its own.
uint64_t kernelParamBytes(const Function &kernel) {
  uint64_t offset = 0;
  auto addSlot = [&](uint64_t size) { offset = llvm::alignTo(offset, size) + size; };
  for (const Variable *param : kernel.params) {
    if (!param->type.isArray()) {
      addSlot(byteWidth(param->type.scalar));
      continue;
    }
    for (unsigned slot = 0; slot < 1 + param->type.rank; ++slot)
      addSlot(wordBytes);
  }
  if (kernel.checked)
    for (unsigned slot = 0; slot < checkedParamSlots; ++slot)
      addSlot(wordBytes);
  return offset;
}

} // namespace

void checkKernelLimits(const Module &module, DiagnosticEngine &diags) {
  for (const Function *kernel : module.kernels()) {
    const std::string name = "kernel '" + kernel->name + "'";
    if (uint64_t shared = staticSharedBytes(*kernel); shared > maxStaticSharedBytes)
      diags.error(kernel->loc) << name << " makes " << shared << " bytes of shared arrays"
                               << (shared != ownSharedBytes(*kernel) ? ", with those of the device functions it calls"
                                                                      : "")
                               << "; CUDA allows "
                               << describeLimit(maxStaticSharedBytes)
                               << " of static shared memory per block (more only as dynamic shared memory, "
                                  "cuda.shared.array(0, dtype))";
    if (kernel->localMemoryBytes > maxLocalBytes)
      diags.error(kernel->loc) << name << " may hold " << (kernel->localMemoryBytes == UINT64_MAX ? "at least " : "")
                               << kernel->localMemoryBytes
                               << " bytes of local arrays per thread, counting each call of a device function "
                                  "on its own; CUDA allows "
                               << describeLimit(maxLocalBytes) << " of local memory per thread";
    if (uint64_t params = kernelParamBytes(*kernel); params > maxKernelParamBytes)
      diags.error(kernel->loc) << name << " takes " << params << " bytes of parameters"
                               << (kernel->checked ? " (" + std::to_string(checkedParamSlots * wordBytes) +
                                                         " of them checked mode's)"
                                                   : "")
                               << "; a GPU kernel may take at most " << maxKernelParamBytes
                               << " bytes (an array parameter takes 8 and 8 more per axis)";
  }
}

} // namespace pyk::ir
