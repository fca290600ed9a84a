// The markdown tables: copy ceiling, kernel times with ratios to the
// hand-written kernels, kernel rates (GB/s as % of the copy ceiling, or
// GFLOP/s), launch overhead, module load.
#include "Bench.h"

#include <cstdarg>
#include <cstdio>
#include <vector>

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

/// The kernel tables' implementation columns, in Impl's order: pyk's, then
/// the hand-written kernels the ratios are taken against, then Numba's when
/// numba_bench.py ran. Every pyk implementation gets a ratio column.
std::vector<Impl> kernelColumns(bool numbaColumn) {
  std::vector<Impl> columns;
  for (int impl = 0; impl < ImplCount; ++impl)
    if (impl != Numba || numbaColumn)
      columns.push_back(static_cast<Impl>(impl));
  return columns;
}

/// A time or rate column's header; shorter than implName's progress-line
/// names for the hand-written kernels.
std::string columnName(Impl impl) { return impl == Hand ? "hand-written" : implName(impl); }

/// A ratio column's header: "PTX / hand" for "pyk PTX".
std::string ratioName(Impl impl) {
  std::string name = implName(impl);
  if (name.rfind("pyk ", 0) == 0)
    name.erase(0, 4);
  return name + " / hand";
}

/// One markdown table row; with `head`, the separator row under it too.
std::string tableRow(const std::vector<std::string> &cells, bool head = false) {
  std::string line = "|", rule = "|";
  for (const std::string &cell : cells) {
    line += " " + cell + " |";
    rule += "---|";
  }
  return line + "\n" + (head ? rule + "\n" : "");
}

} // namespace

std::string tables(const Context &context, const std::string &device, const CopyCeiling &ceiling,
                   const std::vector<KernelRow> &kernels, const std::vector<LaunchRow> &launches,
                   const std::vector<GraphRow> &graphs,
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

  // The columns vary (Numba's only when it ran), so the kernel tables are
  // built from the list of them.
  const std::vector<Impl> columns = kernelColumns(numbaColumn);
  out += "### Kernels: time (ms) and ratio to hand-written CUDA (lower is faster)\n\n";
  out += "pyk PTX i32 is the PTX path compiled with `pykc --index-bits=32` (32-bit element offsets).\n\n";
  std::vector<std::string> head{"kernel", "size"};
  for (Impl impl : columns)
    head.push_back(columnName(impl));
  for (Impl impl : columns)
    if (impl != Hand)
      head.push_back(ratioName(impl));
  out += tableRow(head, true);
  for (const KernelRow &row : kernels) {
    std::vector<std::string> cells{row.name, row.size};
    for (Impl impl : columns)
      cells.push_back(timeCell(row, impl));
    for (Impl impl : columns)
      if (impl != Hand)
        cells.push_back(ratioCell(row, impl));
    out += tableRow(cells);
  }

  out += "\n### Kernels: rate (GB/s moved, with % of the copy ceiling; GFLOP/s for matmul)\n\n";
  head = {"kernel", "unit"};
  for (Impl impl : columns)
    head.push_back(columnName(impl));
  out += tableRow(head, true);
  const double best = ceiling.best();
  for (const KernelRow &row : kernels) {
    std::vector<std::string> cells{row.name, row.memoryBound ? "GB/s" : "GFLOP/s"};
    for (Impl impl : columns)
      cells.push_back(rateCell(row, impl, best));
    out += tableRow(cells);
  }

  out += "\n### Launch overhead (host µs per launch of an empty kernel, 1 x 32 threads, no sync between launches)\n\n";
  out += "| int32 arguments | pyk wrapper | raw cuLaunchKernel | wrapper - raw |\n|---|---|---|---|\n";
  for (const LaunchRow &row : launches)
    out += format("| %d | ", row.args) + number(row.wrapperUs, "%.2f") + " | " + number(row.rawUs, "%.2f") + " | " +
           number(row.wrapperUs - row.rawUs, "%+.2f") + " |\n";

  out += "\n### Graph replay (µs per kernel, from the first launch to the end of the stream's synchronisation)\n\n";
  out += "| empty kernels | launched on a stream | one pyk::Graph launch | stream / graph |\n|---|---|---|---|\n";
  for (const GraphRow &row : graphs)
    out += format("| %d | ", row.kernels) + number(row.streamUs, "%.2f") + " | " + number(row.graphUs, "%.2f") +
           " | " + number(row.streamUs / row.graphUs, "%.1fx") + " |\n";

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
