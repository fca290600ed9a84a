//===- CudaDriver.h - The CUDA driver API, loaded with dlopen ---------------===//
//
// The runtime reaches the GPU only through the CUDA driver API, and only
// through libcuda.so.1 loaded at run time: nothing links libcuda or cudart,
// so programs start on machines without a driver. This file declares the few
// driver types and constants the runtime uses (so it builds without the CUDA
// toolkit) and the table of entry points, resolved by their versioned names.
//
// It is not for error messages (CudaErrors.h) or device selection (Device.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_CUDADRIVER_H
#define PYK_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <string>
#include <type_traits>

namespace pyk::cuda {

// Types, as cuda.h declares them (opaque handles are pointers to incomplete
// structs; enums are passed as int).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;
using CUlinkState = struct CUlinkState_st *;
using CUgraph = struct CUgraph_st *;
using CUgraphExec = struct CUgraphExec_st *;

// Constants (values from cuda.h).
inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;

inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

inline constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
inline constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
inline constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

inline constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
inline constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

inline constexpr int CU_JIT_INPUT_PTX = 1;

inline constexpr unsigned CU_STREAM_DEFAULT = 0;
inline constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 1;
inline constexpr unsigned CU_EVENT_DEFAULT = 0;
inline constexpr int CU_STREAM_CAPTURE_MODE_RELAXED = 2;

/// Every driver entry point the runtime uses: X(member, "versioned symbol",
/// function type). The member is what the runtime calls; the symbol is what
/// dlsym looks up and what error messages name.
#define PYK_CUDA_DRIVER_FUNCTIONS(X)                                                                                   \
  X(cuInit, "cuInit", CUresult(unsigned))                                                                              \
  X(cuDriverGetVersion, "cuDriverGetVersion", CUresult(int *))                                                         \
  X(cuDeviceGetCount, "cuDeviceGetCount", CUresult(int *))                                                             \
  X(cuDeviceGet, "cuDeviceGet", CUresult(CUdevice *, int))                                                             \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", CUresult(int *, int, CUdevice))                                      \
  X(cuDeviceGetName, "cuDeviceGetName", CUresult(char *, int, CUdevice))                                               \
  X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", CUresult(std::size_t *, CUdevice))                                        \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult(CUcontext *, CUdevice))                             \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", CUresult(CUcontext))                                                           \
  X(cuCtxSynchronize, "cuCtxSynchronize", CUresult())                                                                  \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult(CUdeviceptr *, std::size_t))                                                 \
  X(cuMemFree, "cuMemFree_v2", CUresult(CUdeviceptr))                                                                  \
  X(cuMemHostAlloc, "cuMemHostAlloc", CUresult(void **, std::size_t, unsigned))                                        \
  X(cuMemFreeHost, "cuMemFreeHost", CUresult(void *))                                                                  \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", CUresult(CUdeviceptr, const void *, std::size_t))                                 \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", CUresult(void *, CUdeviceptr, std::size_t))                                       \
  X(cuMemcpyDtoD, "cuMemcpyDtoD_v2", CUresult(CUdeviceptr, CUdeviceptr, std::size_t))                                  \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", CUresult(CUdeviceptr, const void *, std::size_t, CUstream))             \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", CUresult(void *, CUdeviceptr, std::size_t, CUstream))                   \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", CUresult(CUdeviceptr, CUdeviceptr, std::size_t, CUstream))              \
  X(cuMemcpyPeer, "cuMemcpyPeer", CUresult(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, std::size_t))               \
  X(cuMemcpyPeerAsync, "cuMemcpyPeerAsync",                                                                            \
    CUresult(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, std::size_t, CUstream))                                   \
  X(cuStreamCreate, "cuStreamCreate", CUresult(CUstream *, unsigned))                                                  \
  X(cuStreamDestroy, "cuStreamDestroy_v2", CUresult(CUstream))                                                         \
  X(cuStreamSynchronize, "cuStreamSynchronize", CUresult(CUstream))                                                    \
  X(cuStreamBeginCapture, "cuStreamBeginCapture_v2", CUresult(CUstream, int))                                          \
  X(cuStreamEndCapture, "cuStreamEndCapture", CUresult(CUstream, CUgraph *))                                           \
  X(cuGraphInstantiate, "cuGraphInstantiateWithFlags", CUresult(CUgraphExec *, CUgraph, unsigned long long))           \
  X(cuGraphLaunch, "cuGraphLaunch", CUresult(CUgraphExec, CUstream))                                                   \
  X(cuGraphExecDestroy, "cuGraphExecDestroy", CUresult(CUgraphExec))                                                   \
  X(cuGraphDestroy, "cuGraphDestroy", CUresult(CUgraph))                                                               \
  X(cuEventCreate, "cuEventCreate", CUresult(CUevent *, unsigned))                                                     \
  X(cuEventRecord, "cuEventRecord", CUresult(CUevent, CUstream))                                                       \
  X(cuEventSynchronize, "cuEventSynchronize", CUresult(CUevent))                                                       \
  X(cuEventElapsedTime, "cuEventElapsedTime", CUresult(float *, CUevent, CUevent))                                     \
  X(cuEventDestroy, "cuEventDestroy_v2", CUresult(CUevent))                                                            \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", CUresult(CUmodule *, const void *, unsigned, CUjit_option *, void **))   \
  X(cuLinkCreate, "cuLinkCreate_v2", CUresult(unsigned, CUjit_option *, void **, CUlinkState *))                       \
  X(cuLinkAddData, "cuLinkAddData_v2",                                                                                 \
    CUresult(CUlinkState, int, void *, std::size_t, const char *, unsigned, CUjit_option *, void **))                   \
  X(cuLinkComplete, "cuLinkComplete", CUresult(CUlinkState, void **, std::size_t *))                                   \
  X(cuLinkDestroy, "cuLinkDestroy", CUresult(CUlinkState))                                                             \
  X(cuModuleGetFunction, "cuModuleGetFunction", CUresult(CUfunction *, CUmodule, const char *))                        \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", CUresult(int *, int, CUfunction))                                        \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", CUresult(CUfunction, int, int))                                          \
  X(cuLaunchKernel, "cuLaunchKernel",                                                                                  \
    CUresult(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void **,      \
             void **))                                                                                                 \
  X(cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel",                                                            \
    CUresult(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void **))     \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor",                        \
    CUresult(int *, CUfunction, int, std::size_t))

/// The driver's entry points, all non-null once loaded.
struct Driver {
#define PYK_CUDA_DRIVER_MEMBER(member, symbol, type) std::add_pointer_t<type> member = nullptr;
  PYK_CUDA_DRIVER_FUNCTIONS(PYK_CUDA_DRIVER_MEMBER)
#undef PYK_CUDA_DRIVER_MEMBER
};

/// Loads libcuda.so.1 and resolves every entry point, once per process
/// (thread-safe; later calls return the first call's result). Returns null
/// when the library cannot be loaded or lacks an entry point, with the
/// reason in `*whyNot` (e.g. "libcuda.so.1 cannot be loaded: ...").
/// Does not call cuInit.
const Driver *loadDriver(std::string *whyNot);

} // namespace pyk::cuda

#endif // PYK_RUNTIME_CUDADRIVER_H
