//===- FunctionEmitter.h - One IR function to LLVM IR (private) ------------===//
//
// The emitter of LLVMEmitter.cpp, declared here because its work is split
// by concern: LLVMEmitterDeclarations.cpp (functions and parameters), LLVMEmitter.cpp
// (statements, expressions), LLVMEmitterChecks.cpp (checked mode),
// LLVMEmitterCpuDevice.cpp (the CPU device's entries, thread loops and
// fibers) and LLVMEmitterGpuOps.cpp (thread registers, array locals,
// barriers, atomics, warp operations, fastmath and launch bounds).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_LLVM_FUNCTIONEMITTER_H
#define PYK_CODEGEN_LLVM_FUNCTIONEMITTER_H

#include "LLVMEmitter.h"

#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"

#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pyk::llvmgen::emit {

using llvm::cast;
using llvm::isa;
using namespace ir;

/// The LLVM type a scalar has in registers (bool is i1).
inline llvm::Type *registerType(ScalarKind kind, llvm::LLVMContext &context) {
  switch (kind) {
  case ScalarKind::Bool:
    return llvm::Type::getInt1Ty(context);
  case ScalarKind::Int8:
  case ScalarKind::UInt8:
    return llvm::Type::getInt8Ty(context);
  case ScalarKind::Int16:
  case ScalarKind::UInt16:
    return llvm::Type::getInt16Ty(context);
  case ScalarKind::Int32:
  case ScalarKind::UInt32:
    return llvm::Type::getInt32Ty(context);
  case ScalarKind::Int64:
  case ScalarKind::UInt64:
    return llvm::Type::getInt64Ty(context);
  case ScalarKind::Float16:
    return llvm::Type::getHalfTy(context);
  case ScalarKind::Float32:
    return llvm::Type::getFloatTy(context);
  case ScalarKind::Float64:
    return llvm::Type::getDoubleTy(context);
  }
  return nullptr;
}

/// The LLVM type a scalar has in memory (bool is one byte, as in NumPy).
inline llvm::Type *memoryType(ScalarKind kind, llvm::LLVMContext &context) {
  return kind == ScalarKind::Bool ? llvm::Type::getInt8Ty(context) : registerType(kind, context);
}

/// An array: its data pointer, one extent per axis, and for a strided
/// array one stride (in elements) per axis.
struct ArrayValue {
  llvm::Value *data = nullptr;
  std::vector<llvm::Value *> extents;
  std::vector<llvm::Value *> strides;
};

/// The LLVM function of each IR function of the module.
using FunctionMap = std::map<const Function *, llvm::Function *>;

class FunctionEmitter {
public:
  FunctionEmitter(const Function &function, const ir::Module &source, llvm::Module &module, LLVMTarget target,
                  llvm::DIBuilder *debug, llvm::DIFile *file, const FunctionMap &functions)
      : function_(function), sourceName_(source.sourceName), source_(source),
        module_(module), context_(module.getContext()), builder_(context_), target_(target), debug_(debug),
        file_(file), functions_(functions) {}

  llvm::Function *declare();

  void emitBody();

private:
  // --- Declaration ----------------------------------------------------------
  void declareKernel();

  /// An internal function: arrays as generic pointers (global, shared or
  /// local memory: after inlining, NVPTX infers which) and not noalias (a
  /// device function may be passed the same array twice), and their
  /// extents; on the CPU device then the block's context and the thread's
  /// index.
  std::vector<llvm::Type *> parameterTypes(unsigned space);
  unsigned bindParameters(bool noAlias);
  void addCheckParameterTypes(std::vector<llvm::Type *> &types);
  unsigned bindCheckParameters(unsigned index);
  void declareDeviceFunction();

  /// fastmath=True: the instruction flags of LLVM's `fast` but nnan and ninf
  /// (so isnan and isinf keep working), and on the GPU float32 denormals
  /// flushed to zero. Approximate division and square root are explicit
  /// (div/sqrt.approx): NVPTX's own choice follows "unsafe-fp-math", which
  /// inlining any libdevice function resets.
  void enableFastMath();

  /// Stores the values of the parameters the body assigns into their
  /// memory.
  void initAssignedParams();

  /// CPU device, device function: the block's values and the thread's
  /// index come from the caller.
  void takeThreadContext();

  /// Reads the block's index, size and the grid's size from the runtime's
  /// CpuBlockContext (pyk/CpuBlockContext.h).
  void loadBlockValues(llvm::Value *context);
  /// The address of the block context's field at byte `offset`.
  llvm::Value *blockContextField(size_t offset);

  /// launch_bounds and max_registers, as NVPTX reads them: nvvm.annotations
  /// (.maxntid, .minnctapersm and .maxnreg in the PTX).
  void annotateResources();

  // --- Array locals -----------------------------------------------------------
  /// The bytes of the block's shared arrays, each at a 16-byte aligned offset.
  uint64_t sharedLayout(std::map<const Variable *, uint64_t> *offsets) const;

  ArrayValue fixedArray(const Variable *var, llvm::Value *data);

  /// The array `var` holds now: a parameter's or array local's values, or
  /// what a view local was last given.
  ArrayValue arrayValue(const Variable *var);

  /// View locals: their slots, made in the entry block.
  void allocateViewSlots();

  /// A view local takes `view` (null: the null pointer and extents 0).
  void storeView(const Variable *var, const ArrayView *view);

  /// Local arrays are allocas; shared ones, on the GPU, globals in shared
  /// memory (on the CPU device, placeSharedArrays puts them in the block's
  /// frame).
  void allocateArrayLocals();

  ArrayValue dynamicSharedArray(const Variable *var, llvm::Value *data, llvm::Value *bytes);
  llvm::GlobalVariable *constantArray(const Variable &var);

  /// CPU device: a dynamic shared array is the block context's shared
  /// memory (CpuBlockContext::sharedMemory and sharedBytes).
  void placeDynamicShared();

  /// CPU device: the block's shared arrays, in one frame on the stack of
  /// the worker running the block (null when there are none).
  llvm::Value *sharedFrame(llvm::IRBuilder<> &builder);

  void placeSharedArrays(llvm::Value *frame);

  // --- The CPU device's fiber kernels ----------------------------------------
  /// A kernel that waits at barriers runs each thread on a fiber: the body
  /// is `thread(args, block, frame, x, y, z)` and the entry the runtime
  /// calls hands it to pyk_cpu_run_block with the block's shared frame.
  void declareCpuFiberKernel();

  /// The thread function's body (its arguments unpacked already).
  void emitFiberThread();

  void emitFiberBlockEntry();

  /// void pyk_cpu_NAME(ptr args, ptr context): the runtime's CpuKernelEntry.
  void declareCpuEntry();

  /// Loads each parameter from the args array (args[i] points to the i-th
  /// value; an array is its data pointer then one int64 per extent) and the
  /// block's indices and extents from the context.
  void unpackCpuArguments();

  /// for z, for y, for x over the block's threads: the kernel body. A
  /// `return` ends one thread: it continues with the next.
  void emitThreadLoops();

  void attachDebugInfo();

  void at(SourceRange loc);

  // --- Statements -----------------------------------------------------------
  void block(const StmtList &body);

  void stmt(const Stmt &s);

  /// Barriers: bar.sync and its counting forms on the GPU, the runtime's
  /// fiber barrier on the CPU device (told where it is, for its messages).
  /// Fences: membar on the GPU; on the CPU device the block's threads share
  /// one OS thread, so a block fence only stops the compiler reordering.
  llvm::Value *gpuOp(const GpuOp &g);

  /// A value's bits as an integer of its width (floats bit-cast).
  llvm::Value *asBits(llvm::Value *value);

  /// Warp operations on the GPU: the sync intrinsics; 64-bit shuffles move
  /// the two halves.
  llvm::Value *warpOpOnGpu(const GpuOp &g, std::vector<llvm::Value *> &args);

  /// Warp operations on the CPU device: the runtime's rendezvous of the
  /// warp's fibers. The source lane of a shuffle is computed here, as CUDA
  /// defines it (outside the warp: the caller's own value).
  llvm::Value *warpOpOnCpu(const GpuOp &g, std::vector<llvm::Value *> &args);

  /// "file.pyk:line:col" as a constant string, for the runtime's messages.
  llvm::Value *sourcePosition(SourceRange loc);

  /// cuda.atomic.*: atomicrmw (cmpxchg for cas) on the element, relaxed, as
  /// CUDA's atomics are. Floats compare-and-swap through their bits.
  llvm::Value *atomic(const Atomic &a);
  llvm::Value *atomicAt(const Atomic &a, llvm::Value *address, llvm::Value *compare, llvm::Value *value);

  /// `ret value` from a device function. Sema has checked that a function
  /// with a value returns on every path, so a null value there ends a block
  /// no path reaches; it returns zero rather than leave the block open.
  void returnFromFunction(llvm::Value *value);

  /// A device function's call: each array as its pointer and extents; on
  /// the CPU device then this thread's context.
  llvm::Value *call(const Call &c);

  void ifStmt(const If &s);

  /// print(...): on the GPU, vprintf(format, buffer) with the values laid
  /// out as C's varargs would be (CUDA's device printf); on the CPU device,
  /// the C library's printf.
  void print(const Print &s);

  /// A pointer to a null-terminated constant string (in the GPU's constant
  /// memory on NVPTX, as a generic pointer).
  llvm::Value *stringConstant(const std::string &text);

  void whileLoop(const While &s);

  /// start, stop and step are evaluated once; the counter lives in an
  /// alloca like any local.
  void forRange(const ForRange &s);

  /// forRange with a step other than 1 (ForRange::hasUnitStep).
  void forRangeCounted(const ForRange &s, llvm::Value *start, llvm::Value *step);

  void storeLocal(const Variable *var, llvm::Value *value);

  // --- Expressions ----------------------------------------------------------
  llvm::Value *expr(const Expr &e);

  llvm::Value *constant(const Constant &c);

  llvm::Value *binary(const Binary &b);

  /// A math function of the C library: libdevice's __nv_NAME on the GPU
  /// (linked in after emission), the C library's NAME on the CPU device.
  /// With fastmath on the GPU, float32 functions that libdevice has a fast
  /// version of use it (__nv_fast_expf, ...), and sqrtf is sqrt.approx.
  llvm::Value *mathCall(const std::string &name, std::initializer_list<llvm::Value *> args);

  llvm::Value *compare(const Compare &c);

  /// `lhs and rhs` / `lhs or rhs`, evaluating `rhs` only when needed.
  llvm::Value *shortCircuit(bool isAnd, const Expr &lhsExpr, const Expr &rhsExpr, bool inBranchCondition = false);
  llvm::Value *branchCondition(const Expr &e);

  /// `thenValue if condition else elseValue`, evaluating one side only.
  llvm::Value *conditional(const Expr &conditionExpr, const Expr &thenExpr, const Expr &elseExpr);

  llvm::Value *specialReg(const SpecialReg &r);

  std::vector<llvm::Value *> indexValues(const std::vector<ExprPtr> &indices);

  /// data + row-major offset of `indices`, as an inbounds GEP; in 32 bits
  /// where the IR marks the access `narrowOffset` (on the GPU).
  llvm::Value *elementAddress(const Variable *array, const std::vector<llvm::Value *> &indices, bool narrowOffset);

  /// A loop's body: continue goes to `next`, break to `exit`.
  void loopBody(const StmtList &body, llvm::BasicBlock *next, llvm::BasicBlock *exit);

  // --- Checked mode (LLVMEmitterChecks.cpp) ----------------------------------
  llvm::Function *checkFailedFunction();

  /// Calls pyk_check_failed for `site` with this thread's indices.
  void reportFailure(CheckSiteId site, llvm::Value *index, llvm::Value *extent);

  void checkOrReport(llvm::Value *failed, CheckSiteId site, llvm::Value *index, llvm::Value *extent,
                     llvm::BasicBlock *after);

  /// Checks each index that has a site against its extent. Returns null
  /// when none has; otherwise the block failed checks lead to, and leaves
  /// the builder where all passed.
  llvm::BasicBlock *checkIndices(const Variable *array, const std::vector<llvm::Value *> &indices,
                                 const std::vector<CheckSiteId> &sites);

  /// Joins the passing path (which produced `value`, or null for a store)
  /// with `skip` (from checkIndices); the result is 0 where skipped.
  llvm::Value *guarded(llvm::BasicBlock *skip, llvm::Value *value);

  /// Checked mode: reports a zero divisor; the divisor's value.
  llvm::Value *checkedDivisor(const DivisorCheck &d);

  void assertion(const Assert &a);

  // --- Conversions ----------------------------------------------------------
  llvm::Value *toMemory(llvm::Value *value, ScalarKind kind);

  llvm::Value *fromMemory(llvm::Value *value, ScalarKind kind);

  /// Numeric conversion with C semantics (the CUDA C++ backend's casts).
  llvm::Value *convert(llvm::Value *value, ScalarKind from, ScalarKind to);

  const Function &function_;
  /// The .pyk file's name, for the runtime's messages.
  const std::string &sourceName_;
  /// The module the function is in (its --index-bits).
  const ir::Module &source_;
  llvm::Module &module_;
  llvm::LLVMContext &context_;
  llvm::IRBuilder<> builder_;
  LLVMTarget target_;
  // Host only: the thread loop counters, the block's values, and where a
  // thread goes when it is done.
  std::array<llvm::AllocaInst *, 3> threadIndex_{};
  std::array<std::array<llvm::Value *, 3>, 3> blockValues_{};
  llvm::Value *blockContext_ = nullptr;
  /// CPU device, kernels that synchronise: the entry the runtime calls.
  llvm::Function *blockEntry_ = nullptr;
  llvm::BasicBlock *threadDone_ = nullptr;
  /// The enclosing loops, innermost last: where continue and break go.
  struct LoopTargets {
    llvm::BasicBlock *next;
    llvm::BasicBlock *exit;
  };
  std::vector<LoopTargets> loops_;
  llvm::DIBuilder *debug_;
  llvm::DIFile *file_;
  llvm::DIScope *scope_ = nullptr;
  llvm::Function *llvmFunction_ = nullptr;
  const FunctionMap &functions_;
  std::map<const Variable *, llvm::Value *> scalars_;
  std::map<const Variable *, ArrayValue> arrays_;
  /// View locals: allocas holding each one's data pointer (generic),
  /// extents and strides, which Declare and Assign write.
  std::map<const Variable *, ArrayValue> viewSlots_;
  /// Where each scalar that lives in memory is: an alloca, or for a result
  /// (Function::results) the pointer the caller passed.
  std::map<const Variable *, llvm::Value *> locals_;
  /// Checked functions: the check record and the launch's word.
  llvm::Value *checkRecord_ = nullptr;
  llvm::Value *checkLaunch_ = nullptr;
};

} // namespace pyk::llvmgen::emit

#endif // PYK_CODEGEN_LLVM_FUNCTIONEMITTER_H
