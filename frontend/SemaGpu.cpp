//===- SemaGpu.cpp - Shared and local arrays, barriers, fences, atomics ---===//
//
// The GPU memory model's builtins. Each call that synchronises or writes
// memory has effects, so, like a device function that writes arrays, it
// must be the whole of its statement (statementValue_): it then runs once,
// in Python's order, in every backend.
//
//===----------------------------------------------------------------------===//
#include "GpuLimits.h"
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/MathExtras.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// Which check a GPU builtin gets: the one list of them.
enum class GpuBuiltinGroup { None, Array, Synchronisation, Warp, Intrinsic, Atomic };

GpuBuiltinGroup groupOf(Builtin builtin) {
  switch (builtin) {
  case Builtin::SharedArray:
  case Builtin::LocalArray:
  case Builtin::ConstArrayLike:
    return GpuBuiltinGroup::Array;
  case Builtin::SyncThreads:
  case Builtin::SyncThreadsCount:
  case Builtin::SyncThreadsAnd:
  case Builtin::SyncThreadsOr:
  case Builtin::ThreadFence:
  case Builtin::ThreadFenceBlock:
  case Builtin::ThreadFenceSystem:
  case Builtin::GridSync:
  case Builtin::Nanosleep:
    return GpuBuiltinGroup::Synchronisation;
  case Builtin::SyncWarp:
  case Builtin::ShflSync:
  case Builtin::ShflUpSync:
  case Builtin::ShflDownSync:
  case Builtin::ShflXorSync:
  case Builtin::AllSync:
  case Builtin::AnySync:
  case Builtin::EqSync:
  case Builtin::BallotSync:
  case Builtin::MatchAnySync:
  case Builtin::MatchAllSync:
  case Builtin::ActiveMask:
  case Builtin::LaneMaskLt:
    return GpuBuiltinGroup::Warp;
  case Builtin::Popc:
  case Builtin::Brev:
  case Builtin::Clz:
  case Builtin::Ffs:
  case Builtin::Fma:
  case Builtin::Cbrt:
  case Builtin::Selp:
    return GpuBuiltinGroup::Intrinsic;
  case Builtin::AtomicAdd:
  case Builtin::AtomicSub:
  case Builtin::AtomicAnd:
  case Builtin::AtomicOr:
  case Builtin::AtomicXor:
  case Builtin::AtomicMax:
  case Builtin::AtomicMin:
  case Builtin::AtomicExch:
  case Builtin::AtomicInc:
  case Builtin::AtomicDec:
  case Builtin::AtomicCas:
  case Builtin::AtomicNanMax:
  case Builtin::AtomicNanMin:
  case Builtin::AtomicCompareAndSwap:
    return GpuBuiltinGroup::Atomic;
  default:
    return GpuBuiltinGroup::None;
  }
}

} // namespace

bool Sema::isAtomicBuiltin(Builtin builtin) { return groupOf(builtin) == GpuBuiltinGroup::Atomic; }

bool Sema::isGpuMemoryBuiltin(Builtin builtin) { return groupOf(builtin) != GpuBuiltinGroup::None; }

const Type *Sema::checkGpuMemoryCall(CallExpr &expr, Builtin builtin) {
  expr.function = builtin;
  switch (groupOf(builtin)) {
  case GpuBuiltinGroup::Array:
    if (builtin == Builtin::ConstArrayLike)
      return checkConstArrayLike(expr);
    return checkArrayConstructor(expr, builtin == Builtin::SharedArray);
  case GpuBuiltinGroup::Atomic:
    return checkAtomic(expr, builtin);
  case GpuBuiltinGroup::Warp:
    return checkWarpOperation(expr, builtin);
  case GpuBuiltinGroup::Intrinsic:
    return checkIntrinsic(expr, builtin);
  case GpuBuiltinGroup::Synchronisation:
  case GpuBuiltinGroup::None:
    break;
  }
  return checkSynchronisation(expr, builtin);
}

/// The warp operations, Numba's signatures: (mask, value, lane or delta)
/// for the shuffles, (mask, predicate) for the votes, (mask, value) for
/// match_any_sync and match_all_sync, () for activemask and lanemask_lt. A mask is an integer
/// (its low 32 bits count). They read no memory, so unlike barriers they
/// may stand anywhere in an expression; every lane of the mask must reach
/// them, as in CUDA.
const Type *Sema::checkWarpOperation(CallExpr &expr, Builtin builtin) {
  const std::string name(builtinName(builtin));
  const bool shuffle = builtin == Builtin::ShflSync || builtin == Builtin::ShflUpSync ||
                       builtin == Builtin::ShflDownSync || builtin == Builtin::ShflXorSync;
  const size_t arity = shuffle ? 3 : builtin == Builtin::SyncWarp ? 1
                                   : builtin == Builtin::ActiveMask || builtin == Builtin::LaneMaskLt ? 0
                                                                                                      : 2;
  const size_t minimum = builtin == Builtin::SyncWarp ? 0 : arity;
  if (!requirePositional(expr, name.c_str(), minimum, arity))
    return setType(expr, types_.errorType());
  bool ok = true;
  for (ExprPtr &arg : expr.args)
    ok &= !checkValue(*arg)->isError();
  if (!ok)
    return setType(expr, types_.errorType());
  auto requireInteger = [&](Expr &arg, const char *what) {
    if (arg.type->isScalar() && isInteger(arg.type->scalarKind()) && arg.type->scalarKind() != ScalarKind::Bool)
      return true;
    error(arg.range()) << name << "()'s " << what << " must be an integer, not " << describe(arg);
    return false;
  };
  if (!expr.args.empty() && !requireInteger(*expr.args[0], "mask"))
    return setType(expr, types_.errorType());
  if (function_)
    function_->synchronises = true;
  switch (builtin) {
  case Builtin::SyncWarp:
    if (!requireWholeStatement(expr, name + "()"))
      return setType(expr, types_.errorType());
    return setType(expr, types_.voidType());
  case Builtin::ActiveMask:
  case Builtin::LaneMaskLt:
    return setType(expr, types_.scalar(ScalarKind::UInt32));
  case Builtin::AllSync:
  case Builtin::AnySync:
  case Builtin::EqSync:
  case Builtin::BallotSync: {
    Expr &predicate = *expr.args[1];
    if (!predicate.type->isScalar() || isFloat(predicate.type->scalarKind())) {
      error(predicate.range()) << name << "() takes a bool or an integer predicate, not " << describe(predicate);
      return setType(expr, types_.errorType());
    }
    return setType(expr, builtin == Builtin::BallotSync ? types_.scalar(ScalarKind::UInt32) : types_.boolType());
  }
  default:
    break;
  }
  // The shuffles and match_any_sync exchange a value of 32 or 64 bits.
  Expr &value = *expr.args[1];
  const ScalarKind kind = value.type->isScalar() ? value.type->scalarKind() : ScalarKind::Bool;
  if (!value.type->isScalar() || kind == ScalarKind::Bool || byteWidth(kind) < 4 || isComplex(kind)) {
    error(value.range()) << name << "() exchanges 32- or 64-bit numbers, not " << describe(value);
    return setType(expr, types_.errorType());
  }
  if (builtin == Builtin::MatchAnySync)
    return setType(expr, types_.scalar(ScalarKind::UInt32));
  if (builtin == Builtin::MatchAllSync) {
    // (mask, all lanes matched), Numba's tuple, with pyk's uint32 masks.
    if (&expr != statementValue_) {
      error(expr.range()) << name << "() returns a tuple, so a call of it must be the whole value of an "
                          << "assignment or a return, as in 'mask, same = " << name << "(...)'";
      return setType(expr, types_.errorType());
    }
    return setType(expr, types_.tuple({types_.scalar(ScalarKind::UInt32), types_.boolType()}));
  }
  if (!requireInteger(*expr.args[2], builtin == Builtin::ShflSync ? "source lane" : builtin == Builtin::ShflXorSync ? "lane mask" : "delta"))
    return setType(expr, types_.errorType());
  expr.isWeak = value.isWeak;
  return setType(expr, value.type);
}

/// cuda.popc, brev, clz, ffs on integers (popc, clz and ffs give int32, as
/// CUDA's __popc; brev the operand's type, at least 32 bits), cuda.fma,
/// cbrt on numbers (float32 stays float32, anything else float64) and
/// cuda.selp.
const Type *Sema::checkIntrinsic(CallExpr &expr, Builtin builtin) {
  const std::string name(builtinName(builtin));
  const size_t arity = builtin == Builtin::Fma || builtin == Builtin::Selp ? 3 : 1;
  if (!requirePositional(expr, name.c_str(), arity, arity))
    return setType(expr, types_.errorType());
  if (builtin == Builtin::Selp)
    return checkSelp(expr);
  if (builtin == Builtin::Fma || builtin == Builtin::Cbrt) {
    std::optional<PromotionOperand> common = promoteNumericArguments(expr, name);
    if (!common)
      return setType(expr, types_.errorType());
    const ScalarKind kind = common->kind == ScalarKind::Float32 && !common->weak ? ScalarKind::Float32
                                                                                  : ScalarKind::Float64;
    expr.operandType = types_.scalar(kind);
    return setType(expr, expr.operandType);
  }
  const Type *type = checkValue(*expr.args[0]);
  if (type->isError())
    return setType(expr, types_.errorType());
  if (!type->isScalar() || !isInteger(type->scalarKind()) || type->scalarKind() == ScalarKind::Bool) {
    error(expr.args[0]->range()) << name << "() takes an integer, not " << describe(*expr.args[0]);
    return setType(expr, types_.errorType());
  }
  // The operand in 32 or 64 bits, as CUDA's intrinsics take it.
  ScalarKind operand = type->scalarKind();
  if (byteWidth(operand) < 4)
    operand = isSignedInteger(operand) ? ScalarKind::Int32 : ScalarKind::UInt32;
  if (expr.args[0]->isWeak)
    operand = ScalarKind::Int64;
  expr.operandType = types_.scalar(operand);
  return setType(expr, builtin == Builtin::Brev ? expr.operandType : types_.int32Type());
}

/// cuda.selp(test, a, b): a where the test holds, else b, all three
/// evaluated (it is a call). Numba asks a and b to have one type; here they
/// promote as a conditional expression's values do (NEP 50), so that
/// `cuda.selp(c, x[i], 0.0)` keeps x's float32.
const Type *Sema::checkSelp(CallExpr &expr) {
  bool ok = !checkValue(*expr.args[0])->isError();
  ok = ok && requireCondition(*expr.args[0], "the test of cuda.selp");
  for (size_t i = 1; i < 3; ++i) {
    const Type *type = checkValue(*expr.args[i]);
    if (type->isError()) {
      ok = false;
    } else if (!type->isScalar()) {
      error(expr.args[i]->range()) << "cuda.selp() chooses between numbers, not " << describe(*expr.args[i]);
      ok = false;
    }
  }
  if (!ok)
    return setType(expr, types_.errorType());
  PromotionOperand promoted = promote(promotionOperand(*expr.args[1]), promotionOperand(*expr.args[2]));
  expr.isWeak = promoted.weak;
  expr.operandType = types_.scalar(promoted.kind);
  return setType(expr, expr.operandType);
}

/// A call with effects stands alone: see the file comment.
bool Sema::requireWholeStatement(CallExpr &expr, const std::string &name) {
  if (function_)
    function_->hasSideEffects = true;
  if (&expr == statementValue_)
    return true;
  error(expr.range()) << name
                      << " must be a statement of its own or the whole value of an assignment, return, 'if' or "
                         "'while'; assign its result to a local first";
  return false;
}

/// cuda.shared.array(shape, dtype) and cuda.local.array(shape, dtype), also
/// with shape= and dtype= keywords: an array of constant shape, assigned to
/// a local when it is made ('tile = cuda.shared.array((16, 16), float32)').
const Type *Sema::checkArrayConstructor(CallExpr &expr, bool shared) {
  const std::string name = shared ? "cuda.shared.array" : "cuda.local.array";
  Expr *shapeArg = expr.args.size() > 0 ? expr.args[0].get() : nullptr;
  Expr *dtypeArg = expr.args.size() > 1 ? expr.args[1].get() : nullptr;
  bool ok = expr.args.size() <= 2;
  if (!ok)
    error(expr.args[2]->range()) << name << "() takes a shape and a dtype, not " << expr.args.size() << " arguments";
  for (KeywordArgument &keyword : expr.keywords) {
    Expr **slot = keyword.name == "shape" ? &shapeArg : keyword.name == "dtype" ? &dtypeArg : nullptr;
    if (!slot) {
      error(keyword.nameRange) << name << "() takes the keywords shape and dtype, not '" << keyword.name << "'";
      ok = false;
    } else if (*slot) {
      error(keyword.nameRange) << name << "() is given '" << keyword.name << "' twice";
      ok = false;
    } else {
      *slot = keyword.value.get();
    }
  }
  if (!ok)
    return setType(expr, types_.errorType());
  if (!shapeArg || !dtypeArg) {
    error(expr.range()) << name << "() needs a shape and a dtype, as in '" << name << "((16, 16), float32)'";
    return setType(expr, types_.errorType());
  }
  const std::optional<ScalarKind> element = scalarTypeNamed(*dtypeArg);
  if (!element) {
    error(dtypeArg->range()) << name << "()'s dtype must be a scalar type such as float32";
    return setType(expr, types_.errorType());
  }
  // The shape: a constant int or a tuple of them (a literal or a constant).
  const Type *shapeType = checkValue(*shapeArg);
  if (shapeType->isError())
    return setType(expr, types_.errorType());
  std::vector<int64_t> shape;
  bool reported = false;
  auto addExtent = [&](const std::optional<ConstantValue> &value, SourceRange range) {
    if (reported)
      return false;
    if (!value || value->kind != ConstantValue::Kind::Int || value->exceedsInt64) {
      error(range) << name
                   << "()'s shape must be made of constant integers (module constants or literals), or locals "
                      "assigned once to one";
      return false;
    }
    if (value->intValue == 0 && shared) {
      // Dynamic shared memory: its size comes from the launch.
      if (shapeArg->type->isTuple()) {
        error(range) << "dynamic shared memory is one array of one dimension: cuda.shared.array(0, dtype)";
        return false;
      }
      return true;
    }
    if (value->intValue <= 0) {
      error(range) << name << "()'s extents must be positive, not " << value->intValue;
      return false;
    }
    shape.push_back(value->intValue);
    return true;
  };
  if (shapeType->isTuple()) {
    auto *tuple = dyn_cast<TupleExpr>(shapeArg);
    auto *constantName = dyn_cast<NameExpr>(shapeArg);
    for (size_t i = 0; i < shapeType->elements().size(); ++i) {
      std::optional<ConstantValue> value;
      if (tuple)
        value = extentConstant(*tuple->elements[i], reported);
      else if (constantName && constantName->symbol && i < constantName->symbol->tupleConstant.size())
        value = constantName->symbol->tupleConstant[i];
      if (!addExtent(value, tuple ? tuple->elements[i]->range() : shapeArg->range()))
        return setType(expr, types_.errorType());
    }
  } else if (!addExtent(extentConstant(*shapeArg, reported), shapeArg->range())) {
    return setType(expr, types_.errorType());
  }
  const bool dynamic = shared && !shapeType->isTuple() && shape.empty();
  if (!dynamic && (shape.empty() || shape.size() > 4)) {
    error(shapeArg->range()) << name << "() makes arrays of 1 to 4 dimensions, not " << shape.size();
    return setType(expr, types_.errorType());
  }
  // Saturating: extents within int64 can still multiply past 2^64 bytes.
  uint64_t bytes = dynamic ? 0 : byteWidth(*element);
  for (int64_t extent : shape)
    bytes = llvm::SaturatingMultiply(bytes, static_cast<uint64_t>(extent));
  if (bytes > (shared ? maxStaticSharedBytes : maxLocalBytes)) {
    error(shapeArg->range()) << "this " << (shared ? "shared" : "local") << " array takes "
                             << (bytes == UINT64_MAX ? "at least " : "") << bytes << " bytes; CUDA allows "
                             << (shared ? maxStaticSharedBytes / 1024 : maxLocalBytes / 1024)
                             << (shared ? " KiB of static shared memory per block" : " KiB of local memory per thread");
    return setType(expr, types_.errorType());
  }
  if (&expr != arrayDefinitionValue_) {
    error(expr.range()) << name << "() must be assigned to a local as it is made, as in 'tile = " << name
                        << "((16, 16), float32)'";
    return setType(expr, types_.errorType());
  }
  // A dynamic shared array has no fixed shape: its one extent is the
  // launch's shared bytes divided by the element size.
  pendingArray_ = {shared ? ArrayStorage::Shared : ArrayStorage::Local, shape};
  return setType(expr, types_.array(*element, dynamic ? 1u : static_cast<unsigned>(shape.size())));
}

/// cuda.syncthreads() and its counting forms, the memory fences, and a
/// grid group's sync(), named as written ('g.sync').
const Type *Sema::checkSynchronisation(CallExpr &expr, Builtin builtin) {
  const std::string name =
      builtin == Builtin::GridSync ? sourceText(expr.callee->range()) : std::string(builtinName(builtin));
  const bool takesPredicate = builtin == Builtin::SyncThreadsCount || builtin == Builtin::SyncThreadsAnd ||
                              builtin == Builtin::SyncThreadsOr;
  const size_t count = takesPredicate || builtin == Builtin::Nanosleep ? 1 : 0;
  if (!requirePositional(expr, name.c_str(), count, count))
    return setType(expr, types_.errorType());
  if (builtin == Builtin::Nanosleep) {
    // Numba's: a uint32 count of nanoseconds.
    const Type *type = checkValue(*expr.args[0]);
    if (type->isError())
      return setType(expr, types_.errorType());
    if (!type->isScalar() || !isInteger(type->scalarKind()) || type->scalarKind() == ScalarKind::Bool) {
      error(expr.args[0]->range()) << name << "() takes an integer number of nanoseconds, not "
                                   << describe(*expr.args[0]);
      return setType(expr, types_.errorType());
    }
  }
  if (takesPredicate) {
    const Type *type = checkValue(*expr.args[0]);
    if (type->isError())
      return setType(expr, types_.errorType());
    if (!type->isScalar() || isFloat(type->scalarKind())) {
      error(expr.args[0]->range()) << name << "() takes a bool or an integer predicate, not " << describe(*expr.args[0]);
      return setType(expr, types_.errorType());
    }
  }
  if (!requireWholeStatement(expr, name + "()"))
    return setType(expr, types_.errorType());
  if (builtin == Builtin::SyncThreads || builtin == Builtin::SyncThreadsCount || builtin == Builtin::SyncThreadsAnd ||
      builtin == Builtin::SyncThreadsOr || builtin == Builtin::GridSync)
    function_->synchronises = true;
  if (builtin == Builtin::GridSync)
    function_->gridSynchronises = true;
  return setType(expr, takesPredicate ? types_.int32Type() : types_.voidType());
}

/// cuda.atomic.OP(array, index, value) (cas: (array, index, expected,
/// value)): the element's old value, in the array's element type. The
/// index is an integer or a tuple of one per axis. compare_and_swap(array,
/// expected, value) is Numba's cas of the first element of a 1-D integer
/// array.
const Type *Sema::checkAtomic(CallExpr &expr, Builtin builtin) {
  const std::string name(builtinName(builtin));
  const bool firstElement = builtin == Builtin::AtomicCompareAndSwap;
  const size_t arity = builtin == Builtin::AtomicCas ? 4 : 3;
  if (!requirePositional(expr, name.c_str(), arity, arity))
    return setType(expr, types_.errorType());
  bool ok = true;
  for (ExprPtr &arg : expr.args)
    ok &= !checkValue(*arg)->isError();
  if (!ok)
    return setType(expr, types_.errorType());
  Expr &array = *expr.args[0];
  if (!array.type->isArray()) {
    error(array.range()) << name << "() works on an array, not " << describe(array);
    return setType(expr, types_.errorType());
  }
  if (const Symbol *symbol = rootArraySymbol(array); symbol && viewsConstantMemory(*symbol)) {
    error(array.range()) << "'" << symbol->name << "' is a constant array, in constant memory: kernels read it "
                         << "and cannot store into it; " << name << "() stores";
    return setType(expr, types_.errorType());
  }
  const ScalarKind element = array.type->scalarKind();
  if (firstElement && array.type->rank() != 1) {
    error(array.range()) << name << "() works on a 1-D array (its first element), not " << array.type->str();
    return setType(expr, types_.errorType());
  }
  // The index: as many integers as the array has axes (none for
  // compare_and_swap).
  if (!firstElement) {
    Expr &index = *expr.args[1];
    std::vector<const Type *> indexTypes;
    if (index.type->isTuple())
      indexTypes = index.type->elements();
    else
      indexTypes.push_back(index.type);
    for (const Type *type : indexTypes) {
      if (!type->isScalar() || !isInteger(type->scalarKind()) || type->scalarKind() == ScalarKind::Bool) {
        error(index.range()) << name << "()'s index must be an integer or a tuple of integers, not "
                             << index.type->str();
        return setType(expr, types_.errorType());
      }
    }
    if (indexTypes.size() != array.type->rank()) {
      error(index.range()) << name << "() on " << array.type->str() << " needs " << array.type->rank()
                           << " indices, not " << indexTypes.size();
      return setType(expr, types_.errorType());
    }
  }
  // What CUDA supports (atomicAdd on floats since sm_60 for float64).
  const bool integer32or64 = (isInteger(element) && element != ScalarKind::Bool && byteWidth(element) >= 4);
  const bool floating = element == ScalarKind::Float32 || element == ScalarKind::Float64;
  bool supported = integer32or64 || floating;
  if (builtin == Builtin::AtomicInc || builtin == Builtin::AtomicDec)
    supported = element == ScalarKind::UInt32 || element == ScalarKind::UInt64;
  const bool integersOnly = builtin == Builtin::AtomicAnd || builtin == Builtin::AtomicOr ||
                            builtin == Builtin::AtomicXor || firstElement;
  if (integersOnly)
    supported = integer32or64;
  // atomicAdd(__half *, __half): CUDA has it from sm_70, pyk's oldest target being sm_75.
  if (builtin == Builtin::AtomicAdd && element == ScalarKind::Float16)
    supported = true;
  if (!supported) {
    const char *which = builtin == Builtin::AtomicInc || builtin == Builtin::AtomicDec ? "uint32 and uint64"
                        : integersOnly ? "32- and 64-bit integers"
                                       : "32- and 64-bit integers, float32 and float64";
    error(array.range()) << name << "() is not available on " << array.type->str() << "; CUDA has it for " << which;
    return setType(expr, types_.errorType());
  }
  for (size_t i = firstElement ? 1 : 2; i < expr.args.size(); ++i) {
    Expr &value = *expr.args[i];
    if (!value.type->isScalar()) {
      error(value.range()) << name << "() needs a number, not " << describe(value);
      return setType(expr, types_.errorType());
    }
    if (isFloat(value.type->scalarKind()) && !isFloat(element)) {
      error(value.range()) << name << "() on " << array.type->str() << " takes an integer, not "
                           << value.type->str() << "; convert with " << scalarName(element) << "(...)";
      return setType(expr, types_.errorType());
    }
    if (!checkLiteralFits(value, element))
      return setType(expr, types_.errorType());
  }
  // An atomic runs once and in order as a call that writes arrays does:
  // `while cuda.atomic.cas(lock, 0, 0, 1) != 0:`, `if cuda.atomic.add(n, 0, 1) == last:`.
  if (function_) {
    function_->hasSideEffects = true;
    if (&expr != statementValue_)
      nestedEffectfulCalls_.push_back({&expr, statementValue_, name, "writes an array"});
  }
  return setType(expr, types_.scalar(element));
}

} // namespace pyk::sema
