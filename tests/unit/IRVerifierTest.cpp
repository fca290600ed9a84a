//===- IRVerifierTest.cpp - The verifier accepts good IR and names bad IR --===//
#include "IRPrinter.h"
#include "IRVerifier.h"
#include "passes/InsertChecks.h"

#include <gtest/gtest.h>

using namespace pyk::ir;
using pyk::ScalarKind;
using pyk::SourceRange;

namespace {

const Type f32 = Type::scalarType(ScalarKind::Float32);
const Type i64 = Type::scalarType(ScalarKind::Int64);

std::string verifyMessage(const Module &module) {
  llvm::Error error = verifyModule(module);
  return error ? llvm::toString(std::move(error)) : "";
}

/// kernel k(x: f32[1d]) { decl i: i64 = 0; store x[i] = 1.0 }
std::unique_ptr<Module> storeKernel(Type storedType, Type indexType) {
  auto module = std::make_unique<Module>();
  auto f = std::make_unique<Function>(Function::Kind::Kernel, "k", SourceRange());
  Variable *x = f->addParam("x", Type::arrayType(ScalarKind::Float32, 1), SourceRange());
  Variable *i = f->addLocal("i", indexType, SourceRange());
  f->body.push_back(std::make_unique<Declare>(SourceRange(), i, std::make_unique<Constant>(SourceRange(), indexType, 0, 0)));
  std::vector<ExprPtr> indices;
  indices.push_back(std::make_unique<VarRef>(SourceRange(), i));
  f->body.push_back(std::make_unique<ArrayStore>(SourceRange(), x, std::move(indices),
                                                 std::make_unique<Constant>(SourceRange(), storedType, 1, 1.0)));
  module->functions.push_back(std::move(f));
  return module;
}

TEST(IRVerifier, AcceptsWellTypedIR) {
  auto module = storeKernel(f32, i64);
  EXPECT_EQ(verifyMessage(*module), "");
  std::string text;
  llvm::raw_string_ostream os(text);
  printModule(*module, os);
  EXPECT_NE(os.str().find("store %x[%i] = 1:f32"), std::string::npos) << os.str();
}

TEST(IRVerifier, RejectsStoreOfTheWrongType) {
  std::string message = verifyMessage(*storeKernel(Type::scalarType(ScalarKind::Float64), i64));
  EXPECT_NE(message.find("stored value has type f64, expected f32"), std::string::npos) << message;
}

TEST(IRVerifier, RejectsNonInt64Index) {
  std::string message = verifyMessage(*storeKernel(f32, Type::scalarType(ScalarKind::Int32)));
  EXPECT_NE(message.find("index has type i32, expected i64"), std::string::npos) << message;
}

TEST(IRVerifier, RejectsUseOutsideTheDeclaringBlock) {
  auto module = std::make_unique<Module>();
  auto f = std::make_unique<Function>(Function::Kind::Kernel, "k", SourceRange());
  Variable *x = f->addParam("x", Type::arrayType(ScalarKind::Int64, 1), SourceRange());
  Variable *v = f->addLocal("v", i64, SourceRange());
  StmtList thenBody;
  thenBody.push_back(std::make_unique<Declare>(SourceRange(), v, std::make_unique<Constant>(SourceRange(), i64, 1, 1)));
  f->body.push_back(std::make_unique<If>(SourceRange(),
                                         std::make_unique<Constant>(SourceRange(), Type::scalarType(ScalarKind::Bool), 1, 1),
                                         std::move(thenBody), StmtList()));
  std::vector<ExprPtr> indices;
  indices.push_back(std::make_unique<Constant>(SourceRange(), i64, 0, 0));
  f->body.push_back(std::make_unique<ArrayStore>(SourceRange(), x, std::move(indices),
                                                 std::make_unique<VarRef>(SourceRange(), v)));
  module->functions.push_back(std::move(f));
  std::string message = verifyMessage(*module);
  EXPECT_NE(message.find("'v' used outside the scope of its declaration"), std::string::npos) << message;
}

TEST(IRVerifier, RejectsMismatchedArithmeticOperands) {
  auto module = std::make_unique<Module>();
  auto f = std::make_unique<Function>(Function::Kind::Kernel, "k", SourceRange());
  Variable *v = f->addLocal("v", f32, SourceRange());
  auto sum = std::make_unique<Binary>(SourceRange(), BinaryOp::Add, std::make_unique<Constant>(SourceRange(), f32, 0, 1.0),
                                      std::make_unique<Constant>(SourceRange(), i64, 2, 2));
  f->body.push_back(std::make_unique<Declare>(SourceRange(), v, std::move(sum)));
  module->functions.push_back(std::move(f));
  std::string message = verifyMessage(*module);
  EXPECT_NE(message.find("rhs has type i64, expected f32"), std::string::npos) << message;
}

TEST(IRVerifier, RejectsIntegerDivision) {
  auto module = std::make_unique<Module>();
  auto f = std::make_unique<Function>(Function::Kind::Kernel, "k", SourceRange());
  Variable *v = f->addLocal("v", i64, SourceRange());
  auto quotient = std::make_unique<Binary>(SourceRange(), BinaryOp::Div, std::make_unique<Constant>(SourceRange(), i64, 6, 6),
                                           std::make_unique<Constant>(SourceRange(), i64, 2, 2));
  f->body.push_back(std::make_unique<Declare>(SourceRange(), v, std::move(quotient)));
  module->functions.push_back(std::move(f));
  std::string message = verifyMessage(*module);
  EXPECT_NE(message.find("div on a non-float type"), std::string::npos) << message;
}

/// kernel k() { decl v: i64 = OP(6, 3) }
std::unique_ptr<Module> arithmeticKernel(BinaryOp op, Type type) {
  auto module = std::make_unique<Module>();
  auto f = std::make_unique<Function>(Function::Kind::Kernel, "k", SourceRange());
  Variable *v = f->addLocal("v", type, SourceRange());
  f->body.push_back(std::make_unique<Declare>(
      SourceRange(), v,
      std::make_unique<Binary>(SourceRange(), op, std::make_unique<Constant>(SourceRange(), type, 6, 6),
                               std::make_unique<Constant>(SourceRange(), type, 3, 3))));
  module->functions.push_back(std::move(f));
  return module;
}

TEST(IRVerifier, PythonOperationsAreGoneAfterLowering) {
  for (BinaryOp op : {BinaryOp::FloorDiv, BinaryOp::Mod, BinaryOp::Pow, BinaryOp::Shl, BinaryOp::Shr, BinaryOp::Min,
                      BinaryOp::Max}) {
    auto module = arithmeticKernel(op, i64);
    EXPECT_EQ(verifyMessage(*module), "") << binaryOpName(op);
    llvm::Error error = verifyModule(*module, IRStage::Lowered);
    const std::string message = error ? llvm::toString(std::move(error)) : "";
    EXPECT_NE(message.find(std::string("Python's ") + binaryOpName(op) + " left after lowerPythonOps"),
              std::string::npos)
        << message;
  }
  for (BinaryOp op : {BinaryOp::CDiv, BinaryOp::CRem, BinaryOp::CShl, BinaryOp::CShr}) {
    llvm::Error error = verifyModule(*arithmeticKernel(op, i64), IRStage::Lowered);
    EXPECT_FALSE(error) << binaryOpName(op) << ": " << llvm::toString(std::move(error));
  }
}

TEST(IRVerifier, COperatorsTakeIntegersOnly) {
  for (BinaryOp op : {BinaryOp::CDiv, BinaryOp::CRem, BinaryOp::CShl, BinaryOp::CShr}) {
    std::string message = verifyMessage(*arithmeticKernel(op, f32));
    EXPECT_NE(message.find(std::string(binaryOpName(op)) + " on a float type"), std::string::npos) << message;
  }
}

std::string printed(const Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printModule(module, os);
  return os.str();
}

std::string loweredMessage(const Module &module) {
  llvm::Error error = verifyModule(module, IRStage::Lowered);
  return error ? llvm::toString(std::move(error)) : "";
}

TEST(IRVerifier, ChecksAreWrittenOutBeforeTheBackends) {
  auto module = storeKernel(f32, i64);
  Function &k = *module->functions.front();
  k.checked = true;
  llvm::cast<ArrayStore>(*k.body.back()).boundsChecks = {0};
  EXPECT_EQ(verifyMessage(*module), "");
  EXPECT_NE(loweredMessage(*module).find("bounds checks left after insertChecks"), std::string::npos);

  insertChecks(*module);
  EXPECT_EQ(loweredMessage(*module), "");
  const std::string text = printed(*module);
  EXPECT_NE(text.find("if lt:u64(cast:u64(%i), cast:u64(dim(%x, 0))) {"), std::string::npos) << text;
  EXPECT_NE(text.find("check_failed #0(%i, dim(%x, 0))"), std::string::npos) << text;
}

TEST(IRVerifier, RejectsAFailedCheckInAnUncheckedFunction) {
  auto module = std::make_unique<Module>();
  auto f = std::make_unique<Function>(Function::Kind::Kernel, "k", SourceRange());
  f->body.push_back(std::make_unique<Evaluate>(
      SourceRange(), std::make_unique<CheckFailed>(SourceRange(), Type::voidType(), 0, nullptr, nullptr)));
  module->functions.push_back(std::move(f));
  EXPECT_NE(verifyMessage(*module).find("a failed check in an unchecked function"), std::string::npos);
  module->functions.front()->checked = true;
  EXPECT_EQ(loweredMessage(*module), "");
}

TEST(IRVerifier, ALetsLocalIsInScopeInItsBodyOnly) {
  auto module = std::make_unique<Module>();
  auto f = std::make_unique<Function>(Function::Kind::Kernel, "k", SourceRange());
  Variable *held = f->addHiddenLocal("pyk_held", i64, SourceRange());
  Variable *v = f->addLocal("v", i64, SourceRange());
  auto let = std::make_unique<Let>(SourceRange(), held, std::make_unique<Constant>(SourceRange(), i64, 2, 2),
                                   std::make_unique<Binary>(SourceRange(), BinaryOp::Mul,
                                                            std::make_unique<VarRef>(SourceRange(), held),
                                                            std::make_unique<VarRef>(SourceRange(), held)));
  f->body.push_back(std::make_unique<Declare>(SourceRange(), v, std::move(let)));
  f->body.push_back(std::make_unique<Assign>(SourceRange(), v, std::make_unique<VarRef>(SourceRange(), held)));
  module->functions.push_back(std::move(f));
  const std::string message = verifyMessage(*module);
  EXPECT_NE(message.find("'pyk_held' used outside the scope of its declaration"), std::string::npos) << message;
  EXPECT_EQ(message.find("Declare"), std::string::npos) << message;
  EXPECT_NE(printed(*module).find("let(%pyk_held = 2:i64; mul:i64(%pyk_held, %pyk_held))"), std::string::npos);
}

} // namespace
