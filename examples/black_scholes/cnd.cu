// The cumulative distribution function of the standard normal distribution,
// written in CUDA C++ and called from black_scholes.pyk, which declares it
// with cuda.declare_device. Numba's ABI: extern "C", the value stored
// through the first parameter, 0 returned (no Python exception).
extern "C" __device__ int cnd(double *result, double d)
{
    // Phi(d) = erfc(-d / sqrt(2)) / 2, accurate in both tails.
    *result = 0.5 * erfc(-d * 0.70710678118654752440);
    return 0;
}
