//===- pyk/CheckRecord.h - What a failed check of checked mode records ----===//
//
// The contract between checked kernels (both GPU backends and the CPU
// device) and the runtime. A kernel compiled in checked mode takes two
// parameters after its own: a pointer to the current device's
// pyk_check_record, and an opaque 64-bit word the launch passes (the
// runtime's KernelInfo address), which the record keeps to name the kernel
// and find its check sites. The first failing check of any thread claims
// the record (`failed` from 0 to 1 by compare-and-swap) and fills in the
// rest; later failures leave it alone. The runtime reads it after the
// launch and raises pyk::KernelError.
//
// The record's layout is pyk/CheckRecordLayout.h, plain C, which pykc
// copies into the CUDA C++ it writes and whose offsets the LLVM backend
// takes: one definition for every side.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CHECKRECORD_H
#define PYK_CHECKRECORD_H

#include "pyk/CheckRecordLayout.h"

namespace pyk::detail {

/// What one check site of a module reports (pykc writes a table of them
/// into the generated launch code).
struct CheckSiteInfo {
  enum Kind : uint8_t { Bounds, DivisionByZero, ModuloByZero, Assertion };
  Kind kind;
  uint32_t line, column;
  /// Bounds: the array's name; Assertion: the assert's message or
  /// condition.
  const char *text;
  uint32_t axis;
  /// Bounds: the index counts from the end where negative, as in Python;
  /// the value checked is the index after that, and a negative one was
  /// written as itself minus the extent.
  bool wrapsNegative = false;
};

} // namespace pyk::detail

#endif // PYK_CHECKRECORD_H
