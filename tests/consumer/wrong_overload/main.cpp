// scale_all has a float32 and a float64 version; an int32 array matches
// neither.
#include "lazy.pyk.h"

#include <vector>

int main() {
  auto values = pyk::to_device(std::vector<int>(10, 1));
  pyk::kernels::scale_all({1, 32}, values, 2);
}
