//===- CudaEmitter.cpp - IR to readable CUDA C++ ---------------------------===//
//
// A file's helpers, its constant arrays, then its functions; here each
// function's signature, parameters and array locals (its statements and
// expressions: CudaStatements.cpp, CudaExpressions.cpp).
//
//===----------------------------------------------------------------------===//
#include "CudaEmitter.h"

#include "CudaFunctionEmitter.h"
#include "CudaLiterals.h"
#include "IRWalk.h"
#include "SymbolNames.h"

#include "llvm/Support/Casting.h"

#include <functional>
#include <map>

namespace pyk::cuda {

using namespace ir;

void FunctionEmitter::emit() {
  if (!function_.docstring.empty())
    docComment(function_.docstring);
  line(function_.loc);
  // Kernels are found by name in the PTX; device functions are private
  // to the file.
  std::string head = "extern \"C\" __global__ void ";
  if (function_.maxThreadsPerBlock) {
    head += "__launch_bounds__(" + std::to_string(function_.maxThreadsPerBlock);
    if (function_.minBlocksPerMultiprocessor)
      head += ", " + std::to_string(function_.minBlocksPerMultiprocessor);
    head += ") ";
  }
  if (function_.maxRegisters)
    head += "__maxnreg__(" + std::to_string(function_.maxRegisters) + ") ";
  if (function_.kind == Function::Kind::Device) {
    head = std::string("static __device__ ") + (function_.inlineAlways ? "__forceinline__ " : "") +
           (function_.returnType.isVoid() ? "void" : cudaScalarType(function_.returnType.scalar)) + " ";
  }
  os_ << head << function_.symbol << "(";
  std::string indent(head.size() + function_.symbol.size() + 1, ' ');
  for (size_t i = 0; i < function_.params.size(); ++i) {
    if (i)
      os_ << ",\n" << indent;
    parameter(*function_.params[i]);
  }
  // `return a, b`: each value through a reference the caller passes.
  for (size_t i = 0; i < function_.results.size(); ++i)
    os_ << (i || !function_.params.empty() ? ",\n" + indent : "") << cudaScalarType(function_.results[i]->type.scalar)
        << " &" << names_.nameOf(function_.results[i]);
  if (function_.checked) {
    helpers_.insert(Helper::Checks);
    os_ << (function_.params.empty() && function_.results.empty() ? "" : ",\n" + indent)
        << (function_.kind == Function::Kind::Kernel ? "pyk_check_record *pyk_record, uint64_t pyk_launch"
                                                     : "pyk_checker pyk_check");
  }
  os_ << ")\n{\n";
  if (function_.checked && function_.kind == Function::Kind::Kernel)
    os_ << "    [[maybe_unused]] const pyk_checker pyk_check = {pyk_record, pyk_launch};\n";
  arrayLocals();
  letLocals();
  block(function_.body, 1);
  os_ << "}\n";
}

void FunctionEmitter::docComment(const std::string &text) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string_view lineText(text.data() + start, end - start);
    while (!lineText.empty() && lineText.back() == ' ')
      lineText.remove_suffix(1);
    os_ << "///" << (lineText.empty() ? "" : " ") << lineText;
    // A comment ending in a backslash would swallow the next line.
    os_ << (!lineText.empty() && lineText.back() == '\\' ? " //\n" : "\n");
    start = end + 1;
  }
}

void FunctionEmitter::parameter(const Variable &param) {
  const std::vector<std::string> types = parameterTypes(param, function_.kind);
  os_ << types[0] << " " << names_.nameOf(&param);
  for (unsigned axis = 0; axis < param.type.rank; ++axis)
    os_ << ", " << types[1 + axis] << " " << names_.extentOf(&param, axis);
  if (!param.type.contiguous)
    for (unsigned axis = 0; axis < param.type.rank; ++axis)
      os_ << ", " << types[1 + param.type.rank + axis] << " " << names_.strideOf(&param, axis);
}

/// The locals of Let expressions (checked mode's indices evaluated once),
/// declared at the top: a Let assigns its local within an expression.
void FunctionEmitter::letLocals() {
  std::function<void(const Expr &)> visit = [&](const Expr &e) {
    if (auto *let = llvm::dyn_cast<Let>(&e))
      os_ << "    " << cudaScalarType(let->var->type.scalar) << " " << names_.nameOf(let->var) << " = 0;\n";
    forEachOperand(e, visit);
  };
  forEachExprIn(function_.body, visit);
}

/// cuda.shared.array / cuda.local.array: flat C arrays, indexed row-major
/// like every pyk array.
void FunctionEmitter::arrayLocals() {
  for (const Variable *var : function_.variables()) {
    if (!var->isArrayLocal())
      continue;
    line(var->range);
    if (var->memory == Variable::Memory::Constant) {
      // The program's one copy, in constant memory (constantArrays).
      const std::string element = cudaScalarType(var->type.scalar);
      os_.indent(4) << "[[maybe_unused]] " << element << "* " << names_.nameOf(var) << " = (" << element << "*)"
                    << constantArrayName(*var) << ";\n";
      continue;
    }
    if (var->memory == Variable::Memory::DynamicShared) {
      helpers_.insert(Helper::DynamicShared);
      const std::string element = cudaScalarType(var->type.scalar);
      // Either may go unread: `a.size` reads only the extent.
      os_.indent(4) << "[[maybe_unused]] " << element << "* " << names_.nameOf(var) << " = (" << element
                    << "*)pyk_dynamic_shared;\n";
      line(var->range);
      os_.indent(4) << "[[maybe_unused]] const int64_t " << names_.extentOf(var, 0)
                    << " = (int64_t)(pyk_dynamic_shared_bytes() / sizeof(" << element << "));\n";
      continue;
    }
    os_.indent(4) << (var->memory == Variable::Memory::Shared ? "__shared__ " : "") << cudaScalarType(var->type.scalar)
                  << " " << names_.nameOf(var) << "[";
    for (size_t axis = 0; axis < var->fixedShape.size(); ++axis)
      os_ << (axis ? " * " : "") << var->fixedShape[axis];
    os_ << "];\n";
  }
}

/// A view local takes its data pointer, extents and strides, declared
/// (null and 0 without a value) or assigned; the first line is indented
/// already.
void FunctionEmitter::viewLocal(const Variable &var, const Expr *value, bool declare, unsigned depth) {
  auto *view = llvm::dyn_cast_or_null<ArrayView>(value);
  const std::string element = cudaScalarType(var.type.scalar);
  const std::string type =
      declare ? std::string("[[maybe_unused]] ") + (var.readOnly ? "const " : "") + element + " *" : "";
  const std::string number = declare ? "[[maybe_unused]] int64_t " : "";
  std::string data = "nullptr";
  if (view) {
    Code offset = expr(*view->offset);
    data = names_.nameOf(view->base);
    auto *zero = llvm::dyn_cast<Constant>(view->offset.get());
    if (!zero || zero->intValue != 0)
      data += " + " + wrap(offset, Additive + 1);
  }
  os_ << type << names_.nameOf(&var) << " = " << data << ";\n";
  for (unsigned axis = 0; axis < var.type.rank; ++axis) {
    line(var.range);
    os_.indent(depth * 4) << number << names_.extentOf(&var, axis) << " = "
                          << (view ? expr(*view->extents[axis]).text : "0") << ";\n";
  }
  if (!var.type.contiguous)
    for (unsigned axis = 0; axis < var.type.rank; ++axis) {
      line(var.range);
      os_.indent(depth * 4) << number << names_.strideOf(&var, axis) << " = "
                            << (view ? expr(*view->strides[axis]).text : "0") << ";\n";
    }
}

/// An array's extent: a parameter's, or an array local's constant.
std::string FunctionEmitter::extent(const Variable *array, unsigned axis) {
  if (!array->fixedShape.empty())
    return std::to_string(array->fixedShape[axis]);
  return names_.extentOf(array, axis);
}

void FunctionEmitter::line(SourceRange loc) {
  if (options_.lineDirectives && loc.isValid())
    os_ << "#line " << loc.begin.line << " \""
        << (loc.begin.file == 0 || loc.begin.file > module_.importedSourceNames.size()
                ? quotedPath_
                : escapeForString(module_.importedSourceNames[loc.begin.file - 1]))
        << "\"\n";
}

/// The file name as the inside of a C++ string literal.
std::string FunctionEmitter::escapeForString(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

/// Whether `var`, declared by the statement being emitted, is read by a
/// later statement of the same block (nested ones included).
bool FunctionEmitter::readLater(const Variable *var) const {
  const BlockState &block = blocks_.back();
  auto last = block.lastRead.find(var);
  return last != block.lastRead.end() && last->second > block.current;
}

/// The libdevice functions the module calls, as libdevice declares them:
/// nvcc links libdevice's definitions, and the CPU device's runtime has its
/// own of the same names.
static void declareLibdeviceFunctions(const Module &module, llvm::raw_ostream &os) {
  std::map<std::string_view, const LibdeviceFunction *> called;
  std::function<void(const Expr &)> visit = [&](const Expr &e) {
    if (auto *call = llvm::dyn_cast<LibdeviceCall>(&e))
      called[call->function->name] = call->function;
    forEachOperand(e, visit);
  };
  for (const auto &function : module.functions)
    forEachExprIn(function->body, visit);
  if (called.empty())
    return;
  os << "\n// cuda.libdevice's functions: libdevice's own, which nvcc links.\n";
  for (const auto &[name, function] : called)
    os << "extern \"C\" __device__ " << (function->result ? function->result->c : "void") << " "
       << function->symbol() << "(" << function->cParameters << ");\n";
}

/// The CUDA C++ functions the file declares (cuda.declare_device), with
/// Numba's ABI, and for each a function that calls it and returns its
/// value: pyk_foreign_NAME(a, b).
static void declareForeignFunctions(const Module &module, llvm::raw_ostream &os) {
  if (module.foreignFunctions.empty())
    return;
  os << "\n// The CUDA C++ device functions that the .pyk file declares (cuda.declare_device),\n"
     << "// with Numba's ABI: each stores its value through the first parameter.\n";
  for (const auto &function : module.foreignFunctions) {
    const std::string result = cudaScalarType(function->result.scalar);
    os << "extern \"C\" __device__ int " << function->name << "(" << result << " *result";
    for (const Type &param : function->params)
      os << ", " << cudaScalarType(param.scalar);
    os << ");\n";
    os << "static __device__ __forceinline__ " << result << " pyk_foreign_" << function->name << "(";
    for (size_t i = 0; i < function->params.size(); ++i)
      os << (i ? ", " : "") << cudaScalarType(function->params[i].scalar) << " a" << i;
    os << ")\n{\n    " << result << " value;\n    " << function->name << "(&value";
    for (size_t i = 0; i < function->params.size(); ++i)
      os << ", a" << i;
    os << ");\n    return value;\n}\n";
  }
}

/// The structs of the records that arrays of the module hold, each with
/// NumPy's layout: C's where the dtype has it, packed where it does not.
static void defineRecordStructs(const Module &module, llvm::raw_ostream &os) {
  for (const RecordType *record : module.recordTypes()) {
    const std::string name = ir::recordStructName(record->name);
    os << "\n// " << record->name << ": NumPy's dtype " << record->describe() << ".\n"
       << "struct " << (record->hasCLayout() ? "" : "__attribute__((packed)) ") << name << " {\n";
    for (const RecordField &field : record->fields)
      os << "    " << cudaScalarType(field.kind) << " " << ir::recordFieldName(field.name) << ";\n";
    os << "};\nstatic_assert(sizeof(" << name << ") == " << record->size << ", \"" << record->name
       << " has NumPy's layout\");\n";
  }
}

std::set<ScalarKind> scalarKindsUsed(const Module &module) {
  std::set<ScalarKind> kinds;
  auto add = [&](const ir::Type &type) {
    if (!type.record)
      kinds.insert(type.scalar);
  };
  for (const RecordType *record : module.recordTypes())
    for (const RecordField &field : record->fields)
      kinds.insert(field.kind);
  std::function<void(const Expr &)> visit = [&](const Expr &e) {
    add(e.type());
    forEachOperand(e, visit);
  };
  for (const auto &function : module.functions) {
    for (const Variable *var : function->variables())
      add(var->type);
    add(function->returnType);
    forEachExprIn(function->body, visit);
  }
  return kinds;
}

void emitCuda(const Module &module, const CudaEmitOptions &options, llvm::raw_ostream &os) {
  os << "// Generated by pykc " << options.compilerVersion << " from " << module.sourceName
     << ".\n// Edit the .pyk file, not this one.\n";
  os << "#include <cstdint>\n";
  bool prints = false;
  for (const auto &function : module.functions)
    forEachStmt(function->body, [&](const Stmt &s) { prints = prints || llvm::isa<Print>(s); });
  if (prints)
    os << "#include <cstdio>\n";
  // The kernels first, into a buffer, to learn which helpers they call.
  std::string kernels;
  llvm::raw_string_ostream kernelStream(kernels);
  std::set<Helper> helpers;
  const std::set<ScalarKind> kinds = scalarKindsUsed(module);
  if (kinds.count(ScalarKind::Float16))
    helpers.insert(Helper::Float16);
  if (kinds.count(ScalarKind::BFloat16))
    helpers.insert(Helper::BFloat16);
  if (kinds.count(ScalarKind::Complex64) || kinds.count(ScalarKind::Complex128))
    helpers.insert(Helper::Complex);
  for (const auto &function : module.functions) {
    kernelStream << "\n";
    FunctionEmitter(*function, module, options, kernelStream, helpers).emit();
  }
  emitHelpers(helpers, os);
  declareLibdeviceFunctions(module, os);
  declareForeignFunctions(module, os);
  defineRecordStructs(module, os);
  // NumPy array constants: one copy each, whichever functions read it.
  std::set<std::string> constants;
  for (const auto &function : module.functions)
    for (const Variable *var : function->variables())
      if (var->memory == Variable::Memory::Constant && constants.insert(var->constantName).second) {
        os << "\n";
        constantArray(*var, os);
      }
  os << kernels;
}

} // namespace pyk::cuda
