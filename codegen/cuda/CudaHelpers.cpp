//===- CudaHelpers.cpp - Device functions the generated CUDA C++ calls ----===//
#include "CudaHelpers.h"

#include <cassert>
#include <map>
#include <string>
#include <string_view>

namespace pyk::cuda {

const char *helperName(Helper helper) {
  switch (helper) {
  case Helper::Float16:
    return "__half";
  case Helper::BFloat16:
    return "__nv_bfloat16";
  case Helper::Complex:
    return "pyk_complex64";
  case Helper::Wrapping:
    return "pyk_wrapping";
  case Helper::FloatToInt:
    return "pyk_float_to_int";
  case Helper::LaneId:
    return "pyk_laneid";
  case Helper::LaneMaskLt:
    return "pyk_lanemask_lt";
  case Helper::MatchAll:
    return "pyk_match_all";
  case Helper::GridSync:
    return "pyk_grid_sync";
  case Helper::LibdeviceValues:
    return "pyk_first_of";
  case Helper::DynamicShared:
    return "pyk_dynamic_shared";
  case Helper::AtomicBits:
    return "pyk_bits";
  case Helper::AtomicAdd:
    return "pyk_atomic_add";
  case Helper::AtomicSub:
    return "pyk_atomic_sub";
  case Helper::AtomicAnd:
    return "pyk_atomic_and";
  case Helper::AtomicOr:
    return "pyk_atomic_or";
  case Helper::AtomicXor:
    return "pyk_atomic_xor";
  case Helper::AtomicMax:
    return "pyk_atomic_max";
  case Helper::AtomicMin:
    return "pyk_atomic_min";
  case Helper::AtomicExch:
    return "pyk_atomic_exch";
  case Helper::AtomicInc:
    return "pyk_atomic_inc";
  case Helper::AtomicDec:
    return "pyk_atomic_dec";
  case Helper::AtomicCas:
    return "pyk_atomic_cas";
  case Helper::AtomicNanMax:
    return "pyk_atomic_nanmax";
  case Helper::AtomicNanMin:
    return "pyk_atomic_nanmin";
  case Helper::Checks:
    return "pyk_check_failed";
  }
  return "pyk_unknown";
}

namespace {

#include "CudaPrelude.inc"

/// The name of `helper`'s section in prelude.cuh (`// pyk-helper: NAME`).
const char *sectionName(Helper helper) {
  switch (helper) {
  case Helper::Float16:
    return "Float16";
  case Helper::BFloat16:
    return "BFloat16";
  case Helper::Complex:
    return "Complex";
  case Helper::Wrapping:
    return "Wrapping";
  case Helper::FloatToInt:
    return "FloatToInt";
  case Helper::LaneId:
    return "LaneId";
  case Helper::LaneMaskLt:
    return "LaneMaskLt";
  case Helper::MatchAll:
    return "MatchAll";
  case Helper::GridSync:
    return "GridSync";
  case Helper::LibdeviceValues:
    return "LibdeviceValues";
  case Helper::DynamicShared:
    return "DynamicShared";
  case Helper::AtomicBits:
    return "AtomicBits";
  case Helper::AtomicAdd:
    return "AtomicAdd";
  case Helper::AtomicSub:
    return "AtomicSub";
  case Helper::AtomicAnd:
    return "AtomicAnd";
  case Helper::AtomicOr:
    return "AtomicOr";
  case Helper::AtomicXor:
    return "AtomicXor";
  case Helper::AtomicMax:
    return "AtomicMax";
  case Helper::AtomicMin:
    return "AtomicMin";
  case Helper::AtomicExch:
    return "AtomicExch";
  case Helper::AtomicInc:
    return "AtomicInc";
  case Helper::AtomicDec:
    return "AtomicDec";
  case Helper::AtomicCas:
    return "AtomicCas";
  case Helper::AtomicNanMax:
    return "AtomicNanMax";
  case Helper::AtomicNanMin:
    return "AtomicNanMin";
  case Helper::Checks:
    return "Checks";
  }
  return "";
}

/// Each section of prelude.cuh by name, an #include of the check record's
/// layout replaced by the header's text.
const std::map<std::string, std::string> &sections() {
  static const std::map<std::string, std::string> parsed = [] {
    const std::string marker = "\n// pyk-helper: ";
    const std::string layoutInclude = "#include \"pyk/CheckRecordLayout.h\"\n";
    const std::string_view text = preludeText;
    std::map<std::string, std::string> result;
    size_t at = text.find(marker);
    while (at != std::string_view::npos) {
      const size_t nameStart = at + marker.size();
      const size_t nameEnd = text.find('\n', nameStart);
      const size_t next = text.find(marker, nameEnd);
      // To the line before the next marker, which is blank.
      std::string section(text.substr(nameEnd + 1, next == std::string_view::npos ? next : next - nameEnd - 1));
      if (size_t include = section.find(layoutInclude); include != std::string::npos)
        section.replace(include, layoutInclude.size(), checkRecordLayoutText);
      result.emplace(std::string(text.substr(nameStart, nameEnd - nameStart)), std::move(section));
      at = next;
    }
    return result;
  }();
  return parsed;
}

} // namespace

void emitHelpers(const std::set<Helper> &helpers, llvm::raw_ostream &os) {
  if (helpers.empty())
    return;
  os << "#include <type_traits>\n";
  for (Helper helper : helpers) {
    auto section = sections().find(sectionName(helper));
    assert(section != sections().end() && "every helper has a section in prelude.cuh");
    os << "\n" << section->second;
  }
}

} // namespace pyk::cuda
