// Runs local_memory.pyk: kernels that synchronise with 400 KiB of local
// arrays per thread (the most of them in a device function, in one), which
// the CPU device must give stacks large enough, with the default
// PYK_CPU_FIBER_STACK. The sums are of small integers, exact in float32.
#include "Checks.h"
#include "local_memory.pyk.h"

#include <cstdint>
#include <vector>

int main() {
  Checks checks;
  const int blocks = 3, threads = 64, n = blocks * threads;
  const long long local = 102400;
  long long rampSum = 0; // the sum of k % 7 for k < local
  for (long long k = 0; k < local; ++k)
    rampSum += k % 7;

  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>(i % 13);
  auto dx = pyk::to_device(x);
  auto dout = pyk::device_empty<float>({n});
  pyk::kernels::rotate_sums({blocks, threads}, dx, dout);
  std::vector<float> out(n);
  dout.copy_to_host(out);
  for (int i = 0; i < n; ++i) {
    const int from = i / threads * threads + (i % threads + 1) % threads;
    checks.equal("rotate_sums", i, out[i], double(local * (from % 13) + rampSum));
  }

  auto dtotals = pyk::device_empty<std::int64_t>({n});
  pyk::kernels::through_device_function({blocks, threads}, dtotals);
  std::vector<std::int64_t> totals(n);
  dtotals.copy_to_host(totals);
  for (int i = 0; i < n; ++i) {
    const long long t = i % threads;
    // mine: 40000 t + 8000 * (0+1+2+3+4); theirs: 60000 t + 12000 * 10.
    checks.exact("through_device_function", totals[i], 100000 * t + 200000);
  }
  return checks.finish("local_memory");
}
