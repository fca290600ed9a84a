//===- ASTToIR.cpp - Lower a checked AST to the IR ------------------------===//
//
// Algorithm:
//  1. Take the kernels and the device functions they call, callees first,
//     and create each Function with a Variable for each parameter.
//  2. Per function, find, in evaluation order, each local's first use. A local whose first
//     use is an assignment directly in the function body is declared there
//     (`decl x = v`); any other is declared, zero-initialised, at the top of
//     the function, so that it is in scope wherever Python lets it be used.
//  3. Lower statements and expressions one to one. Operand conversions that
//     Sema decided (Expr::type, BinaryExpr::operandType, ...) become Casts;
//     casts of constants fold into constants of the target type.
//
//===----------------------------------------------------------------------===//
#include "ASTToIR.h"

#include "ASTWalk.h"
#include "IRWalk.h"
#include "SymbolNames.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace pyk::ir {
namespace {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

Type toIRType(const pyk::Type *type) {
  assert(type && !type->isError() && "lowering an expression Sema did not type");
  if (type->isScalar())
    return Type::scalarType(type->scalarKind());
  if (type->isArray())
    return Type::arrayType(type->scalarKind(), type->rank());
  assert(type->isVoid() && "tuples do not survive lowering");
  return Type::voidType();
}

/// Step 2: the locals whose first use is an assignment in the function's
/// own body, rather than nested in a block or preceded by a read.
class FirstUseFinder {
public:
  std::set<const Symbol *> declaredInline;

  void body(const ast::StmtList &stmts) {
    for (const ast::StmtPtr &s : stmts)
      stmt(*s, /*topLevel=*/true);
  }

  /// Locals used only as the variable of `for` loops (and in those loops'
  /// bodies): each loop declares them, in its own scope.
  std::set<const Symbol *> loopScoped() const {
    std::set<const Symbol *> result;
    for (const auto &[symbol, count] : references_) {
      auto it = referencesInOwnLoops_.find(symbol);
      if (it != referencesInOwnLoops_.end() && it->second == count)
        result.insert(symbol);
    }
    return result;
  }

private:
  void note(const ast::NameExpr &name) {
    ++references_[name.symbol];
    for (const Symbol *loopVariable : enclosingLoopVariables_)
      if (loopVariable == name.symbol) {
        ++referencesInOwnLoops_[name.symbol];
        break;
      }
  }

  void use(const ast::Expr &e) {
    if (auto *name = dyn_cast<ast::NameExpr>(&e)) {
      if (name->symbol && name->symbol->kind == SymbolKind::Local) {
        seen_.insert(name->symbol);
        note(*name);
      }
      return;
    }
    ast::forEachChild(e, [&](const ast::Expr &child) { use(child); });
  }

  void assign(const ast::Expr &target, bool topLevel) {
    if (auto *tuple = dyn_cast<ast::TupleExpr>(&target)) {
      for (const ast::ExprPtr &element : tuple->elements)
        assign(*element, topLevel);
      return;
    }
    auto *name = dyn_cast<ast::NameExpr>(&target);
    if (!name) {
      use(target);
      return;
    }
    if (!name->symbol || name->symbol->kind != SymbolKind::Local)
      return;
    note(*name);
    if (seen_.insert(name->symbol).second && topLevel)
      declaredInline.insert(name->symbol);
  }

  void stmt(const ast::Stmt &s, bool topLevel) {
    if (auto *a = dyn_cast<ast::AssignStmt>(&s)) {
      use(*a->value);
      for (const ast::ExprPtr &target : a->targets)
        assign(*target, topLevel);
    } else if (auto *ann = dyn_cast<ast::AnnAssignStmt>(&s)) {
      if (ann->value) {
        use(*ann->value);
        assign(*ann->target, topLevel);
      }
    } else if (auto *aug = dyn_cast<ast::AugAssignStmt>(&s)) {
      use(*aug->target);
      use(*aug->value);
    } else if (auto *i = dyn_cast<ast::IfStmt>(&s)) {
      use(*i->condition);
      for (const ast::StmtPtr &inner : i->thenBody)
        stmt(*inner, false);
      for (const ast::StmtPtr &inner : i->elseBody)
        stmt(*inner, false);
    } else if (auto *e = dyn_cast<ast::ExprStmt>(&s)) {
      use(*e->expr);
    } else if (auto *r = dyn_cast<ast::ReturnStmt>(&s)) {
      if (r->value)
        use(*r->value);
    } else if (auto *w = dyn_cast<ast::WhileStmt>(&s)) {
      use(*w->condition);
      for (const ast::StmtPtr &inner : w->body)
        stmt(*inner, false);
      for (const ast::StmtPtr &inner : w->elseBody)
        stmt(*inner, false);
    } else if (auto *f = dyn_cast<ast::ForStmt>(&s)) {
      use(*f->iterable);
      auto *target = cast<ast::NameExpr>(f->target.get());
      enclosingLoopVariables_.push_back(target->symbol);
      assign(*target, /*topLevel=*/false);
      for (const ast::StmtPtr &inner : f->body)
        stmt(*inner, false);
      enclosingLoopVariables_.pop_back();
      for (const ast::StmtPtr &inner : f->elseBody)
        stmt(*inner, false);
    }
  }

  std::set<const Symbol *> seen_;
  std::map<const Symbol *, int> references_;
  std::map<const Symbol *, int> referencesInOwnLoops_;
  std::vector<const Symbol *> enclosingLoopVariables_;
};

using FunctionMap = std::map<const ast::FunctionDef *, const Function *>;

class Lowering {
public:
  /// `functions`: the Function of each definition lowered before this one.
  Lowering(const FunctionInfo &info, Function &function, const FunctionMap &functions)
      : info_(info), function_(function), functions_(functions) {}

  void run() {
    for (size_t i = 0; i < info_.params.size(); ++i) {
      vars_[info_.params[i]] = function_.params[i];
      if (assignsTo(info_.def->body, info_.params[i]))
        assignedParams_.insert(function_.params[i]);
    }
    FirstUseFinder finder;
    finder.body(info_.def->body);
    StmtList hoisted;
    loopScoped_ = finder.loopScoped();
    for (const Symbol *local : info_.locals) {
      if (local->type->isArray()) {
        // cuda.shared.array / cuda.local.array: storage for the whole
        // function, made by the backends, not by a statement.
        Variable *var = function_.addLocal(local->name, toIRType(local->type), local->definition);
        var->memory = local->storage == ArrayStorage::Local ? Variable::Memory::Local
                      : local->fixedShape.empty()        ? Variable::Memory::DynamicShared
                                                         : Variable::Memory::Shared;
        var->fixedShape = local->fixedShape;
        vars_[local] = var;
        continue;
      }
      if (local->type->isTuple()) {
        declareTupleLocal(*local, finder.declaredInline.count(local) != 0, hoisted);
        continue;
      }
      Variable *var = function_.addLocal(local->name, toIRType(local->type), local->definition);
      vars_[local] = var;
      if (finder.declaredInline.count(local) || loopScoped_.count(local))
        continue;
      hoisted.push_back(std::make_unique<Declare>(local->definition, var, zeroOf(var->type, local->definition)));
      declared_.insert(var);
    }
    function_.body = std::move(hoisted);
    block(info_.def->body, function_.body);
  }

private:
  /// A local holding a tuple is one hidden local per element.
  void declareTupleLocal(const Symbol &local, bool declaredInline, StmtList &hoisted) {
    std::vector<Variable *> &elements = tupleVars_[&local];
    for (size_t i = 0; i < local.type->elements().size(); ++i) {
      const Type type = toIRType(local.type->elements()[i]);
      Variable *var = function_.addHiddenLocal(uniqueName("pyk_" + local.name + "_" + std::to_string(i)), type,
                                               local.definition);
      elements.push_back(var);
      if (declaredInline)
        continue;
      hoisted.push_back(std::make_unique<Declare>(local.definition, var, zeroOf(type, local.definition)));
      declared_.insert(var);
    }
  }

  /// t = (a, b): each element to its local, through temporaries when a
  /// value reads an element the assignment changes (t = (t[1], t[0])).
  void storeTuple(const Symbol &symbol, const ast::Expr &value, SourceRange loc, StmtList &out) {
    const std::vector<Variable *> &targets = tupleVars_.at(&symbol);
    std::vector<ExprPtr> values = tupleElements(value);
    const std::set<const Variable *> assigned(targets.begin(), targets.end());
    bool readsATarget = false;
    for (const ExprPtr &v : values)
      readsATarget |= reads(*v, assigned);
    if (readsATarget) {
      for (ExprPtr &v : values) {
        Variable *temp = function_.addHiddenLocal(uniqueName("pyk_value"), v->type(), loc);
        out.push_back(std::make_unique<Declare>(loc, temp, std::move(v)));
        declared_.insert(temp);
        v = std::make_unique<VarRef>(loc, temp);
      }
    }
    for (size_t i = 0; i < targets.size(); ++i) {
      Variable *var = targets[i];
      ExprPtr converted = castTo(std::move(values[i]), var->type);
      if (declared_.insert(var).second)
        out.push_back(std::make_unique<Declare>(loc, var, std::move(converted)));
      else
        out.push_back(std::make_unique<Assign>(loc, var, std::move(converted)));
    }
  }

  // --- Statements -----------------------------------------------------------
  void block(const ast::StmtList &stmts, StmtList &out) {
    for (const ast::StmtPtr &s : stmts)
      stmt(*s, out);
  }

  void stmt(const ast::Stmt &s, StmtList &out) {
    switch (s.kind()) {
    case ast::NodeKind::AssignStmt: {
      auto &a = cast<ast::AssignStmt>(s);
      if (auto *call = dyn_cast<ast::CallExpr>(a.value.get());
          call && (call->function == Builtin::SharedArray || call->function == Builtin::LocalArray))
        return; // The array local exists for the whole function.
      if (auto *targets = a.targets.size() == 1 ? dyn_cast<ast::TupleExpr>(a.targets[0].get()) : nullptr)
        return unpack(*targets, *a.value, s.range(), out);
      for (const ast::ExprPtr &target : a.targets) {
        if (target->type && target->type->isTuple())
          storeTuple(*cast<ast::NameExpr>(*target).symbol, *a.value, s.range(), out);
        else
          store(*target, expr(*a.value), s.range(), out);
      }
      return;
    }
    case ast::NodeKind::AnnAssignStmt: {
      auto &a = cast<ast::AnnAssignStmt>(s);
      if (a.value)
        store(*a.target, expr(*a.value), s.range(), out);
      return; // Without a value it only declared the local's type.
    }
    case ast::NodeKind::AssertStmt:
      return; // Checked only in checked mode, which is not built yet.
    case ast::NodeKind::AugAssignStmt: {
      auto &a = cast<ast::AugAssignStmt>(s);
      Type operandType = toIRType(a.operandType);
      ExprPtr value = arithmetic(a.op, castTo(expr(*a.target), operandType), castTo(expr(*a.value), operandType),
                                 s.range());
      store(*a.target, std::move(value), s.range(), out);
      return;
    }
    case ast::NodeKind::IfStmt: {
      auto &i = cast<ast::IfStmt>(s);
      StmtList thenBody, elseBody;
      block(i.thenBody, thenBody);
      block(i.elseBody, elseBody);
      out.push_back(std::make_unique<If>(s.range(), expr(*i.condition), std::move(thenBody), std::move(elseBody)));
      return;
    }
    case ast::NodeKind::ReturnStmt: {
      auto &r = cast<ast::ReturnStmt>(s);
      ExprPtr value;
      if (!function_.returnType.isVoid())
        value = castTo(expr(*r.value), function_.returnType);
      out.push_back(std::make_unique<Return>(s.range(), std::move(value)));
      return;
    }
    case ast::NodeKind::WhileStmt: {
      auto &w = cast<ast::WhileStmt>(s);
      Variable *noBreak = beginLoop(w.body, w.elseBody, s.range(), out);
      StmtList body;
      block(w.body, body);
      breakFlags_.pop_back();
      out.push_back(std::make_unique<While>(s.range(), expr(*w.condition), std::move(body)));
      endLoop(noBreak, w.elseBody, out);
      return;
    }
    case ast::NodeKind::ForStmt:
      return forRange(cast<ast::ForStmt>(s), out);
    case ast::NodeKind::BreakStmt:
      if (Variable *noBreak = breakFlags_.back())
        out.push_back(std::make_unique<Assign>(s.range(), noBreak, std::make_unique<Constant>(s.range(), noBreak->type, 0, 0.0)));
      out.push_back(std::make_unique<Break>(s.range()));
      return;
    case ast::NodeKind::ContinueStmt:
      out.push_back(std::make_unique<Continue>(s.range()));
      return;
    case ast::NodeKind::ExprStmt: {
      auto *call = dyn_cast<ast::CallExpr>(cast<ast::ExprStmt>(s).expr.get());
      if (call && call->function == Builtin::Print)
        return print(*call, out);
      if (call && (call->calleeDef || isEffect(call->function)))
        out.push_back(std::make_unique<Evaluate>(s.range(), expr(*call)));
      return; // Anything else has no effect: Sema warned about values left unused.
    }
    case ast::NodeKind::PassStmt:
      return;
    default:
      llvm_unreachable("Sema rejects this statement before lowering");
    }
  }

  /// A loop with `else` and a `break`: a hidden flag, true until a `break`
  /// of this loop clears it, runs the else block after the loop. Null for
  /// a loop without them (an else without a break always runs). Pushes the
  /// loop's entry on breakFlags_.
  Variable *beginLoop(const ast::StmtList &body, const ast::StmtList &elseBody, SourceRange loc, StmtList &out) {
    Variable *noBreak = nullptr;
    if (!elseBody.empty() && breaksOut(body)) {
      const Type flagType = Type::scalarType(ScalarKind::Bool);
      noBreak = function_.addHiddenLocal(uniqueName("pyk_no_break"), flagType, loc);
      out.push_back(std::make_unique<Declare>(loc, noBreak, std::make_unique<Constant>(loc, flagType, 1, 1.0)));
      declared_.insert(noBreak);
    }
    breakFlags_.push_back(noBreak);
    return noBreak;
  }

  /// Whether `body` has a `break` that leaves the loop it is the body of
  /// (not one of a nested loop; a nested loop's else belongs to this one).
  static bool breaksOut(const ast::StmtList &body) {
    for (const ast::StmtPtr &s : body) {
      if (isa<ast::BreakStmt>(*s))
        return true;
      if (auto *i = dyn_cast<ast::IfStmt>(s.get()); i && (breaksOut(i->thenBody) || breaksOut(i->elseBody)))
        return true;
      if (auto *w = dyn_cast<ast::WhileStmt>(s.get()); w && breaksOut(w->elseBody))
        return true;
      if (auto *f = dyn_cast<ast::ForStmt>(s.get()); f && breaksOut(f->elseBody))
        return true;
    }
    return false;
  }

  void endLoop(Variable *noBreak, const ast::StmtList &elseBody, StmtList &out) {
    if (!noBreak) {
      block(elseBody, out);
      return;
    }
    StmtList body;
    block(elseBody, body);
    const SourceRange loc = elseBody.front()->range();
    out.push_back(std::make_unique<If>(loc, std::make_unique<VarRef>(loc, noBreak), std::move(body), StmtList()));
  }

  /// print(a, b, sep=' ', end='\n'): text and values, separators and line
  /// end as text.
  void print(const ast::CallExpr &call, StmtList &out) {
    std::string sep = " ", end = "\n";
    for (const ast::KeywordArgument &keyword : call.keywords)
      (keyword.name == "sep" ? sep : end) = cast<ast::StringLiteralExpr>(*keyword.value).value;
    std::vector<Print::Part> parts;
    for (size_t i = 0; i < call.args.size(); ++i) {
      if (i > 0)
        parts.push_back({sep, nullptr});
      if (auto *text = dyn_cast<ast::StringLiteralExpr>(call.args[i].get()))
        parts.push_back({text->value, nullptr});
      else
        parts.push_back({"", expr(*call.args[i])});
    }
    parts.push_back({end, nullptr});
    out.push_back(std::make_unique<Print>(call.range(), std::move(parts)));
  }

  /// a, b = x, y and i, j = cuda.grid(2). Python computes every value
  /// before it assigns any target: when a value reads a target (a, b = b,
  /// a), the values go through hidden locals first.
  void unpack(const ast::TupleExpr &targets, const ast::Expr &value, SourceRange loc, StmtList &out) {
    std::vector<ExprPtr> values;
    if (auto *tuple = dyn_cast<ast::TupleExpr>(&value)) {
      for (const ast::ExprPtr &element : tuple->elements)
        values.push_back(expr(*element));
    } else {
      values = tupleElements(value);
    }
    std::set<const Variable *> assigned;
    for (const ast::ExprPtr &target : targets.elements)
      if (auto *name = dyn_cast<ast::NameExpr>(target.get()))
        assigned.insert(vars_.at(name->symbol));
    bool readsATarget = false;
    for (const ExprPtr &v : values)
      readsATarget |= reads(*v, assigned);
    if (readsATarget || assigned.size() < targets.elements.size()) {
      for (ExprPtr &v : values) {
        Variable *temp = function_.addHiddenLocal(uniqueName("pyk_value"), v->type(), loc);
        out.push_back(std::make_unique<Declare>(loc, temp, std::move(v)));
        declared_.insert(temp);
        v = std::make_unique<VarRef>(loc, temp);
      }
    }
    for (size_t i = 0; i < values.size(); ++i)
      store(*targets.elements[i], std::move(values[i]), loc, out);
  }

  static bool reads(const Expr &e, const std::set<const Variable *> &vars) {
    if (auto *ref = dyn_cast<VarRef>(&e); ref && vars.count(ref->var))
      return true;
    bool found = false;
    forEachOperand(e, [&](const Expr &operand) { found = found || reads(operand, vars); });
    return found;
  }

  /// The elements of a tuple-typed value: a tuple display, a tuple local or
  /// module constant, cuda.grid(n), cuda.gridsize(n), an array's shape.
  std::vector<ExprPtr> tupleElements(const ast::Expr &e) {
    std::vector<ExprPtr> elements;
    if (auto *tuple = dyn_cast<ast::TupleExpr>(&e)) {
      for (const ast::ExprPtr &element : tuple->elements)
        elements.push_back(expr(*element));
      return elements;
    }
    if (auto *choice = dyn_cast<ast::ConditionalExpr>(&e)) {
      // One select per element; each evaluates only its chosen side.
      std::vector<ExprPtr> thenValues = tupleElements(*choice->thenValue);
      std::vector<ExprPtr> elseValues = tupleElements(*choice->elseValue);
      for (size_t i = 0; i < thenValues.size(); ++i) {
        const Type type = toIRType(e.type->elements()[i]);
        elements.push_back(std::make_unique<Select>(e.range(), expr(*choice->condition),
                                                    castTo(std::move(thenValues[i]), type),
                                                    castTo(std::move(elseValues[i]), type)));
      }
      return elements;
    }
    if (auto *name = dyn_cast<ast::NameExpr>(&e)) {
      if (auto it = tupleVars_.find(name->symbol); it != tupleVars_.end()) {
        for (const Variable *var : it->second)
          elements.push_back(std::make_unique<VarRef>(e.range(), var));
        return elements;
      }
      const auto &values = name->symbol->tupleConstant;
      for (size_t i = 0; i < values.size(); ++i)
        elements.push_back(constantOf(values[i], toIRType(e.type->elements()[i]), e.range()));
      return elements;
    }
    if (auto *call = dyn_cast<ast::CallExpr>(&e)) {
      const auto count = static_cast<unsigned>(call->args.front()->constant->intValue);
      for (unsigned axis = 0; axis < count; ++axis)
        elements.push_back(gridValue(call->function, axis, e.range()));
      return elements;
    }
    auto &attribute = cast<ast::AttributeExpr>(e);
    assert(attribute.builtin == Builtin::ArrayShape && "only grids and shapes are tuples");
    const Variable *array = arrayOf(*attribute.object);
    for (unsigned axis = 0; axis < array->type.rank; ++axis)
      elements.push_back(extent(array, axis, e.range()));
    return elements;
  }

  /// One axis of cuda.grid (blockIdx * blockDim + threadIdx) or of
  /// cuda.gridsize (blockDim * gridDim), in int64.
  ExprPtr gridValue(Builtin which, unsigned axis, SourceRange loc) {
    const Type i64 = Type::scalarType(ScalarKind::Int64);
    auto reg = [&](SpecialRegKind kind) { return castTo(std::make_unique<SpecialReg>(loc, kind, axis), i64); };
    if (which == Builtin::Gridsize)
      return std::make_unique<Binary>(loc, BinaryOp::Mul, reg(SpecialRegKind::BlockDim), reg(SpecialRegKind::GridDim));
    ExprPtr product =
        std::make_unique<Binary>(loc, BinaryOp::Mul, reg(SpecialRegKind::BlockIdx), reg(SpecialRegKind::BlockDim));
    return std::make_unique<Binary>(loc, BinaryOp::Add, std::move(product), reg(SpecialRegKind::ThreadIdx));
  }

  /// for v in range(start, stop, step). Python evaluates the range once and
  /// gives v each value in turn, whatever the body does to v: a loop
  /// variable the body assigns, or one that exists before the loop, is
  /// copied from a hidden counter at the start of each iteration.
  void forRange(const ast::ForStmt &f, StmtList &out) {
    const Symbol *symbol = cast<ast::NameExpr>(*f.target).symbol;
    Variable *userVar = vars_.at(symbol);
    const Type type = userVar->type;
    const SourceRange loc = f.range();
    ExprPtr start = f.rangeStart ? castTo(expr(**f.rangeStart), type) : zeroOf(type, loc);
    ExprPtr stop = evaluatedOnce(castTo(expr(**f.rangeStop), type), "pyk_stop", out);
    ExprPtr step = f.rangeStep ? evaluatedOnce(castTo(expr(**f.rangeStep), type), "pyk_step", out)
                               : std::make_unique<Constant>(loc, type, 1, 1.0);
    int stepSign = 0;
    if (auto *constantStep = dyn_cast<Constant>(step.get()))
      stepSign = constantStep->intValue > 0 || (isUnsignedInteger(type.scalar) && constantStep->intValue != 0) ? 1 : -1;

    const bool declaredBefore = declared_.count(userVar) != 0;
    const bool ownVariable = loopScoped_.count(symbol) && !declaredBefore && !assignsTo(f.body, symbol);
    Variable *counter =
        ownVariable ? userVar : function_.addHiddenLocal(uniqueName("pyk_" + userVar->name), type, loc);
    Variable *noBreak = beginLoop(f.body, f.elseBody, loc, out);
    StmtList body;
    if (!ownVariable && declaredBefore)
      body.push_back(std::make_unique<Assign>(loc, userVar, std::make_unique<VarRef>(loc, counter)));
    else if (!ownVariable)
      body.push_back(std::make_unique<Declare>(loc, userVar, std::make_unique<VarRef>(loc, counter)));
    declared_.insert(counter);
    declared_.insert(userVar);
    // for k in range(n): k counts up from 0 and the body cannot change it.
    auto *startConstant = dyn_cast<Constant>(start.get());
    const bool countsUp = ownVariable && stepSign > 0 && (!startConstant || startConstant->intValue >= 0) &&
                          (startConstant || isUnsignedInteger(type.scalar));
    if (countsUp)
      nonNegative_.insert(symbol);
    block(f.body, body);
    nonNegative_.erase(symbol);
    declared_.erase(counter);
    if (!declaredBefore)
      declared_.erase(userVar);
    breakFlags_.pop_back();
    out.push_back(std::make_unique<ForRange>(loc, counter, std::move(start), std::move(stop), std::move(step),
                                             stepSign, std::move(body)));
    endLoop(noBreak, f.elseBody, out);
  }

  /// `value` itself when evaluating it again gives the same result
  /// (constants, parameters, extents), else a hidden local holding it.
  ExprPtr evaluatedOnce(ExprPtr value, const std::string &name, StmtList &out) {
    const bool stable = isa<Constant, ArrayDim>(*value) ||
                        (isa<VarRef>(*value) && cast<VarRef>(*value).var->kind == Variable::Kind::Param &&
                         !assignedParams_.count(cast<VarRef>(*value).var));
    if (stable)
      return value;
    SourceRange loc = value->loc();
    Variable *temp = function_.addHiddenLocal(uniqueName(name), value->type(), loc);
    out.push_back(std::make_unique<Declare>(loc, temp, std::move(value)));
    declared_.insert(temp);
    return std::make_unique<VarRef>(loc, temp);
  }

  std::string uniqueName(const std::string &base) {
    const int n = hiddenNames_[base]++;
    return n == 0 ? base : base + std::to_string(n);
  }

  /// Whether `e` is known to be at least 0: a constant, or the variable of
  /// an enclosing `for` that counts up from a constant at least 0.
  bool isNonNegative(const ast::Expr &e) const {
    if (e.constant)
      return e.constant->kind != ast::ConstantValue::Kind::Int || e.constant->intValue >= 0;
    auto *name = dyn_cast<ast::NameExpr>(&e);
    return name && nonNegative_.count(name->symbol);
  }

  /// Whether any statement in `body` assigns to `symbol`.
  static bool assignsTo(const ast::StmtList &body, const Symbol *symbol) {
    for (const ast::StmtPtr &s : body) {
      auto targets = [&](const ast::Expr &target) {
        auto *name = dyn_cast<ast::NameExpr>(&target);
        return name && name->symbol == symbol;
      };
      if (auto *a = dyn_cast<ast::AssignStmt>(s.get())) {
        for (const ast::ExprPtr &target : a->targets)
          if (targets(*target))
            return true;
      } else if (auto *ann = dyn_cast<ast::AnnAssignStmt>(s.get())) {
        if (ann->value && targets(*ann->target))
          return true;
      } else if (auto *aug = dyn_cast<ast::AugAssignStmt>(s.get())) {
        if (targets(*aug->target))
          return true;
      } else if (auto *i = dyn_cast<ast::IfStmt>(s.get())) {
        if (assignsTo(i->thenBody, symbol) || assignsTo(i->elseBody, symbol))
          return true;
      } else if (auto *w = dyn_cast<ast::WhileStmt>(s.get())) {
        if (assignsTo(w->body, symbol) || assignsTo(w->elseBody, symbol))
          return true;
      } else if (auto *f = dyn_cast<ast::ForStmt>(s.get())) {
        if (targets(*f->target) || assignsTo(f->body, symbol) || assignsTo(f->elseBody, symbol))
          return true;
      }
    }
    return false;
  }

  void store(const ast::Expr &target, ExprPtr value, SourceRange loc, StmtList &out) {
    if (auto *name = dyn_cast<ast::NameExpr>(&target)) {
      assert(!tupleVars_.count(name->symbol) && "tuples are stored by storeTuple");
      Variable *var = vars_.at(name->symbol);
      value = castTo(std::move(value), var->type);
      if (var->kind == Variable::Kind::Local && declared_.insert(var).second)
        out.push_back(std::make_unique<Declare>(loc, var, std::move(value)));
      else
        out.push_back(std::make_unique<Assign>(loc, var, std::move(value)));
      return;
    }
    auto &subscript = cast<ast::SubscriptExpr>(target);
    const Variable *array = arrayOf(*subscript.object);
    value = castTo(std::move(value), Type::scalarType(array->type.scalar));
    out.push_back(std::make_unique<ArrayStore>(loc, array, indices(subscript), std::move(value)));
  }

  // --- Expressions ----------------------------------------------------------
  ExprPtr expr(const ast::Expr &e) {
    if (e.constant && e.type->isScalar())
      return constantOf(*e.constant, toIRType(e.type), e.range());
    switch (e.kind()) {
    case ast::NodeKind::NameExpr:
      return std::make_unique<VarRef>(e.range(), vars_.at(cast<ast::NameExpr>(e).symbol));
    case ast::NodeKind::AttributeExpr:
      return attribute(cast<ast::AttributeExpr>(e));
    case ast::NodeKind::SubscriptExpr:
      return subscript(cast<ast::SubscriptExpr>(e));
    case ast::NodeKind::CallExpr:
      return call(cast<ast::CallExpr>(e));
    case ast::NodeKind::UnaryExpr:
      return unary(cast<ast::UnaryExpr>(e));
    case ast::NodeKind::BinaryExpr: {
      auto &b = cast<ast::BinaryExpr>(e);
      Type operandType = toIRType(b.operandType);
      return arithmetic(b.op, castTo(expr(*b.lhs), operandType), castTo(expr(*b.rhs), operandType), e.range());
    }
    case ast::NodeKind::BoolOpExpr: {
      auto &b = cast<ast::BoolOpExpr>(e);
      ExprPtr result = expr(*b.operands.front());
      for (size_t i = 1; i < b.operands.size(); ++i)
        result = std::make_unique<Logical>(e.range(), b.op == ast::BoolOp::And ? LogicalOp::And : LogicalOp::Or,
                                           std::move(result), expr(*b.operands[i]));
      return result;
    }
    case ast::NodeKind::CompareExpr:
      return compare(cast<ast::CompareExpr>(e));
    case ast::NodeKind::ConditionalExpr: {
      auto &c = cast<ast::ConditionalExpr>(e);
      Type type = toIRType(e.type);
      return std::make_unique<Select>(e.range(), expr(*c.condition), castTo(expr(*c.thenValue), type),
                                      castTo(expr(*c.elseValue), type));
    }
    default:
      llvm_unreachable("Sema rejects this expression before lowering");
    }
  }

  ExprPtr attribute(const ast::AttributeExpr &e) {
    auto reg = [&](SpecialRegKind kind, unsigned axis) { return std::make_unique<SpecialReg>(e.range(), kind, axis); };
    switch (e.builtin) {
    case Builtin::ThreadIdxX:
      return reg(SpecialRegKind::ThreadIdx, 0);
    case Builtin::ThreadIdxY:
      return reg(SpecialRegKind::ThreadIdx, 1);
    case Builtin::ThreadIdxZ:
      return reg(SpecialRegKind::ThreadIdx, 2);
    case Builtin::BlockIdxX:
      return reg(SpecialRegKind::BlockIdx, 0);
    case Builtin::BlockIdxY:
      return reg(SpecialRegKind::BlockIdx, 1);
    case Builtin::BlockIdxZ:
      return reg(SpecialRegKind::BlockIdx, 2);
    case Builtin::BlockDimX:
      return reg(SpecialRegKind::BlockDim, 0);
    case Builtin::BlockDimY:
      return reg(SpecialRegKind::BlockDim, 1);
    case Builtin::BlockDimZ:
      return reg(SpecialRegKind::BlockDim, 2);
    case Builtin::GridDimX:
      return reg(SpecialRegKind::GridDim, 0);
    case Builtin::GridDimY:
      return reg(SpecialRegKind::GridDim, 1);
    case Builtin::GridDimZ:
      return reg(SpecialRegKind::GridDim, 2);
    case Builtin::LaneId:
      return reg(SpecialRegKind::LaneId, 0);
    case Builtin::ArraySize: {
      const Variable *array = arrayOf(*e.object);
      ExprPtr size = extent(array, 0, e.range());
      for (unsigned axis = 1; axis < array->type.rank; ++axis)
        size = std::make_unique<Binary>(e.range(), BinaryOp::Mul, std::move(size),
                                        extent(array, axis, e.range()));
      return size;
    }
    default:
      llvm_unreachable("attribute without a value reached lowering");
    }
  }

  ExprPtr subscript(const ast::SubscriptExpr &e) {
    if (e.object->type->isTuple()) {
      std::vector<ExprPtr> elements = tupleElements(*e.object);
      const ast::Expr &index = *e.indices.front();
      // a.shape[k], cuda.grid(2)[k]: the k-th element (Sema normalised k).
      if (index.constant)
        return std::move(elements[static_cast<size_t>(index.constant->intValue)]);
      // t[k] at run time: k == 0 || k == -n ? t0 : k == 1 || k == 1 - n ?
      // t1 : ... : the last (also for k out of range, which is unchecked).
      // The index is pure (Sema allows no call with effects in it), so each
      // test may evaluate it again; the optimiser shares the value.
      const Type type = toIRType(e.type);
      const Type i64 = Type::scalarType(ScalarKind::Int64);
      const auto size = static_cast<int64_t>(elements.size());
      ExprPtr result = castTo(std::move(elements.back()), type);
      for (size_t k = elements.size() - 1; k-- > 0;) {
        auto equals = [&](int64_t position) {
          return std::make_unique<Compare>(e.range(), CompareOp::Eq, castTo(expr(index), i64),
                                           std::make_unique<Constant>(e.range(), i64, position, double(position)));
        };
        ExprPtr test = isSignedInteger(index.type->scalarKind()) && !isNonNegative(index)
                           ? std::make_unique<Logical>(e.range(), LogicalOp::Or, equals(int64_t(k)),
                                                       equals(int64_t(k) - size))
                           : ExprPtr(equals(int64_t(k)));
        result = std::make_unique<Select>(e.range(), std::move(test), castTo(std::move(elements[k]), type),
                                          std::move(result));
      }
      return result;
    }
    return std::make_unique<ArrayLoad>(e.range(), arrayOf(*e.object), indices(e));
  }

  /// f(args): scalars converted to the parameters' types, arrays passed as
  /// themselves.
  ExprPtr deviceCall(const ast::CallExpr &e) {
    const Function &callee = *functions_.at(e.calleeDef);
    std::vector<ExprPtr> args;
    for (size_t i = 0; i < e.args.size(); ++i) {
      const Type paramType = callee.params[i]->type;
      if (paramType.isArray())
        args.push_back(std::make_unique<VarRef>(e.args[i]->range(), arrayOf(*e.args[i])));
      else
        args.push_back(castTo(expr(*e.args[i]), paramType));
    }
    return std::make_unique<Call>(e.range(), &callee, callee.returnType, std::move(args));
  }

  /// The GPU builtins that are operations with effects.
  static bool isEffect(Builtin builtin) { return gpuOpOf(builtin).has_value() || atomicOpOf(builtin).has_value(); }

  static std::optional<GpuOpKind> gpuOpOf(Builtin builtin) {
    switch (builtin) {
    case Builtin::SyncThreads:
      return GpuOpKind::SyncThreads;
    case Builtin::SyncThreadsCount:
      return GpuOpKind::SyncThreadsCount;
    case Builtin::SyncThreadsAnd:
      return GpuOpKind::SyncThreadsAnd;
    case Builtin::SyncThreadsOr:
      return GpuOpKind::SyncThreadsOr;
    case Builtin::ThreadFence:
      return GpuOpKind::ThreadFence;
    case Builtin::ThreadFenceBlock:
      return GpuOpKind::ThreadFenceBlock;
    case Builtin::ThreadFenceSystem:
      return GpuOpKind::ThreadFenceSystem;
    case Builtin::SyncWarp:
      return GpuOpKind::SyncWarp;
    case Builtin::ShflSync:
      return GpuOpKind::ShflIdx;
    case Builtin::ShflUpSync:
      return GpuOpKind::ShflUp;
    case Builtin::ShflDownSync:
      return GpuOpKind::ShflDown;
    case Builtin::ShflXorSync:
      return GpuOpKind::ShflXor;
    case Builtin::AllSync:
      return GpuOpKind::VoteAll;
    case Builtin::AnySync:
      return GpuOpKind::VoteAny;
    case Builtin::EqSync:
      return GpuOpKind::VoteEq;
    case Builtin::BallotSync:
      return GpuOpKind::Ballot;
    case Builtin::MatchAnySync:
      return GpuOpKind::MatchAny;
    case Builtin::ActiveMask:
      return GpuOpKind::ActiveMask;
    case Builtin::LaneMaskLt:
      return GpuOpKind::LaneMaskLt;
    default:
      return std::nullopt;
    }
  }

  static std::optional<AtomicOp> atomicOpOf(Builtin builtin) {
    switch (builtin) {
    case Builtin::AtomicAdd:
      return AtomicOp::Add;
    case Builtin::AtomicSub:
      return AtomicOp::Sub;
    case Builtin::AtomicAnd:
      return AtomicOp::And;
    case Builtin::AtomicOr:
      return AtomicOp::Or;
    case Builtin::AtomicXor:
      return AtomicOp::Xor;
    case Builtin::AtomicMax:
      return AtomicOp::Max;
    case Builtin::AtomicMin:
      return AtomicOp::Min;
    case Builtin::AtomicExch:
      return AtomicOp::Exch;
    case Builtin::AtomicInc:
      return AtomicOp::Inc;
    case Builtin::AtomicDec:
      return AtomicOp::Dec;
    case Builtin::AtomicCas:
      return AtomicOp::Cas;
    default:
      return std::nullopt;
    }
  }

  /// A predicate as `type` (bool or int32): non-zero is true.
  ExprPtr predicate(const ast::Expr &arg, Type type) {
    ExprPtr value = expr(arg);
    if (!value->type().isBool() && !(value->type() == type))
      value = std::make_unique<Compare>(arg.range(), CompareOp::Ne, std::move(value), zeroOf(value->type(), arg.range()));
    return castTo(std::move(value), type);
  }

  /// A barrier, fence or warp operation. The counting barriers take their
  /// predicate as an int32, the votes as a bool; masks are uint32 and
  /// lanes int32 (GpuOpKind).
  ExprPtr gpuOp(const ast::CallExpr &e, GpuOpKind op) {
    const Type u32 = Type::scalarType(ScalarKind::UInt32), i32 = Type::scalarType(ScalarKind::Int32);
    std::vector<ExprPtr> args;
    if (op >= GpuOpKind::SyncWarp) {
      if (e.args.empty() && op == GpuOpKind::SyncWarp)
        args.push_back(std::make_unique<Constant>(e.range(), u32, 0xFFFFFFFFll, 4294967295.0));
      for (size_t i = 0; i < e.args.size(); ++i) {
        const ast::Expr &arg = *e.args[i];
        if (i == 0)
          args.push_back(castTo(expr(arg), u32));
        else if (op == GpuOpKind::VoteAll || op == GpuOpKind::VoteAny || op == GpuOpKind::VoteEq ||
                 op == GpuOpKind::Ballot)
          args.push_back(predicate(arg, Type::scalarType(ScalarKind::Bool)));
        else if (i == 2)
          args.push_back(castTo(expr(arg), i32));
        else
          args.push_back(castTo(expr(arg), op == GpuOpKind::MatchAny ? toIRType(arg.type) : toIRType(e.type)));
      }
      return std::make_unique<GpuOp>(e.range(), op, toIRType(e.type), std::move(args));
    }
    for (const ast::ExprPtr &arg : e.args) {
      ExprPtr value = expr(*arg);
      if (value->type().isBool())
        value = castTo(std::move(value), Type::scalarType(ScalarKind::Int32));
      else if (!value->type().isScalarOf(ScalarKind::Int32))
        value = std::make_unique<Compare>(arg->range(), CompareOp::Ne, std::move(value),
                                          zeroOf(value->type(), arg->range()));
      args.push_back(castTo(std::move(value), Type::scalarType(ScalarKind::Int32)));
    }
    return std::make_unique<GpuOp>(e.range(), op, toIRType(e.type), std::move(args));
  }

  /// cuda.atomic.OP(array, index, [expected,] value): the index as one
  /// int64 per axis, the operands in the element type.
  ExprPtr atomic(const ast::CallExpr &e, AtomicOp op) {
    const Variable *array = arrayOf(*e.args[0]);
    const Type element = Type::scalarType(array->type.scalar);
    const Type i64 = Type::scalarType(ScalarKind::Int64);
    std::vector<ExprPtr> indexList;
    const ast::Expr &index = *e.args[1];
    if (index.type->isTuple()) {
      for (ExprPtr &value : tupleElements(index))
        indexList.push_back(castTo(std::move(value), i64));
    } else {
      indexList.push_back(castTo(expr(index), i64));
    }
    ExprPtr compare = op == AtomicOp::Cas ? castTo(expr(*e.args[2]), element) : nullptr;
    ExprPtr value = castTo(expr(*e.args.back()), element);
    return std::make_unique<Atomic>(e.range(), op, array, std::move(indexList), std::move(value), std::move(compare));
  }

  /// An extent of `array`: a constant for an array local.
  static ExprPtr extent(const Variable *array, unsigned axis, SourceRange loc) {
    if (!array->fixedShape.empty()) {
      const int64_t value = array->fixedShape[axis];
      return std::make_unique<Constant>(loc, Type::scalarType(ScalarKind::Int64), value, double(value));
    }
    return std::make_unique<ArrayDim>(loc, array, axis);
  }

  /// cuda.popc/brev/clz/ffs in the operand's 32 or 64 bits (the counts
  /// then as int32); cuda.fma and cuda.cbrt as math functions.
  ExprPtr intrinsic(const ast::CallExpr &e) {
    const Type operandType = toIRType(e.operandType);
    std::vector<ExprPtr> args;
    for (const ast::ExprPtr &arg : e.args)
      args.push_back(castTo(expr(*arg), operandType));
    if (e.function == Builtin::Fma || e.function == Builtin::Cbrt)
      return std::make_unique<MathCall>(e.range(), operandType, e.function == Builtin::Fma ? "fma" : "cbrt",
                                        std::move(args));
    const UnaryOp op = e.function == Builtin::Popc   ? UnaryOp::Popc
                       : e.function == Builtin::Brev ? UnaryOp::Brev
                       : e.function == Builtin::Clz  ? UnaryOp::Clz
                                                     : UnaryOp::Ffs;
    return castTo(std::make_unique<Unary>(e.range(), op, std::move(args.front())), toIRType(e.type));
  }

  ExprPtr call(const ast::CallExpr &e) {
    if (e.calleeDef)
      return deviceCall(e);
    if (e.function == Builtin::Popc || e.function == Builtin::Brev || e.function == Builtin::Clz ||
        e.function == Builtin::Ffs || e.function == Builtin::Fma || e.function == Builtin::Cbrt)
      return intrinsic(e);
    if (auto op = gpuOpOf(e.function))
      return gpuOp(e, *op);
    if (auto op = atomicOpOf(e.function))
      return atomic(e, *op);
    const Type type = toIRType(e.type);
    switch (e.function) {
    case Builtin::Cast:
      return castTo(expr(*e.args.front()), type);
    case Builtin::Abs:
      return std::make_unique<Unary>(e.range(), UnaryOp::Abs, castTo(expr(*e.args.front()), type));
    case Builtin::Min:
    case Builtin::Max: {
      const BinaryOp op = e.function == Builtin::Min ? BinaryOp::Min : BinaryOp::Max;
      ExprPtr result = castTo(expr(*e.args.front()), type);
      for (size_t i = 1; i < e.args.size(); ++i)
        result = std::make_unique<Binary>(e.range(), op, std::move(result), castTo(expr(*e.args[i]), type));
      return result;
    }
    case Builtin::MathFunction:
      return math(e);
    case Builtin::Len:
      return extent(arrayOf(*e.args.front()), 0, e.range());
    case Builtin::Round: {
      if (e.args.size() == 2)
        return roundToDigits(e);
      ExprPtr value = expr(*e.args.front());
      if (!isFloat(value->type().scalar))
        return castTo(std::move(value), type);
      SourceRange loc = e.range();
      return castTo(std::make_unique<Unary>(loc, UnaryOp::Round, std::move(value)), type);
    }
    default:
      break;
    }
    assert((e.function == Builtin::Grid || e.function == Builtin::Gridsize) && "Sema resolved every call");
    // cuda.grid(1) == blockIdx.x * blockDim.x + threadIdx.x (tuples are
    // unpacked by their users: tupleElements).
    return gridValue(e.function, 0, e.range());
  }

  /// round(x, n) of a float: rint(x * 10**n) / 10**n, or for negative n
  /// rint(x / 10**-n) * 10**-n (NumPy's method). x is pure (Sema allows no
  /// call with effects here), so a run-time n may evaluate it twice.
  ExprPtr roundToDigits(const ast::CallExpr &e) {
    const Type type = toIRType(e.type);
    if (!isFloat(type.scalar))
      return castTo(expr(*e.args[0]), type);
    const SourceRange loc = e.range();
    auto scaled = [&](bool multiplyFirst, ExprPtr scale, ExprPtr scaleAgain) -> ExprPtr {
      ExprPtr inner = std::make_unique<Binary>(loc, multiplyFirst ? BinaryOp::Mul : BinaryOp::Div,
                                               castTo(expr(*e.args[0]), type), std::move(scale));
      ExprPtr rounded = std::make_unique<Unary>(loc, UnaryOp::Round, std::move(inner));
      return std::make_unique<Binary>(loc, multiplyFirst ? BinaryOp::Div : BinaryOp::Mul, std::move(rounded),
                                      std::move(scaleAgain));
    };
    if (const auto &digits = e.args[1]->constant) {
      double scale = std::pow(10.0, static_cast<double>(digits->intValue < 0 ? -digits->intValue : digits->intValue));
      auto constant = [&] { return castTo(std::make_unique<Constant>(loc, Type::scalarType(ScalarKind::Float64), 0, scale), type); };
      return scaled(digits->intValue >= 0, constant(), constant());
    }
    // 10.0 ** |n| in x's type, for a run-time n.
    const Type i64 = Type::scalarType(ScalarKind::Int64);
    auto power = [&](bool negate) -> ExprPtr {
      ExprPtr n = castTo(expr(*e.args[1]), i64);
      if (negate)
        n = std::make_unique<Unary>(loc, UnaryOp::Neg, std::move(n));
      return std::make_unique<Binary>(loc, BinaryOp::Pow, std::make_unique<Constant>(loc, type, 0, 10.0),
                                      castTo(std::move(n), type));
    };
    ExprPtr nonNegative = std::make_unique<Compare>(loc, CompareOp::Ge, castTo(expr(*e.args[1]), i64),
                                                    std::make_unique<Constant>(loc, i64, 0, 0.0));
    return std::make_unique<Select>(loc, std::move(nonNegative), scaled(true, power(false), power(false)),
                                    scaled(false, power(true), power(true)));
  }

  /// math.NAME(...): a MathCall in the arguments' float type; floor, ceil
  /// and trunc then become int64; isnan, isinf and isfinite are comparisons.
  ExprPtr math(const ast::CallExpr &e) {
    const MathFunctionInfo &function = *e.mathFunction;
    const Type floatType = toIRType(e.operandType);
    std::vector<ExprPtr> args;
    for (const ast::ExprPtr &arg : e.args)
      args.push_back(castTo(expr(*arg), floatType));
    const SourceRange loc = e.range();
    auto infinity = [&] { return std::make_unique<Constant>(loc, floatType, 0, __builtin_inf()); };
    if (function.name == "isnan") {
      // NaN is the one value unequal to itself; the operand is pure, so
      // evaluating it twice is safe.
      ExprPtr again = expr(*e.args.front());
      return std::make_unique<Compare>(loc, CompareOp::Ne, std::move(args.front()), castTo(std::move(again), floatType));
    }
    if (function.name == "isinf" || function.name == "isfinite") {
      ExprPtr magnitude = std::make_unique<Unary>(loc, UnaryOp::Abs, std::move(args.front()));
      return std::make_unique<Compare>(loc, function.name == "isinf" ? CompareOp::Eq : CompareOp::Lt,
                                       std::move(magnitude), infinity());
    }
    if (function.name == "fabs")
      return std::make_unique<Unary>(loc, UnaryOp::Abs, std::move(args.front()));
    ExprPtr call = std::make_unique<MathCall>(loc, floatType, std::string(function.cName), std::move(args));
    if (function.result == MathFunctionInfo::Result::Int64)
      return castTo(std::move(call), Type::scalarType(ScalarKind::Int64));
    return call;
  }

  ExprPtr unary(const ast::UnaryExpr &e) {
    Type type = toIRType(e.type);
    ExprPtr operand = castTo(expr(*e.operand), type);
    switch (e.op) {
    case ast::UnaryOp::Plus:
      return operand;
    case ast::UnaryOp::Minus:
      return std::make_unique<Unary>(e.range(), UnaryOp::Neg, std::move(operand));
    case ast::UnaryOp::Not:
      return std::make_unique<Unary>(e.range(), UnaryOp::Not, std::move(operand));
    case ast::UnaryOp::Invert:
      return std::make_unique<Unary>(e.range(), type.isBool() ? UnaryOp::Not : UnaryOp::BitNot, std::move(operand));
    }
    llvm_unreachable("unknown unary operator");
  }

  ExprPtr arithmetic(ast::BinaryOp op, ExprPtr lhs, ExprPtr rhs, SourceRange loc) {
    switch (op) {
    case ast::BinaryOp::Add:
      return std::make_unique<Binary>(loc, BinaryOp::Add, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::Sub:
      return std::make_unique<Binary>(loc, BinaryOp::Sub, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::Mul:
      return std::make_unique<Binary>(loc, BinaryOp::Mul, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::Div:
      return std::make_unique<Binary>(loc, BinaryOp::Div, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::FloorDiv:
      return std::make_unique<Binary>(loc, BinaryOp::FloorDiv, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::Mod:
      return std::make_unique<Binary>(loc, BinaryOp::Mod, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::Pow:
      return std::make_unique<Binary>(loc, BinaryOp::Pow, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::BitAnd:
      return std::make_unique<Binary>(loc, BinaryOp::And, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::BitOr:
      return std::make_unique<Binary>(loc, BinaryOp::Or, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::BitXor:
      return std::make_unique<Binary>(loc, BinaryOp::Xor, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::LShift:
      return std::make_unique<Binary>(loc, BinaryOp::Shl, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::RShift:
      return std::make_unique<Binary>(loc, BinaryOp::Shr, std::move(lhs), std::move(rhs));
    case ast::BinaryOp::MatMul:
      break;
    }
    llvm_unreachable("Sema rejects '@' before lowering");
  }

  /// a < b < c is (a < b) and (b < c), with b's value shared: IR
  /// expressions are pure, so evaluating b twice gives the same value.
  ExprPtr compare(const ast::CompareExpr &e) {
    static const std::map<ast::CompareOp, CompareOp> ops = {
        {ast::CompareOp::Lt, CompareOp::Lt}, {ast::CompareOp::Le, CompareOp::Le}, {ast::CompareOp::Gt, CompareOp::Gt},
        {ast::CompareOp::Ge, CompareOp::Ge}, {ast::CompareOp::Eq, CompareOp::Eq}, {ast::CompareOp::Ne, CompareOp::Ne}};
    ExprPtr result;
    const ast::Expr *lhs = e.first.get();
    for (size_t i = 0; i < e.ops.size(); ++i) {
      const ast::Expr *rhs = e.comparators[i].get();
      const Type operandType = toIRType(e.operandTypes[i]);
      ExprPtr link = std::make_unique<Compare>(e.range(), ops.at(e.ops[i]), castTo(expr(*lhs), operandType),
                                               castTo(expr(*rhs), operandType));
      result = result ? std::make_unique<Logical>(e.range(), LogicalOp::And, std::move(result), std::move(link))
                      : std::move(link);
      lhs = rhs;
    }
    return result;
  }

  std::vector<ExprPtr> indices(const ast::SubscriptExpr &e) {
    std::vector<ExprPtr> result;
    for (const ast::ExprPtr &index : e.indices)
      result.push_back(castTo(expr(*index), Type::scalarType(ScalarKind::Int64)));
    return result;
  }

  const Variable *arrayOf(const ast::Expr &e) {
    auto &name = cast<ast::NameExpr>(e);
    return vars_.at(name.symbol);
  }

  // --- Constants and conversions ---------------------------------------------
  static ExprPtr constantOf(const ast::ConstantValue &value, Type type, SourceRange loc) {
    switch (value.kind) {
    case ast::ConstantValue::Kind::Bool:
      return std::make_unique<Constant>(loc, type, value.boolValue, value.boolValue);
    case ast::ConstantValue::Kind::Int: {
      // Folding in Python's ints may leave the type's range (-int8(-128)
      // is 128): the value wraps, as the operation would at run time.
      const int64_t wrapped = isInteger(type.scalar) ? wrapToWidth(value.intValue, type.scalar) : value.intValue;
      return std::make_unique<Constant>(loc, type, wrapped, static_cast<double>(wrapped));
    }
    case ast::ConstantValue::Kind::Float:
      return std::make_unique<Constant>(loc, type, 0, value.floatValue);
    }
    llvm_unreachable("unknown constant kind");
  }

  /// `value`'s bits cut to `kind`'s width, sign-extended for a signed kind
  /// (a Constant's intValue is the bit pattern, sign-extended).
  static int64_t wrapToWidth(int64_t value, ScalarKind kind) {
    const unsigned bits = byteWidth(kind) * 8;
    auto pattern = static_cast<uint64_t>(value);
    if (bits < 64) {
      pattern &= (uint64_t(1) << bits) - 1;
      if (isSignedInteger(kind) && (pattern >> (bits - 1)))
        pattern |= ~((uint64_t(1) << bits) - 1);
    }
    return static_cast<int64_t>(pattern);
  }

  static ExprPtr zeroOf(Type type, SourceRange loc) { return std::make_unique<Constant>(loc, type, 0, 0.0); }

  /// Whether `e` is a constant or a choice among constants.
  static bool isConstantChoice(const Expr &e) {
    if (isa<Constant>(e))
      return true;
    auto *select = dyn_cast<Select>(&e);
    return select && isConstantChoice(*select->thenValue) && isConstantChoice(*select->elseValue);
  }

  /// Converts `e` to `type`, folding the conversion of a constant (and of
  /// a choice among constants: WEIGHTS[k]).
  static ExprPtr castTo(ExprPtr e, Type type) {
    if (e->type() == type)
      return e;
    if (auto *select = dyn_cast<Select>(e.get()); select && isConstantChoice(*select)) {
      return std::make_unique<Select>(select->loc(), std::move(select->condition),
                                      castTo(std::move(select->thenValue), type),
                                      castTo(std::move(select->elseValue), type));
    }
    if (auto *c = dyn_cast<Constant>(e.get())) {
      const bool fromFloat = isFloat(c->type().scalar);
      if (type.isBool()) {
        const bool truth = fromFloat ? c->floatValue != 0 : c->intValue != 0;
        return std::make_unique<Constant>(c->loc(), type, truth, truth);
      }
      if (isFloat(type.scalar)) {
        double value = fromFloat ? c->floatValue
                                 : isUnsignedInteger(c->type().scalar) ? double(uint64_t(c->intValue))
                                                                       : double(c->intValue);
        if (type.scalar == ScalarKind::Float32)
          value = static_cast<float>(value);
        return std::make_unique<Constant>(c->loc(), type, 0, value);
      }
      if (!fromFloat) {
        // Integer to integer: wrap to the target width, as a C cast does.
        const int64_t wrapped = wrapToWidth(c->intValue, type.scalar);
        return std::make_unique<Constant>(c->loc(), type, wrapped, double(wrapped));
      }
    }
    SourceRange loc = e->loc();
    return std::make_unique<Cast>(loc, type, std::move(e));
  }

  const FunctionInfo &info_;
  Function &function_;
  const FunctionMap &functions_;
  std::map<const Symbol *, Variable *> vars_;
  /// Tuple locals: one variable per element.
  std::map<const Symbol *, std::vector<Variable *>> tupleVars_;
  std::set<const Variable *> declared_;
  /// Loop variables that count up from 0 or more, in the loop being lowered.
  std::set<const Symbol *> nonNegative_;
  /// Parameters the body assigns: their value may change.
  std::set<const Variable *> assignedParams_;
  std::set<const Symbol *> loopScoped_;
  std::map<std::string, int> hiddenNames_;
  /// The enclosing loops, innermost last: each one's no-break flag, or
  /// null when it has no `else`.
  std::vector<Variable *> breakFlags_;
};

/// The kernels and every device function a kernel calls, directly or not:
/// a device function no kernel calls is checked but not compiled.
std::set<const FunctionInfo *> reachableFromKernels(const ModuleInfo &info) {
  std::set<const FunctionInfo *> reached;
  std::vector<const FunctionInfo *> work;
  for (const FunctionInfo &function : info.functions)
    if (function.kind == FunctionKind::Kernel)
      work.push_back(&function);
  while (!work.empty()) {
    const FunctionInfo *function = work.back();
    work.pop_back();
    if (!reached.insert(function).second)
      continue;
    work.insert(work.end(), function->callees.begin(), function->callees.end());
  }
  return reached;
}

} // namespace

std::unique_ptr<Module> lowerToIR(const ModuleInfo &info, const SourceFile &file) {
  auto result = std::make_unique<Module>();
  result->sourceName = file.name();
  const std::set<const FunctionInfo *> reached = reachableFromKernels(info);
  FunctionMap functions;
  for (size_t index : info.definitionOrder) {
    const FunctionInfo &functionInfo = info.functions[index];
    if (!reached.count(&functionInfo))
      continue;
    const ast::FunctionDef &def = *functionInfo.def;
    auto function = std::make_unique<Function>(
        functionInfo.kind == FunctionKind::Kernel ? Function::Kind::Kernel : Function::Kind::Device, def.name,
        def.nameRange);
    function->symbol = kernelSymbol(def.name);
    function->docstring = def.docstring.value_or("");
    function->lineInfo = functionInfo.options.lineinfo;
    function->inlineAlways = functionInfo.options.inlineAlways;
    function->fastMath = functionInfo.options.fastmath;
    function->synchronises = functionInfo.synchronises;
    function->maxThreadsPerBlock = functionInfo.options.maxThreadsPerBlock;
    function->minBlocksPerMultiprocessor = functionInfo.options.minBlocksPerMultiprocessor;
    function->maxRegisters = functionInfo.options.maxRegisters;
    function->returnType = toIRType(functionInfo.returnType);
    for (const Symbol *param : functionInfo.params)
      function->addParam(param->name, toIRType(param->type), param->definition);
    Lowering(functionInfo, *function, functions).run();
    functions[&def] = function.get();
    result->functions.push_back(std::move(function));
  }
  return result;
}

} // namespace pyk::ir
