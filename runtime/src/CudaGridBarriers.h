//===- CudaGridBarriers.h - The GPU's grid barriers, one per stream --------===//
//
// A kernel that synchronises its grid (KernelInfo::gridSynchronises) gets
// the device address of a grid barrier in its last argument: two uint32
// words, an arrival count and a generation, zero when first used, which
// every launch that completes leaves with count 0. Launches on one stream
// run one after another and can share one; launches on two streams may run
// at once and must not, so each stream has its own and the default stream
// one of its own. Allocated on first use (8 bytes, zeroed); a stream's is
// freed with the stream, after its work, and the default stream's lives as
// long as the program.
//
// It is not the launch (CudaLaunch.cpp) nor the code that waits at the
// barrier (pykc generates it).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_CUDAGRIDBARRIERS_H
#define PYK_RUNTIME_CUDAGRIDBARRIERS_H

#include "CudaDriver.h"
#include "StreamImpl.h"

namespace pyk::detail {

/// The device address of the grid barrier of `stream` (null: the default
/// stream), allocated and zeroed on its first use (thread-safe). Throws
/// CudaError naming the driver call that failed.
cuda::CUdeviceptr gpuGridBarrier(StreamImpl *stream);

/// The stream is being destroyed: frees its grid barrier, if it has one,
/// once the work queued on it is done. Errors are ignored (a destructor
/// calls it; a sticky error surfaces at the next synchronisation).
void releaseGpuGridBarrier(StreamImpl &stream) noexcept;

} // namespace pyk::detail

#endif // PYK_RUNTIME_CUDAGRIDBARRIERS_H
