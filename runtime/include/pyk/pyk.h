//===- pyk/pyk.h - The pyk runtime: include this ---------------------------===//
//
// Device arrays, launches, streams and events, and device selection. The
// headers pykc generates for .pyk files include it.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_PYK_H
#define PYK_PYK_H

#include "pyk/Array.h"
#include "pyk/Device.h"
#include "pyk/Error.h"
#include "pyk/Launch.h"
#include "pyk/Stream.h"

#endif // PYK_PYK_H
