//===- CudaFunctionEmitter.h - one IR function as CUDA C++ ------------------===//
//
// The CUDA C++ backend's writer of one function, private to the backend.
// Its members are defined by concern:
//   CudaEmitter.cpp     the signature, parameters and array locals;
//   CudaStatements.cpp  statements, each after a #line naming its .pyk line;
//   CudaExpressions.cpp expressions and element addresses.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_CUDA_CUDAFUNCTIONEMITTER_H
#define PYK_CODEGEN_CUDA_CUDAFUNCTIONEMITTER_H

#include "CudaCode.h"
#include "CudaEmitter.h"
#include "CudaHelpers.h"
#include "CudaNames.h"
#include "IR.h"

#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace pyk::cuda {

class FunctionEmitter {
public:
  /// `helpers` collects the helpers the function calls, which the file
  /// defines before its functions.
  FunctionEmitter(const ir::Function &f, const ir::Module &m, const CudaEmitOptions &options, llvm::raw_ostream &os,
                  std::set<Helper> &helpers)
      : function_(f), options_(options), os_(os), helpers_(helpers), names_(f.variables()),
        quotedPath_(escapeForString(m.sourceName)), module_(m) {}

  void emit();

private:
  // CudaEmitter.cpp
  void docComment(const std::string &text);
  void parameter(const ir::Variable &param);
  void arrayLocals();
  void letLocals();
  void viewLocal(const ir::Variable &var, const ir::Expr *value, bool declare, unsigned depth);
  std::string extent(const ir::Variable *array, unsigned axis);
  void line(SourceRange loc);
  static std::string escapeForString(const std::string &text);
  bool readLater(const ir::Variable *var) const;

  // CudaStatements.cpp
  void block(const ir::StmtList &body, unsigned depth);
  void stmt(const ir::Stmt &s, unsigned depth);
  void forRange(const ir::ForRange &s, unsigned depth);
  void countedForRange(const ir::ForRange &s, unsigned depth);
  void print(const ir::Print &s);
  void ifStmt(const ir::If &first, unsigned depth);

  // CudaExpressions.cpp
  Code expr(const ir::Expr &e);
  /// Whether any index of an access is checked (checked mode).
  /// `a[i]`, `m[i * m_shape1 + j]`, and for an array of records `a[i].x`.
  std::string element(const ir::Variable *array, const std::vector<ir::ExprPtr> &indices, bool narrowOffset,
                      int field = -1);
  std::string specialReg(const ir::SpecialReg &r);
  Code castExpr(const ir::Cast &c);
  Code libdeviceCall(const ir::LibdeviceCall &l);
  Code binary(const ir::Binary &b);
  /// pyk_wrapping_NAME<T>(operands...): arithmetic that may overflow
  /// (mayOverflow), done on the unsigned bits.
  Code wrapping(const char *name, ScalarKind kind, std::initializer_list<Code> operands);

  const ir::Function &function_;
  const CudaEmitOptions &options_;
  llvm::raw_ostream &os_;
  std::set<Helper> &helpers_;
  NameTable names_;
  std::string quotedPath_;
  /// The module the function is in (its --index-bits).
  const ir::Module &module_;
  /// The blocks being emitted, innermost last: the statement being emitted
  /// and, per variable, the last statement (nested ones included) that
  /// reads it.
  struct BlockState {
    size_t current = 0;
    std::unordered_map<const ir::Variable *, size_t> lastRead;
  };
  std::vector<BlockState> blocks_;
};

} // namespace pyk::cuda

#endif // PYK_CODEGEN_CUDA_CUDAFUNCTIONEMITTER_H
