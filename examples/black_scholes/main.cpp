// Prices a million European options with black_scholes.pyk, whose kernel
// calls the CUDA C++ function of cnd.cu, and checks every price against the
// same formula computed here, and put-call parity (C - P = S - K e^(-rT)).
#include "black_scholes.pyk.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

double normalCdf(double d) { return 0.5 * std::erfc(-d / std::sqrt(2.0)); }

} // namespace

int main() {
  const int n = 1 << 20;
  const double rate = 0.02, volatility = 0.30;
  std::vector<double> price(n), strike(n), years(n);
  for (int i = 0; i < n; ++i) {
    price[i] = 5.0 + 25.0 * (i % 1000) / 1000.0;
    strike[i] = 1.0 + 99.0 * ((i * 7919LL) % 1000) / 1000.0;
    years[i] = 0.25 + 9.75 * ((i * 104729LL) % 1000) / 1000.0;
  }
  auto dprice = pyk::to_device(price), dstrike = pyk::to_device(strike), dyears = pyk::to_device(years);
  auto dcall = pyk::device_empty<double>({n}), dput = pyk::device_empty<double>({n});
  pyk::kernels::black_scholes({(n + 255) / 256, 256}, dprice, dstrike, dyears, rate, volatility, dcall, dput);
  std::vector<double> call(n), put(n);
  dcall.copy_to_host(call);
  dput.copy_to_host(put);

  double worst = 0, worstParity = 0;
  for (int i = 0; i < n; ++i) {
    const double rootT = std::sqrt(years[i]);
    const double d1 =
        (std::log(price[i] / strike[i]) + (rate + 0.5 * volatility * volatility) * years[i]) / (volatility * rootT);
    const double d2 = d1 - volatility * rootT;
    const double discounted = strike[i] * std::exp(-rate * years[i]);
    const double wantCall = price[i] * normalCdf(d1) - discounted * normalCdf(d2);
    const double wantPut = discounted * normalCdf(-d2) - price[i] * normalCdf(-d1);
    const double scale = std::max(1.0, price[i]);
    worst = std::max({worst, std::fabs(call[i] - wantCall) / scale, std::fabs(put[i] - wantPut) / scale});
    worstParity = std::max(worstParity, std::fabs((call[i] - put[i]) - (price[i] - discounted)) / scale);
  }
  std::printf("%d options priced on %s; call[0] = %.6f, put[0] = %.6f\n", n, pyk::device_name().c_str(), call[0],
              put[0]);
  std::printf("largest difference from the formula: %.3g, from put-call parity: %.3g (relative to the price)\n",
              worst, worstParity);
  const bool ok = worst < 1e-12 && worstParity < 1e-12;
  std::printf("Are results equal: %s\n", ok ? "True" : "False");
  return ok ? 0 : 1;
}
