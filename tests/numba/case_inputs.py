"""The cross-check cases' inputs: NumPy arrays and scalars of exact dtypes,
from a seeded generator, with the edge cases random values miss."""
import numpy as np


def ints(rng, dtype, n, low, high):
    return rng.integers(low, high, size=n, endpoint=True, dtype=dtype)


def floats(rng, dtype, shape, low=-4.0, high=4.0):
    return rng.uniform(low, high, size=shape).astype(dtype)


def zeros(dtype, shape):
    return np.zeros(shape, dtype=dtype)


def wrapped_int32(values):
    """int64 values as the int32 arithmetic that produced them wraps them."""
    return np.asarray(values, dtype=np.int64).astype(np.int32)


def rng_states(rng, n):
    """n numba.cuda.random generator states of random bits (any state but
    all zeros is one of the generator's)."""
    from numba.cuda.random import xoroshiro128p_dtype
    return rng.integers(1, 2**64 - 1, size=2 * n, dtype=np.uint64, endpoint=True).view(xoroshiro128p_dtype)


def numba_states(n, seed):
    """The states Numba's create_xoroshiro128p_states(n, seed) makes."""
    from numba.cuda.random import init_xoroshiro128p_states_cpu, xoroshiro128p_dtype
    states = np.empty(n, xoroshiro128p_dtype)
    init_xoroshiro128p_states_cpu(states, seed, 0)
    return states


# The records execution/records.pyk defines, as NumPy makes them there.
PARTICLE = np.dtype([('x', np.float32), ('y', np.float32), ('id', np.int32), ('mass', np.float64)], align=True)
READING = np.dtype([('flag', np.uint8), ('value', np.float64), ('count', np.int16)])
PAIR = np.dtype([('lo', 'i4'), ('hi', '<i4')])
KEYWORDS = np.dtype([('int', np.int64), ('new', 'f4')], align=True)


def records(rng, dtype, n, **fields):
    """n records of `dtype`, each field given as f(rng, dtype, n)."""
    values = np.zeros(n, dtype)
    for name, make in fields.items():
        values[name] = make(rng, dtype[name], n)
    return values


def ordered_copies(pairs):
    """What execution/records.pyk's ordered_copies makes of `pairs`: each
    from the other end, its fields in order, 'hi' plus one."""
    out = np.zeros_like(pairs)
    for i, source in enumerate(pairs[::-1]):
        out[i] = (min(source['lo'], source['hi']), max(source['lo'], source['hi']) + 1)
    return out


def with_zeros(values):
    """Every seventh element 0."""
    values[::7] = 0
    return values


def with_nans(values, first=0):
    """Every fifth element NaN, from `first` on."""
    values[first::5] = np.nan
    return values


def complex_values(rng, dtype, n, least=0.0):
    """n complex numbers in the square [-4, 4]^2 of `dtype`; with `least`,
    neither part closer to 0 than it (away from cmath's branch cuts)."""
    re, im = rng.uniform(-4.0, 4.0, size=(2, n))
    if least:
        re, im = (np.copysign(np.maximum(np.abs(p), least), p) for p in (re, im))
    return (re + 1j * im).astype(dtype)


def with_values(values, *specials):
    """The first elements replaced by `specials` (edge cases random inputs miss)."""
    values[: len(specials)] = specials
    return values


def nonzero(values):
    """Zero replaced by 3: for divisors (division by zero has its own case,
    by_zero) and range steps (Python raises for a zero step)."""
    values[values == 0] = 3
    return values
