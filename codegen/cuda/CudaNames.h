//===- CudaNames.h - C++ spellings of pyk types and identifiers -----------===//
//
// The one place that maps IR types to C++ types, and .pyk names to C++
// identifiers that cannot clash with C++ keywords, CUDA builtins or each
// other.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_CUDA_CUDANAMES_H
#define PYK_CODEGEN_CUDA_CUDANAMES_H

#include "IR.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace pyk::cuda {

/// "float", "int64_t", "bool".
std::string cudaScalarType(ScalarKind kind);

/// The C++ type of an array's elements (a record's struct), or of a
/// scalar.
std::string cudaElementType(const ir::Type &type);

/// The C++ types of the parameters `param` becomes, in order: a scalar's
/// type; an array's data pointer (`const` when the function never writes
/// the array, `__restrict__` in a kernel, whose arrays do not overlap),
/// then an int64_t per extent and, for a strided view, per stride.
std::vector<std::string> parameterTypes(const ir::Variable &param, ir::Function::Kind kind);

/// Gives each variable of one function a unique C++ identifier: the .pyk
/// name where it is free, otherwise the name with a `_` suffix.
class NameTable {
public:
  /// Reserves the .pyk names of all variables first, so that generated names
  /// (extents) never take a name the user wrote.
  explicit NameTable(const std::vector<const ir::Variable *> &variables);

  /// The identifier of `var`.
  const std::string &nameOf(const ir::Variable *var) const { return names_.at(var); }
  /// The identifier of the extent of `axis` of array `var` ("x_shape0").
  const std::string &extentOf(const ir::Variable *var, unsigned axis) const { return extents_.at({var, axis}); }
  /// The identifier of the stride of `axis` of strided array `var`
  /// ("col_stride0").
  const std::string &strideOf(const ir::Variable *var, unsigned axis) const { return strides_.at({var, axis}); }

private:
  std::string unique(std::string base);

  std::set<std::string> taken_;
  /// The identifiers given to variables so far.
  std::set<std::string> given_;
  std::map<const ir::Variable *, std::string> names_;
  std::map<std::pair<const ir::Variable *, unsigned>, std::string> extents_;
  std::map<std::pair<const ir::Variable *, unsigned>, std::string> strides_;
};

} // namespace pyk::cuda

#endif // PYK_CODEGEN_CUDA_CUDANAMES_H
