// Runs complex.pyk: complex arrays made in C++ as std::vector<std::complex>,
// each result worked out here with the algorithm Python (and pyk) uses, in
// the same precision, or for cmath against the C library's complex
// functions, to a tolerance.
#include "Checks.h"
#include "complex.pyk.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace {

template <typename T> using Complex = std::complex<T>;
using C = Complex<double>;
using F = Complex<float>;

// Python's own arithmetic (CPython's complexobject.c), which pyk states in
// lowerComplex: the textbook product, Smith's quotient, powers by squaring
// for small integral exponents and through polar form otherwise.
template <typename T> Complex<T> mul(Complex<T> a, Complex<T> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

template <typename T> Complex<T> quotient(Complex<T> a, Complex<T> b) {
  const T absReal = std::fabs(b.real()), absImag = std::fabs(b.imag());
  if (absReal >= absImag) {
    if (absReal == 0)
      return {a.real() / absReal, a.imag() / absReal};
    const T ratio = b.imag() / b.real(), denominator = b.real() + b.imag() * ratio;
    return {(a.real() + a.imag() * ratio) / denominator, (a.imag() - a.real() * ratio) / denominator};
  }
  const T ratio = b.real() / b.imag(), denominator = b.real() * ratio + b.imag();
  return {(a.real() * ratio + a.imag()) / denominator, (a.imag() * ratio - a.real()) / denominator};
}

template <typename T> Complex<T> power(Complex<T> a, Complex<T> b) {
  if (b.real() == 0 && b.imag() == 0)
    return {1, 0};
  if (b.imag() == 0 && std::floor(b.real()) == b.real() && std::fabs(b.real()) <= 100) {
    Complex<T> result{1, 0}, square = a;
    for (int rest = static_cast<int>(std::fabs(b.real())); rest > 0; rest >>= 1) {
      if (rest & 1)
        result = mul(result, square);
      square = mul(square, square);
    }
    return b.real() < 0 ? quotient(Complex<T>{1, 0}, result) : result;
  }
  const T magnitude = std::hypot(a.real(), a.imag());
  T length = std::pow(magnitude, b.real());
  const T angle = std::atan2(a.imag(), a.real());
  T phase = angle * b.real();
  if (b.imag() != 0) {
    length = length / std::exp(angle * b.imag());
    phase = phase + b.imag() * std::log(magnitude);
  }
  return {length * std::cos(phase), length * std::sin(phase)};
}

bool same(C got, C want) {
  auto part = [](double g, double w) { return g == w || (std::isnan(g) && std::isnan(w)); };
  return part(got.real(), want.real()) && part(got.imag(), want.imag());
}

/// Within `tolerance` of want, relative to |want| (or to 1 below it).
template <typename T> bool close(Complex<T> got, C want, double tolerance) {
  const C g(got.real(), got.imag());
  return std::abs(g - want) <= tolerance * std::fmax(1.0, std::abs(want));
}

/// Both signs of both parts, magnitudes from 1/8 to 8, some on an axis.
std::vector<C> operands(int n, int seed) {
  std::vector<C> values(n);
  for (int i = 0; i < n; ++i) {
    const double re = std::ldexp(1.0 + ((i * 37 + seed * 11) % 64) / 64.0, (i * 5 + seed) % 7 - 3);
    const double im = std::ldexp(1.0 + ((i * 23 + seed * 7) % 64) / 64.0, (i * 3 + seed) % 7 - 3);
    values[i] = C((i + seed) % 3 == 0 ? -re : re, (i + seed) % 4 < 2 ? -im : im);
  }
  values[1] = C(2.5, 0);
  values[2] = C(0, -1.5);
  values[3] = C(-4, 0);
  return values;
}

std::string at(const char *what, int row, int i) {
  return std::string(what) + " row " + std::to_string(row) + " [" + std::to_string(i) + "]";
}

} // namespace

int main() {
  Checks checks;
  const int n = 200;
  std::vector<C> x = operands(n, 1), y = operands(n, 4);
  y[5] = C(0, 0); // NumPy's division by zero: infinities and NaNs
  auto dx = pyk::to_device(x), dy = pyk::to_device(y);

  {
    const int rows = 15;
    const C s(0.5, -2);
    auto out = pyk::device_empty<C>({rows, n});
    auto flags = pyk::device_empty<std::int32_t>({4, n});
    pyk::kernels::arithmetic({(n + 63) / 64, 64}, dx, dy, s, out, flags);
    std::vector<C> got(rows * n);
    std::vector<std::int32_t> gotFlags(4 * n);
    out.copy_to_host(got);
    flags.copy_to_host(gotFlags);
    for (int i = 0; i < n; ++i) {
      const C a = x[i], b = y[i];
      C t = a + C(1, 0);
      t = mul(t, C(0, 2));
      t = quotient(t, b);
      const C want[rows] = {a + b,
                            a - b,
                            mul(a, b),
                            quotient(a, b),
                            -a,
                            mul(a, a),
                            quotient(C(1, 0), mul(mul(C(1, 0), a), mul(a, a))),
                            power(a, b),
                            power(a, C(0.5, 0)),
                            mul(std::conj(a), s),
                            t,
                            C(std::hypot(a.real(), a.imag()), a.imag() - a.real()),
                            mul(a, C(2.5, 0)) - C(1, 0),
                            quotient(C(3, 0), a),
                            mul(a, C(0.6, 0.8)) + mul(C(0.5, -1), C(-0.0, -1))};
      for (int row = 0; row < rows; ++row) {
        const C g = got[row * n + i];
        // The powers through polar form call the math library: a GPU's
        // may differ from the host's in the last bits.
        const bool ok = row == 7 || row == 8 ? close(g, want[row], 1e-14) : same(g, want[row]);
        checks.expect(at("arithmetic", row, i), ok);
      }
      const int wantFlags[4] = {a == b, a != a, a != C(0, 0), 1};
      for (int row = 0; row < 4; ++row)
        checks.exact("comparison", gotFlags[row * n + i], wantFlags[row]);
    }
  }

  {
    std::vector<F> xs(n), ys(n);
    std::vector<float> r(n);
    for (int i = 0; i < n; ++i) {
      xs[i] = F(static_cast<float>(x[i].real()), static_cast<float>(x[i].imag()));
      ys[i] = F(static_cast<float>(y[(i + 1) % n].real()), static_cast<float>(y[(i + 1) % n].imag()));
      r[i] = static_cast<float>(0.25 * (i % 9) - 1);
    }
    auto dxs = pyk::to_device(xs), dys = pyk::to_device(ys);
    auto dr = pyk::to_device(r);
    auto out = pyk::device_empty<F>({7, n});
    auto parts = pyk::device_empty<float>({4, n});
    pyk::kernels::single({(n + 63) / 64, 64}, dxs, dys, dr, out, parts);
    std::vector<F> got(7 * n);
    std::vector<float> gotParts(4 * n);
    out.copy_to_host(got);
    parts.copy_to_host(gotParts);
    for (int i = 0; i < n; ++i) {
      const F a = xs[i], b = ys[i];
      const F want[7] = {mul(a, b) + F(0, 2),  quotient(a, b), mul(a, F(r[i], 0)),
                         F(r[i], r[i] * 2),    F(r[i], 0),     mul(mul(F(1, 0), a), mul(a, a)),
                         mul(a, F(0.6f, 0.8f))};
      for (int row = 0; row < 7; ++row) {
        const F g = got[row * n + i];
        checks.expect(at("complex64", row, i), same(C(g.real(), g.imag()), C(want[row].real(), want[row].imag())));
      }
      checks.equal("abs(complex64)", i, gotParts[i], std::hypot(a.real(), a.imag()));
      checks.equal("real", i, gotParts[n + i], a.real());
      checks.equal("imag", i, gotParts[2 * n + i], a.imag());
      checks.equal("parts of a float32", i, gotParts[3 * n + i], r[i]);
    }
  }

  {
    // Escape counts of the Mandelbrot set through generic device
    // functions, on a 2-D grid of complex128.
    const int rows = 24, cols = 40, limit = 60;
    std::vector<C> grid(rows * cols);
    for (int row = 0; row < rows; ++row)
      for (int col = 0; col < cols; ++col)
        grid[row * cols + col] = C(-2.2 + 3.0 * col / cols, -1.2 + 2.4 * row / rows);
    auto dgrid = pyk::to_device(grid, {rows, cols});
    auto counts = pyk::device_empty<std::int32_t>({rows, cols});
    pyk::kernels::escapes({{(rows + 7) / 8, (cols + 7) / 8}, {8, 8}}, dgrid, limit, counts);
    std::vector<std::int32_t> got(rows * cols);
    counts.copy_to_host(got);
    for (int k = 0; k < rows * cols; ++k) {
      C z(0, 0);
      int steps = 0;
      while (steps < limit && std::hypot(z.real(), z.imag()) <= 2) {
        z = mul(z, z) + grid[k];
        ++steps;
      }
      checks.exact("escape count", got[k], steps);
    }
  }

  {
    const int blocks = 3, m = blocks * 64 - 9;
    std::vector<F> values(m);
    for (int i = 0; i < m; ++i)
      values[i] = F(0.5f * static_cast<float>(i % 7) - 1, 0.25f * static_cast<float>(i % 5));
    auto dvalues = pyk::to_device(values);
    auto sums = pyk::device_empty<F>({blocks});
    pyk::kernels::block_sums({blocks, 64}, dvalues, sums);
    std::vector<F> got(blocks);
    sums.copy_to_host(got);
    for (int block = 0; block < blocks; ++block) {
      F shared[64];
      for (int t = 0; t < 64; ++t)
        shared[t] = block * 64 + t < m ? values[block * 64 + t] : F(0, 0);
      for (int step = 32; step > 0; step /= 2)
        for (int t = 0; t < step; ++t)
          shared[t] += shared[t + step];
      checks.expect("block sum " + std::to_string(block),
                    same(C(got[block].real(), got[block].imag()), C(shared[0].real(), shared[0].imag())));
    }
  }

  {
    auto out = pyk::device_empty<C>({n / 2});
    pyk::kernels::reversed_pairs({1, 32}, dx, out);
    std::vector<C> got(n / 2);
    out.copy_to_host(got);
    for (int k = 0; k < n / 2; ++k)
      checks.expect("local array and view [" + std::to_string(k) + "]",
                    same(got[k], mul(x[2 * k], C(0, 1)) - x[2 * k]));
  }

  {
    // cmath, away from the branch cuts (no part is 0), where the C
    // library's functions and pyk's formulas agree to rounding.
    std::vector<C> z(n);
    for (int i = 0; i < n; ++i)
      z[i] = C((i % 2 ? 1 : -1) * (0.3 + 0.017 * (i % 97)), (i % 3 ? 1 : -1) * (0.35 + 0.013 * (i % 89)));
    auto dz = pyk::to_device(z);
    const int rows = 17;
    auto out = pyk::device_empty<C>({rows, n});
    auto reals = pyk::device_empty<double>({3, n});
    pyk::kernels::functions({(n + 63) / 64, 64}, dz, out, reals);
    std::vector<C> got(rows * n);
    std::vector<double> gotReals(3 * n);
    out.copy_to_host(got);
    reals.copy_to_host(gotReals);
    for (int i = 0; i < n; ++i) {
      const C v = z[i];
      const C want[rows] = {std::exp(v),
                            std::log(v),
                            std::sqrt(v),
                            std::sin(v),
                            std::cos(v),
                            std::tan(v),
                            std::sinh(v),
                            std::cosh(v),
                            std::tanh(v),
                            std::asin(v),
                            std::acos(v),
                            std::atan(v),
                            std::asinh(v),
                            std::acosh(v),
                            std::atanh(v),
                            std::log10(v),
                            v};
      for (int row = 0; row < rows; ++row)
        checks.expect(at("cmath", row, i), close(got[row * n + i], want[row], 1e-13));
      checks.near("cmath.phase", i, gotReals[i], std::arg(v), 4, 1e-16);
      checks.near("cmath.polar", i, gotReals[n + i], std::abs(v), 4, 1e-16);
      checks.equal("cmath.isfinite", i, gotReals[2 * n + i], 1.0);
    }

    std::vector<F> zs(n);
    for (int i = 0; i < n; ++i)
      zs[i] = F(static_cast<float>(z[i].real()), static_cast<float>(z[i].imag()));
    auto dzs = pyk::to_device(zs);
    auto out64 = pyk::device_empty<F>({6, n});
    pyk::kernels::functions64({(n + 63) / 64, 64}, dzs, out64);
    std::vector<F> got64(6 * n);
    out64.copy_to_host(got64);
    for (int i = 0; i < n; ++i) {
      const C v(zs[i].real(), zs[i].imag());
      const C want[6] = {std::exp(v), std::log(v), std::sqrt(v), std::sin(v), std::tanh(v), std::asinh(v)};
      for (int row = 0; row < 6; ++row)
        checks.expect(at("cmath in complex64", row, i), close(got64[row * n + i], want[row], 2e-6));
    }
  }

  return checks.finish("complex");
}
