//===- AST.h - The abstract syntax tree of a .pyk file --------------------===//
//
// The AST is the language: one node per construct the grammar accepts, each
// with its source range. Nodes are plain data (LLVM-style RTTI via classof);
// behaviour lives in visitors (ASTDumper, Sema, lowering). Sema fills in the
// fields marked "set by Sema"; nothing else writes to a built tree.
// Constructs pyk rejects are kept as Unsupported* nodes so that Sema can
// give each one its own message.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_AST_H
#define PYK_FRONTEND_AST_H

#include "Builtins.h"
#include "SourceFile.h"
#include "Types.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pyk {
struct Symbol;
struct ForeignFunction;
}

namespace pyk::ast {

class FunctionDef;

enum class NodeKind {
#define PYK_AST_EXPR(Name) Name,
#define PYK_AST_STMT(Name) Name,
#include "ASTNodes.def"
};

/// The name of a node kind, for dumps ("BinaryExpr").
const char *nodeKindName(NodeKind kind);

class Node {
public:
  virtual ~Node() = default;
  Node(const Node &) = delete;
  Node &operator=(const Node &) = delete;

  NodeKind kind() const { return kind_; }
  SourceRange range() const { return range_; }

protected:
  Node(NodeKind kind, SourceRange range) : kind_(kind), range_(range) {}

private:
  NodeKind kind_;
  SourceRange range_;
};

/// A compile-time value: a literal, a module constant, or an expression Sema
/// folded from them.
struct ConstantValue {
  enum class Kind { Bool, Int, Float } kind = Kind::Int;
  bool boolValue = false;
  int64_t intValue = 0;
  double floatValue = 0;
  /// An int in [2^63, 2^64): `intValue` holds its bits. Python ints are
  /// unbounded; pyk's hold what uint64 can.
  bool exceedsInt64 = false;

  static ConstantValue ofBool(bool v) { return {Kind::Bool, v, 0, 0, false}; }
  static ConstantValue ofInt(int64_t v) { return {Kind::Int, false, v, 0, false}; }
  static ConstantValue ofUInt64(uint64_t v) {
    return {Kind::Int, false, static_cast<int64_t>(v), 0, v > uint64_t(INT64_MAX)};
  }
  static ConstantValue ofFloat(double v) { return {Kind::Float, false, 0, v, false}; }

  /// The value as a double (Python's float(value)).
  double asDouble() const;
  /// Python's bool(value): non-zero is true, NaN too.
  bool truth() const;
  /// Whether a value of this kind can be represented in `kind` without
  /// change (NumPy 2 raises OverflowError for a Python int that cannot).
  bool fitsIn(ScalarKind kind) const;
  /// The value as Python prints it ("300", "18446744073709551615").
  std::string str() const;
};

class Expr : public Node {
public:
  static bool classof(const Node *node) {
    return node->kind() >= NodeKind::NameExpr && node->kind() <= NodeKind::UnsupportedExpr;
  }

  /// Set by Sema: the value's type (the error type after an error; void
  /// for namespaces and other entities that have no value).
  const Type *type = nullptr;
  /// Set by Sema: a Python scalar (literal or module constant) that is
  /// "weak" under NEP 50 promotion.
  bool isWeak = false;
  /// Set by Sema: the compile-time value, where there is one.
  std::optional<ConstantValue> constant;
  /// Set by Sema: the builtin this expression names or evaluates.
  Builtin builtin = Builtin::None;

protected:
  using Node::Node;
};

class Stmt : public Node {
public:
  static bool classof(const Node *node) { return node->kind() >= NodeKind::ExprStmt; }

protected:
  using Node::Node;
};

using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

#define PYK_AST_CLASSOF(Name)                                                                                     \
  static bool classof(const Node *node) { return node->kind() == NodeKind::Name; }

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

// atom: NAME
class NameExpr : public Expr {
public:
  NameExpr(SourceRange range, std::string name) : Expr(NodeKind::NameExpr, range), name(std::move(name)) {}
  PYK_AST_CLASSOF(NameExpr)

  std::string name;
  /// Set by Sema: what the name refers to.
  const Symbol *symbol = nullptr;
};

// atom: NUMBER (an integer). Python ints are unbounded; pyk's fit in 64 bits.
class IntLiteralExpr : public Expr {
public:
  IntLiteralExpr(SourceRange range, uint64_t value, bool tooLarge)
      : Expr(NodeKind::IntLiteralExpr, range), value(value), tooLarge(tooLarge) {}
  PYK_AST_CLASSOF(IntLiteralExpr)

  uint64_t value;
  /// The literal does not fit in 64 bits; `value` is meaningless then.
  bool tooLarge;
};

// atom: NUMBER (with a '.' or an exponent)
class FloatLiteralExpr : public Expr {
public:
  FloatLiteralExpr(SourceRange range, double value) : Expr(NodeKind::FloatLiteralExpr, range), value(value) {}
  PYK_AST_CLASSOF(FloatLiteralExpr)

  double value;
};

// atom: NUMBER followed by j or J: Python's complex literal, an imaginary
// number (`2.5j`; `1 + 2j` is an addition).
class ImagLiteralExpr : public Expr {
public:
  ImagLiteralExpr(SourceRange range, double value) : Expr(NodeKind::ImagLiteralExpr, range), value(value) {}
  PYK_AST_CLASSOF(ImagLiteralExpr)

  double value;
};

// atom: 'True' | 'False'
class BoolLiteralExpr : public Expr {
public:
  BoolLiteralExpr(SourceRange range, bool value) : Expr(NodeKind::BoolLiteralExpr, range), value(value) {}
  PYK_AST_CLASSOF(BoolLiteralExpr)

  bool value;
};

// atom: 'None'
class NoneLiteralExpr : public Expr {
public:
  explicit NoneLiteralExpr(SourceRange range) : Expr(NodeKind::NoneLiteralExpr, range) {}
  PYK_AST_CLASSOF(NoneLiteralExpr)
};

// atom: STRING+ (adjacent literals concatenated, escapes decoded)
class StringLiteralExpr : public Expr {
public:
  enum class Flavor { Text, Bytes, Formatted };
  StringLiteralExpr(SourceRange range, std::string value, Flavor flavor, std::optional<uint32_t> textOffset)
      : Expr(NodeKind::StringLiteralExpr, range), value(std::move(value)), flavor(flavor), textOffset(textOffset) {}
  PYK_AST_CLASSOF(StringLiteralExpr)

  std::string value;
  Flavor flavor;
  /// For one literal without escapes or prefix, the file offset where its
  /// text starts (after the quotes), so that positions inside the text map
  /// back to the file; empty otherwise.
  std::optional<uint32_t> textOffset;
};

// '(' a, b ')' | a, b
class TupleExpr : public Expr {
public:
  TupleExpr(SourceRange range, std::vector<ExprPtr> elements)
      : Expr(NodeKind::TupleExpr, range), elements(std::move(elements)) {}
  PYK_AST_CLASSOF(TupleExpr)

  std::vector<ExprPtr> elements;
};

// trailer: '.' NAME
class AttributeExpr : public Expr {
public:
  AttributeExpr(SourceRange range, ExprPtr object, std::string attribute, SourceRange attributeRange)
      : Expr(NodeKind::AttributeExpr, range), object(std::move(object)), attribute(std::move(attribute)),
        attributeRange(attributeRange) {}
  PYK_AST_CLASSOF(AttributeExpr)

  ExprPtr object;
  std::string attribute;
  SourceRange attributeRange;
};

// trailer: '[' subscript (',' subscript)* ']'
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(SourceRange range, ExprPtr object, std::vector<ExprPtr> indices)
      : Expr(NodeKind::SubscriptExpr, range), object(std::move(object)), indices(std::move(indices)) {}
  PYK_AST_CLASSOF(SubscriptExpr)

  ExprPtr object;
  std::vector<ExprPtr> indices;
};

// subscript: [lower] ':' [upper] [':' [step]]
class SliceExpr : public Expr {
public:
  SliceExpr(SourceRange range, ExprPtr lower, ExprPtr upper, ExprPtr step)
      : Expr(NodeKind::SliceExpr, range), lower(std::move(lower)), upper(std::move(upper)), step(std::move(step)) {}
  PYK_AST_CLASSOF(SliceExpr)

  ExprPtr lower; // may be null
  ExprPtr upper; // may be null
  ExprPtr step;  // may be null
};

/// `name=value` in a call.
struct KeywordArgument {
  std::string name;
  SourceRange nameRange;
  ExprPtr value;
};

// trailer: '(' [arglist] ')'
class CallExpr : public Expr {
public:
  CallExpr(SourceRange range, ExprPtr callee, std::vector<ExprPtr> args, std::vector<KeywordArgument> keywords)
      : Expr(NodeKind::CallExpr, range), callee(std::move(callee)), args(std::move(args)),
        keywords(std::move(keywords)) {}
  PYK_AST_CLASSOF(CallExpr)

  ExprPtr callee;
  std::vector<ExprPtr> args;
  std::vector<KeywordArgument> keywords;
  /// Set by Sema: which builtin the call is (Cast, Abs, Min, Max, Grid).
  Builtin function = Builtin::None;
  /// Set by Sema for min/max and math functions: the type all arguments
  /// are converted to.
  const Type *operandType = nullptr;
  /// Set by Sema for math functions: which one.
  const MathFunctionInfo *mathFunction = nullptr;
  /// Set by Sema for cuda.libdevice functions: which one.
  const LibdeviceFunction *libdeviceFunction = nullptr;
  /// Set by Sema for a call of a device function: its definition.
  const FunctionDef *calleeDef = nullptr;
  /// Set by Sema for a call of a CUDA C++ device function (declare_device).
  const ForeignFunction *foreign = nullptr;
};

enum class UnaryOp { Plus, Minus, Invert, Not };
const char *unaryOpSpelling(UnaryOp op);

// factor: ('+'|'-'|'~') factor | not_test: 'not' not_test
class UnaryExpr : public Expr {
public:
  UnaryExpr(SourceRange range, UnaryOp op, ExprPtr operand)
      : Expr(NodeKind::UnaryExpr, range), op(op), operand(std::move(operand)) {}
  PYK_AST_CLASSOF(UnaryExpr)

  UnaryOp op;
  ExprPtr operand;
};

enum class BinaryOp { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitAnd, BitOr, BitXor };
const char *binaryOpSpelling(BinaryOp op);

// arith_expr, term, shift_expr, and_expr, xor_expr, expr, power
class BinaryExpr : public Expr {
public:
  BinaryExpr(SourceRange range, BinaryOp op, SourceRange opRange, ExprPtr lhs, ExprPtr rhs)
      : Expr(NodeKind::BinaryExpr, range), op(op), opRange(opRange), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  PYK_AST_CLASSOF(BinaryExpr)

  BinaryOp op;
  SourceRange opRange;
  ExprPtr lhs;
  ExprPtr rhs;
  /// Set by Sema: the type both operands are converted to before the
  /// operation (float64 for `/` on integers).
  const Type *operandType = nullptr;
};

enum class BoolOp { And, Or };

// or_test: and_test ('or' and_test)* ; and_test: not_test ('and' not_test)*
class BoolOpExpr : public Expr {
public:
  BoolOpExpr(SourceRange range, BoolOp op, std::vector<ExprPtr> operands)
      : Expr(NodeKind::BoolOpExpr, range), op(op), operands(std::move(operands)) {}
  PYK_AST_CLASSOF(BoolOpExpr)

  BoolOp op;
  std::vector<ExprPtr> operands;
};

enum class CompareOp { Lt, Le, Gt, Ge, Eq, Ne, In, NotIn, Is, IsNot };
const char *compareOpSpelling(CompareOp op);

// comparison: expr (comp_op expr)*   — `a < b < c` is one node
class CompareExpr : public Expr {
public:
  CompareExpr(SourceRange range, ExprPtr first, std::vector<CompareOp> ops, std::vector<SourceRange> opRanges,
              std::vector<ExprPtr> comparators)
      : Expr(NodeKind::CompareExpr, range), first(std::move(first)), ops(std::move(ops)),
        opRanges(std::move(opRanges)), comparators(std::move(comparators)) {}
  PYK_AST_CLASSOF(CompareExpr)

  ExprPtr first;
  std::vector<CompareOp> ops;
  std::vector<SourceRange> opRanges;
  std::vector<ExprPtr> comparators;
  /// Set by Sema: for each op, the type both its operands are converted to.
  std::vector<const Type *> operandTypes;
};

// test: or_test 'if' or_test 'else' test
class ConditionalExpr : public Expr {
public:
  ConditionalExpr(SourceRange range, ExprPtr condition, ExprPtr thenValue, ExprPtr elseValue)
      : Expr(NodeKind::ConditionalExpr, range), condition(std::move(condition)), thenValue(std::move(thenValue)),
        elseValue(std::move(elseValue)) {}
  PYK_AST_CLASSOF(ConditionalExpr)

  ExprPtr condition;
  ExprPtr thenValue;
  ExprPtr elseValue;
};

/// Python syntax that pyk parses in order to reject it with its own message.
enum class UnsupportedSyntax {
  // Expressions
  Lambda,
  ListDisplay,
  DictDisplay,
  SetDisplay,
  ListComprehension,
  SetComprehension,
  DictComprehension,
  GeneratorExpression,
  Starred,
  DoubleStarred,
  NamedExpr,
  Yield,
  Await,
  Ellipsis,
  // Statements
  ClassDef,
  Try,
  With,
  Global,
  Nonlocal,
  Del,
  Raise,
  Async,
  Match,
  TypeAlias,
  TypeParameters,
};

/// "class definitions", "lambda expressions", ...
const char *unsupportedSyntaxName(UnsupportedSyntax what);

class UnsupportedExpr : public Expr {
public:
  UnsupportedExpr(SourceRange range, UnsupportedSyntax what) : Expr(NodeKind::UnsupportedExpr, range), what(what) {}
  PYK_AST_CLASSOF(UnsupportedExpr)

  UnsupportedSyntax what;
  /// The name a walrus (`v := ...`) binds, so that its later uses are not
  /// reported again as undefined.
  std::string boundName;
  /// A list display's elements: a list of signatures is the one list pyk
  /// reads (`@cuda.jit(["void(float32[:])", "void(float64[:])"])`).
  std::vector<ExprPtr> elements;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

// expr_stmt: testlist
class ExprStmt : public Stmt {
public:
  ExprStmt(SourceRange range, ExprPtr expr) : Stmt(NodeKind::ExprStmt, range), expr(std::move(expr)) {}
  PYK_AST_CLASSOF(ExprStmt)

  ExprPtr expr;
};

// expr_stmt: (target '=')+ value
class AssignStmt : public Stmt {
public:
  AssignStmt(SourceRange range, std::vector<ExprPtr> targets, ExprPtr value)
      : Stmt(NodeKind::AssignStmt, range), targets(std::move(targets)), value(std::move(value)) {}
  PYK_AST_CLASSOF(AssignStmt)

  std::vector<ExprPtr> targets;
  ExprPtr value;
};

// expr_stmt: target augassign value
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(SourceRange range, ExprPtr target, BinaryOp op, SourceRange opRange, ExprPtr value)
      : Stmt(NodeKind::AugAssignStmt, range), target(std::move(target)), op(op), opRange(opRange),
        value(std::move(value)) {}
  PYK_AST_CLASSOF(AugAssignStmt)

  ExprPtr target;
  BinaryOp op;
  SourceRange opRange;
  ExprPtr value;
  /// Set by Sema: the type of `target op value` and the type its operands
  /// are converted to.
  const Type *resultType = nullptr;
  const Type *operandType = nullptr;
};

// expr_stmt: target ':' annotation ['=' value]
class AnnAssignStmt : public Stmt {
public:
  AnnAssignStmt(SourceRange range, ExprPtr target, ExprPtr annotation, ExprPtr value)
      : Stmt(NodeKind::AnnAssignStmt, range), target(std::move(target)), annotation(std::move(annotation)),
        value(std::move(value)) {}
  PYK_AST_CLASSOF(AnnAssignStmt)

  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value; // may be null
};

// if_stmt: 'if' test ':' suite ('elif' test ':' suite)* ['else' ':' suite]
// An `elif` becomes an IfStmt (with isElif set) alone in the else body.
class IfStmt : public Stmt {
public:
  IfStmt(SourceRange range, ExprPtr condition, StmtList thenBody, StmtList elseBody, bool isElif)
      : Stmt(NodeKind::IfStmt, range), condition(std::move(condition)), thenBody(std::move(thenBody)),
        elseBody(std::move(elseBody)), isElif(isElif) {}
  PYK_AST_CLASSOF(IfStmt)

  ExprPtr condition;
  StmtList thenBody;
  StmtList elseBody;
  bool isElif;
};

// while_stmt: 'while' test ':' suite ['else' ':' suite]
class WhileStmt : public Stmt {
public:
  WhileStmt(SourceRange range, ExprPtr condition, StmtList body, StmtList elseBody)
      : Stmt(NodeKind::WhileStmt, range), condition(std::move(condition)), body(std::move(body)),
        elseBody(std::move(elseBody)) {}
  PYK_AST_CLASSOF(WhileStmt)

  ExprPtr condition;
  StmtList body;
  StmtList elseBody;
};

// for_stmt: 'for' exprlist 'in' testlist ':' suite ['else' ':' suite]
class ForStmt : public Stmt {
public:
  ForStmt(SourceRange range, ExprPtr target, ExprPtr iterable, StmtList body, StmtList elseBody)
      : Stmt(NodeKind::ForStmt, range), target(std::move(target)), iterable(std::move(iterable)),
        body(std::move(body)), elseBody(std::move(elseBody)) {}
  PYK_AST_CLASSOF(ForStmt)

  ExprPtr target;
  ExprPtr iterable;
  StmtList body;
  StmtList elseBody;
  /// Set by Sema: the `range(...)` arguments (start, stop, step; absent
  /// ones are null) and the integer type the loop counts in.
  ExprPtr *rangeStart = nullptr;
  ExprPtr *rangeStop = nullptr;
  ExprPtr *rangeStep = nullptr;
  const Type *inductionType = nullptr;
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(SourceRange range) : Stmt(NodeKind::BreakStmt, range) {}
  PYK_AST_CLASSOF(BreakStmt)
};

class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(SourceRange range) : Stmt(NodeKind::ContinueStmt, range) {}
  PYK_AST_CLASSOF(ContinueStmt)
};

class PassStmt : public Stmt {
public:
  explicit PassStmt(SourceRange range) : Stmt(NodeKind::PassStmt, range) {}
  PYK_AST_CLASSOF(PassStmt)
};

// return_stmt: 'return' [testlist]
class ReturnStmt : public Stmt {
public:
  ReturnStmt(SourceRange range, ExprPtr value) : Stmt(NodeKind::ReturnStmt, range), value(std::move(value)) {}
  PYK_AST_CLASSOF(ReturnStmt)

  ExprPtr value; // may be null
};

// assert_stmt: 'assert' test [',' test]
class AssertStmt : public Stmt {
public:
  AssertStmt(SourceRange range, ExprPtr condition, ExprPtr message)
      : Stmt(NodeKind::AssertStmt, range), condition(std::move(condition)), message(std::move(message)) {}
  PYK_AST_CLASSOF(AssertStmt)

  ExprPtr condition;
  ExprPtr message; // may be null
};

/// `a.b.c as d` in an import.
struct ImportedName {
  std::string name; // dotted
  std::string asName; // empty when there is no `as`
  SourceRange range;
};

// import_name: 'import' dotted_as_names
class ImportStmt : public Stmt {
public:
  ImportStmt(SourceRange range, std::vector<ImportedName> names)
      : Stmt(NodeKind::ImportStmt, range), names(std::move(names)) {}
  PYK_AST_CLASSOF(ImportStmt)

  std::vector<ImportedName> names;
};

// import_from: 'from' ('.'* dotted_name | '.'+) 'import' ('*' | import_as_names)
class ImportFromStmt : public Stmt {
public:
  ImportFromStmt(SourceRange range, std::string module, SourceRange moduleRange, unsigned level,
                 std::vector<ImportedName> names, bool importsAll)
      : Stmt(NodeKind::ImportFromStmt, range), module(std::move(module)), moduleRange(moduleRange), level(level),
        names(std::move(names)), importsAll(importsAll) {}
  PYK_AST_CLASSOF(ImportFromStmt)

  std::string module;
  SourceRange moduleRange;
  unsigned level; // leading dots of a relative import
  std::vector<ImportedName> names;
  bool importsAll; // from m import *
};

/// A parameter of a `def`.
struct Parameter {
  enum class Kind { Normal, PositionalOnlyMarker, VarArgs, KeywordOnlyMarker, KeywordArgs };
  Kind kind = Kind::Normal;
  std::string name;
  SourceRange range;
  ExprPtr annotation;   // may be null
  ExprPtr defaultValue; // may be null
};

// decorated: decorator+ funcdef ; funcdef: 'def' NAME parameters ['->' test] ':' suite
class FunctionDef : public Stmt {
public:
  FunctionDef(SourceRange range, std::string name, SourceRange nameRange)
      : Stmt(NodeKind::FunctionDef, range), name(std::move(name)), nameRange(nameRange) {}
  PYK_AST_CLASSOF(FunctionDef)

  std::string name;
  SourceRange nameRange;
  std::vector<ExprPtr> decorators;
  std::vector<Parameter> params;
  ExprPtr returns; // may be null
  /// The docstring, removed from the body.
  std::optional<std::string> docstring;
  StmtList body;
};

class UnsupportedStmt : public Stmt {
public:
  UnsupportedStmt(SourceRange range, UnsupportedSyntax what) : Stmt(NodeKind::UnsupportedStmt, range), what(what) {}
  PYK_AST_CLASSOF(UnsupportedStmt)

  UnsupportedSyntax what;
  /// The name a rejected definition (a class, an async or generic
  /// function) binds, so that its uses are not reported again as undefined.
  std::string boundName;
};

#undef PYK_AST_CLASSOF

/// A whole .pyk file.
struct Module {
  std::optional<std::string> docstring;
  StmtList body;
};

//===----------------------------------------------------------------------===//
// Visitors: dispatch on the node kind, generated from ASTNodes.def.
//===----------------------------------------------------------------------===//

template <typename Derived, typename Result = void> class ExprVisitor {
public:
  Result visitExpr(Expr &expr) {
    switch (expr.kind()) {
#define PYK_AST_EXPR(Name)                                                                                         \
  case NodeKind::Name:                                                                                             \
    return static_cast<Derived *>(this)->visit##Name(static_cast<Name &>(expr));
#include "ASTNodes.def"
    default:
      break;
    }
    __builtin_unreachable();
  }
};

template <typename Derived, typename Result = void> class StmtVisitor {
public:
  Result visitStmt(Stmt &stmt) {
    switch (stmt.kind()) {
#define PYK_AST_STMT(Name)                                                                                         \
  case NodeKind::Name:                                                                                             \
    return static_cast<Derived *>(this)->visit##Name(static_cast<Name &>(stmt));
#include "ASTNodes.def"
    default:
      break;
    }
    __builtin_unreachable();
  }
};

} // namespace pyk::ast

#endif // PYK_FRONTEND_AST_H
