//===- SemaStmt.cpp - Statements in kernel bodies --------------------------===//
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

void Sema::checkBlock(StmtList &body) {
  // An early return's guard holds to the end of its block only.
  const std::set<const Symbol *> guardedBefore = guarded_;
  for (StmtPtr &stmt : body) {
    if (diags_->limitReached())
      break;
    checkStmt(*stmt);
  }
  checkNestedEffectfulCalls();
  guarded_ = guardedBefore;
}

void Sema::checkStmt(Stmt &stmt) {
  checkNestedEffectfulCalls(); // the previous statement's, an if's or a while's condition
  statementValue_ = nullptr;
  arrayDefinitionValue_ = nullptr;
  recordValue_ = nullptr;
  pendingArray_.reset();
  switch (stmt.kind()) {
  case NodeKind::AssignStmt:
    return checkAssign(llvm::cast<AssignStmt>(stmt));
  case NodeKind::AugAssignStmt:
    return checkAugAssign(llvm::cast<AugAssignStmt>(stmt));
  case NodeKind::IfStmt:
    return checkIf(llvm::cast<IfStmt>(stmt));
  case NodeKind::ReturnStmt:
    return checkReturn(llvm::cast<ReturnStmt>(stmt));
  case NodeKind::ExprStmt:
    return checkExprStmt(llvm::cast<ExprStmt>(stmt));
  case NodeKind::PassStmt:
    return;
  case NodeKind::AnnAssignStmt:
    return checkAnnAssign(llvm::cast<AnnAssignStmt>(stmt));
  case NodeKind::WhileStmt:
    return checkWhile(llvm::cast<WhileStmt>(stmt));
  case NodeKind::ForStmt:
    return checkFor(llvm::cast<ForStmt>(stmt));
  case NodeKind::BreakStmt:
  case NodeKind::ContinueStmt:
    if (loopDepth_ == 0)
      error(stmt.range()) << "'" << (isa<BreakStmt>(stmt) ? "break" : "continue") << "' outside a loop";
    return;
  case NodeKind::AssertStmt:
    return checkAssert(llvm::cast<AssertStmt>(stmt));
  case NodeKind::ImportStmt:
  case NodeKind::ImportFromStmt:
    error(stmt.range()) << "imports must be at module level";
    return;
  case NodeKind::FunctionDef:
    error(llvm::cast<FunctionDef>(stmt).nameRange)
        << "nested functions (closures) are not supported; define device functions at module level";
    return;
  case NodeKind::UnsupportedStmt:
    error(stmt.range()) << unsupportedSyntaxName(llvm::cast<UnsupportedStmt>(stmt).what)
                        << " are not supported in kernels";
    sawRejectedStatement_ = true;
    return;
#define PYK_AST_EXPR(Name) case NodeKind::Name:
#include "ASTNodes.def"
    break;
  }
}

void Sema::checkAssign(AssignStmt &stmt) {
  // a, b = x, y: each value goes to its target (all values are computed
  // before any target is assigned).
  auto *targets = stmt.targets.size() == 1 ? dyn_cast<TupleExpr>(stmt.targets[0].get()) : nullptr;
  auto *values = dyn_cast<TupleExpr>(stmt.value.get());
  if (targets && values) {
    if (targets->elements.size() != values->elements.size()) {
      error(stmt.range()) << "cannot unpack " << values->elements.size() << " values into "
                          << targets->elements.size() << " targets";
      return;
    }
    std::vector<const Type *> valueTypes;
    for (ExprPtr &value : values->elements)
      valueTypes.push_back(checkValue(*value));
    for (size_t i = 0; i < valueTypes.size(); ++i) {
      assignedValue_ = values->elements[i].get();
      assignTo(*targets->elements[i], valueTypes[i], values->elements[i]->range());
      assignedValue_ = nullptr;
      noteGridPositions(*targets->elements[i], *values->elements[i]);
      if (!valueTypes[i]->isError() && targets->elements[i]->type && targets->elements[i]->type->isScalar())
        checkLiteralFits(*values->elements[i], targets->elements[i]->type->scalarKind());
    }
    return;
  }
  if (stmt.targets.size() == 1)
    statementValue_ = stmt.value.get();
  // (Not the element assignment a rewritten `for` loop starts with, whose
  // value is not written after its target: SemaIteration.cpp.)
  const bool valueWritten = stmt.value->range().end.offset <= stmt.range().end.offset;
  if (stmt.targets.size() == 1 && isa<NameExpr>(*stmt.targets[0]) && valueWritten)
    arrayDefinitionValue_ = stmt.value.get();
  if (stmt.targets.size() == 1 && valueWritten && namesOrCopiesRecord(*stmt.targets[0]))
    recordValue_ = stmt.value.get();
  const Type *valueType = checkValue(*stmt.value);
  for (ExprPtr &target : stmt.targets) {
    auto *division = dyn_cast<BinaryExpr>(stmt.value.get());
    assignedByTrueDivision_ = division && division->op == BinaryOp::Div;
    assignedValue_ = stmt.value.get();
    assignTo(*target, valueType, stmt.value->range());
    assignedValue_ = nullptr;
    assignedByTrueDivision_ = false;
    noteGridPositions(*target, *stmt.value);
    // A Python int stored where it does not fit is an error in NumPy 2.
    if (!valueType->isError() && target->type && target->type->isScalar())
      checkLiteralFits(*stmt.value, target->type->scalarKind());
  }
}

/// Numba and NumPy store a float into an integer array toward zero
/// (`a[i] = 2.7` stores 2); pyk does too, but says so, since it is more
/// often a slip than meant. A constant with no fraction loses nothing.
void Sema::warnIfFloatTruncated(const Type *valueType, const Type *elementType, const SubscriptExpr &target,
                                SourceRange valueRange) {
  if (!elementType->isScalar() || !isFloat(valueType->scalarKind()) || !isInteger(elementType->scalarKind()))
    return;
  const auto *value = statementValue_;
  if (value && value->range().begin == valueRange.begin && value->constant &&
      value->constant->kind == ConstantValue::Kind::Float &&
      value->constant->floatValue == static_cast<double>(static_cast<int64_t>(value->constant->floatValue)))
    return;
  warning(valueRange) << "storing " << valueType->str() << " into an element of " << target.object->type->str()
                      << " truncates it toward zero, as in Numba and NumPy; write '" << elementType->str()
                      << "(...)' to silence this";
}

void Sema::assignTo(Expr &target, const Type *valueType, SourceRange valueRange) {
  if (auto *name = dyn_cast<NameExpr>(&target))
    return assignToName(*name, valueType, valueRange);
  if (assignWholeRecord(target, valueType, valueRange) || assignToRecordField(target, valueType, valueRange))
    return;
  if (auto *subscript = dyn_cast<SubscriptExpr>(&target)) {
    const Type *elementType = checkValue(*subscript);
    if (elementType->isError() || valueType->isError())
      return;
    if (!subscript->object->type->isArray()) {
      error(target.range()) << "only array elements can be assigned through '[...]'";
      return;
    }
    const Symbol *root = rootArraySymbol(*subscript->object);
    if (root && viewsConstantMemory(*root)) {
      error(target.range()) << "'" << root->name << "' is a constant array, in constant memory: kernels read it "
                            << "and cannot store into it; copy it into a local or shared array to change it";
      return;
    }
    // A thread's own local array is invisible outside the function.
    if (!root || root->storage != ArrayStorage::Local)
      function_->hasSideEffects = true;
    if (elementType->isArray()) {
      error(target.range()) << "storing into every element of a view ('a[i, :] = v') is not supported yet; store "
                               "the elements one at a time in a loop";
      return;
    }
    if (!valueType->isScalar()) {
      error(valueRange) << "cannot store a value of type " << valueType->str() << " into an element of "
                        << subscript->object->type->str();
      return;
    }
    if (checkNotComplexToReal(valueType, valueRange, elementType->scalarKind(), "store"))
      warnIfFloatTruncated(valueType, elementType, *subscript, valueRange);
    return;
  }
  if (auto *tuple = dyn_cast<TupleExpr>(&target)) {
    // i, j = cuda.grid(2); rows, cols = m.shape
    if (valueType->isError()) {
      // The value's error is reported; the targets stay silent from here on.
      for (ExprPtr &element : tuple->elements)
        assignTo(*element, valueType, valueRange);
      return;
    }
    // After an error the targets are bound with the error type, so that
    // their uses stay silent: one mistake, one error.
    auto bindAfterError = [&] {
      for (ExprPtr &element : tuple->elements)
        if (isa<NameExpr, TupleExpr>(*element))
          assignTo(*element, types_.errorType(), valueRange);
    };
    for (ExprPtr &element : tuple->elements) {
      if (auto *starred = dyn_cast<UnsupportedExpr>(element.get());
          starred && starred->what == UnsupportedSyntax::Starred) {
        error(element->range()) << "starred assignment targets ('*x') are not supported in kernels; "
                                   "unpack into one name per value";
        bindAfterError();
        return;
      }
    }
    if (!valueType->isTuple()) {
      error(valueRange) << "cannot unpack a value of type " << valueType->str() << " into "
                        << tuple->elements.size() << " targets";
      bindAfterError();
      return;
    }
    if (valueType->elements().size() != tuple->elements.size()) {
      const size_t count = valueType->elements().size();
      error(valueRange) << "cannot unpack " << count << " value" << (count == 1 ? "" : "s") << " into "
                        << tuple->elements.size() << " targets";
      bindAfterError();
      return;
    }
    // The rows of a tuple of tuples go to names one by one only in a
    // `for` loop (SemaIteration.cpp).
    if (valueType->isNestedTuple()) {
      notSupportedYet(valueRange, "unpacking a tuple of tuples");
      bindAfterError();
      return;
    }
    for (size_t i = 0; i < tuple->elements.size(); ++i)
      assignTo(*tuple->elements[i], valueType->elements()[i], valueRange);
    return;
  }
  if (isa<AttributeExpr>(target)) {
    error(target.range()) << "cannot assign to an attribute";
    return;
  }
  if (auto *starred = dyn_cast<UnsupportedExpr>(&target); starred && starred->what == UnsupportedSyntax::Starred) {
    error(target.range()) << "starred assignment targets ('*x') are not supported in kernels; "
                             "unpack into one name per value";
    return;
  }
  error(target.range()) << "cannot assign to this expression";
}

void Sema::assignToName(NameExpr &target, const Type *valueType, SourceRange valueRange) {
  auto it = functionScope_.find(target.name);
  Symbol *symbol = it == functionScope_.end() ? nullptr : it->second;
  if (!symbol) {
    // A name an ignored import bound is free for a local, as in Python.
    if (const Symbol *outer = lookup(target.name); outer && outer->builtin != Builtin::IgnoredImport) {
      const bool builtin = outer->kind == SymbolKind::Builtin || outer->kind == SymbolKind::TypeName;
      if (outer->kind == SymbolKind::Constant || outer->kind == SymbolKind::Function || builtin) {
        error(target.range()) << "cannot assign to '" << target.name << "': it names a "
                              << (outer->kind == SymbolKind::Constant   ? "module constant"
                                  : outer->kind == SymbolKind::Function ? "function"
                                                                        : "builtin")
                              << "; choose another name for the local variable";
        return;
      }
    }
    symbol = addSymbol(functionScope_, Symbol{SymbolKind::Local, target.name, target.range(), nullptr, std::nullopt,
                                              ScalarKind::Bool, Builtin::None, nullptr, 0});
    function_->locals.push_back(symbol);
  }
  target.symbol = symbol;
  if (symbol->kind == SymbolKind::Local) {
    flow_.assigned.insert(symbol);
    flow_.maybeAssigned.insert(symbol);
    flow_.unassignedOn.erase(symbol);
  }
  if (symbol->kind == SymbolKind::Parameter) {
    // A scalar parameter is a variable of its declared type, as in Python;
    // its type does not widen, since the caller has fixed it.
    if (valueType->isError() || symbol->type->isError())
      return;
    if (symbol->type->isRecordArray() || valueType->isRecordArray()) {
      error(target.range()) << "cannot assign " << valueType->str() << " to parameter '" << target.name
                            << "', which is " << symbol->type->str();
      return;
    }
    if (symbol->type->isArray()) {
      // `a, b = b, a`: the name takes another array of its type; it cannot
      // become strided, since the caller fixed its type.
      if (valueType == symbol->type) {
        target.type = symbol->type;
        return;
      }
      if (!valueType->isArray()) {
        error(target.range()) << "cannot assign to array parameter '" << target.name << "'; assign to its elements ('"
                              << target.name << "[i] = ...')";
        return;
      }
      error(valueRange) << "cannot assign a value of type " << valueType->str() << " to parameter '"
                        << target.name << "', which is " << symbol->type->str()
                        << "; name the view with a local instead ('v = ...')";
      return;
    }
    if (!symbol->type->isScalar()) {
      error(target.range()) << "cannot assign to parameter '" << target.name << "', which is "
                            << symbol->type->str();
      return;
    }
    if (!valueType->isScalar()) {
      error(valueRange) << "cannot assign a value of type " << valueType->str() << " to parameter '" << target.name
                        << "', which is " << symbol->type->str();
      return;
    }
    if (isFloat(valueType->scalarKind()) && !isFloat(symbol->type->scalarKind())) {
      error(valueRange) << "cannot assign a value of type " << valueType->str() << " to parameter '" << target.name
                        << "', which is " << symbol->type->str() << "; convert with " << symbol->type->str()
                        << "(...)";
      return;
    }
    if (symbol->type->scalarKind() == ScalarKind::Bool && valueType->scalarKind() != ScalarKind::Bool) {
      error(valueRange) << "cannot assign a value of type " << valueType->str() << " to parameter '" << target.name
                        << "', which is bool; assign a comparison such as 'x != 0'";
      return;
    }
    target.type = symbol->type;
    return;
  }
  if (valueType->isError()) {
    // The value's error is reported; the local stays silent from here on.
    if (!symbol->type)
      symbol->type = types_.errorType();
    return;
  }
  if (valueType->isRecord() || (symbol->type && symbol->type->isRecord()))
    return assignRecordToName(target, *symbol, valueType, valueRange);
  // Reported in every round of checkBodyUntilTypesSettle, the last one too.
  if (valueType->isRecordArray()) {
    notSupportedYet(valueRange, "a local that names an array of " + valueType->record()->name);
    symbol->type = types_.errorType();
    return;
  }
  if (symbol->type && symbol->type->isError())
    return;
  if (valueType->isGridGroup() || (symbol->type && symbol->type->isGridGroup())) {
    // `g = cuda.cg.this_grid()`: a name for the grid group, which only
    // ever names it (a parameter cannot hold one: no signature names it).
    if (valueType != symbol->type && symbol->type) {
      error(valueRange) << "cannot assign a value of type " << valueType->str() << " to '" << target.name
                        << "', which holds " << symbol->type->str();
      return;
    }
    if (!symbol->type)
      localTypesChanged_ = true;
    symbol->type = valueType;
    target.type = valueType;
    return;
  }
  if (valueType->isArray() && !pendingArray_)
    return assignViewToName(target, *symbol, valueType, valueRange);
  if (valueType->isTuple() || (symbol->type && symbol->type->isTuple()))
    return assignTupleToName(target, *symbol, valueType, valueRange);
  if (symbol->type && symbol->type->isArray()) {
    // The statement that made the array, checked again by a later pass.
    if (pendingArray_ && target.range().begin.offset == symbol->definition.begin.offset) {
      target.type = symbol->type;
      return;
    }
    error(target.range()) << "'" << target.name << "' is a "
                          << (symbol->storage == ArrayStorage::Shared     ? "shared"
                              : symbol->storage == ArrayStorage::Constant ? "constant"
                                                                          : "local")
                          << " array; it cannot be assigned again";
    note(symbol->definition) << "'" << target.name << "' is made here";
    return;
  }
  if (valueType->isArray() && pendingArray_) {
    if (symbol->type) {
      error(valueRange) << "'" << target.name << "' already holds " << symbol->type->str()
                        << "; give the new array a name of its own";
      return;
    }
    symbol->type = valueType;
    symbol->storage = pendingArray_->storage;
    symbol->fixedShape = pendingArray_->shape;
    symbol->constantArray = pendingArray_->constant;
    localTypesChanged_ = true;
    target.type = valueType;
    return;
  }
  if (!valueType->isScalar()) {
    error(valueRange) << "this expression has no value to assign";
    return;
  }
  if (symbol->typeDeclared) {
    if (!checkNotComplexToReal(valueType, valueRange, symbol->type->scalarKind(), "assign"))
      ;
    else if (symbol->type->scalarKind() == ScalarKind::Bool && valueType->scalarKind() != ScalarKind::Bool)
      error(valueRange) << "cannot assign a value of type " << valueType->str() << " to '" << target.name
                        << "', which is declared bool; assign a comparison such as 'x != 0'";
    else if (isFloat(valueType->scalarKind()) && !isFloat(symbol->type->scalarKind()) &&
             !isComplex(symbol->type->scalarKind()))
      error(valueRange) << "cannot assign a value of type " << valueType->str() << " to '" << target.name
                        << "', which is declared " << symbol->type->str() << "; convert with "
                        << symbol->type->str() << "(...)";
    target.type = symbol->type;
    return;
  }
  if (!symbol->type) {
    // `name = value` alone: 'name = float32(value)' can be suggested there.
    const bool whole = arrayDefinitionValue_ && arrayDefinitionValue_->range().begin == valueRange.begin &&
                       arrayDefinitionValue_->range().end == valueRange.end;
    firstValues_.try_emplace(symbol, valueRange, whole);
  }
  const Type *unified = symbol->type ? unifyLocalType(symbol->type, valueType) : valueType;
  if (symbol->type && !isFloat(symbol->type->scalarKind()) && isFloat(unified->scalarKind())) {
    FloatWidening widening;
    if (auto first = firstValues_.find(symbol); first != firstValues_.end())
      std::tie(widening.firstValue, widening.firstValueIsWhole) = first->second;
    widening.firstKind = symbol->type->scalarKind();
    widening.widenedBy = valueRange;
    widening.widenedKind = valueType->scalarKind();
    widening.byTrueDivision = assignedByTrueDivision_;
    floatWidenings_.try_emplace(symbol, widening);
  }
  if (unified != symbol->type) {
    symbol->type = unified;
    localTypesChanged_ = true;
  }
  target.type = symbol->type;
}

/// A local holding a tuple: every value assigned to it is a tuple of the
/// same length, and each element unifies as a scalar local would.
void Sema::assignTupleToName(NameExpr &target, Symbol &symbol, const Type *valueType, SourceRange valueRange) {
  if (valueType->isNestedTuple()) {
    notSupportedYet(valueRange, "a local holding a tuple of tuples");
    return;
  }
  if (!valueType->isTuple() || (symbol.type && !symbol.type->isTuple()) || symbol.typeDeclared) {
    error(valueRange) << "cannot assign a value of type " << valueType->str() << " to '" << target.name
                      << "', which holds " << symbol.type->str();
    return;
  }
  const Type *unified = valueType;
  if (symbol.type) {
    const auto &have = symbol.type->elements();
    const auto &given = valueType->elements();
    if (have.size() != given.size()) {
      error(valueRange) << "cannot assign a tuple of " << given.size() << " elements to '" << target.name
                        << "', which holds " << have.size();
      return;
    }
    std::vector<const Type *> elements;
    for (size_t i = 0; i < have.size(); ++i)
      elements.push_back(unifyLocalType(have[i], given[i]));
    unified = types_.tuple(elements);
  }
  if (unified != symbol.type) {
    symbol.type = unified;
    localTypesChanged_ = true;
  }
  target.type = symbol.type;
}

void Sema::checkAugAssign(AugAssignStmt &stmt) {
  // `states[i].s0 += 1` updates a record's field.
  auto *attribute = dyn_cast<AttributeExpr>(stmt.target.get());
  if (!isa<NameExpr>(*stmt.target) && !isa<SubscriptExpr>(*stmt.target) && !attribute) {
    error(stmt.target->range()) << "augmented assignment needs a variable or an array element";
    return;
  }
  const Type *targetType = checkValue(*stmt.target);
  if (attribute && !targetType->isError() && !attribute->object->type->isRecord()) {
    error(stmt.target->range()) << "augmented assignment needs a variable or an array element";
    return;
  }
  // x += f(...) reads x, which f cannot change; a[i] += f(...) reads a[i]
  // before the call, which C++ would not order.
  if (isa<NameExpr>(*stmt.target))
    statementValue_ = stmt.value.get();
  const Type *valueType = checkValue(*stmt.value);
  if (targetType->isError() || valueType->isError())
    return;
  ArithmeticTypes types = arithmeticTypes(stmt.op, *stmt.target, *stmt.value, stmt.opRange);
  if (!types.resultType)
    return;
  // An integer target cannot be cast in place; where a float makes it a
  // float64 local, warnAboutWidenedLocals says what to write instead.
  if (isFloat(targetType->scalarKind()))
    warnIfPromotedToFloat64(types.operandType, {stmt.target.get(), stmt.value.get()}, stmt.opRange,
                            [&](const std::vector<std::string> &texts) {
                              return sourceText(stmt.target->range()) + " " + binaryOpSpelling(stmt.op) + "= " +
                                     texts[1];
                            });
  stmt.operandType = types.operandType;
  stmt.resultType = types.resultType;
  assignedByTrueDivision_ = stmt.op == BinaryOp::Div;
  assignTo(*stmt.target, types.resultType, stmt.range());
  assignedByTrueDivision_ = false;
  noteGridPositions(stmt);
}

void Sema::checkIf(IfStmt &stmt) {
  statementValue_ = stmt.condition.get();
  checkValue(*stmt.condition);
  requireCondition(*stmt.condition, "an 'if' condition");
  // Definite assignment: after the if, a local is assigned if both branches
  // assign it (a branch that returned does not count against it).
  FlowState before = flow_;
  // Both branches know how the condition bounds the thread's position.
  const std::set<const Symbol *> guardedBefore = guarded_;
  for (const Symbol *symbol : guardsOf(*stmt.condition))
    guarded_.insert(symbol);
  checkBlock(stmt.thenBody);
  FlowState afterThen = std::exchange(flow_, before);
  checkBlock(stmt.elseBody);
  guarded_ = guardedBefore;
  guardAfterEarlyReturn(stmt);
  flow_ = mergeBranches(stmt, std::move(afterThen), std::move(flow_));
}

/// A `while` body may run zero times: what it assigns does not count as
/// assigned after the loop, and a return in it does not end the path.
void Sema::checkLoopBody(StmtList &body, SourceRange loop) {
  FlowState before = flow_;
  ++loopDepth_;
  checkBlock(body);
  --loopDepth_;
  flow_ = afterLoop(loop, std::move(before), std::move(flow_), /*runsToEnd=*/false, /*runsZeroTimes=*/true);
}

void Sema::checkWhile(WhileStmt &stmt) {
  statementValue_ = stmt.condition.get();
  if (!checkValue(*stmt.condition)->isError())
    rejectViewsInWhileCondition(*stmt.condition);
  requireCondition(*stmt.condition, "a 'while' condition");
  const std::set<const Symbol *> guardedBefore = guarded_;
  for (const Symbol *symbol : guardsOf(*stmt.condition))
    guarded_.insert(symbol);
  checkLoopBody(stmt.body, stmt.range());
  guarded_ = guardedBefore;
  checkLoopElse(stmt.elseBody, stmt.range(), leavesEarly(stmt.body, /*orContinue=*/false));
}

// for_stmt: 'for' NAME 'in' 'range' '(' [start ','] stop [',' step] ')' ':' suite
// Loops over anything else are rewritten into this form first
// (SemaIteration.cpp).
void Sema::checkFor(ForStmt &stmt) {
  bool ok = isRangeCall(*stmt.iterable) || rewriteIteration(stmt);
  auto *target = dyn_cast<NameExpr>(stmt.target.get());
  if (ok && !target) {
    if (isa<TupleExpr>(*stmt.target))
      error(stmt.target->range()) << "range() gives one integer at a time; a 'for' loop over it assigns to one name";
    else
      error(stmt.target->range()) << "a 'for' loop assigns to one variable name";
    ok = false;
  }
  ok = ok && checkRange(stmt);
  FlowState before = flow_;
  if (ok)
    assignToName(*target, stmt.inductionType, stmt.target->range());
  else if (isa<NameExpr, TupleExpr>(*stmt.target))
    assignTo(*stmt.target, types_.errorType(), stmt.target->range()); // its uses stay silent
  forgetGridPositions(*stmt.target);
  ++loopDepth_;
  checkBlock(stmt.body);
  --loopDepth_;
  // `for _ in range(2)` assigns what its body assigns, unless a break or
  // continue may skip part of the body.
  const bool runsOnce = ok && runsAtLeastOnce(stmt);
  const bool runsToEnd = runsOnce && !leavesEarly(stmt.body, /*orContinue=*/true);
  flow_ = afterLoop(stmt.range(), std::move(before), std::move(flow_), runsToEnd, /*runsZeroTimes=*/!runsOnce);
  checkLoopElse(stmt.elseBody, stmt.range(), leavesEarly(stmt.body, /*orContinue=*/false));
}

/// A loop's `else` runs when the loop ends without `break`; it belongs to
/// the enclosing loop, if any (a `break` in it leaves that one). Whether it
/// runs depends on the loop: unless no `break` can skip it, what it
/// assigns counts as maybe assigned.
void Sema::checkLoopElse(StmtList &body, SourceRange loop, bool breaks) {
  if (body.empty())
    return;
  FlowState before = flow_;
  checkBlock(body);
  if (!breaks)
    return;
  const std::string path = "when the loop on line " + std::to_string(loop.begin.line) + " ends by 'break'";
  for (const Symbol *symbol : flow_.assigned)
    if (!before.assigned.count(symbol) && !before.unassignedOn.count(symbol))
      before.unassignedOn[symbol] = path;
  for (const auto &[symbol, inElse] : flow_.unassignedOn)
    before.unassignedOn.insert({symbol, inElse});
  before.maybeAssigned.insert(flow_.maybeAssigned.begin(), flow_.maybeAssigned.end());
  flow_ = std::move(before);
}

/// `x: float32 = value` declares the local's type: later assignments
/// convert to it (a float into an int is still an error) rather than
/// widen it. Without a value it declares only.
void Sema::checkAnnAssign(AnnAssignStmt &stmt) {
  auto *target = dyn_cast<NameExpr>(stmt.target.get());
  if (!target) {
    error(stmt.target->range()) << "only a variable can be annotated, as in 'x: float32 = 0'";
    return;
  }
  // Python does not evaluate a local's annotation, so it may name the
  // dtype of an array of this version of the function (`acc: out.dtype`).
  const auto dtype = arrayDtypeNamed(*stmt.annotation);
  const Type *declared = dtype ? types_.scalar(*dtype) : evaluateTypeExpr(*stmt.annotation, /*allowVoid=*/false);
  if (!declared)
    return;
  if (!declared->isScalar()) {
    error(stmt.annotation->range()) << "a local variable holds a scalar, not " << declared->str();
    return;
  }
  auto it = functionScope_.find(target->name);
  if (it != functionScope_.end() && it->second->kind == SymbolKind::Parameter) {
    error(target->range()) << "'" << target->name << "' is a parameter; its type is " << it->second->type->str();
    return;
  }
  if (it == functionScope_.end()) {
    if (const Symbol *outer = lookup(target->name);
        outer && outer->kind != SymbolKind::Local && outer->builtin != Builtin::IgnoredImport) {
      assignToName(*target, declared, stmt.range()); // reports the clash with the module name
      return;
    }
    Symbol *symbol = addSymbol(functionScope_, Symbol{SymbolKind::Local, target->name, target->range(), declared,
                                                      std::nullopt, ScalarKind::Bool, Builtin::None, nullptr, 0});
    function_->locals.push_back(symbol);
    it = functionScope_.find(target->name);
  }
  Symbol *symbol = it->second;
  if (symbol->typeDeclared && symbol->type != declared) {
    error(stmt.annotation->range()) << "'" << target->name << "' is already declared " << symbol->type->str();
    return;
  }
  if (symbol->type != declared)
    localTypesChanged_ = true;
  symbol->type = declared;
  symbol->typeDeclared = true;
  target->symbol = symbol;
  target->type = declared;
  if (!stmt.value)
    return;
  statementValue_ = stmt.value.get();
  const Type *valueType = checkValue(*stmt.value);
  assignToName(*target, valueType, stmt.value->range());
  noteGridPositions(*target, *stmt.value);
  if (!valueType->isError() && target->type && target->type->isScalar())
    checkLiteralFits(*stmt.value, target->type->scalarKind());
}

/// `assert cond[, "message"]`: checked in checked mode (pykc --checked);
/// otherwise only type-checked, as Numba compiles asserts out by default.
void Sema::checkAssert(AssertStmt &stmt) {
  checkValue(*stmt.condition);
  requireCondition(*stmt.condition, "an 'assert' condition");
  auto *text = stmt.message ? dyn_cast<StringLiteralExpr>(stmt.message.get()) : nullptr;
  if (stmt.message && !text)
    error(stmt.message->range()) << "an assert's message must be a string literal";
  else if (text && text->flavor != StringLiteralExpr::Flavor::Text)
    error(text->range()) << (text->flavor == StringLiteralExpr::Flavor::Formatted ? "f-strings" : "bytes")
                         << " are not supported as an assert's message; write a plain string literal";
}

void Sema::checkReturn(ReturnStmt &stmt) {
  const bool hasValue = stmt.value && !isa<NoneLiteralExpr>(*stmt.value);
  if (function_->kind == FunctionKind::Kernel) {
    if (hasValue)
      error(stmt.value->range()) << "a kernel cannot return a value; write results into an array parameter";
  } else if (hasValue) {
    checkReturnValue(stmt);
  } else if (returnTypeDeclared_ && !function_->returnType->isVoid() && !function_->returnType->isError()) {
    error(stmt.range()) << "'" << function_->def->name << "' returns " << function_->returnType->str()
                        << "; give this return a value";
  } else if (!returnTypeDeclared_) {
    if (!firstBareReturn_)
      firstBareReturn_ = &stmt;
    if (firstValueReturn_) {
      error(stmt.range()) << "'" << function_->def->name << "' returns a value elsewhere; return one here too";
      note(firstValueReturn_->range()) << "a value is returned here";
    }
  }
  flow_.returned = true;
}

/// `return value` in a device function: the value converts to the declared
/// return type as it would to a variable of that type; without one, the
/// return type is the unification of every returned value's type.
void Sema::checkReturnValue(ReturnStmt &stmt) {
  statementValue_ = stmt.value.get();
  const Type *type = checkValue(*stmt.value);
  if (type->isError())
    return;
  const std::string &name = function_->def->name;
  if (!type->isScalar() && !(type->isTuple() && !returnTypeDeclared_)) {
    if (returnTypeDeclared_ && function_->returnType->isError())
      return; // the annotation's error says it
    if (type->isTuple())
      error(stmt.value->range()) << "'" << name << "' is declared to return " << function_->returnType->str()
                                 << ", not a tuple; declare no return type to return " << type->str();
    else
      error(stmt.value->range()) << "a device function returns a scalar, not " << type->str()
                                 << "; write arrays through a parameter instead";
    // Its calls have no type to check against: they stay silent.
    if (!returnTypeDeclared_)
      inferredReturnType_ = types_.errorType();
    return;
  }
  if (returnTypeDeclared_) {
    const Type *declared = function_->returnType;
    if (declared->isError())
      return;
    if (declared->isVoid()) {
      error(stmt.value->range()) << "'" << name << "' is declared to return nothing; remove this value";
      return;
    }
    if (!checkNotComplexToReal(type, stmt.value->range(), declared->scalarKind(), "return"))
      return;
    if (isFloat(type->scalarKind()) && !isFloat(declared->scalarKind()) && !isComplex(declared->scalarKind())) {
      error(stmt.value->range()) << "'" << name << "' returns " << declared->str() << ", not " << type->str()
                                 << "; convert with " << declared->str() << "(...)";
      return;
    }
    checkLiteralFits(*stmt.value, declared->scalarKind());
    return;
  }
  if (!firstValueReturn_)
    firstValueReturn_ = &stmt;
  if (firstBareReturn_) {
    error(stmt.value->range()) << "'" << name << "' returns without a value elsewhere; return a value there too";
    note(firstBareReturn_->range()) << "no value is returned here";
    return;
  }
  if (inferredReturnType_ && inferredReturnType_->isError())
    return;
  if (!inferredReturnType_) {
    inferredReturnType_ = type;
    return;
  }
  // Unlike a local's, the order of the returns does not matter: the type
  // is the NumPy promotion of all of them (int64 and float64: float64),
  // element by element for tuples (`return a, b`, which the caller
  // unpacks), whose length every return shares.
  const Type *inferred = inferredReturnType_;
  if (inferred->isTuple() != type->isTuple() ||
      (type->isTuple() && inferred->elements().size() != type->elements().size())) {
    error(stmt.value->range()) << "'" << name << "' returns " << type->str() << " here but " << inferred->str()
                               << " elsewhere; return the same number of values on every path";
    note(firstValueReturn_->range()) << "the first return is here";
    inferredReturnType_ = types_.errorType();
    return;
  }
  if (!type->isTuple()) {
    inferredReturnType_ = types_.scalar(promoteTyped(inferred->scalarKind(), type->scalarKind()));
    return;
  }
  std::vector<const Type *> elements;
  for (size_t i = 0; i < type->elements().size(); ++i)
    elements.push_back(
        types_.scalar(promoteTyped(inferred->elements()[i]->scalarKind(), type->elements()[i]->scalarKind())));
  inferredReturnType_ = types_.tuple(elements);
}

void Sema::checkExprStmt(ExprStmt &stmt) {
  if (isa<StringLiteralExpr>(*stmt.expr))
    return; // A string statement documents, like a comment.
  statementValue_ = stmt.expr.get();
  // A call may have no value (print); anything else must have one.
  const Type *type = isa<CallExpr>(*stmt.expr) ? checkExpr(*stmt.expr) : checkValue(*stmt.expr);
  auto *call = dyn_cast<CallExpr>(stmt.expr.get());
  if (call && isGpuMemoryBuiltin(call->function) && (type->isVoid() || isAtomicBuiltin(call->function)))
    return; // Called for its effect: a barrier, a fence, an atomic update.
  if (call && call->calleeDef) {
    // A device function may be called for its effects alone.
    const FunctionInfo *callee = info_.infoFor(call->calleeDef);
    if (callee && !callee->hasSideEffects && !type->isError() && !bodyErrors_.count(callee) &&
        !signatureErrors_.count(callee))
      warning(stmt.range()) << "this call does nothing: '" << call->calleeDef->name
                            << "' writes no array and prints nothing" << (type->isVoid() ? "" : ", and its value is unused");
    return;
  }
  if (call && call->foreign)
    return; // CUDA C++, which may be called for its effects alone.
  if (call && type->isVoid() && call->function != Builtin::Print)
    error(stmt.range()) << "this expression has no value and does nothing";
  else if (!type->isError() && !type->isVoid())
    warning(stmt.range()) << "this expression's value is unused";
}

} // namespace pyk::sema
