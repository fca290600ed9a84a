//===- CudaNames.cpp - C++ spellings of pyk types and identifiers ---------===//
#include "CudaNames.h"

#include <array>
#include <string_view>

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
  }
  return "void";
}

/// Python identifiers that C++ or CUDA reserve.
static bool isReserved(std::string_view name) {
  static constexpr std::array<std::string_view, 98> reserved = {
      "alignas", "alignof", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "case", "catch", "char",
      "char8_t", "char16_t", "char32_t", "compl", "concept", "const", "consteval", "constexpr", "constinit",
      "const_cast", "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "enum", "explicit", "export", "extern", "float", "friend", "goto", "inline", "int", "long",
      "mutable", "namespace", "new", "noexcept", "not_eq", "nullptr", "operator", "or_eq", "private", "protected",
      "public", "register", "reinterpret_cast", "requires", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true",
      "false", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
      "wchar_t", "xor_eq", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "int8_t", "int16_t",
      "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "std", "main", "printf", "signed",
      "unsigned", "__half"};
  for (std::string_view word : reserved)
    if (word == name)
      return true;
  // Identifiers with a double underscore, or an underscore and a capital,
  // belong to the implementation.
  return name.find("__") != std::string_view::npos ||
         (name.size() > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z');
}

NameTable::NameTable(const std::vector<const ir::Variable *> &variables) {
  for (const ir::Variable *var : variables)
    taken_.insert(var->name);
  for (const ir::Variable *var : variables) {
    std::string name = var->name;
    if (isReserved(name)) {
      name = "pyk_" + name;
      while (taken_.count(name))
        name += "_";
      taken_.insert(name);
    }
    names_[var] = name;
  }
  for (const ir::Variable *var : variables)
    for (unsigned axis = 0; axis < var->type.rank; ++axis)
      extents_[{var, axis}] = unique(names_[var] + "_shape" + std::to_string(axis));
}

std::string NameTable::unique(std::string base) {
  while (taken_.count(base))
    base += "_";
  taken_.insert(base);
  return base;
}

} // namespace pyk::cuda
