//===- FakePtx.h - What the fake CUDA driver reads in PTX text -------------===//
//
// The fake driver (FakeCudaDriver.cpp) loads modules as PTX text; these read
// what a driver would get from compiling it: a kernel's parameter sizes and
// the functions a module leaves for the linker.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_TEST_FAKEPTX_H
#define PYK_TEST_FAKEPTX_H

#include <cstddef>
#include <string>
#include <vector>

namespace pyk::fake_cuda {

/// The sizes, in bytes, of the parameters of `.entry NAME(...)` in `text`.
std::vector<std::size_t> entryParamSizes(const std::string &text, const std::string &name);

/// The first function `ptx` declares `.extern` and does not define, as the
/// driver's linker resolves them; empty when there is none.
std::string unresolvedFunction(const std::string &ptx);

} // namespace pyk::fake_cuda

#endif // PYK_TEST_FAKEPTX_H
