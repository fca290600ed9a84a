//===- OutputFiles.cpp - pykc's outputs, written whole or not at all -----===//
#include "OutputFiles.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <system_error>

namespace pyk::cli {

namespace {

void reportCannotWrite(const std::string &path, const std::string &why, llvm::raw_ostream &errors) {
  llvm::WithColor::error(errors, "pykc") << "cannot write '" << path << "': " << why << "\n";
}

/// Writes `contents` through `os`, flushes it, and returns the stream's
/// error, clearing it (raw_fd_ostream aborts on an error left uncleared).
std::error_code writeAll(llvm::raw_fd_ostream &os, const std::string &contents) {
  os << contents;
  os.flush();
  std::error_code error = os.error();
  os.clear_error();
  return error;
}

/// An output waiting in its temporary file beside `target`.
struct PendingFile {
  std::string target;
  llvm::sys::fs::TempFile temp;
};

/// Writes `contents` to a new temporary file beside `target`.
llvm::Expected<PendingFile> writeTemporary(const std::string &target, const std::string &contents, bool isText) {
  llvm::Expected<llvm::sys::fs::TempFile> temp = llvm::sys::fs::TempFile::create(
      target + ".tmp%%%%%%", llvm::sys::fs::all_read | llvm::sys::fs::all_write,
      isText ? llvm::sys::fs::OF_Text : llvm::sys::fs::OF_None);
  if (!temp)
    return temp.takeError();
  std::error_code error;
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    error = writeAll(os, contents);
  }
  if (error) {
    llvm::consumeError(temp->discard());
    return llvm::errorCodeToError(error);
  }
  return PendingFile{target, std::move(*temp)};
}

/// Standard output, or a file that is no regular file (/dev/null, a pipe):
/// written in place, as nothing can be renamed onto it.
bool writeInPlace(const std::string &path, const std::string &contents, bool isText, llvm::raw_ostream &errors) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, isText ? llvm::sys::fs::OF_Text : llvm::sys::fs::OF_None);
  if (!error) {
    error = writeAll(os, contents);
    if (!error && path != "-") {
      os.close(); // where a file system reports what it could not store
      error = os.error();
      os.clear_error();
    }
  }
  if (!error)
    return true;
  reportCannotWrite(path == "-" ? "<stdout>" : path, error.message(), errors);
  return false;
}

/// Whether `path` already holds exactly `contents`. Such a file is left
/// alone, keeping its time: the build then recompiles nothing that includes
/// NAME.pyk.h after an edit of a kernel's body only.
bool holdsAlready(const std::string &path, const std::string &contents) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> existing =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  return existing && (*existing)->getBuffer() == contents;
}

bool isDevice(const std::string &path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return false; // not there yet: a new regular file
  return status.type() != llvm::sys::fs::file_type::regular_file;
}

} // namespace

bool writeOutputFile(const std::string &path, const std::string &contents, bool isText, llvm::raw_ostream &errors) {
  if (path == "-" || isDevice(path))
    return writeInPlace(path, contents, isText, errors);
  llvm::Expected<PendingFile> pending = writeTemporary(path, contents, isText);
  if (!pending) {
    reportCannotWrite(path, llvm::toString(pending.takeError()), errors);
    return false;
  }
  if (llvm::Error error = pending->temp.keep(path)) {
    reportCannotWrite(path, llvm::toString(std::move(error)), errors);
    return false;
  }
  return true;
}

bool writeOutputFiles(const std::string &directory, const std::vector<std::pair<std::string, std::string>> &files,
                      llvm::raw_ostream &errors) {
  if (std::error_code error = llvm::sys::fs::create_directories(directory)) {
    llvm::WithColor::error(errors, "pykc") << "cannot create the directory '" << directory << "': " << error.message()
                                           << "\n";
    return false;
  }
  // 1. Every file into its temporary; a failure discards those written.
  std::vector<PendingFile> pending;
  auto discardAll = [&] {
    for (PendingFile &file : pending)
      llvm::consumeError(file.temp.discard());
  };
  for (const auto &[name, contents] : files) {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, name);
    const std::string target(path.str());
    if (llvm::sys::fs::is_directory(target)) {
      discardAll();
      reportCannotWrite(target, "a directory is in the way", errors);
      return false;
    }
    if (holdsAlready(target, contents))
      continue;
    llvm::Expected<PendingFile> file = writeTemporary(target, contents, /*isText=*/false);
    if (!file) {
      discardAll();
      reportCannotWrite(target, llvm::toString(file.takeError()), errors);
      return false;
    }
    pending.push_back(std::move(*file));
  }
  // 2. All written: each renamed into place (a rename within a directory
  // does not run out of space).
  bool placed = true;
  for (PendingFile &file : pending) {
    if (llvm::Error error = file.temp.keep(file.target)) {
      reportCannotWrite(file.target, llvm::toString(std::move(error)), errors);
      placed = false;
    }
  }
  return placed;
}

} // namespace pyk::cli
