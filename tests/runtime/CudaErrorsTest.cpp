//===- CudaErrorsTest.cpp - CUresult names and CudaError messages ----------===//
//
// Unit tests of the runtime's own error table (runtime/src/CudaErrors.h),
// which stands in for cuGetErrorString where the driver gives nothing.
//
//===----------------------------------------------------------------------===//
#include "CudaErrors.h"
#include "pyk/Error.h"

#include <gtest/gtest.h>

namespace {

using namespace pyk::cuda;

TEST(CudaErrors, NamesTheCodesOfCudaH) {
  EXPECT_EQ(errorName(0), "CUDA_SUCCESS");
  EXPECT_EQ(errorName(1), "CUDA_ERROR_INVALID_VALUE");
  EXPECT_EQ(errorName(2), "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(errorName(3), "CUDA_ERROR_NOT_INITIALIZED");
  EXPECT_EQ(errorName(34), "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_EQ(errorName(100), "CUDA_ERROR_NO_DEVICE");
  EXPECT_EQ(errorName(101), "CUDA_ERROR_INVALID_DEVICE");
  EXPECT_EQ(errorName(200), "CUDA_ERROR_INVALID_IMAGE");
  EXPECT_EQ(errorName(201), "CUDA_ERROR_INVALID_CONTEXT");
  EXPECT_EQ(errorName(218), "CUDA_ERROR_INVALID_PTX");
  EXPECT_EQ(errorName(222), "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
  EXPECT_EQ(errorName(500), "CUDA_ERROR_NOT_FOUND");
  EXPECT_EQ(errorName(700), "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(errorName(701), "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES");
  EXPECT_EQ(errorName(702), "CUDA_ERROR_LAUNCH_TIMEOUT");
  EXPECT_EQ(errorName(715), "CUDA_ERROR_ILLEGAL_INSTRUCTION");
  EXPECT_EQ(errorName(716), "CUDA_ERROR_MISALIGNED_ADDRESS");
  EXPECT_EQ(errorName(718), "CUDA_ERROR_INVALID_PC");
  EXPECT_EQ(errorName(719), "CUDA_ERROR_LAUNCH_FAILED");
  EXPECT_EQ(errorName(916), "CUDA_ERROR_KEY_ROTATION");
  EXPECT_EQ(errorName(999), "CUDA_ERROR_UNKNOWN");
}

TEST(CudaErrors, UnknownCodesAreNamedByNumber) {
  EXPECT_EQ(errorName(12345), "CUDA_ERROR_12345");
  EXPECT_EQ(errorName(-1), "CUDA_ERROR_-1");
  EXPECT_EQ(errorHint(12345), nullptr);
}

TEST(CudaErrors, MessageNamesTheCallTheErrorAndWhatToDo) {
  EXPECT_EQ(errorMessage("cuMemAlloc_v2", 2, "the GPU has no room for 4000000 bytes"),
            "pyk: cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2): the GPU has no room for 4000000 bytes; free "
            "device arrays you no longer need");
  EXPECT_EQ(describeFailure("cuInit", 100),
            "cuInit failed: CUDA_ERROR_NO_DEVICE (100): the driver sees no GPU; check nvidia-smi and "
            "CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(errorMessage("cuStreamCreate", 5, ""), "pyk: cuStreamCreate failed: CUDA_ERROR_PROFILER_DISABLED (5)");
}

TEST(CudaErrors, ThrowErrorThrowsACudaError) {
  try {
    throwError("cuLaunchKernel", 719, "launching k");
    FAIL() << "did not throw";
  } catch (const pyk::CudaError &error) {
    EXPECT_EQ(error.call(), "cuLaunchKernel");
    EXPECT_EQ(error.code(), 719);
    EXPECT_EQ(error.name(), "CUDA_ERROR_LAUNCH_FAILED");
    EXPECT_EQ(std::string(error.what())
                  .rfind("pyk: cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED (719): "
                         "launching k; a kernel failed while running",
                         0),
              0u);
  }
  EXPECT_NO_THROW(check(0, "cuInit"));
  EXPECT_THROW(check(34, "cuInit"), pyk::Error);
}

} // namespace
