// Runs launch_options.pyk: a launch within launch_bounds runs; a larger
// block is rejected before the kernel runs, with a message naming the bound.
#include "Checks.h"
#include "launch_options.pyk.h"

#include <cmath>
#include <string>
#include <vector>

int main() {
  Checks checks;
  std::vector<float> values(200, 1.5f);
  auto x = pyk::to_device(values);
  pyk::kernels::bounded({4, 64}, x);
  x.copy_to_host(values);
  checks.expect("bounded ran", values[0] == 3.0f && values[199] == 3.0f);

  std::string message;
  try {
    pyk::kernels::bounded({2, 128}, x);
  } catch (const pyk::LaunchConfigError &error) {
    message = error.what();
  }
  checks.expect("bounded rejects 128 threads",
                message.find("a block of 128 threads is larger than the kernel's launch_bounds of 64 threads") !=
                    std::string::npos);
  x.copy_to_host(values);
  checks.expect("rejected launch did not run", values[0] == 3.0f);

  std::vector<float> squares = {4.0f, 16.0f, 0.25f};
  auto s = pyk::to_device(squares);
  pyk::kernels::few_registers({1, 32}, s);
  s.copy_to_host(squares);
  const float want[] = {0.5f, 0.25f, 2.0f};
  for (int i = 0; i < 3; ++i)
    checks.expect("few_registers (fastmath rsqrt within 2^-20)", std::fabs(squares[i] - want[i]) <= want[i] * 0x1p-20f);

  return checks.finish("launch_options");
}
