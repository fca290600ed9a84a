//===- Builtins.cpp - Names of the builtins pyk implements ----------------===//
#include "Builtins.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <iterator>
#include <numbers>

namespace pyk {

namespace {
struct BuiltinEntry {
  Builtin id;
  std::string_view name;
  int arity;
};

constexpr BuiltinEntry builtinTable[] = {
#define PYK_BUILTIN(Id, Name, Arity) {Builtin::Id, Name, Arity},
#include "Builtins.def"
};
} // namespace

std::string_view builtinName(Builtin builtin) {
  for (const BuiltinEntry &entry : builtinTable)
    if (entry.id == builtin)
      return entry.name;
  return "<none>";
}

int builtinArity(Builtin builtin) {
  for (const BuiltinEntry &entry : builtinTable)
    if (entry.id == builtin)
      return entry.arity;
  return -1;
}

std::optional<Builtin> builtinFromName(std::string_view name) {
  for (const BuiltinEntry &entry : builtinTable)
    if (entry.name == name && entry.id != Builtin::ArrayShape && entry.id != Builtin::ArraySize &&
        entry.id != Builtin::ArrayNdim && entry.id != Builtin::GridSync)
      return entry.id;
  return std::nullopt;
}

namespace {
using R = MathFunctionInfo::Result;
constexpr MathFunctionInfo mathFunctions[] = {
    {"sqrt", "sqrt", 1, R::Float, false, 0, true},
    {"exp", "exp", 1, R::Float, false, 0, true},
    {"expm1", "expm1", 1, R::Float},
    {"log", "log", 1, R::Float, false, 0, true},
    {"log2", "log2", 1, R::Float, false, 0, true},
    {"log10", "log10", 1, R::Float, false, 0, true},
    {"log1p", "log1p", 1, R::Float},
    {"sin", "sin", 1, R::Float, false, 0, true},
    {"cos", "cos", 1, R::Float, false, 0, true},
    {"tan", "tan", 1, R::Float},
    {"asin", "asin", 1, R::Float},
    {"acos", "acos", 1, R::Float},
    {"atan", "atan", 1, R::Float},
    {"atan2", "atan2", 2, R::Float},
    {"sinh", "sinh", 1, R::Float},
    {"cosh", "cosh", 1, R::Float},
    {"tanh", "tanh", 1, R::Float},
    {"asinh", "asinh", 1, R::Float},
    {"acosh", "acosh", 1, R::Float},
    {"atanh", "atanh", 1, R::Float},
    {"pow", "pow", 2, R::Float},
    {"fabs", "fabs", 1, R::Float, false, 0, true},
    {"fmod", "fmod", 2, R::Float},
    {"copysign", "copysign", 2, R::Float},
    {"hypot", "hypot", 2, R::Float},
    {"erf", "erf", 1, R::Float},
    {"erfc", "erfc", 1, R::Float},
    {"gamma", "tgamma", 1, R::Float},
    {"lgamma", "lgamma", 1, R::Float},
    {"floor", "floor", 1, R::Int64},
    {"ceil", "ceil", 1, R::Int64},
    {"trunc", "trunc", 1, R::Int64},
    {"isnan", "isnan", 1, R::Bool},
    {"isinf", "isinf", 1, R::Bool},
    {"isfinite", "isfinite", 1, R::Bool},
    {"exp2", "exp2", 1, R::Float},
    {"remainder", "remainder", 2, R::Float},
    {"nextafter", "nextafter", 2, R::Float},
    {"ldexp", "ldexp", 2, R::Float, true},
    {"modf", "modf", 1, R::FloatPair},
    {"frexp", "frexp", 1, R::FloatAndExponent},
    {"radians", "", 1, R::Float, false, std::numbers::pi / 180},
    {"degrees", "", 1, R::Float, false, 180 / std::numbers::pi},
};
constexpr std::string_view mathConstants[] = {"pi", "e", "tau", "inf", "nan"};
} // namespace

const MathFunctionInfo *mathFunction(std::string_view name) {
  for (const MathFunctionInfo &function : mathFunctions)
    if (function.name == name)
      return &function;
  return nullptr;
}

std::optional<double> mathConstant(std::string_view name) {
  if (name == "pi")
    return 3.141592653589793;
  if (name == "e")
    return 2.718281828459045;
  if (name == "tau")
    return 6.283185307179586;
  if (name == "inf")
    return __builtin_inf();
  if (name == "nan")
    return __builtin_nan("");
  return std::nullopt;
}

std::optional<double> numpyConstant(std::string_view name) {
  return name == "tau" ? std::nullopt : mathConstant(name);
}

namespace {
struct MissingNameEntry {
  /// A name, or a module and everything in it ("cuda.cg.*").
  std::string_view name;
  MissingNameKind kind;
  std::string_view cxxCounterpart = {};
};

constexpr MissingNameKind planned = MissingNameKind::NotSupportedYet;
constexpr MissingNameKind host = MissingNameKind::HostApi;
constexpr MissingNameKind notForKernels = MissingNameKind::NotAvailable;

/// Numba's and Python's names that pyk lacks, and why. What is planned is
/// the vocabulary of LANGUAGE.md that later work (issue 17) implements.
constexpr MissingNameEntry missingNames[] = {
    // CUDA Python in kernels, planned.
    {"cuda.random", planned},
    // Types, planned.
    {"complex64", planned},
    {"complex128", planned},
    {"c8", planned},
    {"c16", planned},
    {"numba.complex64", planned},
    {"numba.complex128", planned},
    {"numba.c8", planned},
    {"numba.c16", planned},
    {"np.complex64", planned},
    {"np.complex128", planned},
    {"cmath", planned},
    {"cmath.*", planned},
    // Python's math, not for kernels.
    {"math.cbrt", notForKernels},
    {"math.comb", notForKernels},
    {"math.dist", notForKernels},
    {"math.factorial", notForKernels},
    {"math.fma", notForKernels},
    {"math.fsum", notForKernels},
    {"math.gcd", notForKernels},
    {"math.isclose", notForKernels},
    {"math.isqrt", notForKernels},
    {"math.lcm", notForKernels},
    {"math.perm", notForKernels},
    {"math.prod", notForKernels},
    {"math.sumprod", notForKernels},
    {"math.ulp", notForKernels},
    // Numba's host API: memory, streams, events, devices, compilation.
    {"cuda.to_device", host, "pyk::to_device"},
    {"cuda.device_array", host, "pyk::device_empty"},
    {"cuda.device_array_like", host, "pyk::device_empty_like"},
    {"cuda.synchronize", host, "pyk::synchronize"},
    {"cuda.stream", host, "pyk::Stream"},
    {"cuda.default_stream", host, "pyk::Stream"},
    {"cuda.legacy_default_stream", host, "pyk::Stream"},
    {"cuda.per_thread_default_stream", host, "pyk::Stream"},
    {"cuda.external_stream", host, "pyk::Stream"},
    {"cuda.event", host, "pyk::Event"},
    {"cuda.event_elapsed_time", host, "pyk::Event"},
    {"cuda.get_current_device", host, "pyk::current_device"},
    {"cuda.select_device", host},
    {"cuda.pinned_array", host},
    {"cuda.pinned_array_like", host},
    {"cuda.mapped_array", host},
    {"cuda.mapped_array_like", host},
    {"cuda.managed_array", host},
    {"cuda.pinned", host},
    {"cuda.mapped", host},
    {"cuda.current_context", host},
    {"cuda.require_context", host},
    {"cuda.close", host},
    {"cuda.detect", host},
    {"cuda.is_available", host},
    {"cuda.list_devices", host},
    {"cuda.gpus", host},
    {"cuda.profile_start", host},
    {"cuda.profile_stop", host},
    {"cuda.profiling", host},
    {"cuda.defer_cleanup", host},
    {"cuda.as_cuda_array", host},
    {"cuda.is_cuda_array", host},
    {"cuda.from_cuda_array_interface", host},
    {"cuda.open_ipc_array", host},
    {"cuda.compile", host},
    {"cuda.compile_ptx", host},
    {"cuda.compile_ptx_for_current_device", host},
    {"cuda.compile_for_current_device", host},
    {"cuda.reduce", host},
    {"cuda.Reduce", host},
    {"cuda.is_supported_version", host},
    {"cuda.driver", host},
    {"cuda.cudadrv", host},
    {"cuda.runtime", host},
    {"cuda.simulator", host},
    {"cuda.testing", host},
    {"cuda.random.create_xoroshiro128p_states", host, "pyk::random::create_xoroshiro128p_states"},
    {"cuda.random.init_xoroshiro128p_states", host, "pyk::random::init_xoroshiro128p_states"},
    {"cuda.random.init_xoroshiro128p_states_cpu", host, "pyk::random::init_xoroshiro128p_states_host"},
    // numba.cuda.random's device functions come by import (ModuleImports.cpp).
    {"cuda.random.*", planned},
    {"cuda.vectorize", notForKernels},
    {"cuda.guvectorize", notForKernels},
    // Numba's other compilers and tools.
    {"numba.vectorize", notForKernels},
    {"numba.guvectorize", notForKernels},
    {"numba.stencil", notForKernels},
    {"numba.cfunc", notForKernels},
    {"numba.objmode", notForKernels},
    {"numba.literal_unroll", notForKernels},
    {"numba.generated_jit", notForKernels},
    {"numba.typeof", notForKernels},
    {"numba.literally", notForKernels},
    {"numba.carray", notForKernels},
    {"numba.farray", notForKernels},
    {"numba.optional", notForKernels},
    {"numba.config", host},
    {"numba.set_num_threads", host},
    {"numba.get_num_threads", host},
    {"numba.get_thread_id", host},
    {"numba.threading_layer", host},
    {"numba.gdb", host},
    {"numba.gdb_init", host},
    {"numba.gdb_breakpoint", host},
    {"numba.typed", notForKernels},
    {"numba.typed.*", notForKernels},
    {"numba.experimental", notForKernels},
    {"numba.experimental.*", notForKernels},
    {"numba.extending", notForKernels},
    {"numba.extending.*", notForKernels},
    {"numba.errors", host},
    {"numba.core.errors", host},
    // Python's host modules, often imported by the scripts kernels come from.
    {"time", host},
    {"sys", host},
    {"os", host},
    {"os.path", host},
    {"argparse", host},
    {"timeit", host},
    {"pathlib", host},
    {"functools", host},
    {"itertools", host},
    {"collections", host},
    {"typing", host},
    {"warnings", host},
    {"logging", host},
    {"random", host},
    {"json", host},
    {"pickle", host},
    {"subprocess", host},
    {"threading", host},
    {"multiprocessing", host},
    {"pytest", host},
    {"unittest", host},
    {"matplotlib", host},
    {"matplotlib.pyplot", host},
    {"scipy", host},
    {"pandas", host},
    {"cudf", host},
    {"numba.cuda.cudadrv", host},
};
} // namespace

MissingName classifyMissingName(std::string_view dotted) {
  for (const MissingNameEntry &entry : missingNames) {
    std::string_view name = entry.name;
    const bool wholeModule = name.size() > 2 && name.substr(name.size() - 2) == ".*";
    if (wholeModule ? dotted.substr(0, name.size() - 1) == name.substr(0, name.size() - 1) : dotted == name)
      return {entry.kind, entry.cxxCounterpart};
  }
  // Everything in a host module is for the host (random.random, os.path.join).
  if (const size_t dot = dotted.find('.'); dot != std::string_view::npos) {
    const std::string_view root = dotted.substr(0, dot);
    if (root != "cuda" && root != "math" && root != "numba" && classifyMissingName(root).kind == host)
      return {host, {}};
  }
  // Every name of these modules, other than their types, is NumPy's or
  // CuPy's array library, and none is for kernels.
  for (std::string_view arrayLibrary : {"np.", "numpy.", "cp.", "cupy."})
    if (dotted.substr(0, arrayLibrary.size()) == arrayLibrary)
      return {notForKernels, {}};
  return {};
}

bool isKnownUnimplementedBuiltin(std::string_view name) {
  return classifyMissingName(name).kind == MissingNameKind::NotSupportedYet;
}

std::vector<std::string_view> builtinNamesIn(std::string_view prefix) {
  std::vector<std::string_view> names;
  if (prefix == "cuda.libdevice")
    return libdeviceFunctionNames();
  if (prefix == "math") {
    for (const MathFunctionInfo &function : mathFunctions)
      names.push_back(function.name);
    names.insert(names.end(), std::begin(mathConstants), std::end(mathConstants));
    return names;
  }
  for (const BuiltinEntry &entry : builtinTable) {
    std::string_view name = entry.name;
    if (name.size() > prefix.size() + 1 && name.substr(0, prefix.size()) == prefix && name[prefix.size()] == '.' &&
        name.find('.', prefix.size() + 1) == std::string_view::npos)
      names.push_back(name.substr(prefix.size() + 1));
  }
  return names;
}

std::string_view closestName(std::string_view name, const std::vector<std::string_view> &candidates) {
  // A third of the name may be mistyped: 'syncthread' for 'syncthreads',
  // 'sqr' for 'sqrt', but no guess for one-letter names (cuda.threadIdx.w).
  const unsigned allowed = static_cast<unsigned>(name.size()) / 3;
  std::string_view best;
  unsigned bestDistance = allowed + 1;
  for (std::string_view candidate : candidates) {
    const unsigned distance = llvm::StringRef(candidate).edit_distance_insensitive(name);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

bool isUnsupportedPythonBuiltin(std::string_view name) {
  static constexpr std::string_view builtins[] = {
      "aiter",     "all",     "anext",    "any",        "ascii",        "bin",          "breakpoint", "bytearray",
      "bytes",     "callable", "chr",     "classmethod", "compile",     "delattr",    "dict",
      "dir",       "divmod",  "enumerate", "eval",      "exec",         "filter",       "format",     "frozenset",
      "getattr",   "globals", "hasattr",  "hash",       "help",         "hex",          "id",         "input",
      "isinstance", "issubclass", "iter", "list",       "locals",       "map",          "memoryview", "next",
      "object",    "oct",     "open",     "ord",        "pow",          "property",     "repr",       "reversed",
      "set",       "setattr", "slice",    "sorted",     "staticmethod", "str",          "sum",        "super",
      "tuple",     "type",    "vars",     "zip",
  };
  for (std::string_view candidate : builtins)
    if (candidate == name)
      return true;
  return false;
}

} // namespace pyk
