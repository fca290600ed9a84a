//===- CudaCode.h - a printed C++ expression and its precedence -----------===//
//
// The CUDA C++ backend prints expressions with the fewest parentheses C++
// precedence allows, so the output reads like hand-written CUDA: each
// printed expression carries the precedence of its outermost operator.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_CUDA_CUDACODE_H
#define PYK_CODEGEN_CUDA_CUDACODE_H

#include <string>

namespace pyk::cuda {

/// C++ operator precedence, higher binds tighter.
enum Precedence : int {
  Conditional = 2,
  LogicalOr = 3,
  LogicalAnd = 4,
  BitOr = 5,
  BitXor = 6,
  BitAnd = 7,
  Equality = 8,
  Relational = 9,
  Shift = 11,
  Additive = 12,
  Multiplicative = 13,
  Prefix = 15,
  Postfix = 16,
};

/// A printed expression and the precedence of its outermost operator.
struct Code {
  std::string text;
  int precedence;
};

/// `code`, parenthesised unless it binds at least as tightly as `atLeast`.
inline std::string wrap(const Code &code, int atLeast) {
  return code.precedence >= atLeast ? code.text : "(" + code.text + ")";
}

} // namespace pyk::cuda

#endif // PYK_CODEGEN_CUDA_CUDACODE_H
