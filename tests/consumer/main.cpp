// Uses pyk the way the documentation says: include the generated header,
// move data to the device, launch, copy back, check.
#include "lazy.pyk.h"
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

  // One kernel, two versions: the overload is chosen by the array's type.
  std::vector<float> singles(100, 2.0f);
  std::vector<double> doubles(100, 2.0);
  auto dsingles = pyk::to_device(singles);
  auto ddoubles = pyk::to_device(doubles);
  pyk::kernels::scale_all({1, 128}, dsingles, 1.5f);
  pyk::kernels::scale_all({1, 128}, ddoubles, 0.25);
  dsingles.copy_to_host(singles);
  ddoubles.copy_to_host(doubles);

  int wrong = 0;
  for (float v : singles)
    wrong += v != 3.0f;
  for (double v : doubles)
    wrong += v != 0.5;
  for (int i = 0; i < n; ++i)
    wrong += out[i] != -(2.0f * static_cast<float>(i) + 1.0f);
  for (float v : m)
    wrong += v != 3.0f;
  std::printf("consumer on %s: %d wrong\n", pyk::device_name().c_str(), wrong);
  return wrong == 0 ? 0 : 1;
}
