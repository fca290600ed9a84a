//===- CudaToolkit.cpp - The CUDA toolkit's programs: ptxas, nvcc, nvlink --===//
#include "CudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>
#include <set>

namespace pyk::llvmgen {

std::string findToolkitProgram(llvm::StringRef name) {
  const char *cudaHome = std::getenv("CUDA_HOME");
  for (const char *home : {static_cast<const char *>(cudaHome), "/usr/local/cuda"}) {
    if (!home || !*home)
      continue;
    llvm::SmallString<256> path(home);
    llvm::sys::path::append(path, "bin", name);
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  if (auto found = llvm::sys::findProgramByName(name))
    return *found;
  return "";
}

namespace {

llvm::Error failure(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Temporary files in a directory of their own, removed with it.
class TemporaryFiles {
public:
  TemporaryFiles() = default;
  TemporaryFiles(const TemporaryFiles &) = delete;
  TemporaryFiles &operator=(const TemporaryFiles &) = delete;
  ~TemporaryFiles() {
    for (const std::string &path : paths)
      llvm::sys::fs::remove(path);
    if (!directory.empty())
      llvm::sys::fs::remove(directory);
  }

  /// The path of a new file `name`, holding `contents` when given.
  llvm::Expected<std::string> create(llvm::StringRef name, const std::string *contents = nullptr) {
    if (directory.empty()) {
      llvm::SmallString<128> made;
      if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("pyk", made))
        return failure("cannot create a temporary directory: " + ec.message());
      directory = std::string(made);
    }
    llvm::SmallString<128> path(directory);
    llvm::sys::path::append(path, name);
    paths.emplace_back(path);
    if (contents) {
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      if (ec)
        return failure("cannot write '" + std::string(path) + "': " + ec.message());
      os << *contents;
    }
    return std::string(path);
  }

  /// `messages` with the files' directory left out: "in 'kernels.o'".
  std::string withoutDirectory(std::string messages) const {
    const std::string prefix = directory + std::string(1, llvm::sys::path::get_separator().front());
    for (std::size_t at; !directory.empty() && (at = messages.find(prefix)) != std::string::npos;)
      messages.erase(at, prefix.size());
    return messages;
  }

private:
  std::string directory;
  std::vector<std::string> paths;
};

/// Runs the toolkit's program `name` with `args`, which write `output`;
/// returns what it wrote there, or fails with `rejected` and the program's
/// messages.
llvm::Expected<std::string> runProgram(llvm::StringRef name, const std::vector<std::string> &args,
                                       const std::string &output, TemporaryFiles &files, const std::string &rejected) {
  const std::string program = findToolkitProgram(name);
  if (program.empty())
    return failure("cannot find " + name.str() + " (set CUDA_HOME to the CUDA toolkit)");
  llvm::Expected<std::string> log = files.create(name.str() + ".log");
  if (!log)
    return log.takeError();
  llvm::SmallVector<llvm::StringRef, 16> argv = {program};
  argv.append(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(*log), llvm::StringRef(*log)};
  std::string runError;
  const int status = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects, 0, 0, &runError);
  if (status != 0) {
    auto messages = llvm::MemoryBuffer::getFile(*log);
    std::string text = messages ? (*messages)->getBuffer().trim().str() : runError;
    return failure(rejected + ":\n" + files.withoutDirectory(text.empty() ? runError : text));
  }
  auto written = llvm::MemoryBuffer::getFile(output, /*IsText=*/false);
  if (!written)
    return failure("cannot read what " + name.str() + " wrote: " + written.getError().message());
  return (*written)->getBuffer().str();
}

} // namespace

llvm::Expected<std::string> assembleCubin(const std::string &ptx, const std::string &arch, bool relocatable,
                                          const std::string &name) {
  TemporaryFiles files;
  llvm::Expected<std::string> input = files.create(name + ".ptx", &ptx);
  if (!input)
    return input.takeError();
  llvm::Expected<std::string> output = files.create(name + (relocatable ? ".o" : ".cubin"));
  if (!output)
    return output.takeError();
  std::vector<std::string> args = {"-arch=" + arch, *input, "-o", *output};
  if (relocatable)
    args.insert(args.begin(), "-c");
  return runProgram("ptxas", args, *output, files, "ptxas rejected the PTX for " + arch);
}

llvm::Expected<std::string> compileCudaToPtx(const std::string &path, const std::string &arch) {
  TemporaryFiles files;
  llvm::Expected<std::string> output = files.create(llvm::sys::path::filename(path).str() + ".ptx");
  if (!output)
    return output.takeError();
  // "sm_80" is the real architecture; its PTX is for the virtual one.
  std::string virtualArch = arch;
  if (llvm::StringRef(arch).starts_with("sm_"))
    virtualArch = "compute_" + arch.substr(3);
  return runProgram("nvcc", {"-rdc=true", "-ptx", "-arch=" + virtualArch, path, "-o", *output}, *output, files,
                     "nvcc could not compile '" + path + "' for " + arch);
}

llvm::Expected<std::string> linkCubins(const std::vector<std::pair<std::string, std::string>> &objects,
                                       const std::string &arch) {
  TemporaryFiles files;
  std::vector<std::string> args = {"-arch=" + arch};
  std::set<std::string> taken;
  for (const auto &[name, object] : objects) {
    // Two linked files of one name, from two directories: "2-name".
    std::string unique = name;
    for (int n = 2; !taken.insert(unique).second; ++n)
      unique = std::to_string(n) + "-" + name;
    llvm::Expected<std::string> input = files.create(unique, &object);
    if (!input)
      return input.takeError();
    args.push_back(*input);
  }
  llvm::Expected<std::string> output = files.create("linked.cubin");
  if (!output)
    return output.takeError();
  args.insert(args.end(), {"-o", *output});
  return runProgram("nvlink", args, *output, files, "nvlink could not link the kernels for " + arch + " with the CUDA C++ they call");
}

} // namespace pyk::llvmgen
