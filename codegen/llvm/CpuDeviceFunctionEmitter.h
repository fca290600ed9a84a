//===- CpuDeviceFunctionEmitter.h - The CPU device's side of the emitter ---===//
//
// What FunctionEmitter leaves to the target, for the CPU device: a kernel
// is the runtime's entry for one block (pyk/Launch.h's CpuKernelEntry),
// which unpacks the launch's arguments and runs the block's threads one
// after another in a loop (z, y, x), or, when the kernel waits at barriers
// or meets its warp, hands a per-thread function to pyk_cpu_run_block,
// which runs each thread on a fiber (pyk/CpuDevice.h). Device functions
// take the block's context and the thread's index from their caller.
// Shared arrays live in a frame on the stack of the worker that runs the
// block; print is the C library's printf, math functions the C library's.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_LLVM_CPUDEVICEFUNCTIONEMITTER_H
#define PYK_CODEGEN_LLVM_CPUDEVICEFUNCTIONEMITTER_H

#include "FunctionEmitter.h"

namespace pyk::llvmgen::emit {

class CpuDeviceFunctionEmitter final : public FunctionEmitter {
public:
  using FunctionEmitter::FunctionEmitter;

  /// Stack probes on every function, so that a frame larger than a
  /// thread's guard page faults there.
  static void finishModule(llvm::Module &module);

private:
  void declareKernel() override;
  void emitKernelBody() override;
  void returnFromKernel() override;
  void addContextParameterTypes(std::vector<llvm::Type *> &types) override;
  void nameContextParameters(unsigned first) override;
  void addContextArguments(std::vector<llvm::Value *> &args) override;
  void enterDeviceFunction() override;
  void printValues(llvm::Value *format, std::vector<llvm::Value *> values) override;
  unsigned constantAddressSpace() const override { return AddressSpace::Generic; }
  llvm::Value *mathCall(const std::string &name, std::initializer_list<llvm::Value *> args) override;
  void allocateSharedArray(const Variable *var, llvm::ArrayType *type) override;
  void allocateDynamicShared(const Variable *var) override;
  llvm::Value *barrierOrFence(const GpuOp &g, std::vector<llvm::Value *> &args) override;
  llvm::Value *warpOp(const GpuOp &g, std::vector<llvm::Value *> &args) override;
  llvm::Value *specialReg(const SpecialReg &r) override;
  /// The thread loop runs through the arrays: offsets stay 64-bit.
  bool narrowsOffsets() const override { return false; }

  /// A device function: the block's values and the thread's index come
  /// from the caller.
  void takeThreadContext();

  /// Reads the block's index, size and the grid's size from the runtime's
  /// CpuBlockContext (pyk/CpuBlockContext.h).
  void loadBlockValues(llvm::Value *context);
  /// The address of the block context's field at byte `offset`.
  llvm::Value *blockContextField(size_t offset);

  /// The bytes of the block's shared arrays, each at a 16-byte aligned offset.
  uint64_t sharedLayout(std::map<const Variable *, uint64_t> *offsets) const;

  /// A dynamic shared array is the block context's shared memory
  /// (CpuBlockContext::sharedMemory and sharedBytes).
  void placeDynamicShared();

  /// The block's shared arrays, in one frame on the stack of the worker
  /// running the block (null when there are none).
  llvm::Value *sharedFrame(llvm::IRBuilder<> &builder);

  void placeSharedArrays(llvm::Value *frame);

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

  // The thread's index (the loop counters, or the fiber's arguments), the
  // block's values, and where a thread goes when it is done.
  std::array<llvm::AllocaInst *, 3> threadIndex_{};
  std::array<std::array<llvm::Value *, 3>, 3> blockValues_{};
  llvm::Value *blockContext_ = nullptr;
  /// Kernels that synchronise: the entry the runtime calls.
  llvm::Function *blockEntry_ = nullptr;
  llvm::BasicBlock *threadDone_ = nullptr;
};

} // namespace pyk::llvmgen::emit

#endif // PYK_CODEGEN_LLVM_CPUDEVICEFUNCTIONEMITTER_H
