//===- ASTToIR.cpp - Lower a checked AST to the IR ------------------------===//
//
// Algorithm:
//  1. Take the kernels and the device functions they call, callees first,
//     and create each Function with a Variable for each parameter
//     (ASTToIRModule.cpp).
//  2. Per function, find, in evaluation order, each local's first use. A local whose first
//     use is an assignment directly in the function body is declared there
//     (`decl x = v`); any other is declared, zero-initialised, at the top of
//     the function, so that it is in scope wherever Python lets it be used.
//  3. Lower statements and expressions one to one. Operand conversions that
//     Sema decided (Expr::type, BinaryExpr::operandType, ...) become Casts;
//     casts of constants fold into constants of the target type.
//     (Lowering is declared in Lowering.h; expressions are lowered in
//     ASTToIRExpr.cpp.)
//
//===----------------------------------------------------------------------===//
#include "ASTToIR.h"

#include <algorithm>

#include "ASTWalk.h"
#include "IRWalk.h"
#include "Lowering.h"
#include "pyk/Float16.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstring>

namespace pyk::ir {
namespace {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

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

} // namespace
} // namespace pyk::ir

namespace pyk::ir::lowering {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

void Lowering::run() {
  size_t next = 0; // a tuple parameter is several of function_.params
  for (const Symbol *param : info_.params) {
    if (param->type->isRecord()) {
      Variable *array = function_.params[next++];
      vars_[param] = array;
      recordLocals_[param] = {array, function_.params[next++]};
      continue;
    }
    const bool assigned = assignsTo(info_.def->body, param);
    const size_t count = param->type->isTuple() ? param->type->elements().size() : 1;
    for (size_t i = 0; i < count; ++i) {
      Variable *var = function_.params[next++];
      if (param->type->isTuple())
        tupleVars_[param].push_back(var);
      else
        vars_[param] = var;
      if (assigned)
        assignedParams_.insert(var);
    }
  }
  StmtList hoisted;
  // An array parameter the body gives another array (`a, b = b, a`): a
  // view local of its name, starting as the parameter.
  for (const Symbol *param : info_.params) {
    if (!param->type->isArray() || !assignsTo(info_.def->body, param))
      continue;
    Variable *argument = vars_.at(param);
    Variable *local = function_.addLocal(param->name, argument->type, param->definition);
    local->memory = Variable::Memory::View;
    hoisted.push_back(std::make_unique<Declare>(param->definition, local,
                                                wholeView(argument, argument->type, param->definition)));
    declared_.insert(local);
    vars_[param] = local;
  }
  FirstUseFinder finder;
  finder.body(info_.def->body);
  loopScoped_ = finder.loopScoped();
  // Constant arrays read by name: variables of the function that all
  // refer to the program's one copy.
  for (const Symbol *array : info_.constantArrays)
    vars_[array] = constantArrayVariable(*array);
  for (const Symbol *local : info_.locals) {
    if (local->type->isGridGroup())
      continue; // `g = cuda.cg.this_grid()` names what g.sync() needs no value of
    if (local->type->isRecord()) {
      // `r = ps[i]`: the index of the element it names; its fields are
      // read and written in the array.
      Variable *index = function_.addHiddenLocal(uniqueName("pyk_" + local->name + "_index"),
                                                 Type::scalarType(ScalarKind::Int64), local->definition);
      recordLocals_[local] = {vars_.at(local->recordArray), index};
      hoisted.push_back(std::make_unique<Declare>(local->definition, index, zeroOf(index->type, local->definition)));
      declared_.insert(index);
      continue;
    }
    if (local->type->isArray() && local->storage == ArrayStorage::Constant) {
      vars_[local] = constantArrayVariable(*local); // c = cuda.const.array_like(PRICES)
      continue;
    }
    if (local->type->isArray() && local->storage == ArrayStorage::View) {
      Variable *var = function_.addLocal(local->name, toIRType(local->type), local->definition);
      var->memory = Variable::Memory::View;
      vars_[local] = var;
      if (finder.declaredInline.count(local) || loopScoped_.count(local))
        continue;
      hoisted.push_back(std::make_unique<Declare>(local->definition, var, nullptr));
      declared_.insert(var);
      continue;
    }
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
    // A counter pyk made (`for v in x`) gets a name C++ accepts.
    Variable *var = isCompilerMadeName(local->name)
                        ? function_.addHiddenLocal(uniqueName("pyk_index"), toIRType(local->type), local->definition)
                        : function_.addLocal(local->name, toIRType(local->type), local->definition);
    vars_[local] = var;
    if (finder.declaredInline.count(local) || loopScoped_.count(local))
      continue;
    hoisted.push_back(std::make_unique<Declare>(local->definition, var, zeroOf(var->type, local->definition)));
    declared_.insert(var);
  }
  function_.body = std::move(hoisted);
  block(info_.def->body, function_.body);
}

/// A variable in constant memory holding a module's constant array.
Variable *Lowering::constantArrayVariable(const Symbol &symbol) {
  Variable *var = function_.addLocal(symbol.name, toIRType(symbol.type), symbol.definition);
  var->memory = Variable::Memory::Constant;
  var->fixedShape = symbol.fixedShape;
  var->constantName = symbol.constantArray->name;
  for (const ast::ConstantValue &element : symbol.constantArray->elements) {
    switch (symbol.constantArray->dtype) {
    case ScalarKind::Float32: {
      const float single = static_cast<float>(element.floatValue);
      uint32_t bits;
      std::memcpy(&bits, &single, sizeof bits);
      var->constantBits.push_back(bits);
      break;
    }
    case ScalarKind::Float64: {
      uint64_t bits;
      std::memcpy(&bits, &element.floatValue, sizeof bits);
      var->constantBits.push_back(bits);
      break;
    }
    case ScalarKind::Float16:
      var->constantBits.push_back(pyk::float16(element.floatValue).bits());
      break;
    case ScalarKind::BFloat16:
      var->constantBits.push_back(pyk::bfloat16(element.floatValue).bits());
      break;
    case ScalarKind::Bool:
      var->constantBits.push_back(element.boolValue ? 1 : 0);
      break;
    default: {
      // Two's complement, cut to the element's width.
      const unsigned width = byteWidth(symbol.constantArray->dtype) * 8;
      const uint64_t bits = static_cast<uint64_t>(element.intValue);
      var->constantBits.push_back(width == 64 ? bits : bits & ((uint64_t(1) << width) - 1));
      break;
    }
    }
  }
  return var;
}

// --- Statements -----------------------------------------------------------
void Lowering::block(const ast::StmtList &stmts, StmtList &out) {
  for (const ast::StmtPtr &s : stmts)
    stmt(*s, out);
}

void Lowering::stmt(const ast::Stmt &s, StmtList &out) {
  // What the statement's expressions compute first goes before it.
  PreludeScope prelude(*this, &out);
  StmtList *const enclosingStatement = std::exchange(statementPrelude_, &out);
  struct RestoreStatement {
    Lowering &lowering;
    StmtList *saved;
    ~RestoreStatement() { lowering.statementPrelude_ = saved; }
  } restoreStatement{*this, enclosingStatement};
  switch (s.kind()) {
  case ast::NodeKind::AssignStmt: {
    auto &a = cast<ast::AssignStmt>(s);
    if (auto *call = dyn_cast<ast::CallExpr>(a.value.get());
        call && (call->function == Builtin::SharedArray || call->function == Builtin::LocalArray ||
                 call->function == Builtin::ConstArrayLike))
      return; // The array local exists for the whole function.
    if (a.value->type && a.value->type->isGridGroup())
      return; // `g = cuda.cg.this_grid()`: a name, no value
    if (a.value->type && a.value->type->isRecord())
      return assignRecord(*a.targets.front(), *a.value, s.range(), out);
    if (auto *targets = a.targets.size() == 1 ? dyn_cast<ast::TupleExpr>(a.targets[0].get()) : nullptr)
      return unpack(*targets, *a.value, s.range(), out);
    for (const ast::ExprPtr &target : a.targets) {
      if (isViewTarget(*target))
        assignView(vars_.at(cast<ast::NameExpr>(*target).symbol), *a.value, s.range(), out);
      else if (target->type && target->type->isTuple())
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
  {
    auto &a = cast<ast::AssertStmt>(s);
    std::string message;
    if (auto *literal = llvm::dyn_cast_or_null<ast::StringLiteralExpr>(a.message.get()))
      message = literal->value;
    else
      message = std::string(source_.text().substr(a.condition->range().begin.offset,
                                                  a.condition->range().end.offset - a.condition->range().begin.offset));
    // Compiled out unless checked: nothing of it runs before it.
    PreludeScope compiledOut(*this, nullptr);
    out.push_back(std::make_unique<Assert>(s.range(), truthOf(*a.condition), std::move(message)));
    return;
  }
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
    out.push_back(std::make_unique<If>(s.range(), truthOf(*i.condition), std::move(thenBody), std::move(elseBody)));
    return;
  }
  case ast::NodeKind::ReturnStmt: {
    auto &r = cast<ast::ReturnStmt>(s);
    if (!function_.results.empty()) {
      std::vector<ExprPtr> values = tupleValues(*r.value, s.range(), out);
      for (size_t i = 0; i < values.size(); ++i)
        out.push_back(std::make_unique<Assign>(s.range(), function_.results[i],
                                               castTo(std::move(values[i]), function_.results[i]->type)));
      out.push_back(std::make_unique<Return>(s.range(), nullptr));
      return;
    }
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
    PreludeScope everyIteration(*this, nullptr); // the condition runs before each iteration
    out.push_back(std::make_unique<While>(s.range(), truthOf(*w.condition), std::move(body)));
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
    if (call && call->type->isTuple())
      tupleValues(*call, s.range(), out); // its values unused
    else if (call && (call->calleeDef || call->foreign || isEffect(call->function)))
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
Variable *Lowering::beginLoop(const ast::StmtList &body, const ast::StmtList &elseBody, SourceRange loc, StmtList &out) {
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
bool Lowering::breaksOut(const ast::StmtList &body) {
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

void Lowering::endLoop(Variable *noBreak, const ast::StmtList &elseBody, StmtList &out) {
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
void Lowering::print(const ast::CallExpr &call, StmtList &out) {
  std::string sep = " ", end = "\n";
  for (const ast::KeywordArgument &keyword : call.keywords)
    (keyword.name == "sep" ? sep : end) = cast<ast::StringLiteralExpr>(*keyword.value).value;
  std::vector<Print::Part> parts;
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (i > 0)
      parts.push_back({sep, nullptr});
    if (auto *text = dyn_cast<ast::StringLiteralExpr>(call.args[i].get())) {
      parts.push_back({text->value, nullptr});
      continue;
    }
    ExprPtr value = expr(*call.args[i]);
    if (!isComplex(value->type().scalar)) {
      parts.push_back({"", std::move(value)});
      continue;
    }
    // A complex number as Python writes it, (1.5-2j): its parts, the
    // imaginary one with its sign, of the value computed once.
    value = evaluatedOnce(std::move(value), "pyk_printed", out);
    ExprPtr again = copyOfStable(*value);
    parts.push_back({"(", nullptr});
    parts.push_back({"", std::make_unique<ComplexPart>(value->loc(), std::move(value), false)});
    parts.push_back({"", std::make_unique<ComplexPart>(again->loc(), std::move(again), true), true});
    parts.push_back({"j)", nullptr});
  }
  parts.push_back({end, nullptr});
  out.push_back(std::make_unique<Print>(call.range(), std::move(parts)));
}

/// a, b = x, y and i, j = cuda.grid(2). Python computes every value
/// before it assigns any target: when a value reads a target (a, b = b,
/// a), the values go through hidden locals first.
void Lowering::unpack(const ast::TupleExpr &targets, const ast::Expr &value, SourceRange loc, StmtList &out) {
  std::vector<ExprPtr> values;
  if (auto *tuple = dyn_cast<ast::TupleExpr>(&value)) {
    for (size_t i = 0; i < tuple->elements.size(); ++i) {
      const ast::Expr &target = *targets.elements[i];
      values.push_back(isViewTarget(target)
                           ? arrayValue(*tuple->elements[i], vars_.at(cast<ast::NameExpr>(target).symbol)->type)
                           : expr(*tuple->elements[i]));
    }
  } else {
    values = tupleValues(value, loc, out);
  }
  std::set<const Variable *> assigned;
  for (const ast::ExprPtr &target : targets.elements)
    if (auto *name = dyn_cast<ast::NameExpr>(target.get()))
      assigned.insert(vars_.at(name->symbol));
  bool readsATarget = false;
  for (const ExprPtr &v : values)
    readsATarget |= readsAnyOf(*v, assigned);
  if (readsATarget || assigned.size() < targets.elements.size()) {
    for (ExprPtr &v : values) {
      const Type type = v->type();
      Variable *temp = function_.addHiddenLocal(uniqueName("pyk_value"), type, loc);
      if (type.isArray())
        temp->memory = Variable::Memory::View;
      out.push_back(std::make_unique<Declare>(loc, temp, std::move(v)));
      declared_.insert(temp);
      v = type.isArray() ? wholeView(temp, type, loc) : ExprPtr(std::make_unique<VarRef>(loc, temp));
    }
  }
  for (size_t i = 0; i < values.size(); ++i)
    store(*targets.elements[i], std::move(values[i]), loc, out);
}

/// for v in range(start, stop, step). Python evaluates the range once and
/// gives v each value in turn, whatever the body does to v: a loop
/// variable the body assigns, or one that exists before the loop, is
/// copied from a hidden counter at the start of each iteration.
void Lowering::forRange(const ast::ForStmt &f, StmtList &out) {
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
ExprPtr Lowering::evaluatedOnce(ExprPtr value, const std::string &name, StmtList &out) {
  const bool stable = isa<Constant>(*value) || (isa<ArrayDim>(*value) && !cast<ArrayDim>(*value).array->isView()) ||
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

std::string Lowering::uniqueName(const std::string &base) {
  const int n = hiddenNames_[base]++;
  return n == 0 ? base : base + std::to_string(n);
}

/// Whether `e` is known to be at least 0: a constant, or the variable of
/// an enclosing `for` that counts up from a constant at least 0.
bool Lowering::isNonNegative(const ast::Expr &e) const {
  if (e.constant)
    return e.constant->kind != ast::ConstantValue::Kind::Int || e.constant->intValue >= 0;
  auto *name = dyn_cast<ast::NameExpr>(&e);
  return name && nonNegative_.count(name->symbol);
}

/// Whether any statement in `body` assigns to `symbol`.
bool Lowering::assignsTo(const ast::StmtList &body, const Symbol *symbol) {
  for (const ast::StmtPtr &s : body) {
    // `a, b = b, a` assigns each name of the tuple.
    auto targets = [&](const ast::Expr &target, auto &self) -> bool {
      if (auto *tuple = dyn_cast<ast::TupleExpr>(&target))
        return std::any_of(tuple->elements.begin(), tuple->elements.end(),
                           [&](const ast::ExprPtr &element) { return self(*element, self); });
      auto *name = dyn_cast<ast::NameExpr>(&target);
      return name && name->symbol == symbol;
    };
    if (auto *a = dyn_cast<ast::AssignStmt>(s.get())) {
      for (const ast::ExprPtr &target : a->targets)
        if (targets(*target, targets))
          return true;
    } else if (auto *ann = dyn_cast<ast::AnnAssignStmt>(s.get())) {
      if (ann->value && targets(*ann->target, targets))
        return true;
    } else if (auto *aug = dyn_cast<ast::AugAssignStmt>(s.get())) {
      if (targets(*aug->target, targets))
        return true;
    } else if (auto *i = dyn_cast<ast::IfStmt>(s.get())) {
      if (assignsTo(i->thenBody, symbol) || assignsTo(i->elseBody, symbol))
        return true;
    } else if (auto *w = dyn_cast<ast::WhileStmt>(s.get())) {
      if (assignsTo(w->body, symbol) || assignsTo(w->elseBody, symbol))
        return true;
    } else if (auto *f = dyn_cast<ast::ForStmt>(s.get())) {
      if (targets(*f->target, targets) || assignsTo(f->body, symbol) || assignsTo(f->elseBody, symbol))
        return true;
    }
  }
  return false;
}

void Lowering::store(const ast::Expr &target, ExprPtr value, SourceRange loc, StmtList &out) {
  if (auto *name = dyn_cast<ast::NameExpr>(&target)) {
    assert(!tupleVars_.count(name->symbol) && "tuples are stored by storeTuple");
    Variable *var = vars_.at(name->symbol);
    if (!var->isView())
      value = castTo(std::move(value), var->type);
    if (var->kind == Variable::Kind::Local && declared_.insert(var).second)
      out.push_back(std::make_unique<Declare>(loc, var, std::move(value)));
    else
      out.push_back(std::make_unique<Assign>(loc, var, std::move(value)));
    return;
  }
  auto *object = isa<ast::AttributeExpr>(target) ? cast<ast::AttributeExpr>(target).object.get()
                                                  : cast<ast::SubscriptExpr>(target).object.get();
  if (object->type->isRecord()) {
    auto [array, at, field] = recordField(*object, fieldName(target));
    value = castTo(std::move(value), elementType(array->type, field));
    out.push_back(std::make_unique<ArrayStore>(loc, array, std::move(at), std::move(value), field));
    return;
  }
  auto [array, at] = accessThrough(*object, indices(cast<ast::SubscriptExpr>(target)));
  value = castTo(std::move(value), Type::scalarType(array->type.scalar));
  out.push_back(std::make_unique<ArrayStore>(loc, array, std::move(at), std::move(value)));
}

} // namespace pyk::ir::lowering
