//===- Checks.h - Pass and fail counts of one execution test ----*- C++ -*-===//
//
// Each execution test compares what its kernels computed with values worked
// out in C++. Checks counts those comparisons, prints a FAIL line for each
// one that fails, and prints the last line, "NAME on DEVICE: N passed, M
// failed", that ctest matches (tests/execution/CMakeLists.txt): the counting
// and that line are written once here so that no test can drift from them.
// Not for printing.cpp, which ctest matches on its exact output.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_TESTS_EXECUTION_CHECKS_H
#define PYK_TESTS_EXECUTION_CHECKS_H

#include "pyk/Device.h"

#include <cmath>
#include <cstdio>
#include <string>

class Checks {
public:
  /// got == want exactly (a NaN fails): element `index` of `what`.
  void equal(const char *what, long long index, double got, double want) {
    if (!record(got == want))
      std::printf("FAIL %s[%lld]: got %.17g, want %.17g\n", what, index, got, want);
  }

  /// got == want exactly (a NaN fails): a named case.
  void equal(const char *what, double got, double want) {
    if (!record(got == want))
      std::printf("FAIL %s: got %.17g, want %.17g\n", what, got, want);
  }

  /// got == want exactly, or both NaN: for results where NaN is the answer.
  void equalOrNaN(const char *what, long long index, double got, double want) {
    if (!record(got == want || (std::isnan(got) && std::isnan(want))))
      std::printf("FAIL %s[%lld]: got %.17g, want %.17g\n", what, index, got, want);
  }

  /// got within `ulps` units of `epsilon` of want, relative to |want| (or
  /// to 1 below it), or both NaN: math libraries may differ in the last bits.
  void near(const char *what, long long index, double got, double want, double ulps, double epsilon) {
    const bool same = (std::isnan(got) && std::isnan(want)) || got == want ||
                      std::fabs(got - want) <= ulps * epsilon * std::fmax(1.0, std::fabs(want));
    if (!record(same))
      std::printf("FAIL %s[%lld]: got %.17g, want %.17g\n", what, index, got, want);
  }

  /// Integers exactly, in 64 bits: past 2^53 a double would round them
  /// together.
  void exact(const char *what, long long got, long long want) {
    if (!record(got == want))
      std::printf("FAIL %s: got %lld, want %lld\n", what, got, want);
  }

  /// A condition that `what` describes.
  void expect(const std::string &what, bool ok) {
    if (!record(ok))
      std::printf("FAIL %s\n", what.c_str());
  }

  /// Prints "NAME on DEVICE: N passed, M failed" and returns main's exit
  /// status: 0 when nothing failed, else 1.
  int finish(const char *name) const {
    std::printf("%s on %s: %d passed, %d failed\n", name, pyk::device_name().c_str(), passed_, failed_);
    return failed_ == 0 ? 0 : 1;
  }

private:
  bool record(bool ok) {
    ++(ok ? passed_ : failed_);
    return ok;
  }

  int passed_ = 0;
  int failed_ = 0;
};

#endif // PYK_TESTS_EXECUTION_CHECKS_H
