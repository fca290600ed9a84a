// Launches printing.pyk's kernel; ctest checks what it printed.
#include "printing.pyk.h"

#include <cstdio>
#include <vector>

int main() {
  auto x = pyk::to_device(std::vector<float>{2.5f, 1.0f});
  pyk::kernels::hello({1, 32}, x, 32);
  pyk::synchronize();
  std::fflush(stdout);
  std::printf("printing done\n");
  return 0;
}
