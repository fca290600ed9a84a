//===- WarpOperations.cpp - Warp shuffles, votes and syncwarp on the CPU ---===//
//
// A warp operation is a rendezvous of the lanes its mask names that have
// not exited, as CUDA has it (PTX: "all non-exited threads corresponding to
// membermask"): the lanes taking part are the call's effective mask, mask &
// live, where live is the warp's lanes that exist and have not returned (the
// lanes a partial last warp lacks count as exited). Each lane leaves its
// operand in its ThreadState and waits; whoever completes the group, the
// last lane to arrive or the lane whose return leaves only arrived lanes in
// it (BlockScheduler::threadReturned), computes every lane's result from
// all the operands at once, which is the lockstep exchange of a GPU warp,
// and queues them. A shuffle from a lane outside the effective mask yields
// the caller's own value; ballot and match_any see the effective lanes only.
//
// Effective masks shrink as lanes return, so two lanes' masks that differ
// only in lanes that have returned (one from activemask() before they did)
// name the same group. Checked when a lane arrives, so that lanes never
// wait for one that cannot come:
//  - the mask includes the caller;
//  - every lane already waiting that the caller's effective mask names, or
//    whose effective mask names the caller, waits at the same operation,
//    and their effective masks differ at most in lanes that have not
//    arrived yet (which may still return; while they differ the group
//    waits, and one of those lanes arriving is the error). Usually all
//    waiting lanes wait alike, which WarpState records, so that the check
//    looks at each of them only when they do not.
// Lanes waiting for one that waits at a barrier instead are found when
// nothing is left to run (Barriers.cpp).
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
  case WarpOp::MatchAll:
    return "cuda.match_all_sync()";
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
  std::uint32_t t = current_, w = t / 32, bit = 1u << (t % 32);
  ThreadState &state = threads_[t];
  state.op = op;
  state.mask = mask;
  state.where = where;
  WarpState &warp = warps_[w];
  std::uint32_t group = mask & warp.live; // the effective mask
  bool alike = warp.groupOp == op && (warp.groupMask & warp.live) == group;
  if (!(mask & bit) || (warp.waiting != 0 && (warp.mixed || !alike)))
    checkWarpCall(t, group);
  state.value = value;
  state.source = source;
  state.wait = Wait::Warp;
  if (warp.waiting == 0) {
    warp.groupOp = op;
    warp.groupMask = group;
    warp.mixed = false;
  } else if (!alike) {
    warp.mixed = true;
  }
  warp.waiting |= bit;
  if (groupReady(w, group))
    completeWarpOperation(w, group);
  switchToNext(false);
  return state.result;
}

void BlockScheduler::checkWarpCall(std::uint32_t t, std::uint32_t group) noexcept {
  const ThreadState &state = threads_[t];
  const WarpState &warp = warps_[t / 32];
  std::uint32_t lane = t % 32, base = t - lane;
  if (!(state.mask >> lane & 1)) {
    recordError(warpCall(t) + " of block " + blockName() + ": the mask leaves out the calling thread's lane " +
                std::to_string(lane));
    abandon();
  }
  // Lanes that have arrived (the caller included) stay until their
  // operation completes, so effective masks that differ in one of them can
  // never agree; lanes yet to arrive may still return.
  std::uint32_t arrived = warp.waiting | 1u << lane;
  for (std::uint32_t waiting = warp.waiting; waiting; waiting &= waiting - 1) {
    std::uint32_t other = base + lowestLane(waiting);
    const ThreadState &them = threads_[other];
    std::uint32_t theirs = them.mask & warp.live;
    bool related = (group >> (other - base) & 1) || (theirs >> lane & 1);
    if (related && (them.op != state.op || ((group ^ theirs) & arrived))) {
      recordError(warpCall(t) + " of block " + blockName() + " meets " + warpCall(other) +
                  ": the lanes of a mask must all call the same warp operation with the same mask (or masks that "
                  "differ only in lanes that have returned)");
      abandon();
    }
  }
}

bool BlockScheduler::groupReady(std::uint32_t w, std::uint32_t group) const noexcept {
  const WarpState &warp = warps_[w];
  if ((warp.waiting & group) != group)
    return false;
  if (!warp.mixed)
    return true; // every waiting lane's effective mask is group
  // The lanes of group wait at one operation (checkWarpCall); a lane whose
  // effective mask names more waits for those lanes to arrive or return.
  for (std::uint32_t rest = group; rest; rest &= rest - 1)
    if ((threads_[32 * w + lowestLane(rest)].mask & warp.live) != group)
      return false;
  return true;
}

void BlockScheduler::completeReadyGroups(std::uint32_t w) noexcept {
  const WarpState &warp = warps_[w];
  // One group per effective mask among the waiting lanes, in lane order;
  // the lanes of a group that is not ready are none of them in one that is.
  for (std::uint32_t pending = warp.waiting; pending;) {
    std::uint32_t group = threads_[32 * w + lowestLane(pending)].mask & warp.live;
    pending &= (pending - 1) & ~group;
    if (groupReady(w, group))
      completeWarpOperation(w, group);
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
  case WarpOp::MatchAll: {
    // Each lane gets the mask it gave, as CUDA's __match_all_sync returns.
    const std::uint64_t first = lanes[lowestLane(mask)].value;
    bool same = true;
    for (std::uint32_t rest = mask; rest; rest &= rest - 1)
      same = same && lanes[lowestLane(rest)].value == first;
    for (std::uint32_t rest = mask; rest; rest &= rest - 1) {
      ThreadState &lane = lanes[lowestLane(rest)];
      lane.result = same ? lane.mask : 0;
    }
    break;
  }
  }
  warps_[warp].waiting &= ~mask;
  for (std::uint32_t rest = mask; rest; rest &= rest - 1) {
    std::uint32_t t = 32 * warp + lowestLane(rest);
    threads_[t].wait = Wait::None;
    enqueue(t);
  }
}

std::uint32_t BlockScheduler::activeMask() const noexcept {
  return warps_[current_ / 32].live;
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

extern "C" uint32_t pyk_cpu_warp_match_all(uint32_t mask, uint64_t value, const char *where) {
  return static_cast<uint32_t>(scheduler().warpOperation(WarpOp::MatchAll, mask, value, 0, where));
}

extern "C" uint32_t pyk_cpu_warp_activemask(void) {
  return scheduler().activeMask();
}
