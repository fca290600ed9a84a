// Runs memory_model.pyk and compares with values derived by hand: shared
// memory per block, barrier counts, local arrays, every atomic (exact,
// whatever order the threads take), warp operations and bit intrinsics.
#include "Checks.h"
#include "memory_model.pyk.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  Checks checks;
  const int blocks = 5;
  std::vector<std::int32_t> x(blocks * 64);
  for (int i = 0; i < blocks * 64; ++i)
    x[i] = i * 3 + 1;
  auto dx = pyk::to_device(x);
  auto dreversed = pyk::device_empty<std::int32_t>({blocks * 64});
  pyk::kernels::block_reverse({blocks, 64}, dx, dreversed);
  std::vector<std::int32_t> reversed(x.size());
  dreversed.copy_to_host(reversed);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 64; ++t)
      checks.equal("block_reverse", b * 64 + t, reversed[b * 64 + t], x[b * 64 + 63 - t]);

  // Dynamic shared memory of 48 int32 per block of 64 threads: each block
  // reverses its first 48 values.
  auto ddynamic = pyk::to_device(std::vector<std::int32_t>(blocks * 64, -1));
  auto dsizes = pyk::device_empty<std::int64_t>({blocks});
  pyk::kernels::dynamic_reverse({blocks, 64, 48 * sizeof(std::int32_t)}, dx, ddynamic, dsizes);
  std::vector<std::int32_t> dynamicOut(blocks * 64);
  std::vector<std::int64_t> sizes(blocks);
  ddynamic.copy_to_host(dynamicOut);
  dsizes.copy_to_host(sizes);
  for (int b = 0; b < blocks; ++b) {
    checks.equal("dynamic shared size", b, double(sizes[b]), 48);
    for (int t = 0; t < 64; ++t)
      checks.equal("dynamic_reverse", b * 64 + t, dynamicOut[b * 64 + t], t < 48 ? x[b * 64 + 47 - t] : -1);
  }

  const int threads = 100;
  auto dcounts = pyk::device_empty<std::int32_t>({2, threads});
  pyk::kernels::barrier_counts({2, threads}, dcounts);
  std::vector<std::int32_t> counts(2 * threads);
  dcounts.copy_to_host(counts);
  for (int i = 0; i < 2 * threads; ++i)
    checks.equal("barrier_counts", i, counts[i], 34 * 1000 + 100 + 10 + 0); // 34 multiples of 3 below 100

  auto dprefix = pyk::device_empty<std::int64_t>({64, 8});
  pyk::kernels::local_prefix({2, 32}, dprefix);
  std::vector<std::int64_t> prefix(64 * 8);
  dprefix.copy_to_host(prefix);
  for (int t = 0; t < 64; ++t) {
    std::int64_t sum = 0;
    for (int k = 0; k < 8; ++k) {
      sum += t * 8 + k;
      checks.equal("local_prefix", t * 8 + k, double(prefix[t * 8 + k]), double(sum));
    }
  }

  // 4 blocks of 64 threads: t = 0 .. 255.
  const int n = 256;
  auto i32 = pyk::to_device(std::vector<std::int32_t>{0, 0, -5, 5});
  auto u32 = pyk::to_device(std::vector<std::uint32_t>{0xFFFFFFFFu, 0, 0, 0, 0});
  auto i64 = pyk::to_device(std::vector<std::int64_t>{0, 0, 0});
  auto u64 = pyk::to_device(std::vector<std::uint64_t>{0, 0});
  auto f32 = pyk::to_device(std::vector<float>{0, -1});
  auto f64 = pyk::to_device(std::vector<double>{0, 0});
  auto sharedOut = pyk::to_device(std::vector<std::int32_t>{0});
  pyk::kernels::atomics({4, 64}, i32, u32, i64, u64, f32, f64, sharedOut);
  std::vector<std::int32_t> ri32(4), rshared(1);
  std::vector<std::uint32_t> ru32(5);
  std::vector<std::int64_t> ri64(3);
  std::vector<std::uint64_t> ru64(2);
  std::vector<float> rf32(2);
  std::vector<double> rf64(2);
  i32.copy_to_host(ri32);
  u32.copy_to_host(ru32);
  i64.copy_to_host(ri64);
  u64.copy_to_host(ru64);
  f32.copy_to_host(rf32);
  f64.copy_to_host(rf64);
  sharedOut.copy_to_host(rshared);
  checks.equal("shared counter", 0, rshared[0], n);
  checks.equal("add i32", 0, ri32[0], n);
  checks.equal("sub i32", 1, ri32[1], -2 * n);
  checks.equal("max i32", 2, ri32[2], n - 1);
  checks.equal("min i32", 3, ri32[3], -(n - 1));
  checks.equal("and u32", 0, ru32[0], 0);
  checks.equal("or u32", 1, ru32[1], 0xFFFFFFFFu);
  std::uint32_t xors = 0;
  for (int t = 0; t < n; ++t)
    xors ^= static_cast<std::uint32_t>(t);
  checks.equal("xor u32", 2, ru32[2], xors);
  checks.equal("inc u32", 3, ru32[3], n % 10);             // counts 0..9 then wraps to 0
  checks.equal("dec u32", 4, ru32[4], (10 - n % 10) % 10); // from 0: 9, 8, ... wrapping at 0 to 9
  checks.equal("add i64", 0, double(ri64[0]), n * (n - 1) / 2.0);
  checks.equal("max i64", 1, double(ri64[1]), (n - 1) * 1e9);
  checks.equal("add u64", 0, double(ru64[0]), n * 1099511627776.0);
  checks.equal("inc u64", 1, double(ru64[1]), n % 5);
  checks.equal("add f32", 0, rf32[0], n * 0.5);
  checks.equal("max f32", 1, rf32[1], (n - 1) * 0.25);
  checks.equal("min f64", 0, rf64[0], -100.0);
  checks.equal("sub f64", 1, rf64[1], -0.25 * n);
  checks.equal("exch i64", 2, double(ri64[2]), 7);
  auto slots = pyk::to_device(std::vector<std::int64_t>{0, 0});
  auto first = pyk::to_device(std::vector<std::int32_t>{0, 0});
  pyk::kernels::atomic_cas({4, 64}, slots, first);
  std::vector<std::int64_t> rslots(2);
  std::vector<std::int32_t> rfirst(2);
  slots.copy_to_host(rslots);
  first.copy_to_host(rfirst);
  checks.expect("cas i64 stored", rslots[0] > 0 && rslots[0] <= n);
  checks.equal("cas i64 one winner", 1, double(rslots[1]), 1);
  checks.expect("compare_and_swap stored", rfirst[0] > 0 && rfirst[0] <= n);
  checks.equal("compare_and_swap one winner", 1, rfirst[1], 1);

  const double nan = std::nan("");
  auto nf32 = pyk::to_device(std::vector<float>{float(nan), 0.0f, float(nan), 0.0f});
  auto nf64 = pyk::to_device(std::vector<double>{nan, nan, 0.0});
  auto ni32 = pyk::to_device(std::vector<std::int32_t>{0, 0});
  pyk::kernels::nan_atomics({4, 64}, nf32, nf64, ni32);
  std::vector<float> rn32(4);
  std::vector<double> rn64(3);
  std::vector<std::int32_t> rni(2);
  nf32.copy_to_host(rn32);
  nf64.copy_to_host(rn64);
  ni32.copy_to_host(rni);
  checks.expect("max keeps a stored NaN", std::isnan(rn32[0]));
  checks.equal("max ignores a NaN given", 1, rn32[1], (n - 1) * 0.5);
  checks.equal("nanmax replaces a stored NaN", 2, rn32[2], (n - 1) * 0.5);
  checks.equal("nanmax ignores a NaN given", 3, rn32[3], (n - 1) * 0.5);
  checks.expect("min keeps a stored NaN", std::isnan(rn64[0]));
  checks.equal("nanmin replaces a stored NaN", 1, rn64[1], -10.0);
  checks.equal("nanmin ignores a NaN given", 2, rn64[2], -10.0);
  checks.equal("nanmax i32", 0, rni[0], n - 1);
  checks.equal("nanmin i32", 1, rni[1], -(n - 1));

  std::vector<std::int32_t> values(64);
  for (int t = 0; t < 64; ++t)
    values[t] = (t * 7) % 13;
  auto dvalues = pyk::to_device(values);
  auto dwarps = pyk::device_empty<std::int64_t>({64, 13});
  pyk::kernels::warps({1, 64}, dvalues, dwarps);
  std::vector<std::int64_t> w(64 * 13);
  dwarps.copy_to_host(w);
  for (int t = 0; t < 64; ++t) {
    const int lane = t % 32, warp = t / 32 * 32;
    auto at = [&](int l) { return values[warp + l]; };
    std::uint32_t even = 0, sameClass = 0;
    std::int64_t sum = 0;
    bool anySeven = false;
    for (int l = 0; l < 32; ++l) {
      even |= (at(l) % 2 == 0 ? 1u : 0u) << l;
      sameClass |= (at(l) % 4 == at(lane) % 4 ? 1u : 0u) << l;
      sum += at(l);
      anySeven = anySeven || at(l) == 7;
    }
    const std::int64_t want[] = {at(3),
                                 lane >= 2 ? at(lane - 2) : at(lane),
                                 lane + 5 < 32 ? at(lane + 5) : at(lane),
                                 at(lane ^ 1),
                                 even,
                                 1,
                                 anySeven,
                                 1,
                                 sameClass,
                                 0xFFFFFFFFll,
                                 (1ll << lane) - 1,
                                 lane == 0 ? sum : -1,
                                 at(31)};
    for (int k = 0; k < 13; ++k)
      checks.equal("warps", t * 13 + k, double(w[t * 13 + k]), double(want[k]));
  }

  // match_all_sync: warp 0 agrees everywhere, warp 1 nowhere in full and,
  // in its lower half, only by its 64-bit values' low bits.
  std::vector<std::int32_t> keys(64, 5);
  std::vector<double> wide(64, 2.5);
  keys[40] = 6;
  wide[33] = 2.5 + 1e-9;
  auto dmatched = pyk::device_empty<std::int64_t>({64, 4});
  pyk::kernels::match_all({2, 32}, pyk::to_device(keys), pyk::to_device(wide), dmatched);
  std::vector<std::int64_t> matched(64 * 4);
  dmatched.copy_to_host(matched);
  for (int t = 0; t < 64; ++t) {
    const bool first = t < 32, low = t % 32 < 16;
    const std::int64_t want[] = {first ? 0xFFFFFFFFll : 0, first ? 1 : 0, low ? (first ? 0xFFFFll : 0) : -1,
                                 low ? (first ? 1 : 0) : -1};
    for (int k = 0; k < 4; ++k)
      checks.exact("match_all_sync", matched[t * 4 + k], want[k]);
  }

  std::vector<std::uint32_t> xs = {0, 1, 0x80000000u, 0xF0F0u, 12345678u};
  std::vector<std::uint64_t> ys = {0, 1, 1ull << 63, 0xF0F0F0F0F0ull, 987654321987ull};
  auto dxs = pyk::to_device(xs);
  auto dys = pyk::to_device(ys);
  auto dbits = pyk::device_empty<std::int64_t>({5, 7});
  auto dfl = pyk::device_empty<float>({5});
  pyk::kernels::bits({1, 32}, dxs, dys, dbits, dfl);
  std::vector<std::int64_t> b(5 * 7);
  std::vector<float> fl(5);
  dbits.copy_to_host(b);
  dfl.copy_to_host(fl);
  for (int i = 0; i < 5; ++i) {
    const std::uint32_t v = xs[i];
    const std::uint64_t y = ys[i];
    std::uint32_t reversed32 = 0;
    for (int k = 0; k < 32; ++k)
      reversed32 |= ((v >> k) & 1u) << (31 - k);
    const std::int64_t want[] = {std::popcount(v), std::countl_zero(v), v ? std::countr_zero(v) + 1 : 0,
                                 reversed32,       std::popcount(y),    std::countl_zero(y),
                                 y ? std::countr_zero(y) + 1 : 0};
    for (int k = 0; k < 7; ++k)
      checks.equal("bits", i * 7 + k, double(b[i * 7 + k]), double(want[k]));
    checks.equal("fma + cbrt", i, fl[i], float(i) * 2.0f + 0.5f + float(i));
  }

  // Threads that return before barriers are not waited for.
  {
    auto x = pyk::to_device(std::vector<std::int32_t>(64, -1));
    auto counts = pyk::to_device(std::vector<std::int32_t>{0});
    pyk::kernels::returns_before_barrier({1, 64}, x, counts);
    std::vector<std::int32_t> gotX(64), gotCounts(1);
    x.copy_to_host(gotX);
    counts.copy_to_host(gotCounts);
    for (int t = 0; t < 64; ++t)
      checks.exact("after a barrier others returned before", gotX[t], t < 32 ? (31 - t) * 3 : -1);
    checks.exact("threads counted at the barrier", gotCounts[0], 32);
  }

  // A spin lock and a last-block ticket: atomics compared in conditions.
  {
    const int blocks = 40;
    std::vector<std::int64_t> values(blocks);
    std::int64_t sum = 0, largest = 0;
    for (int b = 0; b < blocks; ++b) {
      values[b] = (b * 7919) % 1000 + 1;
      sum += values[b];
      largest = std::max(largest, values[b]);
    }
    auto mutex = pyk::to_device(std::vector<std::int32_t>{0});
    auto totals = pyk::to_device(std::vector<std::int64_t>{0, 0});
    auto tickets = pyk::to_device(std::vector<std::int32_t>{0, 0});
    auto last = pyk::to_device(std::vector<std::int32_t>{0});
    pyk::kernels::locked_updates({blocks, 32}, mutex, pyk::to_device(values), totals, tickets, last);
    std::vector<std::int64_t> gotTotals(2);
    std::vector<std::int32_t> gotTickets(2), gotLast(1), gotMutex(1);
    totals.copy_to_host(gotTotals);
    tickets.copy_to_host(gotTickets);
    last.copy_to_host(gotLast);
    mutex.copy_to_host(gotMutex);
    checks.exact("locked sum", gotTotals[0], sum);
    checks.exact("locked max", gotTotals[1], largest);
    checks.exact("tickets", gotTickets[0], blocks);
    checks.exact("one last block", gotTickets[1], 1);
    checks.exact("last block's ticket", gotLast[0], 1);
    checks.exact("lock released", gotMutex[0], 0);
  }

  return checks.finish("memory_model");
}
