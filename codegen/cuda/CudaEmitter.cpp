//===- CudaEmitter.cpp - IR to readable CUDA C++ ---------------------------===//
//
// Expressions print with the fewest parentheses C++ precedence allows, so
// the output reads like hand-written CUDA. Every statement is preceded by a
// `#line` directive naming its .pyk line.
//
//===----------------------------------------------------------------------===//
#include "CudaEmitter.h"

#include "CudaHelpers.h"
#include "CudaNames.h"
#include "IRWalk.h"
#include "NarrowOffsets.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <unordered_map>

namespace pyk::cuda {
namespace {

using llvm::cast;
using namespace ir;

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

class FunctionEmitter {
public:
  FunctionEmitter(const Function &f, const Module &m, const CudaEmitOptions &options, llvm::raw_ostream &os,
                  std::set<Helper> &helpers)
      : function_(f), options_(options), os_(os), helpers_(helpers), names_(f.variables()),
        quotedPath_(escapeForString(m.sourceName)), module_(m) {}

  void emit() {
    if (!function_.docstring.empty())
      docComment(function_.docstring);
    line(function_.loc);
    // Kernels are found by name in the PTX; device functions are private
    // to the file.
    std::string head = "extern \"C\" __global__ void ";
    if (function_.maxThreadsPerBlock) {
      head += "__launch_bounds__(" + std::to_string(function_.maxThreadsPerBlock);
      if (function_.minBlocksPerMultiprocessor)
        head += ", " + std::to_string(function_.minBlocksPerMultiprocessor);
      head += ") ";
    }
    if (function_.maxRegisters)
      head += "__maxnreg__(" + std::to_string(function_.maxRegisters) + ") ";
    if (function_.kind == Function::Kind::Device) {
      head = std::string("static __device__ ") + (function_.inlineAlways ? "__forceinline__ " : "") +
             (function_.returnType.isVoid() ? "void" : cudaScalarType(function_.returnType.scalar)) + " ";
    }
    os_ << head << function_.symbol << "(";
    std::string indent(head.size() + function_.symbol.size() + 1, ' ');
    for (size_t i = 0; i < function_.params.size(); ++i) {
      if (i)
        os_ << ",\n" << indent;
      parameter(*function_.params[i]);
    }
    // `return a, b`: each value through a reference the caller passes.
    for (size_t i = 0; i < function_.results.size(); ++i)
      os_ << (i || !function_.params.empty() ? ",\n" + indent : "") << cudaScalarType(function_.results[i]->type.scalar)
          << " &" << names_.nameOf(function_.results[i]);
    if (function_.checked) {
      helpers_.insert(Helper::Checks);
      os_ << (function_.params.empty() && function_.results.empty() ? "" : ",\n" + indent)
          << (function_.kind == Function::Kind::Kernel ? "pyk_check_record *pyk_record, uint64_t pyk_launch"
                                                       : "pyk_checker pyk_check");
    }
    os_ << ")\n{\n";
    if (function_.checked && function_.kind == Function::Kind::Kernel)
      os_ << "    [[maybe_unused]] const pyk_checker pyk_check = {pyk_record, pyk_launch};\n";
    arrayLocals();
    block(function_.body, 1);
    os_ << "}\n";
  }

private:
  // --- Declarations ---------------------------------------------------------
  void docComment(const std::string &text) {
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos)
        end = text.size();
      std::string_view lineText(text.data() + start, end - start);
      while (!lineText.empty() && lineText.back() == ' ')
        lineText.remove_suffix(1);
      os_ << "///" << (lineText.empty() ? "" : " ") << lineText;
      // A comment ending in a backslash would swallow the next line.
      os_ << (!lineText.empty() && lineText.back() == '\\' ? " //\n" : "\n");
      start = end + 1;
    }
  }

  void parameter(const Variable &param) {
    if (param.type.isArray()) {
      const std::string element = cudaScalarType(param.type.scalar);
      // A kernel's arrays do not overlap (LANGUAGE.md); a device function
      // may be passed the same array twice, so it gets no __restrict__.
      const char *restrict = function_.kind == Function::Kind::Kernel ? "* __restrict__ " : "* ";
      os_ << (param.readOnly ? "const " + element + restrict : element + "* ") << names_.nameOf(&param);
      for (unsigned axis = 0; axis < param.type.rank; ++axis)
        os_ << ", int64_t " << names_.extentOf(&param, axis);
      if (!param.type.contiguous)
        for (unsigned axis = 0; axis < param.type.rank; ++axis)
          os_ << ", int64_t " << names_.strideOf(&param, axis);
      return;
    }
    os_ << cudaScalarType(param.type.scalar) << " " << names_.nameOf(&param);
  }

  /// cuda.shared.array / cuda.local.array: flat C arrays, indexed row-major
  /// like every pyk array.
  void arrayLocals() {
    for (const Variable *var : function_.variables()) {
      if (!var->isArrayLocal())
        continue;
      line(var->range);
      if (var->memory == Variable::Memory::Constant) {
        // The program's one copy, in constant memory (constantArrays).
        const std::string element = cudaScalarType(var->type.scalar);
        os_.indent(4) << "[[maybe_unused]] " << element << "* " << names_.nameOf(var) << " = (" << element << "*)"
                      << constantArrayName(*var) << ";\n";
        continue;
      }
      if (var->memory == Variable::Memory::DynamicShared) {
        helpers_.insert(Helper::DynamicShared);
        const std::string element = cudaScalarType(var->type.scalar);
        os_.indent(4) << element << "* " << names_.nameOf(var) << " = (" << element << "*)pyk_dynamic_shared;\n";
        line(var->range);
        os_.indent(4) << "const int64_t " << names_.extentOf(var, 0) << " = (int64_t)(pyk_dynamic_shared_bytes() / sizeof("
                      << element << "));\n";
        continue;
      }
      os_.indent(4) << (var->memory == Variable::Memory::Shared ? "__shared__ " : "")
                    << cudaScalarType(var->type.scalar) << " " << names_.nameOf(var) << "[";
      for (size_t axis = 0; axis < var->fixedShape.size(); ++axis)
        os_ << (axis ? " * " : "") << var->fixedShape[axis];
      os_ << "];\n";
    }
  }

  /// A view local takes its data pointer, extents and strides, declared
  /// (null and 0 without a value) or assigned; the first line is indented
  /// already.
  void viewLocal(const Variable &var, const Expr *value, bool declare, unsigned depth) {
    auto *view = llvm::dyn_cast_or_null<ArrayView>(value);
    const std::string element = cudaScalarType(var.type.scalar);
    const std::string type = declare ? std::string("[[maybe_unused]] ") + (var.readOnly ? "const " : "") + element + " *" : "";
    const std::string number = declare ? "[[maybe_unused]] int64_t " : "";
    std::string data = "nullptr";
    if (view) {
      Code offset = expr(*view->offset);
      data = names_.nameOf(view->base);
      auto *zero = llvm::dyn_cast<Constant>(view->offset.get());
      if (!zero || zero->intValue != 0)
        data += " + " + wrap(offset, Additive + 1);
    }
    os_ << type << names_.nameOf(&var) << " = " << data << ";\n";
    for (unsigned axis = 0; axis < var.type.rank; ++axis) {
      line(var.range);
      os_.indent(depth * 4) << number << names_.extentOf(&var, axis) << " = "
                            << (view ? expr(*view->extents[axis]).text : "0") << ";\n";
    }
    if (!var.type.contiguous)
      for (unsigned axis = 0; axis < var.type.rank; ++axis) {
        line(var.range);
        os_.indent(depth * 4) << number << names_.strideOf(&var, axis) << " = "
                              << (view ? expr(*view->strides[axis]).text : "0") << ";\n";
      }
  }

  /// An array's extent: a parameter's, or an array local's constant.
  std::string extent(const Variable *array, unsigned axis) {
    if (!array->fixedShape.empty())
      return std::to_string(array->fixedShape[axis]);
    return names_.extentOf(array, axis);
  }

  void line(SourceRange loc) {
    if (options_.lineDirectives && loc.isValid())
      os_ << "#line " << loc.begin.line << " \""
          << (loc.begin.file == 0 || loc.begin.file > module_.importedSourceNames.size()
                  ? quotedPath_
                  : escapeForString(module_.importedSourceNames[loc.begin.file - 1]))
          << "\"\n";
  }

  /// The file name as the inside of a C++ string literal.
  static std::string escapeForString(const std::string &text) {
    std::string out;
    for (char c : text) {
      if (c == '"' || c == '\\')
        out += '\\';
      out += c;
    }
    return out;
  }

  /// Whether `var`, declared by the statement being emitted, is read by a
  /// later statement of the same block (nested ones included).
  bool readLater(const Variable *var) const {
    const BlockState &block = blocks_.back();
    auto last = block.lastRead.find(var);
    return last != block.lastRead.end() && last->second > block.current;
  }

  // --- Statements -----------------------------------------------------------
  void block(const StmtList &body, unsigned depth) {
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

  void stmt(const Stmt &s, unsigned depth) {
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
      if (isChecked(st.boundsChecks)) {
        os_ << "pyk_store<" << cudaScalarType(st.array->type.scalar) << ">("
            << checkedElement(st.array, st.indices, st.boundsChecks) << ", " << expr(*st.value).text << ");\n";
        return;
      }
      os_ << element(st.array, st.indices) << " = " << expr(*st.value).text << ";\n";
      return;
    }
    case NodeKind::If:
      return ifStmt(cast<If>(s), depth);
    case NodeKind::While: {
      auto &loop = cast<While>(s);
      os_ << "while (" << expr(*loop.condition).text << ") {\n";
      loopBody(loop.body, nullptr, depth + 1);
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
    case NodeKind::Assert: {
      auto &a = cast<Assert>(s);
      if (function_.checked)
        os_ << "if (!" << wrap(expr(*a.condition), Prefix) << ")\n"
            << std::string((depth + 1) * 4, ' ') << "pyk_check_failed(pyk_check, " << a.check << "u, 0, 0);\n";
      else
        os_ << "// assert (checked mode only)\n";
      return;
    }
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

  /// A loop's body, knowing which variables change from one iteration to the
  /// next (see hasNarrowOffset).
  void loopBody(const StmtList &body, const Variable *counter, unsigned depth) {
    std::set<const Variable *> outer = loopVariables_;
    if (counter)
      loopVariables_.insert(counter);
    loopVariables_.merge(assignedVariables(body));
    block(body, depth);
    loopVariables_ = std::move(outer);
  }

  /// for (int64_t i = start; i < stop; ++i), or `i > stop; --i` for a step
  /// of -1; any other step goes to countedForRange.
  void forRange(const ForRange &s, unsigned depth) {
    if (!s.hasUnitStep())
      return countedForRange(s, depth);
    const std::string &i = names_.nameOf(s.var);
    const std::string stop = wrap(expr(*s.stop), Relational + 1);
    const bool ascending = cast<Constant>(*s.step).intValue == 1;
    os_ << "for (" << cudaScalarType(s.var->type.scalar) << " " << i << " = " << expr(*s.start).text << "; " << i
        << (ascending ? " < " : " > ") << stop << "; " << (ascending ? "++" : "--") << i << ") {\n";
    loopBody(s.body, s.var, depth + 1);
    os_.indent(depth * 4) << "}\n";
  }

  /// Any other step: `v += step` could overshoot stop and wrap around the
  /// type's end, so the loop counts Python's len(range(...)) down instead;
  /// nvcc still sees a loop whose trip count it knows, and unrolls it.
  ///   {
  ///       int64_t v = start;
  ///       for (auto pyk_left_v = pyk_range_length<int64_t>(v, stop, step); pyk_left_v != 0;
  ///            --pyk_left_v, v = pyk_range_next<int64_t>(v, step)) {
  void countedForRange(const ForRange &s, unsigned depth) {
    helpers_.insert(Helper::RangeLength);
    const std::string &v = names_.nameOf(s.var);
    const std::string type = cudaScalarType(s.var->type.scalar);
    const std::string step = expr(*s.step).text, left = "pyk_left_" + v;
    os_ << "{\n";
    os_.indent((depth + 1) * 4) << type << " " << v << " = " << expr(*s.start).text << ";\n";
    os_.indent((depth + 1) * 4) << "for (auto " << left << " = pyk_range_length<" << type << ">(" << v << ", "
                                << expr(*s.stop).text << ", " << step << "); " << left << " != 0; --" << left
                                << ", " << v << " = pyk_range_next<" << type << ">(" << v << ", " << step
                                << ")) {\n";
    loopBody(s.body, s.var, depth + 2);
    os_.indent((depth + 1) * 4) << "}\n";
    os_.indent(depth * 4) << "}\n";
  }

  /// printf("...", values): bools as "True"/"False", integers as (unsigned)
  /// long long, floats as double.
  void print(const Print &s) {
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
        os_ << ", (" << (isFloat(kind) ? "double" : isUnsignedInteger(kind) ? "unsigned long long" : "long long")
            << ")" << wrap(expr(*part.value), Prefix);
    }
    os_ << ");\n";
  }

  /// An elif chain prints flat, as `} else if (...) {`, in a loop: its
  /// length costs neither indentation nor stack.
  void ifStmt(const If &first, unsigned depth) {
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

  // --- Expressions ----------------------------------------------------------
  static std::string wrap(const Code &code, int atLeast) {
    return code.precedence >= atLeast ? code.text : "(" + code.text + ")";
  }

  /// a[i], a[i * a_shape1 + j], a[(i * a_shape1 + j) * a_shape2 + k]
  static bool isChecked(const std::vector<CheckSiteId> &sites) {
    return std::any_of(sites.begin(), sites.end(), [](CheckSiteId site) { return site != NoCheck; });
  }

  /// Checked mode: a pointer to the element, null when a check failed.
  std::string checkedElement(const Variable *array, const std::vector<ExprPtr> &indices,
                             const std::vector<CheckSiteId> &sites) {
    const bool strided = !array->type.contiguous;
    std::string text = std::string(strided ? "pyk_checked_strided" : "pyk_checked") + "(pyk_check, " +
                       names_.nameOf(array);
    for (unsigned axis = 0; axis < indices.size(); ++axis)
      text += ", " + expr(*indices[axis]).text + ", " + extent(array, axis) + ", " +
              (strided ? names_.strideOf(array, axis) + ", " : std::string()) +
              (sites[axis] == NoCheck ? std::string("PYK_NO_CHECK") : std::to_string(sites[axis]) + "u");
    return text + ")";
  }

  std::string element(const Variable *array, const std::vector<ExprPtr> &indices) {
    if (!array->type.contiguous) {
      // A strided view: a[i * a_stride0 + j * a_stride1].
      std::string offset;
      for (unsigned axis = 0; axis < indices.size(); ++axis)
        offset += (axis ? " + " : "") + wrap(expr(*indices[axis]), Multiplicative) + " * " +
                  names_.strideOf(array, axis);
      return names_.nameOf(array) + "[" + offset + "]";
    }
    const bool narrow = hasNarrowOffset(array, indices);
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

  /// pykc --index-bits=32: `int` offsets, whose overflow C++ leaves
  /// undefined, so nvcc may use 32-bit multiplies, where NarrowOffsets.h
  /// allows them.
  bool hasNarrowOffset(const Variable *array, const std::vector<ExprPtr> &indices) const {
    return ir::hasNarrowOffset(module_, function_, *array, indices, loopVariables_);
  }

  Code expr(const Expr &e) {
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
        return {std::string(e.type().scalar == ScalarKind::Float32 ? "rintf(" : "rint(") + operand.text + ")",
                Postfix};
      // -(-n), never --n: that is C++'s decrement.
      std::string inner = operand.text.front() == '-' ? "(" + operand.text + ")" : wrap(operand, Prefix);
      return narrow(e.type(), {"-" + inner, Prefix});
    }
    case NodeKind::Binary:
      return binary(cast<Binary>(e));
    case NodeKind::Compare: {
      auto &c = cast<Compare>(e);
      static const char *spelling[] = {"<", "<=", ">", ">=", "==", "!="};
      const int precedence = c.op == CompareOp::Eq || c.op == CompareOp::Ne ? Equality : Relational;
      return {wrap(expr(*c.lhs), precedence) + " " + spelling[static_cast<int>(c.op)] + " " +
                  wrap(expr(*c.rhs), precedence + 1),
              precedence};
    }
    case NodeKind::Logical: {
      auto &l = cast<Logical>(e);
      const int precedence = l.op == LogicalOp::And ? LogicalAnd : LogicalOr;
      return {wrap(expr(*l.lhs), precedence) + (l.op == LogicalOp::And ? " && " : " || ") +
                  wrap(expr(*l.rhs), precedence + 1),
              precedence};
    }
    case NodeKind::WrapIndex:
      break; // lowered to a call of pyk_wrap_index (lowerPythonOps)
    case NodeKind::Select: {
      auto &s = cast<Select>(e);
      return {wrap(expr(*s.condition), LogicalOr) + " ? " + wrap(expr(*s.thenValue), Conditional) + " : " +
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
      return {names_.extentOf(d.array, d.axis), Postfix};
    }
    case NodeKind::ArrayStride: {
      auto &d = cast<ArrayStride>(e);
      return {names_.strideOf(d.array, d.axis), Postfix};
    }
    case NodeKind::ArrayView:
      return {"/* a view outside a view local's assignment */", Postfix};
    case NodeKind::ArrayLoad: {
      auto &l = cast<ArrayLoad>(e);
      if (isChecked(l.boundsChecks))
        return {"pyk_load(" + checkedElement(l.array, l.indices, l.boundsChecks) + ")", Postfix};
      return {element(l.array, l.indices), Postfix};
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
    case NodeKind::GpuOp: {
      auto &g = cast<GpuOp>(e);
      static const char *const spelling[] = {
          "__syncthreads",     "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__threadfence_block",
          "__threadfence",     "__threadfence_system", "__syncwarp",       "__shfl_sync",      "__shfl_up_sync",
          "__shfl_down_sync",  "__shfl_xor_sync",     "__all_sync",        "__any_sync",       "__uni_sync",
          "__ballot_sync",     "__match_any_sync",    "__activemask",      "pyk_lanemask_lt"};
      if (g.op == GpuOpKind::LaneMaskLt)
        helpers_.insert(Helper::LaneMaskLt);
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
      static const Helper helpers[] = {Helper::AtomicAdd, Helper::AtomicSub,  Helper::AtomicAnd, Helper::AtomicOr,
                                       Helper::AtomicXor, Helper::AtomicMax,  Helper::AtomicMin, Helper::AtomicExch,
                                       Helper::AtomicInc, Helper::AtomicDec, Helper::AtomicCas};
      const Helper helper = helpers[static_cast<int>(a.op)];
      helpers_.insert(helper);
      if (helper != Helper::AtomicAdd && helper != Helper::AtomicSub)
        helpers_.insert(Helper::AtomicBits);
      // The element type explicitly: constants print as int, not as it.
      const std::string type = cudaScalarType(a.array->type.scalar);
      const bool checked = isChecked(a.boundsChecks);
      std::string text = std::string(helperName(helper)) + "<" + type + ">(" +
                         (checked ? "pyk_element" : "&" + element(a.array, a.indices));
      if (a.compare)
        text += ", " + expr(*a.compare).text;
      text += ", " + expr(*a.value).text + ")";
      if (checked)
        text = "pyk_on_element(" + checkedElement(a.array, a.indices, a.boundsChecks) + ", [&](" + type +
               " *pyk_element) { return " + text + "; })";
      return {text, Postfix};
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

  std::string specialReg(const SpecialReg &r) {
    if (r.reg == SpecialRegKind::LaneId) {
      helpers_.insert(Helper::LaneId);
      return std::string(helperName(Helper::LaneId)) + "()";
    }
    return std::string(specialRegName(r.reg)) + "." + "xyz"[r.axis];
  }

  Code castExpr(const Cast &c) {
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

  Code binary(const Binary &b) {
    const ScalarKind kind = b.type().scalar;
    const bool floating = isFloat(kind);
    auto infix = [&](const char *spelling, int precedence) {
      Code code{wrap(expr(*b.lhs), precedence) + spelling + wrap(expr(*b.rhs), precedence + 1), precedence};
      return narrow(b.type(), std::move(code));
    };
    auto call = [&](std::string function) {
      return Code{function + "(" + expr(*b.lhs).text + ", " + expr(*b.rhs).text + ")", Postfix};
    };
    auto helper = [&](Helper h) {
      helpers_.insert(h);
      return call(std::string(helperName(h)) + "<" + cudaScalarType(kind) + ">");
    };
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
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod: {
      const bool isMod = b.op == BinaryOp::Mod;
      if (b.divisorCheck == NoCheck)
        return helper(isMod ? (floating ? Helper::FloatMod : Helper::Mod)
                            : (floating ? Helper::FloatFloorDiv : Helper::FloorDiv));
      const Helper h = isMod ? Helper::Mod : Helper::FloorDiv;
      helpers_.insert(h);
      return {std::string(helperName(h)) + "<" + cudaScalarType(kind) + ">(" + expr(*b.lhs).text +
                  ", pyk_divisor(pyk_check, " + expr(*b.rhs).text + ", " + std::to_string(b.divisorCheck) + "u))",
              Postfix};
    }
    case BinaryOp::Pow:
      if (floating)
        return call(kind == ScalarKind::Float32 ? "powf" : "pow");
      return helper(Helper::IntPow);
    case BinaryOp::And:
      return infix(" & ", BitAnd);
    case BinaryOp::Or:
      return infix(" | ", BitOr);
    case BinaryOp::Xor:
      return infix(" ^ ", BitXor);
    case BinaryOp::Shl:
      return helper(Helper::Shl);
    case BinaryOp::Shr:
      return helper(Helper::Shr);
    case BinaryOp::Min:
      return helper(Helper::Min);
    case BinaryOp::Max:
      return helper(Helper::Max);
    }
    return {"/* unknown operator */", Postfix};
  }

  /// abs() as CUDA spells it for each type; unsigned values are their own.
  static Code absolute(ScalarKind kind, const Code &operand) {
    switch (kind) {
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

  /// C++ computes in int at least: cast results of narrower types back.
  static Code narrow(const ir::Type &type, Code code) {
    if (isInteger(type.scalar) && byteWidth(type.scalar) < 4)
      return {"(" + cudaScalarType(type.scalar) + ")(" + code.text + ")", Prefix};
    return code;
  }

  static Code constant(const Constant &c) {
    const ir::Type &type = c.type();
    switch (type.scalar) {
    case ScalarKind::Bool:
      return {c.intValue ? "true" : "false", Postfix};
    case ScalarKind::Float16:
    case ScalarKind::Float32:
    case ScalarKind::Float64:
      return floatConstant(c.floatValue, type.scalar == ScalarKind::Float64);
    case ScalarKind::UInt64:
      return {std::to_string(static_cast<uint64_t>(c.intValue)) + "ull", Postfix};
    case ScalarKind::UInt32:
      return {std::to_string(static_cast<uint64_t>(c.intValue)) + "u", Postfix};
    case ScalarKind::Int64:
      if (c.intValue == INT64_MIN)
        return {"(-9223372036854775807ll - 1)", Postfix};
      if (c.intValue < INT32_MIN || c.intValue > INT32_MAX)
        return {std::to_string(c.intValue) + "ll", c.intValue < 0 ? Prefix : Postfix};
      [[fallthrough]];
    default:
      return {std::to_string(c.intValue), c.intValue < 0 ? Prefix : Postfix};
    }
  }

public:
  /// The C++ name of the program's copy of a constant array.
  static std::string constantArrayName(const Variable &var) { return "pyk_const_" + var.constantName; }

  /// A NumPy array constant as a __constant__ array at file scope. Finite
  /// floats are written as literals; an array holding an infinity or a NaN
  /// is written as the elements' bits, which a static initialiser can hold
  /// (__int_as_float cannot be called there).
  static void constantArray(const Variable &var, llvm::raw_ostream &os) {
    const ScalarKind kind = var.type.scalar;
    bool finite = true;
    if (isFloat(kind))
      for (uint64_t bits : var.constantBits)
        finite = finite && std::isfinite(valueOfBits(bits, kind));
    const bool asBits = !finite;
    std::string element = cudaScalarType(kind);
    if (asBits)
      element = kind == ScalarKind::Float32 ? "uint32_t" : "uint64_t";
    os << "__constant__ " << element << " " << constantArrayName(var) << "[";
    for (size_t axis = 0; axis < var.fixedShape.size(); ++axis)
      os << (axis ? " * " : "") << var.fixedShape[axis];
    os << "] = {";
    for (size_t i = 0; i < var.constantBits.size(); ++i) {
      os << (i ? ", " : "") << (i % 8 == 0 ? "\n    " : "");
      const uint64_t bits = var.constantBits[i];
      if (asBits) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, kind == ScalarKind::Float32 ? "0x%08llxu" : "0x%016llxull",
                      static_cast<unsigned long long>(bits));
        os << buffer;
      } else if (isFloat(kind)) {
        os << floatConstant(valueOfBits(bits, kind), kind == ScalarKind::Float64).text;
      } else if (kind == ScalarKind::Bool) {
        os << (bits ? "true" : "false");
      } else {
        const unsigned width = byteWidth(kind) * 8;
        const bool isSigned = isSignedInteger(kind);
        int64_t value = static_cast<int64_t>(bits);
        if (isSigned && width < 64 && (bits >> (width - 1)) & 1)
          value = static_cast<int64_t>(bits | ~((uint64_t(1) << width) - 1));
        if (!isSigned)
          os << bits << (width == 64 ? "ull" : "u");
        else if (value == INT64_MIN)
          os << "(-9223372036854775807ll - 1)";
        else
          os << value << (width == 64 ? "ll" : "");
      }
    }
    os << "\n};\n";
  }

private:
  static double valueOfBits(uint64_t bits, ScalarKind kind) {
    if (kind == ScalarKind::Float32) {
      const uint32_t narrow = static_cast<uint32_t>(bits);
      float value;
      std::memcpy(&value, &narrow, sizeof value);
      return value;
    }
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }

  static Code floatConstant(double value, bool isDouble) {
    if (std::isnan(value))
      return {isDouble ? "__longlong_as_double(0x7ff8000000000000ll)" : "__int_as_float(0x7fc00000)", Postfix};
    if (std::isinf(value)) {
      std::string inf = isDouble ? "__longlong_as_double(0x7ff0000000000000ll)" : "__int_as_float(0x7f800000)";
      return value < 0 ? Code{"-" + inf, Prefix} : Code{inf, Postfix};
    }
    // The shortest text that reads back as the same value.
    std::string text;
    for (int digits = isDouble ? 15 : 6; digits <= 17; ++digits) {
      char buffer[40];
      std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
      text = buffer;
      if (isDouble ? std::strtod(buffer, nullptr) == value : std::strtof(buffer, nullptr) == float(value))
        break;
    }
    if (text.find_first_of(".e") == std::string::npos)
      text += ".0";
    if (!isDouble)
      text += "f";
    return {text, value < 0 ? Prefix : Postfix};
  }

  const Function &function_;
  const CudaEmitOptions &options_;
  llvm::raw_ostream &os_;
  std::set<Helper> &helpers_;
  NameTable names_;
  std::string quotedPath_;
  /// The module the function is in (its --index-bits).
  const Module &module_;
  /// The variables that the loops around the statement being emitted
  /// assign.
  std::set<const Variable *> loopVariables_;
  /// The blocks being emitted, innermost last: the statement being emitted
  /// and, per variable, the last statement (nested ones included) that
  /// reads it.
  struct BlockState {
    size_t current = 0;
    std::unordered_map<const Variable *, size_t> lastRead;
  };
  std::vector<BlockState> blocks_;
};

} // namespace

void emitCuda(const Module &module, const CudaEmitOptions &options, llvm::raw_ostream &os) {
  os << "// Generated by pykc " << options.compilerVersion << " from " << module.sourceName
     << ".\n// Edit the .pyk file, not this one.\n";
  os << "#include <cstdint>\n";
  bool prints = false;
  for (const auto &function : module.functions)
    forEachStmt(function->body, [&](const Stmt &s) { prints = prints || llvm::isa<Print>(s); });
  if (prints)
    os << "#include <cstdio>\n";
  // The kernels first, into a buffer, to learn which helpers they call.
  std::string kernels;
  llvm::raw_string_ostream kernelStream(kernels);
  std::set<Helper> helpers;
  for (const auto &function : module.functions) {
    kernelStream << "\n";
    FunctionEmitter(*function, module, options, kernelStream, helpers).emit();
  }
  emitHelpers(helpers, os);
  // NumPy array constants: one copy each, whichever functions read it.
  std::set<std::string> constants;
  for (const auto &function : module.functions)
    for (const Variable *var : function->variables())
      if (var->memory == Variable::Memory::Constant && constants.insert(var->constantName).second) {
        os << "\n";
        FunctionEmitter::constantArray(*var, os);
      }
  os << kernels;
}

} // namespace pyk::cuda
