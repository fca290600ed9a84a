//===- Symbols.h - What a name in a .pyk file refers to --------------------===//
//
// Sema resolves every NameExpr to one Symbol. Symbols are owned by the
// ModuleInfo that Sema returns and live as long as it does.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_SYMBOLS_H
#define PYK_FRONTEND_SYMBOLS_H

#include "AST.h"

#include <memory>
#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace pyk {

/// Where an array lives: a kernel's parameters are in global memory; a
/// local made by cuda.shared.array is the block's, by cuda.local.array the
/// thread's; a NumPy array constant of the module (and a local made by
/// cuda.const.array_like of one) is in constant memory. A View local holds
/// no elements of its own: it names another array or a view of one
/// (`row = a[i]`, `src = dst`), and may be assigned again.
enum class ArrayStorage { Global, Shared, Local, Constant, View };

/// A NumPy array that pykc computed from a module constant's expression
/// (SemaNumpyConstants.cpp): `PRICES = np.array([...], dtype=np.float32)`.
struct ConstantArray {
  ScalarKind dtype = ScalarKind::Float64;
  std::vector<int64_t> shape;
  /// Row-major; each already of dtype (rounded to float32, wrapped to the
  /// integer's width, bool as Bool).
  std::vector<ast::ConstantValue> elements;
  /// The module constant's name: the one copy in constant memory is named
  /// after it.
  std::string name;
};

enum class SymbolKind {
  Parameter, ///< a kernel or device-function parameter
  Local,     ///< a local variable, typed by its assignments
  Constant,  ///< a module-level compile-time constant
  Function,  ///< a kernel or device function of this module
  TypeName,  ///< a scalar type name: float32, np.int64, ...
  Builtin,   ///< a builtin module or function: cuda, math, np, void
  Signature, ///< a module constant holding signatures for @cuda.jit
  RecordType, ///< a record type the file defines: `Point = np.dtype([...])`, `point_t = from_dtype(Point)`
  ForeignFunction, ///< a CUDA C++ device function: `mul = cuda.declare_device("mul", "float32(float32, float32)")`
};

struct Symbol;

/// A CUDA C++ device function that the file declares and its kernels call
/// (cuda.declare_device), with Numba's ABI: `float32(float32, float32)`
/// declared as "mul" is `extern "C" __device__ int mul(float *result, float
/// a, float b)`, which stores its value through `result` and returns 0.
/// Its code comes from a file the build links (`link=["functions.cu"]`).
struct ForeignFunction {
  /// The C name: the symbol the kernels call.
  std::string name;
  /// The value's type; parameters' types in order (scalars).
  const Type *result = nullptr;
  std::vector<const Type *> params;
  /// For messages: "#1", "#2", ... (the declaration names no parameter).
  std::vector<const Symbol *> paramSymbols;
  SourceRange declaration;
};

/// What a value holds of the thread's position in the grid. The warning
/// about accesses that no test bounds (SemaGuards.cpp) follows it through
/// arithmetic and locals.
struct ThreadPosition {
  enum class Kind : uint8_t {
    None,    ///< nothing of it, or bounded otherwise (`i % n`, a value read from memory, a loop counter)
    InBlock, ///< cuda.threadIdx: bounded by the block's size
    Block,   ///< cuda.blockIdx (times cuda.blockDim): where the thread's block starts
    Grid,    ///< the thread's position in the grid: cuda.grid(n), threadIdx + blockIdx * blockDim
  };
  Kind kind = Kind::None;
  /// Grid: computed from cuda.grid (otherwise from threadIdx and blockIdx).
  bool fromGridCall = false;
  /// Locals: where the local was assigned it.
  SourceRange assigned = {};
};

struct Symbol {
  SymbolKind kind;
  std::string name;
  /// Where the symbol is defined (first assignment for locals); invalid for
  /// predeclared names.
  SourceRange definition;
  /// Parameters, locals and constants: the value's type.
  const Type *type = nullptr;
  /// Constants: the value (Python scalars, so weak under NEP 50).
  std::optional<ast::ConstantValue> constant;
  /// Type names: the scalar kind they name.
  ScalarKind scalarKind = ScalarKind::Bool;
  /// Builtins.
  Builtin builtin = Builtin::None;
  /// Functions.
  const ast::FunctionDef *function = nullptr;
  /// Parameters: the position in the parameter list.
  unsigned index = 0;
  /// Locals: the type is declared (`x: float32 = ...`), so assignments
  /// convert to it instead of widening it.
  bool typeDeclared = false;
  /// Locals: what the last assignment, in the order of the text, stored of
  /// the thread's position (SemaGuards.cpp).
  ThreadPosition position = {};
  /// Tuple constants (`SHAPE = (16, 16)`): the elements' values.
  std::vector<ast::ConstantValue> tupleConstant = {};
  /// Array locals (cuda.shared.array, cuda.local.array), and constant
  /// arrays: where, and the constant shape.
  ArrayStorage storage = ArrayStorage::Global;
  /// View locals: some value given to it is (part of) a constant array, so
  /// stores through it are errors.
  bool namesConstantMemory = false;
  std::vector<int64_t> fixedShape = {};
  /// Constant arrays (module constants, and locals made by
  /// cuda.const.array_like): the values.
  std::shared_ptr<const ConstantArray> constantArray = nullptr;
  /// Builtin::MathFunction (imported with `from math import sqrt`): which.
  const MathFunctionInfo *mathFunction = nullptr;
  /// Builtin::LibdeviceFunction (`from numba.cuda.libdevice import sinf`): which.
  const LibdeviceFunction *libdeviceFunction = nullptr;
  /// Signature constants (`sig = "void(float32[:])"`, `SIGS = [...]`): the
  /// value, read where a decorator names the constant.
  ast::Expr *signatureValue = nullptr;
  /// Record types: the record (owned by ModuleInfo::recordTypes).
  const RecordType *record = nullptr;
  /// Record locals (`r = ps[i]`): the array of records whose elements the
  /// local names.
  const Symbol *recordArray = nullptr;
  /// Complex constants (`J = 1j`): the value, a Python complex (weak too).
  std::optional<std::complex<double>> complexConstant = std::nullopt;
  /// Foreign functions: which (owned by ModuleInfo::foreignFunctions).
  const ForeignFunction *foreign = nullptr;
};

/// Whether a local's name is one pyk made (the counter of `for v in x`,
/// "for.0"): no Python identifier contains a '.', so none can clash.
inline bool isCompilerMadeName(const std::string &name) { return name.find('.') != std::string::npos; }

} // namespace pyk

#endif // PYK_FRONTEND_SYMBOLS_H
