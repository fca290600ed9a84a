//===- PythonOpComplex.cpp - Complex arithmetic written as IR functions ---===//
//
// Python's complex operations, each a compiler-made function per complex
// type written with ComplexMake and ComplexPart, computed in the parts'
// type (complex64 in float32, as Numba's CUDA target does):
//   + - and unary -  part by part;
//   *                (ac - bd) + (ad + bc)j, as Numba and CPython;
//   /                CPython's _Py_c_quot (Smith's method, which Numba
//                    uses too); by zero, where Python raises, NumPy's
//                    infinities and NaNs (a / |0|, part by part);
//   **               CPython's complex_pow: z ** 0 is 1; an integral
//                    exponent of magnitude at most 100 by repeated
//                    multiplication (so z ** 2 is z * z; a constant one
//                    calls that part alone), any other through polar form,
//                    |z| ** w and its angle;
//   abs(z)           hypot(re, im); z == w both parts equal (ordered).
//
//===----------------------------------------------------------------------===//
#include "passes/IRBuilders.h"
#include "passes/PythonOpFunctions.h"

#include <cassert>

namespace pyk::ir {

using namespace builders;

namespace {

ExprPtr part(const Variable *z, bool imag) {
  return std::make_unique<ComplexPart>(SourceRange{}, ref(z), imag);
}
ExprPtr re(const Variable *z) {
  return part(z, false);
}
ExprPtr im(const Variable *z) {
  return part(z, true);
}
ExprPtr complexOf(ScalarKind kind, ExprPtr real, ExprPtr imag) {
  return std::make_unique<ComplexMake>(SourceRange{}, Type::scalarType(kind), std::move(real), std::move(imag));
}
ExprPtr negate(ExprPtr value) {
  return std::make_unique<Unary>(SourceRange{}, UnaryOp::Neg, std::move(value));
}
ExprPtr callOf(const Function &callee, ExprPtr a, ExprPtr b) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return std::make_unique<Call>(SourceRange{}, &callee, callee.returnType, std::move(args));
}
StmtPtr returnOf(ExprPtr value) {
  return std::make_unique<Return>(SourceRange{}, std::move(value));
}
StmtPtr ifThen(ExprPtr condition, StmtList thenBody, StmtList elseBody = {}) {
  return std::make_unique<If>(SourceRange{}, std::move(condition), std::move(thenBody), std::move(elseBody));
}
template <typename... Stmts> StmtList block(Stmts... stmts) {
  StmtList list;
  (list.push_back(std::move(stmts)), ...);
  return list;
}

std::string nameOf(const char *operation, ScalarKind kind) {
  return std::string("pyk_complex_") + operation + "_" + Type::scalarType(kind).str();
}

} // namespace

const Function &PythonOpFunctions::complexArithmetic(BinaryOp op, ScalarKind kind) {
  assert(isComplex(kind) && "complex arithmetic on a complex type");
  const ScalarKind p = complexPart(kind);
  const Type type = Type::scalarType(kind);
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub: {
    const std::string name = nameOf(op == BinaryOp::Add ? "add" : "sub", kind);
    if (Function *existing = find(name))
      return *existing;
    Writer w{make(name, op == BinaryOp::Add ? "a + b on complex numbers." : "a - b on complex numbers.", type)};
    const Variable *a = w.param("a", kind), *b = w.param("b", kind);
    w.ret(complexOf(kind, binary(op, re(a), re(b)), binary(op, im(a), im(b))));
    return w.function;
  }
  case BinaryOp::Mul: {
    const std::string name = nameOf("mul", kind);
    if (Function *existing = find(name))
      return *existing;
    Writer w{make(name, "a * b on complex numbers: (ac - bd) + (ad + bc)j, as Numba and CPython.", type)};
    const Variable *a = w.param("a", kind), *b = w.param("b", kind);
    w.ret(complexOf(kind,
                    binary(BinaryOp::Sub, binary(BinaryOp::Mul, re(a), re(b)), binary(BinaryOp::Mul, im(a), im(b))),
                    binary(BinaryOp::Add, binary(BinaryOp::Mul, re(a), im(b)), binary(BinaryOp::Mul, im(a), re(b)))));
    return w.function;
  }
  case BinaryOp::Div: {
    const std::string name = nameOf("div", kind);
    if (Function *existing = find(name))
      return *existing;
    Writer w{make(name,
                  "a / b on complex numbers, as CPython's _Py_c_quot: divided through by the larger part of b.\n"
                  "By zero (Python raises), NumPy's infinities and NaNs.",
                  type)};
    const Variable *a = w.param("a", kind), *b = w.param("b", kind);
    const Variable *absReal = w.local("abs_real", p, math(p, "fabs", re(b)));
    const Variable *absImag = w.local("abs_imag", p, math(p, "fabs", im(b)));
    auto div = [](ExprPtr x, ExprPtr y) { return binary(BinaryOp::Div, std::move(x), std::move(y)); };
    auto mul = [](ExprPtr x, ExprPtr y) { return binary(BinaryOp::Mul, std::move(x), std::move(y)); };
    auto add = [](ExprPtr x, ExprPtr y) { return binary(BinaryOp::Add, std::move(x), std::move(y)); };
    auto sub = [](ExprPtr x, ExprPtr y) { return binary(BinaryOp::Sub, std::move(x), std::move(y)); };
    const Type pType = Type::scalarType(p);
    const Variable *ratio = w.function.addLocal("ratio", pType, {});
    const Variable *denominator = w.function.addLocal("denominator", pType, {});
    const Variable *ratioImag = w.function.addLocal("ratio_imag", pType, {});
    const Variable *denominatorImag = w.function.addLocal("denominator_imag", pType, {});
    auto declare = [](const Variable *var, ExprPtr init) {
      return std::make_unique<Declare>(SourceRange{}, var, std::move(init));
    };
    StmtList byReal =
        block(ifThen(compare(CompareOp::Eq, ref(absReal), real(p, 0)),
                     block(returnOf(complexOf(kind, div(re(a), ref(absReal)), div(im(a), ref(absReal)))))),
              declare(ratio, div(im(b), re(b))), declare(denominator, add(re(b), mul(im(b), ref(ratio)))),
              returnOf(complexOf(kind, div(add(re(a), mul(im(a), ref(ratio))), ref(denominator)),
                                 div(sub(im(a), mul(re(a), ref(ratio))), ref(denominator)))));
    StmtList byImag =
        block(declare(ratioImag, div(re(b), im(b))), declare(denominatorImag, add(mul(re(b), ref(ratioImag)), im(b))),
              returnOf(complexOf(kind, div(add(mul(re(a), ref(ratioImag)), im(a)), ref(denominatorImag)),
                                 div(sub(mul(im(a), ref(ratioImag)), re(a)), ref(denominatorImag)))));
    w.function.body.push_back(
        ifThen(compare(CompareOp::Ge, ref(absReal), ref(absImag)), std::move(byReal), std::move(byImag)));
    return w.function;
  }
  case BinaryOp::Pow: {
    const std::string name = nameOf("pow", kind);
    if (Function *existing = find(name))
      return *existing;
    const Function &integral = complexIntegerPower(kind);
    Writer w{make(name,
                  "a ** b on complex numbers, as CPython's complex_pow: b == 0 gives 1; an integral b of magnitude\n"
                  "at most 100, repeated multiplication; any other, polar form.",
                  type)};
    const Variable *a = w.param("a", kind), *b = w.param("b", kind);
    w.function.body.push_back(ifThen(
        logical(LogicalOp::And, compare(CompareOp::Eq, re(b), real(p, 0)), compare(CompareOp::Eq, im(b), real(p, 0))),
        block(returnOf(complexOf(kind, real(p, 1), real(p, 0))))));
    auto isIntegral = logical(LogicalOp::And, compare(CompareOp::Eq, im(b), real(p, 0)),
                              logical(LogicalOp::And, compare(CompareOp::Eq, math(p, "floor", re(b)), re(b)),
                                      compare(CompareOp::Le, math(p, "fabs", re(b)), real(p, 100))));
    w.function.body.push_back(
        ifThen(std::move(isIntegral), block(returnOf(callOf(integral, ref(a), cast(ScalarKind::Int32, re(b)))))));
    // Polar form: |a| ** re(b) * e ** (-angle * im(b)) at angle * re(b) + im(b) * log|a|.
    const Variable *magnitude = w.local("magnitude", p, math(p, "hypot", re(a), im(a)));
    const Variable *length = w.local("length", p, math(p, "pow", ref(magnitude), re(b)));
    const Variable *angle = w.local("angle", p, math(p, "atan2", im(a), re(a)));
    const Variable *phase = w.local("phase", p, binary(BinaryOp::Mul, ref(angle), re(b)));
    StmtList complexExponent;
    w.assign(complexExponent, length,
             binary(BinaryOp::Div, ref(length), math(p, "exp", binary(BinaryOp::Mul, ref(angle), im(b)))));
    w.assign(complexExponent, phase,
             binary(BinaryOp::Add, ref(phase), binary(BinaryOp::Mul, im(b), math(p, "log", ref(magnitude)))));
    w.function.body.push_back(ifThen(compare(CompareOp::Ne, im(b), real(p, 0)), std::move(complexExponent)));
    w.ret(complexOf(kind, binary(BinaryOp::Mul, ref(length), math(p, "cos", ref(phase))),
                    binary(BinaryOp::Mul, ref(length), math(p, "sin", ref(phase)))));
    return w.function;
  }
  default:
    assert(false && "Sema allows only + - * / ** on complex numbers");
    return complexNegate(kind);
  }
}

const Function &PythonOpFunctions::complexIntegerPower(ScalarKind kind) {
  const std::string name = nameOf("powi", kind);
  if (Function *existing = find(name))
    return *existing;
  const ScalarKind p = complexPart(kind), i32 = ScalarKind::Int32;
  const Type type = Type::scalarType(kind);
  const Function &multiply = complexArithmetic(BinaryOp::Mul, kind);
  const Function &divide = complexArithmetic(BinaryOp::Div, kind);
  Writer w{make(name,
                "a ** n for an integer n, as CPython's c_powi: bit by bit from the lowest, squaring the base\n"
                "(from 1, so a ** 1 is 1 * a); a negative n, 1 / a ** -n.",
                type)};
  const Variable *a = w.param("a", kind), *n = w.param("n", i32);
  auto one = [&] { return complexOf(kind, real(p, 1), real(p, 0)); };
  const Variable *rest =
      w.local("rest", i32, select(compare(CompareOp::Lt, ref(n), integer(i32, 0)),
                                  binary(BinaryOp::Sub, integer(i32, 0), ref(n)), ref(n)));
  const Variable *result = w.local("result", kind, one());
  const Variable *power = w.local("power", kind, ref(a));
  StmtList step;
  w.assign(step, result,
           select(compare(CompareOp::Ne, binary(BinaryOp::And, ref(rest), integer(i32, 1)), integer(i32, 0)),
                  callOf(multiply, ref(result), ref(power)), ref(result)));
  w.assign(step, power, callOf(multiply, ref(power), ref(power)));
  w.assign(step, rest, binary(BinaryOp::CShr, ref(rest), integer(i32, 1)));
  w.function.body.push_back(
      std::make_unique<While>(SourceRange{}, compare(CompareOp::Gt, ref(rest), integer(i32, 0)), std::move(step)));
  w.ret(select(compare(CompareOp::Lt, ref(n), integer(i32, 0)), callOf(divide, one(), ref(result)), ref(result)));
  return w.function;
}

const Function &PythonOpFunctions::complexNegate(ScalarKind kind) {
  const std::string name = nameOf("neg", kind);
  if (Function *existing = find(name))
    return *existing;
  Writer w{make(name, "-z on a complex number.", Type::scalarType(kind))};
  const Variable *z = w.param("z", kind);
  w.ret(complexOf(kind, negate(re(z)), negate(im(z))));
  return w.function;
}

const Function &PythonOpFunctions::complexConjugate(ScalarKind kind) {
  const std::string name = nameOf("conj", kind);
  if (Function *existing = find(name))
    return *existing;
  Writer w{make(name, "z.conjugate(): the imaginary part negated.", Type::scalarType(kind))};
  const Variable *z = w.param("z", kind);
  w.ret(complexOf(kind, re(z), negate(im(z))));
  return w.function;
}

const Function &PythonOpFunctions::complexAbs(ScalarKind kind) {
  const std::string name = nameOf("abs", kind);
  if (Function *existing = find(name))
    return *existing;
  const ScalarKind p = complexPart(kind);
  Writer w{make(name, "abs(z) of a complex number: hypot(z.real, z.imag).", Type::scalarType(p))};
  const Variable *z = w.param("z", kind);
  w.ret(math(p, "hypot", re(z), im(z)));
  return w.function;
}

const Function &PythonOpFunctions::complexEqual(ScalarKind kind) {
  const std::string name = nameOf("eq", kind);
  if (Function *existing = find(name))
    return *existing;
  Writer w{make(name, "a == b on complex numbers: both parts equal (so never with a NaN part).",
                Type::scalarType(ScalarKind::Bool))};
  const Variable *a = w.param("a", kind), *b = w.param("b", kind);
  w.ret(logical(LogicalOp::And, compare(CompareOp::Eq, re(a), re(b)), compare(CompareOp::Eq, im(a), im(b))));
  return w.function;
}

const Function &PythonOpFunctions::complexConvert(ScalarKind from, ScalarKind to) {
  const std::string name = "pyk_" + std::string(scalarName(to)) + "_of_" + Type::scalarType(from).str();
  if (Function *existing = find(name))
    return *existing;
  Writer w{make(name, "A complex number converted part by part.", Type::scalarType(to))};
  const Variable *z = w.param("z", from);
  const ScalarKind p = complexPart(to);
  w.ret(complexOf(to, cast(p, re(z)), cast(p, im(z))));
  return w.function;
}

} // namespace pyk::ir
