//===- OutputFiles.h - pykc's outputs, written whole or not at all -------===//
//
// pykc writes each output to a temporary file beside its target and renames
// it into place once every byte is out, so a full disk or a failed write
// leaves the old file (or none), never a truncated one; --emit=host places
// its files only when all of them were written. Not for reading inputs.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CLI_OUTPUTFILES_H
#define PYK_CLI_OUTPUTFILES_H

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace pyk::cli {

/// Writes `contents` to `path` ("-" for standard output; a device such as
/// /dev/null is written in place). On failure, prints "pykc: error: cannot
/// write 'PATH': WHY" to `errors` and returns false.
bool writeOutputFile(const std::string &path, const std::string &contents, bool isText, llvm::raw_ostream &errors);

/// Writes each (name, contents) into `directory` (created if needed): all
/// of them, or, on failure, none (the error printed as above). A file that
/// holds its contents already is not written again, keeping its time, so
/// that a body-only edit of a kernel recompiles nothing that includes
/// NAME.pyk.h.
bool writeOutputFiles(const std::string &directory, const std::vector<std::pair<std::string, std::string>> &files,
                      llvm::raw_ostream &errors);

} // namespace pyk::cli

#endif // PYK_CLI_OUTPUTFILES_H
