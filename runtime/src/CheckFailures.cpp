//===- CheckFailures.cpp - Raising what checked kernels recorded -----------===//
#include "CheckFailures.h"

#include "CudaErrors.h"
#include "DeviceState.h"
#include "pyk/Error.h"

#include <atomic>
#include <cstring>
#include <mutex>

namespace pyk::detail {

void bindCheckArguments(const KernelInfo &kernel, void **args, void *record) {
  void *const recordArgument = record;
  const std::uint64_t launchWord = reinterpret_cast<std::uintptr_t>(&kernel);
  std::memcpy(args[kernel.argCount], &recordArgument, sizeof recordArgument);
  std::memcpy(args[kernel.argCount + 1], &launchWord, sizeof launchWord);
}

std::string describeCheckFailure(const pyk_check_record &record) {
  const auto *kernel = reinterpret_cast<const KernelInfo *>(static_cast<std::uintptr_t>(record.launch));
  const KernelModule *module = kernel ? kernel->module : nullptr;
  std::string where = module && module->sourceName ? module->sourceName : "<unknown file>";
  std::string what;
  if (!module || record.site >= module->checkSiteCount) {
    what = "a check failed (site " + std::to_string(record.site) + ")";
  } else {
    const CheckSiteInfo &site = module->checkSites[record.site];
    where += ":" + std::to_string(site.line) + ":" + std::to_string(site.column);
    switch (site.kind) {
    case CheckSiteInfo::Bounds:
      what = "index " +
             std::to_string(site.wrapsNegative && record.index < 0 ? record.index - record.extent : record.index) +
             " out of bounds for axis " + std::to_string(site.axis) +
             " of '" + site.text + "' with size " + std::to_string(record.extent);
      break;
    case CheckSiteInfo::DivisionByZero:
      what = "integer division by zero";
      break;
    case CheckSiteInfo::ModuloByZero:
      what = "integer modulo by zero";
      break;
    case CheckSiteInfo::Assertion:
      what = std::string("assertion failed: ") + site.text;
      break;
    }
  }
  auto triple = [](const std::uint32_t values[3]) {
    return "(" + std::to_string(values[0]) + "," + std::to_string(values[1]) + "," + std::to_string(values[2]) + ")";
  };
  std::string kernelName = kernel && kernel->symbol ? std::string(" of kernel '") + kernel->symbol + "'" : "";
  return where + ": " + what + " (thread " + triple(record.thread) + " of block " + triple(record.block) +
         kernelName + ")";
}

void raiseCheckFailure(pyk_check_record &record) {
  if (!record.failed)
    return;
  const std::string message = describeCheckFailure(record);
  record = pyk_check_record{};
  throw KernelError(message);
}

namespace {

struct GpuRecord {
  std::once_flag allocated;
  cuda::CUdeviceptr address = 0;
  /// A checked kernel ran since the record was last read.
  std::atomic<bool> pending{false};
};

/// Each GPU's own: kernels write the record of the device they run on.
GpuRecord &gpuRecord(int device) {
  static GpuRecord records[maxDevices];
  return records[device];
}

} // namespace

void allocateGpuCheckRecord(int device) {
  GpuRecord &record = gpuRecord(device);
  std::call_once(record.allocated, [&] {
    const DeviceState &state = cudaState(device);
    cuda::CUdeviceptr address = 0;
    if (cuda::CUresult code = state.cu->cuMemAlloc(&address, sizeof(pyk_check_record)))
      cuda::throwError("cuMemAlloc_v2", code, "allocating the check record of checked kernels");
    const pyk_check_record zero{};
    if (cuda::CUresult code = state.cu->cuMemcpyHtoD(address, &zero, sizeof zero))
      cuda::throwError("cuMemcpyHtoD_v2", code, "clearing the check record of checked kernels");
    record.address = address;
  });
}

void *gpuCheckRecord(int device) {
  allocateGpuCheckRecord(device);
  GpuRecord &record = gpuRecord(device);
  record.pending.store(true, std::memory_order_relaxed);
  return reinterpret_cast<void *>(static_cast<std::uintptr_t>(record.address));
}

void raiseGpuCheckFailure(bool allWorkDone, int device) {
  GpuRecord &record = gpuRecord(device);
  if (!(allWorkDone ? record.pending.exchange(false, std::memory_order_relaxed)
                    : record.pending.load(std::memory_order_relaxed)))
    return;
  const DeviceState &state = cudaState(device);
  pyk_check_record copy{};
  if (cuda::CUresult code = state.cu->cuMemcpyDtoH(&copy, record.address, sizeof copy))
    cuda::throwError("cuMemcpyDtoH_v2", code, "reading the check record of checked kernels");
  if (!copy.failed)
    return;
  const pyk_check_record zero{};
  if (cuda::CUresult code = state.cu->cuMemcpyHtoD(record.address, &zero, sizeof zero))
    cuda::throwError("cuMemcpyHtoD_v2", code, "clearing the check record of checked kernels");
  raiseCheckFailure(copy);
}

} // namespace pyk::detail
