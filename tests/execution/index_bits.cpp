// Runs index_bits.pyk, compiled with --index-bits=32: the kernels compute
// what they compute with 64-bit offsets, and a launch with an array of 2^31
// elements or more is refused before anything runs.
#include "Checks.h"
#include "index_bits.pyk.h"

#include <string>
#include <vector>

int main() {
  Checks checks;
  const int depth = 9, rows = 11, cols = 70;
  std::vector<float> src(depth * rows * cols);
  for (std::size_t n = 0; n < src.size(); ++n)
    src[n] = static_cast<float>((n * 7919) % 1000) * 0.25f;
  auto dsrc = pyk::to_device(src, {depth, rows, cols});
  auto ddst = pyk::to_device(std::vector<float>(src.size(), -1.0f), {depth, rows, cols});
  pyk::kernels::stencil_3d({{(cols + 31) / 32, (rows + 3) / 4, (depth + 1) / 2}, {32, 4, 2}}, dsrc, ddst);
  std::vector<float> dst(src.size());
  ddst.copy_to_host(dst);
  auto at = [&](int i, int j, int k) { return src[(i * rows + j) * cols + k]; };
  for (int i = 0; i < depth; ++i)
    for (int j = 0; j < rows; ++j)
      for (int k = 0; k < cols; ++k) {
        const bool interior = i > 0 && i < depth - 1 && j > 0 && j < rows - 1 && k > 0 && k < cols - 1;
        const float want = interior ? at(i - 1, j, k) + at(i + 1, j, k) + at(i, j - 1, k) + at(i, j + 1, k) +
                                          at(i, j, k - 1) + at(i, j, k + 1)
                                    : -1.0f;
        const float got = dst[(i * rows + j) * cols + k];
        checks.expect("stencil_3d[" + std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(k) +
                          "] = " + std::to_string(got) + ", want " + std::to_string(want),
                      got == want);
      }

  const int mRows = 300, mCols = 45;
  std::vector<std::int64_t> m(mRows * mCols);
  for (std::size_t n = 0; n < m.size(); ++n)
    m[n] = static_cast<std::int64_t>(n % 97) - 40;
  auto dm = pyk::to_device(m, {mRows, mCols});
  auto dsums = pyk::device_empty<std::int64_t>({mRows});
  auto dfirsts = pyk::device_empty<std::int32_t>({mRows});
  pyk::kernels::row_sums({(mRows + 127) / 128, 128}, dm, dsums, dfirsts);
  std::vector<std::int64_t> sums(mRows);
  std::vector<std::int32_t> firsts(mRows);
  dsums.copy_to_host(sums);
  dfirsts.copy_to_host(firsts);
  for (int r = 0; r < mRows; ++r) {
    std::int64_t want = 0;
    for (int c = 0; c < mCols; ++c)
      want += m[r * mCols + c];
    checks.expect("row_sums[" + std::to_string(r) + "]", sums[r] == want);
    checks.expect("row_sums firsts[" + std::to_string(r) + "]", firsts[r] == m[r * mCols]);
  }

  // 2^31 elements: refused by the launch function, before the kernel runs,
  // so the view's memory (one real element) is never read.
  std::int64_t one = 0;
  pyk::ArrayView<std::int64_t, 2> huge(&one, {std::int64_t{1} << 16, std::int64_t{1} << 15});
  try {
    pyk::kernels::row_sums({1, 32}, huge, dsums, dfirsts);
    checks.expect("a launch with an array of 2^31 elements is refused", false);
  } catch (const pyk::ShapeError &error) {
    const std::string message = error.what();
    checks.expect("the refusal names the kernel, the array and its size: " + message,
                  message.find("row_sums (from index_bits.pyk)") != std::string::npos &&
                      message.find("'m' has 2147483648 elements") != std::string::npos &&
                      message.find("--index-bits=32") != std::string::npos);
  }
  pyk::synchronize();
  checks.expect("nothing ran: the matrix is unchanged", one == 0);

  return checks.finish("index_bits");
}
