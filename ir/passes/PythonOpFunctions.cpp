//===- PythonOpFunctions.cpp - Python's operations written as IR functions -===//
//
// Each body is written so that no primitive operation in it is undefined:
// a division's divisor is never 0 nor -1 with the type's minimum (CDiv,
// CRem), a shift's count is in [0, bits) (CShl, CShr), what must wrap
// wraps in unsigned arithmetic of 32 bits or more, explicitly, and signed
// + and - sit where a guard keeps them in range (Function::
// arithmeticNeverOverflows). Selects evaluate one side only, so a guarded
// operation may sit in the side its guard picks.
//
//===----------------------------------------------------------------------===//
#include "passes/PythonOpFunctions.h"

#include "passes/IRBuilders.h"

#include <algorithm>
#include <cassert>

namespace pyk::ir {

using namespace builders;

Function *PythonOpFunctions::find(const std::string &name) {
  auto found = byName_.find(name);
  return found == byName_.end() ? nullptr : found->second;
}

Function &PythonOpFunctions::make(const std::string &name, const std::string &docstring, Type result) {
  // A .pyk function of the same name keeps it; this one takes another.
  std::string symbol = name;
  auto taken = [&](const std::string &candidate) {
    return std::any_of(module_.functions.begin(), module_.functions.end(),
                       [&](const auto &function) { return function->symbol == candidate; });
  };
  while (taken(symbol))
    symbol += "_";
  auto function = std::make_unique<Function>(Function::Kind::Device, symbol, SourceRange{});
  function->symbol = symbol;
  function->docstring = docstring;
  function->inlineAlways = true;
  function->arithmeticNeverOverflows = true;
  function->returnType = result;
  byName_[name] = function.get();
  made_.push_back(std::move(function));
  return *made_.back();
}

const Function &PythonOpFunctions::wrapIndex() {
  if (Function *existing = find("pyk_wrap_index"))
    return *existing;
  const ScalarKind i64 = ScalarKind::Int64;
  Writer w{make("pyk_wrap_index", "Python's negative index: index i counts from the end of an axis of n elements.",
                Type::scalarType(i64))};
  const Variable *i = w.param("i", i64), *n = w.param("n", i64);
  w.ret(select(compare(CompareOp::Lt, ref(i), integer(i64, 0)), binary(BinaryOp::Add, ref(i), ref(n)), ref(i)));
  return w.function;
}

const Function &PythonOpFunctions::floorDiv(ScalarKind kind) {
  const std::string name = "pyk_floordiv_" + Type::scalarType(kind).str();
  if (Function *existing = find(name))
    return *existing;
  if (isFloat(kind)) {
    Writer w{make(name,
                  "Python's a // b on floats, as NumPy's npy_divmod: (a - fmod(a, b)) / b is nearly an integer\n"
                  "and is snapped to one, so 1.0 // 0.1 is 9.0 (floor(1.0 / 0.1) would be 10.0); by zero, a / b.",
                  Type::scalarType(kind))};
    const Variable *a = w.param("a", kind), *b = w.param("b", kind);
    const Variable *remainder = w.local("mod", kind, math(kind, "fmod", ref(a), ref(b)));
    const Variable *exact =
        w.local("exact", kind, binary(BinaryOp::Div, binary(BinaryOp::Sub, ref(a), ref(remainder)), ref(b)));
    // One less where the remainder's sign is not the divisor's.
    auto signsDiffer = compare(CompareOp::Ne, compare(CompareOp::Lt, ref(b), real(kind, 0)),
                               compare(CompareOp::Lt, ref(remainder), real(kind, 0)));
    const Variable *quotient = w.local(
        "quotient", kind,
        select(logical(LogicalOp::And, compare(CompareOp::Ne, ref(remainder), real(kind, 0)), std::move(signsDiffer)),
               binary(BinaryOp::Sub, ref(exact), real(kind, 1)), ref(exact)));
    const Variable *floored = w.local("floored", kind, math(kind, "floor", ref(quotient)));
    // Every value first, then a choice among them: the backends need no
    // branch to choose.
    const Variable *ratio = w.local("ratio", kind, binary(BinaryOp::Div, ref(a), ref(b)));
    const Variable *signedZero = w.local("signed_zero", kind, math(kind, "copysign", real(kind, 0), ref(ratio)));
    auto snapped = select(compare(CompareOp::Gt, binary(BinaryOp::Sub, ref(quotient), ref(floored)), real(kind, 0.5)),
                          binary(BinaryOp::Add, ref(floored), real(kind, 1)), ref(floored));
    w.ret(select(compare(CompareOp::Eq, ref(b), real(kind, 0)), ref(ratio),
                 select(compare(CompareOp::Ne, ref(quotient), real(kind, 0)), std::move(snapped), ref(signedZero))));
    return w.function;
  }
  Writer w{make(name,
                "Python's a // b on integers: rounds toward minus infinity; by zero it is 0, and the most\n"
                "negative value // -1 wraps.",
                Type::scalarType(kind))};
  const Variable *a = w.param("a", kind), *b = w.param("b", kind);
  if (!isSignedInteger(kind)) {
    const Variable *safe =
        w.local("safe", kind, select(compare(CompareOp::Eq, ref(b), integer(kind, 0)), integer(kind, 1), ref(b)));
    const Variable *q = w.local("q", kind, binary(BinaryOp::CDiv, ref(a), ref(safe)));
    w.ret(select(compare(CompareOp::Eq, ref(b), integer(kind, 0)), integer(kind, 0), ref(q)));
    return w.function;
  }
  auto zeroOrMinusOne = [&] {
    return logical(LogicalOp::Or, compare(CompareOp::Eq, ref(b), integer(kind, 0)),
                   compare(CompareOp::Eq, ref(b), integer(kind, -1)));
  };
  const Variable *safe = w.local("safe", kind, select(zeroOrMinusOne(), integer(kind, 1), ref(b)));
  const Variable *q = w.local("q", kind, binary(BinaryOp::CDiv, ref(a), ref(safe)));
  const Variable *r = w.local("r", kind, binary(BinaryOp::CRem, ref(a), ref(safe)));
  // One less where the remainder is not 0 and its sign is not the divisor's.
  auto roundDown = logical(LogicalOp::And, compare(CompareOp::Ne, ref(r), integer(kind, 0)),
                           compare(CompareOp::Lt, binary(BinaryOp::Xor, ref(r), ref(b)), integer(kind, 0)));
  const ScalarKind u = unsignedOf(kind);
  auto negated = cast(kind, binary(BinaryOp::Sub, integer(u, 0), cast(u, ref(a))));
  w.ret(select(compare(CompareOp::Eq, ref(b), integer(kind, 0)), integer(kind, 0),
               select(compare(CompareOp::Eq, ref(b), integer(kind, -1)), std::move(negated),
                      binary(BinaryOp::Sub, ref(q), cast(kind, std::move(roundDown))))));
  return w.function;
}

const Function &PythonOpFunctions::mod(ScalarKind kind) {
  const std::string name = "pyk_mod_" + Type::scalarType(kind).str();
  if (Function *existing = find(name))
    return *existing;
  if (isFloat(kind)) {
    Writer w{make(name,
                  "Python's a % b on floats, as NumPy's npy_divmod: fmod's remainder moved to the divisor's\n"
                  "sign, a zero one too; by zero, nan.",
                  Type::scalarType(kind))};
    const Variable *a = w.param("a", kind), *b = w.param("b", kind);
    const Variable *remainder = w.local("mod", kind, math(kind, "fmod", ref(a), ref(b)));
    auto signsDiffer = compare(CompareOp::Ne, compare(CompareOp::Lt, ref(b), real(kind, 0)),
                               compare(CompareOp::Lt, ref(remainder), real(kind, 0)));
    const Variable *signedZero = w.local("signed_zero", kind, math(kind, "copysign", real(kind, 0), ref(b)));
    auto moved = select(std::move(signsDiffer), binary(BinaryOp::Add, ref(remainder), ref(b)), ref(remainder));
    w.ret(select(compare(CompareOp::Eq, ref(b), real(kind, 0)), ref(remainder),
                 select(compare(CompareOp::Ne, ref(remainder), real(kind, 0)), std::move(moved), ref(signedZero))));
    return w.function;
  }
  Writer w{make(name, "Python's a % b on integers: the result takes the divisor's sign; by zero it is 0.",
                Type::scalarType(kind))};
  const Variable *a = w.param("a", kind), *b = w.param("b", kind);
  // By 0 (and by -1) C's remainder by 1 is the answer, 0.
  auto zeroOrMinusOne = compare(CompareOp::Eq, ref(b), integer(kind, 0));
  if (isSignedInteger(kind))
    zeroOrMinusOne =
        logical(LogicalOp::Or, std::move(zeroOrMinusOne), compare(CompareOp::Eq, ref(b), integer(kind, -1)));
  const Variable *safe = w.local("safe", kind, select(std::move(zeroOrMinusOne), integer(kind, 1), ref(b)));
  if (!isSignedInteger(kind)) {
    w.ret(binary(BinaryOp::CRem, ref(a), ref(safe)));
    return w.function;
  }
  const Variable *r = w.local("r", kind, binary(BinaryOp::CRem, ref(a), ref(safe)));
  auto moveToDivisor = logical(LogicalOp::And, compare(CompareOp::Ne, ref(r), integer(kind, 0)),
                               compare(CompareOp::Lt, binary(BinaryOp::Xor, ref(r), ref(b)), integer(kind, 0)));
  w.ret(binary(BinaryOp::Add, ref(r), select(std::move(moveToDivisor), ref(b), integer(kind, 0))));
  return w.function;
}

const Function &PythonOpFunctions::integerPow(ScalarKind kind) {
  const std::string name = "pyk_pow_" + Type::scalarType(kind).str();
  if (Function *existing = find(name))
    return *existing;
  Writer w{make(name,
                "a ** b on integers, by repeated squaring, wrapping. A negative exponent gives the integer\n"
                "part of the real power (0 unless a is 1 or -1).",
                Type::scalarType(kind))};
  const Variable *a = w.param("a", kind), *b = w.param("b", kind);
  if (isSignedInteger(kind)) {
    auto odd = compare(CompareOp::Ne, binary(BinaryOp::And, ref(b), integer(kind, 1)), integer(kind, 0));
    auto ofMinusOne = select(std::move(odd), integer(kind, -1), integer(kind, 1));
    StmtList negative;
    negative.push_back(std::make_unique<Return>(
        SourceRange{},
        select(compare(CompareOp::Eq, ref(a), integer(kind, 1)), integer(kind, 1),
               select(compare(CompareOp::Eq, ref(a), integer(kind, -1)), std::move(ofMinusOne), integer(kind, 0)))));
    w.function.body.push_back(std::make_unique<If>(SourceRange{}, compare(CompareOp::Lt, ref(b), integer(kind, 0)),
                                                   std::move(negative), StmtList{}));
  }
  // At least 32 bits: C promotes a narrower unsigned product to int, where
  // 65535 * 65535 overflows. The low bits are the same.
  const ScalarKind u = byteWidth(kind) < 4 ? ScalarKind::UInt32 : unsignedOf(kind);
  auto asUnsigned = [&](const Variable *var) { return u == kind ? ref(var) : cast(u, ref(var)); };
  const Variable *result = w.local("result", u, integer(u, 1));
  const Variable *power = w.local("power", u, asUnsigned(a));
  const Variable *rest = w.local("rest", u, asUnsigned(b));
  // One step at least, as the loop tests at its end (b == 0 gives 1).
  StmtList step;
  auto bit = compare(CompareOp::Ne, binary(BinaryOp::And, ref(rest), integer(u, 1)), integer(u, 0));
  w.assign(step, result, select(std::move(bit), binary(BinaryOp::Mul, ref(result), ref(power)), ref(result)));
  w.assign(step, power, binary(BinaryOp::Mul, ref(power), ref(power)));
  w.assign(step, rest, binary(BinaryOp::CShr, ref(rest), integer(u, 1)));
  StmtList done;
  done.push_back(std::make_unique<Break>(SourceRange{}));
  step.push_back(std::make_unique<If>(SourceRange{}, compare(CompareOp::Eq, ref(rest), integer(u, 0)), std::move(done),
                                      StmtList{}));
  w.function.body.push_back(std::make_unique<While>(
      SourceRange{}, std::make_unique<Constant>(SourceRange{}, Type::scalarType(ScalarKind::Bool), 1, 0.0),
      std::move(step)));
  w.ret(u == kind ? ref(result) : cast(kind, ref(result)));
  return w.function;
}

const Function &PythonOpFunctions::shift(bool left, ScalarKind kind) {
  const std::string name = std::string(left ? "pyk_shl_" : "pyk_shr_") + Type::scalarType(kind).str();
  if (Function *existing = find(name))
    return *existing;
  Writer w{make(name,
                left ? "a << count as NumPy: a count outside [0, bits) gives 0."
                     : "a >> count as NumPy: a count outside [0, bits) gives 0, or -1 for a negative a.",
                Type::scalarType(kind))};
  const Variable *a = w.param("a", kind), *count = w.param("count", kind);
  const auto bits = static_cast<int64_t>(byteWidth(kind) * 8);
  auto outOfRange = compare(CompareOp::Ge, ref(count), integer(kind, bits));
  if (isSignedInteger(kind))
    outOfRange = logical(LogicalOp::Or, compare(CompareOp::Lt, ref(count), integer(kind, 0)), std::move(outOfRange));
  ExprPtr fill = integer(kind, 0), shifted;
  if (left) {
    // A signed value shifts as its unsigned bits: C++ leaves a negative
    // one's shift undefined.
    const ScalarKind u = unsignedOf(kind);
    shifted = binary(BinaryOp::CShl, cast(u, ref(a)), cast(u, ref(count)));
    if (u != kind)
      shifted = cast(kind, std::move(shifted));
  } else {
    shifted = binary(BinaryOp::CShr, ref(a), ref(count));
    if (isSignedInteger(kind))
      fill = select(compare(CompareOp::Lt, ref(a), integer(kind, 0)), integer(kind, -1), integer(kind, 0));
  }
  w.ret(select(std::move(outOfRange), std::move(fill), std::move(shifted)));
  return w.function;
}

const Function &PythonOpFunctions::minMax(bool isMin, ScalarKind kind) {
  const std::string name = std::string(isMin ? "pyk_min_" : "pyk_max_") + Type::scalarType(kind).str();
  if (Function *existing = find(name))
    return *existing;
  Writer w{make(name,
                isMin ? "Python's min(a, b): b if b < a else a (the first of equal values; a NaN b never wins)."
                      : "Python's max(a, b): b if b > a else a (the first of equal values; a NaN b never wins).",
                Type::scalarType(kind))};
  const Variable *a = w.param("a", kind), *b = w.param("b", kind);
  w.ret(select(compare(isMin ? CompareOp::Lt : CompareOp::Gt, ref(b), ref(a)), ref(b), ref(a)));
  return w.function;
}

const Function &PythonOpFunctions::square(ScalarKind kind) {
  const std::string name = "pyk_square_" + Type::scalarType(kind).str();
  if (Function *existing = find(name))
    return *existing;
  Writer w{make(name, "x ** 2: x * x, the correctly rounded square.", Type::scalarType(kind))};
  const Variable *x = w.param("x", kind);
  w.ret(binary(BinaryOp::Mul, ref(x), ref(x)));
  return w.function;
}

ScalarKind PythonOpFunctions::unsignedOf(ScalarKind kind) {
  switch (byteWidth(kind)) {
  case 1:
    return ScalarKind::UInt8;
  case 2:
    return ScalarKind::UInt16;
  case 4:
    return ScalarKind::UInt32;
  default:
    return ScalarKind::UInt64;
  }
}

const Function &PythonOpFunctions::rangeLength(ScalarKind kind) {
  const std::string name = "pyk_range_length_" + Type::scalarType(kind).str();
  if (Function *existing = find(name))
    return *existing;
  const ScalarKind u = unsignedOf(kind);
  Writer w{make(name,
                "Python's len(range(start, stop, step)), 0 for a zero step: in unsigned arithmetic, where the\n"
                "distance between two values of the type and the step's magnitude always fit.",
                Type::scalarType(u))};
  const Variable *start = w.param("start", kind), *stop = w.param("stop", kind), *step = w.param("step", kind);
  auto asUnsigned = [&](const Variable *var) { return u == kind ? ref(var) : cast(u, ref(var)); };
  const bool isSigned = isSignedInteger(kind);
  const Variable *up =
      w.local("up", ScalarKind::Bool, compare(isSigned ? CompareOp::Gt : CompareOp::Ne, ref(step), integer(kind, 0)));
  auto down = logical(LogicalOp::And, compare(CompareOp::Lt, ref(step), integer(kind, 0)),
                      compare(CompareOp::Gt, ref(start), ref(stop)));
  const Variable *runs =
      w.local("runs", ScalarKind::Bool,
              isSigned ? select(ref(up), compare(CompareOp::Lt, ref(start), ref(stop)), std::move(down))
                       : logical(LogicalOp::And, ref(up), compare(CompareOp::Lt, ref(start), ref(stop))));
  const Variable *distance = w.local("distance", u,
                                     select(ref(up), binary(BinaryOp::Sub, asUnsigned(stop), asUnsigned(start)),
                                            binary(BinaryOp::Sub, asUnsigned(start), asUnsigned(stop))));
  // 1 where the loop does not run, so that a zero step divides nothing.
  const Variable *magnitude = w.local(
      "magnitude", u,
      select(ref(runs), select(ref(up), asUnsigned(step), binary(BinaryOp::Sub, integer(u, 0), asUnsigned(step))),
             integer(u, 1)));
  const Variable *trips = w.local(
      "trips", u,
      binary(BinaryOp::Add, binary(BinaryOp::CDiv, binary(BinaryOp::Sub, ref(distance), integer(u, 1)), ref(magnitude)),
             integer(u, 1)));
  w.ret(select(ref(runs), ref(trips), integer(u, 0)));
  return w.function;
}

void PythonOpFunctions::addToModule(Module &module) {
  // In the order they were made (a callee before its callers), before
  // every function of the file.
  module.functions.insert(module.functions.begin(), std::make_move_iterator(made_.begin()),
                          std::make_move_iterator(made_.end()));
  made_.clear();
  byName_.clear();
}

} // namespace pyk::ir
