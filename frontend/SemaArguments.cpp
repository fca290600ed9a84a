//===- SemaArguments.cpp - A call's arguments bound to the parameters -----===//
//
// A device function is called as Python calls a function: arguments by
// position, then by keyword (`scaled(x, offset=1)`), and a parameter with a
// default value (`def scaled(x, factor=2.0)`) may be left out. Sema binds
// them here, once, into one argument per parameter in the parameters'
// order, so that typing, versions of generic functions and lowering see
// only positional calls.
//
// Python evaluates the arguments in the order they are written; after
// binding, lowering evaluates them in the parameters' order. The two agree
// wherever it matters: a call with side effects may stand among others'
// arguments only as the one such call of its statement, among operands that
// read no memory (Sema::checkNestedEffectfulCalls).
//
//===----------------------------------------------------------------------===//
#include "ASTClone.h"
#include "SemaImpl.h"

#include <utility>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// Whether `value`, checked, is a value Python would compute once and pyk
/// knows now: a number, True or False, a module constant, a complex
/// constant, or one of them converted (`np.float32(0.5)`).
bool isConstant(const Expr &value, const std::optional<std::complex<double>> &complexValue) {
  if (value.constant || complexValue)
    return true;
  auto *call = dyn_cast<CallExpr>(&value);
  return call && call->function == Builtin::Cast && call->args.size() == 1 && call->args[0]->constant;
}

} // namespace

/// Python evaluates a default value once, where the function is defined:
/// in the module's scope, whatever the function's parameters and locals
/// are named.
const Type *Sema::checkInModuleScope(Expr &value) {
  std::map<std::string, Symbol *> saved = std::exchange(functionScope_, {});
  const Type *type = checkValue(value);
  functionScope_ = std::move(saved);
  return type;
}

void Sema::checkDefaultValue(Parameter &param, const FunctionInfo &function) {
  Expr &value = *param.defaultValue;
  if (function.kind == FunctionKind::Kernel) {
    error(value.range()) << "kernel parameters cannot have default values: a launch passes every argument";
    return;
  }
  if (isa<NoneLiteralExpr>(value)) {
    notSupportedYet(value.range(), "a default of None (an optional argument)");
    return;
  }
  const Type *type = checkInModuleScope(value);
  if (type->isError())
    return;
  if (!type->isScalar() || !isConstant(value, complexConstantOf(value)))
    error(value.range()) << "the default value of '" << param.name
                         << "' must be a constant: a number, True or False, or a module constant, as in '"
                         << param.name << "=1.0'";
}

bool Sema::bindArguments(CallExpr &expr, const FunctionInfo &callee, const Symbol &symbol) {
  const std::string &name = symbol.name;
  const size_t count = callee.params.size();
  std::vector<const Parameter *> params;
  for (const Parameter &param : callee.def->params)
    if (param.kind == Parameter::Kind::Normal)
      params.push_back(&param);
  if (expr.args.size() > count) {
    error(expr.args[count]->range()) << "'" << name << "' takes " << count << " argument" << (count == 1 ? "" : "s")
                                     << " but " << expr.args.size() << (expr.args.size() == 1 ? " was" : " were")
                                     << " given";
    note(symbol.definition) << "'" << name << "' is defined here";
    return false;
  }
  // Where each argument goes, before any is moved: after an error the call
  // keeps its arguments as written (later checks walk them).
  bool ok = true;
  std::vector<KeywordArgument *> byKeyword(count, nullptr);
  for (KeywordArgument &keyword : expr.keywords) {
    size_t at = 0;
    while (at < count && params[at]->name != keyword.name)
      ++at;
    if (at == count) {
      std::vector<std::string_view> names;
      for (const Parameter *param : params)
        names.push_back(param->name);
      DiagnosticBuilder message = error(keyword.nameRange);
      message << "'" << name << "' has no parameter '" << keyword.name << "'";
      if (std::string_view guess = closestName(keyword.name, names); !guess.empty())
        message << "; did you mean '" << guess << "'?";
      note(symbol.definition) << "'" << name << "' is defined here";
      ok = false;
    } else if (at < expr.args.size() || byKeyword[at]) {
      error(keyword.nameRange) << "'" << keyword.name << "' of '" << name << "' is given twice"
                               << (at < expr.args.size() ? ", by position and by keyword" : "");
      ok = false;
    } else {
      byKeyword[at] = &keyword;
    }
  }
  std::vector<std::string> missing;
  for (size_t i = expr.args.size(); i < count; ++i)
    if (!byKeyword[i] && !params[i]->defaultValue)
      missing.push_back("'" + params[i]->name + "'");
  if (!missing.empty()) {
    DiagnosticBuilder message = error(expr.range());
    message << "'" << name << "' is missing " << (missing.size() == 1 ? "the argument " : "the arguments ");
    for (size_t i = 0; i < missing.size(); ++i)
      message << (i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ") << missing[i];
    message << " (" << (missing.size() == 1 ? "a parameter" : "parameters") << " without a default value)";
    note(symbol.definition) << "'" << name << "' is defined here";
    ok = false;
  }
  if (!ok)
    return false;
  for (size_t i = expr.args.size(); i < count; ++i) {
    if (byKeyword[i]) {
      expr.args.push_back(std::move(byKeyword[i]->value));
    } else {
      expr.args.push_back(cloneExpr(*params[i]->defaultValue));
      ok &= !checkInModuleScope(*expr.args.back())->isError();
    }
  }
  expr.keywords.clear();
  return ok;
}

} // namespace pyk::sema
