// Runs records.pyk: arrays of the file's own records, made in C++ as
// std::vector of the structs its launch header defines, and each field's
// value after the kernels, worked out here.
#include "Checks.h"
#include "records.pyk.h"

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <vector>

// The header's structs have NumPy's layouts: Reading is packed.
static_assert(sizeof(pyk::records::Particle) == 24 && offsetof(pyk::records::Particle, mass) == 16);
static_assert(sizeof(pyk::records::Reading) == 11 && offsetof(pyk::records::Reading, value) == 1 &&
              offsetof(pyk::records::Reading, count) == 9);
static_assert(sizeof(pyk::records::Pair) == 8 && sizeof(pyk::records::Keywords) == 16);

int main() {
  Checks checks;

  const int n = 37;
  std::vector<pyk::records::Particle> particles(n);
  for (int i = 0; i < n; ++i)
    particles[i] = {float(i) * 0.5f, float(i % 5) - 2.0f, i, 1.0 + i * 0.25};
  auto dparticles = pyk::to_device(particles);
  auto energy = pyk::device_empty<double>({n});
  pyk::kernels::advance({2, 32}, dparticles, 0.125f, energy);
  std::vector<pyk::records::Particle> moved(n);
  dparticles.copy_to_host(moved);
  std::vector<double> gotEnergy(n);
  energy.copy_to_host(gotEnergy);
  for (int i = 0; i < n; ++i) {
    const pyk::records::Particle &p = particles[i];
    const float x = p.x + 0.125f * p.y;
    checks.equal("x", i, moved[i].x, x);
    checks.equal("y", i, moved[i].y, p.y);
    checks.exact("id", moved[i].id, 2 * i + 1);
    checks.equal("mass", i, moved[i].mass, p.mass);
    // kinetic() computes in float64: the mass is float64.
    checks.equal("energy", i, gotEnergy[i], 0.5 * p.mass * (double(x) * double(x) + double(p.y) * double(p.y)));
  }

  const int m = 9;
  std::vector<pyk::records::Reading> readings(m);
  for (int i = 0; i < m; ++i)
    readings[i] = {std::uint8_t(i % 3 != 0), 1.5 * i - 4.0, std::int16_t(i == 4 ? 32767 : 10 * i)};
  auto dreadings = pyk::to_device(readings);
  auto totals = pyk::device_empty<double>({m});
  pyk::kernels::tally({1, 32}, dreadings, totals);
  std::vector<pyk::records::Reading> tallied(m);
  dreadings.copy_to_host(tallied);
  std::vector<double> gotTotals(m);
  totals.copy_to_host(gotTotals);
  for (int i = 0; i < m; ++i) {
    const bool flagged = i % 3 != 0;
    // int16 wraps, as NumPy's does: 32767 + 1 is -32768.
    const std::int16_t count = flagged ? std::int16_t(std::uint16_t(readings[i].count) + 1) : readings[i].count;
    checks.exact("flag", tallied[i].flag, flagged);
    checks.exact("count", tallied[i].count, count);
    checks.equal("value", i, tallied[i].value, flagged ? readings[i].value : -1.0);
    checks.equal("total", i, gotTotals[i], flagged ? readings[i].value * count : 0.0);
  }

  const int k = 5;
  std::vector<pyk::records::Pair> pairs(k);
  std::vector<pyk::records::Keywords> keywords(k);
  for (int i = 0; i < k; ++i) {
    pairs[i] = {i, -7 * i};
    keywords[i] = {std::int64_t(1) << (40 + i), 0.25f * i};
  }
  auto dpairs = pyk::to_device(pairs);
  auto dkeywords = pyk::to_device(keywords);
  pyk::kernels::swap_pairs({1, 32}, dpairs, dkeywords);
  std::vector<pyk::records::Pair> swapped(k);
  std::vector<pyk::records::Keywords> tripled(k);
  dpairs.copy_to_host(swapped);
  dkeywords.copy_to_host(tripled);
  for (int i = 0; i < k; ++i) {
    checks.exact("lo", swapped[i].lo, -7 * i);
    checks.exact("hi", swapped[i].hi, i);
    checks.exact("int", tripled[i].pyk_int, 3 * (std::int64_t(1) << (40 + i)));
    checks.equal("new", i, tripled[i].pyk_new, 0.25f * i + float(i));
  }
  auto ends = pyk::device_empty<double>({2});
  pyk::kernels::ends({1, 32}, dkeywords, ends);
  std::vector<double> gotEnds(2);
  ends.copy_to_host(gotEnds);
  checks.equal("last new plus first int", gotEnds[0], double(0.25f * 4 + 4.0f) + 3.0 * double(std::int64_t(1) << 40));
  checks.equal("ndim plus size", gotEnds[1], 1 + k);
  // Copies of whole records, each ordered through a local that names it.
  auto copies = pyk::device_empty<pyk::records::Pair>({k});
  pyk::kernels::ordered_copies({1, 32}, dpairs, copies);
  std::vector<pyk::records::Pair> ordered(k);
  copies.copy_to_host(ordered);
  for (int i = 0; i < k; ++i) {
    const pyk::records::Pair &source = swapped[k - 1 - i];
    checks.exact("ordered lo", ordered[i].lo, std::min(source.lo, source.hi));
    checks.exact("ordered hi", ordered[i].hi, std::max(source.lo, source.hi) + 1);
  }
  // Records passed whole to device functions, which write them.
  std::vector<pyk::records::Particle> bouncing(n);
  for (int i = 0; i < n; ++i)
    bouncing[i] = {float(i % 9), float(i % 4) - 1.0f, i, 1.0};
  auto dbouncing = pyk::to_device(bouncing);
  pyk::kernels::bounce({2, 32}, dbouncing, 8.0f);
  std::vector<pyk::records::Particle> bounced(n);
  dbouncing.copy_to_host(bounced);
  for (int i = 0; i < n; ++i) {
    pyk::records::Particle p = bouncing[i];
    p.x += p.y;
    if (p.x > 8.0f) {
      p.x = 2 * 8.0f - p.x;
      p.y = -p.y;
      p.id += 1000;
    }
    checks.equal("bounced x", i, bounced[i].x, p.x);
    checks.equal("bounced y", i, bounced[i].y, p.y);
    checks.exact("bounced id", bounced[i].id, p.id);
  }
  return checks.finish("records");
}
