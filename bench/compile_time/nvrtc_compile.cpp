//===- nvrtc_compile.cpp - Compile a .cu file to PTX with NVRTC -----------===//
//
// usage: nvrtc_compile FILE.cu ARCH
// Compiles the file in-process with NVRTC for ARCH (compute_90, ...) and
// prints the in-process compile time in milliseconds on stdout. The PTX is
// discarded; a compile error prints NVRTC's log and exits 1.
//
//===----------------------------------------------------------------------===//
#include <nvrtc.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: nvrtc_compile FILE.cu compute_XX\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "nvrtc_compile: cannot read %s\n", argv[1]);
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
  const std::string arch = std::string("--gpu-architecture=") + argv[2];

  const auto start = std::chrono::steady_clock::now();
  nvrtcProgram program;
  if (nvrtcCreateProgram(&program, source.c_str(), argv[1], 0, nullptr, nullptr) != NVRTC_SUCCESS)
    return 1;
  const char *options[] = {arch.c_str(), "-default-device"};
  nvrtcResult result = nvrtcCompileProgram(program, 2, options);
  size_t ptxSize = 0;
  if (result == NVRTC_SUCCESS)
    nvrtcGetPTXSize(program, &ptxSize);
  std::vector<char> ptx(ptxSize);
  if (result == NVRTC_SUCCESS)
    nvrtcGetPTX(program, ptx.data());
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;

  if (result != NVRTC_SUCCESS) {
    size_t logSize = 0;
    nvrtcGetProgramLogSize(program, &logSize);
    std::string log(logSize, '\0');
    nvrtcGetProgramLog(program, log.data());
    std::fprintf(stderr, "%s\n", log.c_str());
    nvrtcDestroyProgram(&program);
    return 1;
  }
  nvrtcDestroyProgram(&program);
  std::printf("%.3f\n", elapsed.count());
  return 0;
}
