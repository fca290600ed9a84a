// Launches that must not compile, one per macro.
#include "kernels.pyk.h"

void launch(pyk::DeviceArray<float, 1> &x, pyk::DeviceArray<double, 1> &d, pyk::DeviceArray<float, 2> &x2,
            const pyk::DeviceArray<float, 1> &constOut) {
#if defined(WRONG_ELEMENT)
  pyk::kernels::saxpy({1, 32}, 2.0f, d, x, x); // float64 array for a float32 parameter
#elif defined(WRONG_RANK)
  pyk::kernels::saxpy({1, 32}, 2.0f, x2, x, x); // 2-D array for a 1-D parameter
#elif defined(CONST_OUTPUT)
  pyk::kernels::saxpy({1, 32}, 2.0f, x, x, constOut); // the kernel writes 'out'
#elif defined(VIEW_OF_TEMPORARY)
  pyk::ArrayView<const float, 1> view = pyk::to_device(std::vector<float>(4)); // freed at the ';'
  pyk::kernels::saxpy({1, 32}, 2.0f, view, x, x);
#elif defined(VIEW_METHOD_OF_TEMPORARY)
  pyk::ArrayView<const float, 1> view = pyk::to_device(std::vector<float>(4)).view(); // freed at the ';'
  pyk::kernels::saxpy({1, 32}, 2.0f, view, x, x);
#endif
}
