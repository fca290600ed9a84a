//===- MarkNarrowOffsets.cpp - Which element offsets may be 32-bit --------===//
#include "passes/MarkNarrowOffsets.h"

#include "IRMutator.h"
#include "IRWalk.h"

#include <algorithm>
#include <set>

namespace pyk::ir {
namespace {

class NarrowOffsetMarker {
public:
  explicit NarrowOffsetMarker(const Function &function) : function_(function) {}

  /// `loopVariables`: what the loops around `body` assign.
  void mark(StmtList &body, const std::set<const Variable *> &loopVariables) {
    for (StmtPtr &s : body) {
      if (auto *store = llvm::dyn_cast<ArrayStore>(s.get()))
        store->narrowOffset = narrow(*store->array, store->indices, loopVariables);
      // A loop's condition and bounds are the loop's own, outside it (as
      // the backends print them).
      rewriteOwnExprs(*s, [&](ExprPtr &slot) {
        if (auto *load = llvm::dyn_cast<ArrayLoad>(slot.get()))
          load->narrowOffset = narrow(*load->array, load->indices, loopVariables);
        else if (auto *atomic = llvm::dyn_cast<Atomic>(slot.get()))
          atomic->narrowOffset = narrow(*atomic->array, atomic->indices, loopVariables);
      });
      if (auto *branch = llvm::dyn_cast<If>(s.get())) {
        mark(branch->thenBody, loopVariables);
        mark(branch->elseBody, loopVariables);
      } else if (auto *loop = llvm::dyn_cast<While>(s.get())) {
        mark(loop->body, inside(loopVariables, loop->body, nullptr));
      } else if (auto *range = llvm::dyn_cast<ForRange>(s.get())) {
        mark(range->body, inside(loopVariables, range->body, range->var));
      }
    }
  }

private:
  static std::set<const Variable *> inside(const std::set<const Variable *> &outer, const StmtList &body,
                                           const Variable *counter) {
    std::set<const Variable *> variables = outer;
    if (counter)
      variables.insert(counter);
    variables.merge(assignedVariables(body));
    return variables;
  }

  bool narrow(const Variable &array, const std::vector<ExprPtr> &indices,
              const std::set<const Variable *> &loopVariables) const {
    if (function_.kind != Function::Kind::Kernel || array.memory != Variable::Memory::Global)
      return false;
    return std::none_of(indices.begin(), indices.end(),
                        [&](const ExprPtr &index) { return readsAnyOf(*index, loopVariables); });
  }

  const Function &function_;
};

} // namespace

void markNarrowOffsets(Module &module) {
  if (!module.narrowIndices)
    return;
  for (auto &function : module.functions)
    NarrowOffsetMarker(*function).mark(function->body, {});
}

} // namespace pyk::ir
