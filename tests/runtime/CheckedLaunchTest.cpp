//===- CheckedLaunchTest.cpp - What checked kernels record, raised ---------===//
//
// A hand-written kernel that behaves as pykc's checked code does (it claims
// the check record and fills it in for one chosen thread), run on the CPU
// device and on the fake CUDA driver, where the record lives in "device"
// memory and is read at synchronisation. The checks themselves are tested
// with compiled kernels (tests/checked).
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <atomic>
#include <cstring>
#include <vector>

namespace pyk::test {
namespace {

const detail::CheckSiteInfo checkSites[] = {{detail::CheckSiteInfo::Bounds, 7, 9, "x", 0}};
const detail::KernelModule checkedModule{"checked.pyk", ".visible .entry fail_at(\n", nullptr, 0, checkSites, 1};
detail::KernelInfo failAtKernel{&checkedModule, "fail_at", &failAtCpu, 1, nullptr, 0, /*checked=*/true};

class CheckedLaunches : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    if (IsSkipped())
      return;
    if (!onCpu() && !onFakeDriver())
      GTEST_SKIP() << "the hand-written checked kernel has CPU code only (tests/checked runs compiled ones on a GPU)";
    if (onFakeDriver()) {
      ASSERT_TRUE(registerKernelWithFakeDriver("fail_at", &failAtCpu));
    }
  }

  /// Launches fail_at with `failing` as generated launch code does: the
  /// two check slots after the arguments, for the runtime to fill in.
  void launchFailAt(std::int64_t failing, const Launch &config) {
    std::uint64_t checkSlots[2] = {};
    void *args[] = {&failing, &checkSlots[0], &checkSlots[1]};
    detail::launch(failAtKernel, config, args);
  }

  /// What KernelError says between the launch and the next
  /// synchronisation, or "" when nothing is raised.
  std::string errorOf(const std::function<void()> &work) {
    try {
      work();
    } catch (const KernelError &error) {
      return error.what();
    }
    return "";
  }
};

TEST_F(CheckedLaunches, AFailedCheckIsRaisedWithItsSiteAndThread) {
  EXPECT_EQ(errorOf([&] {
              launchFailAt(37, {{2}, {32}});
              synchronize();
            }),
            "checked.pyk:7:9: index 37 out of bounds for axis 0 of 'x' with size 37 (thread (5,0,0) of block (1,0,0) "
            "of kernel 'fail_at')");
}

TEST_F(CheckedLaunches, TheRecordIsClearedOnceRaised) {
  EXPECT_NE(errorOf([&] {
              launchFailAt(3, {{1}, {32}});
              synchronize();
            }),
            "");
  EXPECT_EQ(errorOf([&] {
              launchFailAt(-1, {{1}, {32}});
              synchronize();
            }),
            "")
      << "a clean launch after a failed one raised";
}

TEST_F(CheckedLaunches, ACopyToTheHostRaisesWhatTheKernelsBeforeItFound) {
  auto data = to_device(std::vector<float>(4, 1.0f));
  std::vector<float> host(4);
  EXPECT_EQ(errorOf([&] {
              launchFailAt(0, {{1}, {8}});
              data.copy_to_host(host);
            }),
            "checked.pyk:7:9: index 0 out of bounds for axis 0 of 'x' with size 0 (thread (0,0,0) of block (0,0,0) "
            "of kernel 'fail_at')");
  synchronize();
}

TEST_F(CheckedLaunches, OnAStreamItIsRaisedAtTheStreamsSynchronisation) {
  Stream stream;
  std::string message = errorOf([&] { launchFailAt(9, {{1}, {16}, 0, &stream}); });
  if (!message.empty())
    FAIL() << "the launch itself raised: " << message;
  EXPECT_EQ(errorOf([&] { stream.synchronize(); }),
            "checked.pyk:7:9: index 9 out of bounds for axis 0 of 'x' with size 9 (thread (9,0,0) of block (0,0,0) "
            "of kernel 'fail_at')");
  synchronize();
}

/// What fail_at(4) on one block of 8 threads reports.
const char *const failureAt4 = "checked.pyk:7:9: index 4 out of bounds for axis 0 of 'x' with size 4 (thread (4,0,0) "
                               "of block (0,0,0) of kernel 'fail_at')";

// A GPU's check record is the device's, so a failure on a stream destroyed
// before its synchronisation surfaces at the next one of any kind; the CPU
// device keeps it for the device when the stream goes.

TEST_F(CheckedLaunches, AFailureOnADestroyedStreamIsRaisedAtTheNextSynchronize) {
  {
    Stream stream;
    launchFailAt(4, {{1}, {8}, 0, &stream});
  }
  EXPECT_EQ(errorOf([&] { synchronize(); }), failureAt4);
  EXPECT_EQ(errorOf([&] { synchronize(); }), "") << "raised twice";
}

TEST_F(CheckedLaunches, AFailureOnADestroyedStreamIsRaisedAtACopyToTheHost) {
  auto data = to_device(std::vector<float>(4, 1.0f));
  std::vector<float> host(4);
  {
    Stream stream;
    launchFailAt(4, {{1}, {8}, 0, &stream});
  }
  EXPECT_EQ(errorOf([&] { data.copy_to_host(host); }), failureAt4);
  EXPECT_EQ(host, std::vector<float>(4, 1.0f)) << "the copy is made before the error is raised";
  EXPECT_EQ(errorOf([&] { synchronize(); }), "") << "raised twice";
}

TEST_F(CheckedLaunches, AFailureOnADestroyedStreamIsRaisedAtAnotherStreamsSynchronisation) {
  Stream other;
  {
    Stream stream;
    launchFailAt(4, {{1}, {8}, 0, &stream});
  }
  EXPECT_EQ(errorOf([&] { other.synchronize(); }), failureAt4);
  EXPECT_EQ(errorOf([&] { synchronize(); }), "") << "raised twice";
}

} // namespace
} // namespace pyk::test
