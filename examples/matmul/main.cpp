// C = A B for square matrices of 16 * 12 = 192 (a whole number of tiles,
// as the tiled kernel of Numba's documentation assumes), by the tiled and
// the naive kernel, checked against the host: the tiled kernel sums each
// dot product in the same order as the host loop, so exactly.
#include "matmul.pyk.h"

#include <cstdio>
#include <vector>

int main() {
  const int n = 192;
  std::vector<float> a(n * n), b(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>((i * 7) % 13) - 6.0f;
    b[i] = static_cast<float>((i * 5) % 11) * 0.25f;
  }
  std::vector<float> want(n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < n; ++k)
        sum += a[i * n + k] * b[k * n + j];
      want[i * n + j] = sum;
    }
  auto da = pyk::to_device(a, {n, n}), db = pyk::to_device(b, {n, n});
  auto tiled = pyk::device_empty<float>({n, n}), naive = pyk::device_empty<float>({n, n});
  const pyk::Launch launch{{n / 16, n / 16}, {16, 16}};
  pyk::kernels::fast_matmul(launch, da, db, tiled);
  pyk::kernels::matmul(launch, da, db, naive);
  std::vector<float> gotTiled(n * n), gotNaive(n * n);
  tiled.copy_to_host(gotTiled);
  naive.copy_to_host(gotNaive);
  const bool equal = gotTiled == want && gotNaive == want;
  std::printf("matmul %d x %d on %s, tiled and naive. Are results equal: %s\n", n, n, pyk::device_name().c_str(),
              equal ? "True" : "False");
  return equal ? 0 : 1;
}
