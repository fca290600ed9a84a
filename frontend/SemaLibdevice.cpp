//===- SemaLibdevice.cpp - Calls of cuda.libdevice's functions ------------===//
//
// libdevice.NAME(...) has the one signature libdevice gives __nv_NAME
// (basic/LibdeviceFunctions.h). As in Numba, which types these calls from fixed
// signatures, an argument converts to its parameter's type: a float to an
// integer toward zero, and a float64 to float32, each with a warning unless
// the argument is a Python literal. A function with pointer parameters
// gives a tuple (its result if not void, then what each pointer points
// to), so a call of it is the whole value of an assignment or a return.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

namespace pyk::sema {

using namespace ast;

/// libdevice's float64 function for a float32 one, by libdevice's naming:
/// sinf and sin, fmaf_rz and fma_rz, fadd_rz and dadd_rz.
static const LibdeviceFunction *float64Version(const LibdeviceFunction &function) {
  const std::string name(function.name);
  std::vector<std::string> candidates;
  if (name.back() == 'f')
    candidates.push_back(name.substr(0, name.size() - 1));
  if (const size_t suffix = name.find("f_r"); suffix != std::string::npos)
    candidates.push_back(name.substr(0, suffix) + name.substr(suffix + 1));
  if (name.front() == 'f')
    candidates.push_back("d" + name.substr(1));
  for (const std::string &candidate : candidates)
    if (const LibdeviceFunction *other = libdeviceFunction(candidate);
        other && other->params.size() == function.params.size() && !other->params.empty() &&
        other->params.front().kind == ScalarKind::Float64)
      return other;
  return nullptr;
}

const Type *Sema::checkLibdevice(CallExpr &expr, const LibdeviceFunction &function) {
  const std::string name = "libdevice." + std::string(function.name);
  const size_t arity = function.params.size();
  if (!requirePositional(expr, name.c_str(), arity, arity))
    return setType(expr, types_.errorType());
  bool ok = true;
  for (size_t i = 0; i < arity; ++i) {
    Expr &arg = *expr.args[i];
    const Type *type = checkValue(arg);
    if (type->isError()) {
      ok = false;
      continue;
    }
    if (!type->isScalar()) {
      error(arg.range()) << name << "() takes numbers, not " << describe(arg);
      ok = false;
      continue;
    }
    const ScalarKind param = function.params[i].kind;
    const ScalarKind given = type->scalarKind();
    if (!checkNotComplexToReal(type, arg.range(), param, "pass")) {
      ok = false;
    } else if (isFloat(given) && !isFloat(param)) {
      warning(arg.range()) << "argument " << i + 1 << " of " << name << "() is " << scalarName(param)
                           << ": the " << scalarName(given) << " is truncated toward zero, as Numba does; write '"
                           << scalarName(param) << "(...)' to silence this";
    } else if (given == ScalarKind::Float64 && param == ScalarKind::Float32 && !arg.isWeak) {
      DiagnosticBuilder message = warning(arg.range());
      message << "argument " << i + 1 << " of " << name << "() is float32: the float64 is rounded to float32";
      if (const LibdeviceFunction *other = float64Version(function))
        message << "; 'libdevice." << other->name << "' computes in float64";
    }
  }
  if (!ok)
    return setType(expr, types_.errorType());
  expr.libdeviceFunction = &function;
  const std::vector<LibdeviceType> values = function.values();
  if (values.size() == 1)
    return setType(expr, types_.scalar(values.front().kind));
  if (&expr != statementValue_) {
    error(expr.range()) << name << "() returns a tuple, so a call of it must be the whole value of an assignment or "
                        << "a return, as in 'a, b = " << name << "(...)'";
    return setType(expr, types_.errorType());
  }
  std::vector<const Type *> elements;
  for (const LibdeviceType &value : values)
    elements.push_back(types_.scalar(value.kind));
  return setType(expr, types_.tuple(elements));
}

} // namespace pyk::sema
