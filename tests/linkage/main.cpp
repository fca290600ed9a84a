// Four libraries, two static and two shared, each with a kernels.pyk that
// holds a kernel 'scale' of the same signature, linked into one program:
// each library's call must run its own kernel, not the first one the linker
// or the dynamic loader found (issue 19, item 1).
#include "Checks.h"

#include <vector>

std::vector<float> doubled(const std::vector<float> &x);    // static
std::vector<float> offset(const std::vector<float> &x);     // static
std::vector<float> tripled(const std::vector<float> &x);    // shared
std::vector<float> negated(const std::vector<float> &x);    // shared

int main() {
  std::vector<float> x(200);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(i) - 50.0f;
  Checks checks;
  struct Library {
    const char *name;
    std::vector<float> (*run)(const std::vector<float> &);
    float (*expected)(float);
  };
  const Library libraries[] = {
      {"static doubling", doubled, [](float v) { return v * 2.0f; }},
      {"static offsetting", offset, [](float v) { return v + 100.0f; }},
      {"shared tripling", tripled, [](float v) { return v * 3.0f; }},
      {"shared negating", negated, [](float v) { return -v; }},
  };
  for (const Library &library : libraries) {
    const std::vector<float> got = library.run(x);
    for (std::size_t i = 0; i < x.size(); ++i)
      checks.equal(library.name, static_cast<long long>(i), got[i], library.expected(x[i]));
  }
  return checks.finish("linkage");
}
