// Launches that must compile: exact element types and ranks, writable arrays
// passed where the kernel only reads, views, and temporary arrays.
#include "kernels.pyk.h"

void launches(pyk::DeviceArray<float, 1> &x, const pyk::DeviceArray<float, 1> &y, pyk::DeviceArray<float, 1> &out,
              pyk::DeviceArray<std::int32_t, 2> &m) {
  pyk::kernels::saxpy({4, 256}, 2.0f, x, y, out);
  pyk::kernels::saxpy({{2, 2}, {16, 16}, 0, nullptr}, 2.0f, x.view(), y.view(), out.view());
  pyk::kernels::fill({1, 32}, m, 7, true);
  // A temporary lives until the launch statement ends.
  pyk::kernels::saxpy({1, 32}, 2.0f, pyk::to_device(std::vector<float>(4)), y, out);
}
