// Runs tuples.pyk and compares with the same computations in C++.
#include "Checks.h"
#include "tuples.pyk.h"

#include <algorithm>
#include <vector>

int main() {
  Checks checks;
  const int n = 300;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>((i * 37) % 101) * 0.5f;
  auto dx = pyk::to_device(x);
  auto dout = pyk::to_device(std::vector<float>(n, -1.0f));
  pyk::kernels::smooth({(n + 63) / 64, 64}, dx, dout);
  std::vector<float> out(n);
  dout.copy_to_host(out);
  checks.equal("smooth edge", 0, out[0], -1.0f);
  checks.equal("smooth edge", n - 1, out[n - 1], -1.0f);
  for (int i = 1; i < n - 1; ++i) {
    // float32 throughout: the weights are weak Python floats.
    float acc = 0.0f;
    acc += 0.25f * x[i - 1];
    acc += 0.5f * x[i];
    acc += 0.25f * x[i + 1];
    checks.equal("smooth", i, out[i], acc);
  }

  const int rows = 13, cols = 21;
  auto dtiles = pyk::device_empty<std::int32_t>({rows, cols});
  pyk::kernels::tile_ids({{4, 8}, {4, 4}}, dtiles);
  std::vector<std::int32_t> tiles(rows * cols);
  dtiles.copy_to_host(tiles);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      checks.equal("tile_ids", r * cols + c, tiles[r * cols + c], (r / 4) * 100 + c / 8);

  std::vector<std::int64_t> choices = {0, 1, 2, 3, 4, 5, -1};
  auto dchoices = pyk::to_device(choices);
  auto dpicked = pyk::device_empty<float>({static_cast<std::int64_t>(choices.size())});
  pyk::kernels::pick({1, 32}, dchoices, dpicked);
  std::vector<float> picked(choices.size());
  dpicked.copy_to_host(picked);
  const float pair[] = {1.5f, -2.0f}, weights[] = {0.25f, 0.5f, 0.25f};
  for (std::size_t i = 0; i + 1 < choices.size(); ++i)
    checks.equal("pick", static_cast<long long>(i), picked[i], pair[choices[i] % 2] + weights[choices[i] % 3]);
  checks.equal("pick[-1]", 6, picked[6], -2.0f);

  std::vector<std::int64_t> as = {3, -1, 7, 7, 0}, bs = {1, 5, 7, -9, 0};
  auto da = pyk::to_device(as), db = pyk::to_device(bs);
  const auto pairs = static_cast<std::int64_t>(as.size());
  auto dlo = pyk::device_empty<std::int64_t>({pairs}), dhi = pyk::device_empty<std::int64_t>({pairs});
  pyk::kernels::sort_pairs({1, 32}, da, db, dlo, dhi);
  std::vector<std::int64_t> lo(as.size()), hi(as.size());
  dlo.copy_to_host(lo);
  dhi.copy_to_host(hi);
  for (std::size_t i = 0; i < as.size(); ++i) {
    checks.equal("sort_pairs lo", static_cast<long long>(i), double(lo[i]), double(std::min(as[i], bs[i])));
    checks.equal("sort_pairs hi", static_cast<long long>(i), double(hi[i]), double(std::max(as[i], bs[i])));
  }

  std::vector<std::int64_t> ks = {-3, -2, -1, 0, 1, 2};
  auto dks = pyk::to_device(ks);
  auto dpicks = pyk::device_empty<std::int64_t>({static_cast<std::int64_t>(ks.size())});
  pyk::kernels::from_either_end({1, 32}, dks, dpicks);
  std::vector<std::int64_t> picks(ks.size());
  dpicks.copy_to_host(picks);
  const std::int64_t wantPicks[] = {10, 20, 30, 10, 20, 30};
  for (std::size_t i = 0; i < ks.size(); ++i)
    checks.equal("from_either_end", static_cast<long long>(i), double(picks[i]), double(wantPicks[i]));

  // Tuple parameters; the kernel writes only the (rows, cols) corner.
  auto dgrid = pyk::device_empty<std::int64_t>({6, 9});
  pyk::kernels::tuple_parameters({{2, 3}, {4, 4}}, dgrid, std::tuple<std::int64_t, std::int64_t>{5, 7},
                                 std::make_tuple(2.0f, std::int32_t{3}));
  std::vector<std::int64_t> cells(6 * 9);
  dgrid.copy_to_host(cells);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 9; ++j)
      checks.equal("tuple_parameters", i * 9 + j, double(cells[i * 9 + j]),
                   i < 5 && j < 7 ? double((i * 7 + j) * 2 + 3) : -1.0);

  return checks.finish("tuples");
}
