//===- CudaStatements.cpp - IR statements as CUDA C++ ---------------------===//
//
// Every statement is preceded by a `#line` directive naming its .pyk line,
// so cuda-gdb steps through the .pyk file.
//
//===----------------------------------------------------------------------===//
#include "CudaFunctionEmitter.h"

#include "IRWalk.h"

#include "llvm/Support/Casting.h"

#include <cstdio>
#include <functional>

namespace pyk::cuda {

using llvm::cast;
using namespace ir;

void FunctionEmitter::block(const StmtList &body, unsigned depth) {
  // Where each variable is last read, once per block: asking each
  // declaration to search the rest of the block is quadratic.
  BlockState &state = blocks_.emplace_back();
  std::function<void(const Expr &)> visit;
  size_t index = 0;
  visit = [&](const Expr &e) {
    if (auto *ref = llvm::dyn_cast<VarRef>(&e))
      state.lastRead[ref->var] = index;
    forEachOperand(e, visit);
  };
  for (index = 0; index < body.size(); ++index)
    forEachExpr(*body[index], visit);
  for (size_t i = 0; i < body.size(); ++i) {
    blocks_.back().current = i;
    stmt(*body[i], depth);
  }
  blocks_.pop_back();
}

void FunctionEmitter::stmt(const Stmt &s, unsigned depth) {
  line(s.loc());
  os_.indent(depth * 4);
  switch (s.kind()) {
  case NodeKind::Declare: {
    auto &d = cast<Declare>(s);
    if (d.var->isView())
      return viewLocal(*d.var, d.init.get(), true, depth);
    // nvcc warns about locals that are never read; the .pyk file may
    // well have them.
    if (!readLater(d.var))
      os_ << "[[maybe_unused]] ";
    os_ << cudaScalarType(d.var->type.scalar) << " " << names_.nameOf(d.var);
    if (d.init)
      os_ << " = " << expr(*d.init).text;
    os_ << ";\n";
    return;
  }
  case NodeKind::Assign: {
    auto &a = cast<Assign>(s);
    if (a.var->isView())
      return viewLocal(*a.var, a.value.get(), false, depth);
    os_ << names_.nameOf(a.var) << " = " << expr(*a.value).text << ";\n";
    return;
  }
  case NodeKind::ArrayStore: {
    auto &st = cast<ArrayStore>(s);
    os_ << element(st.array, st.indices, st.narrowOffset, st.field) << " = " << expr(*st.value).text << ";\n";
    return;
  }
  case NodeKind::If:
    return ifStmt(cast<If>(s), depth);
  case NodeKind::While: {
    auto &loop = cast<While>(s);
    os_ << "while (" << expr(*loop.condition).text << ") {\n";
    block(loop.body, depth + 1);
    os_.indent(depth * 4) << "}\n";
    return;
  }
  case NodeKind::ForRange:
    return forRange(cast<ForRange>(s), depth);
  case NodeKind::Print:
    return print(cast<Print>(s));
  case NodeKind::Break:
    os_ << "break;\n";
    return;
  case NodeKind::Continue:
    os_ << "continue;\n";
    return;
  case NodeKind::Assert:
    return; // written out, or removed, by insertChecks
  case NodeKind::Evaluate:
    os_ << expr(*cast<Evaluate>(s).call).text << ";\n";
    return;
  case NodeKind::Return:
    if (const ExprPtr &value = cast<Return>(s).value)
      os_ << "return " << expr(*value).text << ";\n";
    else
      os_ << "return;\n";
    return;
#define PYK_IR_EXPR(Name) case NodeKind::Name:
#include "IRNodes.def"
    return;
  }
}

/// for (int64_t i = start; i < stop; ++i), or `i > stop; --i` for a step
/// of -1; any other step goes to countedForRange.
void FunctionEmitter::forRange(const ForRange &s, unsigned depth) {
  if (s.tripCount)
    return countedForRange(s, depth);
  const std::string &i = names_.nameOf(s.var);
  const std::string stop = wrap(expr(*s.stop), Relational + 1);
  const bool ascending = cast<Constant>(*s.step).intValue == 1;
  os_ << "for (" << cudaScalarType(s.var->type.scalar) << " " << i << " = " << expr(*s.start).text << "; " << i
      << (ascending ? " < " : " > ") << stop << "; " << (ascending ? "++" : "--") << i << ") {\n";
  block(s.body, depth + 1);
  os_.indent(depth * 4) << "}\n";
}

/// Any other step: `v += step` could overshoot stop and wrap around the
/// type's end, so the loop counts the IR's trip count (Python's
/// len(range(...))) down instead, stepping v in unsigned arithmetic, where
/// wrapping is defined; nvcc still sees a loop whose trip count it knows,
/// and unrolls it.
///   {
///       int64_t v = start;
///       for (uint64_t pyk_left_v = pyk_range_length_i64(v, stop, step); pyk_left_v != 0;
///            --pyk_left_v, v = (int64_t)((uint64_t)v + (uint64_t)step)) {
void FunctionEmitter::countedForRange(const ForRange &s, unsigned depth) {
  const std::string &v = names_.nameOf(s.var);
  const ScalarKind kind = s.var->type.scalar;
  const std::string type = cudaScalarType(kind), count = cudaScalarType(s.tripCount->type().scalar);
  const Code step = expr(*s.step);
  const std::string left = "pyk_left_" + v;
  std::string next = v + " + " + wrap(step, Additive + 1);
  if (isSignedInteger(kind))
    next = "(" + type + ")((" + count + ")" + v + " + (" + count + ")" + wrap(step, Prefix) + ")";
  else if (byteWidth(kind) < 4)
    next = "(" + type + ")(" + next + ")";
  os_ << "{\n";
  os_.indent((depth + 1) * 4) << type << " " << v << " = " << expr(*s.start).text << ";\n";
  os_.indent((depth + 1) * 4) << "for (" << count << " " << left << " = " << expr(*s.tripCount).text << "; " << left
                              << " != 0; --" << left << ", " << v << " = " << next << ") {\n";
  block(s.body, depth + 2);
  os_.indent((depth + 1) * 4) << "}\n";
  os_.indent(depth * 4) << "}\n";
}

/// printf("...", values): bools as "True"/"False", integers as (unsigned)
/// long long, floats as double.
void FunctionEmitter::print(const Print &s) {
  std::string literal;
  for (char c : s.format()) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\')
      literal += std::string("\\") + c;
    else if (c == '\n')
      literal += "\\n";
    else if (byte < 0x20 || byte == 0x7f) {
      char octal[5];
      std::snprintf(octal, sizeof octal, "\\%03o", byte);
      literal += octal;
    } else
      literal += c;
  }
  os_ << "printf(\"" << literal << "\"";
  for (const Print::Part &part : s.parts) {
    if (!part.value)
      continue;
    const ScalarKind kind = part.value->type().scalar;
    if (kind == ScalarKind::Bool)
      os_ << ", " << wrap(expr(*part.value), LogicalOr) << " ? \"True\" : \"False\"";
    else
      os_ << ", ("
          << (isFloat(kind)             ? "double"
              : isUnsignedInteger(kind) ? "unsigned long long"
                                        : "long long")
          << ")" << wrap(expr(*part.value), Prefix);
  }
  os_ << ");\n";
}

/// An elif chain prints flat, as `} else if (...) {`, in a loop: its
/// length costs neither indentation nor stack.
void FunctionEmitter::ifStmt(const If &first, unsigned depth) {
  const If *s = &first;
  os_ << "if (" << expr(*s->condition).text << ") {\n";
  block(s->thenBody, depth + 1);
  for (; const If *next = s->elseIf(); s = next) {
    line(next->loc());
    os_.indent(depth * 4) << "} else if (" << expr(*next->condition).text << ") {\n";
    block(next->thenBody, depth + 1);
  }
  if (!s->elseBody.empty()) {
    os_.indent(depth * 4) << "} else {\n";
    block(s->elseBody, depth + 1);
  }
  os_.indent(depth * 4) << "}\n";
}

} // namespace pyk::cuda
