//===- LibdeviceFunctions.cpp - libdevice's functions, as cuda.libdevice --===//
#include "LibdeviceFunctions.h"

#include <algorithm>
#include <cassert>

namespace pyk {

namespace {

struct Entry {
  const char *name;
  const char *result;
  const char *params; // "(float, float *)"
};

constexpr Entry entries[] = {
#define PYK_LIBDEVICE(name, result, params) {#name, #result, #params},
#include "pyk/LibdeviceFunctions.def"
#undef PYK_LIBDEVICE
};

LibdeviceType typeNamed(std::string_view c) {
  if (c == "float")
    return {"float", ScalarKind::Float32};
  if (c == "double")
    return {"double", ScalarKind::Float64};
  if (c == "int")
    return {"int", ScalarKind::Int32};
  if (c == "long long")
    return {"long long", ScalarKind::Int64};
  // libdevice's zero-extended i16 (float2half_rn, half2float): Numba's int16.
  return {"unsigned short", ScalarKind::Int16};
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  return text;
}

LibdeviceFunction parse(const Entry &entry) {
  LibdeviceFunction function;
  function.name = entry.name;
  if (std::string_view(entry.result) != "void")
    function.result = typeNamed(entry.result);
  std::string_view params(entry.params);
  params = params.substr(1, params.size() - 2); // the parentheses
  function.cParameters = params;
  while (!params.empty()) {
    const size_t comma = params.find(',');
    std::string_view param = trimmed(params.substr(0, comma));
    params = comma == std::string_view::npos ? std::string_view() : params.substr(comma + 1);
    if (param.back() == '*')
      function.outputs.push_back(typeNamed(trimmed(param.substr(0, param.size() - 1))));
    else
      function.params.push_back(typeNamed(param));
    // The pointers come last (LibdeviceFunction::outputs).
    assert(param.back() == '*' || function.outputs.empty());
  }
  return function;
}

const std::vector<LibdeviceFunction> &table() {
  static const std::vector<LibdeviceFunction> functions = [] {
    std::vector<LibdeviceFunction> parsed;
    for (const Entry &entry : entries)
      parsed.push_back(parse(entry));
    std::sort(parsed.begin(), parsed.end(),
              [](const LibdeviceFunction &a, const LibdeviceFunction &b) { return a.name < b.name; });
    return parsed;
  }();
  return functions;
}

} // namespace

std::vector<LibdeviceType> LibdeviceFunction::values() const {
  std::vector<LibdeviceType> all;
  if (result)
    all.push_back(*result);
  all.insert(all.end(), outputs.begin(), outputs.end());
  return all;
}

const LibdeviceFunction *libdeviceFunction(std::string_view name) {
  const std::vector<LibdeviceFunction> &functions = table();
  auto found = std::lower_bound(functions.begin(), functions.end(), name,
                                [](const LibdeviceFunction &f, std::string_view n) { return f.name < n; });
  return found != functions.end() && found->name == name ? &*found : nullptr;
}

std::vector<std::string_view> libdeviceFunctionNames() {
  std::vector<std::string_view> names;
  for (const LibdeviceFunction &function : table())
    names.push_back(function.name);
  return names;
}

} // namespace pyk
