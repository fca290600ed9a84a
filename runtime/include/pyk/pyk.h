//===- pyk/pyk.h - The pyk runtime: include this ---------------------------===//
//
// Device arrays, launches, streams and events, devices, pinned host memory,
// and numba.cuda.random's generator states. The headers pykc generates for .pyk
// files include it.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_PYK_H
#define PYK_PYK_H

#include "pyk/Array.h"
#include "pyk/Device.h"
#include "pyk/Error.h"
#include "pyk/Float16.h"
#include "pyk/Launch.h"
#include "pyk/PinnedBuffer.h"
#include "pyk/Random.h"
#include "pyk/Stream.h"

// complex64 and complex128 kernel values are std::complex<float> and
// std::complex<double>.
#include <complex>

#endif // PYK_PYK_H
