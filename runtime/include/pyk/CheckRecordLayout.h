//===- pyk/CheckRecordLayout.h - The check record, as kernels see it ------===//
//
// C types, with no dependency but <stdint.h> and <stddef.h>: the runtime
// (pyk/CheckRecord.h) and the LLVM backend include it, and pykc copies it
// into the CUDA C++ it writes (codegen/cuda/prelude.cuh), so that every
// side reads and writes one layout. The assertions pin that layout: a
// change to it is a change of the ABI between compiled kernels and the
// runtime.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CHECKRECORDLAYOUT_H
#define PYK_CHECKRECORDLAYOUT_H

#include <stddef.h>
#include <stdint.h>

extern "C" {

struct pyk_check_record {
  uint32_t failed; ///< 0 until a check fails
  uint32_t site;   ///< the failed check, an index into the module's site table
  uint64_t launch; ///< the launch's opaque word
  int64_t index;   ///< bounds checks: the index and the extent it broke
  int64_t extent;
  uint32_t thread[3]; ///< threadIdx of the failing thread
  uint32_t block[3];  ///< blockIdx of its block
};

} // extern "C"

static_assert(sizeof(pyk_check_record) == 56, "pyk_check_record is 56 bytes");
static_assert(offsetof(pyk_check_record, failed) == 0 && offsetof(pyk_check_record, site) == 4 &&
                  offsetof(pyk_check_record, launch) == 8 && offsetof(pyk_check_record, index) == 16 &&
                  offsetof(pyk_check_record, extent) == 24 && offsetof(pyk_check_record, thread) == 32 &&
                  offsetof(pyk_check_record, block) == 44,
              "the offsets of pyk_check_record's fields are the ABI");

#endif // PYK_CHECKRECORDLAYOUT_H
