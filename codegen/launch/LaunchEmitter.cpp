//===- LaunchEmitter.cpp - C++ launch functions for the kernels of a file -===//
//
// A launch function packs its arguments the way cuLaunchKernel and the CPU
// device both take them (args[i] points to the i-th value; an array is its
// data pointer then its extents), on the stack, and calls
// pyk::detail::launch: no allocation, no string work, no lookup.
//
//===----------------------------------------------------------------------===//
#include "LaunchEmitter.h"

#include "SymbolNames.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <utility>
#include <vector>

namespace pyk::launch {
namespace {

using namespace ir;

std::string cxxScalarType(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::Int8:
    return "std::int8_t";
  case ScalarKind::Int16:
    return "std::int16_t";
  case ScalarKind::Int32:
    return "std::int32_t";
  case ScalarKind::Int64:
    return "std::int64_t";
  case ScalarKind::UInt8:
    return "std::uint8_t";
  case ScalarKind::UInt16:
    return "std::uint16_t";
  case ScalarKind::UInt32:
    return "std::uint32_t";
  case ScalarKind::UInt64:
    return "std::uint64_t";
  case ScalarKind::Float16:
    return "pyk::float16";
  case ScalarKind::Float32:
    return "float";
  case ScalarKind::Float64:
    return "double";
  case ScalarKind::BFloat16:
    return "pyk::bfloat16";
  case ScalarKind::Complex64:
    return "std::complex<float>";
  case ScalarKind::Complex128:
    return "std::complex<double>";
  }
  return "void";
}

/// Launch functions and their parameters live in a namespace and a function
/// of their own: only a keyword or a macro keeps a .pyk name from them.
std::string paramName(const Variable &param) {
  return isReservedInEveryScope(param.name) ? "pyk_" + param.name : param.name;
}

/// `pyk::detail::ArrayArgument<const float, 1> x` or `float alpha` (an
/// ArrayArgument takes a DeviceArray, a temporary one too, or an ArrayView).
std::string paramDeclaration(const Variable &param) {
  if (!param.type.isArray())
    return cxxScalarType(param.type.scalar) + " " + paramName(param);
  const std::string element =
      param.type.record ? recordCxxType(*param.type.record) : cxxScalarType(param.type.scalar);
  return "pyk::detail::ArrayArgument<" + std::string(param.readOnly ? "const " : "") + element + ", " +
         std::to_string(param.type.rank) + "> " + paramName(param);
}

/// The extent a launch passes for `axis` of array parameter `param`.
std::string extentArgument(const Variable &param, unsigned axis) {
  return paramName(param) + ".shape(" + std::to_string(axis) + ")";
}

/// The name the launch function gives a tuple parameter.
std::string tupleParamName(const Variable &element) {
  return isReservedInEveryScope(element.tupleParam) ? "pyk_" + element.tupleParam : element.tupleParam;
}

/// Whether `params[i]` starts a tuple parameter (the elements of one are
/// consecutive parameters with its name).
bool startsTuple(const std::vector<Variable *> &params, size_t i) {
  return !params[i]->tupleParam.empty() && (i == 0 || params[i - 1]->tupleParam != params[i]->tupleParam);
}

std::string signature(const Function &function) {
  // Named as in the .pyk file: the versions of a kernel are overloads.
  std::string text = "void " + launchFunctionName(function.name) + "(const pyk::Launch &pyk_launch";
  const std::vector<Variable *> &params = function.params;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i] == function.gridBarrier)
      continue; // the runtime's
    if (params[i]->tupleParam.empty()) {
      text += ", " + paramDeclaration(*params[i]);
      continue;
    }
    // A tuple parameter: `std::tuple<std::int64_t, std::int64_t> shape`.
    if (!startsTuple(params, i))
      continue;
    std::string elements;
    for (size_t j = i; j < params.size() && params[j]->tupleParam == params[i]->tupleParam; ++j)
      elements += (j == i ? "" : ", ") + cxxScalarType(params[j]->type.scalar);
    text += ", std::tuple<" + elements + "> " + tupleParamName(*params[i]);
  }
  return text + ")";
}

/// `std::uint32_t KERNEL_max_cooperative_grid_blocks(const pyk::Dim3 &block,
/// std::size_t shared_bytes = 0)`, named by the version's symbol, as each
/// version has a limit of its own; the definition's with `qualifier` and
/// without the default argument.
std::string maxCooperativeGridBlocksDeclaration(const Function &function, const std::string &qualifier = "") {
  return "std::uint32_t " + qualifier + launchFunctionName(function.symbol + "_max_cooperative_grid_blocks") +
         "(const pyk::Dim3 &block, std::size_t shared_bytes" + (qualifier.empty() ? " = 0" : "") + ")";
}

unsigned argCount(const Function &function) {
  unsigned count = 0;
  for (const Variable *param : function.params)
    count += param->type.isArray() ? 1 + param->type.rank : 1;
  return count;
}

void docComment(llvm::raw_ostream &os, const std::string &text, const char *indent) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(start, end - start);
    os << indent << "///" << (line.empty() ? "" : " ") << line << (!line.empty() && line.back() == '\\' ? " //" : "")
       << "\n";
    start = end + 1;
  }
}

/// The namespace of the unit's launch functions, inside pyk::kernels.
std::string unitNamespace(const Module &module) {
  return "pyk_unit_" + module.unitId;
}

/// `pyk::kernels::NAME_pyk::pyk_unit_ID::` (without the unit part when the
/// module has no unitId): where the launch functions of the file live.
std::string launchQualifier(const Module &module, const LaunchEmitOptions &options) {
  std::string qualifier = "pyk::kernels::" + fileNamespace(options.baseName) + "::";
  if (!module.unitId.empty())
    qualifier += unitNamespace(module) + "::";
  return qualifier;
}

/// `text` for a `//` comment: a control character (a newline in a file
/// name, say) would end the comment early, so each becomes `?`.
std::string commentText(llvm::StringRef text) {
  std::string result = text.str();
  for (char &c : result)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      c = '?';
  return result;
}

/// `bytes` as a C++ string literal, in lines of adjacent literals: printable
/// characters as themselves, every other byte as a three-digit octal escape
/// (which, unlike a hex one, cannot run into a digit after it).
void writeBytesLiteral(llvm::raw_ostream &os, llvm::StringRef bytes) {
  constexpr size_t lineWidth = 96;
  os << "\n    \"";
  size_t column = 0;
  for (const char c : bytes) {
    if (column >= lineWidth) {
      os << "\"\n    \"";
      column = 0;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || c == '?') { // '?': never part of a trigraph, whatever the C++ version
      os << '\\' << c;
      column += 2;
    } else if (byte >= 0x20 && byte < 0x7f) {
      os << c;
      column += 1;
    } else {
      os << llvm::format("\\%03o", byte);
      column += 4;
    }
  }
  os << '"';
}

/// The structs of the file's own records, which C++ fills and passes
/// (`std::vector<pyk::records::Point>`), with NumPy's layouts. Two files
/// may define a record of the same name: it is defined once, and each
/// file's assertions check that the definition is its own.
std::string recordStructs(const Module &module, const std::string &pykFile) {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool first = true;
  for (const RecordType *record : module.recordTypes()) {
    if (!record->cxxType.empty()) // built in: the runtime's headers define it
      continue;
    if (std::exchange(first, false))
      os << "#include <cstddef>\n#include <type_traits>\n\n";
    const std::string name = launchFunctionName(record->name);
    const std::string guard = "PYK_RECORD_" + name;
    os << "#ifndef " << guard << "\n#define " << guard << "\nnamespace pyk::records {\n"
       << "/// The record '" << record->name << "' of " << pykFile << ": NumPy's dtype\n/// " << record->describe()
       << ".\n";
    if (!record->hasCLayout())
      os << "#pragma pack(push, 1)\n";
    os << "struct " << name << " {\n";
    for (const RecordField &field : record->fields)
      os << "  " << cxxScalarType(field.kind) << " " << recordFieldName(field.name) << ";\n";
    os << "};\n";
    if (!record->hasCLayout())
      os << "#pragma pack(pop)\n";
    os << "} // namespace pyk::records\n#endif\n";
    const std::string type = "pyk::records::" + name;
    os << "static_assert(sizeof(" << type << ") == " << record->size;
    for (const RecordField &field : record->fields)
      os << " &&\n                  offsetof(" << type << ", " << recordFieldName(field.name) << ") == " << field.offset
         << " && std::is_same_v<decltype(" << type << "::" << recordFieldName(field.name) << "), "
         << cxxScalarType(field.kind) << ">";
    os << ",\n              \"" << type << " of " << pykFile
       << " is not the record of that name that another included file defines\");\n\n";
  }
  return text;
}

/// The launch functions' declarations, in their namespaces: the header's
/// body, which the source repeats rather than includes, since a file name
/// may hold characters (`"`) that no `#include "..."` can name.
std::string launchDeclarations(const Module &module, const LaunchEmitOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const std::string fileName = fileNamespace(options.baseName);
  const std::string pykFile = commentText(options.baseName) + ".pyk";
  os << recordStructs(module, pykFile) << "namespace pyk::kernels {\n\n"
     << "/// The kernels of " << pykFile << ": call them as pyk::kernels::KERNEL, or as\n"
     << "/// pyk::kernels::" << fileName << "::KERNEL where another included file has a\n"
     << "/// kernel of the same name.\n"
     << "inline namespace " << fileName << " {\n";
  if (!module.unitId.empty())
    os << "/// This compilation's own symbols: a same-named kernel of another file (or\n"
       << "/// of this one compiled with other options) in the same program keeps its own.\n"
       << "inline namespace " << unitNamespace(module) << " {\n";
  for (const Function *function : module.kernels()) {
    os << "\n";
    if (!function->docstring.empty())
      docComment(os, function->docstring, "");
    os << "/// Launches the kernel '" << function->name << "' of " << pykFile;
    // One of several versions (a signature each): say which, in .pyk types.
    if (function->symbol != kernelSymbol(function->name)) {
      os << ", its version for (";
      for (size_t i = 0; i < function->pykParameterTypes.size(); ++i)
        os << (i ? ", " : "") << function->pykParameterTypes[i];
      os << ")";
    }
    os << "; asynchronous on a GPU.\n";
    os << signature(*function) << ";\n";
    if (function->gridSynchronises)
      os << "/// The most blocks of `block` threads, with `shared_bytes` of dynamic shared\n"
         << "/// memory, a launch of it may have on the current device: it syncs its grid,\n"
         << "/// so every block must be resident at once (Numba's max_cooperative_grid_blocks).\n"
         << maxCooperativeGridBlocksDeclaration(*function) << ";\n";
  }
  os << "\n";
  if (!module.unitId.empty())
    os << "} // namespace " << unitNamespace(module) << "\n";
  os << "} // namespace " << fileName << "\n} // namespace pyk::kernels\n";
  return text;
}

/// The first lines of a generated file: what it is and where it comes from.
std::string preamble(const Module &module, const LaunchEmitOptions &options, llvm::StringRef suffix,
                     llvm::StringRef what) {
  return "// " + commentText(options.baseName) + suffix.str() + ": " + what.str() + " " +
         commentText(module.sourceName) + ".\n// Generated by pykc " + options.compilerVersion +
         "; edit the .pyk file, not this one.\n";
}

std::string header(const Module &module, const LaunchEmitOptions &options) {
  return preamble(module, options, ".pyk.h", "launch functions for the kernels of") +
         "#pragma once\n\n#include <pyk/pyk.h>\n\n#include <cstdint>\n#include <tuple>\n\n" +
         launchDeclarations(module, options);
}

std::string source(const Module &module, const LaunchEmitOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << preamble(module, options, ".pyk.cpp", "launch functions and embedded code for the kernels of")
     << "#include <pyk/pyk.h>\n\n#include <cstdint>\n#include <tuple>\n\n"
     << "// As " << commentText(options.baseName) << ".pyk.h declares them.\n"
     << launchDeclarations(module, options) << "\n";
  os << "// The CPU device's code, in " << commentText(options.cpuDeviceFile) << ".\nextern \"C\" {\n";
  for (const Function *function : module.kernels())
    os << "void " << cpuEntrySymbol(module.unitId, function->symbol)
       << "(void **args, const pyk::detail::CpuBlockContext *block);\n";
  os << "}\n\nnamespace {\n\n";
  os << "const char pyk_ptx[] = R\"pyk_ptx(" << options.ptx << ")pyk_ptx\";\n\n";
  const bool checked = !module.checkSites.empty();
  if (checked) {
    // What each check of checked mode reports (pyk_check_record::site).
    static const char *const kinds[] = {"Bounds", "DivisionByZero", "ModuloByZero", "Assertion"};
    os << "const pyk::detail::CheckSiteInfo pyk_check_sites[] = {\n";
    for (const CheckSite &site : module.checkSites) {
      const std::string &siteText = site.kind == CheckSite::Kind::Bounds ? site.array : site.message;
      os << "    {pyk::detail::CheckSiteInfo::" << kinds[static_cast<int>(site.kind)] << ", " << site.loc.begin.line
         << ", " << site.loc.begin.column << ", \"";
      os.write_escaped(siteText);
      os << "\", " << site.axis << (site.wraps ? ", /*wrapsNegative=*/true" : "") << "},\n";
    }
    os << "};\n\n";
  }
  if (!options.cubins.empty()) {
    // A string literal, not a list of byte values: a C++ compiler reads
    // a large one several times faster.
    os << "// The GPU code for these architectures (ELF images), assembled by\n"
       << "// ptxas, so that those GPUs do not compile the PTX at the first launch.\n";
    for (const auto &[arch, bytes] : options.cubins) {
      os << "alignas(8) const unsigned char pyk_cubin_" << arch << "[] =";
      writeBytesLiteral(os, bytes);
      os << ";\n";
    }
    os << "// (Each size less the string literal's terminating zero.)\n"
       << "const pyk::detail::CubinImage pyk_cubins[] = {\n";
    for (const auto &[arch, bytes] : options.cubins)
      os << "    {\"" << arch << "\", pyk_cubin_" << arch << ", sizeof pyk_cubin_" << arch << " - 1},\n";
    os << "};\n\n";
  }
  const bool linksCuda = !options.linkedPtx.empty();
  if (linksCuda) {
    os << "// The PTX of the CUDA C++ files the kernels call (cuda.declare_device),\n"
       << "// compiled by nvcc: a GPU that loads pyk_ptx links it with these.\n";
    for (std::size_t i = 0; i < options.linkedPtx.size(); ++i) {
      const auto &[file, filePtx] = options.linkedPtx[i];
      os << "// " << commentText(file) << "\n"
         << "const char pyk_linked_ptx_" << i << "[] = R\"pyk_ptx(" << filePtx << ")pyk_ptx\";\n";
    }
    os << "const char *const pyk_linked_ptx[] = {";
    for (std::size_t i = 0; i < options.linkedPtx.size(); ++i)
      os << (i ? ", " : "") << "pyk_linked_ptx_" << i;
    os << "};\n\n";
  }
  // KernelModule's fields in order, up to the last one that is not left
  // at its default.
  os << "const pyk::detail::KernelModule pyk_module{\"";
  os.write_escaped(options.baseName + ".pyk");
  os << "\", pyk_ptx";
  if (!options.cubins.empty() || checked || linksCuda)
    os << ", " << (options.cubins.empty() ? "nullptr" : "pyk_cubins") << ", " << options.cubins.size();
  if (checked || linksCuda)
    os << ", " << (checked ? "pyk_check_sites" : "nullptr") << ", " << module.checkSites.size();
  if (linksCuda)
    os << ", pyk_linked_ptx, " << options.linkedPtx.size();
  os << "};\n\n";
  for (const Function *function : module.kernels()) {
    // The size of each argument value, for launches the runtime queues.
    std::string sizes;
    for (const Variable *param : function->params) {
      const unsigned size = param->type.isArray() ? 8 : byteWidth(param->type.scalar);
      for (unsigned slot = 0; slot < (param->type.isArray() ? 1 + param->type.rank : 1); ++slot)
        sizes += (sizes.empty() ? "" : ", ") + std::to_string(slot == 0 ? size : 8);
    }
    const std::string sizesName = "pyk_sizes_" + function->symbol;
    if (!sizes.empty())
      os << "const std::uint8_t " << sizesName << "[] = {" << sizes << "};\n";
    os << "pyk::detail::KernelInfo pyk_info_" << function->symbol << "{&pyk_module, \"" << function->symbol << "\", &"
       << cpuEntrySymbol(module.unitId, function->symbol) << ", " << argCount(*function) << ", "
       << (sizes.empty() ? "nullptr" : sizesName);
    // Positional: a later field needs the ones before it.
    const bool grid = function->gridSynchronises;
    const bool local = function->localMemoryBytes != 0;
    if (function->maxThreadsPerBlock || function->checked || local || grid)
      os << ", " << function->maxThreadsPerBlock;
    if (function->checked || local || grid)
      os << ", /*checked=*/" << (function->checked ? "true" : "false");
    if (local || grid)
      os << ", /*localMemoryBytes=*/" << function->localMemoryBytes;
    if (grid)
      os << ", /*gridSynchronises=*/true";
    os << "};\n";
  }
  os << "\n} // namespace\n";
  for (const Function *function : module.kernels()) {
    os << "\n"
       << "void " << launchQualifier(module, options) << signature(*function).substr(5) << " {\n";
    // Generated names start with pyk_, which .pyk names never keep (they
    // are renamed: SymbolNames.h).
    std::vector<std::string> data, extents, args;
    size_t tupleElement = 0;
    for (size_t i = 0; i < function->params.size(); ++i) {
      const Variable *param = function->params[i];
      const std::string name = paramName(*param);
      if (param == function->gridBarrier) {
        // Filled in by the runtime on a GPU: the grid barrier's address.
        os << "  std::uint64_t pyk_grid_barrier = 0;\n";
        args.push_back("&pyk_grid_barrier");
        continue;
      }
      if (!param->tupleParam.empty()) {
        tupleElement = startsTuple(function->params, i) ? 0 : tupleElement + 1;
        args.push_back("&std::get<" + std::to_string(tupleElement) + ">(" + tupleParamName(*param) + ")");
        continue;
      }
      if (!param->type.isArray()) {
        args.push_back("&" + name);
        continue;
      }
      os << "  pyk::detail::requireArrayOnDevice(pyk_info_" << function->symbol << ", \"" << param->name << "\", "
         << name << ".device());\n";
      if (module.narrowIndices)
        os << "  pyk::detail::requireNarrowOffsets(pyk_info_" << function->symbol << ", \"" << param->name << "\", "
           << name << ".size());\n";
      args.push_back("&pyk_data[" + std::to_string(data.size()) + "]");
      data.push_back("const_cast<void *>(static_cast<const void *>(" + name + ".data()))");
      for (unsigned axis = 0; axis < param->type.rank; ++axis) {
        args.push_back("&pyk_extents[" + std::to_string(extents.size()) + "]");
        extents.push_back(extentArgument(*param, axis));
      }
    }
    auto list = [](const std::vector<std::string> &items) {
      std::string joined;
      for (const std::string &item : items)
        joined += (joined.empty() ? "" : ", ") + item;
      return joined;
    };
    if (!data.empty())
      os << "  void *pyk_data[] = {" << list(data) << "};\n";
    if (!extents.empty())
      os << "  std::int64_t pyk_extents[] = {" << list(extents) << "};\n";
    if (function->checked) {
      // Filled in by the runtime: the check record and the launch's word.
      os << "  std::uint64_t pyk_check_arguments[2] = {};\n";
      args.push_back("&pyk_check_arguments[0]");
      args.push_back("&pyk_check_arguments[1]");
    }
    if (args.empty())
      os << "  void **pyk_args = nullptr;\n";
    else
      os << "  void *pyk_args[] = {" << list(args) << "};\n";
    os << "  pyk::detail::launch(pyk_info_" << function->symbol << ", pyk_launch, pyk_args);\n}\n";
    if (function->gridSynchronises)
      os << "\n"
         << maxCooperativeGridBlocksDeclaration(*function, launchQualifier(module, options))
         << " {\n  return pyk::detail::maxCooperativeGridBlocks(pyk_info_" << function->symbol
         << ", block, shared_bytes);\n}\n";
  }
  return text;
}

} // namespace

LaunchFiles emitLaunchCode(const Module &module, const LaunchEmitOptions &options) {
  return {header(module, options), source(module, options)};
}

} // namespace pyk::launch
