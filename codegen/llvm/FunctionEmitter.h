//===- FunctionEmitter.h - One IR function to LLVM IR (private) ------------===//
//
// The emitter of LLVMEmitter.cpp: what every target shares, split by
// concern: LLVMEmitterDeclarations.cpp (functions and parameters),
// LLVMEmitter.cpp (statements, expressions), LLVMEmitterChecks.cpp
// (checked mode), LLVMEmitterArrays.cpp (element addresses, view locals)
// and LLVMEmitterGpuOps.cpp (array locals, atomics, fastmath). What a
// target does its own way is a virtual hook here, implemented by
// NVPTXFunctionEmitter (the GPU) and CpuDeviceFunctionEmitter (the CPU
// device): kernel entries, thread registers, barriers and warp operations,
// shared memory, print, math functions and address spaces.
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
  case ScalarKind::BFloat16:
    // Its bits: pykc converts it itself (LLVMEmitterBFloat16.cpp), since
    // after lowerFloat16 nothing else is done to it.
    return llvm::Type::getInt16Ty(context);
  case ScalarKind::Complex64:
  case ScalarKind::Complex128: {
    // The real part, then the imaginary (aligned to its size in memory:
    // elementAlignment).
    llvm::Type *part = registerType(complexPart(kind), context);
    return llvm::StructType::get(context, {part, part});
  }
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
  FunctionEmitter(const Function &function, const ir::Module &source, llvm::Module &module, llvm::DIBuilder *debug,
                  llvm::DIFile *file, const FunctionMap &functions)
      : function_(function), sourceName_(source.sourceName), source_(source), module_(module),
        context_(module.getContext()), builder_(context_), debug_(debug), file_(file), functions_(functions) {}
  virtual ~FunctionEmitter() = default;
  FunctionEmitter(const FunctionEmitter &) = delete;
  FunctionEmitter &operator=(const FunctionEmitter &) = delete;

  llvm::Function *declare();

  void emitBody();

protected:
  // --- What each target does its own way --------------------------------------
  /// A kernel, as the target launches it.
  virtual void declareKernel() = 0;
  /// A kernel's body, after the entry block's locals.
  virtual void emitKernelBody() = 0;
  /// `return` in a kernel: the thread ends.
  virtual void returnFromKernel() = 0;
  /// A device function's parameters after the IR's and checked mode's (the
  /// CPU device's thread context): their types, their names, and the values
  /// a call passes for them; and what the body does with them first.
  virtual void addContextParameterTypes(std::vector<llvm::Type *> &) {}
  virtual void nameContextParameters(unsigned /*first*/) {}
  virtual void addContextArguments(std::vector<llvm::Value *> &) {}
  virtual void enterDeviceFunction() {}
  /// print(): the call that writes `format` with `values` (C varargs
  /// promotions done).
  virtual void printValues(llvm::Value *format, std::vector<llvm::Value *> values) = 0;
  /// The address space of constant data: strings, NumPy array constants.
  virtual unsigned constantAddressSpace() const = 0;
  /// A load from a kernel's array that nothing writes while it runs.
  virtual void markReadOnlyLoad(llvm::LoadInst *) {}
  /// fastmath float32 division, or null where the target has no faster one.
  virtual llvm::Value *fastDivide(llvm::Value *, llvm::Value *) { return nullptr; }
  /// A math function of the C library (mathCall's callee and flags).
  virtual llvm::Value *mathCall(const std::string &name, std::initializer_list<llvm::Value *> args) = 0;
  /// fastmath: what the target adds to the instruction flags.
  virtual void addFastMathAttributes() {}
  /// A shared array and the dynamic shared array, placed when the entry
  /// block's locals are (or later, by the target's kernel body).
  virtual void allocateSharedArray(const Variable *var, llvm::ArrayType *type) = 0;
  virtual void allocateDynamicShared(const Variable *var) = 0;
  /// Barriers and fences (GpuOpKind below SyncWarp), and warp operations.
  virtual llvm::Value *barrierOrFence(const GpuOp &g, std::vector<llvm::Value *> &args) = 0;
  virtual llvm::Value *warpOp(const GpuOp &g, std::vector<llvm::Value *> &args) = 0;
  /// threadIdx, blockIdx, blockDim, gridDim and the lane.
  virtual llvm::Value *specialReg(const SpecialReg &r) = 0;
  /// Whether an access the IR marks `narrowOffset` computes its offset in
  /// 32 bits.
  virtual bool narrowsOffsets() const = 0;

  /// A call of the math function `symbol` (nounwind; `pure`: nor reading
  /// or writing memory).
  llvm::Value *callMathFunction(const std::string &symbol, std::initializer_list<llvm::Value *> args, bool pure);

  // --- Declaration ----------------------------------------------------------

  /// An internal function: arrays as generic pointers (global, shared or
  /// local memory: after inlining, NVPTX infers which) and not noalias (a
  /// device function may be passed the same array twice), and their
  /// extents; then the target's context (addContextParameterTypes).
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

  // --- Array locals -----------------------------------------------------------
  ArrayValue fixedArray(const Variable *var, llvm::Value *data);

  /// The array `var` holds now: a parameter's or array local's values, or
  /// what a view local was last given.
  ArrayValue arrayValue(const Variable *var);

  /// View locals: their slots, made in the entry block.
  void allocateViewSlots();

  /// A view local takes `view` (null: the null pointer and extents 0).
  void storeView(const Variable *var, const ArrayView *view);

  /// Local arrays are allocas and constant arrays globals; shared ones are
  /// the target's (allocateSharedArray).
  void allocateArrayLocals();

  ArrayValue dynamicSharedArray(const Variable *var, llvm::Value *data, llvm::Value *bytes);
  llvm::GlobalVariable *constantArray(const Variable &var);

  void attachDebugInfo();

  void at(SourceRange loc);

  // --- Statements -----------------------------------------------------------
  void block(const StmtList &body);

  void stmt(const Stmt &s);

  /// Barriers, fences and warp operations (the target's).
  llvm::Value *gpuOp(const GpuOp &g);

  /// A value's bits as an integer of its width (floats bit-cast).
  llvm::Value *asBits(llvm::Value *value);

  /// "file.pyk:line:col" as a constant string, for the runtime's messages.
  llvm::Value *sourcePosition(SourceRange loc);

  /// cuda.atomic.*: atomicrmw (cmpxchg for cas) on the element, relaxed, as
  /// CUDA's atomics are. Floats compare-and-swap through their bits.
  llvm::Value *atomic(const Atomic &a);
  /// libdevice.NAME: __nv_NAME, libdevice's on a GPU, the runtime's on the CPU device.
  llvm::Value *libdeviceCall(const LibdeviceCall &l);
  llvm::Value *foreignCall(const ForeignCall &f);
  llvm::Value *atomicAt(const Atomic &a, llvm::Value *address, llvm::Value *compare, llvm::Value *value);
  llvm::Value *orderedMinMax(llvm::Value *address, llvm::Value *value, bool max);

  /// `ret value` from a device function. Sema has checked that a function
  /// with a value returns on every path, so a null value there ends a block
  /// no path reaches; it returns zero rather than leave the block open.
  void returnFromFunction(llvm::Value *value);

  /// A device function's call: each array as its pointer and extents, then
  /// the target's context (addContextArguments).
  llvm::Value *call(const Call &c);

  void ifStmt(const If &s);

  /// print(...): the values promoted as C's varargs are (bools as "True"
  /// and "False"), written by the target (printValues).
  void print(const Print &s);

  /// A pointer to a null-terminated constant string (in the target's
  /// constant memory, as a generic pointer).
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

  llvm::Value *compare(const Compare &c);

  /// `lhs and rhs` / `lhs or rhs`, evaluating `rhs` only when needed.
  llvm::Value *shortCircuit(bool isAnd, const Expr &lhsExpr, const Expr &rhsExpr, bool inBranchCondition = false);
  llvm::Value *branchCondition(const Expr &e);

  /// `thenValue if condition else elseValue`, evaluating one side only.
  llvm::Value *conditional(const Expr &conditionExpr, const Expr &thenExpr, const Expr &elseExpr);

  std::vector<llvm::Value *> indexValues(const std::vector<ExprPtr> &indices);

  /// data + row-major offset of `indices`, as an inbounds GEP; in 32 bits
  /// where the IR marks the access `narrowOffset` and the target narrows.
  /// The address of an element of `array`, or of field `field` of one of
  /// its records.
  llvm::Value *elementAddress(const Variable *array, const std::vector<llvm::Value *> &indices, bool narrowOffset,
                              int field = -1);
  /// What an access of it may assume of that address's alignment.
  static unsigned elementAlignment(const Variable *array, int field);

  /// A loop's body: continue goes to `next`, break to `exit`.
  void loopBody(const StmtList &body, llvm::BasicBlock *next, llvm::BasicBlock *exit);

  // --- Checked mode (LLVMEmitterChecks.cpp) ----------------------------------
  llvm::Function *checkFailedFunction();

  /// Calls pyk_check_failed for `site` with this thread's indices.
  void reportFailure(CheckSiteId site, llvm::Value *index, llvm::Value *extent);

  /// A CheckFailed: the report, and its type's zero (null for void).
  llvm::Value *checkFailed(const CheckFailed &f);

  // --- Conversions ----------------------------------------------------------
  llvm::Value *toMemory(llvm::Value *value, ScalarKind kind);

  llvm::Value *fromMemory(llvm::Value *value, ScalarKind kind);

  /// Numeric conversion with C semantics (the CUDA C++ backend's casts).
  llvm::Value *convert(llvm::Value *value, ScalarKind from, ScalarKind to);
  /// bfloat16 from and to float32, and from float64 (rounded once): the
  /// conversions lowerFloat16 leaves, on the bits (LLVMEmitterBFloat16.cpp).
  llvm::Value *convertBFloat16(llvm::Value *value, ScalarKind from, ScalarKind to);

  const Function &function_;
  /// The .pyk file's name, for the runtime's messages.
  const std::string &sourceName_;
  /// The module the function is in (its --index-bits).
  const ir::Module &source_;
  llvm::Module &module_;
  llvm::LLVMContext &context_;
  llvm::IRBuilder<> builder_;
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
