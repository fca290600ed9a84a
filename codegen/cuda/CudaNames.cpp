//===- CudaNames.cpp - C++ spellings of pyk types and identifiers ---------===//
#include "CudaNames.h"

#include "SymbolNames.h"

namespace pyk::cuda {

std::string cudaScalarType(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::Int8:
    return "int8_t";
  case ScalarKind::Int16:
    return "int16_t";
  case ScalarKind::Int32:
    return "int32_t";
  case ScalarKind::Int64:
    return "int64_t";
  case ScalarKind::UInt8:
    return "uint8_t";
  case ScalarKind::UInt16:
    return "uint16_t";
  case ScalarKind::UInt32:
    return "uint32_t";
  case ScalarKind::UInt64:
    return "uint64_t";
  case ScalarKind::Float16:
    return "__half";
  case ScalarKind::Float32:
    return "float";
  case ScalarKind::Float64:
    return "double";
  case ScalarKind::BFloat16:
    return "__nv_bfloat16";
  case ScalarKind::Complex64:
    return "pyk_complex64";
  case ScalarKind::Complex128:
    return "pyk_complex128";
  }
  return "void";
}

std::string cudaElementType(const ir::Type &type) {
  return type.record ? ir::recordStructName(type.record->name) : cudaScalarType(type.scalar);
}

std::vector<std::string> parameterTypes(const ir::Variable &param, ir::Function::Kind kind) {
  const std::string scalar = cudaElementType(param.type);
  if (!param.type.isArray())
    return {scalar};
  // A device function may be passed the same array twice: no __restrict__.
  const char *pointer = kind == ir::Function::Kind::Kernel ? "* __restrict__" : "*";
  std::vector<std::string> types{param.readOnly ? "const " + scalar + pointer : scalar + "*"};
  const unsigned numbers = param.type.rank * (param.type.contiguous ? 1 : 2);
  types.insert(types.end(), numbers, "int64_t");
  return types;
}

NameTable::NameTable(const std::vector<const ir::Variable *> &variables) {
  for (const ir::Variable *var : variables)
    taken_.insert(var->name);
  for (const ir::Variable *var : variables) {
    std::string name = var->name;
    if (!var->hidden && ir::isReservedInCxx(name)) {
      name = "pyk_" + name;
      while (taken_.count(name))
        name += "_";
      taken_.insert(name);
    }
    // An array parameter the body rebinds is also a local of its name.
    if (given_.count(name)) {
      while (taken_.count(name))
        name += "_";
      taken_.insert(name);
    }
    given_.insert(name);
    names_[var] = name;
  }
  for (const ir::Variable *var : variables)
    for (unsigned axis = 0; axis < var->type.rank; ++axis)
      extents_[{var, axis}] = unique(names_[var] + "_shape" + std::to_string(axis));
  for (const ir::Variable *var : variables)
    if (var->type.isArray() && !var->type.contiguous)
      for (unsigned axis = 0; axis < var->type.rank; ++axis)
        strides_[{var, axis}] = unique(names_[var] + "_stride" + std::to_string(axis));
}

std::string NameTable::unique(std::string base) {
  while (taken_.count(base))
    base += "_";
  taken_.insert(base);
  return base;
}

} // namespace pyk::cuda
