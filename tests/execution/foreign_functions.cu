// CUDA C++ device functions that foreign_functions.pyk declares with
// cuda.declare_device, written as Numba's FFI documentation writes them:
// extern "C", the value stored through the first parameter, 0 returned.
// On the CPU device this file is compiled for the host against
// pyk/CudaOnCpu.h.
#include <cstdint>

extern "C" __device__ int mul_f32(float *result, float a, float b)
{
    *result = a * b;
    return 0;
}

// A clamp, by name "clamp": the .pyk file has a device function of its
// own called clamp too (pyk renames its own).
extern "C" __device__ int clamp(double *result, double v, double lo, double hi)
{
    *result = v < lo ? lo : (v > hi ? hi : v);
    return 0;
}

extern "C" __device__ int collatz_length(int32_t *result, int64_t n)
{
    int32_t steps = 0;
    while (n != 1 && steps < 1000) {
        n = n % 2 == 0 ? n / 2 : 3 * n + 1;
        ++steps;
    }
    *result = steps;
    return 0;
}

extern "C" __device__ int is_small(bool *result, int8_t v, uint16_t limit)
{
    *result = v >= -int(limit) && v <= int(limit);
    return 0;
}
