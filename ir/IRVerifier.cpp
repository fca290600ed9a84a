//===- IRVerifier.cpp - Check the IR's invariants -------------------------===//
#include "IRVerifier.h"

#include "IRPrinter.h"
#include "passes/LowerFloat16.h"

#include "llvm/Support/Casting.h"

#include <set>
#include <string>
#include <vector>

namespace pyk::ir {
namespace {

using llvm::cast;

class Verifier {
public:
  /// `definedBefore`: the functions earlier in the module, the only ones
  /// `f` may call.
  Verifier(const Function &f, const std::set<const Function *> &definedBefore, IRStage stage)
      : function_(f), definedBefore_(definedBefore), stage_(stage) {}

  void run() {
    scopes_.emplace_back(function_.params.begin(), function_.params.end());
    scopes_.back().insert(function_.results.begin(), function_.results.end());
    if (!function_.results.empty() && (!function_.returnType.isVoid() || function_.kind != Function::Kind::Device))
      problems.push_back(function_.name + ": only a device function that returns nothing has results");
    for (const Variable *result : function_.results)
      if (!result->type.isScalar())
        problems.push_back(function_.name + ": result '" + result->name + "' is not a scalar");
    // Array locals exist for the whole function.
    for (const Variable *var : function_.variables())
      if (var->isArrayLocal()) {
        const size_t rank = var->memory == Variable::Memory::DynamicShared ? 0 : var->type.rank;
        if (!var->type.isArray() || var->fixedShape.size() != rank)
          problems.push_back(function_.name + ": array local '" + var->name + "' has no shape of its rank");
        scopes_.back().insert(var);
      }
    block(function_.body);
  }

  std::vector<std::string> problems;

private:
  void fail(const Node &node, const std::string &what) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << function_.name << ":" << node.loc().begin.line << ":" << node.loc().begin.column << ": "
       << nodeKindName(node.kind()) << ": " << what;
    problems.push_back(os.str());
  }

  /// An operation on a value of type `operand`: on complex values only
  /// those `allowedOnComplex` (and none once lowerComplex has run);
  /// `complexOnly` ones only on them.
  void complexOperation(const Node &node, const Type &operand, bool allowedOnComplex, bool complexOnly) {
    const bool complex = operand.isScalar() && isComplex(operand.scalar);
    if (complex && !allowedOnComplex)
      fail(node, "an operation complex numbers do not have");
    else if (complex && stage_ == IRStage::Lowered)
      fail(node, "a complex operation left after lowerComplex");
    else if (!complex && complexOnly)
      fail(node, "a complex operation on " + operand.str());
  }

  bool inScope(const Variable *var) const {
    for (const auto &scope : scopes_)
      if (scope.count(var))
        return true;
    return false;
  }

  void requireType(const Node &node, const Expr &operand, const Type &expected, const char *role) {
    if (operand.type() != expected)
      fail(node, std::string(role) + " has type " + operand.type().str() + ", expected " + expected.str());
  }

  void indices(const Node &node, const Variable *array, const std::vector<ExprPtr> &list) {
    if (!array->type.isArray()) {
      fail(node, "'" + array->name + "' is not an array");
      return;
    }
    if (list.size() != array->type.rank)
      fail(node, "array of rank " + std::to_string(array->type.rank) + " indexed with " +
                     std::to_string(list.size()) + " indices");
    for (const ExprPtr &index : list) {
      expr(*index);
      requireType(node, *index, Type::scalarType(ScalarKind::Int64), "index");
    }
  }

  /// An access of an array of records names one of its fields; an access
  /// of another array names none.
  void field(const Node &node, const Variable *array, int field) {
    const RecordType *record = array->type.record;
    if (!record && field != -1)
      fail(node, "a field of '" + array->name + "', which is not an array of records");
    if (record && (field < 0 || static_cast<size_t>(field) >= record->fields.size()))
      fail(node, "an element of the array of records '" + array->name + "' accessed without a field of it");
  }

  /// Checked mode: none, or one site per axis.
  void boundsChecks(const Node &node, const std::vector<CheckSiteId> &sites, size_t rank) {
    if (!sites.empty() && sites.size() != rank)
      fail(node, std::to_string(sites.size()) + " bounds checks for " + std::to_string(rank) + " indices");
    if (!sites.empty() && !function_.checked)
      fail(node, "a bounds check in an unchecked function");
    if (!sites.empty() && stage_ == IRStage::Lowered)
      fail(node, "bounds checks left after insertChecks");
  }

  void expr(const Expr &e) {
    switch (e.kind()) {
    case NodeKind::Constant:
      if (!e.type().isScalar())
        fail(e, "constant of non-scalar type");
      else if (isComplex(e.type().scalar))
        fail(e, "a complex constant (complex values are made by ComplexMake)");
      return;
    case NodeKind::VarRef: {
      const Variable *var = cast<VarRef>(e).var;
      if (!var->type.isScalar())
        fail(e, "reference to non-scalar '" + var->name + "'");
      if (!inScope(var))
        fail(e, "'" + var->name + "' used outside the scope of its declaration");
      return;
    }
    case NodeKind::Cast: {
      auto &c = cast<Cast>(e);
      expr(*c.operand);
      if (!c.operand->type().isScalar() || !e.type().isScalar())
        fail(e, "cast between non-scalars");
      else if (stage_ == IRStage::Lowered && !isBackendConversion(c.operand->type().scalar, e.type().scalar))
        fail(e, "a 16-bit float's conversion not through float32 left after lowerFloat16");
      else if (isComplex(c.operand->type().scalar) && !isComplex(e.type().scalar))
        fail(e, "a complex value converted to a real type");
      else if (stage_ == IRStage::Lowered && isComplex(e.type().scalar))
        fail(e, "a conversion to a complex type left after lowerComplex");
      return;
    }
    case NodeKind::Unary: {
      auto &u = cast<Unary>(e);
      expr(*u.operand);
      if (u.op == UnaryOp::Not && !e.type().isBool())
        fail(e, "'not' on a non-bool");
      if ((u.op == UnaryOp::Neg || u.op == UnaryOp::Abs) && (!e.type().isScalar() || e.type().isBool()))
        fail(e, "negation of a non-number");
      if (u.op == UnaryOp::BitNot && (!e.type().isScalar() || isFloat(e.type().scalar)))
        fail(e, "bitnot of a non-integer");
      if (u.op == UnaryOp::Round && (!e.type().isScalar() || !isFloat(e.type().scalar)))
        fail(e, "round of a non-float");
      complexOperation(e, u.operand->type(), u.op == UnaryOp::Neg || u.op == UnaryOp::Abs || u.op == UnaryOp::Conj,
                       u.op == UnaryOp::Conj);
      if (u.op == UnaryOp::Abs && isComplex(u.operand->type().scalar))
        requireType(e, e, Type::scalarType(complexPart(u.operand->type().scalar)), "abs of a complex number");
      else if (u.op != UnaryOp::Not)
        requireType(e, e, u.operand->type(), "result");
      if (stage_ == IRStage::Lowered && e.type().isScalar() &&
          (e.type().scalar == ScalarKind::BFloat16 || (u.op == UnaryOp::Round && isNarrowFloat(e.type().scalar))))
        fail(e, "a 16-bit float's unary operation left after lowerFloat16");
      return;
    }
    case NodeKind::WrapIndex: {
      auto &w = cast<WrapIndex>(e);
      if (stage_ == IRStage::Lowered)
        fail(e, "Python's negative index left after lowerPythonOps");
      expr(*w.index);
      expr(*w.extent);
      const Type int64 = Type::scalarType(ScalarKind::Int64);
      requireType(e, *w.index, int64, "index");
      requireType(e, *w.extent, int64, "extent");
      return;
    }
    case NodeKind::Binary: {
      auto &b = cast<Binary>(e);
      expr(*b.lhs);
      expr(*b.rhs);
      requireType(e, *b.lhs, e.type(), "lhs");
      requireType(e, *b.rhs, e.type(), "rhs");
      const bool bitwise = b.op == BinaryOp::And || b.op == BinaryOp::Or || b.op == BinaryOp::Xor;
      const bool onBools = bitwise || b.op == BinaryOp::Min || b.op == BinaryOp::Max;
      const bool python = isPythonOperation(b.op);
      const bool integersOnly = b.op == BinaryOp::CDiv || b.op == BinaryOp::CRem || b.op == BinaryOp::CShl ||
                                b.op == BinaryOp::CShr || b.op == BinaryOp::Shl || b.op == BinaryOp::Shr;
      if (python && stage_ == IRStage::Lowered)
        fail(e, std::string("Python's ") + binaryOpName(b.op) + " left after lowerPythonOps");
      if (!python && b.divisorCheck != NoCheck)
        fail(e, std::string("a divisor check on ") + binaryOpName(b.op));
      if (!e.type().isScalar() || (e.type().isBool() && !onBools))
        fail(e, "arithmetic on " + e.type().str());
      if (stage_ == IRStage::Lowered && e.type().scalar == ScalarKind::BFloat16)
        fail(e, "bfloat16 arithmetic left after lowerFloat16");
      complexOperation(e, e.type(),
                       b.op == BinaryOp::Add || b.op == BinaryOp::Sub || b.op == BinaryOp::Mul ||
                           b.op == BinaryOp::Div || b.op == BinaryOp::Pow,
                       false);
      if (b.op == BinaryOp::Div && !isFloat(e.type().scalar) && !isComplex(e.type().scalar))
        fail(e, "div on a non-float type");
      if ((bitwise || integersOnly) && isFloat(e.type().scalar))
        fail(e, std::string(binaryOpName(b.op)) + " on a float type");
      return;
    }
    case NodeKind::DivisorCheck: {
      auto &d = cast<DivisorCheck>(e);
      if (stage_ == IRStage::Lowered)
        fail(e, "a divisor check left after insertChecks");
      expr(*d.divisor);
      if (!e.type().isScalar() || !isInteger(e.type().scalar) || e.type().isBool())
        fail(e, "a divisor check of a non-integer");
      return;
    }
    case NodeKind::Compare: {
      auto &c = cast<Compare>(e);
      expr(*c.lhs);
      expr(*c.rhs);
      requireType(e, *c.rhs, c.lhs->type(), "rhs");
      complexOperation(e, c.lhs->type(), c.op == CompareOp::Eq || c.op == CompareOp::Ne, false);
      if (stage_ == IRStage::Lowered && c.lhs->type().scalar == ScalarKind::BFloat16)
        fail(e, "a bfloat16 comparison left after lowerFloat16");
      return;
    }
    case NodeKind::Logical: {
      auto &l = cast<Logical>(e);
      expr(*l.lhs);
      expr(*l.rhs);
      requireType(e, *l.lhs, Type::scalarType(ScalarKind::Bool), "lhs");
      requireType(e, *l.rhs, Type::scalarType(ScalarKind::Bool), "rhs");
      return;
    }
    case NodeKind::Select: {
      auto &s = cast<Select>(e);
      expr(*s.condition);
      expr(*s.thenValue);
      expr(*s.elseValue);
      requireType(e, *s.condition, Type::scalarType(ScalarKind::Bool), "condition");
      requireType(e, *s.elseValue, e.type(), "else value");
      return;
    }
    case NodeKind::ComplexMake: {
      auto &m = cast<ComplexMake>(e);
      expr(*m.real);
      expr(*m.imag);
      if (!e.type().isScalar() || !isComplex(e.type().scalar)) {
        fail(e, "a complex value of a non-complex type");
        return;
      }
      requireType(e, *m.real, Type::scalarType(complexPart(e.type().scalar)), "real part");
      requireType(e, *m.imag, Type::scalarType(complexPart(e.type().scalar)), "imaginary part");
      return;
    }
    case NodeKind::ComplexPart: {
      auto &p = cast<ComplexPart>(e);
      expr(*p.operand);
      if (!p.operand->type().isScalar() || !isComplex(p.operand->type().scalar))
        fail(e, "a part of a value that is not complex");
      return;
    }
    case NodeKind::SpecialReg:
      if (cast<SpecialReg>(e).axis > (cast<SpecialReg>(e).reg == SpecialRegKind::LaneId ? 0u : 2u))
        fail(e, "axis out of range");
      return;
    case NodeKind::ArrayDim: {
      auto &d = cast<ArrayDim>(e);
      if (!d.array->type.isArray() || d.axis >= d.array->type.rank)
        fail(e, "dim of a non-array or axis out of range");
      return;
    }
    case NodeKind::ArrayStride: {
      auto &d = cast<ArrayStride>(e);
      if (!d.array->type.isArray() || d.array->type.contiguous || d.axis >= d.array->type.rank)
        fail(e, "stride of a non-array, of a contiguous array, or of an axis out of range");
      return;
    }
    case NodeKind::ArrayView:
      fail(e, "a view outside the value of a view local's declaration or assignment");
      return;
    case NodeKind::ArrayLoad: {
      auto &l = cast<ArrayLoad>(e);
      boundsChecks(e, l.boundsChecks, l.indices.size());
      indices(e, l.array, l.indices);
      field(e, l.array, l.field);
      return;
    }
    case NodeKind::MathCall: {
      auto &m = cast<MathCall>(e);
      if (!e.type().isScalar() || !isFloat(e.type().scalar))
        fail(e, "math function of a non-float type");
      if (stage_ == IRStage::Lowered && isNarrowFloat(e.type().scalar))
        fail(e, "a 16-bit float's math function left after lowerFloat16");
      for (size_t i = 0; i < m.args.size(); ++i) {
        expr(*m.args[i]);
        const bool exponent = m.name == "ldexp" && i == 1;
        requireType(e, *m.args[i], exponent ? Type::scalarType(ScalarKind::Int32) : e.type(), "argument");
      }
      return;
    }
    case NodeKind::LibdeviceCall: {
      auto &l = cast<LibdeviceCall>(e);
      const LibdeviceFunction &function = *l.function;
      if (l.args.size() != function.params.size()) {
        fail(e, "libdevice call with the wrong number of arguments");
        return;
      }
      for (size_t i = 0; i < l.args.size(); ++i) {
        expr(*l.args[i]);
        requireType(e, *l.args[i], Type::scalarType(function.params[i].kind), "argument");
      }
      const bool known = l.output < 0 ? function.result.has_value() : size_t(l.output) < function.outputs.size();
      if (!known)
        fail(e, "libdevice call of a value its function does not give");
      else if (e.type() != Type::scalarType(l.output < 0 ? function.result->kind : function.outputs[l.output].kind))
        fail(e, "libdevice call of a type other than its function's");
      return;
    }
    case NodeKind::Call:
      return call(cast<Call>(e));
    case NodeKind::ForeignCall: {
      auto &f = cast<ForeignCall>(e);
      if (f.args.size() != f.function->params.size()) {
        fail(e, "foreign call with the wrong number of arguments");
        return;
      }
      for (size_t i = 0; i < f.args.size(); ++i) {
        expr(*f.args[i]);
        requireType(e, *f.args[i], f.function->params[i], "argument");
      }
      return;
    }
    case NodeKind::GpuOp: {
      auto &g = cast<GpuOp>(e);
      for (const ExprPtr &arg : g.args)
        expr(*arg);
      const Type i32 = Type::scalarType(ScalarKind::Int32), u32 = Type::scalarType(ScalarKind::UInt32);
      const Type boolType = Type::scalarType(ScalarKind::Bool);
      std::vector<Type> operands;
      Type result = Type::voidType();
      switch (g.op) {
      case GpuOpKind::SyncThreadsCount:
      case GpuOpKind::SyncThreadsAnd:
      case GpuOpKind::SyncThreadsOr:
        operands = {i32};
        result = i32;
        break;
      case GpuOpKind::SyncWarp:
      case GpuOpKind::Nanosleep:
        operands = {u32};
        break;
      case GpuOpKind::GridSync: {
        operands = {Type::scalarType(ScalarKind::UInt64)};
        auto *barrier = g.args.size() == 1 ? llvm::dyn_cast<VarRef>(g.args[0].get()) : nullptr;
        if (!barrier || !function_.gridBarrier || barrier->var != function_.gridBarrier)
          fail(e, "grid_sync of something other than its function's grid barrier");
        break;
      }
      case GpuOpKind::ShflIdx:
      case GpuOpKind::ShflUp:
      case GpuOpKind::ShflDown:
      case GpuOpKind::ShflXor:
        operands = {u32, e.type(), i32};
        result = e.type();
        break;
      case GpuOpKind::VoteAll:
      case GpuOpKind::VoteAny:
      case GpuOpKind::VoteEq:
      case GpuOpKind::Ballot:
        operands = {u32, boolType};
        result = g.op == GpuOpKind::Ballot ? u32 : boolType;
        break;
      case GpuOpKind::MatchAny:
      case GpuOpKind::MatchAll:
        operands = {u32, g.args.size() == 2 ? g.args[1]->type() : i32};
        result = u32;
        break;
      case GpuOpKind::ActiveMask:
      case GpuOpKind::LaneMaskLt:
        result = u32;
        break;
      default:
        break;
      }
      if (g.args.size() != operands.size()) {
        fail(e, "wrong number of operands");
        return;
      }
      for (size_t i = 0; i < operands.size(); ++i)
        requireType(e, *g.args[i], operands[i], "operand");
      requireType(e, e, result, "result");
      return;
    }
    case NodeKind::Atomic: {
      auto &a = cast<Atomic>(e);
      indices(e, a.array, a.indices);
      boundsChecks(e, a.boundsChecks, a.indices.size());
      field(e, a.array, -1);
      const Type element = Type::scalarType(a.array->type.scalar);
      for (const Expr *operand : {a.compare.get(), a.value.get()}) {
        if (!operand)
          continue;
        expr(*operand);
        requireType(e, *operand, element, "operand");
      }
      if ((a.op == AtomicOp::Cas) != (a.compare != nullptr))
        fail(e, "a compare operand is for cas alone");
      return;
    }
    case NodeKind::CheckFailed: {
      auto &f = cast<CheckFailed>(e);
      if (!function_.checked)
        fail(e, "a failed check in an unchecked function");
      if (e.type().isArray())
        fail(e, "a failed check of array type");
      if ((f.index == nullptr) != (f.extent == nullptr))
        fail(e, "a failed check with an index but no extent, or the reverse");
      for (const Expr *part : {f.index.get(), f.extent.get()})
        if (part) {
          expr(*part);
          requireType(e, *part, Type::scalarType(ScalarKind::Int64), "failed check's index or extent");
        }
      return;
    }
    case NodeKind::Let: {
      auto &l = cast<Let>(e);
      if (!l.var->hidden || l.var->kind != Variable::Kind::Local || !l.var->type.isScalar() || inScope(l.var))
        fail(e, "let of '" + l.var->name + "', which is not a hidden scalar local out of scope");
      expr(*l.value);
      requireType(e, *l.value, l.var->type, "let value");
      scopes_.push_back({l.var});
      expr(*l.body);
      scopes_.pop_back();
      return;
    }
#define PYK_IR_STMT(Name) case NodeKind::Name:
#include "IRNodes.def"
      fail(e, "statement used as an expression");
      return;
    }
  }

  void call(const Call &c) {
    const Function &callee = *c.callee;
    if (callee.kind != Function::Kind::Device || !definedBefore_.count(&callee))
      fail(c, "calls '" + callee.name + "', which is not a device function defined before '" + function_.name + "'");
    if (c.type() != callee.returnType)
      fail(c, "has type " + c.type().str() + " but '" + callee.name + "' returns " + callee.returnType.str());
    if (c.args.size() != callee.params.size()) {
      fail(c, "passes " + std::to_string(c.args.size()) + " arguments to '" + callee.name + "', which takes " +
                  std::to_string(callee.params.size()));
      return;
    }
    for (size_t i = 0; i < c.args.size(); ++i) {
      const Expr &arg = *c.args[i];
      // An array is passed as the variable itself.
      auto *ref = llvm::dyn_cast<VarRef>(&arg);
      if (ref && ref->var->type.isArray()) {
        if (!inScope(ref->var))
          fail(c, "'" + ref->var->name + "' used outside the scope of its declaration");
      } else {
        expr(arg);
      }
      requireType(c, arg, callee.params[i]->type, "argument");
    }
    if (c.results.size() != callee.results.size()) {
      fail(c, "receives " + std::to_string(c.results.size()) + " results of '" + callee.name + "', which gives " +
                  std::to_string(callee.results.size()));
      return;
    }
    for (size_t i = 0; i < c.results.size(); ++i) {
      const Variable *target = c.results[i];
      if (target->kind != Variable::Kind::Local || target->memory != Variable::Memory::Global || !inScope(target))
        fail(c, "writes a result of '" + callee.name + "' to '" + target->name + "', which is not a local in scope");
      else if (target->type != callee.results[i]->type)
        fail(c, "writes a " + callee.results[i]->type.str() + " result of '" + callee.name + "' to '" +
                    target->name + "', a " + target->type.str());
    }
  }

  /// A view local takes an ArrayView of an array in scope, with one int64
  /// extent per axis and, when strided, one int64 stride per axis.
  void viewValue(const Stmt &s, const Variable &var, const Expr &value) {
    auto *view = llvm::dyn_cast<ArrayView>(&value);
    if (!var.isView() || !view || var.kind != Variable::Kind::Local) {
      fail(s, "'" + var.name + "' is not a view local given an ArrayView");
      return;
    }
    const Type i64 = Type::scalarType(ScalarKind::Int64);
    if (!view->base->type.isArray() || !inScope(view->base))
      fail(s, "a view of '" + view->base->name + "', which is not an array in scope");
    expr(*view->offset);
    requireType(s, *view->offset, i64, "view offset");
    if (view->extents.size() != var.type.rank || view->strides.size() != (var.type.contiguous ? 0 : var.type.rank))
      fail(s, "a view with the wrong number of extents or strides for " + var.type.str());
    for (const auto *list : {&view->extents, &view->strides})
      for (const ExprPtr &part : *list) {
        expr(*part);
        requireType(s, *part, i64, "view extent or stride");
      }
  }

  void block(const StmtList &body) {
    scopes_.emplace_back();
    for (const StmtPtr &s : body)
      stmt(*s);
    scopes_.pop_back();
  }

  void stmt(const Stmt &s) {
    switch (s.kind()) {
    case NodeKind::Declare: {
      auto &d = cast<Declare>(s);
      if (d.var->isView() || (d.init && llvm::isa<ArrayView>(*d.init))) {
        if (d.init)
          viewValue(s, *d.var, *d.init);
      } else if (d.init) {
        expr(*d.init);
        requireType(s, *d.init, d.var->type, "initial value");
      }
      if (d.var->kind != Variable::Kind::Local || inScope(d.var))
        fail(s, "'" + d.var->name + "' declared twice or not a local");
      scopes_.back().insert(d.var);
      return;
    }
    case NodeKind::Assign: {
      auto &a = cast<Assign>(s);
      if (a.var->isView() || llvm::isa<ArrayView>(*a.value))
        viewValue(s, *a.var, *a.value);
      else
        expr(*a.value);
      requireType(s, *a.value, a.var->type, "value");
      if (!inScope(a.var))
        fail(s, "assignment to undeclared '" + a.var->name + "'");
      return;
    }
    case NodeKind::ArrayStore: {
      auto &st = cast<ArrayStore>(s);
      boundsChecks(s, st.boundsChecks, st.indices.size());
      indices(s, st.array, st.indices);
      field(s, st.array, st.field);
      expr(*st.value);
      if ((st.field == -1) == (st.array->type.record == nullptr) &&
          (st.field == -1 || static_cast<size_t>(st.field) < st.array->type.record->fields.size()))
        requireType(s, *st.value, elementType(st.array->type, st.field), "stored value");
      return;
    }
    case NodeKind::If: {
      auto &i = cast<If>(s);
      expr(*i.condition);
      requireType(s, *i.condition, Type::scalarType(ScalarKind::Bool), "condition");
      block(i.thenBody);
      block(i.elseBody);
      return;
    }
    case NodeKind::While: {
      auto &loop = cast<While>(s);
      expr(*loop.condition);
      requireType(s, *loop.condition, Type::scalarType(ScalarKind::Bool), "condition");
      ++loopDepth_;
      block(loop.body);
      --loopDepth_;
      return;
    }
    case NodeKind::ForRange: {
      auto &loop = cast<ForRange>(s);
      for (const Expr *bound : {loop.start.get(), loop.stop.get(), loop.step.get()}) {
        expr(*bound);
        requireType(s, *bound, loop.var->type, "range bound");
      }
      if (!loop.var->type.isScalar() || !isInteger(loop.var->type.scalar))
        fail(s, "the loop variable is not an integer");
      if (loop.var->kind != Variable::Kind::Local || inScope(loop.var))
        fail(s, "'" + loop.var->name + "' is declared already; a loop declares its variable");
      scopes_.push_back({loop.var});
      if (loop.tripCount) {
        expr(*loop.tripCount);
        const ScalarKind kind = loop.tripCount->type().scalar;
        if (!loop.tripCount->type().isScalar() || !isUnsignedInteger(kind) ||
            byteWidth(kind) != byteWidth(loop.var->type.scalar))
          fail(s, "a trip count that is not the unsigned type of the counter's width");
      } else if (!loop.hasUnitStep() && stage_ == IRStage::Lowered) {
        fail(s, "a range with a step other than 1 and no trip count after lowerPythonOps");
      }
      ++loopDepth_;
      block(loop.body);
      --loopDepth_;
      scopes_.pop_back();
      return;
    }
    case NodeKind::Print:
      for (const Print::Part &part : cast<Print>(s).parts)
        if (part.value) {
          expr(*part.value);
          if (!part.value->type().isScalar())
            fail(s, "printing a non-scalar");
          else if (stage_ == IRStage::Lowered && isNarrowFloat(part.value->type().scalar))
            fail(s, "printing a 16-bit float left after lowerFloat16");
        }
      return;
    case NodeKind::Break:
    case NodeKind::Continue:
      if (loopDepth_ == 0)
        fail(s, "outside a loop");
      return;
    case NodeKind::Evaluate: {
      const Expr &evaluated = *cast<Evaluate>(s).call;
      if (!llvm::isa<Call, GpuOp, Atomic, CheckFailed>(evaluated))
        fail(s, "evaluates an expression without effects");
      expr(evaluated);
      return;
    }
    case NodeKind::Assert:
      if (stage_ == IRStage::Lowered)
        fail(s, "an assert left after insertChecks");
      expr(*cast<Assert>(s).condition);
      requireType(s, *cast<Assert>(s).condition, Type::scalarType(ScalarKind::Bool), "assert condition");
      return;
    case NodeKind::Return: {
      const ExprPtr &value = cast<Return>(s).value;
      if (function_.kind == Function::Kind::Kernel && value)
        fail(s, "a kernel returns a value");
      if (!value && !function_.returnType.isVoid())
        fail(s, "return without a value in a function returning " + function_.returnType.str());
      if (value) {
        expr(*value);
        requireType(s, *value, function_.returnType, "returned value");
      }
      return;
    }
#define PYK_IR_EXPR(Name) case NodeKind::Name:
#include "IRNodes.def"
      fail(s, "expression used as a statement");
      return;
    }
  }

  const Function &function_;
  const std::set<const Function *> &definedBefore_;
  IRStage stage_;
  std::vector<std::set<const Variable *>> scopes_;
  unsigned loopDepth_ = 0;
};

} // namespace

llvm::Error verifyModule(const Module &module, IRStage stage) {
  std::string report;
  std::set<const Function *> definedBefore;
  for (const auto &function : module.functions) {
    Verifier verifier(*function, definedBefore, stage);
    verifier.run();
    definedBefore.insert(function.get());
    for (const std::string &problem : verifier.problems)
      report += (report.empty() ? "" : "\n") + problem;
  }
  if (report.empty())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "IR verification failed:\n" + report);
}

} // namespace pyk::ir
