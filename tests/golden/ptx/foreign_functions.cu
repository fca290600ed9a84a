// The CUDA C++ functions foreign_functions.pyk declares, so that its
// kernels link (pykc --emit=host and --emit=cubin link them; the golden
// test itself looks at the PTX, which only declares them).
#include <cstdint>

extern "C" __device__ int mul_f32(float *result, float a, float b)
{
    *result = a * b;
    return 0;
}

extern "C" __device__ int pick(int64_t *result, bool first, int64_t a, int64_t b)
{
    *result = first ? a : b;
    return 0;
}
