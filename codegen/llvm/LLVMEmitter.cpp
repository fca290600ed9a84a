//===- LLVMEmitter.cpp - IR to LLVM IR, for the GPU and the CPU device -----===//
//
// Algorithm:
//  1. Declare every function, so that calls find their callees: for each
//     array parameter a pointer and its extents, for each scalar its
//     value. Kernels are declared as the target launches them (the PTX
//     kernel calling convention, or the CPU device's runtime entry);
//     device functions are internal, and take what the target adds (the
//     CPU device: the block's context and the thread's index).
//  2. Per function, in the entry block, give every local an alloca (SROA/mem2reg promote
//     them to registers at -O1 and above).
//  3. Emit statements in order. `if` becomes then/else/merge blocks;
//     `return` ends its block and code after it goes to a fresh block that
//     has no predecessor (removed by the optimiser). Short-circuit `and`/
//     `or` and conditional expressions branch, so the side not taken is
//     never evaluated (it may load out of bounds).
//
//===----------------------------------------------------------------------===//
#include "CpuDeviceFunctionEmitter.h"
#include "FunctionEmitter.h"
#include "NVPTXFunctionEmitter.h"

#include "IRWalk.h"
#include "pyk/Float16.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace pyk::llvmgen::emit {
namespace {

/// The most nodes each side of a Select (or a Logical's right side) may
/// have and still be evaluated without a branch (isCheapAndHarmless): a few
/// instructions, cheaper than a branch on a GPU, where threads of a warp
/// that go both ways run both.
constexpr unsigned eagerBudget = 24;

/// Whether LLVM may find `e` poison: a shift by its width or more (the IR's
/// CShl and CShr leave it undefined). Nothing else the emitter writes is:
/// its arithmetic carries no nsw or nuw.
bool mayBePoison(const Expr &e) {
  if (auto *b = llvm::dyn_cast<Binary>(&e); b && (b->op == BinaryOp::CShl || b->op == BinaryOp::CShr))
    return true;
  bool poison = false;
  forEachOperand(e, [&](const Expr &operand) { poison = poison || mayBePoison(operand); });
  return poison;
}

} // namespace

llvm::Function *FunctionEmitter::declare() {
  if (function_.kind == Function::Kind::Device)
    declareDeviceFunction();
  else
    declareKernel();
  return llvmFunction_;
}

void FunctionEmitter::emitBody() {
  attachDebugInfo();
  if (function_.fastMath)
    enableFastMath();
  llvm::BasicBlock *entry = llvm::BasicBlock::Create(context_, "entry", llvmFunction_);
  builder_.SetInsertPoint(entry);
  for (const Variable *var : function_.variables()) {
    if (var->kind != Variable::Kind::Local || var->memory != Variable::Memory::Global)
      continue;
    locals_[var] = builder_.CreateAlloca(memoryType(var->type.scalar, context_), nullptr, var->name);
  }
  allocateArrayLocals();
  allocateViewSlots();
  // A parameter the body assigns lives in memory, like a local.
  forEachStmt(function_.body, [&](const Stmt &s) {
    auto *assign = llvm::dyn_cast<Assign>(&s);
    if (assign && assign->var->kind == Variable::Kind::Param && !locals_.count(assign->var))
      locals_[assign->var] =
          builder_.CreateAlloca(memoryType(assign->var->type.scalar, context_), nullptr, assign->var->name + ".var");
  });
  if (function_.kind == Function::Kind::Kernel) {
    emitKernelBody();
    return;
  }
  enterDeviceFunction();
  initAssignedParams();
  block(function_.body);
  if (!builder_.GetInsertBlock()->getTerminator())
    returnFromFunction(nullptr);
}

// --- Statements -----------------------------------------------------------
void FunctionEmitter::block(const StmtList &body) {
  for (const StmtPtr &s : body)
    stmt(*s);
}

void FunctionEmitter::stmt(const Stmt &s) {
  at(s.loc());
  switch (s.kind()) {
  case NodeKind::Declare: {
    auto &d = cast<Declare>(s);
    if (d.var->isView())
      storeView(d.var, llvm::cast_or_null<ArrayView>(d.init.get()));
    else if (d.init)
      storeLocal(d.var, expr(*d.init));
    return;
  }
  case NodeKind::Assign: {
    auto &a = cast<Assign>(s);
    if (a.var->isView())
      storeView(a.var, &cast<ArrayView>(*a.value));
    else
      storeLocal(a.var, expr(*a.value));
    return;
  }
  case NodeKind::ArrayStore: {
    auto &st = cast<ArrayStore>(s);
    llvm::Value *value = expr(*st.value);
    std::vector<llvm::Value *> indices = indexValues(st.indices);
    at(s.loc());
    const ScalarKind element = elementType(st.array->type, st.field).scalar;
    builder_.CreateAlignedStore(toMemory(value, element), elementAddress(st.array, indices, st.narrowOffset, st.field),
                                llvm::Align(elementAlignment(st.array, st.field)));
    return;
  }
  case NodeKind::If:
    return ifStmt(cast<If>(s));
  case NodeKind::While:
    return whileLoop(cast<While>(s));
  case NodeKind::ForRange:
    return forRange(cast<ForRange>(s));
  case NodeKind::Print:
    return print(cast<Print>(s));
  case NodeKind::Break:
  case NodeKind::Continue:
    builder_.CreateBr(isa<Break>(s) ? loops_.back().exit : loops_.back().next);
    // Code after break/continue is unreachable; give it a block of its own.
    builder_.SetInsertPoint(llvm::BasicBlock::Create(context_, "after.jump", llvmFunction_));
    return;
  case NodeKind::Evaluate:
    expr(*cast<Evaluate>(s).call);
    return;
  case NodeKind::Assert:
    return; // written out, or removed, by insertChecks
  case NodeKind::Return:
    if (function_.kind == Function::Kind::Device) {
      const ExprPtr &value = cast<Return>(s).value;
      returnFromFunction(value ? expr(*value) : nullptr);
    } else {
      returnFromKernel();
    }
    // Code after a return is unreachable; give it a block of its own.
    builder_.SetInsertPoint(llvm::BasicBlock::Create(context_, "after.return", llvmFunction_));
    return;
#define PYK_IR_EXPR(Name) case NodeKind::Name:
#include "IRNodes.def"
    return;
  }
}

/// `ret value` from a device function. Sema has checked that a function
/// with a value returns on every path, so a null value there ends a block
/// no path reaches; it returns zero rather than leave the block open.
void FunctionEmitter::returnFromFunction(llvm::Value *value) {
  if (function_.returnType.isVoid())
    builder_.CreateRetVoid();
  else
    builder_.CreateRet(value ? value : llvm::Constant::getNullValue(llvmFunction_->getReturnType()));
}

/// A device function's call: each array as its pointer and extents; on
/// the CPU device then this thread's context.
llvm::Value *FunctionEmitter::call(const Call &c) {
  std::vector<llvm::Value *> args;
  for (const ExprPtr &arg : c.args) {
    auto *ref = llvm::dyn_cast<VarRef>(arg.get());
    if (!ref || !ref->var->type.isArray()) {
      args.push_back(expr(*arg));
      continue;
    }
    const ArrayValue array = arrayValue(ref->var);
    args.push_back(builder_.CreateAddrSpaceCast(array.data, llvm::PointerType::get(context_, 0)));
    args.insert(args.end(), array.extents.begin(), array.extents.end());
    args.insert(args.end(), array.strides.begin(), array.strides.end());
  }
  for (const Variable *result : c.results)
    args.push_back(builder_.CreatePointerBitCastOrAddrSpaceCast(
        locals_.at(result), llvm::PointerType::get(context_, AddressSpace::Generic)));
  if (c.callee->checked) {
    // An unchecked caller has no record: the callee's checks still skip
    // the failing access, but report nothing.
    args.push_back(checkRecord_ ? checkRecord_ : llvm::ConstantPointerNull::get(llvm::PointerType::get(context_, 0)));
    args.push_back(checkLaunch_ ? checkLaunch_ : builder_.getInt64(0));
  }
  addContextArguments(args);
  at(c.loc());
  return builder_.CreateCall(functions_.at(c.callee), args);
}

void FunctionEmitter::ifStmt(const If &s) {
  llvm::Value *condition = branchCondition(*s.condition);
  auto *thenBlock = llvm::BasicBlock::Create(context_, "if.then", llvmFunction_);
  auto *elseBlock = s.elseBody.empty() ? nullptr : llvm::BasicBlock::Create(context_, "if.else", llvmFunction_);
  auto *mergeBlock = llvm::BasicBlock::Create(context_, "if.end", llvmFunction_);
  at(s.loc());
  builder_.CreateCondBr(condition, thenBlock, elseBlock ? elseBlock : mergeBlock);
  builder_.SetInsertPoint(thenBlock);
  block(s.thenBody);
  if (!builder_.GetInsertBlock()->getTerminator())
    builder_.CreateBr(mergeBlock);
  if (elseBlock) {
    builder_.SetInsertPoint(elseBlock);
    block(s.elseBody);
    if (!builder_.GetInsertBlock()->getTerminator())
      builder_.CreateBr(mergeBlock);
  }
  builder_.SetInsertPoint(mergeBlock);
}

/// print(...): the values promoted as C's varargs are (bools as "True" and
/// "False"), written by the target (printValues).
void FunctionEmitter::print(const Print &s) {
  std::vector<llvm::Value *> values;
  for (const Print::Part &part : s.parts) {
    if (!part.value)
      continue;
    llvm::Value *value = expr(*part.value);
    const ScalarKind kind = part.value->type().scalar;
    if (kind == ScalarKind::Bool)
      value = builder_.CreateSelect(value, stringConstant("True"), stringConstant("False"));
    else if (isFloat(kind))
      value = builder_.CreateFPExt(value, builder_.getDoubleTy());
    else
      value = builder_.CreateIntCast(value, builder_.getInt64Ty(), isSignedInteger(kind));
    values.push_back(value);
  }
  at(s.loc());
  printValues(stringConstant(s.format()), std::move(values));
}

/// A pointer to a null-terminated constant string (in the target's
/// constant memory, as a generic pointer).
llvm::Value *FunctionEmitter::stringConstant(const std::string &text) {
  auto *data = llvm::ConstantDataArray::getString(context_, text);
  const unsigned space = constantAddressSpace();
  auto *global = new llvm::GlobalVariable(module_, data->getType(), true, llvm::GlobalValue::PrivateLinkage, data,
                                          "pyk.str", nullptr, llvm::GlobalValue::NotThreadLocal, space);
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  if (space == 0)
    return global;
  return builder_.CreateAddrSpaceCast(global, llvm::PointerType::get(context_, 0));
}

void FunctionEmitter::whileLoop(const While &s) {
  auto *condition = llvm::BasicBlock::Create(context_, "while.cond", llvmFunction_);
  auto *body = llvm::BasicBlock::Create(context_, "while.body", llvmFunction_);
  auto *exit = llvm::BasicBlock::Create(context_, "while.end", llvmFunction_);
  builder_.CreateBr(condition);
  builder_.SetInsertPoint(condition);
  builder_.CreateCondBr(branchCondition(*s.condition), body, exit);
  builder_.SetInsertPoint(body);
  loopBody(s.body, condition, exit);
  builder_.SetInsertPoint(exit);
}

/// start, stop and step are evaluated once; the counter lives in an
/// alloca like any local. A unit step tests v < stop (v > stop) and steps
/// v by one; any other goes to forRangeCounted.
void FunctionEmitter::forRange(const ForRange &s) {
  llvm::Value *start = expr(*s.start);
  llvm::Value *stop = expr(*s.stop);
  llvm::Value *step = expr(*s.step);
  if (s.tripCount)
    return forRangeCounted(s, start, step);
  storeLocal(s.var, start);
  auto *condition = llvm::BasicBlock::Create(context_, "for.cond", llvmFunction_);
  auto *body = llvm::BasicBlock::Create(context_, "for.body", llvmFunction_);
  auto *next = llvm::BasicBlock::Create(context_, "for.next", llvmFunction_);
  auto *exit = llvm::BasicBlock::Create(context_, "for.end", llvmFunction_);
  builder_.CreateBr(condition);

  builder_.SetInsertPoint(condition);
  at(s.loc());
  const bool isSigned = isSignedInteger(s.var->type.scalar);
  llvm::Value *i = builder_.CreateLoad(registerType(s.var->type.scalar, context_), locals_.at(s.var));
  llvm::Value *ascending = builder_.CreateICmp(isSigned ? llvm::CmpInst::ICMP_SLT : llvm::CmpInst::ICMP_ULT, i, stop);
  llvm::Value *descending = builder_.CreateICmp(isSigned ? llvm::CmpInst::ICMP_SGT : llvm::CmpInst::ICMP_UGT, i, stop);
  builder_.CreateCondBr(s.stepSign > 0 ? ascending : descending, body, exit);

  builder_.SetInsertPoint(body);
  loopBody(s.body, next, exit);

  builder_.SetInsertPoint(next);
  llvm::Value *current = builder_.CreateLoad(registerType(s.var->type.scalar, context_), locals_.at(s.var));
  // v < stop (v > stop) held, so v + 1 (v - 1) does not overflow.
  storeLocal(s.var, isSigned ? builder_.CreateNSWAdd(current, step) : builder_.CreateNUWAdd(current, step));
  builder_.CreateBr(condition);
  builder_.SetInsertPoint(exit);
}

/// Any step but 1 (ForRange::hasUnitStep): the IR's trip count (Python's
/// len(range(...)), lowerPythonOps) is computed first, and a counter k runs
/// up to it, with v = start + k * step, so that v never steps past stop and
/// wraps around its type's end. For a step known only at run time (a
/// grid-stride loop's cuda.gridsize(1)) this also lets LLVM unroll the loop
/// by a run-time factor, keeping several loads in flight per thread as nvcc
/// does for the same loop: with `v += step; v < stop` it would have to
/// divide for the trip count itself, which it will not do.
void FunctionEmitter::forRangeCounted(const ForRange &s, llvm::Value *start, llvm::Value *step) {
  // The trip count may read the counter, which holds start.
  storeLocal(s.var, start);
  llvm::Value *count = expr(*s.tripCount);
  at(s.loc());
  llvm::Type *type = step->getType();
  llvm::Value *zero = llvm::ConstantInt::get(type, 0), *one = llvm::ConstantInt::get(type, 1);
  llvm::IRBuilder<> entry(&llvmFunction_->getEntryBlock(), llvmFunction_->getEntryBlock().begin());
  llvm::AllocaInst *trip = entry.CreateAlloca(type, nullptr, "trip");
  builder_.CreateStore(zero, trip);

  auto *condition = llvm::BasicBlock::Create(context_, "for.cond", llvmFunction_);
  auto *body = llvm::BasicBlock::Create(context_, "for.body", llvmFunction_);
  auto *next = llvm::BasicBlock::Create(context_, "for.next", llvmFunction_);
  auto *exit = llvm::BasicBlock::Create(context_, "for.end", llvmFunction_);
  builder_.CreateBr(condition);
  builder_.SetInsertPoint(condition);
  llvm::Value *k = builder_.CreateLoad(type, trip);
  builder_.CreateCondBr(builder_.CreateICmpULT(k, count), body, exit);

  builder_.SetInsertPoint(body);
  storeLocal(s.var, builder_.CreateAdd(start, builder_.CreateMul(k, step)));
  loopBody(s.body, next, exit);

  builder_.SetInsertPoint(next);
  builder_.CreateStore(builder_.CreateNUWAdd(builder_.CreateLoad(type, trip), one), trip);
  builder_.CreateBr(condition);
  builder_.SetInsertPoint(exit);
}

void FunctionEmitter::storeLocal(const Variable *var, llvm::Value *value) {
  builder_.CreateStore(toMemory(value, var->type.scalar), locals_.at(var));
}

// --- Expressions ----------------------------------------------------------
llvm::Value *FunctionEmitter::expr(const Expr &e) {
  at(e.loc());
  switch (e.kind()) {
  case NodeKind::Constant:
    return constant(cast<Constant>(e));
  case NodeKind::VarRef: {
    const Variable *var = cast<VarRef>(e).var;
    if (!locals_.count(var))
      return scalars_.at(var);
    llvm::Value *loaded = builder_.CreateLoad(memoryType(var->type.scalar, context_), locals_.at(var), var->name);
    return fromMemory(loaded, var->type.scalar);
  }
  case NodeKind::Cast: {
    auto &c = cast<Cast>(e);
    return convert(expr(*c.operand), c.operand->type().scalar, c.type().scalar);
  }
  case NodeKind::Unary: {
    auto &u = cast<Unary>(e);
    llvm::Value *operand = expr(*u.operand);
    if (u.op == UnaryOp::Not || u.op == UnaryOp::BitNot)
      return builder_.CreateNot(operand);
    if (u.op == UnaryOp::Round)
      return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, operand);
    if (u.op == UnaryOp::Popc)
      return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, operand);
    if (u.op == UnaryOp::Brev)
      return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, operand);
    if (u.op == UnaryOp::Clz)
      return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, operand, builder_.getFalse());
    if (u.op == UnaryOp::Ffs) {
      // The 1-based position of the lowest set bit; 0 for 0.
      llvm::Value *zero = llvm::ConstantInt::get(operand->getType(), 0);
      llvm::Value *position =
          builder_.CreateAdd(builder_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, operand, builder_.getTrue()),
                             llvm::ConstantInt::get(operand->getType(), 1));
      return builder_.CreateSelect(builder_.CreateICmpEQ(operand, zero), zero, position);
    }
    if (u.op == UnaryOp::Abs) {
      if (isFloat(e.type().scalar))
        return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, operand);
      if (isUnsignedInteger(e.type().scalar))
        return operand;
      // abs(MIN) wraps to MIN (NumPy), so it is not poison here.
      return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, operand, builder_.getFalse());
    }
    return isFloat(e.type().scalar) ? builder_.CreateFNeg(operand) : builder_.CreateNeg(operand);
  }
  case NodeKind::Binary:
    return binary(cast<Binary>(e));
  case NodeKind::DivisorCheck:
    break; // written out by insertChecks
  case NodeKind::Compare:
    return compare(cast<Compare>(e));
  case NodeKind::Logical: {
    // As a value, a cheap, harmless right side is evaluated anyway: no
    // branch.
    auto &l = cast<Logical>(e);
    if (unsigned budget = eagerBudget; isCheapAndHarmless(*l.rhs, budget)) {
      llvm::Value *lhs = expr(*l.lhs);
      llvm::Value *rhs = expr(*l.rhs);
      // `and i1` lets LLVM simplify more than a select does, but passes
      // on a right side's poison where the left side decides.
      if (!mayBePoison(*l.rhs))
        return l.op == LogicalOp::And ? builder_.CreateAnd(lhs, rhs) : builder_.CreateOr(lhs, rhs);
      return l.op == LogicalOp::And ? builder_.CreateLogicalAnd(lhs, rhs) : builder_.CreateLogicalOr(lhs, rhs);
    }
    return shortCircuit(l.op == LogicalOp::And, *l.lhs, *l.rhs);
  }
  case NodeKind::Select: {
    auto &s = cast<Select>(e);
    unsigned thenBudget = eagerBudget, elseBudget = eagerBudget;
    if (isCheapAndHarmless(*s.thenValue, thenBudget) && isCheapAndHarmless(*s.elseValue, elseBudget)) {
      llvm::Value *condition = expr(*s.condition);
      llvm::Value *thenValue = expr(*s.thenValue);
      llvm::Value *elseValue = expr(*s.elseValue);
      return builder_.CreateSelect(condition, thenValue, elseValue);
    }
    return conditional(*s.condition, *s.thenValue, *s.elseValue);
  }
  case NodeKind::WrapIndex:
    break; // lowered to a call of pyk_wrap_index (lowerPythonOps)
  case NodeKind::SpecialReg:
    return specialReg(cast<SpecialReg>(e));
  case NodeKind::ArrayDim: {
    auto &d = cast<ArrayDim>(e);
    return arrayValue(d.array).extents[d.axis];
  }
  case NodeKind::ArrayStride: {
    auto &d = cast<ArrayStride>(e);
    return arrayValue(d.array).strides[d.axis];
  }
  case NodeKind::ArrayView:
    break; // only the value of a view local (storeView)
  case NodeKind::MathCall: {
    auto &m = cast<MathCall>(e);
    std::vector<llvm::Value *> args;
    for (const ExprPtr &arg : m.args)
      args.push_back(expr(*arg));
    at(e.loc());
    const std::string name = m.name + (e.type().scalar == ScalarKind::Float32 ? "f" : "");
    if (args.size() == 1)
      return mathCall(name, {args[0]});
    if (args.size() == 2)
      return mathCall(name, {args[0], args[1]});
    return mathCall(name, {args[0], args[1], args[2]});
  }
  case NodeKind::LibdeviceCall:
    return libdeviceCall(cast<LibdeviceCall>(e));
  case NodeKind::ForeignCall:
    return foreignCall(cast<ForeignCall>(e));
  case NodeKind::ComplexMake: {
    auto &m = cast<ComplexMake>(e);
    llvm::Value *real = expr(*m.real), *imag = expr(*m.imag);
    llvm::Value *value = llvm::PoisonValue::get(registerType(e.type().scalar, context_));
    return builder_.CreateInsertValue(builder_.CreateInsertValue(value, real, {0}), imag, {1});
  }
  case NodeKind::ComplexPart: {
    auto &p = cast<ComplexPart>(e);
    return builder_.CreateExtractValue(expr(*p.operand), {p.imag ? 1u : 0u});
  }
  case NodeKind::ArrayLoad: {
    auto &l = cast<ArrayLoad>(e);
    std::vector<llvm::Value *> indices = indexValues(l.indices);
    at(e.loc());
    const ScalarKind element = l.type().scalar;
    llvm::LoadInst *loaded = builder_.CreateAlignedLoad(memoryType(element, context_),
                                                        elementAddress(l.array, indices, l.narrowOffset, l.field),
                                                        llvm::Align(elementAlignment(l.array, l.field)), l.array->name);
    // A kernel's read-only array (noalias, never written by it or the device
    // functions it calls) does not change while the kernel runs.
    if (function_.kind == Function::Kind::Kernel && l.array->memory == Variable::Memory::Global &&
        l.array->readOnly)
      markReadOnlyLoad(loaded);
    return fromMemory(loaded, element);
  }
  case NodeKind::Call:
    return call(cast<Call>(e));
  case NodeKind::GpuOp:
    return gpuOp(cast<GpuOp>(e));
  case NodeKind::Atomic:
    return atomic(cast<Atomic>(e));
  case NodeKind::CheckFailed:
    return checkFailed(cast<CheckFailed>(e));
  case NodeKind::Let: {
    auto &l = cast<Let>(e);
    storeLocal(l.var, expr(*l.value));
    return expr(*l.body);
  }
#define PYK_IR_STMT(Name) case NodeKind::Name:
#include "IRNodes.def"
    break;
  }
  return nullptr;
}

llvm::Value *FunctionEmitter::constant(const Constant &c) {
  ScalarKind kind = c.type().scalar;
  llvm::Type *type = registerType(kind, context_);
  if (kind == ScalarKind::BFloat16)
    return llvm::ConstantInt::get(type, pyk::bfloat16(c.floatValue).bits());
  if (isFloat(kind))
    return llvm::ConstantFP::get(type, c.floatValue);
  return llvm::ConstantInt::get(type, static_cast<uint64_t>(c.intValue), isSignedInteger(kind));
}

llvm::Value *FunctionEmitter::binary(const Binary &b) {
  llvm::Value *lhs = expr(*b.lhs);
  llvm::Value *rhs = expr(*b.rhs);
  at(b.loc());
  const ScalarKind kind = b.type().scalar;
  const bool floating = isFloat(kind);
  switch (b.op) {
  case BinaryOp::Add:
    return floating ? builder_.CreateFAdd(lhs, rhs) : builder_.CreateAdd(lhs, rhs);
  case BinaryOp::Sub:
    return floating ? builder_.CreateFSub(lhs, rhs) : builder_.CreateSub(lhs, rhs);
  case BinaryOp::Mul:
    return floating ? builder_.CreateFMul(lhs, rhs) : builder_.CreateMul(lhs, rhs);
  case BinaryOp::Div:
    if (function_.fastMath && kind == ScalarKind::Float32)
      if (llvm::Value *fast = fastDivide(lhs, rhs))
        return fast;
    return builder_.CreateFDiv(lhs, rhs);
  case BinaryOp::CDiv:
    return isSignedInteger(kind) ? builder_.CreateSDiv(lhs, rhs) : builder_.CreateUDiv(lhs, rhs);
  case BinaryOp::CRem:
    return isSignedInteger(kind) ? builder_.CreateSRem(lhs, rhs) : builder_.CreateURem(lhs, rhs);
  case BinaryOp::CShl:
    return builder_.CreateShl(lhs, rhs);
  case BinaryOp::CShr:
    return isSignedInteger(kind) ? builder_.CreateAShr(lhs, rhs) : builder_.CreateLShr(lhs, rhs);
  case BinaryOp::And:
    return builder_.CreateAnd(lhs, rhs);
  case BinaryOp::Or:
    return builder_.CreateOr(lhs, rhs);
  case BinaryOp::Xor:
    return builder_.CreateXor(lhs, rhs);
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod:
  case BinaryOp::Pow:
  case BinaryOp::Shl:
  case BinaryOp::Shr:
  case BinaryOp::Min:
  case BinaryOp::Max:
    break; // Python's: lowered to calls (lowerPythonOps)
  }
  return nullptr;
}

llvm::Value *FunctionEmitter::callMathFunction(const std::string &symbol, std::initializer_list<llvm::Value *> args,
                                               bool pure) {
  std::vector<llvm::Type *> types;
  for (llvm::Value *arg : args)
    types.push_back(arg->getType());
  llvm::FunctionCallee callee =
      module_.getOrInsertFunction(symbol, llvm::FunctionType::get(types.front(), types, false));
  if (auto *function = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    function->addFnAttr(llvm::Attribute::NoUnwind);
    if (pure)
      function->setDoesNotAccessMemory();
  }
  return builder_.CreateCall(callee, std::vector<llvm::Value *>(args));
}

llvm::Value *FunctionEmitter::compare(const Compare &c) {
  llvm::Value *lhs = expr(*c.lhs);
  llvm::Value *rhs = expr(*c.rhs);
  at(c.loc());
  ScalarKind kind = c.lhs->type().scalar;
  using P = llvm::CmpInst::Predicate;
  static constexpr P floatPredicates[] = {P::FCMP_OLT, P::FCMP_OLE, P::FCMP_OGT, P::FCMP_OGE, P::FCMP_OEQ, P::FCMP_UNE};
  static constexpr P signedPredicates[] = {P::ICMP_SLT, P::ICMP_SLE, P::ICMP_SGT, P::ICMP_SGE, P::ICMP_EQ, P::ICMP_NE};
  static constexpr P unsignedPredicates[] = {P::ICMP_ULT, P::ICMP_ULE, P::ICMP_UGT,
                                             P::ICMP_UGE, P::ICMP_EQ,  P::ICMP_NE};
  const auto index = static_cast<size_t>(c.op);
  if (isFloat(kind))
    return builder_.CreateFCmp(floatPredicates[index], lhs, rhs);
  // NaN compares unequal to everything, as in Python: `!=` is the unordered
  // predicate above; bools and unsigned integers compare unsigned.
  return builder_.CreateICmp(isSignedInteger(kind) ? signedPredicates[index] : unsignedPredicates[index], lhs, rhs);
}

/// `lhs and rhs` / `lhs or rhs`, evaluating `rhs` only when needed.
/// The condition of an if or a loop: `and`/`or` as branches, as written,
/// however cheap their sides (what a branch skips is the program's choice).
llvm::Value *FunctionEmitter::branchCondition(const Expr &e) {
  if (auto *l = llvm::dyn_cast<Logical>(&e))
    return shortCircuit(l->op == LogicalOp::And, *l->lhs, *l->rhs, true);
  return expr(e);
}

llvm::Value *FunctionEmitter::shortCircuit(bool isAnd, const Expr &lhsExpr, const Expr &rhsExpr,
                                           bool inBranchCondition) {
  auto operand = [&](const Expr &side) { return inBranchCondition ? branchCondition(side) : expr(side); };
  llvm::Value *lhs = operand(lhsExpr);
  llvm::BasicBlock *lhsEnd = builder_.GetInsertBlock();
  auto *rhsBlock = llvm::BasicBlock::Create(context_, isAnd ? "and.rhs" : "or.rhs", llvmFunction_);
  auto *mergeBlock = llvm::BasicBlock::Create(context_, isAnd ? "and.end" : "or.end", llvmFunction_);
  if (isAnd)
    builder_.CreateCondBr(lhs, rhsBlock, mergeBlock);
  else
    builder_.CreateCondBr(lhs, mergeBlock, rhsBlock);
  builder_.SetInsertPoint(rhsBlock);
  llvm::Value *rhs = operand(rhsExpr);
  llvm::BasicBlock *rhsEnd = builder_.GetInsertBlock();
  builder_.CreateBr(mergeBlock);
  builder_.SetInsertPoint(mergeBlock);
  llvm::PHINode *result = builder_.CreatePHI(llvm::Type::getInt1Ty(context_), 2);
  result->addIncoming(llvm::ConstantInt::getBool(context_, !isAnd), lhsEnd);
  result->addIncoming(rhs, rhsEnd);
  return result;
}

/// `thenValue if condition else elseValue`, evaluating one side only.
llvm::Value *FunctionEmitter::conditional(const Expr &conditionExpr, const Expr &thenExpr, const Expr &elseExpr) {
  llvm::Value *condition = expr(conditionExpr);
  auto *thenBlock = llvm::BasicBlock::Create(context_, "cond.then", llvmFunction_);
  auto *elseBlock = llvm::BasicBlock::Create(context_, "cond.else", llvmFunction_);
  auto *mergeBlock = llvm::BasicBlock::Create(context_, "cond.end", llvmFunction_);
  builder_.CreateCondBr(condition, thenBlock, elseBlock);
  builder_.SetInsertPoint(thenBlock);
  llvm::Value *thenValue = expr(thenExpr);
  llvm::BasicBlock *thenEnd = builder_.GetInsertBlock();
  builder_.CreateBr(mergeBlock);
  builder_.SetInsertPoint(elseBlock);
  llvm::Value *elseValue = expr(elseExpr);
  llvm::BasicBlock *elseEnd = builder_.GetInsertBlock();
  builder_.CreateBr(mergeBlock);
  builder_.SetInsertPoint(mergeBlock);
  llvm::PHINode *result = builder_.CreatePHI(thenValue->getType(), 2);
  result->addIncoming(thenValue, thenEnd);
  result->addIncoming(elseValue, elseEnd);
  return result;
}

/// A loop's body, where continue goes to `next` and break to `exit`; it
/// falls through to `next`.
void FunctionEmitter::loopBody(const StmtList &body, llvm::BasicBlock *next, llvm::BasicBlock *exit) {
  loops_.push_back({next, exit});
  block(body);
  loops_.pop_back();
  if (!builder_.GetInsertBlock()->getTerminator())
    builder_.CreateBr(next);
}

// --- Conversions ----------------------------------------------------------
llvm::Value *FunctionEmitter::toMemory(llvm::Value *value, ScalarKind kind) {
  return kind == ScalarKind::Bool ? builder_.CreateZExt(value, llvm::Type::getInt8Ty(context_)) : value;
}

llvm::Value *FunctionEmitter::fromMemory(llvm::Value *value, ScalarKind kind) {
  return kind == ScalarKind::Bool ? builder_.CreateICmpNE(value, builder_.getInt8(0)) : value;
}

/// A Cast: C's conversions, except float to integer, which saturates (NaN
/// to 0) as the IR defines it.
llvm::Value *FunctionEmitter::convert(llvm::Value *value, ScalarKind from, ScalarKind to) {
  llvm::Type *type = registerType(to, context_);
  if (from == to)
    return value;
  if (from == ScalarKind::BFloat16 || to == ScalarKind::BFloat16)
    return convertBFloat16(value, from, to);
  if (to == ScalarKind::Bool)
    return isFloat(from) ? builder_.CreateFCmpUNE(value, llvm::ConstantFP::get(value->getType(), 0.0))
                         : builder_.CreateICmpNE(value, llvm::ConstantInt::get(value->getType(), 0));
  if (isFloat(from) && isFloat(to))
    return builder_.CreateFPCast(value, type);
  if (isFloat(from))
    return builder_.CreateIntrinsic(isSignedInteger(to) ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat,
                                    {type, value->getType()}, {value});
  if (isFloat(to))
    return isSignedInteger(from) ? builder_.CreateSIToFP(value, type) : builder_.CreateUIToFP(value, type);
  return builder_.CreateIntCast(value, type, isSignedInteger(from));
}

} // namespace pyk::llvmgen::emit

namespace pyk::llvmgen {

using namespace ir;

std::unique_ptr<llvm::Module> emitLLVMModule(const Module &module, llvm::LLVMContext &context,
                                             const LLVMEmitOptions &options) {
  auto result = std::make_unique<llvm::Module>(module.sourceName, context);
  // The one place that chooses among the targets.
  const bool gpu = options.target == LLVMTarget::NVPTX;
  if (gpu)
    emit::NVPTXFunctionEmitter::prepareModule(*result);
  std::unique_ptr<llvm::DIBuilder> debug;
  llvm::DIFile *file = nullptr;
  bool lineInfo = options.lineInfo;
  for (const auto &function : module.functions)
    lineInfo |= function->lineInfo;
  if (lineInfo) {
    debug = std::make_unique<llvm::DIBuilder>(*result);
    // An absolute path, so that profilers and debuggers find the .pyk file
    // from wherever they run.
    llvm::SmallString<256> path(module.sourceName);
    llvm::sys::fs::make_absolute(path);
    file = debug->createFile(llvm::sys::path::filename(path), llvm::sys::path::parent_path(path));
    debug->createCompileUnit(llvm::dwarf::DW_LANG_Python, file, "pykc", /*isOptimized=*/true, "", 0, "",
                             llvm::DICompileUnit::DebugDirectivesOnly);
    result->addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
    result->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 2);
  }
  emit::FunctionMap functions;
  std::vector<std::unique_ptr<emit::FunctionEmitter>> emitters;
  for (const auto &function : module.functions) {
    const bool withLines = options.lineInfo || function->lineInfo;
    llvm::DIBuilder *lines = withLines ? debug.get() : nullptr;
    if (gpu)
      emitters.push_back(std::make_unique<emit::NVPTXFunctionEmitter>(*function, module, *result, lines, file, functions));
    else
      emitters.push_back(
          std::make_unique<emit::CpuDeviceFunctionEmitter>(*function, module, *result, lines, file, functions));
    functions[function.get()] = emitters.back()->declare();
  }
  for (auto &emitter : emitters)
    emitter->emitBody();
  if (!gpu)
    emit::CpuDeviceFunctionEmitter::finishModule(*result);
  if (debug)
    debug->finalize();
  return result;
}

} // namespace pyk::llvmgen
