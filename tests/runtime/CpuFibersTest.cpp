//===- CpuFibersTest.cpp - Barriers and warp operations on the CPU device ---===//
//
// Kernels that synchronise, written as pykc generates them (FiberKernels.h),
// launched through the runtime: block reductions through shared memory,
// syncthreads_count/and/or, warp shuffles, votes and match_any on full and
// partial warps, warp operations whose masks name lanes that have returned
// or do not exist (CUDA's rule: only the lanes that have not exited take
// part), the order fibers run in, and fibers' stacks. The CPU
// device runs data on host memory, so the kernels take host pointers.
// Misuse is in CpuFiberErrorsTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "FiberKernels.h"
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace pyk::test {
namespace {

class CpuFibers : public CpuDeviceTest {};

constexpr std::uint32_t fullMask = 0xffffffffu;

std::uint64_t gridBlocks(const Dim3 &grid) {
  return std::uint64_t{grid.x} * grid.y * grid.z;
}

std::uint32_t threadsOf(const Dim3 &block) {
  return block.x * block.y * block.z;
}

std::string shapeName(const Dim3 &shape) {
  return "(" + std::to_string(shape.x) + ", " + std::to_string(shape.y) + ", " + std::to_string(shape.z) + ")";
}

//===--- Block reduction through shared memory --------------------------===//

/// out[block] = the sum of the block's elements of in[0, n), by a tree
/// reduction in static shared memory with a barrier per level.
void blockSumThread(void **args, const CpuBlockContext *block, void *frame, std::uint32_t x, std::uint32_t y,
                    std::uint32_t z) {
  auto in = fiberArg<const std::int64_t *>(args, 0);
  auto n = fiberArg<std::int64_t>(args, 1);
  auto out = fiberArg<std::int64_t *>(args, 2);
  auto *partial = static_cast<std::int64_t *>(frame);
  std::uint32_t threads = blockThreads(block), t = linearThread(block, x, y, z);
  std::int64_t i = std::int64_t{linearBlock(block)} * threads + t;
  partial[t] = i < n ? in[i] : 0;
  pyk_cpu_syncthreads("block_sum.pyk:6:5");
  for (std::uint32_t half = std::bit_ceil(threads) / 2; half > 0; half /= 2) {
    if (t < half && t + half < threads)
      partial[t] += partial[t + half];
    pyk_cpu_syncthreads("block_sum.pyk:10:9");
  }
  if (t == 0)
    out[linearBlock(block)] = partial[0];
}

void blockSum(const Launch &launch, const std::vector<std::int64_t> &in, std::vector<std::int64_t> &out) {
  launchFibers<blockSumThread, 1024 * sizeof(std::int64_t)>(launch, in.data(), static_cast<std::int64_t>(in.size()),
                                                            out.data());
}

/// Values whose sums overflow nothing and cancel nowhere by accident.
std::vector<std::int64_t> sumInput(std::size_t count) {
  std::vector<std::int64_t> values(count);
  for (std::size_t i = 0; i < count; ++i)
    values[i] = static_cast<std::int64_t>((i * 2654435761u) % 1000003) - 500000;
  return values;
}

std::vector<std::int64_t> expectedBlockSums(const std::vector<std::int64_t> &in, std::uint32_t threads,
                                            std::uint64_t blocks) {
  std::vector<std::int64_t> sums(blocks, 0);
  for (std::size_t i = 0; i < in.size(); ++i)
    sums[i / threads] += in[i];
  return sums;
}

/// Runs blockSum over `grid` x `block` (the input ends 7 elements short of
/// the last block) and checks every block's sum.
void checkBlockSums(const Dim3 &grid, const Dim3 &block, Stream *stream = nullptr) {
  std::uint32_t threads = threadsOf(block);
  std::uint64_t blocks = gridBlocks(grid);
  std::size_t n = blocks * threads > 7 ? blocks * threads - 7 : 1;
  std::vector<std::int64_t> in = sumInput(n), out(blocks, -1);
  blockSum({grid, block, 0, stream}, in, out);
  if (stream)
    stream->synchronize();
  EXPECT_EQ(out, expectedBlockSums(in, threads, blocks))
      << "grid " << shapeName(grid) << ", block " << shapeName(block);
}

TEST_F(CpuFibers, BlockReductionIsExactFor1DBlocks) {
  for (std::uint32_t threads : {1u, 2u, 31u, 32u, 33u, 64u, 100u, 256u, 1000u, 1024u})
    checkBlockSums({37}, {threads});
}

TEST_F(CpuFibers, BlockReductionIsExactFor3DBlocksAndGrids) {
  for (Dim3 block : {Dim3{4, 4, 4}, Dim3{3, 5, 7}, Dim3{32, 2, 2}, Dim3{10, 10, 10}, Dim3{8, 2, 64}, Dim3{1, 1, 33}})
    checkBlockSums({3, 4, 2}, block);
}

TEST_F(CpuFibers, BlockReductionOverManyBlocks) {
  checkBlockSums({500}, {64});
}

TEST_F(CpuFibers, BlockReductionOnAStream) {
  Stream stream;
  checkBlockSums({50, 2}, {256}, &stream);
  checkBlockSums({7}, {1024}, &stream);
}

TEST_F(CpuFibers, LaunchesFromSeveralThreadsAtOnce) {
  // Each OS thread that runs blocks has its own scheduler and stacks.
  std::vector<std::thread> threads;
  for (std::uint32_t size : {64u, 256u, 1024u})
    threads.emplace_back([size] {
      for (int repeat = 0; repeat < 3; ++repeat)
        checkBlockSums({12}, {size});
    });
  for (std::thread &thread : threads)
    thread.join();
}

//===--- syncthreads_count/and/or ---------------------------------------===//

/// Whether thread t passes round r's predicate: round 0 nobody, round 1
/// everybody, then ever sparser patterns.
bool roundPredicate(std::uint32_t t, std::uint32_t r) {
  if (r < 2)
    return r == 1;
  return (t * 7 + r) % (r + 1) == 0;
}

/// For each round r, each thread writes what syncthreads_count, _and and
/// _or returned to out[3 * (r * threads + t) + 0/1/2]. The three barriers
/// of a round follow each other, and a plain syncthreads separates rounds.
void barrierReductionsThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                             std::uint32_t z) {
  auto out = fiberArg<std::int32_t *>(args, 0);
  auto rounds = fiberArg<std::uint32_t>(args, 1);
  std::uint32_t threads = blockThreads(block), t = linearThread(block, x, y, z);
  for (std::uint32_t r = 0; r < rounds; ++r) {
    std::int32_t predicate = roundPredicate(t, r) ? static_cast<std::int32_t>(r + 1) : 0;
    std::int32_t *mine = out + 3 * (std::size_t{r} * threads + t);
    mine[0] = pyk_cpu_syncthreads_count(predicate, "reductions.pyk:7:13");
    mine[1] = pyk_cpu_syncthreads_and(predicate, "reductions.pyk:8:13");
    mine[2] = pyk_cpu_syncthreads_or(predicate, "reductions.pyk:9:13");
    pyk_cpu_syncthreads("reductions.pyk:10:9");
  }
}

TEST_F(CpuFibers, SyncthreadsCountAndOr) {
  const std::uint32_t rounds = 9;
  for (Dim3 block : {Dim3{1}, Dim3{33}, Dim3{256}, Dim3{8, 8, 4}}) {
    std::uint32_t threads = threadsOf(block);
    std::vector<std::int32_t> out(3 * rounds * threads, -1);
    launchFibers<barrierReductionsThread>({1, block}, out.data(), rounds);
    for (std::uint32_t r = 0; r < rounds; ++r) {
      std::int32_t count = 0;
      for (std::uint32_t t = 0; t < threads; ++t)
        count += roundPredicate(t, r);
      std::vector<std::int32_t> expected = {count, count == static_cast<std::int32_t>(threads), count > 0};
      for (std::uint32_t t = 0; t < threads; ++t) {
        std::vector<std::int32_t> got(out.begin() + 3 * (r * threads + t), out.begin() + 3 * (r * threads + t) + 3);
        ASSERT_EQ(got, expected) << "block " << shapeName(block) << ", round " << r << ", thread " << t;
      }
    }
  }
}

//===--- Warp shuffles ---------------------------------------------------===//

std::uint64_t laneValue(std::uint64_t i) {
  return (i + 1) * 0x9e3779b97f4a7c15u;
}

/// The shuffle patterns generated code uses, on whole warps: out[4 * i + k]
/// for thread i (its value laneValue(i)) gets
///   k = 0: a shfl_down_sync reduction (lane 0 holds the warp's sum),
///   k = 1: a shfl_xor_sync butterfly (every lane holds the sum),
///   k = 2: a shfl_up_sync inclusive scan,
///   k = 3: shfl_sync from lane 7.
/// The compiler turns an out-of-range shfl_up/down into the caller's lane.
void shufflesThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                    std::uint32_t z) {
  auto out = fiberArg<std::uint64_t *>(args, 0);
  std::uint32_t t = linearThread(block, x, y, z), lane = t % 32;
  std::uint64_t i = std::uint64_t{linearBlock(block)} * blockThreads(block) + t;
  std::uint64_t down = laneValue(i), butterfly = down, scan = down;
  for (std::uint32_t delta = 16; delta > 0; delta /= 2)
    down += pyk_cpu_warp_shuffle(fullMask, down, lane + delta < 32 ? lane + delta : lane, "shuffles.pyk:6:17");
  for (std::uint32_t bit = 16; bit > 0; bit /= 2)
    butterfly += pyk_cpu_warp_shuffle(fullMask, butterfly, lane ^ bit, "shuffles.pyk:8:22");
  for (std::uint32_t delta = 1; delta < 32; delta *= 2) {
    std::uint64_t below =
        pyk_cpu_warp_shuffle(fullMask, scan, lane >= delta ? lane - delta : lane, "shuffles.pyk:10:17");
    if (lane >= delta)
      scan += below;
  }
  out[4 * i] = down;
  out[4 * i + 1] = butterfly;
  out[4 * i + 2] = scan;
  out[4 * i + 3] = pyk_cpu_warp_shuffle(fullMask, laneValue(i), 7, "shuffles.pyk:13:14");
}

/// shufflesThread's results for one warp of values, computed lockstep.
std::vector<std::uint64_t> expectedShuffles(const std::vector<std::uint64_t> &values) {
  std::vector<std::uint64_t> down = values, butterfly = values, scan = values;
  for (std::uint32_t delta = 16; delta > 0; delta /= 2) {
    std::vector<std::uint64_t> before = down;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
      down[lane] += before[lane + delta < 32 ? lane + delta : lane];
  }
  for (std::uint32_t bit = 16; bit > 0; bit /= 2) {
    std::vector<std::uint64_t> before = butterfly;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
      butterfly[lane] += before[lane ^ bit];
  }
  for (std::uint32_t delta = 1; delta < 32; delta *= 2) {
    std::vector<std::uint64_t> before = scan;
    for (std::uint32_t lane = delta; lane < 32; ++lane)
      scan[lane] += before[lane - delta];
  }
  std::vector<std::uint64_t> out;
  for (std::uint32_t lane = 0; lane < 32; ++lane)
    out.insert(out.end(), {down[lane], butterfly[lane], scan[lane], values[7]});
  return out;
}

TEST_F(CpuFibers, WarpShufflesOnWholeWarps) {
  for (Dim3 block : {Dim3{32}, Dim3{64}, Dim3{256}, Dim3{16, 4, 2}, Dim3{1024}}) {
    const Dim3 grid{3, 2};
    std::size_t threads = gridBlocks(grid) * threadsOf(block);
    std::vector<std::uint64_t> out(4 * threads, 0);
    launchFibers<shufflesThread>({grid, block}, out.data());
    for (std::size_t warp = 0; warp < threads / 32; ++warp) {
      std::vector<std::uint64_t> values(32);
      for (std::uint32_t lane = 0; lane < 32; ++lane)
        values[lane] = laneValue(32 * warp + lane);
      std::vector<std::uint64_t> got(out.begin() + 128 * warp, out.begin() + 128 * (warp + 1));
      ASSERT_EQ(got, expectedShuffles(values)) << "block " << shapeName(block) << ", warp " << warp;
    }
  }
}

/// A shfl_down_sync reduction over the lanes that exist (mask from
/// activemask()) in a block whose last warp is partial: sources past the
/// last lane are outside the mask and yield the caller's own value.
void partialWarpShuffleThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                              std::uint32_t z) {
  auto out = fiberArg<std::uint64_t *>(args, 0);
  std::uint32_t t = linearThread(block, x, y, z), lane = t % 32;
  std::uint32_t mask = pyk_cpu_warp_activemask();
  std::uint64_t value = laneValue(t);
  for (std::uint32_t delta = 16; delta > 0; delta /= 2)
    value += pyk_cpu_warp_shuffle(mask, value, lane + delta < 32 ? lane + delta : lane, "partial.pyk:5:17");
  out[2 * t] = mask;
  out[2 * t + 1] = value;
}

TEST_F(CpuFibers, WarpShufflesOnPartialWarps) {
  for (std::uint32_t threads : {1u, 20u, 33u, 40u, 63u}) {
    std::vector<std::uint64_t> out(2 * threads, 0), expected;
    launchFibers<partialWarpShuffleThread>({1, threads}, out.data());
    for (std::uint32_t base = 0; base < threads; base += 32) {
      std::uint32_t lanes = std::min(32u, threads - base);
      std::uint32_t mask = lanes == 32 ? fullMask : (1u << lanes) - 1;
      std::vector<std::uint64_t> value(lanes);
      for (std::uint32_t lane = 0; lane < lanes; ++lane)
        value[lane] = laneValue(base + lane);
      for (std::uint32_t delta = 16; delta > 0; delta /= 2) {
        std::vector<std::uint64_t> before = value;
        for (std::uint32_t lane = 0; lane < lanes; ++lane)
          value[lane] += lane + delta < lanes ? before[lane + delta] : before[lane];
      }
      for (std::uint32_t lane = 0; lane < lanes; ++lane)
        expected.insert(expected.end(), {mask, value[lane]});
    }
    EXPECT_EQ(out, expected) << threads << " threads";
  }
}

//===--- Votes, match_any, activemask, syncwarp -------------------------===//

bool votes(std::uint32_t t) {
  return t % 3 == 0 || t % 32 == 31;
}

std::uint64_t matchKey(std::uint32_t t) {
  return std::uint64_t{t * 7 % 5} << 40 | 0x1234;
}

/// out[4 * t]: ballot_sync(activemask(), votes(t)); out[4 * t + 1]: the
/// same, the even and the odd lanes each voting among themselves;
/// out[4 * t + 2]: match_any_sync(activemask(), matchKey(t)); out[4 * t + 3]:
/// activemask().
void votesThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  auto out = fiberArg<std::uint32_t *>(args, 0);
  std::uint32_t t = linearThread(block, x, y, z);
  std::uint32_t active = pyk_cpu_warp_activemask();
  std::uint32_t parity = t % 2 ? 0xaaaaaaaau : 0x55555555u;
  out[4 * t] = pyk_cpu_warp_ballot(active, votes(t), "votes.pyk:4:14");
  out[4 * t + 1] = pyk_cpu_warp_ballot(active & parity, votes(t), "votes.pyk:5:14");
  out[4 * t + 2] = pyk_cpu_warp_match_any(active, matchKey(t), "votes.pyk:6:14");
  out[4 * t + 3] = active;
}

TEST_F(CpuFibers, BallotMatchAnyAndActivemask) {
  for (Dim3 block : {Dim3{32}, Dim3{45}, Dim3{3, 3, 3}, Dim3{100, 2}}) {
    std::uint32_t threads = threadsOf(block);
    std::vector<std::uint32_t> out(4 * threads, 0), expected;
    launchFibers<votesThread>({1, block}, out.data());
    for (std::uint32_t t = 0; t < threads; ++t) {
      std::uint32_t base = t - t % 32, lanes = std::min(32u, threads - base);
      std::uint32_t active = lanes == 32 ? fullMask : (1u << lanes) - 1;
      std::uint32_t ballot = 0, sameParity = 0, matches = 0;
      for (std::uint32_t lane = 0; lane < lanes; ++lane) {
        if (votes(base + lane)) {
          ballot |= 1u << lane;
          if (lane % 2 == t % 2)
            sameParity |= 1u << lane;
        }
        if (matchKey(base + lane) == matchKey(t))
          matches |= 1u << lane;
      }
      expected.insert(expected.end(), {ballot, sameParity, matches, active});
    }
    EXPECT_EQ(out, expected) << "block " << shapeName(block);
  }
}

/// Odd threads return at once; even ones meet at syncwarp(even lanes) and
/// then read activemask() (out[t]) and, through shared memory, the value
/// their even neighbour wrote before the syncwarp (out[threads + t]).
void activemaskAfterReturnsThread(void **args, const CpuBlockContext *block, void *frame, std::uint32_t x,
                                  std::uint32_t y, std::uint32_t z) {
  auto out = fiberArg<std::uint32_t *>(args, 0);
  auto *shared = static_cast<std::uint32_t *>(frame);
  std::uint32_t threads = blockThreads(block), t = linearThread(block, x, y, z);
  if (t % 2)
    return;
  shared[t] = 1000 + t;
  std::uint32_t base = t - t % 32, lanes = std::min(32u, threads - base);
  std::uint32_t existing = lanes == 32 ? fullMask : (1u << lanes) - 1;
  pyk_cpu_syncwarp(0x55555555u & existing, "returns.pyk:6:5");
  out[t] = pyk_cpu_warp_activemask();
  std::uint32_t neighbour = t % 32 >= 2 ? t - 2 : t;
  out[threads + t] = shared[neighbour];
}

TEST_F(CpuFibers, ActivemaskLeavesOutReturnedLanes) {
  // activemask() knows nothing of convergence: it leaves out exactly the
  // lanes that have returned. The odd lanes all have (those after the last
  // even lane were queued before the syncwarp released the even lanes),
  // and so have the even lanes below the caller, which resumed before it.
  for (std::uint32_t threads : {32u, 40u, 64u, 7u}) {
    std::vector<std::uint32_t> out(2 * threads, 0), expected(2 * threads, 0);
    launchFibers<activemaskAfterReturnsThread, 1024 * sizeof(std::uint32_t)>({1, threads}, out.data());
    for (std::uint32_t t = 0; t < threads; t += 2) {
      std::uint32_t base = t - t % 32, lanes = std::min(32u, threads - base);
      std::uint32_t notBelow = ~((1u << (t % 32)) - 1);
      expected[t] = 0x55555555u & (lanes == 32 ? fullMask : (1u << lanes) - 1) & notBelow;
      expected[threads + t] = 1000 + (t % 32 >= 2 ? t - 2 : t);
    }
    EXPECT_EQ(out, expected) << threads << " threads";
  }
}

//===--- Exited lanes ---------------------------------------------------===//
//
// A warp operation waits only for the lanes of its mask that exist and have
// not returned (its effective mask); a shuffle from a lane outside it yields
// the caller's own value, and ballot and match_any see only its lanes.

/// The lanes of warp `warp` of a block of `threads` threads that exist.
std::uint32_t existingLanes(std::uint32_t threads, std::uint32_t warp) {
  std::uint32_t lanes = std::min(32u, threads - 32 * warp);
  return lanes == 32 ? fullMask : (1u << lanes) - 1;
}

/// The kernel of `if i < lo or i >= hi: return` followed by a full-mask
/// shfl_down_sync reduction and ballot: out[2 * i] gets the reduction,
/// out[2 * i + 1] ballot_sync(FULL, votes(i)).
void exitedLanesReductionThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                                std::uint32_t z) {
  auto out = fiberArg<std::uint64_t *>(args, 0);
  auto lo = fiberArg<std::uint32_t>(args, 1);
  auto hi = fiberArg<std::uint32_t>(args, 2);
  std::uint32_t t = linearThread(block, x, y, z), lane = t % 32;
  std::uint32_t i = linearBlock(block) * blockThreads(block) + t;
  if (i < lo || i >= hi)
    return;
  std::uint64_t value = laneValue(i);
  for (std::uint32_t delta = 16; delta > 0; delta /= 2)
    value += pyk_cpu_warp_shuffle(fullMask, value, lane + delta < 32 ? lane + delta : lane, "exited.pyk:5:17");
  out[2 * i] = value;
  out[2 * i + 1] = pyk_cpu_warp_ballot(fullMask, votes(i), "exited.pyk:6:18");
}

TEST_F(CpuFibers, ShuffleReductionAfterSomeThreadsReturn) {
  // Two blocks of 48 threads (a whole warp and one of 16 lanes). Lanes
  // return after the others wait (block 1 of [0, 72): its lanes 24-31
  // complete warp 0's shuffles by returning), before they arrive (block 0
  // of [24, 96)), or both ([10, 90)); a whole warp may return.
  const std::uint32_t threads = 48, blocks = 2, total = threads * blocks;
  const std::uint64_t untouched = 0xdeadbeefu;
  for (auto [lo, hi] : {std::pair{0u, 72u}, std::pair{24u, 96u}, std::pair{10u, 90u}, std::pair{0u, 96u}}) {
    std::vector<std::uint64_t> out(2 * total, untouched), expected(2 * total, untouched);
    launchFibers<exitedLanesReductionThread>({blocks, threads}, out.data(), lo, hi);
    for (std::uint32_t b = 0; b < blocks; ++b)
      for (std::uint32_t w = 0; w * 32 < threads; ++w) {
        std::uint32_t base = b * threads + w * 32, live = 0, ballot = 0;
        std::vector<std::uint64_t> value(32, 0);
        for (std::uint32_t lane = 0; lane < 32; ++lane)
          if ((existingLanes(threads, w) >> lane & 1) && base + lane >= lo && base + lane < hi) {
            live |= 1u << lane;
            value[lane] = laneValue(base + lane);
            ballot |= std::uint32_t{votes(base + lane)} << lane;
          }
        for (std::uint32_t delta = 16; delta > 0; delta /= 2) {
          std::vector<std::uint64_t> before = value;
          for (std::uint32_t lane = 0; lane < 32; ++lane)
            value[lane] += lane + delta < 32 && (live >> (lane + delta) & 1) ? before[lane + delta] : before[lane];
        }
        for (std::uint32_t lane = 0; lane < 32; ++lane)
          if (live >> lane & 1) {
            expected[2 * (base + lane)] = value[lane];
            expected[2 * (base + lane) + 1] = ballot;
          }
      }
    EXPECT_EQ(out, expected) << "threads [" << lo << ", " << hi << ") run";
  }
}

/// Every thread shuffles from lane (lane + 16) % 32, votes, matches and
/// syncs over the full mask, whether its warp is whole or not; out[4 * t
/// ...] gets the shuffle, the ballot, the match and activemask() (read
/// first, before any thread returns).
void fullMaskPartialWarpThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                               std::uint32_t z) {
  auto out = fiberArg<std::uint64_t *>(args, 0);
  std::uint32_t t = linearThread(block, x, y, z);
  out[4 * t + 3] = pyk_cpu_warp_activemask();
  out[4 * t] = pyk_cpu_warp_shuffle(fullMask, laneValue(t), (t + 16) % 32, "partial.pyk:2:9");
  out[4 * t + 1] = pyk_cpu_warp_ballot(fullMask, votes(t), "partial.pyk:3:9");
  out[4 * t + 2] = pyk_cpu_warp_match_any(fullMask, matchKey(t), "partial.pyk:4:9");
  pyk_cpu_syncwarp(fullMask, "partial.pyk:5:5");
}

TEST_F(CpuFibers, PartialLastWarpWithTheFullMask) {
  // The lanes a partial warp lacks count as exited.
  for (Dim3 block : {Dim3{20, 2}, Dim3{1}, Dim3{33}, Dim3{5, 5, 3}}) {
    std::uint32_t threads = threadsOf(block);
    std::vector<std::uint64_t> out(4 * threads, 0), expected;
    launchFibers<fullMaskPartialWarpThread>({1, block}, out.data());
    for (std::uint32_t t = 0; t < threads; ++t) {
      std::uint32_t base = t - t % 32, lanes = existingLanes(threads, t / 32);
      std::uint32_t source = (t + 16) % 32, ballot = 0, matches = 0;
      for (std::uint32_t lane = 0; lane < 32; ++lane)
        if (lanes >> lane & 1) {
          ballot |= std::uint32_t{votes(base + lane)} << lane;
          matches |= std::uint32_t{matchKey(base + lane) == matchKey(t)} << lane;
        }
      std::uint64_t shuffled = lanes >> source & 1 ? laneValue(base + source) : laneValue(t);
      expected.insert(expected.end(), {shuffled, ballot, matches, lanes});
    }
    EXPECT_EQ(out, expected) << "block " << shapeName(block);
  }
}

/// Lanes whose bit is set in `returning` return at once; the others vote
/// and then shuffle from the next lane over the full mask: out[2 * t] gets
/// the ballot, out[2 * t + 1] the shuffle.
void returningLanesThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                          std::uint32_t z) {
  auto out = fiberArg<std::uint64_t *>(args, 0);
  auto returning = fiberArg<std::uint32_t>(args, 1);
  std::uint32_t t = linearThread(block, x, y, z);
  if (returning >> (t % 32) & 1)
    return;
  out[2 * t] = pyk_cpu_warp_ballot(fullMask, votes(t), "returning.pyk:4:14");
  out[2 * t + 1] = pyk_cpu_warp_shuffle(fullMask, laneValue(t), (t + 1) % 32, "returning.pyk:5:14");
}

TEST_F(CpuFibers, ALaneReturningWhileOthersWaitAtABallot) {
  // Lane 31 returning last completes the ballot the others wait at; lane 0
  // returns before any arrives, lane 5 in between.
  for (std::uint32_t returning : {1u << 31, 1u << 0, 1u << 5, 0xf000000fu, 0x80008000u, 0xfffffffeu}) {
    std::vector<std::uint64_t> out(2 * 64, 0), expected(2 * 64, 0);
    launchFibers<returningLanesThread>({1, 64}, out.data(), returning);
    for (std::uint32_t t = 0; t < 64; ++t) {
      if (returning >> (t % 32) & 1)
        continue;
      std::uint32_t base = t - t % 32, source = (t + 1) % 32, ballot = 0;
      for (std::uint32_t lane = 0; lane < 32; ++lane)
        if (!(returning >> lane & 1))
          ballot |= std::uint32_t{votes(base + lane)} << lane;
      expected[2 * t] = ballot;
      expected[2 * t + 1] = returning >> source & 1 ? laneValue(t) : laneValue(base + source);
    }
    EXPECT_EQ(out, expected) << "lanes 0x" << std::hex << returning << " return";
  }
}

/// The lanes of one half of each warp (the low half when `lowHalfReturns`)
/// return at once; in the other half, its first lane votes with the full
/// mask and the rest with the half's mask, then all shuffle from lane
/// `lowHalfReturns ? 16 : 15` with the half's mask or, in the last lane,
/// the full one. out[2 * t] gets the ballot, out[2 * t + 1] the shuffle.
void halfMasksThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                     std::uint32_t z) {
  auto out = fiberArg<std::uint64_t *>(args, 0);
  auto lowHalfReturns = fiberArg<bool>(args, 1);
  std::uint32_t t = linearThread(block, x, y, z), lane = t % 32;
  if ((lane < 16) == lowHalfReturns)
    return;
  std::uint32_t half = lowHalfReturns ? 0xffff0000u : 0x0000ffffu;
  std::uint32_t first = lowHalfReturns ? 16 : 0, last = first + 15;
  out[2 * t] = pyk_cpu_warp_ballot(lane == first ? fullMask : half, votes(t), "halves.pyk:5:14");
  out[2 * t + 1] =
      pyk_cpu_warp_shuffle(lane == last ? fullMask : half, laneValue(t), lowHalfReturns ? 16 : 15, "halves.pyk:6:14");
}

TEST_F(CpuFibers, MasksThatDifferOnlyInReturnedLanesAreOneGroup) {
  // With the high half returning, lanes 1-15 arrive while lanes 16-31 have
  // not returned yet, so the masks differ in lanes that may still return:
  // the vote waits for them to return.
  for (bool lowHalfReturns : {false, true}) {
    std::vector<std::uint64_t> out(2 * 64, 0), expected(2 * 64, 0);
    launchFibers<halfMasksThread>({1, 64}, out.data(), lowHalfReturns);
    for (std::uint32_t t = 0; t < 64; ++t) {
      std::uint32_t base = t - t % 32, ballot = 0;
      if ((t % 32 < 16) == lowHalfReturns)
        continue;
      for (std::uint32_t lane = lowHalfReturns ? 16 : 0; lane < (lowHalfReturns ? 32u : 16u); ++lane)
        ballot |= std::uint32_t{votes(base + lane)} << lane;
      expected[2 * t] = ballot;
      expected[2 * t + 1] = laneValue(base + (lowHalfReturns ? 16 : 15));
    }
    EXPECT_EQ(out, expected) << (lowHalfReturns ? "low" : "high") << " half returns";
  }
}

/// mask = activemask(); every third thread returns; the others vote and
/// shuffle from the next lane with that mask (which each computed before
/// different lanes had returned). out[2 * t]: the ballot; out[2 * t + 1]:
/// the shuffle.
void activemaskBeforeReturnsThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                                   std::uint32_t z) {
  auto out = fiberArg<std::uint64_t *>(args, 0);
  std::uint32_t t = linearThread(block, x, y, z);
  std::uint32_t mask = pyk_cpu_warp_activemask();
  if (t % 3 == 0)
    return;
  out[2 * t] = pyk_cpu_warp_ballot(mask, votes(t), "early.pyk:4:14");
  pyk_cpu_syncwarp(mask, "early.pyk:5:5");
  out[2 * t + 1] = pyk_cpu_warp_shuffle(mask, laneValue(t), (t + 1) % 32, "early.pyk:6:14");
}

TEST_F(CpuFibers, AMaskFromActivemaskBeforeLanesReturn) {
  for (std::uint32_t threads : {32u, 45u, 96u}) {
    std::vector<std::uint64_t> out(2 * threads, 0), expected(2 * threads, 0);
    launchFibers<activemaskBeforeReturnsThread>({1, threads}, out.data());
    for (std::uint32_t t = 0; t < threads; ++t) {
      if (t % 3 == 0)
        continue;
      std::uint32_t base = t - t % 32, live = 0, ballot = 0;
      for (std::uint32_t lane = 0; lane < 32; ++lane)
        if ((existingLanes(threads, t / 32) >> lane & 1) && (base + lane) % 3 != 0) {
          live |= 1u << lane;
          ballot |= std::uint32_t{votes(base + lane)} << lane;
        }
      std::uint32_t source = (t + 1) % 32;
      expected[2 * t] = ballot;
      expected[2 * t + 1] = live >> source & 1 ? laneValue(base + source) : laneValue(t);
    }
    EXPECT_EQ(out, expected) << threads << " threads";
  }
}

//===--- The order fibers run in ----------------------------------------===//

/// Every thread appends its index to a log in shared memory before a
/// barrier, after it, after a warp shuffle and after the next barrier;
/// thread 0 copies the block's log to out[block * 4 * threads ...].
void orderLogThread(void **args, const CpuBlockContext *block, void *frame, std::uint32_t x, std::uint32_t y,
                    std::uint32_t z) {
  auto out = fiberArg<std::uint32_t *>(args, 0);
  auto *log = static_cast<std::uint32_t *>(frame);
  std::uint32_t *length = log + 4 * 1024;
  std::uint32_t threads = blockThreads(block), t = linearThread(block, x, y, z);
  if (t == 0)
    *length = 0;
  log[(*length)++] = t;
  pyk_cpu_syncthreads("order.pyk:5:5");
  log[(*length)++] = t;
  pyk_cpu_warp_shuffle(pyk_cpu_warp_activemask(), t, 0, "order.pyk:7:5");
  log[(*length)++] = t;
  pyk_cpu_syncthreads("order.pyk:9:5");
  log[(*length)++] = t;
  pyk_cpu_syncthreads("order.pyk:11:5");
  if (t == 0)
    std::copy(log, log + 4 * threads, out + std::size_t{4} * threads * linearBlock(block));
}

TEST_F(CpuFibers, FibersRunInThreadOrderBetweenBarriers) {
  const std::uint32_t threads = 100, blocks = 16;
  std::vector<std::uint32_t> out(4 * threads * blocks, 0), again(out.size(), 0);
  launchFibers<orderLogThread, (4 * 1024 + 1) * sizeof(std::uint32_t)>({blocks, threads}, out.data());
  launchFibers<orderLogThread, (4 * 1024 + 1) * sizeof(std::uint32_t)>({blocks, threads}, again.data());
  EXPECT_EQ(out, again) << "not deterministic";
  std::vector<std::uint32_t> inOrder(threads);
  std::iota(inOrder.begin(), inOrder.end(), 0u);
  std::vector<std::uint32_t> first(out.begin(), out.begin() + 4 * threads);
  for (std::uint32_t b = 1; b < blocks; ++b)
    EXPECT_TRUE(std::equal(first.begin(), first.end(), out.begin() + 4 * threads * b)) << "block " << b;
  EXPECT_EQ(std::vector<std::uint32_t>(first.begin(), first.begin() + threads), inOrder) << "before the barrier";
  EXPECT_EQ(std::vector<std::uint32_t>(first.begin() + threads, first.begin() + 2 * threads), inOrder)
      << "after the barrier";
  // After the shuffle: each warp as its last lane arrives, behind the
  // threads still queued from the barrier.
  std::vector<std::uint32_t> afterShuffle(first.begin() + 2 * threads, first.begin() + 3 * threads);
  EXPECT_EQ(afterShuffle, inOrder);
  EXPECT_EQ(std::vector<std::uint32_t>(first.begin() + 3 * threads, first.end()), inOrder) << "after the 2nd barrier";
}

//===--- Stacks ---------------------------------------------------------===//

/// Prints two lines per thread, either side of a barrier.
void printThread(void **, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  std::uint32_t t = linearThread(block, x, y, z);
  std::printf("block %u thread %u: %.3f %s\n", linearBlock(block), t, t * 0.25, "before");
  pyk_cpu_syncthreads("print.pyk:4:5");
  std::printf("block %u thread %u: %.3e %s\n", linearBlock(block), t, t * 1.5e10, "after");
}

TEST_F(CpuFibers, PrintfInsideAFiber) {
  testing::internal::CaptureStdout();
  launchFibers<printThread>({3, 64});
  std::fflush(stdout);
  std::string printed = testing::internal::GetCapturedStdout();
  std::vector<std::string> lines, expected;
  for (std::size_t start = 0, end; (end = printed.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(printed.substr(start, end - start));
  char line[128];
  for (unsigned b = 0; b < 3; ++b)
    for (unsigned t = 0; t < 64; ++t) {
      std::snprintf(line, sizeof line, "block %u thread %u: %.3f before", b, t, t * 0.25);
      expected.push_back(line);
      std::snprintf(line, sizeof line, "block %u thread %u: %.3e after", b, t, t * 1.5e10);
      expected.push_back(line);
    }
  std::sort(lines.begin(), lines.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(lines, expected);
}

/// Uses 40 KiB of its stack on either side of a barrier (the default
/// fiber stack is 64 KiB); out[t] gets a checksum of it.
void deepStackThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                     std::uint32_t z) {
  auto out = fiberArg<std::uint64_t *>(args, 0);
  std::uint32_t t = linearThread(block, x, y, z);
  volatile std::uint8_t buffer[40 * 1024];
  for (std::size_t i = 0; i < sizeof buffer; ++i)
    buffer[i] = static_cast<std::uint8_t>(i * 31 + t);
  pyk_cpu_syncthreads("deep.pyk:4:5");
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < sizeof buffer; ++i)
    sum += buffer[i];
  out[t] = sum;
}

TEST_F(CpuFibers, FibersHaveLargeStacks) {
  std::vector<std::uint64_t> out(128, 0), expected(128, 0);
  launchFibers<deepStackThread>({1, 128}, out.data());
  for (std::uint32_t t = 0; t < 128; ++t)
    for (std::size_t i = 0; i < 40 * 1024; ++i)
      expected[t] += static_cast<std::uint8_t>(i * 31 + t);
  EXPECT_EQ(out, expected);
}

/// Fills and sums 400 KiB of its stack (a byte of each 64), as a kernel with
/// a local array of 102400 float32 does, keeping it across a barrier.
void localArrayThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                      std::uint32_t z) {
  const std::uint32_t t = linearThread(block, x, y, z);
  volatile std::uint8_t local[400 * 1024];
  for (std::size_t i = 0; i < sizeof local; i += 64)
    local[i] = static_cast<std::uint8_t>(i / 64 + t);
  pyk_cpu_syncthreads("local.pyk:4:5");
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < sizeof local; i += 64)
    sum += local[i];
  fiberArg<std::uint64_t *>(args, 0)[t] = sum;
}

std::vector<std::uint64_t> localArraySums(std::uint32_t threads) {
  std::vector<std::uint64_t> sums(threads, 0);
  for (std::uint32_t t = 0; t < threads; ++t)
    for (std::size_t i = 0; i < 400 * 1024; i += 64)
      sums[t] += static_cast<std::uint8_t>(i / 64 + t);
  return sums;
}

void idleThread(void **, const CpuBlockContext *, void *, std::uint32_t, std::uint32_t, std::uint32_t) {}

TEST_F(CpuFibers, StacksHoldTheKernelsLocalArrays) {
  // Kept stacks (of PYK_CPU_FIBER_STACK's size, from the tests before) are
  // replaced by larger ones, on the default stream and on a stream.
  std::vector<std::uint64_t> out(64, 0);
  launchFibers<idleThread>({2, 64});
  launchFibers<localArrayThread, 0, 400 * 1024>({1, 64}, out.data());
  EXPECT_EQ(out, localArraySums(64));
  std::vector<std::uint64_t> streamOut(96, 0);
  Stream stream;
  launchFibers<localArrayThread, 0, 400 * 1024>({1, 96, 0, &stream}, streamOut.data());
  stream.synchronize();
  EXPECT_EQ(streamOut, localArraySums(96));
  launchFibers<idleThread>({2, 64});
}

/// Records that it ran.
void markingThread(void **args, const CpuBlockContext *, void *, std::uint32_t, std::uint32_t, std::uint32_t) {
  *fiberArg<int *>(args, 0) = 1;
}

TEST_F(CpuFibers, LocalArraysTooLargeForAnyStackAreRejectedBeforeTheLaunch) {
  const std::string expected =
      "pyk: cannot launch fiber_kernel \\(from fiber_kernels\\) on the CPU device: a thread of it may hold "
      "1099511627776 bytes of local arrays \\(its own and its device functions', once per call\\), which with "
      "PYK_CPU_FIBER_STACK's [0-9]+ bytes besides is more than the 268435456 bytes of stack a CPU-device thread "
      "may have; make the kernel's local arrays smaller";
  int ran = 0;
  Stream stream;
  for (Stream *on : {static_cast<Stream *>(nullptr), &stream}) {
    try {
      launchFibers<markingThread, 0, std::uint64_t{1} << 40>({1, 32, 0, on}, &ran);
      ADD_FAILURE() << "no error";
    } catch (const Error &error) {
      EXPECT_THAT(error.what(), ::testing::MatchesRegex(expected));
    }
  }
  stream.synchronize();
  EXPECT_EQ(ran, 0);
  launchFibers<markingThread>({1, 32}, &ran);
  EXPECT_EQ(ran, 1);
}

} // namespace
} // namespace pyk::test
