//===- RandomTest.cpp - numba.cuda.random's states, bit for bit -------------===//
//
// RandomStates (device-independent): the host states against values Numba
// printed. RandomDeviceStates (each device): what create_ and
// init_xoroshiro128p_states leave in device memory. tests/numba/cross_check.py
// compares many more states with Numba's, live.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <vector>

namespace pyk::test {
namespace {

using random::xoroshiro128p_state;
using ::testing::HasSubstr;

struct NumbaStates {
  std::int64_t n;
  std::uint64_t seed;
  std::uint64_t subsequenceStart;
  std::vector<xoroshiro128p_state> states;
};

// Printed by Debian's Numba 0.56 (python3-numba):
//   NUMBA_ENABLE_CUDASIM=1 /usr/bin/python3 -W ignore -c '
//   import numpy as np
//   from numba.cuda.random import init_xoroshiro128p_states_cpu as init, xoroshiro128p_dtype
//   for n, seed, start in [(4, 0, 0), (3, 42, 2), (3, 2**63 + 5, 0), (2, 2**64 - 1, 1)]:
//       states = np.empty(n, xoroshiro128p_dtype)
//       init(states, seed, start)
//       print(f"    {{{n}, {seed:#x}u, {start}, {{")
//       print(",\n".join(f"        {{{s0:#018x}u, {s1:#018x}u}}" for s0, s1 in states) + "}},")
//   '
// clang-format off
const std::vector<NumbaStates> numbaStates = {
    {4, 0x0u, 0, {
        {0xe220a8397b1dcdafu, 0xe220a8397b1dcdafu},
        {0x12513ce25be05eb1u, 0x70d189c276ba17a4u},
        {0x65853d86b6ebe9b4u, 0x062a041b9acda8dau},
        {0xe8f985721a10a3eeu, 0x412be3dd3c914961u}}},
    {3, 0x2au, 2, {
        {0xa67324e5ecccb8dcu, 0x4a81bbd6c315729eu},
        {0xef6261e44fd8abc9u, 0x0c6ebfa4759a0f22u},
        {0x965712e7ac28b9b1u, 0xc5fdd9c6a44f58a6u}}},
    {3, 0x8000000000000005u, 0, {
        {0x54a64d19d7534f30u, 0x54a64d19d7534f30u},
        {0x0d6f1b40e08dc525u, 0x1faf5c93b846fd28u},
        {0xe6d7a4a6ba3e0457u, 0x921fc5c359e42699u}}},
    {2, 0xffffffffffffffffu, 1, {
        {0xf06e5493d9197688u, 0x5d1905e55c940204u},
        {0x451fc10b7cd06b84u, 0xc2c48037ad7bec7fu}}},
};
// clang-format on

std::vector<xoroshiro128p_state> hostStates(std::int64_t n, std::uint64_t seed, std::uint64_t subsequenceStart) {
  std::vector<xoroshiro128p_state> states(static_cast<std::size_t>(n));
  random::init_xoroshiro128p_states_host(states.data(), n, seed, subsequenceStart);
  return states;
}

/// Gtest failures naming each state of `got` that differs from `want`.
void expectSameStates(const std::vector<xoroshiro128p_state> &got, const NumbaStates &want) {
  ASSERT_EQ(got.size(), want.states.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].s0, want.states[i].s0)
        << "s0 of state " << i << " (seed " << want.seed << ", subsequence_start " << want.subsequenceStart << ")";
    EXPECT_EQ(got[i].s1, want.states[i].s1)
        << "s1 of state " << i << " (seed " << want.seed << ", subsequence_start " << want.subsequenceStart << ")";
  }
}

TEST(RandomStates, HostStatesAreNumbas) {
  for (const NumbaStates &want : numbaStates)
    expectSameStates(hostStates(want.n, want.seed, want.subsequenceStart), want);
}

TEST(RandomStates, EachStateStartsTheNextSubsequence) {
  // State i of an array is state 0 of one started i subsequences later.
  auto states = hostStates(100, 7, 3);
  for (std::uint64_t i = 0; i < states.size(); ++i) {
    auto first = hostStates(1, 7, 3 + i);
    EXPECT_EQ(states[i].s0, first[0].s0) << "state " << i;
    EXPECT_EQ(states[i].s1, first[0].s1) << "state " << i;
  }
}

TEST(RandomStates, NoStatesWriteNothing) {
  xoroshiro128p_state untouched{1, 2};
  random::init_xoroshiro128p_states_host(&untouched, 0, 42);
  EXPECT_EQ(untouched.s0, 1u);
  EXPECT_EQ(untouched.s1, 2u);
}

TEST(RandomStates, NegativeCountIsAShapeError) {
  try {
    random::init_xoroshiro128p_states_host(nullptr, -1, 42);
    FAIL() << "no ShapeError";
  } catch (const ShapeError &error) {
    EXPECT_THAT(error.what(), HasSubstr("init_xoroshiro128p_states_host: the shape {-1} has a negative extent"));
  }
}

class RandomDeviceStates : public RuntimeTest {};

std::vector<xoroshiro128p_state> onHost(const DeviceArray<xoroshiro128p_state, 1> &states) {
  std::vector<xoroshiro128p_state> host(static_cast<std::size_t>(states.size()));
  states.copy_to_host(host);
  return host;
}

TEST_F(RandomDeviceStates, CreateCopiesNumbasStatesToTheDevice) {
  for (const NumbaStates &want : numbaStates) {
    auto states = random::create_xoroshiro128p_states(want.n, want.seed, want.subsequenceStart);
    EXPECT_EQ(states.shape(0), want.n);
    expectSameStates(onHost(states), want);
  }
}

TEST_F(RandomDeviceStates, CreateOnAStream) {
  Stream stream;
  for (const NumbaStates &want : numbaStates) {
    auto states = random::create_xoroshiro128p_states(want.n, want.seed, want.subsequenceStart, stream);
    expectSameStates(onHost(states), want);
  }
}

TEST_F(RandomDeviceStates, InitOnAStreamFollowsTheStreamsEarlierWork) {
  const NumbaStates &want = numbaStates[1];
  auto states = device_empty<xoroshiro128p_state>({want.n});
  std::vector<xoroshiro128p_state> garbage(static_cast<std::size_t>(want.n), {5, 5});
  Stream stream;
  states.copy_from_host_async(garbage, stream);
  random::init_xoroshiro128p_states(states, want.seed, want.subsequenceStart, stream);
  expectSameStates(onHost(states), want);
  random::init_xoroshiro128p_states(states, numbaStates[2].seed);
  expectSameStates(onHost(states), numbaStates[2]);
}

TEST_F(RandomDeviceStates, NoStatesAreAnEmptyArray) {
  auto states = random::create_xoroshiro128p_states(0, 42);
  EXPECT_EQ(states.size(), 0);
  EXPECT_EQ(states.data(), nullptr);
  Stream stream;
  EXPECT_EQ(random::create_xoroshiro128p_states(0, 42, 1, stream).size(), 0);
}

TEST_F(RandomDeviceStates, NegativeCountIsAShapeError) {
  Stream stream;
  for (bool onStream : {false, true}) {
    try {
      auto states = onStream ? random::create_xoroshiro128p_states(-3, 42, 0, stream)
                             : random::create_xoroshiro128p_states(-3, 42);
      FAIL() << "no ShapeError";
    } catch (const ShapeError &error) {
      EXPECT_STREQ(error.what(), "pyk: create_xoroshiro128p_states: the shape {-3} has a negative extent; array "
                                 "extents must be non-negative");
    }
  }
}

} // namespace
} // namespace pyk::test
