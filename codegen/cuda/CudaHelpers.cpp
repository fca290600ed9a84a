//===- CudaHelpers.cpp - Python's integer and float semantics in CUDA C++ --===//
#include "CudaHelpers.h"

namespace pyk::cuda {

const char *helperName(Helper helper) {
  switch (helper) {
  case Helper::FloorDiv:
    return "pyk_floordiv";
  case Helper::Mod:
    return "pyk_mod";
  case Helper::FloatMod:
    return "pyk_fmod";
  case Helper::FloatFloorDiv:
    return "pyk_ffloordiv";
  case Helper::IntPow:
    return "pyk_ipow";
  case Helper::Shl:
    return "pyk_shl";
  case Helper::Shr:
    return "pyk_shr";
  case Helper::Min:
    return "pyk_min";
  case Helper::Max:
    return "pyk_max";
  case Helper::LaneId:
    return "pyk_laneid";
  }
  return "pyk_unknown";
}

static const char *definition(Helper helper) {
  switch (helper) {
  case Helper::FloorDiv:
    return R"(// Python's a // b on integers: rounds toward minus infinity; dividing by
// zero gives 0, and the most negative value // -1 wraps.
template <typename T> __device__ __forceinline__ T pyk_floordiv(T a, T b) {
    if (b == 0)
        return 0;
    if constexpr (std::is_signed_v<T>) {
        using U = std::make_unsigned_t<T>;
        if (b == T(-1))
            return T(U(0) - U(a));
        T q = a / b;
        if (a % b != 0 && ((a < 0) != (b < 0)))
            --q;
        return q;
    } else {
        return a / b;
    }
}
)";
  case Helper::Mod:
    return R"(// Python's a % b on integers: the result takes the divisor's sign; modulo
// by zero gives 0.
template <typename T> __device__ __forceinline__ T pyk_mod(T a, T b) {
    if (b == 0)
        return 0;
    if constexpr (std::is_signed_v<T>) {
        if (b == T(-1))
            return 0;
        T r = a % b;
        if (r != 0 && ((r < 0) != (b < 0)))
            r += b;
        return r;
    } else {
        return a % b;
    }
}
)";
  case Helper::FloatMod:
    return R"(// Python's a % b on floats (NumPy's npy_divmod): fmod's remainder moved to
// the divisor's sign, a zero one too; modulo by zero gives nan.
template <typename T> __device__ __forceinline__ T pyk_fmod(T a, T b) {
    T mod = fmod(a, b);
    if (b == 0)
        return mod;
    if (mod == 0)
        return copysign(T(0), b);
    if ((b < 0) != (mod < 0))
        mod += b;
    return mod;
}
)";
  case Helper::FloatFloorDiv:
    return R"(// Python's a // b on floats (NumPy's npy_divmod): (a - fmod(a, b)) / b is
// nearly an integer and is snapped to one, so 1.0 // 0.1 is 9.0 as in
// Python (floor(1.0 / 0.1) would be 10.0); dividing by zero gives a / b.
template <typename T> __device__ __forceinline__ T pyk_ffloordiv(T a, T b) {
    if (b == 0)
        return a / b;
    T mod = fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0))
        div -= 1;
    if (div == 0)
        return copysign(T(0), a / b);
    T floordiv = floor(div);
    if (div - floordiv > T(0.5))
        floordiv += 1;
    return floordiv;
}
)";
  case Helper::IntPow:
    return R"(// a ** b on integers, by repeated squaring, wrapping on overflow. A
// negative exponent gives the integer part of the real power (0 unless a is
// 1 or -1).
template <typename T> __device__ __forceinline__ T pyk_ipow(T a, T b) {
    using U = std::make_unsigned_t<T>;
    if constexpr (std::is_signed_v<T>) {
        if (b < 0)
            return a == 1 ? T(1) : a == T(-1) ? T((b & 1) ? -1 : 1) : T(0);
    }
    U result = 1, base = U(a);
    for (U e = U(b); e != 0; e >>= 1) {
        if (e & 1)
            result *= base;
        base *= base;
    }
    return T(result);
}
)";
  case Helper::Shl:
    return R"(// a << b as NumPy does it: a count outside [0, bits) gives 0.
template <typename T> __device__ __forceinline__ T pyk_shl(T a, T b) {
    using U = std::make_unsigned_t<T>;
    if (U(b) >= U(sizeof(T) * 8)) // a negative count is a huge unsigned one
        return 0;
    return T(U(a) << b);
}
)";
  case Helper::Shr:
    return R"(// a >> b as NumPy does it: a count outside [0, bits) gives 0, or -1 for
// a negative a.
template <typename T> __device__ __forceinline__ T pyk_shr(T a, T b) {
    using U = std::make_unsigned_t<T>;
    if (U(b) >= U(sizeof(T) * 8)) { // a negative count is a huge unsigned one
        if constexpr (std::is_signed_v<T>)
            return a < 0 ? T(-1) : T(0);
        return 0;
    }
    return a >> b;
}
)";
  case Helper::Min:
    return R"(// Python's min(a, b): b if b < a else a (the first of equal values).
template <typename T> __device__ __forceinline__ T pyk_min(T a, T b) {
    return b < a ? b : a;
}
)";
  case Helper::LaneId:
    return R"(// cuda.laneid: the thread's index in its warp, PTX's %laneid.
__device__ __forceinline__ int32_t pyk_laneid() {
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    return (int32_t)lane;
}
)";
  case Helper::Max:
    return R"(// Python's max(a, b): b if b > a else a (the first of equal values).
template <typename T> __device__ __forceinline__ T pyk_max(T a, T b) {
    return b > a ? b : a;
}
)";
  }
  return "";
}

void emitHelpers(const std::set<Helper> &helpers, llvm::raw_ostream &os) {
  if (helpers.empty())
    return;
  os << "#include <type_traits>\n";
  for (Helper helper : helpers)
    os << "\n" << definition(helper);
}

} // namespace pyk::cuda
