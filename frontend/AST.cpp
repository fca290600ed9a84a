//===- AST.cpp - Names and spellings of AST node kinds and operators ------===//
#include "AST.h"

namespace pyk::ast {

double ConstantValue::asDouble() const {
  switch (kind) {
  case Kind::Bool:
    return boolValue ? 1.0 : 0.0;
  case Kind::Int:
    return exceedsInt64 ? static_cast<double>(static_cast<uint64_t>(intValue)) : static_cast<double>(intValue);
  case Kind::Float:
    return floatValue;
  }
  return 0;
}

bool ConstantValue::truth() const {
  switch (kind) {
  case Kind::Bool:
    return boolValue;
  case Kind::Int:
    return intValue != 0; // also for one that exceedsInt64: its bits are not all 0
  case Kind::Float:
    return floatValue != 0; // NaN != 0
  }
  return false;
}

bool ConstantValue::fitsIn(ScalarKind target) const {
  if (kind != Kind::Int || !isInteger(target))
    return true;
  const unsigned bits = byteWidth(target) * 8;
  if (exceedsInt64)
    return target == ScalarKind::UInt64;
  if (isUnsignedInteger(target))
    return intValue >= 0 && (bits == 64 || intValue < (int64_t(1) << bits));
  return bits == 64 || (intValue >= -(int64_t(1) << (bits - 1)) && intValue < (int64_t(1) << (bits - 1)));
}

std::string ConstantValue::str() const {
  switch (kind) {
  case Kind::Bool:
    return boolValue ? "True" : "False";
  case Kind::Int:
    return exceedsInt64 ? std::to_string(static_cast<uint64_t>(intValue)) : std::to_string(intValue);
  case Kind::Float:
    return std::to_string(floatValue);
  }
  return "?";
}

const char *nodeKindName(NodeKind kind) {
  switch (kind) {
#define PYK_AST_EXPR(Name)                                                                                         \
  case NodeKind::Name:                                                                                             \
    return #Name;
#define PYK_AST_STMT(Name) PYK_AST_EXPR(Name)
#include "ASTNodes.def"
  }
  return "?";
}

const char *unaryOpSpelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Plus:
    return "+";
  case UnaryOp::Minus:
    return "-";
  case UnaryOp::Invert:
    return "~";
  case UnaryOp::Not:
    return "not";
  }
  return "?";
}

const char *binaryOpSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::FloorDiv:
    return "//";
  case BinaryOp::Mod:
    return "%";
  case BinaryOp::Pow:
    return "**";
  case BinaryOp::MatMul:
    return "@";
  case BinaryOp::LShift:
    return "<<";
  case BinaryOp::RShift:
    return ">>";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  }
  return "?";
}

const char *compareOpSpelling(CompareOp op) {
  switch (op) {
  case CompareOp::Lt:
    return "<";
  case CompareOp::Le:
    return "<=";
  case CompareOp::Gt:
    return ">";
  case CompareOp::Ge:
    return ">=";
  case CompareOp::Eq:
    return "==";
  case CompareOp::Ne:
    return "!=";
  case CompareOp::In:
    return "in";
  case CompareOp::NotIn:
    return "not in";
  case CompareOp::Is:
    return "is";
  case CompareOp::IsNot:
    return "is not";
  }
  return "?";
}

const char *unsupportedSyntaxName(UnsupportedSyntax what) {
  switch (what) {
  case UnsupportedSyntax::Lambda:
    return "lambda expressions";
  case UnsupportedSyntax::ListDisplay:
    return "lists";
  case UnsupportedSyntax::DictDisplay:
    return "dicts";
  case UnsupportedSyntax::SetDisplay:
    return "sets";
  case UnsupportedSyntax::ListComprehension:
    return "list comprehensions";
  case UnsupportedSyntax::SetComprehension:
    return "set comprehensions";
  case UnsupportedSyntax::DictComprehension:
    return "dict comprehensions";
  case UnsupportedSyntax::GeneratorExpression:
    return "generator expressions";
  case UnsupportedSyntax::Starred:
    return "starred expressions ('*x')";
  case UnsupportedSyntax::DoubleStarred:
    return "'**' unpacking arguments";
  case UnsupportedSyntax::NamedExpr:
    return "assignment expressions (':=')";
  case UnsupportedSyntax::Yield:
    return "generators ('yield')";
  case UnsupportedSyntax::Await:
    return "'await' expressions";
  case UnsupportedSyntax::Ellipsis:
    return "ellipsis literals ('...')";
  case UnsupportedSyntax::ClassDef:
    return "class definitions";
  case UnsupportedSyntax::Try:
    return "'try' statements";
  case UnsupportedSyntax::With:
    return "'with' statements";
  case UnsupportedSyntax::Global:
    return "'global' declarations";
  case UnsupportedSyntax::Nonlocal:
    return "'nonlocal' declarations";
  case UnsupportedSyntax::Del:
    return "'del' statements";
  case UnsupportedSyntax::Raise:
    return "'raise' statements";
  case UnsupportedSyntax::Async:
    return "'async' functions and statements";
  case UnsupportedSyntax::Match:
    return "'match' statements";
  case UnsupportedSyntax::TypeAlias:
    return "'type' alias statements";
  case UnsupportedSyntax::TypeParameters:
    return "generic type parameters";
  }
  return "this construct";
}

} // namespace pyk::ast
