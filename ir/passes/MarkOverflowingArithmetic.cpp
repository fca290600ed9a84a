//===- MarkOverflowingArithmetic.cpp - Where integer arithmetic may wrap --===//
#include "passes/MarkOverflowingArithmetic.h"

#include "IRMutator.h"
#include "IRWalk.h"
#include "passes/IndexAlgebra.h"

#include <cstdint>
#include <set>
#include <vector>

namespace pyk::ir {
namespace {

/// Whether C++ arithmetic on `kind` can overflow for `op` at all: int32 and
/// int64 for + - * (and unary -), uint16 for * (promoted to int, 65535 *
/// 65535 does not fit); unsigned 32- and 64-bit arithmetic wraps in C++
/// too, and the other narrow types' results fit in int.
bool canOverflowInCxx(ScalarKind kind, bool multiply) {
  switch (kind) {
  case ScalarKind::Int32:
  case ScalarKind::Int64:
    return true;
  case ScalarKind::UInt16:
    return multiply;
  default:
    return false;
  }
}

/// A `for` counter that only its loop writes, stepping up: it is never
/// below the start's lowest value.
Env loopCounterFacts(const Function &function, const IndexAlgebra &algebra) {
  std::set<const Variable *> writtenElsewhere;
  std::vector<const ForRange *> loops;
  forEachStmt(function.body, [&](const Stmt &s) {
    if (auto *declare = llvm::dyn_cast<Declare>(&s))
      writtenElsewhere.insert(declare->var);
    else if (auto *assign = llvm::dyn_cast<Assign>(&s))
      writtenElsewhere.insert(assign->var);
    else if (auto *loop = llvm::dyn_cast<ForRange>(&s))
      loops.push_back(loop);
  });
  Env facts;
  for (const ForRange *loop : loops) {
    if (loop->stepSign <= 0 || writtenElsewhere.count(loop->var))
      continue;
    if (std::optional<Interval> start = algebra.interval(*loop->start); start && start->lo >= INT64_MIN) {
      facts[loop->var].lower = static_cast<int64_t>(start->lo);
      facts[loop->var].lowerWhy = "the loop's start";
    }
  }
  return facts;
}

void markFunction(Function &function) {
  const IndexAlgebra algebra(function);
  const Env facts = loopCounterFacts(function, algebra);
  auto mark = [&](ExprPtr &slot) {
    if (auto *b = llvm::dyn_cast<Binary>(slot.get())) {
      const bool arithmetic = b->op == BinaryOp::Add || b->op == BinaryOp::Sub || b->op == BinaryOp::Mul;
      if (arithmetic && canOverflowInCxx(b->type().scalar, b->op == BinaryOp::Mul))
        b->mayOverflow = !algebra.interval(*b, &facts); // no interval: it may not fit
    } else if (auto *u = llvm::dyn_cast<Unary>(slot.get())) {
      if ((u->op == UnaryOp::Neg || u->op == UnaryOp::Abs) && canOverflowInCxx(u->type().scalar, false)) {
        // Only the type's minimum has no negation.
        const std::optional<Interval> operand = algebra.interval(*u->operand, &facts);
        u->mayOverflow = !operand || operand->lo == typeRange(u->type())->lo;
      }
    }
  };
  rewriteExprs(function.body, mark);
}

} // namespace

void markOverflowingArithmetic(Module &module) {
  for (auto &function : module.functions)
    if (!function->arithmeticNeverOverflows)
      markFunction(*function);
}

} // namespace pyk::ir
