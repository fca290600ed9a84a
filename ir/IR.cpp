//===- IR.cpp - Names of IR types, node kinds and operators ---------------===//
#include "IR.h"

#include <algorithm>

namespace pyk::ir {

Type elementType(const Type &array, int field) {
  return Type::scalarType(field < 0 ? array.scalar : array.record->fields[static_cast<size_t>(field)].kind);
}

std::string Type::str() const {
  if (kind == Kind::Void)
    return "void";
  if (record)
    return record->name + "[1d]";
  std::string element;
  switch (scalar) {
  case ScalarKind::Bool:
    element = "bool";
    break;
  case ScalarKind::Int8:
  case ScalarKind::Int16:
  case ScalarKind::Int32:
  case ScalarKind::Int64:
    element = "i" + std::to_string(byteWidth(scalar) * 8);
    break;
  case ScalarKind::UInt8:
  case ScalarKind::UInt16:
  case ScalarKind::UInt32:
  case ScalarKind::UInt64:
    element = "u" + std::to_string(byteWidth(scalar) * 8);
    break;
  case ScalarKind::Float16:
  case ScalarKind::Float32:
  case ScalarKind::Float64:
    element = "f" + std::to_string(byteWidth(scalar) * 8);
    break;
  case ScalarKind::Complex64:
  case ScalarKind::Complex128:
    element = "c" + std::to_string(byteWidth(scalar) * 8);
    break;
  case ScalarKind::BFloat16:
    element = "bf16";
    break;
  }
  if (kind == Kind::Array)
    return element + "[" + std::to_string(rank) + "d" + (contiguous ? "" : ", strided") + "]";
  return element;
}

ExprPtr copyOfStable(const Expr &e) {
  if (auto *c = llvm::dyn_cast<Constant>(&e))
    return std::make_unique<Constant>(c->loc(), c->type(), c->intValue, c->floatValue);
  if (auto *ref = llvm::dyn_cast<VarRef>(&e))
    return std::make_unique<VarRef>(ref->loc(), ref->var);
  if (auto *dim = llvm::dyn_cast<ArrayDim>(&e))
    return std::make_unique<ArrayDim>(dim->loc(), dim->array, dim->axis);
  if (auto *reg = llvm::dyn_cast<SpecialReg>(&e))
    return std::make_unique<SpecialReg>(reg->loc(), reg->reg, reg->axis);
  return nullptr;
}

ExprPtr copyOfPure(const Expr &e) {
  if (ExprPtr stable = copyOfStable(e))
    return stable;
  auto both = [](ExprPtr &a, ExprPtr &b, const Expr &x, const Expr &y) {
    a = copyOfPure(x);
    b = a ? copyOfPure(y) : nullptr;
    return b != nullptr;
  };
  ExprPtr lhs, rhs;
  switch (e.kind()) {
  case NodeKind::ArrayStride: {
    auto &s = llvm::cast<ArrayStride>(e);
    return std::make_unique<ArrayStride>(s.loc(), s.array, s.axis);
  }
  case NodeKind::Cast:
    if (ExprPtr operand = copyOfPure(*llvm::cast<Cast>(e).operand))
      return std::make_unique<Cast>(e.loc(), e.type(), std::move(operand));
    return nullptr;
  case NodeKind::Unary: {
    auto &u = llvm::cast<Unary>(e);
    ExprPtr operand = copyOfPure(*u.operand);
    if (!operand)
      return nullptr;
    auto copy = std::make_unique<Unary>(u.loc(), u.op, std::move(operand));
    copy->mayOverflow = u.mayOverflow;
    return copy;
  }
  case NodeKind::Binary: {
    auto &b = llvm::cast<Binary>(e);
    if (b.divisorCheck != NoCheck || !both(lhs, rhs, *b.lhs, *b.rhs))
      return nullptr;
    auto copy = std::make_unique<Binary>(b.loc(), b.op, std::move(lhs), std::move(rhs));
    copy->mayOverflow = b.mayOverflow;
    return copy;
  }
  case NodeKind::Compare: {
    auto &c = llvm::cast<Compare>(e);
    if (!both(lhs, rhs, *c.lhs, *c.rhs))
      return nullptr;
    return std::make_unique<Compare>(c.loc(), c.op, std::move(lhs), std::move(rhs));
  }
  case NodeKind::Logical: {
    auto &l = llvm::cast<Logical>(e);
    if (!both(lhs, rhs, *l.lhs, *l.rhs))
      return nullptr;
    return std::make_unique<Logical>(l.loc(), l.op, std::move(lhs), std::move(rhs));
  }
  case NodeKind::Select: {
    auto &s = llvm::cast<Select>(e);
    ExprPtr condition = copyOfPure(*s.condition);
    if (!condition || !both(lhs, rhs, *s.thenValue, *s.elseValue))
      return nullptr;
    return std::make_unique<Select>(s.loc(), std::move(condition), std::move(lhs), std::move(rhs));
  }
  case NodeKind::ComplexMake: {
    auto &m = llvm::cast<ComplexMake>(e);
    if (!both(lhs, rhs, *m.real, *m.imag))
      return nullptr;
    return std::make_unique<ComplexMake>(m.loc(), m.type(), std::move(lhs), std::move(rhs));
  }
  case NodeKind::ComplexPart: {
    auto &p = llvm::cast<ComplexPart>(e);
    if (ExprPtr operand = copyOfPure(*p.operand))
      return std::make_unique<ComplexPart>(p.loc(), std::move(operand), p.imag);
    return nullptr;
  }
  default:
    return nullptr;
  }
}

std::string Print::format() const {
  std::string format;
  for (const Part &part : parts) {
    if (!part.value) {
      for (char c : part.text)
        format += c == '%' ? std::string("%%") : std::string(1, c);
      continue;
    }
    const ScalarKind kind = part.value->type().scalar;
    format += kind == ScalarKind::Bool       ? "%s"
              : isFloat(kind)                ? (part.withSign ? "%+g" : "%g")
              : isUnsignedInteger(kind)      ? "%llu"
                                             : "%lld";
  }
  return format;
}

const char *nodeKindName(NodeKind kind) {
  switch (kind) {
#define PYK_IR_EXPR(Name)                                                                                          \
  case NodeKind::Name:                                                                                             \
    return #Name;
#define PYK_IR_STMT(Name) PYK_IR_EXPR(Name)
#include "IRNodes.def"
  }
  return "?";
}

const char *unaryOpName(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg:
    return "neg";
  case UnaryOp::Not:
    return "not";
  case UnaryOp::BitNot:
    return "bitnot";
  case UnaryOp::Abs:
    return "abs";
  case UnaryOp::Round:
    return "round";
  case UnaryOp::Popc:
    return "popc";
  case UnaryOp::Brev:
    return "brev";
  case UnaryOp::Clz:
    return "clz";
  case UnaryOp::Ffs:
    return "ffs";
  case UnaryOp::Conj:
    return "conj";
  }
  return "?";
}

bool isPythonOperation(BinaryOp op) {
  switch (op) {
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod:
  case BinaryOp::Pow:
  case BinaryOp::Shl:
  case BinaryOp::Shr:
  case BinaryOp::Min:
  case BinaryOp::Max:
    return true;
  case BinaryOp::Add:
  case BinaryOp::Sub:
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::And:
  case BinaryOp::Or:
  case BinaryOp::Xor:
  case BinaryOp::CDiv:
  case BinaryOp::CRem:
  case BinaryOp::CShl:
  case BinaryOp::CShr:
    return false;
  }
  return false;
}

const char *binaryOpName(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "add";
  case BinaryOp::Sub:
    return "sub";
  case BinaryOp::Mul:
    return "mul";
  case BinaryOp::Div:
    return "div";
  case BinaryOp::FloorDiv:
    return "floordiv";
  case BinaryOp::Mod:
    return "mod";
  case BinaryOp::Pow:
    return "pow";
  case BinaryOp::And:
    return "and";
  case BinaryOp::Or:
    return "or";
  case BinaryOp::Xor:
    return "xor";
  case BinaryOp::Shl:
    return "shl";
  case BinaryOp::Shr:
    return "shr";
  case BinaryOp::Min:
    return "min";
  case BinaryOp::Max:
    return "max";
  case BinaryOp::CDiv:
    return "cdiv";
  case BinaryOp::CRem:
    return "crem";
  case BinaryOp::CShl:
    return "cshl";
  case BinaryOp::CShr:
    return "cshr";
  }
  return "?";
}

const char *compareOpName(CompareOp op) {
  switch (op) {
  case CompareOp::Lt:
    return "lt";
  case CompareOp::Le:
    return "le";
  case CompareOp::Gt:
    return "gt";
  case CompareOp::Ge:
    return "ge";
  case CompareOp::Eq:
    return "eq";
  case CompareOp::Ne:
    return "ne";
  }
  return "?";
}

const char *gpuOpName(GpuOpKind op) {
  switch (op) {
  case GpuOpKind::SyncThreads:
    return "syncthreads";
  case GpuOpKind::SyncThreadsCount:
    return "syncthreads_count";
  case GpuOpKind::SyncThreadsAnd:
    return "syncthreads_and";
  case GpuOpKind::SyncThreadsOr:
    return "syncthreads_or";
  case GpuOpKind::ThreadFenceBlock:
    return "threadfence_block";
  case GpuOpKind::ThreadFence:
    return "threadfence";
  case GpuOpKind::ThreadFenceSystem:
    return "threadfence_system";
  case GpuOpKind::GridSync:
    return "grid_sync";
  case GpuOpKind::Nanosleep:
    return "nanosleep";
  case GpuOpKind::SyncWarp:
    return "syncwarp";
  case GpuOpKind::ShflIdx:
    return "shfl_idx";
  case GpuOpKind::ShflUp:
    return "shfl_up";
  case GpuOpKind::ShflDown:
    return "shfl_down";
  case GpuOpKind::ShflXor:
    return "shfl_xor";
  case GpuOpKind::VoteAll:
    return "vote_all";
  case GpuOpKind::VoteAny:
    return "vote_any";
  case GpuOpKind::VoteEq:
    return "vote_eq";
  case GpuOpKind::Ballot:
    return "ballot";
  case GpuOpKind::MatchAny:
    return "match_any";
  case GpuOpKind::MatchAll:
    return "match_all";
  case GpuOpKind::ActiveMask:
    return "activemask";
  case GpuOpKind::LaneMaskLt:
    return "lanemask_lt";
  }
  return "?";
}

const char *atomicOpName(AtomicOp op) {
  static const char *const names[] = {"add", "sub", "and", "or",  "xor", "max",    "min",
                                      "exch", "inc", "dec", "cas", "nanmax", "nanmin"};
  return names[static_cast<int>(op)];
}

const char *specialRegName(SpecialRegKind reg) {
  switch (reg) {
  case SpecialRegKind::ThreadIdx:
    return "threadIdx";
  case SpecialRegKind::BlockIdx:
    return "blockIdx";
  case SpecialRegKind::BlockDim:
    return "blockDim";
  case SpecialRegKind::GridDim:
    return "gridDim";
  case SpecialRegKind::LaneId:
    return "laneid";
  }
  return "?";
}

std::vector<const RecordType *> Module::recordTypes() const {
  std::vector<const RecordType *> records;
  for (const auto &function : functions)
    for (const Variable *var : function->variables())
      if (var->type.record && std::find(records.begin(), records.end(), var->type.record) == records.end())
        records.push_back(var->type.record);
  return records;
}

} // namespace pyk::ir
