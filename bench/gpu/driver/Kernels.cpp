// The eleven kernels: inputs, CPU references, and each one's four
// implementations (pyk through LLVM's PTX, the same with 32-bit element
// offsets, pyk through its CUDA C++ and nvcc, hand-written CUDA), all
// launched with the same grid and block shapes on the same device arrays,
// so that only the kernels' code differs.
#include "Bench.h"
#include "CudaCheck.h"
#include "HostData.h"
#include "KernelRunner.h"

// The PTX path's kernels keep their .pyk names; the CUDA C++ path's are
// the same files with every kernel renamed NAME_cu, and the PTX path's
// with --index-bits=32 NAME_i32 (bench/gpu/prepare).
#include "elementwise.pyk.h"
#include "elementwise_cu.pyk.h"
#include "elementwise_i32.pyk.h"
#include "grid_sync.pyk.h"
#include "grid_sync_cu.pyk.h"
#include "grid_sync_i32.pyk.h"
#include "histogram.pyk.h"
#include "histogram_cu.pyk.h"
#include "histogram_i32.pyk.h"
#include "matmul.pyk.h"
#include "matmul_cu.pyk.h"
#include "matmul_i32.pyk.h"
#include "reduction.pyk.h"
#include "reduction_cu.pyk.h"
#include "reduction_i32.pyk.h"
#include "stencil.pyk.h"
#include "stencil_cu.pyk.h"
#include "stencil_i32.pyk.h"

#include "handwritten.h"

#include <cmath>
#include <complex>
#include <cstdio>

namespace bench {
namespace {

using pyk::kernels::block_sum, pyk::kernels::block_sum_cu, pyk::kernels::block_sum_i32, pyk::kernels::warp_sum,
    pyk::kernels::warp_sum_cu, pyk::kernels::warp_sum_i32;

std::string describe(std::int64_t count, const char *type) {
  char text[64];
  const int log2 = static_cast<int>(std::lround(std::log2(static_cast<double>(count))));
  if (std::int64_t{1} << log2 == count)
    std::snprintf(text, sizeof text, "2^%d %s", log2, type);
  else
    std::snprintf(text, sizeof text, "%lld %s", static_cast<long long>(count), type);
  return text;
}

unsigned blocksFor(std::int64_t threads, unsigned perBlock) {
  return static_cast<unsigned>((threads + perBlock - 1) / perBlock);
}

void handCheck(cudaError_t result, const char *kernel) { cudaCheck(result, kernel); }

/// vector_add and saxpy share their inputs: 2^28 floats are 1 GiB each.
void elementwise(const Context &context, std::int64_t n, std::vector<KernelRow> &rows) {
  step("elementwise: making %s inputs and references", describe(n, "float32").c_str());
  const float a = 1.75f;
  std::vector<float> x(n), y(n), sum(n), saxpyWant(n), got(n);
  parallelFor(n, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      x[i] = uniformFloat(1, i, -1.0f, 1.0f);
      y[i] = uniformFloat(2, i, -1.0f, 1.0f);
      sum[i] = x[i] + y[i];
      saxpyWant[i] = a * x[i] + y[i];
    }
  });
  auto dx = pyk::to_device(x), dy = pyk::to_device(y);
  auto out = pyk::device_empty<float>({n});
  const unsigned blocks = blocksFor(n, 256);
  const hand::Shape shape{blocks, 1, 256, 1};
  auto checkAgainst = [&](const std::vector<float> *want, double tolerance) {
    return Check{[&] { deviceFill(context.gpu, out.data(), 0xFF, out.bytes()); },
                 [&, want, tolerance] {
                   out.copy_to_host(got);
                   Mismatches bad("out");
                   for (std::int64_t i = 0; i < n; ++i)
                     bad.check(i, got[i], (*want)[i], tolerance);
                   return bad.result();
                 },
                 {}};
  };

  KernelRow add{"vector_add", describe(n, "float32"), 12.0 * n, 1.0 * n, true};
  runVariants(context, add,
              {{PykPtx, [&] { pyk::kernels::vector_add({blocks, 256}, dx, dy, out); }},
               {PykPtx32, [&] { pyk::kernels::vector_add_i32({blocks, 256}, dx, dy, out); }},
               {PykCuda, [&] { pyk::kernels::vector_add_cu({blocks, 256}, dx, dy, out); }},
               {Hand, [&] { handCheck(hand::vector_add(shape, dx.data(), dy.data(), out.data(), int(n)), "vector_add"); }}},
              checkAgainst(&sum, 0.0));
  rows.push_back(add);

  // a * x + y may or may not become one fma: allow the rounding of one.
  KernelRow saxpy{"saxpy", describe(n, "float32"), 12.0 * n, 2.0 * n, true};
  runVariants(context, saxpy,
              {{PykPtx, [&] { pyk::kernels::saxpy({blocks, 256}, a, dx, dy, out); }},
               {PykPtx32, [&] { pyk::kernels::saxpy_i32({blocks, 256}, a, dx, dy, out); }},
               {PykCuda, [&] { pyk::kernels::saxpy_cu({blocks, 256}, a, dx, dy, out); }},
               {Hand, [&] { handCheck(hand::saxpy(shape, a, dx.data(), dy.data(), out.data(), int(n)), "saxpy"); }}},
              checkAgainst(&saxpyWant, 1e-6));
  rows.push_back(saxpy);

  // float16: half the bytes of saxpy. One fma or two roundings: allow the
  // rounding of one, a float16 unit (2^-9 for the results, all below 4).
  std::vector<pyk::float16> hx(n), hy(n), haxpyWant(n), hgot(n);
  const pyk::float16 ha(a);
  parallelFor(n, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      hx[i] = pyk::float16(x[i]);
      hy[i] = pyk::float16(y[i]);
      haxpyWant[i] = ha * hx[i] + hy[i];
    }
  });
  auto dhx = pyk::to_device(hx), dhy = pyk::to_device(hy);
  auto hout = pyk::device_empty<pyk::float16>({n});
  auto bits = [](auto &array) { return reinterpret_cast<std::uint16_t *>(array.data()); };
  KernelRow haxpy{"haxpy", describe(n, "float16"), 6.0 * n, 2.0 * n, true};
  runVariants(context, haxpy,
              {{PykPtx, [&] { pyk::kernels::haxpy({blocks, 256}, ha, dhx, dhy, hout); }},
               {PykPtx32, [&] { pyk::kernels::haxpy_i32({blocks, 256}, ha, dhx, dhy, hout); }},
               {PykCuda, [&] { pyk::kernels::haxpy_cu({blocks, 256}, ha, dhx, dhy, hout); }},
               {Hand, [&] {
                  handCheck(hand::haxpy(shape, ha.bits(), bits(dhx), bits(dhy), bits(hout), int(n)), "haxpy");
                }}},
              Check{[&] { deviceFill(context.gpu, hout.data(), 0xFF, hout.bytes()); },
                    [&] {
                      hout.copy_to_host(hgot);
                      Mismatches bad("out");
                      for (std::int64_t i = 0; i < n; ++i)
                        bad.check(i, float(hgot[i]), float(haxpyWant[i]), 0x1p-9);
                      return bad.result();
                    },
                    {}});
  rows.push_back(haxpy);

  // complex64: twice saxpy's bytes, the product's four multiplications and
  // two additions, then the sum's two. fma or not: allow a few roundings.
  using Complex = std::complex<float>;
  std::vector<Complex> cx(n), cy(n), caxpyWant(n), cgot(n);
  const Complex ca(a, -0.5f);
  parallelFor(n, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      cx[i] = Complex(x[i], y[i]);
      cy[i] = Complex(y[i], -x[i]);
      caxpyWant[i] = Complex(ca.real() * cx[i].real() - ca.imag() * cx[i].imag() + cy[i].real(),
                             ca.real() * cx[i].imag() + ca.imag() * cx[i].real() + cy[i].imag());
    }
  });
  auto dcx = pyk::to_device(cx), dcy = pyk::to_device(cy);
  auto cout = pyk::device_empty<Complex>({n});
  auto floats = [](auto &array) { return reinterpret_cast<float *>(array.data()); };
  KernelRow caxpy{"caxpy", describe(n, "complex64"), 24.0 * n, 8.0 * n, true};
  runVariants(context, caxpy,
              {{PykPtx, [&] { pyk::kernels::caxpy({blocks, 256}, ca, dcx, dcy, cout); }},
               {PykPtx32, [&] { pyk::kernels::caxpy_i32({blocks, 256}, ca, dcx, dcy, cout); }},
               {PykCuda, [&] { pyk::kernels::caxpy_cu({blocks, 256}, ca, dcx, dcy, cout); }},
               {Hand, [&] {
                  handCheck(hand::caxpy(shape, ca.real(), ca.imag(), floats(dcx), floats(dcy), floats(cout), int(n)),
                            "caxpy");
                }}},
              Check{[&] { deviceFill(context.gpu, cout.data(), 0xFF, cout.bytes()); },
                    [&] {
                      cout.copy_to_host(cgot);
                      Mismatches bad("out");
                      for (std::int64_t i = 0; i < n; ++i) {
                        bad.check(i, cgot[i].real(), caxpyWant[i].real(), 1e-6);
                        bad.check(i, cgot[i].imag(), caxpyWant[i].imag(), 1e-6);
                      }
                      return bad.result();
                    },
                    {}});
  rows.push_back(caxpy);
}

/// One Jacobi step on a side x side grid; only the interior is written.
void stencil(const Context &context, std::int64_t side, std::vector<KernelRow> &rows) {
  step("jacobi_step: making a %lld x %lld float32 grid and its reference", static_cast<long long>(side),
       static_cast<long long>(side));
  const std::int64_t n = side * side;
  std::vector<float> src(n), want(n), got(n);
  parallelFor(n, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t k = begin; k < end; ++k)
      src[k] = uniformFloat(3, k, 0.0f, 1.0f);
  });
  parallelFor(side, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = std::max<std::int64_t>(begin, 1); i < std::min(end, side - 1); ++i)
      for (std::int64_t j = 1; j < side - 1; ++j) {
        const std::int64_t k = i * side + j;
        want[k] = 0.25f * (src[k - side] + src[k + side] + src[k - 1] + src[k + 1]);
      }
  });
  auto dsrc = pyk::to_device(src, {side, side});
  auto ddst = pyk::device_empty<float>({side, side});
  const pyk::Launch launch{{blocksFor(side, 32), blocksFor(side, 8)}, {32, 8}};
  const hand::Shape shape{blocksFor(side, 32), blocksFor(side, 8), 32, 8};
  Check check{[&] { deviceFill(context.gpu, ddst.data(), 0xFF, ddst.bytes()); },
              [&] {
                ddst.copy_to_host(got);
                Mismatches bad("dst", side);
                for (std::int64_t i = 1; i < side - 1; ++i)
                  for (std::int64_t j = 1; j < side - 1; ++j)
                    bad.check(i * side + j, got[i * side + j], want[i * side + j], 1e-6);
                return bad.result();
              },
              {}};
  KernelRow row{"jacobi_step", std::to_string(side) + "^2 float32", 8.0 * n, 4.0 * (side - 2) * (side - 2), true};
  runVariants(context, row,
              {{PykPtx, [&] { pyk::kernels::jacobi_step(launch, dsrc, ddst); }},
               {PykPtx32, [&] { pyk::kernels::jacobi_step_i32(launch, dsrc, ddst); }},
               {PykCuda, [&] { pyk::kernels::jacobi_step_cu(launch, dsrc, ddst); }},
               {Hand, [&] {
                  handCheck(hand::jacobi_step(shape, dsrc.data(), ddst.data(), int(side), int(side)), "jacobi_step");
                }}},
              check);
  rows.push_back(row);
}

/// Naive and tiled C = A @ B. The check: every element written (no NaN
/// left of the poison) and 1024 sampled elements against a float64 dot
/// product, within float32's rounding of a sum of n products.
void matmul(const Context &context, std::int64_t n, std::vector<KernelRow> &rows) {
  step("matmul: making two %lld x %lld float32 matrices", static_cast<long long>(n), static_cast<long long>(n));
  std::vector<float> A(n * n), B(n * n), got(n * n);
  parallelFor(n * n, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t k = begin; k < end; ++k) {
      A[k] = uniformFloat(4, k, -1.0f, 1.0f);
      B[k] = uniformFloat(5, k, -1.0f, 1.0f);
    }
  });
  auto dA = pyk::to_device(A, {n, n}), dB = pyk::to_device(B, {n, n});
  auto dC = pyk::device_empty<float>({n, n});
  const pyk::Launch launch{{blocksFor(n, 16), blocksFor(n, 16)}, {16, 16}};
  const hand::Shape shape{blocksFor(n, 16), blocksFor(n, 16), 16, 16};
  Check check{[&] { deviceFill(context.gpu, dC.data(), 0xFF, dC.bytes()); },
              [&] {
                dC.copy_to_host(got);
                Mismatches bad("C", n);
                for (std::int64_t k = 0; k < n * n; ++k)
                  if (std::isnan(got[k]))
                    bad.check(k, got[k], 0.0, 0.0);
                for (std::uint64_t sample = 0; sample < 1024; ++sample) {
                  const std::int64_t i = uniformInt(6, sample, 0, n - 1), j = uniformInt(7, sample, 0, n - 1);
                  double want = 0, magnitude = 0;
                  for (std::int64_t k = 0; k < n; ++k) {
                    want += double(A[i * n + k]) * B[k * n + j];
                    magnitude += std::fabs(double(A[i * n + k]) * B[k * n + j]);
                  }
                  bad.check(i * n + j, got[i * n + j], want, 1e-4 * magnitude + 1e-6);
                }
                return bad.result();
              },
              {}};
  const double flops = 2.0 * n * n * n, bytes = 12.0 * n * n;
  KernelRow naive{"matmul_naive", std::to_string(n) + "^2 float32", bytes, flops, false};
  runVariants(context, naive,
              {{PykPtx, [&] { pyk::kernels::matmul_naive(launch, dA, dB, dC); }},
               {PykPtx32, [&] { pyk::kernels::matmul_naive_i32(launch, dA, dB, dC); }},
               {PykCuda, [&] { pyk::kernels::matmul_naive_cu(launch, dA, dB, dC); }},
               {Hand, [&] { handCheck(hand::matmul_naive(shape, dA.data(), dB.data(), dC.data(), int(n)), "matmul_naive"); }}},
              check);
  rows.push_back(naive);
  KernelRow tiled{"matmul_tiled", std::to_string(n) + "^2 float32", bytes, flops, false};
  runVariants(context, tiled,
              {{PykPtx, [&] { pyk::kernels::matmul_tiled(launch, dA, dB, dC); }},
               {PykPtx32, [&] { pyk::kernels::matmul_tiled_i32(launch, dA, dB, dC); }},
               {PykCuda, [&] { pyk::kernels::matmul_tiled_cu(launch, dA, dB, dC); }},
               {Hand, [&] { handCheck(hand::matmul_tiled(shape, dA.data(), dB.data(), dC.data(), int(n)), "matmul_tiled"); }}},
              check);
  rows.push_back(tiled);
}

/// block_sum over int64 and warp_sum over float64: both sums are exact
/// (small integers; multiples of 1/8 whose partial sums fit float64's
/// mantissa), whatever order the blocks' atomics land in.
void reductions(const Context &context, std::int64_t n, std::vector<KernelRow> &rows) {
  const unsigned blocks = context.gridStrideBlocks;
  const hand::Shape shape{blocks, 1, 256, 1};
  {
    step("block_sum: making %s values", describe(n, "int64").c_str());
    std::vector<std::int64_t> x(n);
    parallelFor(n, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end; ++i)
        x[i] = uniformInt(8, i, -1000, 1000);
    });
    std::int64_t want = 0;
    for (std::int64_t value : x)
      want += value;
    auto dx = pyk::to_device(x);
    auto total = pyk::to_device(std::vector<std::int64_t>{0});
    auto clear = [&] { deviceFill(context.gpu, total.data(), 0, total.bytes()); };
    Check check{clear,
                [&] {
                  std::vector<std::int64_t> got(1);
                  total.copy_to_host(got);
                  Mismatches bad("total");
                  bad.check(0, double(got[0]), double(want), 0.0);
                  return got[0] == want ? std::string() : bad.result() + "(exact: " + std::to_string(got[0]) +
                                                              " want " + std::to_string(want) + ")";
                },
                clear};
    KernelRow row{"block_sum", describe(n, "int64"), 8.0 * n, 0.0, true};
    runVariants(context, row,
                {{PykPtx, [&] { block_sum({blocks, 256}, dx, total); }},
                 {PykPtx32, [&] { block_sum_i32({blocks, 256}, dx, total); }},
                 {PykCuda, [&] { block_sum_cu({blocks, 256}, dx, total); }},
                 {Hand, [&] { handCheck(hand::block_sum(shape, dx.data(), total.data(), n), "block_sum"); }}},
                check);
    rows.push_back(row);
  }
  {
    step("warp_sum: making %s values", describe(n, "float64").c_str());
    std::vector<double> x(n);
    parallelFor(n, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end; ++i)
        x[i] = static_cast<double>(uniformInt(9, i, -500, 500)) / 8.0;
    });
    double want = 0;
    for (double value : x)
      want += value;
    auto dx = pyk::to_device(x);
    auto total = pyk::to_device(std::vector<double>{0.0});
    auto clear = [&] { deviceFill(context.gpu, total.data(), 0, total.bytes()); };
    Check check{clear,
                [&] {
                  std::vector<double> got(1);
                  total.copy_to_host(got);
                  Mismatches bad("total");
                  bad.check(0, got[0], want, 0.0);
                  return bad.result();
                },
                clear};
    KernelRow row{"warp_sum", describe(n, "float64"), 8.0 * n, 1.0 * n, true};
    runVariants(context, row,
                {{PykPtx, [&] { warp_sum({blocks, 256}, dx, total); }},
                 {PykPtx32, [&] { warp_sum_i32({blocks, 256}, dx, total); }},
                 {PykCuda, [&] { warp_sum_cu({blocks, 256}, dx, total); }},
                 {Hand, [&] { handCheck(hand::warp_sum(shape, dx.data(), total.data(), n), "warp_sum"); }}},
                check);
    rows.push_back(row);
  }
}

/// 64 bins, counted exactly on the host.
void histogram(const Context &context, std::int64_t n, std::vector<KernelRow> &rows) {
  step("histogram: making %s values", describe(n, "int32").c_str());
  constexpr int bins = 64;
  std::vector<std::int32_t> data(n);
  parallelFor(n, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i)
      data[i] = static_cast<std::int32_t>(hashBits(10, i) & 0x7FFFFFFF);
  });
  std::vector<std::uint32_t> want(bins, 0);
  for (std::int32_t value : data)
    ++want[value % bins];
  auto ddata = pyk::to_device(data);
  auto dbins = pyk::to_device(std::vector<std::uint32_t>(bins, 0));
  auto clear = [&] { deviceFill(context.gpu, dbins.data(), 0, dbins.bytes()); };
  Check check{clear,
              [&] {
                std::vector<std::uint32_t> got(bins);
                dbins.copy_to_host(got);
                Mismatches bad("bins");
                for (int b = 0; b < bins; ++b)
                  bad.check(b, got[b], want[b], 0.0);
                return bad.result();
              },
              clear};
  const unsigned blocks = context.gridStrideBlocks;
  KernelRow row{"histogram", describe(n, "int32"), 4.0 * n, 0.0, true};
  runVariants(context, row,
              {{PykPtx, [&] { pyk::kernels::histogram({blocks, 256}, ddata, dbins); }},
               {PykPtx32, [&] { pyk::kernels::histogram_i32({blocks, 256}, ddata, dbins); }},
               {PykCuda, [&] { pyk::kernels::histogram_cu({blocks, 256}, ddata, dbins); }},
               {Hand, [&] {
                  handCheck(hand::histogram({blocks, 1, 256, 1}, ddata.data(), dbins.data(), n), "histogram");
                }}},
              check);
  rows.push_back(row);
}

/// `steps` steps of the heat equation in one cooperative launch of
/// context.gridStrideBlocks blocks of 128 threads, one point per thread:
/// the time is mostly the grid barrier's, pyk's against cooperative
/// groups' grid.sync().
void gridSync(const Context &context, int steps, std::vector<KernelRow> &rows) {
  const unsigned blocks = context.gridStrideBlocks, threads = 128;
  const std::int64_t n = std::int64_t{blocks} * threads;
  const float k = 0.25f;
  step("heat_steps: %lld float32 points, %d steps, each ended by a grid sync", static_cast<long long>(n), steps);
  std::vector<float> start(n), zeros(n, 0.0f), got(n);
  for (std::int64_t i = 0; i < n; ++i)
    start[i] = uniformFloat(6, i, 0.0f, 100.0f);
  std::vector<float> want = start, next(n);
  for (int s = 0; s < steps; ++s) {
    for (std::int64_t i = 0; i < n; ++i) {
      const float left = i > 0 ? want[i - 1] : 0.0f, right = i < n - 1 ? want[i + 1] : 0.0f;
      next[i] = want[i] + k * (left - 2.0f * want[i] + right);
    }
    want.swap(next);
  }
  auto buf0 = pyk::to_device(start), buf1 = pyk::to_device(zeros);
  // The last step writes buf_1 when it is step 0, 2, 4 ...
  auto &result = steps % 2 ? buf1 : buf0;
  Check check{[&] {
                buf0.copy_from_host(start);
                buf1.copy_from_host(zeros);
              },
              [&] {
                result.copy_to_host(got);
                Mismatches bad("heat");
                // Each step may contract a multiply and an add differently.
                for (std::int64_t i = 0; i < n; ++i)
                  bad.check(i, got[i], want[i], 1e-3);
                return bad.result();
              },
              {}};
  KernelRow row{"heat_steps (grid sync)", std::to_string(n) + " float32 x " + std::to_string(steps) + " steps",
                8.0 * n * steps, 0.0, true};
  runVariants(context, row,
              {{PykPtx, [&] { pyk::kernels::heat_steps({blocks, threads}, buf0, buf1, steps, k); }},
               {PykPtx32, [&] { pyk::kernels::heat_steps_i32({blocks, threads}, buf0, buf1, steps, k); }},
               {PykCuda, [&] { pyk::kernels::heat_steps_cu({blocks, threads}, buf0, buf1, steps, k); }},
               {Hand, [&] {
                  handCheck(hand::heat_steps({blocks, 1, threads, 1}, buf0.data(), buf1.data(), int(n), steps, k),
                            "heat_steps");
                }}},
              check);
  rows.push_back(row);
}

} // namespace

std::vector<KernelRow> runKernels(const Context &context, const Sizes &sizes) {
  std::vector<KernelRow> rows;
  // Each part frees its device memory before the next allocates.
  elementwise(context, sizes.elementwise, rows);
  stencil(context, sizes.stencilSide, rows);
  matmul(context, sizes.matmul, rows);
  reductions(context, sizes.reduction, rows);
  histogram(context, sizes.histogram, rows);
  gridSync(context, sizes.gridSyncSteps, rows);
  return rows;
}

} // namespace bench
