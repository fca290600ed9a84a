//===- CudaExpressions.cpp - IR expressions as CUDA C++ -------------------===//
//
// Expressions print with the fewest parentheses C++ precedence allows
// (CudaCode.h); element accesses as flat row-major offsets, as a
// hand-written kernel computes them.
//
//===----------------------------------------------------------------------===//
#include "CudaFunctionEmitter.h"

#include "CudaLiterals.h"
#include "SymbolNames.h"

#include "llvm/Support/Casting.h"

#include <algorithm>

namespace pyk::cuda {

using llvm::cast;
using namespace ir;

namespace {

/// C++ computes in int at least: cast results of narrower types back.
Code narrow(const ir::Type &type, Code code) {
  if (isInteger(type.scalar) && byteWidth(type.scalar) < 4)
    return {"(" + cudaScalarType(type.scalar) + ")(" + code.text + ")", Prefix};
  return code;
}

/// abs() as CUDA spells it for each type; unsigned values are their own.
Code absolute(ScalarKind kind, const Code &operand) {
  switch (kind) {
  case ScalarKind::Float16:
    return {"__habs(" + operand.text + ")", Postfix};
  case ScalarKind::Float32:
    return {"fabsf(" + operand.text + ")", Postfix};
  case ScalarKind::Float64:
    return {"fabs(" + operand.text + ")", Postfix};
  case ScalarKind::Int64:
    return {"llabs(" + operand.text + ")", Postfix};
  case ScalarKind::Int32:
    return {"abs(" + operand.text + ")", Postfix};
  case ScalarKind::Int8:
  case ScalarKind::Int16:
    return {"(" + cudaScalarType(kind) + ")abs(" + operand.text + ")", Prefix};
  default:
    return operand;
  }
}

} // namespace

/// a[i], a[i * a_shape1 + j], a[(i * a_shape1 + j) * a_shape2 + k]
std::string FunctionEmitter::element(const Variable *array, const std::vector<ExprPtr> &indices, bool narrowOffset,
                                     int field) {
  if (field >= 0) // an array of records: one index, then the field's member
    return names_.nameOf(array) + "[" + expr(*indices.front()).text + "]." +
           ir::recordFieldName(array->type.record->fields[static_cast<size_t>(field)].name);
  if (!array->type.contiguous) {
    // A strided view: a[i * a_stride0 + j * a_stride1].
    std::string offset;
    for (unsigned axis = 0; axis < indices.size(); ++axis)
      offset += (axis ? " + " : "") + wrap(expr(*indices[axis]), Multiplicative) + " * " + names_.strideOf(array, axis);
    return names_.nameOf(array) + "[" + offset + "]";
  }
  // pykc --index-bits=32, where the IR marks the access: `int` offsets,
  // whose overflow C++ leaves undefined, so nvcc may use 32-bit multiplies.
  const bool narrow = narrowOffset;
  auto index = [&](unsigned axis) {
    Code code = expr(*indices[axis]);
    return narrow ? Code{"(int32_t)" + wrap(code, Prefix), Prefix} : code;
  };
  Code offset = index(0);
  for (unsigned axis = 1; axis < indices.size(); ++axis) {
    std::string scaled = wrap(offset, Multiplicative) + " * " + (narrow ? "(int32_t)" : "") + extent(array, axis);
    offset = {scaled + " + " + wrap(index(axis), Multiplicative), Additive};
  }
  return names_.nameOf(array) + "[" + offset.text + "]";
}


Code FunctionEmitter::expr(const Expr &e) {
  switch (e.kind()) {
  case NodeKind::Constant:
    return constant(cast<Constant>(e));
  case NodeKind::VarRef:
    return {names_.nameOf(cast<VarRef>(e).var), Postfix};
  case NodeKind::Cast:
    return castExpr(cast<Cast>(e));
  case NodeKind::Unary: {
    auto &u = cast<Unary>(e);
    Code operand = expr(*u.operand);
    if (u.op == UnaryOp::Not)
      return {"!" + wrap(operand, Prefix), Prefix};
    if (u.op == UnaryOp::BitNot)
      return narrow(e.type(), {"~" + wrap(operand, Prefix), Prefix});
    if (u.mayOverflow && (u.op == UnaryOp::Abs || u.op == UnaryOp::Neg))
      return wrapping(u.op == UnaryOp::Abs ? "abs" : "neg", e.type().scalar, {operand});
    if (u.op == UnaryOp::Abs)
      return absolute(e.type().scalar, operand);
    if (u.op == UnaryOp::Popc || u.op == UnaryOp::Clz || u.op == UnaryOp::Ffs || u.op == UnaryOp::Brev) {
      // CUDA's intrinsics, on the unsigned bits of 32 or 64.
      const bool wide = byteWidth(e.type().scalar) == 8;
      static const char *const names[] = {"__popc", "__brev", "__clz", "__ffs"};
      std::string name = names[static_cast<int>(u.op) - static_cast<int>(UnaryOp::Popc)];
      if (wide)
        name += "ll";
      const std::string bits = wide ? "(unsigned long long)" : "(unsigned)";
      const bool signedArgument = u.op == UnaryOp::Clz || u.op == UnaryOp::Ffs;
      std::string text = name + "(" + (signedArgument ? std::string(wide ? "(long long)" : "(int)") : bits) +
                         wrap(operand, Prefix) + ")";
      return {"(" + cudaScalarType(e.type().scalar) + ")" + text, Prefix};
    }
    if (u.op == UnaryOp::Round) // rint: to nearest, halves to even
      return {std::string(e.type().scalar == ScalarKind::Float32 ? "rintf(" : "rint(") + operand.text + ")", Postfix};
    // -(-n), never --n: that is C++'s decrement.
    std::string inner = operand.text.front() == '-' ? "(" + operand.text + ")" : wrap(operand, Prefix);
    return narrow(e.type(), {"-" + inner, Prefix});
  }
  case NodeKind::Binary:
    return binary(cast<Binary>(e));
  case NodeKind::ComplexMake: {
    auto &m = cast<ComplexMake>(e);
    return {cudaScalarType(e.type().scalar) + "{" + expr(*m.real).text + ", " + expr(*m.imag).text + "}", Postfix};
  }
  case NodeKind::ComplexPart: {
    auto &p = cast<ComplexPart>(e);
    return {wrap(expr(*p.operand), Postfix) + (p.imag ? ".imag" : ".real"), Postfix};
  }
  case NodeKind::DivisorCheck:
    break; // written out by insertChecks
  case NodeKind::Compare: {
    auto &c = cast<Compare>(e);
    static const char *spelling[] = {"<", "<=", ">", ">=", "==", "!="};
    const int precedence = c.op == CompareOp::Eq || c.op == CompareOp::Ne ? Equality : Relational;
    // A comparison of comparisons reads as one with parentheses:
    // (b < 0) != (r < 0), never b < 0 != r < 0.
    return {wrap(expr(*c.lhs), Relational + 1) + " " + spelling[static_cast<int>(c.op)] + " " +
                wrap(expr(*c.rhs), Relational + 1),
            precedence};
  }
  case NodeKind::Logical: {
    auto &l = cast<Logical>(e);
    const int precedence = l.op == LogicalOp::And ? LogicalAnd : LogicalOr;
    // A chain of one operator reads without parentheses, anything else
    // with them: a || (b && c), as compilers ask of hand-written C++.
    const Code lhs = expr(*l.lhs);
    return {(lhs.precedence == precedence ? lhs.text : wrap(lhs, LogicalAnd + 1)) +
                (l.op == LogicalOp::And ? " && " : " || ") + wrap(expr(*l.rhs), LogicalAnd + 1),
            precedence};
  }
  case NodeKind::WrapIndex:
    break; // lowered to a call of pyk_wrap_index (lowerPythonOps)
  case NodeKind::Select: {
    auto &s = cast<Select>(e);
    // A choice in the middle of another reads with parentheses; a chain
    // in the last place (c ? a : d ? b : e) reads without.
    return {wrap(expr(*s.condition), LogicalOr) + " ? " + wrap(expr(*s.thenValue), Conditional + 1) + " : " +
                wrap(expr(*s.elseValue), Conditional),
            Conditional};
  }
  case NodeKind::SpecialReg:
    if (cast<SpecialReg>(e).reg == SpecialRegKind::LaneId)
      return {specialReg(cast<SpecialReg>(e)), Postfix};
    // CUDA's registers are unsigned; pyk's (Numba's) are int32.
    return {"(int32_t)" + specialReg(cast<SpecialReg>(e)), Prefix};
  case NodeKind::ArrayDim: {
    auto &d = cast<ArrayDim>(e);
    return {extent(d.array, d.axis), Postfix};
  }
  case NodeKind::ArrayStride: {
    auto &d = cast<ArrayStride>(e);
    return {names_.strideOf(d.array, d.axis), Postfix};
  }
  case NodeKind::ArrayView:
    return {"/* a view outside a view local's assignment */", Postfix};
  case NodeKind::ArrayLoad: {
    auto &l = cast<ArrayLoad>(e);
    return {element(l.array, l.indices, l.narrowOffset, l.field), Postfix};
  }
  case NodeKind::MathCall: {
    auto &m = cast<MathCall>(e);
    std::string text = m.name + (e.type().scalar == ScalarKind::Float32 ? "f(" : "(");
    // fastmath: CUDA's fast intrinsics where one exists (float32 only).
    static const char *const withIntrinsic[] = {"exp", "exp10", "log", "log2", "log10", "sin", "cos", "tan", "pow"};
    if (function_.fastMath && e.type().scalar == ScalarKind::Float32 &&
        std::find(std::begin(withIntrinsic), std::end(withIntrinsic), m.name) != std::end(withIntrinsic))
      text = "__" + m.name + "f(";
    for (size_t i = 0; i < m.args.size(); ++i)
      text += (i ? ", " : "") + expr(*m.args[i]).text;
    return {text + ")", Postfix};
  }
  case NodeKind::LibdeviceCall:
    return libdeviceCall(cast<LibdeviceCall>(e));
  case NodeKind::GpuOp: {
    auto &g = cast<GpuOp>(e);
    static const char *const spelling[] = {
        "__syncthreads",   "__syncthreads_count", "__syncthreads_and",    "__syncthreads_or", "__threadfence_block",
        "__threadfence",   "__threadfence_system", "pyk_grid_sync",       "__nanosleep",      "__syncwarp",
        "__shfl_sync",     "__shfl_up_sync",       "__shfl_down_sync",    "__shfl_xor_sync",  "__all_sync",
        "__any_sync",      "__uni_sync",           "__ballot_sync",       "__match_any_sync", "pyk_match_all",
        "__activemask",    "pyk_lanemask_lt"};
    static_assert(std::size(spelling) == static_cast<size_t>(GpuOpKind::LaneMaskLt) + 1, "one per GpuOpKind");
    if (g.op == GpuOpKind::GridSync)
      helpers_.insert(Helper::GridSync);
    if (g.op == GpuOpKind::LaneMaskLt)
      helpers_.insert(Helper::LaneMaskLt);
    if (g.op == GpuOpKind::MatchAll)
      helpers_.insert(Helper::MatchAll);
    std::string text = std::string(spelling[static_cast<int>(g.op)]) + "(";
    for (size_t i = 0; i < g.args.size(); ++i)
      text += (i ? ", " : "") + expr(*g.args[i]).text;
    text += ")";
    // CUDA's votes return int; pyk's are bools.
    if (g.op == GpuOpKind::VoteAll || g.op == GpuOpKind::VoteAny || g.op == GpuOpKind::VoteEq)
      return {text + " != 0", Equality};
    return {text, Postfix};
  }
  case NodeKind::Atomic: {
    auto &a = cast<Atomic>(e);
    static const Helper helpers[] = {Helper::AtomicAdd, Helper::AtomicSub, Helper::AtomicAnd, Helper::AtomicOr,
                                     Helper::AtomicXor, Helper::AtomicMax, Helper::AtomicMin, Helper::AtomicExch,
                                     Helper::AtomicInc, Helper::AtomicDec, Helper::AtomicCas, Helper::AtomicNanMax,
                                     Helper::AtomicNanMin};
    const Helper helper = helpers[static_cast<int>(a.op)];
    helpers_.insert(helper);
    if (helper != Helper::AtomicAdd && helper != Helper::AtomicSub)
      helpers_.insert(Helper::AtomicBits);
    // On integers nanmax and nanmin are max and min.
    if (helper == Helper::AtomicNanMax)
      helpers_.insert(Helper::AtomicMax);
    if (helper == Helper::AtomicNanMin)
      helpers_.insert(Helper::AtomicMin);
    // The element type explicitly: constants print as int, not as it.
    const std::string type = cudaScalarType(a.array->type.scalar);
    std::string text =
        std::string(helperName(helper)) + "<" + type + ">(&" + element(a.array, a.indices, a.narrowOffset);
    if (a.compare)
      text += ", " + expr(*a.compare).text;
    text += ", " + expr(*a.value).text + ")";
    return {text, Postfix};
  }
  case NodeKind::CheckFailed: {
    auto &f = cast<CheckFailed>(e);
    std::string text = "pyk_check_failed";
    if (!e.type().isVoid())
      text += "<" + cudaScalarType(e.type().scalar) + ">";
    text += "(pyk_check, " + std::to_string(f.site) + "u, ";
    text += f.index ? expr(*f.index).text + ", " + expr(*f.extent).text : std::string("0, 0");
    return {text + ")", Postfix};
  }
  case NodeKind::Let: {
    // Its local is declared at the top of the function (letLocals).
    auto &l = cast<Let>(e);
    return {"(" + names_.nameOf(l.var) + " = " + expr(*l.value).text + ", " + expr(*l.body).text + ")", Postfix};
  }
  case NodeKind::ForeignCall: {
    auto &f = cast<ForeignCall>(e);
    std::string text = "pyk_foreign_" + f.function->name + "(";
    for (size_t i = 0; i < f.args.size(); ++i)
      text += (i ? ", " : "") + expr(*f.args[i]).text;
    return {text + ")", Postfix};
  }
  case NodeKind::Call: {
    // An array argument is its pointer and its extents.
    auto &c = cast<Call>(e);
    std::string text = c.callee->symbol + "(";
    for (size_t i = 0; i < c.args.size(); ++i) {
      text += i ? ", " : "";
      auto *ref = llvm::dyn_cast<VarRef>(c.args[i].get());
      if (!ref || !ref->var->type.isArray()) {
        text += expr(*c.args[i]).text;
        continue;
      }
      text += names_.nameOf(ref->var);
      for (unsigned axis = 0; axis < ref->var->type.rank; ++axis)
        text += ", " + extent(ref->var, axis);
      if (!ref->var->type.contiguous)
        for (unsigned axis = 0; axis < ref->var->type.rank; ++axis)
          text += ", " + names_.strideOf(ref->var, axis);
    }
    for (size_t i = 0; i < c.results.size(); ++i)
      text += std::string(c.args.empty() && i == 0 ? "" : ", ") + names_.nameOf(c.results[i]);
    // An unchecked caller passes no record: the callee skips failing
    // accesses but reports nothing.
    if (c.callee->checked)
      text += std::string(c.args.empty() && c.results.empty() ? "" : ", ") +
              (function_.checked ? "pyk_check" : "pyk_checker{}");
    return {text + ")", Postfix};
  }
#define PYK_IR_STMT(Name) case NodeKind::Name:
#include "IRNodes.def"
  break;
  }
  return {"/* not an expression */", Postfix};
}

std::string FunctionEmitter::specialReg(const SpecialReg &r) {
  if (r.reg == SpecialRegKind::LaneId) {
    helpers_.insert(Helper::LaneId);
    return std::string(helperName(Helper::LaneId)) + "()";
  }
  return std::string(specialRegName(r.reg)) + "." + "xyz"[r.axis];
}

Code FunctionEmitter::castExpr(const Cast &c) {
  const std::string type = cudaScalarType(c.type().scalar);
  // A register widened to a signed type holds the same value as its
  // int32 view: skip the intermediate cast for readability.
  if (auto *reg = llvm::dyn_cast<SpecialReg>(c.operand.get());
      reg && isSignedInteger(c.type().scalar) && byteWidth(c.type().scalar) >= 4)
    return {"(" + type + ")" + specialReg(*reg), Prefix};
  if (isFloat(c.operand->type().scalar) && isInteger(c.type().scalar) && c.type().scalar != ScalarKind::Bool) {
    helpers_.insert(Helper::FloatToInt);
    return {std::string(helperName(Helper::FloatToInt)) + "<" + type + ">(" + expr(*c.operand).text + ")", Postfix};
  }
  return {"(" + type + ")" + wrap(expr(*c.operand), Prefix), Prefix};
}

/// pyk_wrapping_NAME<T>(operands...): arithmetic that may overflow, done
/// on the unsigned bits (prelude.cuh).
Code FunctionEmitter::wrapping(const char *name, ScalarKind kind, std::initializer_list<Code> operands) {
  helpers_.insert(Helper::Wrapping);
  std::string text = std::string("pyk_wrapping_") + name + "<" + cudaScalarType(kind) + ">(";
  bool first = true;
  for (const Code &operand : operands) {
    text += (first ? "" : ", ") + operand.text;
    first = false;
  }
  return {text + ")", Postfix};
}

Code FunctionEmitter::binary(const Binary &b) {
  const ScalarKind kind = b.type().scalar;
  auto infix = [&](const char *spelling, int precedence) {
    Code code{wrap(expr(*b.lhs), precedence) + spelling + wrap(expr(*b.rhs), precedence + 1), precedence};
    return narrow(b.type(), std::move(code));
  };
  // Bitwise operators and shifts read with every operand parenthesised but
  // a chain of the same operator (a & b & c, (a & b) | c, (a + b) << c),
  // as compilers ask of hand-written C++ (-Wparentheses).
  auto bitwise = [&](const char *spelling, int precedence) {
    const Code lhs = expr(*b.lhs);
    Code code{(lhs.precedence == precedence ? lhs.text : wrap(lhs, Prefix)) + spelling + wrap(expr(*b.rhs), Prefix),
              precedence};
    return narrow(b.type(), std::move(code));
  };
  auto call = [&](std::string function) {
    return Code{function + "(" + expr(*b.lhs).text + ", " + expr(*b.rhs).text + ")", Postfix};
  };
  if (b.mayOverflow) {
    static const char *const names[] = {"add", "sub", "mul"};
    return wrapping(names[static_cast<int>(b.op) - static_cast<int>(BinaryOp::Add)], kind,
                    {expr(*b.lhs), expr(*b.rhs)});
  }
  switch (b.op) {
  case BinaryOp::Add:
    return infix(" + ", Additive);
  case BinaryOp::Sub:
    return infix(" - ", Additive);
  case BinaryOp::Mul:
    return infix(" * ", Multiplicative);
  case BinaryOp::Div:
    if (function_.fastMath && kind == ScalarKind::Float32)
      return call("__fdividef");
    return infix(" / ", Multiplicative);
  case BinaryOp::CDiv:
    return infix(" / ", Multiplicative);
  case BinaryOp::CRem:
    return infix(" % ", Multiplicative);
  case BinaryOp::CShl:
    return bitwise(" << ", Shift);
  case BinaryOp::CShr:
    return bitwise(" >> ", Shift);
  case BinaryOp::And:
    return bitwise(" & ", BitAnd);
  case BinaryOp::Or:
    return bitwise(" | ", BitOr);
  case BinaryOp::Xor:
    return bitwise(" ^ ", BitXor);
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod:
  case BinaryOp::Pow:
  case BinaryOp::Shl:
  case BinaryOp::Shr:
  case BinaryOp::Min:
  case BinaryOp::Max:
    break; // Python's: lowered to calls (lowerPythonOps)
  }
  return {"/* not a primitive operator */", Postfix};
}

/// libdevice.NAME: libdevice's own __nv_NAME, which nvcc links (emitCuda
/// declares it). A function with two values, one or both given through
/// pointers (sincosf, frexpf, modff, remquof), is called through the
/// prelude's pyk_first_of or pyk_second_of, which give one of them as an
/// expression. libdevice's zero-extended i16 is an unsigned short, pyk's
/// int16 its bits.
Code FunctionEmitter::libdeviceCall(const LibdeviceCall &l) {
  const LibdeviceFunction &function = *l.function;
  std::string args;
  for (size_t i = 0; i < l.args.size(); ++i) {
    Code arg = expr(*l.args[i]);
    args += (i ? ", " : "") +
            (function.params[i].zeroExtended() ? "(unsigned short)" + wrap(arg, Prefix) : arg.text);
  }
  if (function.outputs.empty()) {
    Code call{function.symbol() + "(" + args + ")", Postfix};
    if (function.result->zeroExtended())
      return {"(int16_t)" + call.text, Prefix};
    return call;
  }
  helpers_.insert(Helper::LibdeviceValues);
  const bool first = l.output == (function.result ? -1 : 0);
  return {std::string(first ? "pyk_first_of(" : "pyk_second_of(") + function.symbol() + ", " + args + ")", Postfix};
}

} // namespace pyk::cuda
