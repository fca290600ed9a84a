//===- FakePtx.cpp - What the fake CUDA driver reads in PTX text -----------===//
#include "FakePtx.h"

#include <algorithm>
#include <cstdlib>

namespace pyk::fake_cuda {
namespace {

/// The name of the function a PTX `.func` line declares or defines
/// ("[.extern|.visible] .func [(retval)] NAME(...").
std::string functionName(const std::string &line) {
  std::size_t at = line.find(".func") + 5;
  while (at < line.size() && line[at] == ' ')
    ++at;
  if (at < line.size() && line[at] == '(') // the return value
    at = line.find(')', at) + 1;
  while (at < line.size() && line[at] == ' ')
    ++at;
  std::size_t end = at;
  while (end < line.size() && line[end] != '(' && line[end] != ' ' && line[end] != ';')
    ++end;
  return line.substr(at, end - at);
}

} // namespace

std::vector<std::size_t> entryParamSizes(const std::string &text, const std::string &name) {
  std::vector<std::size_t> sizes;
  const std::size_t open = text.find(".entry " + name + "(");
  const std::size_t close = text.find(')', open);
  if (open == std::string::npos || close == std::string::npos)
    return sizes;
  const std::string list = text.substr(open, close - open);
  for (std::size_t at = list.find(".param"); at != std::string::npos; at = list.find(".param", at + 1)) {
    const std::size_t end = std::min(list.find(',', at), list.size());
    const std::string param = list.substr(at, end - at);
    if (std::size_t bracket = param.find('['); bracket != std::string::npos) {
      sizes.push_back(std::strtoull(param.c_str() + bracket + 1, nullptr, 10)); // .b8 name[N]
      continue;
    }
    // ".param .u64 name": the type's letter, then its bits.
    const std::size_t type = param.find('.', 1);
    sizes.push_back(type == std::string::npos ? 8 : std::strtoull(param.c_str() + type + 2, nullptr, 10) / 8);
  }
  return sizes;
}

std::string unresolvedFunction(const std::string &ptx) {
  std::vector<std::string> declared, defined;
  std::size_t start = 0;
  while (start < ptx.size()) {
    std::size_t end = ptx.find('\n', start);
    if (end == std::string::npos)
      end = ptx.size();
    const std::string line = ptx.substr(start, end - start);
    if (line.find(".func") != std::string::npos && line.find("//") != 0)
      (line.find(".extern") != std::string::npos ? declared : defined).push_back(functionName(line));
    start = end + 1;
  }
  for (const std::string &name : declared)
    if (std::find(defined.begin(), defined.end(), name) == defined.end())
      return name;
  return "";
}

} // namespace pyk::fake_cuda
