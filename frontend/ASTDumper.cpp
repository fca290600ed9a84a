//===- ASTDumper.cpp - Print an AST as an indented tree (--emit=ast) ------===//
#include "ASTDumper.h"

#include "llvm/Support/Casting.h"
#include <cstdio>
#include <cstdlib>

namespace pyk {
namespace {

using namespace ast;

class ASTDumper : public ExprVisitor<ASTDumper>, public StmtVisitor<ASTDumper> {
public:
  explicit ASTDumper(llvm::raw_ostream &os) : os_(os) {}

  void dumpModule(const Module &module) {
    os_ << "Module\n";
    ++depth_;
    if (module.docstring)
      line("Docstring") << " " << quoted(*module.docstring) << "\n";
    dumpBody(module.body);
    --depth_;
  }

  // Expressions ------------------------------------------------------------
  void visitNameExpr(NameExpr &e) { header(e) << " '" << e.name << "'\n"; }
  void visitIntLiteralExpr(IntLiteralExpr &e) {
    if (e.tooLarge)
      header(e) << " <too large>\n";
    else
      header(e) << " " << e.value << "\n";
  }
  void visitFloatLiteralExpr(FloatLiteralExpr &e) { header(e) << " " << shortestRepr(e.value) << "\n"; }
  void visitImagLiteralExpr(ImagLiteralExpr &e) { header(e) << " " << shortestRepr(e.value) << "j\n"; }
  void visitBoolLiteralExpr(BoolLiteralExpr &e) { header(e) << (e.value ? " True\n" : " False\n"); }
  void visitNoneLiteralExpr(NoneLiteralExpr &e) { header(e) << "\n"; }
  void visitStringLiteralExpr(StringLiteralExpr &e) {
    static const char *flavors[] = {"", " bytes", " f-string"};
    header(e) << flavors[static_cast<int>(e.flavor)] << " " << quoted(e.value) << "\n";
  }
  void visitTupleExpr(TupleExpr &e) {
    header(e) << "\n";
    children(e.elements);
  }
  void visitAttributeExpr(AttributeExpr &e) {
    header(e) << " ." << e.attribute << "\n";
    child(*e.object);
  }
  void visitSubscriptExpr(SubscriptExpr &e) {
    header(e) << "\n";
    child(*e.object);
    children(e.indices);
  }
  void visitSliceExpr(SliceExpr &e) {
    header(e) << "\n";
    optionalChild("Lower", e.lower.get());
    optionalChild("Upper", e.upper.get());
    optionalChild("Step", e.step.get());
  }
  void visitCallExpr(CallExpr &e) {
    header(e) << "\n";
    child(*e.callee);
    children(e.args);
    ++depth_;
    for (KeywordArgument &keyword : e.keywords) {
      line("Keyword") << " '" << keyword.name << "'" << at(keyword.nameRange) << "\n";
      child(*keyword.value);
    }
    --depth_;
  }
  void visitUnaryExpr(UnaryExpr &e) {
    header(e) << " '" << unaryOpSpelling(e.op) << "'\n";
    child(*e.operand);
  }
  void visitBinaryExpr(BinaryExpr &e) {
    header(e) << " '" << binaryOpSpelling(e.op) << "'\n";
    child(*e.lhs);
    child(*e.rhs);
  }
  void visitBoolOpExpr(BoolOpExpr &e) {
    header(e) << (e.op == BoolOp::And ? " 'and'\n" : " 'or'\n");
    children(e.operands);
  }
  void visitCompareExpr(CompareExpr &e) {
    header(e);
    for (CompareOp op : e.ops)
      os_ << " '" << compareOpSpelling(op) << "'";
    os_ << "\n";
    child(*e.first);
    children(e.comparators);
  }
  void visitConditionalExpr(ConditionalExpr &e) {
    header(e) << "\n";
    child(*e.condition);
    child(*e.thenValue);
    child(*e.elseValue);
  }
  void visitUnsupportedExpr(UnsupportedExpr &e) { header(e) << " " << unsupportedSyntaxName(e.what) << "\n"; }

  // Statements -------------------------------------------------------------
  void visitExprStmt(ExprStmt &s) {
    header(s) << "\n";
    child(*s.expr);
  }
  void visitAssignStmt(AssignStmt &s) {
    header(s) << "\n";
    children(s.targets);
    child(*s.value);
  }
  void visitAugAssignStmt(AugAssignStmt &s) {
    header(s) << " '" << binaryOpSpelling(s.op) << "='\n";
    child(*s.target);
    child(*s.value);
  }
  void visitAnnAssignStmt(AnnAssignStmt &s) {
    header(s) << "\n";
    child(*s.target);
    optionalChild("Annotation", s.annotation.get());
    optionalChild("Value", s.value.get());
  }
  void visitIfStmt(IfStmt &s) {
    header(s) << (s.isElif ? " elif\n" : "\n");
    child(*s.condition);
    block("Then", s.thenBody);
    block("Else", s.elseBody);
  }
  void visitWhileStmt(WhileStmt &s) {
    header(s) << "\n";
    child(*s.condition);
    block("Body", s.body);
    block("Else", s.elseBody);
  }
  void visitForStmt(ForStmt &s) {
    header(s) << "\n";
    child(*s.target);
    child(*s.iterable);
    block("Body", s.body);
    block("Else", s.elseBody);
  }
  void visitBreakStmt(BreakStmt &s) { header(s) << "\n"; }
  void visitContinueStmt(ContinueStmt &s) { header(s) << "\n"; }
  void visitPassStmt(PassStmt &s) { header(s) << "\n"; }
  void visitReturnStmt(ReturnStmt &s) {
    header(s) << "\n";
    optionalChild("Value", s.value.get());
  }
  void visitAssertStmt(AssertStmt &s) {
    header(s) << "\n";
    child(*s.condition);
    optionalChild("Message", s.message.get());
  }
  void visitImportStmt(ImportStmt &s) {
    header(s);
    importedNames(s.names);
  }
  void visitImportFromStmt(ImportFromStmt &s) {
    header(s) << " " << std::string(s.level, '.') << s.module;
    if (s.importsAll)
      os_ << " *";
    importedNames(s.names);
  }
  void visitFunctionDef(FunctionDef &s) {
    header(s) << " '" << s.name << "'\n";
    ++depth_;
    for (ExprPtr &decorator : s.decorators) {
      line("Decorator") << "\n";
      child(*decorator);
    }
    if (s.docstring)
      line("Docstring") << " " << quoted(*s.docstring) << "\n";
    for (Parameter &param : s.params) {
      static const char *kinds[] = {"", " /", " *", " * (marker)", " **"};
      line("Param") << kinds[static_cast<int>(param.kind)] << " '" << param.name << "'" << at(param.range) << "\n";
      optionalChild("Annotation", param.annotation.get());
      optionalChild("Default", param.defaultValue.get());
    }
    --depth_;
    optionalChild("Returns", s.returns.get());
    block("Body", s.body);
  }
  void visitUnsupportedStmt(UnsupportedStmt &s) { header(s) << " " << unsupportedSyntaxName(s.what) << "\n"; }

private:
  llvm::raw_ostream &line(const char *label) {
    os_.indent(depth_ * 2) << label;
    return os_;
  }

  static std::string at(SourceRange range) {
    if (!range.isValid())
      return "";
    return " @" + std::to_string(range.begin.line) + ":" + std::to_string(range.begin.column);
  }

  llvm::raw_ostream &header(Node &node) {
    line(nodeKindName(node.kind())) << at(node.range());
    if (auto *expr = llvm::dyn_cast<Expr>(&node); expr && expr->type && !expr->type->isVoid())
      os_ << " : " << expr->type->str();
    return os_;
  }

  /// The shortest decimal text that reads back as `value`, as Python's
  /// repr() prints floats ("1000.0001", "0.1", "1e+300").
  static std::string shortestRepr(double value) {
    char buffer[40];
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
      if (std::strtod(buffer, nullptr) == value)
        break;
    }
    std::string text = buffer;
    if (text.find_first_of(".eni") == std::string::npos)
      text += ".0";
    return text;
  }

  static std::string quoted(const std::string &text) {
    std::string out = "\"";
    for (char c : text) {
      if (c == '\n')
        out += "\\n";
      else if (c == '"' || c == '\\')
        out += std::string("\\") + c;
      else if (static_cast<unsigned char>(c) < 0x20)
        out += "\\x" + std::string(1, "0123456789abcdef"[(c >> 4) & 0xF]) + "0123456789abcdef"[c & 0xF];
      else
        out += c;
    }
    return out + "\"";
  }

  void child(Expr &expr) {
    ++depth_;
    visitExpr(expr);
    --depth_;
  }
  void children(std::vector<ExprPtr> &exprs) {
    for (ExprPtr &expr : exprs)
      child(*expr);
  }
  void optionalChild(const char *label, Expr *expr) {
    if (!expr)
      return;
    ++depth_;
    line(label) << "\n";
    child(*expr);
    --depth_;
  }
  void dumpBody(StmtList &body) {
    for (StmtPtr &stmt : body)
      visitStmt(*stmt);
  }
  void dumpBody(const StmtList &body) { dumpBody(const_cast<StmtList &>(body)); }
  void block(const char *label, StmtList &body) {
    if (body.empty())
      return;
    ++depth_;
    line(label) << "\n";
    ++depth_;
    dumpBody(body);
    depth_ -= 2;
  }
  void importedNames(const std::vector<ImportedName> &names) {
    for (const ImportedName &name : names) {
      os_ << " " << name.name;
      if (!name.asName.empty())
        os_ << " as " << name.asName;
    }
    os_ << "\n";
  }

  llvm::raw_ostream &os_;
  unsigned depth_ = 0;
};

} // namespace

void dumpAST(const ast::Module &module, llvm::raw_ostream &os) { ASTDumper(os).dumpModule(module); }

} // namespace pyk
