//===- PlanChecks.cpp - Checked mode: which accesses need a run-time check ===//
//
// At every array access the guard analysis (GuardWalk.h) tells what holds
// of the index; a check is kept unless `0 <= index < extent` follows.
//
//===----------------------------------------------------------------------===//
#include "PlanChecks.h"

#include "GuardWalk.h"
#include "IRWalk.h"

#include "llvm/Support/Casting.h"

#include <functional>
#include <set>
#include <string>

namespace pyk::ir {

namespace {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

class Planner : public GuardWalk {
public:
  Planner(Module &module, Function &function, DiagnosticEngine *remarks)
      : GuardWalk(function), module_(module), remarks_(remarks) {}

private:
  void access(const Variable *array, std::vector<ExprPtr> &indices, std::vector<CheckSiteId> &boundsChecks,
              const Env &env, SourceRange loc) override {
    boundsChecks = plan(array, indices, env, loc);
  }

  void division(Binary &b, const Env &) override {
    std::optional<Interval> divisor = algebra_.interval(*b.rhs);
    if (!divisor || (divisor->lo <= 0 && divisor->hi >= 0))
      b.divisorCheck = addSite({b.op == BinaryOp::FloorDiv ? CheckSite::Kind::DivisionByZero
                                                           : CheckSite::Kind::ModuloByZero,
                                b.loc(), "", 0, ""});
  }

  void assertion(Assert &a) override {
    a.check = addSite({CheckSite::Kind::Assertion, a.loc(), "", 0, a.message});
  }

  // --- Decisions --------------------------------------------------------------
  CheckSiteId addSite(CheckSite site) {
    module_.checkSites.push_back(std::move(site));
    return static_cast<CheckSiteId>(module_.checkSites.size() - 1);
  }

  std::vector<CheckSiteId> plan(const Variable *array, std::vector<ExprPtr> &indices, const Env &env,
                                SourceRange access) {
    std::vector<CheckSiteId> sites;
    for (unsigned axis = 0; axis < indices.size(); ++axis) {
      const Expr &index = *indices[axis];
      // Cast and constant indices carry the location of what they convert.
      SourceRange at = index.loc().isValid() ? index.loc() : access;
      std::string why;
      if (proven(array, axis, index, env, why)) {
        sites.push_back(NoCheck);
        remark(at, "bounds check of axis " + std::to_string(axis) + " of '" + array->name + "' elided: " + why);
        continue;
      }
      sites.push_back(addSite({CheckSite::Kind::Bounds, at, array->name, axis, "", isa<WrapIndex>(index)}));
      remark(at, "bounds check of axis " + std::to_string(axis) + " of '" + array->name + "' kept: " + why);
    }
    return sites;
  }

  std::optional<int64_t> fixedExtent(const Variable *array, unsigned axis) const {
    if (!array->fixedShape.empty())
      return array->fixedShape[axis];
    return std::nullopt;
  }

  /// Whether 0 <= index < extent of `axis` holds; `why` says why (not).
  bool proven(const Variable *array, unsigned axis, const Expr &index, const Env &env, std::string &why) const {
    const std::string extent = array->name + ".shape[" + std::to_string(axis) + "]";
    if (auto *wrapped = dyn_cast<WrapIndex>(&index)) {
      // Counted from the end where negative (WrapNegativeIndices): in
      // bounds only from -extent on, which no test the analysis follows
      // shows.
      why = IndexAlgebra::describe(*wrapped->index) + " may be negative, and counts from the end: no test shows that " +
            "it is at least -" + (fixedExtent(array, axis) ? std::to_string(*fixedExtent(array, axis)) : extent);
      return false;
    }
    std::optional<Linear> value = algebra_.linear(index);
    if (!value) {
      why = "the index is not a variable plus a constant, which is all the guard analysis follows";
      return false;
    }
    const std::optional<int64_t> fixed = fixedExtent(array, axis);
    if (!value->var) {
      if (value->offset >= 0 && fixed && value->offset < *fixed) {
        why = "the constant index is within the array's shape";
        return true;
      }
      why = fixed ? "the constant index is outside the array's shape" : "'" + array->name + "' has its shape only at run time";
      return false;
    }
    const Variable *var = value->var;
    const int64_t offset = value->offset;
    std::string term = var->name;
    if (offset > 0)
      term += " + " + std::to_string(offset);
    else if (offset < 0)
      term += " - " + std::to_string(-offset);

    std::string lowerWhy;
    const std::optional<WideInt> lower = lowerBound(index, env, lowerWhy);
    if (!lower || *lower < 0) {
      why = "no test or definition shows that " + term + " >= 0";
      return false;
    }
    auto facts = env.find(var);
    if (facts != env.end())
      for (const Limit &bound : facts->second.uppers) {
        const bool sameExtent = bound.array == array && bound.axis == axis && bound.offset + offset <= 0;
        const bool belowFixed = !bound.array && fixed && bound.offset + offset <= *fixed;
        if (sameExtent || belowFixed) {
          why = term + " >= 0 " + lowerWhy + ", and " + var->name + " < " + limitText(bound) + " " + bound.why;
          return true;
        }
      }
    why = "no test shows that " + term + " < " + (fixed ? std::to_string(*fixed) : extent);
    return false;
  }

  /// One remark per position and text: `x[i] += 1` loads and stores the
  /// same element, with the same check decision.
  void remark(SourceRange at, const std::string &text) {
    if (remarks_ && remarked_.insert({at.begin.offset, text}).second)
      remarks_->remark(at) << text;
  }

  Module &module_;
  DiagnosticEngine *remarks_;
  std::set<std::pair<uint32_t, std::string>> remarked_;
};


/// Checked functions: the kernels asked for, and every device function a
/// checked function calls.
void markCheckedFunctions(Module &module, bool checkEveryKernel) {
  for (auto &function : module.functions)
    if (function->kind == Function::Kind::Kernel && checkEveryKernel)
      function->checked = true;
  // Callers come after their callees: walk backwards until nothing changes.
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = module.functions.rbegin(); it != module.functions.rend(); ++it) {
      if (!(*it)->checked)
        continue;
      std::function<void(const Expr &)> visit = [&](const Expr &e) {
        if (auto *call = dyn_cast<Call>(&e); call && !call->callee->checked) {
          const_cast<Function *>(call->callee)->checked = true;
          changed = true;
        }
        forEachOperand(e, visit);
      };
      forEachExprIn((*it)->body, visit);
    }
  }
}

} // namespace

void planChecks(Module &module, bool checkEveryKernel, DiagnosticEngine *remarks) {
  markCheckedFunctions(module, checkEveryKernel);
  for (auto &function : module.functions)
    if (function->checked)
      Planner(module, *function, remarks).run();
}

} // namespace pyk::ir
