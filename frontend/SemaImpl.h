//===- SemaImpl.h - Sema's internal state (private to frontend/) ----------===//
//
// One Sema object checks one module. Its work is split by concern:
//   Sema.cpp                 module level, functions, decorators
//   SemaImports.cpp          what names a file's imports bind
//   SemaModuleJit.cpp        functions compiled by a call at module level
//   SemaModuleConstants.cpp  module constants as files write them
//   SemaNumpyConstants.cpp   NumPy arrays computed at compile time
//   SemaLocalConstants.cpp   locals that are compile-time constants
//   SemaSignatures.cpp       the signatures given to @cuda.jit
//   SemaBuildSignatures.cpp  kernel types that come from the build
//   SemaTypeExpr.cpp         types written in annotations and signatures
//   SemaInstances.cpp        one definition, several compiled versions
//   SemaCallGraph.cpp        which function calls which, and in what order
//   SemaStmt.cpp             statements in kernel bodies
//   SemaIteration.cpp        `for` over arrays, tuples, enumerate and zip
//   SemaFlow.cpp             definite assignment across branches and loops
//   SemaUnification.cpp      one type for all the values of a local
//   SemaExpr.cpp             names, builtins, subscripts and tuples
//   SemaViews.cpp            views of arrays: a[i], a[i, :], a[lo:hi:step]
//   SemaRecordTypes.cpp      records a file defines: np.dtype([...]), from_dtype
//   SemaRecords.cpp          arrays of records and their fields: s[i]['s0']
//   SemaOperators.cpp        arithmetic, comparisons, and/or, if-else
//   SemaCall.cpp             calls: builtins, math, print, device functions
//   SemaCasts.cpp            conversions by type name, and round()
//   SemaComplex.cpp          complex(), a number's real, imag, conjugate()
//   SemaGpu.cpp              shared and local arrays, barriers, atomics
//   SemaGuards.cpp           accesses by thread position no test bounds
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_SEMAIMPL_H
#define PYK_FRONTEND_SEMAIMPL_H

#include "Sema.h"

#include "llvm/Support/Casting.h"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>

namespace pyk::sema {

/// A parsed signature: `void(float32[:], float32)`.
struct Iterable;

/// `np.dtype`, `cuda.declare_device`: a callee's dotted name, its first part
/// resolved where it is a builtin module; empty where it is not a chain of
/// names (SemaRecordTypes.cpp).
std::string dottedName(const ast::Expr &expr, const std::function<const Symbol *(const std::string &)> &lookup);

struct Signature {
  /// Null where the signature gives the argument types alone
  /// (`(float32[:], int32)`).
  const Type *returnType = nullptr;
  std::vector<const Type *> params;
  std::vector<SourceRange> paramRanges;
  SourceRange range;
};

class Sema {
public:
  Sema(ast::Module &module, DiagnosticEngine &diags, ModuleInfo &info, const SemaOptions &options);
  void run();

private:
  // --- Module level (Sema.cpp) --------------------------------------------
  void checkModuleStatement(ast::Stmt &stmt);
  // Imports (SemaImports.cpp)
  void checkImport(ast::ImportStmt &stmt);
  void checkImportFrom(ast::ImportFromStmt &stmt);
  /// What `from module import name` binds, if pyk kernels can use it (for
  /// scalar type names: a TypeName symbol, or none when predeclared).
  /// False when pyk ignores the name.
  bool importName(const std::string &module, const ast::ImportedName &name);
  /// Binds `bound` to a name pyk ignores, warning at the import: using it
  /// in a kernel is the error (reportIgnoredImport). `shown` is the name
  /// as messages write it, `key` as classifyMissingName takes it.
  void ignoreImport(SourceRange range, const std::string &bound, const std::string &shown, const std::string &key);
  void reportIgnoredImport(SourceRange use, const Symbol &symbol);
  /// Reports the use of `shown`, a name pyk lacks (classified by `key`),
  /// at `range`; false, reporting nothing, when pyk knows nothing of it.
  bool reportMissingName(SourceRange range, const std::string &shown, const std::string &key);
  /// `NAME = value` or `A, (B, C) = 1, (2, 3)` at module level
  /// (SemaModuleConstants.cpp).
  void declareConstants(ast::AssignStmt &stmt);
  void declareUnpackedConstants(ast::TupleExpr &targets, ast::Expr &value);
  void declareConstant(ast::NameExpr &target, ast::Expr &value);

  // --- NumPy array constants (SemaNumpyConstants.cpp) -----------------------
  struct NumpyValue;
  /// Whether a module constant's value calls NumPy or names a constant
  /// array: it is then an array pykc computes.
  bool looksLikeConstantArray(const ast::Expr &value);
  void declareConstantArray(ast::NameExpr &target, ast::Expr &value);
  std::optional<NumpyValue> evaluateNumpy(ast::Expr &expr);
  std::optional<NumpyValue> evaluateNumpyCall(ast::CallExpr &call, const std::string &function);
  std::optional<NumpyValue> evaluateNumpyBinary(ast::BinaryExpr &binary);
  /// len(A), A.size, A.ndim, A.shape[k], A[i, j] of a constant array at
  /// module level; empty when `expr` is none of these.
  std::optional<std::optional<NumpyValue>> evaluateArrayMeasure(ast::Expr &expr);
  std::optional<NumpyValue> evaluateAstype(ast::CallExpr &call, ast::AttributeExpr &attribute);
  std::optional<NumpyValue> converted(NumpyValue value, ScalarKind kind, SourceRange range);
  std::optional<ScalarKind> numpyDtype(ast::Expr &dtype);
  /// cuda.const.array_like(ARR): the constant array ARR, read from constant
  /// memory through the local it is assigned to.
  const Type *checkConstArrayLike(ast::CallExpr &expr);
  void declareFunction(ast::FunctionDef &def);
  /// Decorator, parameters and declared return type; false when the
  /// decorator is unusable and the body is not to be checked. A kernel
  /// with several signatures gets a version (an instance) per signature
  /// after the first.
  bool checkSignature(FunctionInfo &function);
  /// Parameter types (annotations or `signature`) and the declared return
  /// type of `function`, whose decorator was checked.
  void checkTypes(FunctionInfo &function, const std::optional<Signature> &signature);
  void checkFunction(FunctionInfo &function);
  bool checkDecorators(ast::FunctionDef &def, FunctionInfo &function, std::vector<Signature> &signatures);
  void checkDecoratorOptions(ast::CallExpr &call, FunctionInfo &function, std::vector<Signature> &signatures);
  /// The signatures the build gives `def` (SemaOptions::signatures).
  std::vector<Signature> buildSignatures(const ast::FunctionDef &def);
  /// Reports build signatures that name no kernel of the module.
  void checkBuildSignatureNames();
  void checkDecoratorOption(ast::KeywordArgument &keyword, FunctionInfo &function);
  void checkResourceOption(ast::KeywordArgument &keyword, FunctionInfo &function);
  void checkParameters(ast::FunctionDef &def, FunctionInfo &function, const std::optional<Signature> &signature);
  /// A kernel without types from anywhere: one error at its `def` that shows
  /// each way to give them, with its own parameters filled in.
  void reportUntypedKernel(const ast::FunctionDef &def, const std::vector<const Type *> &declared);
  void checkBodyToFixpoint(FunctionInfo &function);
  /// Checks the body with diagnostics muted until no local's type changes.
  void checkBodyUntilTypesSettle(ast::FunctionDef &def);
  // --- Unification of a local's values (SemaUnification.cpp) ----------------
  /// Warns where Numba's unification made a local float64 (see
  /// FloatWidening).
  void warnAboutWidenedLocals(ast::FunctionDef &def);
  /// Of the `seeded` locals, those that a muted check of the body with
  /// them starting as float32 leaves float32. Puts every type back.
  std::set<const Symbol *> localsKeptFloat32(ast::FunctionDef &def, const std::vector<const Symbol *> &seeded);
  /// Reports the float64 warnings of arithmetic (float64Warnings_).
  void reportFloat64Warnings();
  void warnIfNotPython(const ast::Expr *annotation);
  void resetReturnInference();
  /// Device functions: the return type from the return statements, and
  /// that every path returns a value when there is one.
  void finishReturnType(FunctionInfo &function);

  // --- The call graph (SemaCallGraph.cpp) ------------------------------------
  /// Fills info_.definitionOrder (callees first) and reports call cycles,
  /// before any body is checked, so that a call can use its callee's
  /// return type.
  void orderFunctions();
  /// Once every body is checked: info_.definitionOrder from the calls each
  /// function makes (instances included, generic functions left out), and
  /// the version tags of definitions compiled more than once.
  void finishDefinitionOrder();

  // --- Versions of one definition (SemaInstances.cpp) -----------------------
  /// The instance of `generic` for these parameter types (each the declared
  /// type, or the argument's where none is declared), made and checked on
  /// first use; its diagnostics wait in instanceDiagnostics_ until a call
  /// that stays uses it (useInstance).
  FunctionInfo *instantiate(const FunctionInfo &generic, const std::vector<const Type *> &paramTypes);
  /// A copy of `original`'s definition, as a new function of the module
  /// (not yet checked).
  FunctionInfo &addVersion(const FunctionInfo &original);
  /// A call of `instance` in a pass whose diagnostics are real: its
  /// diagnostics are reported into the caller's, once.
  void useInstance(const FunctionInfo &instance, SourceRange callRange);
  /// The per-function state of the function being checked, set aside while
  /// an instance is checked in the middle of it.
  struct FunctionState;
  FunctionState saveFunctionState();
  void restoreFunctionState(FunctionState &&state);

  // --- Types in annotations (SemaTypeExpr.cpp) ------------------------------
  /// The type an annotation denotes, or null after reporting an error.
  const Type *evaluateTypeExpr(ast::Expr &expr, bool allowVoid);
  /// The scalar type `expr` names: `float32`, `f4`, `np.float32`,
  /// `numba.types.float32` ...; empty when it names none.
  std::optional<ScalarKind> scalarTypeNamed(ast::Expr &expr);
  /// `void`, `types.void`, `numba.void` (and Numba's `types.none`).
  bool isVoidNamed(const ast::Expr &expr);
  /// The record type `expr` names: one the file defines, or a built-in one
  /// (xoroshiro128p_type) that no definition of the file shadows.
  const RecordType *recordTypeNamedBy(const ast::Expr &expr);
  /// The module a module-level name refers to ("numba", "numba.types",
  /// "numpy", "cupy", ...), by the imports or by the name it usually goes
  /// by; empty when it names none or something else.
  std::string moduleNamed(const std::string &name);
  /// For `types.float32`, `numba.core.types.f4`, `np.int32`: the module
  /// ("numba.types", "numpy") and the last name, when the module is one of
  /// scalar types.
  struct ModuleAttribute {
    std::string module;
    std::string name;
  };
  std::optional<ModuleAttribute> typeModuleAttribute(const ast::Expr &expr);

  // --- Signatures (SemaSignatures.cpp) ----------------------------------------
  /// One signature: a call `void(float32[:])`, a tuple of argument types,
  /// a string holding either, or a module constant holding one. Empty
  /// after an error.
  std::optional<Signature> evaluateSignature(ast::Expr &expr, bool inString = false);
  /// Every signature `expr` gives: one, or a list of them. Empty after an
  /// error.
  std::vector<Signature> evaluateSignatures(ast::Expr &expr);
  /// `expr` has the form of a signature or a list of them (not checked
  /// further): a module constant of that form holds signatures.
  bool looksLikeSignature(ast::Expr &expr);
  /// `expr` has the form of a type (`float32`, `types.int32[:, ::1]`).
  bool looksLikeType(ast::Expr &expr);
  /// Declares the module constant `target = value`, where value looks like
  /// a signature, and reports what is wrong in it.
  void declareSignatureConstant(ast::NameExpr &target, ast::Expr &value);
  const Symbol *signatureConstant(const ast::Expr &expr);
  void reportNotASignature(ast::Expr &expr);

  // --- Functions compiled by a call at module level (SemaModuleJit.cpp) -----
  /// `k = cuda.jit(sig)(f)`, `f = cuda.jit(f, device=True)`: compiles the
  /// undecorated def `f` as if it had that decorator, under the name `k`.
  /// False when `stmt` is no such call (it is then a constant).
  bool declareCompiledByCall(ast::AssignStmt &stmt);
  /// An undecorated def that nothing compiled: a plain Python function,
  /// ignored with a warning unless a compiled function calls it.
  void checkPlainFunction(ast::FunctionDef &def, FunctionInfo &function);

  // --- Statements (SemaStmt.cpp) --------------------------------------------
  void checkBlock(ast::StmtList &body);
  void checkStmt(ast::Stmt &stmt);
  void checkAssign(ast::AssignStmt &stmt);
  void checkAugAssign(ast::AugAssignStmt &stmt);
  void checkIf(ast::IfStmt &stmt);
  void checkWhile(ast::WhileStmt &stmt);
  void checkFor(ast::ForStmt &stmt);
  /// Checks `range(...)` in `for v in range(...)`; false after an error.
  bool checkRange(ast::ForStmt &stmt);
  void checkLoopBody(ast::StmtList &body, SourceRange loop);
  /// `breaks`: whether the loop's body may leave it by `break`, which skips
  /// the `else`.
  void checkLoopElse(ast::StmtList &body, SourceRange loop, bool breaks);

  // --- Definite assignment (SemaFlow.cpp) -----------------------------------
  /// Definite assignment: the locals assigned on every path to the current
  /// statement, and whether the current path already returned.
  struct FlowState {
    std::set<const Symbol *> assigned;
    /// Assigned on at least one path (for the wording of the error).
    std::set<const Symbol *> maybeAssigned;
    /// For a local assigned on some paths only: a path that leaves it
    /// unassigned, in words ("when the 'if' on line 5 is false"), for the
    /// warning at a read that gives 0 there.
    std::map<const Symbol *, std::string> unassignedOn;
    bool returned = false;
  };
  /// The state after an `if` whose branches ended in `afterThen` and
  /// `afterElse`: what both assign is assigned.
  FlowState mergeBranches(const ast::IfStmt &stmt, FlowState afterThen, FlowState afterElse) const;
  /// The state after a loop entered in `before` whose body ended in
  /// `afterBody`: what the body assigns counts as assigned after the loop
  /// only when `runsToEnd` (it runs at least once and no `break` or
  /// `continue` skips the rest of it). `runsZeroTimes`: whether the path
  /// that skips the body is running it zero times (for the warning's words).
  FlowState afterLoop(SourceRange loop, FlowState before, FlowState afterBody, bool runsToEnd,
                      bool runsZeroTimes) const;
  /// Whether `for ... in range(...)` runs its body at least once: constant
  /// bounds with at least one value.
  static bool runsAtLeastOnce(const ast::ForStmt &stmt);
  /// Whether `body` has a `break` (or, with `orContinue`, a `continue`)
  /// that belongs to the loop whose body it is.
  static bool leavesEarly(const ast::StmtList &body, bool orContinue);
  /// Reading a local that some path leaves unassigned: a warning naming
  /// that path; the read gives the 0 the local starts with.
  void warnMaybeUnassigned(const ast::NameExpr &read, const Symbol &symbol);
  /// Whether `expr` is `range(...)` (or Numba's prange).
  bool isRangeCall(const ast::Expr &expr);
  // SemaIteration.cpp: `for` over an array, a tuple, enumerate or zip,
  // rewritten into a range loop; false (and the loop unchanged) after an
  // error.
  bool rewriteIteration(ast::ForStmt &stmt);
  bool classifyIterable(ast::Expr &expr, Iterable &out);
  std::optional<std::string> iterationBuiltin(const ast::Expr &expr);
  const Type *checkTupleArrayIndex(ast::SubscriptExpr &expr, const Type *arrayType);
  std::optional<std::string> tupleTypeName(const ast::Expr &callee);
  const Type *evaluateTupleType(ast::CallExpr &call);
  const Type *checkDynamicRowIndex(ast::SubscriptExpr &expr, const Type *tupleType);
  bool assignIterationTarget(const ast::Expr &target, ast::ExprPtr value, ast::StmtList &out);
  bool assignFromMixedTuple(const ast::Expr &target, const Iterable &tuple, const std::string &counter,
                            ast::StmtList &out);
  bool mixedTupleInside(const Iterable &part, const char *builtin);
  void checkAnnAssign(ast::AnnAssignStmt &stmt);
  void checkAssert(ast::AssertStmt &stmt);
  void checkReturn(ast::ReturnStmt &stmt);
  void checkReturnValue(ast::ReturnStmt &stmt);
  void checkExprStmt(ast::ExprStmt &stmt);
  /// Checks `target = <value of valueType>`; returns the type the value is
  /// stored as (the local's or the element's), or null after an error.
  void assignTo(ast::Expr &target, const Type *valueType, SourceRange valueRange);
  void assignToName(ast::NameExpr &target, const Type *valueType, SourceRange valueRange);
  /// Storing a float into an integer array's element: a warning that it
  /// truncates (unless the value is a whole constant).
  void warnIfFloatTruncated(const Type *valueType, const Type *elementType, const ast::SubscriptExpr &target,
                            SourceRange valueRange);
  void assignTupleToName(ast::NameExpr &target, Symbol &symbol, const Type *valueType, SourceRange valueRange);
  /// A local that names an array (SemaViews.cpp).
  void assignViewToName(ast::NameExpr &target, Symbol &symbol, const Type *valueType, SourceRange valueRange);
  /// The expression an assignment being checked gives its target (one
  /// element of a tuple display), or null.
  const ast::Expr *assignedValue_ = nullptr;
  /// The name an array expression's elements belong to: `m` for `m[i][1:]`,
  /// a constant one for `a if c else C`; null for none.
  static const Symbol *rootArraySymbol(const ast::Expr &array);
  /// Whether `symbol` is, or may name, an array in constant memory.
  static bool viewsConstantMemory(const Symbol &symbol);
  /// A view a `while` condition would make is made once, before the loop
  /// (ASTToIRViews.cpp): an error until views are made where they are used.
  void rejectViewsInWhileCondition(const ast::Expr &condition);
  /// The type a local holding the scalar `current` and now assigned the
  /// scalar `value` has: Numba's unification (NumPy's promote_types), except
  /// that a float local keeps its type.
  const Type *unifyLocalType(const Type *current, const Type *value);

  // --- Expressions (SemaExpr.cpp) ---------------------------------------------
  /// Checks a subexpression that must have a value (not a module or a
  /// function); returns its type (the error type after an error).
  const Type *checkValue(ast::Expr &expr);
  /// Checks an expression that may also name an entity (callee, attribute
  /// object); returns its type (void for entities).
  const Type *checkExpr(ast::Expr &expr);
  const Type *checkName(ast::NameExpr &expr);
  const Type *checkIntLiteral(ast::IntLiteralExpr &expr);
  const Type *checkAttribute(ast::AttributeExpr &expr);
  /// The element type `x.dtype` or `x.dtype.type` names, for an array `x`
  /// of the function being checked (a type within one version of a
  /// dtype-generic function, as Numba's are).
  std::optional<ScalarKind> arrayDtypeNamed(const ast::Expr &expr);
  const Type *checkSubscript(ast::SubscriptExpr &expr);
  const Type *checkArrayIndex(ast::SubscriptExpr &expr, const Type *arrayType);
  // Records the file defines (SemaRecordTypes.cpp).
  /// Whether a module constant's value makes a record type:
  /// `np.dtype([...])` or `from_dtype(...)`.
  bool looksLikeRecordDefinition(const ast::Expr &value);
  void declareRecordType(ast::NameExpr &target, ast::Expr &value);
  /// The record of `from_dtype(Point)` written where a type is
  /// (`from_dtype(Point)[:]` in a signature), or null.
  const RecordType *recordOfFromDtype(const ast::Expr &expr);
  /// The record type `value` makes, named `name` where it is new; null
  /// after an error.
  const RecordType *evaluateRecordDefinition(ast::Expr &value, const std::string &name);
  const RecordType *evaluateDtypeCall(ast::CallExpr &call, const std::string &name);
  /// A field's type in np.dtype: np.float32, 'f4', '<i8', ...
  std::optional<ScalarKind> recordFieldKind(ast::Expr &type);
  std::optional<ScalarKind> recordFieldScalar(ast::Expr &type);

  // Arrays of records and their fields (SemaRecords.cpp).
  /// `states[i]`: a record, the object of a field access.
  const Type *checkRecordElement(ast::SubscriptExpr &expr, const Type *arrayType);
  /// `access` reads `field` of `record` (a record-typed expression).
  const Type *checkRecordField(ast::Expr &access, ast::Expr &record, const std::string &field,
                               SourceRange fieldRange);
  /// `states[i]['s0']`.
  const Type *checkRecordFieldByName(ast::SubscriptExpr &expr);
  /// Checks an assignment to `target` when it is a record's field; false
  /// when it is not one.
  bool assignToRecordField(ast::Expr &target, const Type *valueType, SourceRange valueRange);
  /// `ps[i] = qs[j]`, `ps[i] = r`: copies a whole record; false where the
  /// target is not an element of an array of records.
  bool assignWholeRecord(ast::Expr &target, const Type *valueType, SourceRange valueRange);
  /// `r = ps[i]`: the local names an element (records are references, as
  /// in Numba), of one array.
  void assignRecordToName(ast::NameExpr &target, Symbol &symbol, const Type *valueType, SourceRange valueRange);
  /// Whether an assignment to `target` may take a whole record: a name, or
  /// an element of an array of records.
  bool namesOrCopiesRecord(const ast::Expr &target);
  /// The array of records whose element `record` is (`ps[i]`, or a record
  /// local), or null.
  const Symbol *recordArrayOf(const ast::Expr &record) const;
  /// The error for a whole record used as a value.
  const Type *rejectWholeRecord(ast::Expr &expr);
  // --- Views of arrays (SemaViews.cpp) ------------------------------------------
  /// a[i] of a 2-D array, a[i, :], a[:, j], a[lo:hi:step]: a view, an array
  /// sharing a's elements (or, with every axis indexed, an element).
  const Type *checkArrayView(ast::SubscriptExpr &expr, const Type *arrayType);
  /// A slice's start, stop or step: an integer.
  bool checkSliceBound(ast::Expr &bound, const char *what);
  const Type *checkTuple(ast::TupleExpr &expr);
  const Type *checkTupleIndex(ast::SubscriptExpr &expr, const Type *tupleType);
  const Type *checkDynamicTupleIndex(ast::SubscriptExpr &expr, const Type *tupleType);
  const Type *checkCall(ast::CallExpr &expr);
  const Type *checkGrid(ast::CallExpr &expr);
  /// float('inf'), np.float32('nan'): a constant read from the string.
  /// The value of an extent of cuda.shared.array/cuda.local.array's shape:
  /// its constant, or that of a local assigned once to a constant, as
  /// Numba's literal values allow (SemaLocalConstants.cpp). Sets
  /// `reported` when it said why a local is not one.
  std::optional<ast::ConstantValue> extentConstant(const ast::Expr &extent, bool &reported);
  const Type *checkFloatFromString(ast::CallExpr &expr, ast::StringLiteralExpr &text, ScalarKind to);
  const Type *checkCast(ast::CallExpr &expr, ScalarKind to);
  const Type *checkAbs(ast::CallExpr &expr);
  const Type *checkPrint(ast::CallExpr &expr);
  const Type *checkLen(ast::CallExpr &expr);
  const Type *checkRound(ast::CallExpr &expr);
  const Type *checkRoundDigits(ast::CallExpr &expr);
  const Type *checkMinMax(ast::CallExpr &expr, bool isMin);
  const Type *checkMath(ast::CallExpr &expr, const MathFunctionInfo &function);
  const Type *checkLibdevice(ast::CallExpr &expr, const LibdeviceFunction &function);
  const Type *checkDeviceCall(ast::CallExpr &expr, const Symbol &callee);
  // SemaForeign.cpp: cuda.declare_device and the files to link.
  bool looksLikeDeclareDevice(const ast::Expr &value);
  void declareForeignFunction(ast::NameExpr &target, ast::CallExpr &call);
  /// `link=` of declare_device or @cuda.jit: a string or a list of them.
  bool addLinkFiles(ast::Expr &value);
  const Type *checkForeignCall(ast::CallExpr &expr, const Symbol &symbol);
  // SemaArguments.cpp
  /// The call's arguments, one per parameter of `callee` in order: its
  /// positional ones, its keywords moved to their places, default values
  /// where arguments are left out; false after an error.
  bool bindArguments(ast::CallExpr &expr, const FunctionInfo &callee, const Symbol &symbol);
  /// A device function's default value: a constant, checked where Python
  /// evaluates it (the module's scope).
  void checkDefaultValue(ast::Parameter &param, const FunctionInfo &function);
  const Type *checkInModuleScope(ast::Expr &value);
  // --- GPU memory builtins (SemaGpu.cpp) ------------------------------------
  static bool isGpuMemoryBuiltin(Builtin builtin);
  static bool isAtomicBuiltin(Builtin builtin);
  const Type *checkGpuMemoryCall(ast::CallExpr &expr, Builtin builtin);
  const Type *checkArrayConstructor(ast::CallExpr &expr, bool shared);
  const Type *checkSynchronisation(ast::CallExpr &expr, Builtin builtin);
  const Type *checkAtomic(ast::CallExpr &expr, Builtin builtin);
  const Type *checkWarpOperation(ast::CallExpr &expr, Builtin builtin);
  const Type *checkIntrinsic(ast::CallExpr &expr, Builtin builtin);
  const Type *checkSelp(ast::CallExpr &expr);
  const Type *checkFp16(ast::CallExpr &expr, Builtin builtin);
  const Type *checkComplexConstructor(ast::CallExpr &expr);
  /// `x.real`, `x.imag`, `x.conjugate` of a number (`type`).
  const Type *checkNumberAttribute(ast::AttributeExpr &expr, const Type *type);
  const Type *checkConjugate(ast::CallExpr &expr);
  /// A complex value (of `valueType`, written at `at`) where `to` is real:
  /// an error, as Python's (a part has to be chosen). True when the value
  /// may become `to`; `action` is what would convert it ("store").
  bool checkNotComplexToReal(const Type *valueType, SourceRange at, ScalarKind to, const char *action);
  /// The value of a complex expression made of numbers known at compile
  /// time (literals, module constants, + - * and unary -, complex(re,
  /// im)), as Python computes it; none for any other.
  std::optional<std::complex<double>> complexConstantOf(const ast::Expr &value) const;
  /// Reports a call with effects that is not the whole of its statement.
  bool requireWholeStatement(ast::CallExpr &expr, const std::string &name);
  /// Checks that an argument of `valueType` may be passed for a parameter
  /// of `paramType`; false after reporting an error.
  bool checkArgument(ast::Expr &arg, const Type *paramType, const Symbol &param, const std::string &calleeName);
  /// Checks that `expr` has exactly one argument and it is a number;
  /// returns its type, or null after reporting an error.
  const Type *checkOneNumber(ast::CallExpr &expr, const char *name);
  /// Checks that every argument of `expr` is a number and returns their
  /// NumPy 2 common type; empty after reporting an error.
  /// The common type of the first `count` arguments (all by default).
  std::optional<PromotionOperand> promoteNumericArguments(ast::CallExpr &expr, const std::string &name,
                                                          size_t count = SIZE_MAX);
  /// Reports keyword arguments and a wrong argument count; false then.
  bool requirePositional(ast::CallExpr &expr, const char *name, size_t minimum, size_t maximum);
  const Type *checkUnary(ast::UnaryExpr &expr);
  const Type *checkBinary(ast::BinaryExpr &expr);
  const Type *checkBoolOp(ast::BoolOpExpr &expr);
  const Type *checkCompare(ast::CompareExpr &expr);
  const Type *checkConditional(ast::ConditionalExpr &expr);
  const Type *checkTupleConditional(ast::ConditionalExpr &expr);
  /// The operand types and result type of `lhs op rhs`; null result after
  /// an error (reported at `opRange`).
  struct ArithmeticTypes {
    const Type *operandType = nullptr;
    const Type *resultType = nullptr;
  };
  ArithmeticTypes arithmeticTypes(ast::BinaryOp op, ast::Expr &lhs, ast::Expr &rhs, SourceRange opRange);
  /// Reports an error, and returns false, if `expr` is a Python int that
  /// does not fit in `kind`.
  bool checkLiteralFits(ast::Expr &expr, ScalarKind kind);
  /// Sets the constant value of a comparison of constants.
  void foldComparison(ast::CompareExpr &expr);
  PromotionOperand promotionOperand(const ast::Expr &expr) const;
  /// Checks that `expr` can be tested for truth (a condition, an operand
  /// of `not`, `and`, `or`): a bool or a number, as in Python; false after
  /// reporting an error (an array, a tuple).
  bool requireCondition(ast::Expr &expr, const char *context);
  /// LANGUAGE.md: where float64 arithmetic appears, in a function without
  /// float64 data, only because float32 or a Python float met an integer
  /// (or an integer was divided), warns at `at` and shows `rewrite` with
  /// the integer operands cast to float32.
  void warnIfPromotedToFloat64(const Type *computedIn, const std::vector<const ast::Expr *> &operands,
                               SourceRange at, const std::function<std::string(const std::vector<std::string> &)> &rewrite);
  std::string sourceText(SourceRange range) const;
  /// The source text of `range` with the parentheses written directly
  /// around it (`(xmax - xmin)` for the operand `xmax - xmin`). Only for
  /// an operand of an operator, where such parentheses can only group it.
  std::string sourceTextInParentheses(SourceRange range) const;

  // --- Accesses by thread position (SemaGuards.cpp) -------------------------
  /// The locals of `target` (a name, or names in a tuple) now hold what
  /// `value` holds of the thread's position; an array element changes none.
  void noteGridPositions(ast::Expr &target, const ast::Expr &value);
  /// The same for `target op= value`.
  void noteGridPositions(ast::AugAssignStmt &stmt);
  /// The locals of `target` hold nothing of the thread's position (a `for`
  /// loop's variable: range() bounds it).
  void forgetGridPositions(ast::Expr &target);
  /// Before a check of the function's body: no local holds the position,
  /// none is guarded, nothing was reported.
  void resetGridPositions();
  void assignPosition(ast::Expr &target, const ThreadPosition &position);
  std::string unusedLocalName(const std::vector<std::string> &preferred);
  /// The thread positions `condition` compares.
  std::set<const Symbol *> guardsOf(const ast::Expr &condition) const;
  /// `if i >= n: return` guards i for the rest of the block.
  void guardAfterEarlyReturn(const ast::IfStmt &stmt);
  /// Warns at an index into an array parameter from an unguarded position.
  void checkGridIndex(const ast::SubscriptExpr &expr);

  // --- Names ----------------------------------------------------------------
  /// What `name` means in the function being checked (or at module level).
  const Symbol *lookup(const std::string &name);
  /// What `name` means at module level: annotations and signatures are
  /// evaluated there, as in Python, so parameters do not shadow types.
  const Symbol *lookupGlobal(const std::string &name);
  Symbol *addSymbol(std::map<std::string, Symbol *> &scope, Symbol symbol);
  DiagnosticBuilder error(SourceRange range) { return diags_->error(range); }
  DiagnosticBuilder warning(SourceRange range) { return diags_->warning(range); }
  DiagnosticBuilder note(SourceRange range) { return diags_->note(range); }
  void notSupportedYet(SourceRange range, const std::string &what);

  ast::Module &module_;
  const SemaOptions &options_;
  /// Where the diagnostics of the function being checked go: the module's
  /// engine, or an instance's own (instanceDiagnostics_).
  DiagnosticEngine *realDiags_;
  /// Where diagnostics go: the real engine, or a scratch one while local
  /// types are still being inferred.
  DiagnosticEngine *diags_;
  ModuleInfo &info_;
  TypeContext &types_;

  std::map<std::string, Symbol *> moduleScope_;
  /// The names imports bound that pyk ignores (Builtin::IgnoredImport): what
  /// each stands for ("numba.vectorize", "time"), shown and as a key of
  /// classifyMissingName.
  std::map<const Symbol *, std::pair<std::string, std::string>> ignoredImports_;
  std::map<std::string, Symbol *> predeclared_;

  // Per function
  FunctionInfo *function_ = nullptr;
  std::map<std::string, Symbol *> functionScope_;
  /// Set when a pass over a body changed the type of a local.
  bool localTypesChanged_ = false;
  FlowState flow_;
  /// How many loops enclose the statement being checked.
  unsigned loopDepth_ = 0;
  /// How many loops SemaIteration.cpp rewrote: numbers their counters.
  unsigned iterationLoops_ = 0;
  /// The expression the statement being checked evaluates as a whole (its
  /// value, condition or return value): the one place a call with side
  /// effects may stand, evaluated exactly once and in order.
  const ast::Expr *statementValue_ = nullptr;
  /// A call of a function with effects inside its statement's value
  /// (`x = 2 * f(states, i) - 1`): allowed where the call still runs once
  /// and in Python's order (checkNestedEffectfulCalls, when the statement
  /// is checked).
  struct NestedEffectfulCall {
    ast::CallExpr *call;
    const ast::Expr *statementValue;
    /// As the call spells it ("update", "cuda.atomic.add"), and what it does.
    std::string name;
    std::string effect = "writes arrays or prints";
  };
  std::vector<NestedEffectfulCall> nestedEffectfulCalls_;
  void checkNestedEffectfulCalls();
  /// The value of `name = value`, where cuda.shared.array and
  /// cuda.local.array may stand; and what the last one made, for the
  /// assignment to give its local.
  const ast::Expr *arrayDefinitionValue_ = nullptr;
  /// The value of an assignment to one target, where a whole record may
  /// stand: `r = ps[i]` names an element, `ps[i] = qs[j]` copies one.
  const ast::Expr *recordValue_ = nullptr;
  struct ArrayDefinition {
    ArrayStorage storage;
    std::vector<int64_t> shape;
    std::shared_ptr<const ConstantArray> constant = nullptr;
  };
  std::optional<ArrayDefinition> pendingArray_;
  /// The bytes of the module's constant arrays so far: together within
  /// CUDA's 64 KiB of constant memory.
  int64_t constantArrayBytes_ = 0;
  /// A device function without a declared return type: the type its return
  /// statements unify to so far, and the first of them of each kind.
  const Type *inferredReturnType_ = nullptr;
  const ast::ReturnStmt *firstValueReturn_ = nullptr;
  const ast::ReturnStmt *firstBareReturn_ = nullptr;
  /// The function's return type is written (annotation or signature).
  bool returnTypeDeclared_ = false;
  /// The thread positions the statement being checked is guarded by, and
  /// those already warned about in this pass (null: a direct cuda.grid).
  std::set<const Symbol *> guarded_;
  std::set<const Symbol *> warnedGridIndices_;
  /// A parameter of the function is float64 or an array of float64.
  bool hasFloat64Data_ = false;
  /// The body has a statement pyk rejected ('try', 'with', ...): whether
  /// every path returns is unknown.
  bool sawRejectedStatement_ = false;
  /// Functions whose signature (parameters, return type) or body had
  /// errors: what their calls would add (the argument count, "this call
  /// does nothing") may follow from those, so it is not reported.
  std::set<const FunctionInfo *> signatureErrors_;
  /// Functions whose decorator was rejected (none, @numba.njit, two): what
  /// they are is unknown, so their calls say nothing more.
  std::set<const FunctionInfo *> rejectedDecorators_;
  std::set<const FunctionInfo *> bodyErrors_;
  /// The float64 warnings of every pass over the body, by position: an
  /// early pass sees `acc += i` while acc is still float32, before the
  /// promotion it warns about widens acc to float64.
  struct Float64Warning {
    SourceRange at;
    std::string message;
    /// The integer locals the message says to cast. Where a later value
    /// made one of them a float (Numba's unification), the cast would not
    /// help: the warning at that local says what does instead.
    std::vector<const Symbol *> integerLocals;
  };
  std::map<uint32_t, Float64Warning> float64Warnings_;
  /// A local that first held an integer or a bool and became a float when
  /// a later value was assigned (Numba's unification: `p = 0` then
  /// `p += x[i] * w` makes p float64).
  struct FloatWidening {
    /// The value the local first held, and whether it came from a plain
    /// `name = value` (so that 'name = float32(value)' can be suggested).
    SourceRange firstValue;
    bool firstValueIsWhole = false;
    ScalarKind firstKind = ScalarKind::Int64;
    /// The value that made it a float; integers too (uint64 and int64 unify
    /// to float64).
    SourceRange widenedBy;
    ScalarKind widenedKind = ScalarKind::Float64;
    /// The value is a true division ('/'), where '//' may have been meant.
    bool byTrueDivision = false;
  };
  std::map<const Symbol *, FloatWidening> floatWidenings_;
  /// The first value of each local, for FloatWidening.
  std::map<const Symbol *, std::pair<SourceRange, bool>> firstValues_;
  /// The value being assigned is a true division (`n /= 2`, `n = n / 2`).
  bool assignedByTrueDivision_ = false;
  /// The instances of generic device functions, by the generic and the
  /// parameter types.
  std::map<std::pair<const FunctionInfo *, std::vector<const Type *>>, FunctionInfo *> instances_;
  /// What checking each instance reported, and where it was reported to
  /// already.
  std::map<const FunctionInfo *, std::unique_ptr<DiagnosticEngine>> instanceDiagnostics_;
  std::set<std::pair<const DiagnosticEngine *, const FunctionInfo *>> instanceDiagnosticsUsed_;
  /// Undecorated defs compiled under another name by a module-level call
  /// (`k = cuda.jit(sig)(f)`): what compiled each, for messages.
  std::map<const ast::FunctionDef *, std::string> compiledAs_;
};

struct Sema::FunctionState {
  FunctionInfo *function;
  std::map<std::string, Symbol *> scope;
  bool localTypesChanged;
  FlowState flow;
  unsigned loopDepth;
  const ast::Expr *statementValue;
  const ast::Expr *arrayDefinitionValue;
  const ast::Expr *recordValue;
  std::optional<ArrayDefinition> pendingArray;
  const Type *inferredReturnType;
  const ast::ReturnStmt *firstValueReturn;
  const ast::ReturnStmt *firstBareReturn;
  bool returnTypeDeclared;
  std::set<const Symbol *> guarded;
  std::set<const Symbol *> warnedGridIndices;
  bool hasFloat64Data;
  bool sawRejectedStatement;
  std::map<uint32_t, Float64Warning> float64Warnings;
  std::map<const Symbol *, FloatWidening> floatWidenings;
  std::map<const Symbol *, std::pair<SourceRange, bool>> firstValues;
  bool assignedByTrueDivision;
  std::vector<NestedEffectfulCall> nestedEffectfulCalls;
  DiagnosticEngine *diags;
  DiagnosticEngine *realDiags;
};

/// A type expression as written (`types.float32[:, ::1]`), for messages.
std::string typeSpelling(const ast::Expr &type);

/// "kernel" or "device function", for messages.
inline const char *functionKindName(const FunctionInfo &function) {
  return function.kind == FunctionKind::Kernel ? "kernel" : "device function";
}

// Small helpers shared by the Sema*.cpp files.

inline const Type *setType(ast::Expr &expr, const Type *type) {
  expr.type = type;
  return type;
}

/// "a value of type float32", or "'cuda.grid'" for a builtin that is not a
/// value — for messages.
inline std::string describe(const ast::Expr &expr) {
  const bool arrayProperty = expr.builtin == Builtin::ArrayShape || expr.builtin == Builtin::ArraySize ||
                             expr.builtin == Builtin::ArrayNdim;
  if (expr.builtin != Builtin::None && !arrayProperty)
    return "'" + std::string(builtinName(expr.builtin)) + "'";
  return "a value of type " + expr.type->str();
}

inline bool isNamespace(Builtin builtin) {
  switch (builtin) {
  case Builtin::CudaModule:
  case Builtin::MathModule:
  case Builtin::NumpyModule:
  case Builtin::CupyModule:
  case Builtin::NumbaModule:
  case Builtin::NumbaTypesModule:
  case Builtin::ThreadIdx:
  case Builtin::BlockIdx:
  case Builtin::BlockDim:
  case Builtin::GridDim:
  case Builtin::CudaShared:
  case Builtin::CudaLocal:
  case Builtin::CudaConst:
  case Builtin::CudaAtomic:
  case Builtin::LibdeviceModule:
  case Builtin::CudaFp16:
  case Builtin::CudaBf16:
  case Builtin::CudaCg:
    return true;
  default:
    return false;
  }
}

inline size_t leafOffset(const Type &tuple, size_t position) { return tupleLeafOffset(tuple, position); }

/// The constant value of leaf `leaf` of `tuple` (a module constant, a
/// display, a constant index into one), when it has one.
inline std::optional<ast::ConstantValue> tupleLeafConstant(const ast::Expr &tuple, size_t leaf) {
  if (!tuple.type || !tuple.type->isTuple())
    return std::nullopt;
  auto *name = llvm::dyn_cast<ast::NameExpr>(&tuple);
  if (name && name->symbol && name->symbol->kind == SymbolKind::Constant) {
    if (leaf < name->symbol->tupleConstant.size())
      return name->symbol->tupleConstant[leaf];
    return std::nullopt;
  }
  if (auto *literal = llvm::dyn_cast<ast::TupleExpr>(&tuple)) {
    for (size_t i = 0; i < literal->elements.size(); ++i) {
      const size_t start = leafOffset(*tuple.type, i);
      const size_t count = tupleLeaves(*tuple.type->elements()[i]).size();
      if (leaf >= start + count)
        continue;
      const ast::Expr &element = *literal->elements[i];
      return element.type && element.type->isTuple() ? tupleLeafConstant(element, leaf - start) : element.constant;
    }
    return std::nullopt;
  }
  auto *subscript = llvm::dyn_cast<ast::SubscriptExpr>(&tuple);
  if (subscript && subscript->indices.size() == 1 && subscript->indices.front()->constant &&
      subscript->object->type && subscript->object->type->isTuple()) {
    const auto row = static_cast<size_t>(subscript->indices.front()->constant->intValue);
    return tupleLeafConstant(*subscript->object, leafOffset(*subscript->object->type, row) + leaf);
  }
  return std::nullopt;
}

/// The constant value of element `position` of `tuple`, when it has one
/// (a scalar element only).
inline std::optional<ast::ConstantValue> tupleElementConstant(const ast::Expr &tuple, size_t position) {
  if (auto *literal = llvm::dyn_cast<ast::TupleExpr>(&tuple))
    return literal->elements[position]->constant;
  if (!tuple.type || !tuple.type->isTuple() || position >= tuple.type->elements().size() ||
      !tuple.type->elements()[position]->isScalar())
    return std::nullopt;
  return tupleLeafConstant(tuple, leafOffset(*tuple.type, position));
}

} // namespace pyk::sema

#endif // PYK_FRONTEND_SEMAIMPL_H
