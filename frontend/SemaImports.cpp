//===- SemaImports.cpp - Imports: what names a file's imports bind --------===//
//
// A file of Numba kernels imports what its host code uses too (numpy, time,
// numba.vectorize, cuda.to_device ...). pyk binds what kernels can use:
// numba's cuda, types and type names, math, and numpy and cupy for their
// scalar types. Any other import is ignored with a warning, and using its
// name in a kernel is the error, which says why (a host API, not supported
// yet, not for kernels): an import alone is never an error. Imports of the
// program's own files are resolved before, by ModuleImports.cpp.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

namespace pyk::sema {

using namespace ast;

/// The module `import M` binds, if kernels can use it.
static Builtin moduleBuiltin(const std::string &module) {
  if (module == "math")
    return Builtin::MathModule;
  if (module == "numpy")
    return Builtin::NumpyModule;
  if (module == "cupy")
    return Builtin::CupyModule;
  if (module == "numba")
    return Builtin::NumbaModule;
  if (module == "numba.cuda")
    return Builtin::CudaModule;
  if (module == "numba.cuda.libdevice")
    return Builtin::LibdeviceModule;
  if (module == "numba.cuda.fp16")
    return Builtin::CudaFp16;
  if (module == "numba.cuda.bf16")
    return Builtin::CudaBf16;
  if (module == "numba.types" || module == "numba.core.types" || module == "numba.cuda.types")
    return Builtin::NumbaTypesModule;
  return Builtin::None;
}

void Sema::checkImport(ImportStmt &stmt) {
  for (const ImportedName &name : stmt.names) {
    // `import a.b` binds `a`, `import a.b as c` binds `c` to a.b.
    const std::string root = name.name.substr(0, name.name.find('.'));
    const std::string module = name.asName.empty() ? root : name.name;
    const std::string bound = name.asName.empty() ? root : name.asName;
    if (name.asName.empty() && root == "numba")
      continue; // `numba.x` spellings resolve without it (and `cuda` is predeclared).
    const Builtin builtin = moduleBuiltin(module);
    if (builtin == Builtin::None) {
      ignoreImport(name.range, bound, module, module);
      continue;
    }
    addSymbol(moduleScope_,
              Symbol{SymbolKind::Builtin, bound, name.range, nullptr, std::nullopt, ScalarKind::Bool, builtin, nullptr, 0});
  }
}

void Sema::checkImportFrom(ImportFromStmt &stmt) {
  if (stmt.importsAll) {
    error(stmt.range()) << "'from " << stmt.module << " import *' is not supported; import the names you use";
    return;
  }
  if (stmt.module == "__future__")
    return; // Python's compiler directives (annotations, division) change nothing in kernels.
  if (stmt.level > 0) {
    // Another file of the program that could not be imported (the error is
    // ModuleImports.cpp's): an empty key keeps its uses silent.
    const std::string module = std::string(stmt.level, '.') + stmt.module;
    for (const ImportedName &name : stmt.names)
      ignoreImport(name.range, name.asName.empty() ? name.name : name.asName,
                   module + (module.back() == '.' ? "" : ".") + name.name, "");
    return;
  }
  // numba.cuda.x is cuda.x in kernels, and in what pyk says about it.
  const bool fromCuda = stmt.module == "numba.cuda" || stmt.module.rfind("numba.cuda.", 0) == 0;
  const std::string shownModule = fromCuda ? stmt.module.substr(std::string("numba.").size()) : stmt.module;
  const bool fromTypes = moduleBuiltin(stmt.module) == Builtin::NumbaTypesModule;
  for (const ImportedName &name : stmt.names) {
    if (importName(stmt.module, name))
      continue;
    const std::string shown = shownModule + "." + name.name;
    ignoreImport(name.range, name.asName.empty() ? name.name : name.asName, shown,
                 fromTypes ? "numba." + name.name : shown);
  }
}

bool Sema::importName(const std::string &module, const ImportedName &name) {
  const std::string bound = name.asName.empty() ? name.name : name.asName;
  auto bind = [&](Builtin builtin) {
    addSymbol(moduleScope_, Symbol{SymbolKind::Builtin, bound, name.range, nullptr, std::nullopt, ScalarKind::Bool,
                                   builtin, nullptr, 0});
    return true;
  };
  if (module == "numba" && name.name == "cuda")
    return bind(Builtin::CudaModule);
  if ((module == "numba" || module == "numba.core" || module == "numba.cuda") && name.name == "types")
    return bind(Builtin::NumbaTypesModule);
  if (module == "numba" && (name.name == "jit" || name.name == "njit" || name.name == "prange"))
    return bind(*builtinFromName("numba." + name.name));
  if ((module == "numba" || module == "numba.np.numpy_support") && name.name == "from_dtype")
    return bind(Builtin::FromDtype);
  if (module == "numba.cuda" && name.name == "declare_device")
    return bind(Builtin::DeclareDevice);
  const Builtin moduleKind = moduleBuiltin(module);
  const bool namesTypes = moduleKind == Builtin::NumbaModule || moduleKind == Builtin::CudaModule ||
                          moduleKind == Builtin::NumpyModule || moduleKind == Builtin::CupyModule ||
                          moduleKind == Builtin::NumbaTypesModule;
  if (namesTypes && (scalarKindFromName(name.name) || name.name == "void")) {
    if (name.name == "void" || bound == name.name)
      return true; // Predeclared already.
    addSymbol(moduleScope_, Symbol{SymbolKind::TypeName, bound, name.range, nullptr, std::nullopt,
                                   *scalarKindInModule(module, name.name), Builtin::None, nullptr, 0});
    return true;
  }
  // UniTuple(int64, 2), Tuple((float32, int32)) in annotations: read by
  // name where a type is expected (Sema::tupleTypeName).
  if (namesTypes && (name.name == "UniTuple" || name.name == "Tuple") && bound == name.name)
    return true;
  const bool fromNumpy = moduleKind == Builtin::NumpyModule || moduleKind == Builtin::CupyModule;
  if (module == "math" || fromNumpy) {
    if (auto value = fromNumpy ? numpyConstant(name.name) : mathConstant(name.name)) {
      addSymbol(moduleScope_, Symbol{SymbolKind::Constant, bound, name.range, types_.float64Type(),
                                     ConstantValue::ofFloat(*value), ScalarKind::Bool, Builtin::None, nullptr, 0});
      return true;
    }
    if (const MathFunctionInfo *function = fromNumpy ? nullptr : mathFunction(name.name)) {
      Symbol symbol{SymbolKind::Builtin, bound, name.range, nullptr, std::nullopt, ScalarKind::Bool,
                    Builtin::MathFunction, nullptr, 0};
      symbol.mathFunction = function;
      addSymbol(moduleScope_, std::move(symbol));
      return true;
    }
  }
  // numba.cuda.bf16's type, predeclared as the other type names are.
  if (module == "numba.cuda.bf16" && name.name == "bfloat16" && bound == name.name)
    return true;
  if (module == "numba.cuda" || module == "numba.cuda.fp16" || module == "numba.cuda.bf16")
    if (auto builtin = builtinFromName(module.substr(std::string("numba.").size()) + "." + name.name))
      return bind(*builtin);
  if (module == "numba.cuda.libdevice")
    if (const LibdeviceFunction *function = libdeviceFunction(name.name)) {
      Symbol symbol{SymbolKind::Builtin, bound, name.range, nullptr, std::nullopt, ScalarKind::Bool,
                    Builtin::LibdeviceFunction, nullptr, 0};
      symbol.libdeviceFunction = function;
      addSymbol(moduleScope_, std::move(symbol));
      return true;
    }
  // The state type of numba.cuda.random is predeclared, as type names are;
  // its device functions were spliced in by ModuleImports.cpp.
  if (module == "numba.cuda.random" && builtinRecordTypeNamed(name.name) && bound == name.name)
    return true;
  return false;
}

void Sema::ignoreImport(SourceRange range, const std::string &bound, const std::string &shown,
                        const std::string &key) {
  const bool planned = classifyMissingName(key).kind == MissingNameKind::NotSupportedYet;
  // An empty key: a file of the program that could not be imported, which
  // ModuleImports.cpp reported.
  if (!key.empty())
    warning(range) << "'" << shown << "' " << (planned ? "is not supported yet" : "is not available in pyk kernels")
                   << "; the import is ignored";
  Symbol *symbol = addSymbol(moduleScope_, Symbol{SymbolKind::Builtin, bound, range, nullptr, std::nullopt,
                                                  ScalarKind::Bool, Builtin::IgnoredImport, nullptr, 0});
  ignoredImports_[symbol] = {shown, key};
}

} // namespace pyk::sema
