// One library of the linkage test, compiled once per library with its own
// kernels.pyk: LIBRARY_ENTRY names the function it exports, which runs the
// library's kernel 'scale' on `x`.
#include "kernels.pyk.h"

#include <vector>

std::vector<float> LIBRARY_ENTRY(const std::vector<float> &x) {
  auto input = pyk::to_device(x);
  auto output = pyk::device_empty_like(input);
  pyk::kernels::scale({1, 256}, input, output);
  std::vector<float> result(x.size());
  output.copy_to_host(result);
  return result;
}
