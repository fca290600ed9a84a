//===- SymbolNames.cpp - Names that generated C++ and PTX may not use ------===//
#include "SymbolNames.h"

#include <algorithm>
#include <iterator>

namespace pyk::ir {

namespace {

constexpr std::string_view keywords[] = {
#include "CxxKeywords.inc"
};

struct HeaderName {
  std::string_view name;
  bool macro;
};

constexpr HeaderName headerNames[] = {
#include "CudaHeaderNames.inc"
};

constexpr bool headerNamesSorted() {
  for (size_t i = 1; i < std::size(headerNames); ++i)
    if (!(headerNames[i - 1].name < headerNames[i].name))
      return false;
  return true;
}
static_assert(std::is_sorted(std::begin(keywords), std::end(keywords)), "binary search needs CxxKeywords.inc sorted");
static_assert(headerNamesSorted(), "binary search needs CudaHeaderNames.inc sorted");

/// The entry of the CUDA headers' table for `name`, or null.
const HeaderName *findHeaderName(std::string_view name) {
  const auto *it = std::lower_bound(std::begin(headerNames), std::end(headerNames), name,
                                    [](const HeaderName &entry, std::string_view key) { return entry.name < key; });
  return it != std::end(headerNames) && it->name == name ? it : nullptr;
}

/// Keywords, and identifiers C++ reserves or pyk keeps for its own names.
bool isReservedByRule(std::string_view name) {
  if (std::binary_search(std::begin(keywords), std::end(keywords), name))
    return true;
  // pyk_ prefixes the names pyk generates next to the user's.
  if (name.substr(0, 4) == "pyk_")
    return true;
  return name.find("__") != std::string_view::npos ||
         (name.size() > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z');
}

} // namespace

bool isReservedInCxx(std::string_view name) {
  return isReservedByRule(name) || findHeaderName(name);
}

bool isReservedInEveryScope(std::string_view name) {
  if (isReservedByRule(name))
    return true;
  const HeaderName *entry = findHeaderName(name);
  return entry && entry->macro;
}

std::string kernelSymbol(std::string_view pykName) {
  if (isReservedInCxx(pykName))
    return "pyk_" + std::string(pykName);
  return std::string(pykName);
}

std::string recordStructName(std::string_view pykName) { return kernelSymbol(pykName); }

std::string recordCxxType(const RecordType &record) {
  return record.cxxType.empty() ? "pyk::records::" + launchFunctionName(record.name) : record.cxxType;
}

std::string recordFieldName(std::string_view pykName) { return launchFunctionName(pykName); }

std::string launchFunctionName(std::string_view pykName) {
  if (isReservedInEveryScope(pykName))
    return "pyk_" + std::string(pykName);
  return std::string(pykName);
}

std::string cpuEntrySymbol(std::string_view unitId, std::string_view kernelSymbol) {
  std::string symbol = "pyk_cpu_";
  if (!unitId.empty())
    symbol.append(unitId).push_back('_');
  return symbol.append(kernelSymbol);
}

std::string fileNamespace(std::string_view baseName) {
  std::string name;
  for (char c : baseName) {
    const bool identifierChar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    const char kept = identifierChar ? c : '_';
    if (kept == '_' && !name.empty() && name.back() == '_')
      continue;
    name.push_back(kept);
  }
  // A leading digit or a leading `_` and capital cannot start it.
  if (name.empty() || (name[0] >= '0' && name[0] <= '9') || (name[0] == '_' && name.size() > 1 && name[1] >= 'A' && name[1] <= 'Z'))
    name.insert(0, "pyk_");
  if (name.back() != '_')
    name.push_back('_');
  return name + "pyk";
}

} // namespace pyk::ir
