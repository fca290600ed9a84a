// Runs negative_indices.pyk: every negative index reads and writes the
// element Python's indexing names.
#include "Checks.h"
#include "negative_indices.pyk.h"

#include <vector>

int main() {
  Checks checks;
  const int n = 100;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>(i * i % 37);
  auto dx = pyk::to_device(x);
  auto dleft = pyk::device_empty<float>({n}), dright = pyk::device_empty<float>({n});
  pyk::kernels::neighbours({(n + 31) / 32, 32}, dx, dleft, dright);
  std::vector<float> left(n), right(n);
  dleft.copy_to_host(left);
  dright.copy_to_host(right);
  for (int i = 0; i < n; ++i) {
    checks.equal("x[i - 1]", i, left[i], x[(i + n - 1) % n]);
    checks.equal("x[(i + 1) % n]", i, right[i], x[(i + 1) % n]);
  }

  const int rows = 5, cols = 7;
  std::vector<float> m(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    m[i] = static_cast<float>(i);
  auto dm = pyk::to_device(m, {rows, cols});
  auto dout = pyk::device_empty<float>({5});
  pyk::kernels::ends({1, 32}, dx, dm, dout);
  std::vector<float> out(5), x2(n), m2(rows * cols);
  dout.copy_to_host(out);
  dx.copy_to_host(x2);
  dm.copy_to_host(m2);
  checks.equal("x[-1]", out[0], x[n - 1]);
  checks.equal("x[-n]", out[1], x[0]);
  checks.equal("m[-1, -2]", out[2], m[(rows - 1) * cols + cols - 2]);
  checks.equal("at(x, -2)", out[3], x[n - 2]);
  checks.equal("tile[-1]", out[4], 30.0);
  checks.equal("x[-1] = 100", x2[n - 1], 100.0);
  checks.equal("m[-1, 0] = 200", m2[(rows - 1) * cols], 200.0);

  // The blur's borders read the last row and column, as under Numba.
  auto dim = pyk::to_device(m, {rows, cols});
  auto dblur = pyk::device_empty<float>({rows, cols});
  pyk::kernels::blur_rows({{1, 1}, {8, 8}}, dim, dblur);
  std::vector<float> blur(rows * cols);
  dblur.copy_to_host(blur);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const float want =
          (m[r * cols + (c + cols - 1) % cols] + m[r * cols + c] + m[((r + rows - 1) % rows) * cols + c]) / 3.0f;
      checks.equal("blur_rows", r * cols + c, blur[r * cols + c], want);
    }

  std::vector<std::int32_t> keys = {-1, -2, 3, -8, 0, -1, 7, 2};
  auto dkeys = pyk::to_device(keys);
  auto dbins = pyk::to_device(std::vector<std::int32_t>(8, 0));
  auto dmirrored = pyk::device_empty<std::int32_t>({8});
  pyk::kernels::counts({1, 32}, dkeys, dbins, dmirrored);
  std::vector<std::int32_t> bins(8), mirrored(8);
  dbins.copy_to_host(bins);
  dmirrored.copy_to_host(mirrored);
  std::vector<std::int32_t> want(8, 0), wantMirrored(8, 0);
  for (std::int32_t k : keys) {
    ++want[(k + 8) % 8];
    ++wantMirrored[7 - ((k % 8) + 8) % 8]; // shared[-1 - k % 8], Python's %
  }
  for (int b = 0; b < 8; ++b) {
    checks.equal("atomic at a negative index", b, bins[b], want[b]);
    checks.equal("shared atomic at a negative index", b, mirrored[b], wantMirrored[b]);
  }
  return checks.finish("negative_indices");
}
