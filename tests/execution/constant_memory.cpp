// Runs constant_memory.pyk: NumPy array constants, which pykc computes and
// places in constant memory, read back as NumPy gives them (the values
// below are NumPy's, worked out by hand).
#include "Checks.h"
#include "constant_memory.pyk.h"

#include <cstdint>
#include <limits>
#include <vector>

int main() {
  Checks checks;
  const int n = 40;
  const float inf = std::numeric_limits<float>::infinity();
  const float prices[] = {1.5f, 2.25f, -3.0f, inf};
  const double ramp[] = {-1.0, 1.5, 4.0, 6.5, 9.0};                    // np.arange(5) * 2.5 - 1
  const float grid[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};               // np.linspace(0, 1, 5)
  const std::int64_t table[2][3] = {{1, -2, 3}, {40, 50, -60}};
  const std::int64_t powers[] = {3, 9, 27, 81};                        // 3 ** np.arange(1, 5)
  const std::int64_t flags[] = {1, 0, 1};

  auto d32 = pyk::device_empty<float>({n, 2});
  auto d64 = pyk::device_empty<double>({n, 2});
  auto dints = pyk::device_empty<std::int64_t>({n, 2});
  pyk::kernels::read_constants({2, 32}, d32, d64, dints);
  std::vector<float> got32(n * 2);
  std::vector<double> got64(n * 2);
  std::vector<std::int64_t> gotInts(n * 2);
  d32.copy_to_host(got32);
  d64.copy_to_host(got64);
  dints.copy_to_host(gotInts);
  for (int i = 0; i < n; ++i) {
    checks.equal("PRICES[i % 4]", i, got32[i * 2], prices[i % 4]);
    checks.equal("c[i % 5]", i, got32[i * 2 + 1], grid[i % 5]);
    checks.equal("RAMP[i % 5]", i, got64[i * 2], ramp[i % 5]);
    checks.equal("total(c)", i, got64[i * 2 + 1], 2.5);
    checks.exact("TABLE[i % 2, i % 3]", gotInts[i * 2], table[i % 2][i % 3]);
    checks.exact("POWERS[i % 4] + FLAGS[i % 3]", gotInts[i * 2 + 1], powers[i % 4] + flags[i % 3]);
  }
  return checks.finish("constant_memory");
}
