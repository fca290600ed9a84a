//===- TestSupport.h - Fixtures shared by the runtime tests ----------------===//
//
// The device-dependent tests run once per device (ctest registers the test
// executable with PYK_DEVICE=cpu, PYK_DEVICE=cuda and PYK_DEVICE=cuda on the
// fake driver): a test skips, saying why, when the selected device cannot be
// used, and never passes without running.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_TEST_TESTSUPPORT_H
#define PYK_TEST_TESTSUPPORT_H

#include "TestKernels.h"
#include "pyk/pyk.h"

#include <gtest/gtest.h>

#include <string>

namespace pyk::test {

/// Runs on whatever device PYK_DEVICE selects; skips when it is unusable.
class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    try {
      device_ = current_device();
    } catch (const DeviceError &error) {
      GTEST_SKIP() << "the requested device cannot be used: " << error.what();
    }
    onFakeDriver_ = device_ == DeviceKind::Cuda && registerWithFakeDriver();
  }

  bool onCpu() const { return device_ == DeviceKind::Cpu; }
  bool onFakeDriver() const { return onFakeDriver_; }
  /// How launch errors name the device.
  std::string deviceLabel() const { return onCpu() ? "the CPU device" : device_name(); }

private:
  DeviceKind device_ = DeviceKind::Cpu;
  bool onFakeDriver_ = false;
};

/// Runs only on the CPU device.
class CpuDeviceTest : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    if (IsSkipped())
      return;
    if (!onCpu())
      GTEST_SKIP() << "tests the CPU device; this process runs on " << device_name();
  }
};

} // namespace pyk::test

#endif // PYK_TEST_TESTSUPPORT_H
