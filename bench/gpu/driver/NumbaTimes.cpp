// Numba's times, measured by numba_bench.py in its own process (Numba has
// its own CUDA context and allocator) and handed over in a file: one line
// per kernel, "NAME MS" or "NAME STATUS WORDS...".
#include "Bench.h"

#include <fstream>
#include <sstream>

namespace bench {

void addNumbaTimes(const std::string &file, std::vector<KernelRow> &rows) {
  std::ifstream in(file);
  if (!in) {
    step("numba: no times in %s (numba_bench.py did not run or failed)", file.c_str());
    return;
  }
  std::string line;
  int found = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name, value;
    if (!(words >> name >> value))
      continue;
    for (KernelRow &row : rows) {
      if (row.name != name)
        continue;
      ++found;
      char *end = nullptr;
      const double ms = std::strtod(value.c_str(), &end);
      if (end && *end == '\0' && ms > 0) {
        row.ms[Numba] = ms;
        row.status[Numba] = "ok";
      } else {
        std::string rest;
        std::getline(words, rest);
        row.status[Numba] = value + rest;
      }
    }
  }
  step("numba: %d kernel times read from %s", found, file.c_str());
}

} // namespace bench
