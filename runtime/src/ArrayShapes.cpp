//===- ArrayShapes.cpp - Checking array shapes and the arrays' state --------===//
//
// Every size the runtime derives from a shape (elements, bytes) is computed
// here with overflow checks, so that a shape too large for 64 bits is a
// ShapeError naming the call and the shape, never a wrapped size and an
// allocation smaller than the array claims to be.
//
//===----------------------------------------------------------------------===//
#include "pyk/Array.h"

#include <cstdint>

namespace pyk::detail {
namespace {

[[noreturn]] void rejectShape(const char *operation, const std::int64_t *extents, int rank, const std::string &why) {
  throw ShapeError(std::string("pyk: ") + operation + ": the shape " + shapeText(extents, rank) + " " + why);
}

} // namespace

std::string shapeText(const std::int64_t *extents, int rank) {
  std::string text = "{";
  for (int axis = 0; axis < rank; ++axis)
    text += (axis ? ", " : "") + std::to_string(extents[axis]);
  return text + "}";
}

std::int64_t checkedElementCount(const char *operation, const std::int64_t *extents, int rank) {
  for (int axis = 0; axis < rank; ++axis)
    if (extents[axis] < 0)
      rejectShape(operation, extents, rank, "has a negative extent; array extents must be non-negative");
  std::int64_t count = 1;
  for (int axis = 0; axis < rank; ++axis)
    if (__builtin_mul_overflow(count, extents[axis], &count))
      rejectShape(operation, extents, rank, "has more elements than a 64-bit size holds");
  return count;
}

std::size_t checkedByteCount(const char *operation, const std::int64_t *extents, int rank, std::size_t elementSize) {
  std::int64_t count = checkedElementCount(operation, extents, rank);
  std::int64_t bytes = 0;
  if (__builtin_mul_overflow(count, static_cast<std::int64_t>(elementSize), &bytes))
    rejectShape(operation, extents, rank,
                "of " + std::to_string(elementSize) + "-byte elements has more bytes than a 64-bit size holds");
  return static_cast<std::size_t>(bytes);
}

void rejectHostCount(const char *operation, std::size_t count, const std::int64_t *extents, int rank) {
  throw ShapeError(std::string("pyk: ") + operation + ": the host vector holds " + std::to_string(count) +
                   " elements but the shape " + shapeText(extents, rank) + " holds " +
                   std::to_string(checkedElementCount(operation, extents, rank)) +
                   "; give a shape with as many elements as the vector");
}

void requireHostCount(const char *operation, std::size_t count, std::int64_t elements) {
  if (count != static_cast<std::size_t>(elements))
    throw ShapeError(std::string("pyk: ") + operation + ": the host buffer holds " + std::to_string(count) +
                     " elements but the device array holds " + std::to_string(elements) +
                     "; resize the host buffer to match");
}

std::int64_t checkedSliceRowElements(std::int64_t begin, std::int64_t end, const std::int64_t *extents, int rank) {
  if (begin < 0 || begin > end || end > extents[0])
    throw ShapeError("pyk: slice(" + std::to_string(begin) + ", " + std::to_string(end) + ") of an array of shape " +
                     shapeText(extents, rank) +
                     ": rows begin to end - 1 must satisfy 0 <= begin <= end <= " + std::to_string(extents[0]));
  return checkedElementCount("slice()", extents + 1, rank - 1);
}

void rejectMovedFrom(const char *operation) {
  throw Error(std::string("pyk: ") + operation + ": the array was moved from; use the array it was moved to");
}

void requireContiguous(const char *operation, const std::int64_t *extents, const std::int64_t *strides, int rank) {
  // Row-major: each axis steps over the elements of all the axes after it.
  std::int64_t expected[4] = {};
  std::int64_t step = 1;
  bool contiguous = true;
  for (int axis = rank - 1; axis >= 0; --axis) {
    expected[axis] = step;
    if (extents[axis] != 1 && strides[axis] != step)
      contiguous = false;
    step *= extents[axis];
  }
  if (contiguous || step == 0)
    return;
  throw ShapeError(std::string("pyk: ") + operation + ": strides " + shapeText(strides, rank) +
                   " (in elements) do not lay out an array of shape " + shapeText(extents, rank) +
                   " row-major and contiguous, which needs strides " + shapeText(expected, rank) +
                   "; copy it into a contiguous array first (pyk's kernels index arrays row-major)");
}

} // namespace pyk::detail
