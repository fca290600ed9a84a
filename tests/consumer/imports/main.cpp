// Prints what the imported device function makes of 1.0.
#include "kernels.pyk.h"

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> x(1, 1.0f);
  auto dx = pyk::to_device(x);
  pyk::kernels::apply({1, 32}, dx);
  dx.copy_to_host(x);
  std::printf("imports: %g\n", x[0]);
}
