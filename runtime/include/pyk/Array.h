//===- pyk/Array.h - Arrays in device memory -------------------------------===//
//
// DeviceArray<T, N> owns a C-contiguous (row-major) N-dimensional array in
// the memory of the device that was current when it was made (GPU memory,
// or host memory for the CPU device), and belongs to that device.
// ArrayView<T, N> is a non-owning view of one, which is what kernels take: a
// view of `const T` for arrays a kernel only reads, of `T` for arrays it
// writes, so that passing the wrong element type or rank is a C++ compile
// error. pyk::copy copies between arrays, of one device or two.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_ARRAY_H
#define PYK_ARRAY_H

#include "pyk/Device.h"
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
template <typename T, int N> class ArrayArgument;
} // namespace detail

namespace detail {
/// Memory of the current device, in bytes, aligned to 256 (null for 0
/// bytes), for the runtime call `operation` ("device_empty"), which
/// messages name. Throws CudaError on a GPU and Error on the CPU device when
/// there is no room.
void *allocate(std::size_t bytes, const char *operation);
/// Frees what allocate(bytes) returned on device `device` (null: nothing).
/// Like cuMemFree, it first waits for work still queued on the device's
/// streams.
void release(void *pointer, std::size_t bytes, int device) noexcept;
/// Copies to and from the memory of device `device`; with a stream, which
/// must be that device's (DeviceError), they are asynchronous on a GPU (host
/// memory must then stay valid until the stream reaches them).
void copyToDevice(void *to, int device, const void *host, std::size_t bytes, Stream *stream);
void copyToHost(void *host, const void *from, int device, std::size_t bytes, Stream *stream);
/// Between two devices' memory (a peer copy when they differ); a stream
/// must be one of the two devices'.
void copyDeviceToDevice(void *to, int toDevice, const void *from, int fromDevice, std::size_t bytes, Stream *stream);

/// "{2, 4}", as a shape is written in C++.
std::string shapeText(const std::int64_t *extents, int rank);
/// The elements of a shape; ShapeError, naming `operation` and the shape,
/// when an extent is negative or the count overflows int64.
std::int64_t checkedElementCount(const char *operation, const std::int64_t *extents, int rank);
/// The bytes of an array of that shape and `elementSize`-byte elements;
/// ShapeError as above, also when the bytes overflow int64.
std::size_t checkedByteCount(const char *operation, const std::int64_t *extents, int rank, std::size_t elementSize);
/// Throws ShapeError: `operation` was given `count` host elements for an
/// array of that shape.
[[noreturn]] void rejectHostCount(const char *operation, std::size_t count, const std::int64_t *extents, int rank);
/// Throws ShapeError unless a host buffer of `count` elements fits the
/// `elements` of the array or view that `operation` copies.
void requireHostCount(const char *operation, std::size_t count, std::int64_t elements);
/// The elements of one row (one index of the first axis) of an array of
/// `extents`; ShapeError unless rows `begin` to `end - 1` are some of its rows.
std::int64_t checkedSliceRowElements(std::int64_t begin, std::int64_t end, const std::int64_t *extents, int rank);
/// Throws Error: `operation` used a DeviceArray that was moved from.
[[noreturn]] void rejectMovedFrom(const char *operation);
/// Throws ShapeError, naming `operation`, unless `strides` (in elements)
/// lay an array of `extents` out C-contiguous (row-major, the last axis
/// fastest; an axis of extent 1 may have any stride).
void requireContiguous(const char *operation, const std::int64_t *extents, const std::int64_t *strides, int rank);

/// A view's device; memory of no known device (-1) is taken to be the
/// current device's.
inline int deviceOrCurrent(int device) {
  return device >= 0 ? device : get_device();
}

template <int N> std::int64_t elementCount(const std::array<std::int64_t, N> &shape) {
  return checkedElementCount("size()", shape.data(), N);
}
} // namespace detail

/// A non-owning view of a device array: data pointer, shape, and the device
/// it belongs to. Like std::string_view it must not outlive its array, so it
/// is not made from a temporary one (launch functions take temporaries:
/// ArrayArgument below). Launches take views; slice() views some of the
/// rows, and the copies copy what a view holds, as Numba's sliced device
/// arrays do (`d_ary[1:3].copy_to_host()`).
template <typename T, int N> class ArrayView {
  static_assert(N >= 1 && N <= 4, "pyk arrays have rank 1 to 4");

public:
  using element_type = T;
  static constexpr int rank = N;

  ArrayView() = default;
  /// A view of memory pyk did not allocate, on device `device`; -1: not
  /// known (not checked at launches).
  ArrayView(T *data, std::array<std::int64_t, N> shape, int device = -1)
      : data_(data), shape_(shape), device_(device) {}
  /// A view of a whole array (`const T` views also from const arrays).
  template <typename U, typename = std::enable_if_t<std::is_same_v<std::remove_const_t<T>, U> &&
                                                    (std::is_const_v<T> || !std::is_const_v<U>)>>
  ArrayView(DeviceArray<U, N> &array) : ArrayView(array.checkedView("an ArrayView of a DeviceArray")) {}
  template <typename U, typename = std::enable_if_t<std::is_same_v<std::remove_const_t<T>, U> && std::is_const_v<T>>>
  ArrayView(const DeviceArray<U, N> &array) : ArrayView(array.checkedView("an ArrayView of a DeviceArray")) {}
  /// No view of a temporary array: it is freed at the end of the statement.
  /// Keep the array in a variable and view that.
  template <typename U, typename = std::enable_if_t<std::is_same_v<std::remove_const_t<T>, U>>>
  ArrayView(const DeviceArray<U, N> &&temporary_array_would_dangle) = delete;
  /// A writable view converts to a read-only one.
  template <typename U, typename = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  ArrayView(ArrayView<U, N> view) : data_(view.data()), shape_(view.shape()), device_(view.device()) {}

  T *data() const { return data_; }
  /// The device whose memory it views (-1: not known).
  int device() const { return device_; }
  const std::array<std::int64_t, N> &shape() const { return shape_; }
  std::int64_t shape(int axis) const { return shape_[axis]; }
  std::int64_t size() const { return detail::elementCount<N>(shape_); }
  std::size_t bytes() const { return static_cast<std::size_t>(size()) * sizeof(T); }

  /// Rows `begin` to `end - 1` along the first axis, Numba's
  /// `d_ary[begin:end]`: the same memory, contiguous as the array is (a
  /// stencil's halo rows, one batch of many). ShapeError unless
  /// 0 <= begin <= end <= shape(0).
  ArrayView slice(std::int64_t begin, std::int64_t end) const {
    const std::int64_t rowElements = detail::checkedSliceRowElements(begin, end, shape_.data(), N);
    std::array<std::int64_t, N> rows = shape_;
    rows[0] = end - begin;
    return ArrayView(data_ + begin * rowElements, rows, device_);
  }

  /// Copies what the view holds into `host`, which must hold exactly size()
  /// elements (ShapeError otherwise). Synchronous; the _async forms queue
  /// the copy on `stream`, and `host` must stay valid until it is reached
  /// (a pyk::PinnedBuffer's memory, so that it overlaps kernels on a GPU).
  void copy_to_host(std::vector<std::remove_const_t<T>> &host) const { copy_to_host(host.data(), host.size()); }
  void copy_to_host(std::remove_const_t<T> *host, std::size_t count) const {
    detail::requireHostCount("copy_to_host", count, size());
    detail::copyToHost(host, data_, owner(), bytes(), nullptr);
  }
  void copy_to_host_async(std::vector<std::remove_const_t<T>> &host, Stream &stream) const {
    copy_to_host_async(host.data(), host.size(), stream);
  }
  void copy_to_host_async(std::remove_const_t<T> *host, std::size_t count, Stream &stream) const {
    detail::requireHostCount("copy_to_host_async", count, size());
    detail::copyToHost(host, data_, owner(), bytes(), &stream);
  }
  /// Copies `host` (exactly size() elements) into the viewed memory (not
  /// into a view of `const T`).
  template <typename Writable = T, std::enable_if_t<!std::is_const_v<Writable>, int> = 0>
  void copy_from_host(const std::vector<std::remove_const_t<T>> &host) const {
    copy_from_host(host.data(), host.size());
  }
  template <typename Writable = T, std::enable_if_t<!std::is_const_v<Writable>, int> = 0>
  void copy_from_host(const std::remove_const_t<T> *host, std::size_t count) const {
    detail::requireHostCount("copy_from_host", count, size());
    detail::copyToDevice(data_, owner(), host, bytes(), nullptr);
  }
  template <typename Writable = T, std::enable_if_t<!std::is_const_v<Writable>, int> = 0>
  void copy_from_host_async(const std::vector<std::remove_const_t<T>> &host, Stream &stream) const {
    copy_from_host_async(host.data(), host.size(), stream);
  }
  template <typename Writable = T, std::enable_if_t<!std::is_const_v<Writable>, int> = 0>
  void copy_from_host_async(const std::remove_const_t<T> *host, std::size_t count, Stream &stream) const {
    detail::requireHostCount("copy_from_host_async", count, size());
    detail::copyToDevice(data_, owner(), host, bytes(), &stream);
  }
  /// Not from a temporary vector: it is freed before the stream copies it.
  void copy_from_host_async(const std::vector<std::remove_const_t<T>> &&temporary_host_would_dangle,
                            Stream &stream) const = delete;

private:
  int owner() const { return detail::deviceOrCurrent(device_); }

  T *data_ = nullptr;
  std::array<std::int64_t, N> shape_{};
  int device_ = -1;
};

/// An owning, move-only array in device memory. A moved-from array is empty
/// (null data, zero shape) and remembers that it was moved from: viewing or
/// copying it throws Error until it is assigned again.
template <typename T, int N> class DeviceArray {
  static_assert(N >= 1 && N <= 4, "pyk arrays have rank 1 to 4");
  static_assert(std::is_trivially_copyable_v<T> && !std::is_const_v<T>, "device arrays hold plain numbers");

public:
  using element_type = T;
  static constexpr int rank = N;

  DeviceArray() = default;
  /// An uninitialised array of the given shape (ShapeError for a negative
  /// extent or a size in bytes beyond int64). `operation` names the call in
  /// messages.
  explicit DeviceArray(std::array<std::int64_t, N> shape, const char *operation = "DeviceArray")
      : shape_(shape), device_(get_device()),
        data_(static_cast<T *>(
            detail::allocate(detail::checkedByteCount(operation, shape.data(), N, sizeof(T)), operation))) {}
  ~DeviceArray() { detail::release(data_, bytes(), device_); }
  DeviceArray(DeviceArray &&other) noexcept
      : shape_(std::exchange(other.shape_, {})), device_(other.device_), data_(std::exchange(other.data_, nullptr)),
        movedFrom_(std::exchange(other.movedFrom_, true)) {}
  DeviceArray &operator=(DeviceArray &&other) noexcept {
    if (this != &other) {
      detail::release(data_, bytes(), device_);
      shape_ = std::exchange(other.shape_, {});
      device_ = other.device_;
      data_ = std::exchange(other.data_, nullptr);
      movedFrom_ = std::exchange(other.movedFrom_, true);
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
  /// The device it belongs to: the one current when it was made.
  int device() const { return device_; }

  /// Views of the array (not of a temporary one, which would dangle).
  ArrayView<T, N> view() & { return checkedView("view()"); }
  ArrayView<const T, N> view() const & { return checkedView("view()"); }
  ArrayView<const T, N> view() const && = delete;

  /// Views of rows `begin` to `end - 1` (ArrayView::slice).
  ArrayView<T, N> slice(std::int64_t begin, std::int64_t end) & { return checkedView("slice()").slice(begin, end); }
  ArrayView<const T, N> slice(std::int64_t begin, std::int64_t end) const & {
    return checkedView("slice()").slice(begin, end);
  }
  ArrayView<const T, N> slice(std::int64_t begin, std::int64_t end) const && = delete;

  /// Copies the whole array into `host`, which must hold exactly size()
  /// elements (ShapeError otherwise). Synchronous.
  void copy_to_host(std::vector<T> &host) const { copy_to_host(host.data(), host.size()); }
  void copy_to_host(T *host, std::size_t count) const { checkedView("copy_to_host").copy_to_host(host, count); }
  /// Asynchronous on `stream`: `host` must stay valid until the stream
  /// reaches the copy.
  void copy_to_host_async(std::vector<T> &host, Stream &stream) const {
    copy_to_host_async(host.data(), host.size(), stream);
  }
  /// Into `count` elements at `host` (a pyk::PinnedBuffer's, so that the
  /// copy overlaps kernels on a GPU).
  void copy_to_host_async(T *host, std::size_t count, Stream &stream) const {
    checkedView("copy_to_host_async").copy_to_host_async(host, count, stream);
  }
  /// Copies `host` (exactly size() elements) into the array.
  void copy_from_host(const std::vector<T> &host) { copy_from_host(host.data(), host.size()); }
  void copy_from_host(const T *host, std::size_t count) { checkedView("copy_from_host").copy_from_host(host, count); }
  void copy_from_host_async(const std::vector<T> &host, Stream &stream) {
    copy_from_host_async(host.data(), host.size(), stream);
  }
  void copy_from_host_async(const T *host, std::size_t count, Stream &stream) {
    checkedView("copy_from_host_async").copy_from_host_async(host, count, stream);
  }
  /// Not from a temporary vector: it is freed before the stream copies it.
  void copy_from_host_async(const std::vector<T> &&temporary_host_would_dangle, Stream &stream) = delete;

private:
  template <typename, int> friend class ArrayView;
  template <typename, int> friend class detail::ArrayArgument;

  void requireNotMovedFrom(const char *operation) const {
    if (movedFrom_)
      detail::rejectMovedFrom(operation);
  }
  ArrayView<T, N> checkedView(const char *operation) {
    requireNotMovedFrom(operation);
    return {data_, shape_, device_};
  }
  ArrayView<const T, N> checkedView(const char *operation) const {
    requireNotMovedFrom(operation);
    return {data_, shape_, device_};
  }

  std::array<std::int64_t, N> shape_{};
  int device_ = 0;
  T *data_ = nullptr;
  bool movedFrom_ = false;
};

namespace detail {

/// An array parameter of a launch function that pykc generates: what a
/// kernel launch takes for an array. Unlike an ArrayView it takes a
/// temporary DeviceArray too (`kernel(launch, pyk::to_device(v), out)`): the
/// temporary lives until the launch statement ends, and freeing it then
/// waits for the kernel, as cuMemFree does. Only a parameter type: it is not
/// copied, and a variable of it would dangle as a view of a temporary does.
template <typename T, int N> class ArrayArgument {
  template <typename U> static constexpr bool sameElement = std::is_same_v<std::remove_const_t<T>, U>;
  static constexpr const char *operation = "launching a kernel";

public:
  template <typename U, typename = std::enable_if_t<sameElement<U>>>
  ArrayArgument(DeviceArray<U, N> &array) : view_(array.checkedView(operation)) {}
  template <typename U, typename = std::enable_if_t<sameElement<U> && std::is_const_v<T>>>
  ArrayArgument(const DeviceArray<U, N> &array) : view_(array.checkedView(operation)) {}
  template <typename U, typename = std::enable_if_t<sameElement<U>>>
  ArrayArgument(DeviceArray<U, N> &&temporary) : view_(temporary.checkedView(operation)) {}
  template <typename U, typename = std::enable_if_t<sameElement<std::remove_const_t<U>> &&
                                                    (std::is_const_v<T> || !std::is_const_v<U>)>>
  ArrayArgument(ArrayView<U, N> view) : view_(view.data(), view.shape(), view.device()) {}
  ArrayArgument(const ArrayArgument &) = delete;
  ArrayArgument &operator=(const ArrayArgument &) = delete;

  T *data() const { return view_.data(); }
  /// The device it belongs to (-1: not known).
  int device() const { return view_.device(); }
  std::int64_t shape(int axis) const { return view_.shape(axis); }
  std::int64_t size() const { return view_.size(); }

private:
  ArrayView<T, N> view_;
};

template <typename T, int N>
DeviceArray<T, N> arrayFromHost(const std::vector<T> &host, const std::array<std::int64_t, N> &shape,
                                const char *operation) {
  if (host.size() != static_cast<std::size_t>(checkedElementCount(operation, shape.data(), N)))
    rejectHostCount(operation, host.size(), shape.data(), N);
  DeviceArray<T, N> array(shape, operation);
  array.copy_from_host(host);
  return array;
}

} // namespace detail

/// A 1-D device array with a copy of `host`.
template <typename T> DeviceArray<T, 1> to_device(const std::vector<T> &host) {
  return detail::arrayFromHost<T, 1>(host, {static_cast<std::int64_t>(host.size())}, "to_device");
}

/// The extents of an N-dimensional array, from integers of any type, so that
/// `{rows, cols}` works with int, size_t or int64 variables alike.
template <int N> struct Extents {
  std::array<std::int64_t, N> values;
  template <typename... Ints, typename = std::enable_if_t<sizeof...(Ints) == N && (std::is_integral_v<Ints> && ...)>>
  Extents(Ints... extents) : values{static_cast<std::int64_t>(extents)...} {}
};

/// A device array of shape `shape` with a copy of `host` (row-major, exactly
/// as many elements as the shape holds, else ShapeError):
/// pyk::to_device(host, {rows, cols}).
template <typename T> DeviceArray<T, 1> to_device(const std::vector<T> &host, Extents<1> shape) {
  return detail::arrayFromHost<T, 1>(host, shape.values, "to_device");
}
template <typename T> DeviceArray<T, 2> to_device(const std::vector<T> &host, Extents<2> shape) {
  return detail::arrayFromHost<T, 2>(host, shape.values, "to_device");
}
template <typename T> DeviceArray<T, 3> to_device(const std::vector<T> &host, Extents<3> shape) {
  return detail::arrayFromHost<T, 3>(host, shape.values, "to_device");
}
template <typename T> DeviceArray<T, 4> to_device(const std::vector<T> &host, Extents<4> shape) {
  return detail::arrayFromHost<T, 4>(host, shape.values, "to_device");
}

/// A 1-D device array with a copy of `host`, asynchronously on `stream`:
/// `host` must stay alive, unchanged, until the stream has copied it.
template <typename T> DeviceArray<T, 1> to_device_async(const std::vector<T> &host, Stream &stream) {
  DeviceArray<T, 1> array({static_cast<std::int64_t>(host.size())}, "to_device_async");
  array.copy_from_host_async(host, stream);
  return array;
}
/// Not from a temporary vector: it is freed before the stream copies it.
template <typename T>
DeviceArray<T, 1> to_device_async(const std::vector<T> &&temporary_host_would_dangle, Stream &stream) = delete;

/// An uninitialised device array: pyk::device_empty<float>({rows, cols}).
template <typename T> DeviceArray<T, 1> device_empty(Extents<1> shape) {
  return DeviceArray<T, 1>(shape.values, "device_empty");
}
template <typename T> DeviceArray<T, 2> device_empty(Extents<2> shape) {
  return DeviceArray<T, 2>(shape.values, "device_empty");
}
template <typename T> DeviceArray<T, 3> device_empty(Extents<3> shape) {
  return DeviceArray<T, 3>(shape.values, "device_empty");
}
template <typename T> DeviceArray<T, 4> device_empty(Extents<4> shape) {
  return DeviceArray<T, 4>(shape.values, "device_empty");
}

/// An uninitialised device array of `like`'s element type and shape, on
/// the current device.
template <typename T, int N> DeviceArray<T, N> device_empty_like(const DeviceArray<T, N> &like) {
  return DeviceArray<T, N>(like.shape(), "device_empty_like");
}

namespace detail {
template <typename T, int N>
ArrayView<T, N> externalView(T *data, const std::array<std::int64_t, N> &shape,
                             const std::array<std::int64_t, N> *strides) {
  checkedElementCount("pyk::external_view", shape.data(), N);
  if (strides)
    requireContiguous("pyk::external_view", shape.data(), strides->data(), N);
  return ArrayView<T, N>(data, shape, get_device());
}
} // namespace detail

/// A view of device memory pyk did not allocate (cudaMalloc'd, or another
/// library's tensor), on the current device, which launches then check:
/// `data` holds an array of `shape`, C-contiguous (row-major), and must
/// stay valid while kernels use it. With `strides` (in elements, as DLPack
/// and NumPy's element strides give them): ShapeError unless they are
/// C-contiguous, the only layout pyk's kernels index.
template <typename T> ArrayView<T, 1> external_view(T *data, Extents<1> shape) {
  return detail::externalView<T, 1>(data, shape.values, nullptr);
}
template <typename T> ArrayView<T, 2> external_view(T *data, Extents<2> shape) {
  return detail::externalView<T, 2>(data, shape.values, nullptr);
}
template <typename T> ArrayView<T, 3> external_view(T *data, Extents<3> shape) {
  return detail::externalView<T, 3>(data, shape.values, nullptr);
}
template <typename T> ArrayView<T, 4> external_view(T *data, Extents<4> shape) {
  return detail::externalView<T, 4>(data, shape.values, nullptr);
}
template <typename T> ArrayView<T, 1> external_view(T *data, Extents<1> shape, Extents<1> strides) {
  return detail::externalView<T, 1>(data, shape.values, &strides.values);
}
template <typename T> ArrayView<T, 2> external_view(T *data, Extents<2> shape, Extents<2> strides) {
  return detail::externalView<T, 2>(data, shape.values, &strides.values);
}
template <typename T> ArrayView<T, 3> external_view(T *data, Extents<3> shape, Extents<3> strides) {
  return detail::externalView<T, 3>(data, shape.values, &strides.values);
}
template <typename T> ArrayView<T, 4> external_view(T *data, Extents<4> shape, Extents<4> strides) {
  return detail::externalView<T, 4>(data, shape.values, &strides.values);
}

/// Copies `from` into `to`, which must have its shape (ShapeError): within
/// a device, or from one device to another (a peer copy between GPUs).
/// Synchronous; with a stream, which must belong to one of the two devices
/// (DeviceError), asynchronous.
/// Between views (slices of arrays: the rows a neighbour needs) too.
template <typename T, typename U, int N, typename = std::enable_if_t<std::is_same_v<std::remove_const_t<U>, T>>>
void copy(ArrayView<T, N> to, ArrayView<U, N> from, Stream *stream = nullptr) {
  if (to.shape() != from.shape())
    throw ShapeError("pyk::copy: the source array's shape is " + detail::shapeText(from.shape().data(), N) +
                     " but the target's is " + detail::shapeText(to.shape().data(), N) +
                     "; copy between arrays of one shape");
  detail::copyDeviceToDevice(to.data(), detail::deviceOrCurrent(to.device()), from.data(),
                             detail::deviceOrCurrent(from.device()), from.bytes(), stream);
}
template <typename T, int N> void copy(DeviceArray<T, N> &to, const DeviceArray<T, N> &from, Stream *stream = nullptr) {
  copy(to.view(), from.view(), stream);
}

} // namespace pyk

#endif // PYK_ARRAY_H
