//===- IR.h - pyk's typed kernel IR ---------------------------------------===//
//
// The IR is the machine: a small tree of typed, located operations with
// structured control flow, from which every backend (CUDA C++, LLVM/PTX,
// the CPU device) generates code. It differs from the AST in that every
// implicit conversion is an explicit Cast, every builtin is an explicit op
// (SpecialReg, ArrayDim), tuples are gone, and operands of an operation
// have exactly the type the operation works in. The verifier checks these
// invariants (IRVerifier.h).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_IR_H
#define PYK_IR_IR_H

#include "IRStatements.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pyk::ir {

/// One check of checked mode, as the runtime's message describes it.
struct CheckSite {
  enum class Kind : uint8_t { Bounds, DivisionByZero, ModuloByZero, Assertion };
  Kind kind;
  SourceRange loc;
  /// Bounds: the array (as the .pyk source names it) and the axis.
  std::string array;
  unsigned axis = 0;
  /// Assertion: the assert's message, or its condition's source text.
  std::string message;
  /// Bounds: the index counts from the end where negative (WrapIndex), so
  /// a failing value below 0 is reported as written: itself minus the
  /// extent.
  bool wraps = false;
};

/// A kernel, or a device function that kernels call.
class Function {
public:
  enum class Kind { Kernel, Device };

  Function(Kind kind, std::string name, SourceRange loc) : kind(kind), name(std::move(name)), loc(loc) {}

  Variable *addParam(std::string paramName, Type type, SourceRange range) {
    vars_.push_back(std::make_unique<Variable>(Variable::Kind::Param, std::move(paramName), type, range));
    params.push_back(vars_.back().get());
    return vars_.back().get();
  }
  /// A result of a device function that returns several values (Python's
  /// `return a, b`): written by the function, read by its caller, which
  /// passes one of its locals for it (by reference).
  Variable *addResult(std::string uniqueName, Type type, SourceRange range) {
    vars_.push_back(std::make_unique<Variable>(Variable::Kind::Param, std::move(uniqueName), type, range));
    vars_.back()->hidden = true;
    results.push_back(vars_.back().get());
    return vars_.back().get();
  }
  Variable *addLocal(std::string localName, Type type, SourceRange range) {
    vars_.push_back(std::make_unique<Variable>(Variable::Kind::Local, std::move(localName), type, range));
    return vars_.back().get();
  }
  /// A compiler-made local; `uniqueName` must start with pyk_.
  Variable *addHiddenLocal(std::string uniqueName, Type type, SourceRange range) {
    Variable *var = addLocal(std::move(uniqueName), type, range);
    var->hidden = true;
    return var;
  }

  /// Parameters first, then locals, in order of creation.
  std::vector<Variable *> mutableVariables() {
    std::vector<Variable *> all;
    for (auto &var : vars_)
      all.push_back(var.get());
    return all;
  }
  std::vector<const Variable *> variables() const {
    std::vector<const Variable *> all;
    for (const auto &var : vars_)
      all.push_back(var.get());
    return all;
  }

  Kind kind;
  std::string name;
  /// The kernel's exported name, or the device function's name in the
  /// generated code (SymbolNames.h: kernelSymbol).
  std::string symbol;
  SourceRange loc;
  std::string docstring;
  /// `@cuda.jit(lineinfo=True)`: the PTX carries .pyk line information.
  bool lineInfo = false;
  /// Device functions: `@cuda.jit(device=True, inline=True)`.
  bool inlineAlways = false;
  /// Made by the compiler (PythonOpFunctions) with arithmetic that never
  /// overflows as written: unsigned where it wraps, signed only where a
  /// guard keeps it in range. markOverflowingArithmetic leaves it alone.
  bool arithmeticNeverOverflows = false;
  /// `fastmath=True`: float arithmetic may be contracted and reassociated,
  /// and uses approximate division, square root and math functions (and,
  /// on the GPU, flushes float32 denormals to zero). NaN and infinity keep
  /// their meaning, so isnan and isinf still work.
  bool fastMath = false;
  /// Waits at block barriers, itself or through a callee (the CPU device
  /// then runs each thread on a fiber).
  bool synchronises = false;
  /// Waits at grid barriers (GpuOpKind::GridSync), itself or through a
  /// callee: its last parameter, gridBarrier, is the grid barrier's
  /// address, which a kernel gets from the runtime (pyk/Launch.h:
  /// KernelInfo::gridSynchronises) and passes on to the device functions
  /// that grid-synchronise.
  bool gridSynchronises = false;
  const Variable *gridBarrier = nullptr;
  /// The most bytes of local arrays one thread may hold while running this
  /// function, its callees' included (boundLocalMemory): on the CPU device
  /// they are on the thread's stack.
  uint64_t localMemoryBytes = 0;
  /// Kernels: launch_bounds and max_registers (0 where not given).
  unsigned maxThreadsPerBlock = 0;
  unsigned minBlocksPerMultiprocessor = 0;
  unsigned maxRegisters = 0;
  /// Checked mode: kernels compiled with `debug=True` or `pykc --checked`,
  /// and the device functions they call. A checked function takes two
  /// more parameters after its own: the device's check record
  /// (pyk/CheckRecord.h) and an opaque word identifying the launch, which
  /// a failed check stores in the record.
  bool checked = false;
  std::vector<Variable *> params;
  /// The parameters' types as the .pyk file writes them ("float32[:, :]",
  /// "(int64, int64)"), one per parameter of the source (a tuple is one),
  /// for what the generated code says about the function.
  std::vector<std::string> pykParameterTypes;
  /// Device functions that return a tuple: one scalar result per element,
  /// after the parameters (addResult); their returnType is void.
  std::vector<Variable *> results;
  Type returnType;
  StmtList body;

private:
  std::vector<std::unique_ptr<Variable>> vars_;
};

/// The IR of one .pyk file: its kernels and the device functions they
/// call, each function after the functions it calls.
struct Module {
  /// The .pyk file's name as given on the command line, for `#line` and
  /// `.file` directives.
  std::string sourceName;
  /// The files it imports (SourceLoc::file 1, 2, ...), whose device
  /// functions are spliced into it: for `#line` in their code.
  std::vector<std::string> importedSourceNames;
  std::vector<std::unique_ptr<Function>> functions;
  /// Checked mode: what each check reports, indexed by CheckSiteId.
  std::vector<CheckSite> checkSites;
  /// pykc --index-bits=32: element offsets into the kernels' array
  /// parameters are computed in 32-bit arithmetic, and each launch checks
  /// that every array argument has fewer than 2^31 elements. (Offsets into
  /// shared and local arrays, small by construction, are 32-bit always.)
  bool narrowIndices = false;
  /// A tag that tells this compilation of this file from every other one
  /// linked into the same program (pykc: a hash of the file's absolute path
  /// and the options that change its code). The symbols of the host code
  /// carry it, so that two files with a kernel of the same name each keep
  /// their own (SymbolNames.h). Empty: untagged (single-file tools).
  std::string unitId;

  /// The CUDA C++ device functions that ForeignCalls call, and the files
  /// that define them (`link=`), found by the driver: absolute paths.
  std::vector<std::unique_ptr<ForeignFunction>> foreignFunctions;
  std::vector<std::string> linkFiles;

  /// The record types the .pyk file defines, which types point at.
  std::vector<std::shared_ptr<const RecordType>> ownedRecordTypes;

  /// The record types of the arrays of records that functions take, each
  /// once, in the order of their first use.
  std::vector<const RecordType *> recordTypes() const;

  /// The kernels alone, in module order.
  std::vector<const Function *> kernels() const {
    std::vector<const Function *> result;
    for (const auto &function : functions)
      if (function->kind == Function::Kind::Kernel)
        result.push_back(function.get());
    return result;
  }
};

} // namespace pyk::ir

#endif // PYK_IR_IR_H
