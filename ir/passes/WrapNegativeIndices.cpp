//===- WrapNegativeIndices.cpp - Python's negative indices count from the end //
#include "WrapNegativeIndices.h"

#include "GuardWalk.h"

#include "llvm/Support/Casting.h"

#include <set>
#include <string>

namespace pyk::ir {

namespace {

using llvm::dyn_cast;

class Wrapper : public GuardWalk {
public:
  Wrapper(Function &function, DiagnosticEngine *remarks) : GuardWalk(function), remarks_(remarks) {}

private:
  void access(const Variable *array, std::vector<ExprPtr> &indices, std::vector<CheckSiteId> &, const Env &env,
              SourceRange loc) override {
    for (unsigned axis = 0; axis < indices.size(); ++axis) {
      ExprPtr &index = indices[axis];
      std::string why;
      const std::optional<WideInt> lower = lowerBound(*index, env, why);
      if (lower && *lower >= 0)
        continue;
      const SourceRange at = index->loc().isValid() ? index->loc() : loc;
      const bool fixed = !array->fixedShape.empty();
      auto *constant = dyn_cast<Constant>(index.get());
      if (constant && fixed) {
        // x[-1] of a shared or local array: its last element, known now.
        index = std::make_unique<Constant>(at, index->type(), constant->intValue + array->fixedShape[axis], 0.0);
        continue;
      }
      ExprPtr extent = fixed ? ExprPtr(std::make_unique<Constant>(at, Type::scalarType(ScalarKind::Int64),
                                                                  array->fixedShape[axis], 0.0))
                             : ExprPtr(std::make_unique<ArrayDim>(at, array, axis));
      if (constant) {
        // x[-1]: x.shape[0] - 1, no select.
        auto count = std::make_unique<Constant>(at, index->type(), -constant->intValue, 0.0);
        index = std::make_unique<Binary>(at, BinaryOp::Sub, std::move(extent), std::move(count));
        continue;
      }
      const std::string term = IndexAlgebra::describe(*index);
      index = std::make_unique<WrapIndex>(at, std::move(index), std::move(extent));
      remark(at, "index of axis " + std::to_string(axis) + " of '" + array->name + "' may be negative, so it " +
                     "counts from the end as in Python (one select): " +
                     (lower ? term + " may be as low as " + std::to_string(static_cast<int64_t>(*lower)) + " (" +
                                  why + ")"
                            : why));
    }
  }

  /// A wrap lowering made for a view (`row = m[i]`): dropped where the
  /// index is known to be at least 0.
  void wrapIndex(WrapIndex &wrap, const Env &env) override {
    std::string why;
    const std::optional<WideInt> lower = lowerBound(*wrap.index, env, why);
    wrap.nonNegative = lower && *lower >= 0;
  }

  /// One remark per position and text: `x[i] += 1` loads and stores the
  /// same element.
  void remark(SourceRange at, const std::string &text) {
    if (remarks_ && remarked_.insert({at.begin.offset, text}).second)
      remarks_->remark(at) << text;
  }

  DiagnosticEngine *remarks_;
  std::set<std::pair<uint32_t, std::string>> remarked_;
};

} // namespace

void wrapNegativeIndices(Module &module, DiagnosticEngine *remarks) {
  for (auto &function : module.functions)
    Wrapper(*function, remarks).run();
}

} // namespace pyk::ir
