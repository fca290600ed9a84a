#include "KernelRunner.h"

#include "CudaCheck.h"
#include "Timing.h"

#include <pyk/pyk.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <exception>

namespace bench {

void Mismatches::check(std::int64_t index, double got, double want, double tolerance) {
  ++checked_;
  if (std::fabs(got - want) <= tolerance) // false for NaN
    return;
  if (bad_++ < 5) {
    char text[160];
    if (cols_ > 0)
      std::snprintf(text, sizeof text, "%s[%lld, %lld] = %.9g (want %.9g); ", array_.c_str(),
                    static_cast<long long>(index / cols_), static_cast<long long>(index % cols_), got, want);
    else
      std::snprintf(text, sizeof text, "%s[%lld] = %.9g (want %.9g); ", array_.c_str(), static_cast<long long>(index),
                    got, want);
    first_ += text;
  }
}

std::string Mismatches::result() const {
  if (bad_ == 0)
    return "";
  return std::to_string(bad_) + " of " + std::to_string(checked_) + " checked elements differ; first: " + first_;
}

namespace {

/// Waits for the checked run and surfaces its errors: pyk's through
/// pyk::synchronize (KernelError, CudaError), the CUDA runtime's through
/// cudaDeviceSynchronize.
void finish(Impl impl) {
  if (impl == Hand)
    cudaCheck(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the kernel");
  else
    pyk::synchronize();
}

} // namespace

void runVariants(const Context &context, KernelRow &row, const std::vector<Variant> &variants, const Check &check) {
  for (const Variant &variant : variants) {
    const char *impl = implName(variant.impl);
    if (variant.impl == Hand && !context.gpu) {
      row.status[Hand] = "no GPU";
      continue;
    }
    try {
      step("%s: %s: checking against the CPU reference", row.name.c_str(), impl);
      check.reset();
      variant.launch();
      finish(variant.impl);
      const std::string wrong = check.verify();
      if (!wrong.empty()) {
        step("%s: %s: CHECK FAILED: %s", row.name.c_str(), impl, wrong.c_str());
        row.status[variant.impl] = "check failed";
        continue;
      }
      step("%s: %s: check passed; timing %d runs", row.name.c_str(), impl, context.runs);
      const double ms = variant.impl == Hand
                            ? medianCudaMs(context.warmups, context.runs, variant.launch, check.beforeTimedRun)
                            : medianPykMs(context.warmups, context.runs, variant.launch, check.beforeTimedRun);
      row.ms[variant.impl] = ms;
      row.status[variant.impl] = "ok";
      if (row.memoryBound)
        step("%s: %s: median %.3f ms, %.1f GB/s", row.name.c_str(), impl, ms, row.bytes / ms / 1e6);
      else
        step("%s: %s: median %.3f ms, %.1f GFLOP/s", row.name.c_str(), impl, ms, row.flops / ms / 1e6);
    } catch (const std::exception &error) {
      step("%s: %s: ERROR: %s", row.name.c_str(), impl, error.what());
      row.status[variant.impl] = "error";
    }
  }
}

} // namespace bench
