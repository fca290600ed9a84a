//===- DeviceSelectionTest.cpp - PYK_DEVICE, each case in a fresh process ===//
//
// The device is selected once per process, so each case runs the small
// pyk_device_probe program with an environment of its own (nothing else is
// inherited) and checks what it prints.
//
//===----------------------------------------------------------------------===//
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

struct ProbeResult {
  int exitCode = -1;
  std::string out, err;
};

std::string readAndRemove(const std::string &path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  std::remove(path.c_str());
  return text.str();
}

/// Runs the probe with exactly `environment` (plus PATH) and `argument`.
ProbeResult runProbe(std::vector<std::string> environment, std::string argument = {}) {
  std::string outPath = testing::TempDir() + "pyk-probe-out-XXXXXX";
  std::string errPath = testing::TempDir() + "pyk-probe-err-XXXXXX";
  int outFd = mkstemp(outPath.data());
  int errFd = mkstemp(errPath.data());
  EXPECT_GE(outFd, 0);
  EXPECT_GE(errFd, 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, outFd, 1);
  posix_spawn_file_actions_adddup2(&actions, errFd, 2);
  environment.push_back("PATH=/usr/bin:/bin");
  std::vector<char *> envp;
  for (std::string &entry : environment)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::string program = PYK_DEVICE_PROBE;
  char *argv[] = {program.data(), argument.empty() ? nullptr : argument.data(), nullptr};
  pid_t pid = 0;
  ProbeResult result;
  int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(outFd);
  close(errFd);
  EXPECT_EQ(spawned, 0) << "cannot run " << program;
  int status = 0;
  if (spawned == 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  result.out = readAndRemove(outPath);
  result.err = readAndRemove(errPath);
  return result;
}

/// A directory holding libcuda.so.1 as a link to `library`, removed at the end.
class LibraryDirectory {
public:
  explicit LibraryDirectory(const std::string &library) {
    path_ = testing::TempDir() + "pyk-libcuda-XXXXXX";
    if (!mkdtemp(path_.data()) || symlink(library.c_str(), (path_ + "/libcuda.so.1").c_str()) != 0)
      ADD_FAILURE() << "cannot make " << path_;
  }
  ~LibraryDirectory() {
    unlink((path_ + "/libcuda.so.1").c_str());
    rmdir(path_.c_str());
  }
  std::string ldLibraryPath() const { return "LD_LIBRARY_PATH=" + path_; }

private:
  std::string path_;
};

/// Skips the test when this machine has a CUDA driver, where "no driver"
/// cannot be observed.
#define SKIP_IF_A_DRIVER_IS_INSTALLED()                                                                                \
  do {                                                                                                                 \
    ProbeResult withoutDriver = runProbe({"PYK_DEVICE=cuda"});                                                         \
    if (withoutDriver.out.find("libcuda.so.1 cannot be loaded") == std::string::npos)                                  \
      GTEST_SKIP() << "a CUDA driver is installed on this machine: " << withoutDriver.out;                             \
  } while (false)

const std::string fakeDriverPath = "LD_LIBRARY_PATH=" PYK_FAKE_CUDA_DIR;

TEST(DeviceSelection, CpuWhenRequested) {
  ProbeResult result = runProbe({"PYK_DEVICE=cpu", "PYK_CPU_THREADS=3"});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out, "device: cpu\nname: CPU device (3 threads)\n");
  EXPECT_EQ(result.err, "");
}

TEST(DeviceSelection, ValueIsCaseInsensitive) {
  ProbeResult result = runProbe({"PYK_DEVICE=CPU", "PYK_CPU_THREADS=1"});
  EXPECT_EQ(result.out, "device: cpu\nname: CPU device (1 thread)\n");
}

TEST(DeviceSelection, UnknownValueIsADeviceError) {
  ProbeResult result = runProbe({"PYK_DEVICE=bogus"});
  EXPECT_EQ(result.exitCode, 3);
  std::string line = "DeviceError: pyk: PYK_DEVICE is 'bogus'; set it to 'cpu' or 'cuda', or unset it to use a GPU "
                     "when there is one and the CPU device otherwise\n";
  EXPECT_EQ(result.out, line + line) << "the error is reported on every use";
}

TEST(DeviceSelection, BadCpuThreadCountIsADeviceError) {
  for (const char *value : {"0", "lots", "-2", "5000"}) {
    ProbeResult result = runProbe({"PYK_DEVICE=cpu", std::string("PYK_CPU_THREADS=") + value});
    EXPECT_EQ(result.exitCode, 3) << value;
    EXPECT_THAT(result.out, StartsWith(std::string("DeviceError: pyk: PYK_CPU_THREADS is '") + value +
                                       "'; set it to a whole number from 1 to 1024, or unset it to use one thread "
                                       "per hardware thread\n"));
  }
}

TEST(DeviceSelection, BadFiberStackSizeIsADeviceError) {
  for (const char *value : {"4096", "64k", "-65536", "1000000000000"}) {
    ProbeResult result = runProbe({"PYK_DEVICE=cpu", std::string("PYK_CPU_FIBER_STACK=") + value});
    EXPECT_EQ(result.exitCode, 3) << value;
    EXPECT_THAT(result.out, StartsWith(std::string("DeviceError: pyk: PYK_CPU_FIBER_STACK is '") + value +
                                       "'; set it to a number of bytes from 16384 to 268435456, or unset it for "
                                       "65536\n"));
  }
  ProbeResult good = runProbe({"PYK_DEVICE=cpu", "PYK_CPU_THREADS=2", "PYK_CPU_FIBER_STACK=16384"});
  EXPECT_EQ(good.out, "device: cpu\nname: CPU device (2 threads)\n");
}

TEST(DeviceSelection, BadLaunchTimeoutIsADeviceError) {
  for (const char *value : {"0", "-1", "5s", "nan", "inf", "1e9"}) {
    ProbeResult result = runProbe({"PYK_DEVICE=cpu", std::string("PYK_CPU_LAUNCH_TIMEOUT=") + value});
    EXPECT_EQ(result.exitCode, 3) << value;
    EXPECT_THAT(result.out, StartsWith(std::string("DeviceError: pyk: PYK_CPU_LAUNCH_TIMEOUT is '") + value +
                                       "'; set it to a number of seconds greater than 0 and at most 604800 (such as "
                                       "0.5 or 60), or unset it to let launches run for as long as they take\n"));
  }
  ProbeResult good = runProbe({"PYK_DEVICE=cpu", "PYK_CPU_THREADS=2", "PYK_CPU_LAUNCH_TIMEOUT=0.5"});
  EXPECT_EQ(good.out, "device: cpu\nname: CPU device (2 threads)\n");
}

TEST(DeviceSelection, CudaRequestedWithoutADriverSaysWhy) {
  SKIP_IF_A_DRIVER_IS_INSTALLED();
  ProbeResult result = runProbe({"PYK_DEVICE=cuda"});
  EXPECT_EQ(result.exitCode, 3);
  std::string line = "DeviceError: pyk: PYK_DEVICE=cuda, but no GPU can be used: libcuda.so.1 cannot be loaded "
                     "(libcuda.so.1: cannot open shared object file: No such file or directory); install the NVIDIA "
                     "driver to run kernels on a GPU. Unset PYK_DEVICE or set PYK_DEVICE=cpu to run kernels on the "
                     "CPU device\n";
  EXPECT_EQ(result.out, line + line);
  EXPECT_EQ(result.err, "");
}

TEST(DeviceSelection, UnsetWithoutADriverIsTheCpuDeviceSilently) {
  SKIP_IF_A_DRIVER_IS_INSTALLED();
  ProbeResult result = runProbe({"PYK_CPU_THREADS=2"});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out, "device: cpu\nname: CPU device (2 threads)\n");
  EXPECT_EQ(result.err, "");
}

TEST(DeviceSelection, TheToolkitsStubLibraryIsNotADriver) {
  std::string stub = PYK_CUDA_STUB;
  if (stub.empty())
    GTEST_SKIP() << "the CUDA toolkit's stubs/libcuda.so was not found when building";
  LibraryDirectory directory(stub);
  ProbeResult requested = runProbe({"PYK_DEVICE=cuda", directory.ldLibraryPath()});
  EXPECT_EQ(requested.exitCode, 3);
  EXPECT_THAT(requested.out,
              StartsWith("DeviceError: pyk: PYK_DEVICE=cuda, but no GPU can be used: cuInit failed: "
                         "CUDA_ERROR_STUB_LIBRARY (34): libcuda.so.1 is the CUDA toolkit's stub, not a driver"));

  ProbeResult automatic = runProbe({"PYK_CPU_THREADS=2", directory.ldLibraryPath()});
  EXPECT_EQ(automatic.exitCode, 0);
  EXPECT_EQ(automatic.out, "device: cpu\nname: CPU device (2 threads)\n");
  EXPECT_EQ(automatic.err,
            "pyk: note: running kernels on the CPU device: a CUDA driver is installed but no GPU can be used (cuInit "
            "failed: CUDA_ERROR_STUB_LIBRARY (34): libcuda.so.1 is the CUDA toolkit's stub, not a driver: install "
            "the NVIDIA driver, or take the toolkit's stubs directory out of LD_LIBRARY_PATH)\n");
}

TEST(DeviceSelection, AWorkingDriverIsUsedWhenRequestedOrNot) {
  for (const char *request : {"PYK_DEVICE=cuda", "PYK_DEVICE="}) {
    ProbeResult result = runProbe({request, fakeDriverPath});
    EXPECT_EQ(result.exitCode, 0) << request;
    EXPECT_EQ(result.out, "device: cuda\nname: pyk fake GPU (sm_90)\n") << request;
    EXPECT_EQ(result.err, "") << request;
  }
}

TEST(DeviceSelection, DriverWhoseInitFails) {
  ProbeResult requested = runProbe({"PYK_DEVICE=cuda", "PYK_FAKE_CUDA_INIT_ERROR=100", fakeDriverPath});
  EXPECT_EQ(requested.exitCode, 3);
  EXPECT_THAT(requested.out, StartsWith("DeviceError: pyk: PYK_DEVICE=cuda, but no GPU can be used: cuInit failed: "
                                        "CUDA_ERROR_NO_DEVICE (100): the driver sees no GPU; check nvidia-smi and "
                                        "CUDA_VISIBLE_DEVICES. Unset PYK_DEVICE"));

  ProbeResult automatic = runProbe({"PYK_FAKE_CUDA_INIT_ERROR=100", "PYK_CPU_THREADS=2", fakeDriverPath});
  EXPECT_EQ(automatic.exitCode, 0);
  EXPECT_EQ(automatic.out, "device: cpu\nname: CPU device (2 threads)\n");
  EXPECT_EQ(automatic.err, "pyk: note: running kernels on the CPU device: a CUDA driver is installed but no GPU can "
                           "be used (cuInit failed: CUDA_ERROR_NO_DEVICE (100): the driver sees no GPU; check "
                           "nvidia-smi and CUDA_VISIBLE_DEVICES)\n");
}

TEST(DeviceSelection, DriverThatSeesNoGpu) {
  ProbeResult result = runProbe({"PYK_DEVICE=cuda", "PYK_FAKE_CUDA_DEVICES=0", fakeDriverPath});
  EXPECT_EQ(result.exitCode, 3);
  EXPECT_THAT(result.out, HasSubstr("no GPU can be used: the CUDA driver sees no GPU; check nvidia-smi and "
                                    "CUDA_VISIBLE_DEVICES."));
}

TEST(DeviceSelection, ArraysAndStreamsInStaticsOutliveTheRuntimesOwn) {
  for (const char *threads : {"PYK_CPU_THREADS=4", "PYK_CPU_THREADS=1"}) {
    ProbeResult result = runProbe({"PYK_DEVICE=cpu", threads}, "statics");
    EXPECT_EQ(result.exitCode, 0) << threads << ": " << result.err;
    EXPECT_EQ(result.out, "statics: left work for exit\n");
    EXPECT_EQ(result.err, "");
  }
  ProbeResult fake = runProbe({"PYK_DEVICE=cuda", fakeDriverPath}, "statics");
  EXPECT_EQ(fake.exitCode, 0) << fake.err;
}

} // namespace
