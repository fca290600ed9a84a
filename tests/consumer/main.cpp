// Uses pyk the way the documentation says: include the generated header,
// move data to the device, launch, copy back, check.
#include "saxpy.pyk.h"
#include "vec.ops.pyk.h"

#include <cstdio>
#include <vector>

int main() {
  const int n = 10007;
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  auto dx = pyk::to_device(x), dy = pyk::to_device(y);
  auto dout = pyk::device_empty_like(dx);
  const unsigned threads = 128, blocks = (n + threads - 1) / threads;
  pyk::kernels::saxpy({blocks, threads}, 2.0f, dx, dy, dout);
  dout.copy_to_host(out);

  std::vector<float> m(2 * 50, 1.5f);
  auto dm = pyk::to_device(m, {50, 2});
  pyk::kernels::scale_rows({1, 64}, dm, 2.0f);
  dm.copy_to_host(m);

  pyk::kernels::vec_ops_pyk::negate({blocks, threads}, dout);
  dout.copy_to_host(out);

  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += out[i] != -(2.0f * static_cast<float>(i) + 1.0f);
  for (float v : m)
    wrong += v != 3.0f;
  std::printf("consumer on %s: %d wrong\n", pyk::device_name().c_str(), wrong);
  return wrong == 0 ? 0 : 1;
}
