//===- WarpOperations.cpp - Warp shuffles, votes and syncwarp on the CPU ---===//
//
// A warp operation is a rendezvous of the lanes its mask names: each lane
// leaves its operand in its ThreadState and waits; the last to arrive
// computes every lane's result from all the operands at once, which is the
// lockstep exchange of a GPU warp, and queues them.
//
// Checked when a lane arrives (so that a mask always means "these lanes
// take part", and lanes never wait for one that cannot come):
//  - the mask includes the caller, and names only lanes that exist and
//    have not returned;
//  - every lane already waiting that the mask names, or whose mask names
//    the caller, waits at the same operation with the same mask (usually
//    all waiting lanes wait at one, which WarpState records, so that the
//    check looks at each of them only when they do not).
// A lane that returns while a waiting mask names it is checked in
// BlockScheduler::threadReturned.
//
//===----------------------------------------------------------------------===//
#include "BlockScheduler.h"

#include <cassert>
#include <cstdio>

namespace pyk::detail {
namespace {

const char *warpOperationName(WarpOp op) {
  switch (op) {
  case WarpOp::Sync:
    return "cuda.syncwarp()";
  case WarpOp::Shuffle:
    return "a warp shuffle";
  case WarpOp::Ballot:
    return "a warp vote";
  case WarpOp::MatchAny:
    return "cuda.match_any_sync()";
  }
  __builtin_unreachable();
}

std::string hex(std::uint32_t mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", mask);
  return text;
}

std::uint32_t lowestLane(std::uint32_t lanes) {
  return static_cast<std::uint32_t>(__builtin_ctz(lanes));
}

BlockScheduler &scheduler() {
  BlockScheduler *running = BlockScheduler::running();
  assert(running && "a warp operation outside pyk_cpu_run_block");
  return *running;
}

} // namespace

std::uint64_t BlockScheduler::warpOperation(WarpOp op, std::uint32_t mask, std::uint64_t value, std::uint32_t source,
                                            const char *where) noexcept {
  std::uint32_t t = current_;
  ThreadState &state = threads_[t];
  state.op = op;
  state.mask = mask;
  state.where = where;
  checkWarpCall(t);
  state.value = value;
  state.source = source;
  state.wait = Wait::Warp;
  WarpState &warp = warps_[t / 32];
  if (warp.waiting == 0) {
    warp.groupOp = op;
    warp.groupMask = mask;
    warp.mixed = false;
  } else if (warp.groupOp != op || warp.groupMask != mask) {
    warp.mixed = true;
  }
  warp.waiting |= 1u << (t % 32);
  if ((warp.waiting & mask) == mask)
    completeWarpOperation(t / 32, mask);
  switchToNext(false);
  return state.result;
}

void BlockScheduler::checkWarpCall(std::uint32_t t) noexcept {
  const ThreadState &state = threads_[t];
  const WarpState &warp = warps_[t / 32];
  std::uint32_t lane = t % 32, base = t - lane, mask = state.mask;
  if (!(mask >> lane & 1)) {
    recordError(warpCall(t) + " of block " + blockName() + ": the mask leaves out the calling thread's lane " +
                std::to_string(lane));
    abandon();
  }
  if (std::uint32_t missing = mask & ~warp.lanes) {
    recordError(warpCall(t) + " of block " + blockName() + ": the mask names lane " +
                std::to_string(lowestLane(missing)) + " of warp " + std::to_string(t / 32) +
                ", which does not exist (the block has " + std::to_string(threadCount_) + " threads)");
    abandon();
  }
  if (std::uint32_t returned = mask & warp.returned) {
    std::uint32_t other = base + lowestLane(returned);
    recordError(warpCall(t) + " of block " + blockName() + ": the mask names lane " + std::to_string(other - base) +
                ", thread " + threadName(other) + ", which has returned");
    abandon();
  }
  if (!warp.mixed && warp.groupOp == state.op && warp.groupMask == mask)
    return; // every waiting lane waits where the caller does (or none waits)
  for (std::uint32_t waiting = warp.waiting; waiting; waiting &= waiting - 1) {
    std::uint32_t other = base + lowestLane(waiting);
    const ThreadState &them = threads_[other];
    bool related = (mask >> (other - base) & 1) || (them.mask >> lane & 1);
    if (related && (them.op != state.op || them.mask != mask)) {
      recordError(warpCall(t) + " of block " + blockName() + " meets " + warpCall(other) +
                  ": the lanes of a mask must all call the same warp operation with the same mask");
      abandon();
    }
  }
}

void BlockScheduler::completeWarpOperation(std::uint32_t warp, std::uint32_t mask) noexcept {
  ThreadState *lanes = &threads_[32 * warp];
  switch (lanes[lowestLane(mask)].op) {
  case WarpOp::Sync:
    break;
  case WarpOp::Shuffle:
    for (std::uint32_t rest = mask; rest; rest &= rest - 1) {
      ThreadState &lane = lanes[lowestLane(rest)];
      bool inMask = lane.source < 32 && (mask >> lane.source & 1);
      lane.result = inMask ? lanes[lane.source].value : lane.value;
    }
    break;
  case WarpOp::Ballot: {
    std::uint32_t passed = 0;
    for (std::uint32_t rest = mask; rest; rest &= rest - 1)
      if (lanes[lowestLane(rest)].value != 0)
        passed |= rest & -rest;
    for (std::uint32_t rest = mask; rest; rest &= rest - 1)
      lanes[lowestLane(rest)].result = passed;
    break;
  }
  case WarpOp::MatchAny:
    for (std::uint32_t rest = mask; rest; rest &= rest - 1) {
      ThreadState &lane = lanes[lowestLane(rest)];
      std::uint32_t equal = 0;
      for (std::uint32_t others = mask; others; others &= others - 1)
        if (lanes[lowestLane(others)].value == lane.value)
          equal |= others & -others;
      lane.result = equal;
    }
    break;
  }
  warps_[warp].waiting &= ~mask;
  for (std::uint32_t rest = mask; rest; rest &= rest - 1) {
    std::uint32_t t = 32 * warp + lowestLane(rest);
    threads_[t].wait = Wait::None;
    enqueue(t);
  }
}

std::uint32_t BlockScheduler::activeMask() const noexcept {
  const WarpState &warp = warps_[current_ / 32];
  return warp.lanes & ~warp.returned;
}

std::string BlockScheduler::warpCall(std::uint32_t thread) const {
  const ThreadState &state = threads_[thread];
  return std::string(warpOperationName(state.op)) + " at " + state.where + " with mask " + hex(state.mask) +
         " in thread " + threadName(thread);
}

} // namespace pyk::detail

using pyk::detail::scheduler;
using pyk::detail::WarpOp;

extern "C" void pyk_cpu_syncwarp(uint32_t mask, const char *where) {
  scheduler().warpOperation(WarpOp::Sync, mask, 0, 0, where);
}

extern "C" uint64_t pyk_cpu_warp_shuffle(uint32_t mask, uint64_t value, uint32_t source, const char *where) {
  return scheduler().warpOperation(WarpOp::Shuffle, mask, value, source, where);
}

extern "C" uint32_t pyk_cpu_warp_ballot(uint32_t mask, int32_t predicate, const char *where) {
  return static_cast<uint32_t>(scheduler().warpOperation(WarpOp::Ballot, mask, predicate != 0, 0, where));
}

extern "C" uint32_t pyk_cpu_warp_match_any(uint32_t mask, uint64_t value, const char *where) {
  return static_cast<uint32_t>(scheduler().warpOperation(WarpOp::MatchAny, mask, value, 0, where));
}

extern "C" uint32_t pyk_cpu_warp_activemask(void) {
  return scheduler().activeMask();
}
