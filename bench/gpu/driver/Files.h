// Reading the files bench/gpu/prepare made (PTX text, cubins).
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace bench {

/// The whole file; throws naming it when it cannot be read.
inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read " + path + " (did bench/gpu/prepare run, and was generated/ carried?)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace bench
