// The markdown tables: copy ceiling, kernel times with ratios to the
// hand-written kernels, kernel rates (GB/s as % of the copy ceiling, or
// GFLOP/s), launch overhead, module load.
#include "Bench.h"

#include <cstdarg>
#include <cstdio>

namespace bench {
namespace {

std::string format(const char *text, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *text, ...) {
  char buffer[256];
  va_list args;
  va_start(args, text);
  std::vsnprintf(buffer, sizeof buffer, text, args);
  va_end(args);
  return buffer;
}

std::string number(double value, const char *pattern) { return std::isnan(value) ? "-" : format(pattern, value); }

/// A kernel's time, or why there is none.
std::string timeCell(const KernelRow &row, Impl impl) {
  return std::isnan(row.ms[impl]) ? row.status[impl] : format("%.3f", row.ms[impl]);
}

std::string ratioCell(const KernelRow &row, Impl impl) {
  if (std::isnan(row.ms[impl]) || std::isnan(row.ms[Hand]))
    return "-";
  return format("%.2fx", row.ms[impl] / row.ms[Hand]);
}

std::string rateCell(const KernelRow &row, Impl impl, double ceiling) {
  if (std::isnan(row.ms[impl]))
    return "-";
  if (!row.memoryBound)
    return format("%.0f", row.flops / row.ms[impl] / 1e6);
  const double gbs = row.bytes / row.ms[impl] / 1e6;
  return std::isnan(ceiling) ? format("%.0f", gbs) : format("%.0f (%.0f%%)", gbs, 100.0 * gbs / ceiling);
}

} // namespace

std::string tables(const Context &context, const std::string &device, const CopyCeiling &ceiling,
                   const std::vector<KernelRow> &kernels, const std::vector<LaunchRow> &launches,
                   const std::vector<ModuleLoadRow> &loads, bool numbaColumn) {
  std::string out;
  out += "## GPU benchmark results\n\n";
  out += "Device: " + device + ". Kernel times: median of " + std::to_string(context.runs) + " runs after " +
         std::to_string(context.warmups) +
         " warm-ups, each between two events on the default stream (pyk::Event for pyk, cudaEvent for the "
         "hand-written kernels); every output was checked against a CPU reference first.\n\n";

  out += "### Copy ceiling (device to device, 1 GiB, bytes read + written)\n\n| copy | GB/s |\n|---|---|\n";
  out += "| cudaMemcpy | " + number(ceiling.memcpyGBs, "%.0f") + " |\n";
  out += "| float4 copy kernel | " + number(ceiling.kernelGBs, "%.0f") + " |\n\n";

  out += "### Kernels: time (ms) and ratio to hand-written CUDA (lower is faster)\n\n";
  out += "| kernel | size | pyk PTX | pyk CUDA C++ | hand-written | ";
  out += numbaColumn ? "Numba | PTX / hand | CUDA C++ / hand | Numba / hand |\n|---|---|---|---|---|---|---|---|---|\n"
                     : "PTX / hand | CUDA C++ / hand |\n|---|---|---|---|---|---|---|\n";
  for (const KernelRow &row : kernels) {
    out += "| " + row.name + " | " + row.size + " | " + timeCell(row, PykPtx) + " | " + timeCell(row, PykCuda) + " | " +
           timeCell(row, Hand) + " | ";
    if (numbaColumn)
      out += timeCell(row, Numba) + " | ";
    out += ratioCell(row, PykPtx) + " | " + ratioCell(row, PykCuda) + " |";
    if (numbaColumn)
      out += " " + ratioCell(row, Numba) + " |";
    out += "\n";
  }

  out += "\n### Kernels: rate (GB/s moved, with % of the copy ceiling; GFLOP/s for matmul)\n\n";
  out += numbaColumn ? "| kernel | unit | pyk PTX | pyk CUDA C++ | hand-written | Numba |\n|---|---|---|---|---|---|\n"
                     : "| kernel | unit | pyk PTX | pyk CUDA C++ | hand-written |\n|---|---|---|---|---|\n";
  const double best = ceiling.best();
  for (const KernelRow &row : kernels) {
    out += "| " + row.name + " | " + (row.memoryBound ? "GB/s" : "GFLOP/s") + " | " + rateCell(row, PykPtx, best) +
           " | " + rateCell(row, PykCuda, best) + " | " + rateCell(row, Hand, best) + " |";
    if (numbaColumn)
      out += " " + rateCell(row, Numba, best) + " |";
    out += "\n";
  }

  out += "\n### Launch overhead (host µs per launch of an empty kernel, 1 x 32 threads, no sync between launches)\n\n";
  out += "| int32 arguments | pyk wrapper | raw cuLaunchKernel | wrapper - raw |\n|---|---|---|---|\n";
  for (const LaunchRow &row : launches)
    out += format("| %d | ", row.args) + number(row.wrapperUs, "%.2f") + " | " + number(row.rawUs, "%.2f") + " | " +
           number(row.wrapperUs - row.rawUs, "%+.2f") + " |\n";

  out += "\n### Module load (ms, cuModuleLoadData, median of 5; driver JIT cache off)\n\n";
  out += "| module | JIT of pykc's LLVM PTX | JIT of nvcc's PTX | ptxas cubin | LLVM PTX JIT / cubin |\n"
         "|---|---|---|---|---|\n";
  if (loads.empty())
    out += "| (not measured: no GPU) | - | - | - | - |\n";
  for (const ModuleLoadRow &row : loads)
    out += "| " + row.module + " | " + number(row.llvmPtxMs, "%.2f") + " | " + number(row.nvccPtxMs, "%.2f") + " | " +
           number(row.cubinMs, "%.3f") + " | " + number(row.llvmPtxMs / row.cubinMs, "%.0fx") + " |\n";
  return out;
}

} // namespace bench
