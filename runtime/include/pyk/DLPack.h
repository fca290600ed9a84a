//===- pyk/DLPack.h - DLPack tensors into and out of pyk -------------------===//
//
// DLPack (dlpack/dlpack.h) is how PyTorch, CuPy, JAX and CV-CUDA hand each
// other tensors without copying: a DLManagedTensor holds the data pointer,
// device, element type, shape and strides, and a deleter its consumer calls
// when done. pyk::from_dlpack takes one into pyk, as a view that launches
// take (its deleter runs when the DLPackArray goes); pyk::to_dlpack hands a
// pyk array to another library, which frees it through the deleter.
//
// Header-only: only programs that include it need DLPack's header (Debian's
// libdlpack-dev, or any copy of dlpack.h).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_DLPACK_H
#define PYK_DLPACK_H

#include "pyk/Array.h"
#include "pyk/Device.h"
#include "pyk/Error.h"
#include "pyk/Float16.h"

#include <dlpack/dlpack.h>

#include <array>
#include <complex>
#include <cstdint>
#include <string>
#include <utility>

namespace pyk {
namespace detail {

/// DLPack's type of a pyk element type T: its code and bits (one lane).
template <typename T> struct DLPackType;
#define PYK_DLPACK_TYPE(Type, Code, Bits, Name)                                                                        \
  template <> struct DLPackType<Type> {                                                                                \
    static constexpr std::uint8_t code = Code, bits = Bits;                                                            \
    static constexpr const char *name = Name;                                                                          \
  };
PYK_DLPACK_TYPE(std::int8_t, kDLInt, 8, "int8")
PYK_DLPACK_TYPE(std::int16_t, kDLInt, 16, "int16")
PYK_DLPACK_TYPE(std::int32_t, kDLInt, 32, "int32")
PYK_DLPACK_TYPE(std::int64_t, kDLInt, 64, "int64")
PYK_DLPACK_TYPE(std::uint8_t, kDLUInt, 8, "uint8")
PYK_DLPACK_TYPE(std::uint16_t, kDLUInt, 16, "uint16")
PYK_DLPACK_TYPE(std::uint32_t, kDLUInt, 32, "uint32")
PYK_DLPACK_TYPE(std::uint64_t, kDLUInt, 64, "uint64")
PYK_DLPACK_TYPE(float16, kDLFloat, 16, "float16")
PYK_DLPACK_TYPE(float, kDLFloat, 32, "float32")
PYK_DLPACK_TYPE(double, kDLFloat, 64, "float64")
PYK_DLPACK_TYPE(bfloat16, kDLBfloat, 16, "bfloat16")
PYK_DLPACK_TYPE(std::complex<float>, kDLComplex, 64, "complex64")
PYK_DLPACK_TYPE(std::complex<double>, kDLComplex, 128, "complex128")
// kDLBool is 6 since DLPack 0.8, which Debian's header (0.6) predates.
PYK_DLPACK_TYPE(bool, 6, 8, "bool")
#undef PYK_DLPACK_TYPE

/// "float32", "int64", or "type code 3 with 32 bits and 4 lanes".
inline std::string dlpackTypeName(const DLDataType &type) {
  static const char *const names[] = {"int", "uint", "float", "handle", "bfloat", "complex", "bool"};
  if (type.lanes == 1 && type.code < 7 && type.code != kDLOpaqueHandle && !(type.code == 6 && type.bits != 8))
    return std::string(names[type.code]) + (type.code == 6 ? "" : std::to_string(type.bits));
  return "type code " + std::to_string(type.code) + " with " + std::to_string(type.bits) + " bits and " +
         std::to_string(type.lanes) + " lanes";
}

/// The DLPack device of pyk's device `index`: a GPU's CUDA ordinal, or the
/// host for a CPU device.
inline DLDevice dlpackDevice(int index) {
  if (device(index).kind == DeviceKind::Cuda)
    return DLDevice{kDLCUDA, index};
  return DLDevice{kDLCPU, 0};
}

/// The pyk device that may use `tensor`'s memory: its GPU, or the current
/// CPU device for host memory; DeviceError when pyk's devices cannot.
inline int deviceOfDLPack(const DLTensor &tensor) {
  const bool host = tensor.device.device_type == kDLCPU || tensor.device.device_type == kDLCUDAHost;
  if (current_device() == DeviceKind::Cpu) {
    if (!host)
      throw DeviceError("pyk::from_dlpack: the tensor's memory is on DLPack device type " +
                        std::to_string(tensor.device.device_type) +
                        " (2 is a CUDA GPU), but pyk runs kernels on the CPU device, which uses host memory (kDLCPU): "
                        "give it a tensor in host memory");
    return get_device();
  }
  if (tensor.device.device_type != kDLCUDA && tensor.device.device_type != kDLCUDAManaged)
    throw DeviceError("pyk::from_dlpack: the tensor's memory is on DLPack device type " +
                      std::to_string(tensor.device.device_type) +
                      ", which pyk's GPU kernels cannot use: give it a tensor in GPU memory (kDLCUDA)");
  if (tensor.device.device_id < 0 || tensor.device.device_id >= device_count())
    throw DeviceError("pyk::from_dlpack: the tensor is on CUDA device " + std::to_string(tensor.device.device_id) +
                      ", which pyk does not see (it has " + std::to_string(device_count()) + ")");
  return tensor.device.device_id;
}

} // namespace detail

/// A DLPack tensor pyk took from another library (pyk::from_dlpack): its
/// memory, viewed as an array of T with N axes, on the device it is on.
/// Launches take view(); launches on another device are DeviceErrors, as
/// for pyk's arrays. Move-only; destroying it calls the tensor's deleter,
/// after which the memory is the other library's again (wait for the
/// kernels that use it first, as before freeing any array).
template <typename T, int N> class DLPackArray {
public:
  DLPackArray(DLPackArray &&other) noexcept
      : tensor_(std::exchange(other.tensor_, nullptr)), view_(std::exchange(other.view_, {})) {}
  DLPackArray &operator=(DLPackArray &&other) noexcept {
    if (this != &other) {
      release();
      tensor_ = std::exchange(other.tensor_, nullptr);
      view_ = std::exchange(other.view_, {});
    }
    return *this;
  }
  DLPackArray(const DLPackArray &) = delete;
  DLPackArray &operator=(const DLPackArray &) = delete;
  ~DLPackArray() { release(); }

  ArrayView<T, N> view() const & { return view_; }
  ArrayView<T, N> view() const && = delete; // would outlive the tensor
  T *data() const { return view_.data(); }
  const std::array<std::int64_t, N> &shape() const { return view_.shape(); }
  std::int64_t size() const { return view_.size(); }
  int device() const { return view_.device(); }

private:
  template <typename U, int M> friend DLPackArray<U, M> from_dlpack(DLManagedTensor *tensor);
  DLPackArray(DLManagedTensor *tensor, ArrayView<T, N> view) : tensor_(tensor), view_(view) {}
  void release() noexcept {
    if (tensor_ && tensor_->deleter)
      tensor_->deleter(tensor_);
    tensor_ = nullptr;
  }

  DLManagedTensor *tensor_ = nullptr;
  ArrayView<T, N> view_;
};

/// Takes `tensor` from another library as an array of T with N axes. It
/// must hold T (DLPack's code and bits, one lane), have N axes and be
/// row-major and contiguous (null strides, or strides that say so), in
/// memory pyk's current kind of device uses: a GPU's (kDLCUDA, on the GPU
/// with that ordinal), or the host's for the CPU device (kDLCPU). pyk owns
/// the tensor from the call on: its deleter runs when the DLPackArray goes,
/// and before an Error (ShapeError, DeviceError) is thrown.
template <typename T, int N> DLPackArray<T, N> from_dlpack(DLManagedTensor *tensor) {
  static_assert(N >= 1 && N <= 4, "pyk arrays have rank 1 to 4");
  if (!tensor)
    throw Error("pyk::from_dlpack: the tensor is null");
  // Deleted on every way out but success.
  struct Owner {
    DLManagedTensor *tensor;
    ~Owner() {
      if (tensor && tensor->deleter)
        tensor->deleter(tensor);
    }
  } owner{tensor};
  const DLTensor &t = tensor->dl_tensor;
  using Element = std::remove_const_t<T>;
  const DLDataType &type = t.dtype;
  if (type.code != detail::DLPackType<Element>::code || type.bits != detail::DLPackType<Element>::bits ||
      type.lanes != 1)
    throw Error(std::string("pyk::from_dlpack: the tensor holds ") + detail::dlpackTypeName(type) + ", not the " +
                detail::DLPackType<Element>::name + " asked for");
  if (t.ndim != N)
    throw ShapeError("pyk::from_dlpack: the tensor has " + std::to_string(t.ndim) + " axes, not the " +
                     std::to_string(N) + " asked for");
  std::array<std::int64_t, N> shape{}, strides{};
  for (int axis = 0; axis < N; ++axis)
    shape[axis] = t.shape[axis];
  detail::checkedElementCount("pyk::from_dlpack", shape.data(), N);
  if (t.strides) {
    for (int axis = 0; axis < N; ++axis)
      strides[axis] = t.strides[axis];
    detail::requireContiguous("pyk::from_dlpack", shape.data(), strides.data(), N);
  }
  const int device = detail::deviceOfDLPack(t);
  T *data = reinterpret_cast<T *>(static_cast<char *>(t.data) + t.byte_offset);
  owner.tensor = nullptr;
  return DLPackArray<T, N>(tensor, ArrayView<T, N>(data, shape, device));
}

/// Hands `array` to another library as a DLPack tensor: row-major with its
/// strides given, on its device (kDLCUDA with the GPU's ordinal, or kDLCPU
/// for the CPU device). The tensor owns the array; its deleter, which the
/// other library calls once, frees it.
template <typename T, int N> DLManagedTensor *to_dlpack(DeviceArray<T, N> &&array) {
  struct Exported {
    DeviceArray<T, N> array;
    std::array<std::int64_t, N> shape, strides;
    DLManagedTensor managed;
  };
  ArrayView<T, N> view = array.view(); // rejects a moved-from array
  auto *exported = new Exported{std::move(array), view.shape(), {}, {}};
  std::int64_t step = 1;
  for (int axis = N - 1; axis >= 0; --axis) {
    exported->strides[axis] = step;
    step *= exported->shape[axis];
  }
  DLTensor &t = exported->managed.dl_tensor;
  t.data = exported->array.data();
  t.device = detail::dlpackDevice(exported->array.device());
  t.ndim = N;
  t.dtype = DLDataType{detail::DLPackType<T>::code, detail::DLPackType<T>::bits, 1};
  t.shape = exported->shape.data();
  t.strides = exported->strides.data();
  t.byte_offset = 0;
  exported->managed.manager_ctx = exported;
  exported->managed.deleter = [](DLManagedTensor *self) { delete static_cast<Exported *>(self->manager_ctx); };
  return &exported->managed;
}

} // namespace pyk

#endif // PYK_DLPACK_H
