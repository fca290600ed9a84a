//===- CheckFailures.h - Raising what checked kernels recorded -------------===//
//
// A checked kernel gets a check record (pyk/CheckRecord.h). On the CPU
// device each launch has its own, checked when its blocks have run; on a
// GPU the device has one, in device memory, which the runtime reads after
// each synchronisation that follows a checked launch, so a failure surfaces
// at pyk::synchronize(), Stream::synchronize() or a copy to the host.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_CHECKFAILURES_H
#define PYK_RUNTIME_CHECKFAILURES_H

#include "DeviceState.h"
#include "pyk/Launch.h"

#include <string>

namespace pyk::detail {

/// Fills in the two check arguments after kernel.argCount in `args`.
void bindCheckArguments(const KernelInfo &kernel, void **args, void *record);

/// "vector_add.pyk:5:19: index 1000000 out of bounds for axis 0 of 'x'
/// with size 1000000 (thread (64,0,0) of block (3906,0,0) of kernel
/// 'vector_add')". The record must have failed.
std::string describeCheckFailure(const pyk_check_record &record);

/// Throws KernelError when `record` holds a failure (and clears it).
void raiseCheckFailure(pyk_check_record &record);

/// GPU `device`'s check record (allocated and zeroed on first use), which
/// the next synchronisation reads.
void *gpuCheckRecord(int device);

/// Allocates and zeroes GPU `device`'s check record now, if it is not
/// (before a capture, which forbids the synchronous copy that zeroes it).
void allocateGpuCheckRecord(int device);

/// GPU `device`: after a synchronisation, throws KernelError when a
/// checked kernel launched on it since the last look recorded a failure. A
/// no-op until a checked kernel has been launched. `allWorkDone`: every
/// launch so far has finished (not so after one stream's synchronisation),
/// so a clean record needs no further look.
void raiseGpuCheckFailure(bool allWorkDone, int device = currentDeviceIndex());

} // namespace pyk::detail

#endif // PYK_RUNTIME_CHECKFAILURES_H
