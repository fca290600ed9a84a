//===- IRPrinter.cpp - Print the IR as text (--emit=ir) -------------------===//
#include "IRPrinter.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/Format.h"

#include <cmath>

namespace pyk::ir {
namespace {

using llvm::cast;

class Printer {
public:
  explicit Printer(llvm::raw_ostream &os) : os_(os) {}

  void function(const Function &f) {
    os_ << (f.kind == Function::Kind::Kernel ? "kernel " : f.inlineAlways ? "device inline " : "device ") << f.name
        << "(";
    for (size_t i = 0; i < f.params.size(); ++i) {
      const Variable &p = *f.params[i];
      os_ << (i ? ", " : "") << "%" << p.name << ": " << p.type.str();
      if (p.readOnly)
        os_ << " readonly";
    }
    os_ << ") -> ";
    if (f.results.empty()) {
      os_ << f.returnType.str();
    } else {
      os_ << "(";
      for (size_t i = 0; i < f.results.size(); ++i)
        os_ << (i ? ", " : "") << "%" << f.results[i]->name << ": " << f.results[i]->type.str();
      os_ << ")";
    }
    os_ << (f.fastMath ? " fastmath" : "") << (f.checked ? " checked" : "");
    if (f.localMemoryBytes)
      os_ << " local_bytes(" << f.localMemoryBytes << ")";
    if (f.maxThreadsPerBlock)
      os_ << " launch_bounds(" << f.maxThreadsPerBlock << ", " << f.minBlocksPerMultiprocessor << ")";
    if (f.maxRegisters)
      os_ << " max_registers(" << f.maxRegisters << ")";
    os_ << " {" << at(f.loc) << "\n";
    for (const Variable *var : f.variables()) {
      if (!var->isArrayLocal())
        continue;
      os_.indent(2) << (var->memory == Variable::Memory::Local      ? "local %"
                        : var->memory == Variable::Memory::Constant ? "constant %"
                                                                    : "shared %")
                    << var->name << ": "
                    << var->type.str() << " [";
      for (size_t axis = 0; axis < var->fixedShape.size(); ++axis)
        os_ << (axis ? ", " : "") << var->fixedShape[axis];
      os_ << (var->memory == Variable::Memory::DynamicShared ? "dynamic" : "") << "]" << at(var->range) << "\n";
    }
    block(f.body, 1);
    os_ << "}\n";
  }

  void expr(const Expr &e) {
    switch (e.kind()) {
    case NodeKind::Constant:
      return constant(cast<Constant>(e));
    case NodeKind::VarRef:
      os_ << "%" << cast<VarRef>(e).var->name;
      return;
    case NodeKind::Cast:
      os_ << "cast:" << e.type().str() << "(";
      expr(*cast<Cast>(e).operand);
      os_ << ")";
      return;
    case NodeKind::Unary: {
      auto &u = cast<Unary>(e);
      os_ << unaryOpName(u.op) << (u.mayOverflow ? ".wrap" : "") << ":" << e.type().str() << "(";
      expr(*u.operand);
      os_ << ")";
      return;
    }
    case NodeKind::Binary: {
      auto &b = cast<Binary>(e);
      os_ << binaryOpName(b.op) << (b.mayOverflow ? ".wrap" : "") << ":" << e.type().str();
      operands({b.lhs.get(), b.rhs.get()});
      checks({b.divisorCheck});
      return;
    }
    case NodeKind::DivisorCheck: {
      auto &d = cast<DivisorCheck>(e);
      os_ << "divisor";
      operands({d.divisor.get()});
      checks({d.site});
      return;
    }
    case NodeKind::Compare: {
      auto &c = cast<Compare>(e);
      os_ << compareOpName(c.op) << ":" << c.lhs->type().str();
      operands({c.lhs.get(), c.rhs.get()});
      return;
    }
    case NodeKind::Logical: {
      auto &l = cast<Logical>(e);
      os_ << (l.op == LogicalOp::And ? "and" : "or");
      operands({l.lhs.get(), l.rhs.get()});
      return;
    }
    case NodeKind::WrapIndex: {
      auto &w = cast<WrapIndex>(e);
      os_ << "wrap:" << e.type().str();
      operands({w.index.get(), w.extent.get()});
      return;
    }
    case NodeKind::ComplexMake: {
      auto &m = cast<ComplexMake>(e);
      os_ << "complex:" << e.type().str();
      operands({m.real.get(), m.imag.get()});
      return;
    }
    case NodeKind::ComplexPart: {
      auto &p = cast<ComplexPart>(e);
      os_ << (p.imag ? "imag" : "real");
      operands({p.operand.get()});
      return;
    }
    case NodeKind::Select: {
      auto &s = cast<Select>(e);
      os_ << "select:" << e.type().str();
      operands({s.condition.get(), s.thenValue.get(), s.elseValue.get()});
      return;
    }
    case NodeKind::SpecialReg: {
      auto &r = cast<SpecialReg>(e);
      os_ << specialRegName(r.reg);
      if (r.reg != SpecialRegKind::LaneId)
        os_ << "." << "xyz"[r.axis];
      return;
    }
    case NodeKind::ArrayDim: {
      auto &d = cast<ArrayDim>(e);
      os_ << "dim(%" << d.array->name << ", " << d.axis << ")";
      return;
    }
    case NodeKind::ArrayStride: {
      auto &d = cast<ArrayStride>(e);
      os_ << "stride(%" << d.array->name << ", " << d.axis << ")";
      return;
    }
    case NodeKind::ArrayView: {
      auto &v = cast<ArrayView>(e);
      os_ << "view:" << e.type().str() << " %" << v.base->name << " + ";
      expr(*v.offset);
      os_ << " shape";
      std::vector<const Expr *> extents;
      for (const ExprPtr &extent : v.extents)
        extents.push_back(extent.get());
      operands(extents);
      if (!v.strides.empty()) {
        os_ << " strides";
        std::vector<const Expr *> strides;
        for (const ExprPtr &stride : v.strides)
          strides.push_back(stride.get());
        operands(strides);
      }
      return;
    }
    case NodeKind::ArrayLoad: {
      auto &l = cast<ArrayLoad>(e);
      os_ << "load:" << e.type().str() << " %" << l.array->name;
      indices(l.indices);
      field(l.array, l.field);
      checks(l.boundsChecks);
      narrow(l.narrowOffset);
      return;
    }
    case NodeKind::MathCall: {
      auto &m = cast<MathCall>(e);
      os_ << "math." << m.name << ":" << e.type().str() << "(";
      for (size_t i = 0; i < m.args.size(); ++i) {
        os_ << (i ? ", " : "");
        expr(*m.args[i]);
      }
      os_ << ")";
      return;
    }
    case NodeKind::LibdeviceCall: {
      auto &l = cast<LibdeviceCall>(e);
      os_ << "libdevice." << l.function->name;
      if (l.output >= 0)
        os_ << ".out" << l.output;
      os_ << ":" << e.type().str() << "(";
      for (size_t i = 0; i < l.args.size(); ++i) {
        os_ << (i ? ", " : "");
        expr(*l.args[i]);
      }
      os_ << ")";
      return;
    }
    case NodeKind::GpuOp: {
      auto &g = cast<GpuOp>(e);
      os_ << gpuOpName(g.op) << "(";
      for (size_t i = 0; i < g.args.size(); ++i) {
        os_ << (i ? ", " : "");
        expr(*g.args[i]);
      }
      os_ << ")";
      return;
    }
    case NodeKind::Atomic: {
      auto &a = cast<Atomic>(e);
      os_ << "atomic." << atomicOpName(a.op) << ":" << e.type().str() << " %" << a.array->name;
      indices(a.indices);
      checks(a.boundsChecks);
      narrow(a.narrowOffset);
      if (a.compare) {
        os_ << ", ";
        expr(*a.compare);
      }
      os_ << ", ";
      expr(*a.value);
      return;
    }
    case NodeKind::CheckFailed: {
      auto &f = cast<CheckFailed>(e);
      os_ << "check_failed";
      if (!e.type().isVoid())
        os_ << ":" << e.type().str();
      os_ << " #" << f.site;
      if (f.index)
        operands({f.index.get(), f.extent.get()});
      return;
    }
    case NodeKind::Let: {
      auto &l = cast<Let>(e);
      os_ << "let(%" << l.var->name << " = ";
      expr(*l.value);
      os_ << "; ";
      expr(*l.body);
      os_ << ")";
      return;
    }
    case NodeKind::ForeignCall: {
      auto &f = cast<ForeignCall>(e);
      os_ << "foreign @" << f.function->name << ":" << e.type().str() << "(";
      for (size_t i = 0; i < f.args.size(); ++i) {
        os_ << (i ? ", " : "");
        expr(*f.args[i]);
      }
      os_ << ")";
      return;
    }
    case NodeKind::Call: {
      auto &c = cast<Call>(e);
      os_ << "call @" << c.callee->name << ":" << e.type().str() << "(";
      for (size_t i = 0; i < c.args.size(); ++i) {
        os_ << (i ? ", " : "");
        expr(*c.args[i]);
      }
      os_ << ")";
      if (!c.results.empty()) {
        os_ << " -> (";
        for (size_t i = 0; i < c.results.size(); ++i)
          os_ << (i ? ", " : "") << "%" << c.results[i]->name;
        os_ << ")";
      }
      return;
    }
#define PYK_IR_STMT(Name) case NodeKind::Name:
#include "IRNodes.def"
      break;
    }
  }

private:
  static std::string at(SourceRange loc) {
    if (!loc.isValid())
      return "";
    return "  @" + std::to_string(loc.begin.line) + ":" + std::to_string(loc.begin.column);
  }

  void constant(const Constant &c) {
    const Type &t = c.type();
    if (t.isBool()) {
      os_ << (c.intValue ? "true" : "false");
      return;
    }
    if (isFloat(t.scalar)) {
      if (std::isnan(c.floatValue))
        os_ << "nan";
      else if (std::isinf(c.floatValue))
        os_ << (c.floatValue < 0 ? "-inf" : "inf");
      else
        os_ << llvm::format("%.17g", c.floatValue);
    } else if (isUnsignedInteger(t.scalar)) {
      os_ << static_cast<uint64_t>(c.intValue);
    } else {
      os_ << c.intValue;
    }
    os_ << ":" << t.str();
  }

  void operands(std::initializer_list<const Expr *> list) { operands(std::vector<const Expr *>(list)); }
  void operands(const std::vector<const Expr *> &list) {
    os_ << "(";
    bool first = true;
    for (const Expr *e : list) {
      os_ << (first ? "" : ", ");
      expr(*e);
      first = false;
    }
    os_ << ")";
  }

  void indices(const std::vector<ExprPtr> &list) {
    os_ << "[";
    for (size_t i = 0; i < list.size(); ++i) {
      os_ << (i ? ", " : "");
      expr(*list[i]);
    }
    os_ << "]";
  }

  /// The field of a record accessed: ".x".
  void field(const Variable *array, int field) {
    if (field >= 0 && array->type.record && static_cast<size_t>(field) < array->type.record->fields.size())
      os_ << "." << array->type.record->fields[static_cast<size_t>(field)].name;
  }

  /// Checked mode: " check(#3, -, #4)", one entry per check (NoCheck: "-").
  /// pykc --index-bits=32: an element offset computed in 32 bits.
  void narrow(bool narrowOffset) {
    if (narrowOffset)
      os_ << " offset32";
  }

  void checks(const std::vector<CheckSiteId> &sites) {
    if (sites.empty() || (sites.size() == 1 && sites[0] == NoCheck))
      return;
    os_ << " check(";
    for (size_t i = 0; i < sites.size(); ++i) {
      os_ << (i ? ", " : "");
      if (sites[i] == NoCheck)
        os_ << "-";
      else
        os_ << "#" << sites[i];
    }
    os_ << ")";
  }

  void block(const StmtList &body, unsigned depth) {
    for (const StmtPtr &s : body)
      stmt(*s, depth);
  }

  void stmt(const Stmt &s, unsigned depth) {
    os_.indent(depth * 2);
    switch (s.kind()) {
    case NodeKind::Declare: {
      auto &d = cast<Declare>(s);
      os_ << "decl %" << d.var->name << ": " << d.var->type.str();
      if (d.init) {
        os_ << " = ";
        expr(*d.init);
      }
      break;
    }
    case NodeKind::Assign: {
      auto &a = cast<Assign>(s);
      os_ << "%" << a.var->name << " = ";
      expr(*a.value);
      break;
    }
    case NodeKind::ArrayStore: {
      auto &st = cast<ArrayStore>(s);
      os_ << "store %" << st.array->name;
      indices(st.indices);
      field(st.array, st.field);
      checks(st.boundsChecks);
      narrow(st.narrowOffset);
      os_ << " = ";
      expr(*st.value);
      break;
    }
    case NodeKind::If: {
      const If *i = &cast<If>(s);
      os_ << "if ";
      expr(*i->condition);
      os_ << " {" << at(s.loc()) << "\n";
      block(i->thenBody, depth + 1);
      for (; const If *next = i->elseIf(); i = next) {
        os_.indent(depth * 2) << "} else if ";
        expr(*next->condition);
        os_ << " {" << at(next->loc()) << "\n";
        block(next->thenBody, depth + 1);
      }
      if (!i->elseBody.empty()) {
        os_.indent(depth * 2) << "} else {\n";
        block(i->elseBody, depth + 1);
      }
      os_.indent(depth * 2) << "}\n";
      return;
    }
    case NodeKind::While: {
      auto &loop = cast<While>(s);
      os_ << "while ";
      expr(*loop.condition);
      os_ << " {" << at(s.loc()) << "\n";
      block(loop.body, depth + 1);
      os_.indent(depth * 2) << "}\n";
      return;
    }
    case NodeKind::ForRange: {
      auto &loop = cast<ForRange>(s);
      os_ << "for %" << loop.var->name << ": " << loop.var->type.str() << " = ";
      expr(*loop.start);
      os_ << " to ";
      expr(*loop.stop);
      os_ << " step ";
      expr(*loop.step);
      if (loop.tripCount) {
        os_ << " trips ";
        expr(*loop.tripCount);
      }
      os_ << " {" << at(s.loc()) << "\n";
      block(loop.body, depth + 1);
      os_.indent(depth * 2) << "}\n";
      return;
    }
    case NodeKind::Print: {
      os_ << "print \"";
      os_.write_escaped(cast<Print>(s).format());
      os_ << "\"";
      for (const Print::Part &part : cast<Print>(s).parts)
        if (part.value) {
          os_ << ", ";
          expr(*part.value);
        }
      break;
    }
    case NodeKind::Break:
      os_ << "break";
      break;
    case NodeKind::Continue:
      os_ << "continue";
      break;
    case NodeKind::Evaluate:
      expr(*cast<Evaluate>(s).call);
      break;
    case NodeKind::Assert:
      os_ << "assert ";
      expr(*cast<Assert>(s).condition);
      checks({cast<Assert>(s).check});
      break;
    case NodeKind::Return:
      os_ << "return";
      if (const ExprPtr &value = cast<Return>(s).value) {
        os_ << " ";
        expr(*value);
      }
      break;
#define PYK_IR_EXPR(Name) case NodeKind::Name:
#include "IRNodes.def"
      os_ << "<" << nodeKindName(s.kind()) << ">";
      break;
    }
    os_ << at(s.loc()) << "\n";
  }

  llvm::raw_ostream &os_;
};

} // namespace

void printModule(const Module &module, llvm::raw_ostream &os) {
  os << "// pyk IR of " << module.sourceName << "\n";
  for (const auto &f : module.functions)
    Printer(os).function(*f);
  static const char *const kindNames[] = {"bounds", "division by zero", "modulo by zero", "assertion"};
  for (size_t id = 0; id < module.checkSites.size(); ++id) {
    const CheckSite &site = module.checkSites[id];
    os << "// check #" << id << ": " << kindNames[static_cast<int>(site.kind)] << " at " << site.loc.begin.line << ":"
       << site.loc.begin.column;
    if (site.kind == CheckSite::Kind::Bounds)
      os << ", axis " << site.axis << " of '" << site.array << "'";
    if (site.kind == CheckSite::Kind::Assertion)
      os << ": " << site.message;
    os << "\n";
  }
}

void printExpr(const Expr &expr, llvm::raw_ostream &os) { Printer(os).expr(expr); }

} // namespace pyk::ir
