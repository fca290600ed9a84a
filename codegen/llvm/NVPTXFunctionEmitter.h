//===- NVPTXFunctionEmitter.h - The GPU's side of the LLVM emitter ---------===//
//
// What FunctionEmitter leaves to the target, for NVPTX: a kernel is a PTX
// entry (its arrays global and noalias, its launch bounds annotated), one
// call per GPU thread; thread registers, barriers and warp operations are
// NVVM intrinsics; shared arrays are globals in shared memory; print is
// CUDA's vprintf; math functions are libdevice's (__nv_NAME), with its fast
// versions under fastmath.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_LLVM_NVPTXFUNCTIONEMITTER_H
#define PYK_CODEGEN_LLVM_NVPTXFUNCTIONEMITTER_H

#include "FunctionEmitter.h"

namespace pyk::llvmgen::emit {

class NVPTXFunctionEmitter final : public FunctionEmitter {
public:
  using FunctionEmitter::FunctionEmitter;

  /// The module's target triple (the caller's target machine adds its data
  /// layout).
  static void prepareModule(llvm::Module &module);

private:
  void declareKernel() override;
  void emitKernelBody() override;
  void returnFromKernel() override;
  void printValues(llvm::Value *format, std::vector<llvm::Value *> values) override;
  unsigned constantAddressSpace() const override { return AddressSpace::Const; }
  void markReadOnlyLoad(llvm::LoadInst *load) override;
  llvm::Value *fastDivide(llvm::Value *lhs, llvm::Value *rhs) override;
  llvm::Value *mathCall(const std::string &name, std::initializer_list<llvm::Value *> args) override;
  void addFastMathAttributes() override;
  void allocateSharedArray(const Variable *var, llvm::ArrayType *type) override;
  void allocateDynamicShared(const Variable *var) override;
  llvm::Value *barrierOrFence(const GpuOp &g, std::vector<llvm::Value *> &args) override;
  llvm::Value *warpOp(const GpuOp &g, std::vector<llvm::Value *> &args) override;
  llvm::Value *specialReg(const SpecialReg &r) override;
  bool narrowsOffsets() const override { return true; }

  /// launch_bounds and max_registers, as NVPTX reads them: nvvm.annotations
  /// (.maxntid, .minnctapersm and .maxnreg in the PTX).
  void annotateResources();
  /// The grid barrier (GpuOpKind::GridSync), defined once per module.
  llvm::Function *gridSyncFunction();
};

} // namespace pyk::llvmgen::emit

#endif // PYK_CODEGEN_LLVM_NVPTXFUNCTIONEMITTER_H
