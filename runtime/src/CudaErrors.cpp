//===- CudaErrors.cpp - CUresult names, hints and CudaError messages -------===//
//
// The names are cuda.h's CUresult enumerators (CUDA 13.0), complete; the
// hints cover the errors a pyk program can meet.
//
//===----------------------------------------------------------------------===//
#include "CudaErrors.h"

#include "pyk/Error.h"

#include <algorithm>
#include <iterator>

namespace pyk::cuda {
namespace {

struct ErrorInfo {
  CUresult code;
  const char *name;
  const char *hint; ///< null: the name says it
};

constexpr const char *restartHint = "the CUDA context is now unusable: restart the program";

// Sorted by code, for the binary search in find().
constexpr ErrorInfo errorTable[] = {
    {0, "CUDA_SUCCESS", nullptr},
    {1, "CUDA_ERROR_INVALID_VALUE", "a value passed to the driver is out of range; please report this as a pyk bug"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "free device arrays you no longer need"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "the driver was not initialised; please report this as a pyk bug"},
    {4, "CUDA_ERROR_DEINITIALIZED",
     "the driver is shutting down: do not use pyk arrays or launches after main returns"},
    {5, "CUDA_ERROR_PROFILER_DISABLED", nullptr},
    {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED", nullptr},
    {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED", nullptr},
    {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED", nullptr},
    {34, "CUDA_ERROR_STUB_LIBRARY",
     "libcuda.so.1 is the CUDA toolkit's stub, not a driver: install the NVIDIA driver, or take the toolkit's stubs "
     "directory out of LD_LIBRARY_PATH"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", "update the NVIDIA driver"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE",
     "the GPU is busy or in exclusive-process mode with another process using it; wait for it, or set PYK_DEVICE=cpu"},
    {100, "CUDA_ERROR_NO_DEVICE", "the driver sees no GPU; check nvidia-smi and CUDA_VISIBLE_DEVICES"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "check CUDA_VISIBLE_DEVICES"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED", nullptr},
    {200, "CUDA_ERROR_INVALID_IMAGE", "the embedded GPU code is damaged; rebuild the program's kernels with pykc"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "please report this as a pyk bug"},
    {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", nullptr},
    {205, "CUDA_ERROR_MAP_FAILED", nullptr},
    {206, "CUDA_ERROR_UNMAP_FAILED", nullptr},
    {207, "CUDA_ERROR_ARRAY_IS_MAPPED", nullptr},
    {208, "CUDA_ERROR_ALREADY_MAPPED", nullptr},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "the embedded cubin is for another GPU and there is no PTX; rebuild the kernels with pykc for this GPU"},
    {210, "CUDA_ERROR_ALREADY_ACQUIRED", nullptr},
    {211, "CUDA_ERROR_NOT_MAPPED", nullptr},
    {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY", nullptr},
    {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER", nullptr},
    {214, "CUDA_ERROR_ECC_UNCORRECTABLE", "the GPU's memory reported an uncorrectable error; check nvidia-smi"},
    {215, "CUDA_ERROR_UNSUPPORTED_LIMIT", nullptr},
    {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", nullptr},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", nullptr},
    {218, "CUDA_ERROR_INVALID_PTX", "the driver's JIT compiler rejected the PTX; please report this as a pyk bug"},
    {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", nullptr},
    {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE", nullptr},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "the driver's PTX JIT compiler is missing; reinstall the NVIDIA driver"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the PTX is newer than this driver understands: update the NVIDIA driver, or embed a cubin for this GPU"},
    {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "PTX JIT compilation is disabled (CUDA_DISABLE_PTX_JIT?)"},
    {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", nullptr},
    {225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", nullptr},
    {226, "CUDA_ERROR_CONTAINED", restartHint},
    {300, "CUDA_ERROR_INVALID_SOURCE", nullptr},
    {301, "CUDA_ERROR_FILE_NOT_FOUND", nullptr},
    {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", nullptr},
    {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", nullptr},
    {304, "CUDA_ERROR_OPERATING_SYSTEM", nullptr},
    {400, "CUDA_ERROR_INVALID_HANDLE", "a stream, event or array was used after it was destroyed or moved from"},
    {401, "CUDA_ERROR_ILLEGAL_STATE", nullptr},
    {402, "CUDA_ERROR_LOSSY_QUERY", nullptr},
    {500, "CUDA_ERROR_NOT_FOUND", nullptr},
    {600, "CUDA_ERROR_NOT_READY", nullptr},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "a kernel read or wrote outside an array: compile it with pykc --checked to find the access; the CUDA context is "
     "now unusable: restart the program"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "launch fewer threads per block, or limit the kernel's registers"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT",
     "a kernel ran longer than the display watchdog allows: split the work into smaller launches; the CUDA context "
     "is now unusable: restart the program"},
    {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", nullptr},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", nullptr},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", nullptr},
    {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", nullptr},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", nullptr},
    {710, "CUDA_ERROR_ASSERT", "a device-side assert failed; the CUDA context is now unusable: restart the program"},
    {711, "CUDA_ERROR_TOO_MANY_PEERS", nullptr},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", nullptr},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", nullptr},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR",
     "a kernel overflowed its call stack (deep device-function calls?); the CUDA context is now unusable: restart "
     "the program"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "please report this as a pyk bug; the CUDA context is now unusable"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS",
     "a kernel accessed memory at a misaligned address; the CUDA context is now unusable: restart the program"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE", restartHint},
    {718, "CUDA_ERROR_INVALID_PC", restartHint},
    {719, "CUDA_ERROR_LAUNCH_FAILED",
     "a kernel failed while running (an out-of-bounds access?): compile it with pykc --checked; the CUDA context is "
     "now unusable: restart the program"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
     "a kernel that synchronises its grid must have every block on the GPU at once: launch fewer blocks"},
    {721, "CUDA_ERROR_TENSOR_MEMORY_LEAK", nullptr},
    {800, "CUDA_ERROR_NOT_PERMITTED", nullptr},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "this GPU or driver does not support the operation"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY",
     "the driver's system services are not running (nvidia-persistenced, fabric manager?)"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
     "the NVIDIA kernel module and libcuda.so.1 come from different driver versions; reinstall the driver or reboot"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
     "the CUDA forward-compatibility package does not support this GPU"},
    {805, "CUDA_ERROR_MPS_CONNECTION_FAILED", nullptr},
    {806, "CUDA_ERROR_MPS_RPC_FAILURE", nullptr},
    {807, "CUDA_ERROR_MPS_SERVER_NOT_READY", nullptr},
    {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", nullptr},
    {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED", nullptr},
    {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED", nullptr},
    {811, "CUDA_ERROR_CDP_NOT_SUPPORTED", nullptr},
    {812, "CUDA_ERROR_CDP_VERSION_MISMATCH", nullptr},
    {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", nullptr},
    {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
     "an operation CUDA forbids during a capture (work on the default stream, a synchronisation) ended it; "
     "capture again without it"},
    {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE", nullptr},
    {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", nullptr},
    {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", nullptr},
    {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", nullptr},
    {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT",
     "work on the default stream would wait for a capturing stream: queue it on a stream, or end the capture first"},
    {907, "CUDA_ERROR_CAPTURED_EVENT", nullptr},
    {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", nullptr},
    {909, "CUDA_ERROR_TIMEOUT", nullptr},
    {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", nullptr},
    {911, "CUDA_ERROR_EXTERNAL_DEVICE", nullptr},
    {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE", nullptr},
    {913, "CUDA_ERROR_FUNCTION_NOT_LOADED", nullptr},
    {914, "CUDA_ERROR_INVALID_RESOURCE_TYPE", nullptr},
    {915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION", nullptr},
    {916, "CUDA_ERROR_KEY_ROTATION", nullptr},
    {999, "CUDA_ERROR_UNKNOWN", "the driver gave no reason; check nvidia-smi and the system log (dmesg)"},
};

static_assert(std::is_sorted(std::begin(errorTable), std::end(errorTable),
                             [](const ErrorInfo &a, const ErrorInfo &b) { return a.code < b.code; }),
              "errorTable must be sorted by code");

const ErrorInfo *find(CUresult code) {
  const ErrorInfo *it = std::lower_bound(std::begin(errorTable), std::end(errorTable), code,
                                         [](const ErrorInfo &info, CUresult c) { return info.code < c; });
  if (it == std::end(errorTable) || it->code != code)
    return nullptr;
  return it;
}

} // namespace

std::string errorName(CUresult code) {
  if (const ErrorInfo *info = find(code))
    return info->name;
  return "CUDA_ERROR_" + std::to_string(code);
}

const char *errorHint(CUresult code) {
  const ErrorInfo *info = find(code);
  return info ? info->hint : nullptr;
}

std::string describeFailure(const char *call, CUresult code, const std::string &what) {
  std::string message = std::string(call) + " failed: " + errorName(code) + " (" + std::to_string(code) + ")";
  if (!what.empty())
    message += ": " + what;
  if (const char *hint = errorHint(code))
    message += std::string(what.empty() ? ": " : "; ") + hint;
  return message;
}

std::string errorMessage(const char *call, CUresult code, const std::string &what) {
  return "pyk: " + describeFailure(call, code, what);
}

void throwError(const char *call, CUresult code, const std::string &what) {
  throw CudaError(call, code, errorName(code), errorMessage(call, code, what));
}

} // namespace pyk::cuda
