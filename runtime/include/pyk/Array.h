//===- pyk/Array.h - Arrays in device memory -------------------------------===//
//
// DeviceArray<T, N> owns a C-contiguous (row-major) N-dimensional array in
// the current device's memory (GPU memory, or host memory for the CPU
// device). ArrayView<T, N> is a non-owning view of one, which is what
// kernels take: a view of `const T` for arrays a kernel only reads, of `T`
// for arrays it writes, so that passing the wrong element type or rank is a
// C++ compile error.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_ARRAY_H
#define PYK_ARRAY_H

#include "pyk/Error.h"
#include "pyk/Stream.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace pyk {

template <typename T, int N> class DeviceArray;

namespace detail {
/// Device memory, in bytes, aligned to 256 (null for 0 bytes). Throws
/// CudaError / std::bad_alloc.
void *allocate(std::size_t bytes);
/// Frees what allocate() returned (null: nothing). Like cuMemFree, it first
/// waits for work still queued on the device's streams.
void release(void *pointer) noexcept;
/// Copies; with a stream they are asynchronous on a GPU (host memory must
/// then stay valid until the stream reaches them).
void copyToDevice(void *device, const void *host, std::size_t bytes, Stream *stream);
void copyToHost(void *host, const void *device, std::size_t bytes, Stream *stream);
void copyDeviceToDevice(void *to, const void *from, std::size_t bytes, Stream *stream);

template <int N> std::int64_t elementCount(const std::array<std::int64_t, N> &shape) {
  std::int64_t count = 1;
  for (std::int64_t extent : shape) {
    if (extent < 0)
      throw ShapeError("pyk: array extents must be non-negative, got " + std::to_string(extent));
    count *= extent;
  }
  return count;
}
} // namespace detail

/// A non-owning view of a device array: data pointer and shape.
template <typename T, int N> class ArrayView {
  static_assert(N >= 1 && N <= 3, "pyk arrays have rank 1 to 3");

public:
  using element_type = T;
  static constexpr int rank = N;

  ArrayView() = default;
  ArrayView(T *data, std::array<std::int64_t, N> shape) : data_(data), shape_(shape) {}
  /// A view of a whole array (`const T` views also from const arrays).
  template <typename U, typename = std::enable_if_t<std::is_same_v<std::remove_const_t<T>, U> &&
                                                     (std::is_const_v<T> || !std::is_const_v<U>)>>
  ArrayView(DeviceArray<U, N> &array) : data_(array.data()), shape_(array.shape()) {}
  template <typename U, typename = std::enable_if_t<std::is_same_v<std::remove_const_t<T>, U> && std::is_const_v<T>>>
  ArrayView(const DeviceArray<U, N> &array) : data_(array.data()), shape_(array.shape()) {}
  /// A writable view converts to a read-only one.
  template <typename U, typename = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  ArrayView(ArrayView<U, N> view) : data_(view.data()), shape_(view.shape()) {}

  T *data() const { return data_; }
  const std::array<std::int64_t, N> &shape() const { return shape_; }
  std::int64_t shape(int axis) const { return shape_[axis]; }
  std::int64_t size() const { return detail::elementCount<N>(shape_); }

private:
  T *data_ = nullptr;
  std::array<std::int64_t, N> shape_{};
};

/// An owning, move-only array in device memory.
template <typename T, int N> class DeviceArray {
  static_assert(N >= 1 && N <= 3, "pyk arrays have rank 1 to 3");
  static_assert(std::is_trivially_copyable_v<T> && !std::is_const_v<T>, "device arrays hold plain numbers");

public:
  using element_type = T;
  static constexpr int rank = N;

  DeviceArray() = default;
  /// An uninitialised array of the given shape.
  explicit DeviceArray(std::array<std::int64_t, N> shape)
      : shape_(shape), data_(static_cast<T *>(detail::allocate(bytesFor(shape)))) {}
  ~DeviceArray() { detail::release(data_); }
  DeviceArray(DeviceArray &&other) noexcept
      : shape_(std::exchange(other.shape_, {})), data_(std::exchange(other.data_, nullptr)) {}
  DeviceArray &operator=(DeviceArray &&other) noexcept {
    if (this != &other) {
      detail::release(data_);
      shape_ = std::exchange(other.shape_, {});
      data_ = std::exchange(other.data_, nullptr);
    }
    return *this;
  }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;

  T *data() { return data_; }
  const T *data() const { return data_; }
  const std::array<std::int64_t, N> &shape() const { return shape_; }
  std::int64_t shape(int axis) const { return shape_[axis]; }
  std::int64_t size() const { return detail::elementCount<N>(shape_); }
  std::size_t bytes() const { return static_cast<std::size_t>(size()) * sizeof(T); }

  ArrayView<T, N> view() { return {data_, shape_}; }
  ArrayView<const T, N> view() const { return {data_, shape_}; }

  /// Copies the whole array into `host`, which must hold exactly size()
  /// elements (ShapeError otherwise). Synchronous.
  void copy_to_host(std::vector<T> &host) const { copy_to_host(host.data(), host.size()); }
  void copy_to_host(T *host, std::size_t count) const {
    checkCount(count, "copy_to_host");
    detail::copyToHost(host, data_, bytes(), nullptr);
  }
  /// Asynchronous on `stream`: `host` must stay valid until the stream
  /// reaches the copy.
  void copy_to_host_async(std::vector<T> &host, Stream &stream) const {
    checkCount(host.size(), "copy_to_host_async");
    detail::copyToHost(host.data(), data_, bytes(), &stream);
  }
  /// Copies `host` (exactly size() elements) into the array.
  void copy_from_host(const std::vector<T> &host) { copy_from_host(host.data(), host.size()); }
  void copy_from_host(const T *host, std::size_t count) {
    checkCount(count, "copy_from_host");
    detail::copyToDevice(data_, host, bytes(), nullptr);
  }
  void copy_from_host_async(const std::vector<T> &host, Stream &stream) {
    checkCount(host.size(), "copy_from_host_async");
    detail::copyToDevice(data_, host.data(), bytes(), &stream);
  }

private:
  static std::size_t bytesFor(const std::array<std::int64_t, N> &shape) {
    return static_cast<std::size_t>(detail::elementCount<N>(shape)) * sizeof(T);
  }
  void checkCount(std::size_t count, const char *what) const {
    if (count != static_cast<std::size_t>(size()))
      throw ShapeError(std::string("pyk: ") + what + ": the host buffer holds " + std::to_string(count) +
                       " elements but the device array holds " + std::to_string(size()) +
                       "; resize the host buffer to match");
  }

  std::array<std::int64_t, N> shape_{};
  T *data_ = nullptr;
};

/// A 1-D device array with a copy of `host`.
template <typename T> DeviceArray<T, 1> to_device(const std::vector<T> &host) {
  DeviceArray<T, 1> array({static_cast<std::int64_t>(host.size())});
  array.copy_from_host(host);
  return array;
}

/// The extents of an N-dimensional array, from integers of any type, so that
/// `{rows, cols}` works with int, size_t or int64 variables alike.
template <int N> struct Extents {
  std::array<std::int64_t, N> values;
  template <typename... Ints,
            typename = std::enable_if_t<sizeof...(Ints) == N && (std::is_integral_v<Ints> && ...)>>
  Extents(Ints... extents) : values{static_cast<std::int64_t>(extents)...} {}
};

/// A device array of shape `shape` with a copy of `host` (row-major, exactly
/// as many elements as the shape holds, else ShapeError):
/// pyk::to_device(host, {rows, cols}).
template <typename T> DeviceArray<T, 1> to_device(const std::vector<T> &host, Extents<1> shape) {
  DeviceArray<T, 1> array(shape.values);
  array.copy_from_host(host);
  return array;
}
template <typename T> DeviceArray<T, 2> to_device(const std::vector<T> &host, Extents<2> shape) {
  DeviceArray<T, 2> array(shape.values);
  array.copy_from_host(host);
  return array;
}
template <typename T> DeviceArray<T, 3> to_device(const std::vector<T> &host, Extents<3> shape) {
  DeviceArray<T, 3> array(shape.values);
  array.copy_from_host(host);
  return array;
}

/// A 1-D device array with a copy of `host`, asynchronously on `stream`.
template <typename T> DeviceArray<T, 1> to_device_async(const std::vector<T> &host, Stream &stream) {
  DeviceArray<T, 1> array({static_cast<std::int64_t>(host.size())});
  array.copy_from_host_async(host, stream);
  return array;
}

/// An uninitialised device array: pyk::device_empty<float>({rows, cols}).
template <typename T> DeviceArray<T, 1> device_empty(Extents<1> shape) { return DeviceArray<T, 1>(shape.values); }
template <typename T> DeviceArray<T, 2> device_empty(Extents<2> shape) { return DeviceArray<T, 2>(shape.values); }
template <typename T> DeviceArray<T, 3> device_empty(Extents<3> shape) { return DeviceArray<T, 3>(shape.values); }

/// An uninitialised device array of `like`'s element type and shape.
template <typename T, int N> DeviceArray<T, N> device_empty_like(const DeviceArray<T, N> &like) {
  return DeviceArray<T, N>(like.shape());
}

} // namespace pyk

#endif // PYK_ARRAY_H
