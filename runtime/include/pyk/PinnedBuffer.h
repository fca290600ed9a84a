//===- pyk/PinnedBuffer.h - Host memory the GPU copies directly ------------===//
//
// A GPU copies between its memory and page-locked (pinned) host memory by
// DMA, asynchronously; from ordinary (pageable) memory the driver first
// stages the data, and an "asynchronous" copy does not overlap kernels.
// PinnedBuffer<T> is such memory, for the copy_*_async calls of device
// arrays: cuMemHostAlloc'd on a GPU (portable: every GPU of the process
// treats it as pinned), ordinary memory on the CPU device.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_PINNEDBUFFER_H
#define PYK_PINNEDBUFFER_H

#include "pyk/Error.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

namespace pyk {
namespace detail {
/// Pinned host memory of `bytes` (null for 0), for `operation`'s messages;
/// CudaError or Error when there is none.
void *allocatePinned(std::size_t bytes, const char *operation);
/// Frees what allocatePinned(bytes) returned (null: nothing).
void releasePinned(void *pointer, std::size_t bytes) noexcept;
} // namespace detail

/// `count` elements of pinned host memory, value-initialised (zeros for
/// numbers). Move-only; like a std::vector that does not grow.
template <typename T> class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T> && !std::is_const_v<T>, "pinned buffers hold plain numbers");

public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count)
      : data_(static_cast<T *>(detail::allocatePinned(bytesOf(count), "PinnedBuffer"))), size_(count) {
    for (std::size_t i = 0; i < count; ++i)
      new (data_ + i) T();
  }
  ~PinnedBuffer() { detail::releasePinned(data_, size_ * sizeof(T)); }
  PinnedBuffer(PinnedBuffer &&other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  PinnedBuffer &operator=(PinnedBuffer &&other) noexcept {
    if (this != &other) {
      detail::releasePinned(data_, size_ * sizeof(T));
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer &) = delete;
  PinnedBuffer &operator=(const PinnedBuffer &) = delete;

  T *data() { return data_; }
  const T *data() const { return data_; }
  std::size_t size() const { return size_; }
  T &operator[](std::size_t i) { return data_[i]; }
  const T &operator[](std::size_t i) const { return data_[i]; }
  T *begin() { return data_; }
  T *end() { return data_ + size_; }
  const T *begin() const { return data_; }
  const T *end() const { return data_ + size_; }

private:
  static std::size_t bytesOf(std::size_t count) {
    if (count > static_cast<std::size_t>(INT64_MAX) / sizeof(T))
      throw ShapeError("pyk: PinnedBuffer of " + std::to_string(count) + " elements of " +
                       std::to_string(sizeof(T)) + " bytes: more bytes than an int64 holds");
    return count * sizeof(T);
  }

  T *data_ = nullptr;
  std::size_t size_ = 0;
};

} // namespace pyk

#endif // PYK_PINNEDBUFFER_H
