// The small shared pieces of Bench.h: sizes, names, progress lines.
#include "Bench.h"

#include <cstdarg>
#include <cstdio>

namespace bench {

Sizes sizesFor(bool large) {
  if (large) // H200: 60 MB of L2; every kernel's data is 3x to 30x that
    return {std::int64_t{1} << 28, 16384, 4096, std::int64_t{1} << 28, std::int64_t{1} << 28, 2000};
  return {std::int64_t{1} << 20, 512, 128, std::int64_t{1} << 20, std::int64_t{1} << 20, 50};
}

const char *implName(Impl impl) {
  switch (impl) {
  case PykPtx:
    return "pyk PTX";
  case PykPtx32:
    return "pyk PTX i32";
  case PykCuda:
    return "pyk CUDA C++";
  case Hand:
    return "hand-written CUDA";
  case Numba:
    return "Numba";
  case ImplCount:
    break;
  }
  return "?";
}

void step(const char *format, ...) {
  std::printf("gpu_bench: ");
  va_list args;
  va_start(args, format);
  std::vprintf(format, args);
  va_end(args);
  std::printf("\n");
  std::fflush(stdout);
}

} // namespace bench
