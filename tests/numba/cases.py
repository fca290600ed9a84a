"""The cross-check's cases: which kernel runs on which inputs.

Each case names a .pyk file (relative to tests/), a kernel, the launch
configuration and a function that builds the kernel's arguments from a
seeded generator, in parameter order: NumPy arrays of exactly the
parameter's dtype and rank, and NumPy scalars of exactly the parameter's
type. A kernel compiled in several versions (a list of signatures, or
several build signatures: '# build-signature:' lines in its file) runs the
one whose parameter types the arguments have, as C++ picks an overload;
Numba's simulator runs the same Python function on them. Inputs stay small: the simulator runs every GPU thread as a Python
thread. In the simulator, array elements are NumPy scalars (they wrap like
pyk's integers), but cuda.grid, threadIdx and friends, range() variables
and literals are Python ints, which never overflow: the kernels keep those
in range.

By default every array argument must come out the same from pyk and from
Numba. The other fields say where that is not the whole story; each use
cites the rule of LANGUAGE.md it rests on.
"""
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

SEED = 20240611


@dataclass(frozen=True)
class Case:
    file: str
    kernel: str
    grid: int | tuple
    block: int | tuple
    make_args: Callable[[np.random.Generator], list]
    # Exact values pyk must give for these outputs (param -> f(inputs)),
    # checked in addition to the comparison with Numba.
    pyk_expected: dict = field(default_factory=dict)
    # A deliberate difference: for these outputs Numba is checked against
    # its own value (param -> f(inputs)) instead of against pyk, whose value
    # pyk_expected must then give.
    numba_expected: dict = field(default_factory=dict)
    # False where Numba cannot run the kernel at all; pyk_expected is then
    # the whole check.
    run_numba: bool = True
    # Where pyk's checked mode must report an error: pyk's launch must fail
    # with a message containing this (the arrays are then checked as
    # usual: a failing load gives 0, a failing store is dropped).
    pyk_error: str = ""
    # float64 outputs computed from float32 intermediates (math.log of a
    # float32 is float32 in compiled Numba and pyk, a double in the
    # simulator's Python): compared at float32's tolerance.
    float32_intermediates: tuple = ()
    note: str = ""


from case_inputs import (  # noqa: F401 (the cases use them)
    ints,
    floats,
    zeros,
    wrapped_int32,
    rng_states,
    numba_states,
    PARTICLE,
    READING,
    PAIR,
    KEYWORDS,
    records,
    ordered_copies,
    with_zeros,
    with_nans,
    complex_values,
    with_values,
    nonzero,
)

# Float // and % where Python's definition (fmod, then the divisor's sign,
# also for a zero result) differs from floor(x / y) or C's fmod: 1.0 // 0.1
# is 9.0 (0.1 is a little more than a tenth), -6.0 % 3.0 is +0.0, 6.0 % -3.0
# is -0.0, -1e-20 % 1.0 rounds to 1.0, and infinite divisors.
FLOAT_DIVIDENDS = (1.0, -1.0, -6.0, 6.0, -0.0, 0.0, -1e-20, 1e-20, 5.0, -5.0, np.inf, 0.3)
FLOAT_DIVISORS = (0.1, 0.1, 3.0, -3.0, 1.0, -1.0, 1.0, -1.0, np.inf, np.inf, 2.0, 0.1)

N = 48  # elements per 1-D case: one full block of 32 and a partial one

CASES = [
    # --- numba/kernels/arithmetic.pyk ---------------------------------------
    Case("numba/kernels/arithmetic.pyk", "saxpy", 2, 32,
         lambda rng: [np.float32(1.75), floats(rng, np.float32, N), floats(rng, np.float32, N),
                      zeros(np.float32, N)]),
    Case("numba/kernels/arithmetic.pyk", "mixed_types", 2, 32,
         lambda rng: [ints(rng, np.int32, N, -100000, 100000), ints(rng, np.int64, N, 1, 1000),
                      ints(rng, np.uint8, N, 0, 255), ints(rng, np.uint32, N, 0, 4000000000),
                      floats(rng, np.float32, N), floats(rng, np.float64, N),
                      zeros(np.int64, (N, 5)), zeros(np.float64, (N, 5)), zeros(np.float32, (N, 3))],
         note="float32 / 3.0 and float32 + 1: weak literals keep float32 in pyk (LANGUAGE.md, Types), "
              "Numba computes float64; float32 tolerance"),
    Case("numba/kernels/arithmetic.pyk", "wrapping", 1, 32,
         lambda rng: [ints(rng, np.int8, 32, -128, 127), ints(rng, np.int8, 32, -128, 127),
                      ints(rng, np.uint8, 32, 0, 255), zeros(np.int8, (32, 3)), zeros(np.uint8, (32, 2)),
                      zeros(np.int64, 32)]),
    # --- numba/kernels/division.pyk -----------------------------------------
    Case("numba/kernels/division.pyk", "int_division", 2, 32,
         lambda rng: [with_values(ints(rng, np.int64, N, -1000, 1000), -2**63, -2**63, 2**63 - 1),
                      with_values(nonzero(ints(rng, np.int64, N, -9, 9)), -1, 1, -1),
                      with_values(ints(rng, np.int32, N, -1000, 1000), -2**31, -2**31, 2**31 - 1),
                      with_values(nonzero(ints(rng, np.int32, N, -9, 9)), -1, 1, -1),
                      zeros(np.int64, (N, 4)), zeros(np.int64, (N, 4))],
         note="includes the most negative value // -1 (wraps)"),
    Case("numba/kernels/division.pyk", "float_division", 2, 32,
         lambda rng: [with_values(floats(rng, np.float64, N, -50, 50), *FLOAT_DIVIDENDS),
                      with_values(floats(rng, np.float64, N, -5, 5), *FLOAT_DIVISORS),
                      with_values(floats(rng, np.float32, N, -50, 50), *FLOAT_DIVIDENDS),
                      with_values(floats(rng, np.float32, N, -5, 5), *FLOAT_DIVISORS),
                      zeros(np.float64, (N, 3)), zeros(np.float32, (N, 3))]),
    Case("numba/kernels/division.pyk", "powers", 1, 32,
         lambda rng: [with_values(ints(rng, np.int64, 32, -9, 9), 3, -2, 0, 0, 7),
                      with_values(ints(rng, np.int64, 32, 0, 12), 50, 63, 0, 5, 40),
                      floats(rng, np.float64, 32, 0.1, 3.0), floats(rng, np.float32, 32, 0.1, 3.0),
                      zeros(np.int64, (32, 3)), zeros(np.float64, (32, 3)), zeros(np.float32, 32)]),
    Case("numba/kernels/division.pyk", "squares", 1, 64,
         lambda rng: [floats(rng, np.float64, 64, -1e3, 1e3), floats(rng, np.float32, 64, -1e3, 1e3),
                      zeros(np.float64, (64, 2)), zeros(np.float32, (64, 2))]),
    # Integer // and % by zero give 0 in pyk (LANGUAGE.md, Semantics). Python
    # ints would raise, but array elements are NumPy scalars in the
    # simulator, for which NumPy also gives 0 (as compiled Numba CUDA does,
    # with its error_model='numpy'): both are checked.
    Case("numba/kernels/division.pyk", "by_zero", 1, 8,
         lambda rng: [np.array([7, -7, 0, 1, -1, 100, 5, -5], np.int64), zeros(np.int64, 8),
                      np.array([7, -7, 0, 1, -1, 100, 5, -5], np.int32), zeros(np.int32, 8),
                      np.full((8, 4), 99, np.int64)],
         pyk_expected={"out": lambda inputs: np.zeros((8, 4))},
         note="integer division by zero gives 0 (LANGUAGE.md, Semantics)"),
    # --- numba/kernels/bits.pyk ---------------------------------------------
    Case("numba/kernels/bits.pyk", "shifts", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -1000, 1000), ints(rng, np.int64, N, -2, 66),
                      ints(rng, np.int32, N, -1000, 1000), ints(rng, np.int32, N, -2, 34),
                      ints(rng, np.uint32, N, 0, 4000000000), zeros(np.int64, (N, 3)), zeros(np.int32, (N, 2)),
                      zeros(np.uint32, (N, 2))]),
    Case("numba/kernels/bits.pyk", "bitwise", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -2**40, 2**40), ints(rng, np.int32, N, -2**31, 2**31 - 1),
                      ints(rng, np.uint8, N, 0, 255), ints(rng, np.uint64, N, 0, 2**64 - 1),
                      zeros(np.int64, (N, 6)), zeros(np.uint64, (N, 3)), zeros(np.uint8, (N, 3))]),
    # --- numba/kernels/logic.pyk --------------------------------------------
    Case("numba/kernels/logic.pyk", "compare", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -20, 120), ints(rng, np.int32, N, -20, 120),
                      ints(rng, np.uint32, N, 0, 4000000000), with_nans(floats(rng, np.float64, N, 0, 1).round(1)),
                      floats(rng, np.float32, N, 0, 1).round(1), zeros(np.bool_, (N, 9))]),
    Case("numba/kernels/logic.pyk", "logic", 2, 32,
         lambda rng: [rng.integers(0, 2, N).astype(np.bool_), rng.integers(0, 2, N).astype(np.bool_),
                      ints(rng, np.int64, N, -100, 2 * N), np.array([-5], np.int32), zeros(np.bool_, (N, 8)),
                      zeros(np.int64, (N, 4))]),
    # --- numba/kernels/iteration.pyk: loops over arrays, enumerate, zip, tuples
    Case("numba/kernels/iteration.pyk", "sums", 2, 32,
         lambda rng: [floats(rng, np.float32, 17), ints(rng, np.int64, 12, -20, 60), zeros(np.float64, (N, 4))]),
    Case("numba/kernels/iteration.pyk", "enumerated", 2, 32,
         lambda rng: [ints(rng, np.int32, 15, -9, 9), zeros(np.int64, (N, 4))]),
    Case("numba/kernels/iteration.pyk", "zipped", 2, 32,
         lambda rng: [floats(rng, np.float64, 13), ints(rng, np.int32, 9, -5, 5), ints(rng, np.int64, 20, 0, 40),
                      zeros(np.float64, (N, 5))]),
    Case("numba/kernels/iteration.pyk", "shared_and_local", 2, 32,
         lambda rng: [ints(rng, np.int64, 11, -30, 30), zeros(np.int64, (N, 2))]),
    Case("numba/kernels/iteration.pyk", "over_tuples", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -9, 9), zeros(np.float64, (N, 4))]),
    Case("numba/kernels/iteration.pyk", "pairs", (2, 2), (8, 8),
         lambda rng: [floats(rng, np.float32, (11, 13)), zeros(np.float32, (11, 13))]),
    Case("numba/kernels/iteration.pyk", "tuple_parameters", (2, 2), (8, 8),
         lambda rng: [floats(rng, np.float32, 40), (np.int64(9), np.int64(12)), (np.float32(0.5), np.int32(3)),
                      zeros(np.float32, (11, 13))]),
    Case("numba/kernels/iteration.pyk", "tuple_index", (2, 2), (8, 8),
         lambda rng: [floats(rng, np.float32, (11, 13)), zeros(np.int32, (3, 3)), zeros(np.float32, (11, 13))]),
    # --- numba/kernels/truth.pyk: numbers as conditions ---------------------
    Case("numba/kernels/truth.pyk", "if_number", 2, 32,
         lambda rng: [with_values(with_zeros(ints(rng, np.int32, N, -3, 3)), 0, 0, -1, 0),
                      with_values(with_zeros(floats(rng, np.float64, N)), np.nan, -0.0, 0.0, 0.0), zeros(np.int64, N)]),
    Case("numba/kernels/truth.pyk", "while_number", 2, 32,
         lambda rng: [with_values(ints(rng, np.int64, N, -1000, 1000), 0, -1, 1, 2**40 - 1),
                      with_values(floats(rng, np.float32, N, -1e6, 1e6), np.nan, -0.0, 0.0, 0.75, -1.0),
                      zeros(np.int64, (N, 2))],
         note="no infinities: halving one never reaches 0"),
    Case("numba/kernels/truth.pyk", "not_number", 2, 32,
         lambda rng: [with_zeros(ints(rng, np.uint8, N, 0, 255)),
                      with_values(with_zeros(floats(rng, np.float64, N)), np.nan, -0.0, np.inf), zeros(np.bool_, (N, 4))]),
    Case("numba/kernels/truth.pyk", "and_or", 2, 32,
         lambda rng: [with_zeros(ints(rng, np.int32, N, -5, 5)), with_values(ints(rng, np.int64, N, -3, N + 3), 0, 0, 0),
                      with_values(with_zeros(floats(rng, np.float32, N)), 0.0, np.nan, -0.0, -0.0, 0.0),
                      with_values(with_zeros(floats(rng, np.float64, N)), -0.0, 0.0, 0.0, np.nan, np.nan),
                      zeros(np.int64, (N, 8)), zeros(np.float64, (N, 6))],
         note="the simulator returns the deciding operand itself, pyk and Numba convert it to the unified "
              "type; the outputs are stored into arrays, where both give the same value"),
    Case("numba/kernels/truth.pyk", "conditional_number", 2, 32,
         lambda rng: [with_zeros(ints(rng, np.int64, N, -50, 50)),
                      with_values(with_zeros(floats(rng, np.float32, N)), np.nan, -0.0, 0.0), zeros(np.float32, (N, 3))]),
    Case("numba/kernels/truth.pyk", "votes", 1, 32,
         lambda rng: [ints(rng, np.int32, 32, 1, 9), zeros(np.int32, (32, 4))]),
    Case("numba/kernels/truth.pyk", "votes", 1, 32,
         lambda rng: [with_zeros(ints(rng, np.int32, 32, -9, 9)), zeros(np.int32, (32, 4))]),
    Case("numba/kernels/truth.pyk", "votes", 1, 32, lambda rng: [zeros(np.int32, 32), zeros(np.int32, (32, 4))]),
    # --- numba/kernels/views.pyk: rows, columns, slices, views as arguments -
    Case("numba/kernels/views.pyk", "row_views", 2, 32,
         lambda rng: [floats(rng, np.float32, (N, 5)), zeros(np.float32, (N, 5))]),
    Case("numba/kernels/views.pyk", "column_views", 2, 32,
         lambda rng: [floats(rng, np.float64, (7, N)), zeros(np.float64, (4, N))]),
    Case("numba/kernels/views.pyk", "slices", 2, 32,
         lambda rng: [ints(rng, np.int32, 20, 0, 99), with_values(ints(rng, np.int64, N, -25, 25), 0, -20, 20, 19, -1),
                      zeros(np.int64, (N, 8))]),
    Case("numba/kernels/views.pyk", "view_arguments", 2, 32,
         lambda rng: [floats(rng, np.float32, (N, 6)), zeros(np.float32, (N, 8))]),
    Case("numba/kernels/views.pyk", "ping_pong", 1, 64,
         lambda rng: [ints(rng, np.int64, 64, -100, 100), zeros(np.int64, 64), np.array([3], np.int64)]),
    Case("numba/kernels/views.pyk", "ping_pong", 1, 64,
         lambda rng: [ints(rng, np.int64, 64, -100, 100), zeros(np.int64, 64), np.array([4], np.int64)]),
    Case("numba/kernels/views.pyk", "four_axes", 2, 32,
         lambda rng: [floats(rng, np.float32, (2, 3, 4, N)), zeros(np.float32, N)]),
    Case("numba/kernels/views.pyk", "swapped_parameters", 1, 64,
         lambda rng: [ints(rng, np.int32, 64, -100, 100), zeros(np.int32, 64), np.int64(5)]),
    Case("numba/kernels/views.pyk", "constant_views", 2, 32, lambda rng: [zeros(np.float32, N)]),
    Case("numba/kernels/views.pyk", "row_loops", 2, 32,
         lambda rng: [floats(rng, np.float64, (5, 7)), zeros(np.float64, (N, 2))]),
    Case("numba/kernels/views.pyk", "shared_views", 2, 64,
         lambda rng: [floats(rng, np.float32, 128), zeros(np.float32, 128)]),
    # --- numba/kernels/accepted.pyk -----------------------------------------
    Case("numba/kernels/accepted.pyk", "assigned_in_loops", 2, 32,
         lambda rng: [floats(rng, np.float32, N), zeros(np.float32, (N, 4))]),
    Case("numba/kernels/accepted.pyk", "assigned_on_some_paths", 2, 32,
         lambda rng: [ints(rng, np.int32, N, -9, 9), zeros(np.int32, (N, 2))]),
    # Numba's simulator raises on a read of a local that its path left
    # unassigned (real Numba reads whatever the register held); pyk gives 0
    # (docs/language.md, section 4, Locals).
    Case("numba/kernels/accepted.pyk", "unassigned_reads_zero", 2, 32,
         lambda rng: [ints(rng, np.int32, N, -9, 9), zeros(np.int32, N)],
         pyk_expected={"out": lambda inputs: np.where(inputs[0] > 0, inputs[0] + 100, 0)},
         run_numba=False),
    # The simulator calls next_up with the float itself; next_up(x) + 1
    # truncates the same way for |x| >= 1.
    Case("numba/kernels/accepted.pyk", "float_into_int", 2, 32,
         lambda rng: [floats(rng, np.float32, N, 1.0, 100.0) * rng.choice(np.float32([-1, 1]), N),
                      zeros(np.int32, (N, 5))],
         pyk_expected={"out": lambda inputs: np.stack(
             [np.trunc(inputs[0]), np.trunc(inputs[0] * np.float32(2.5)), np.trunc(inputs[0]) + 1,
              np.full(N, 7), np.trunc(inputs[0])], 1)}),
    # --- numba/kernels/module_level.pyk: module level as files have it ------
    Case("numba/kernels/module_level.pyk", "unpacked_constants", 2, 32,
         lambda rng: [ints(rng, np.int32, N, -1000, 1000), zeros(np.int64, (N, 4))]),
    Case("numba/kernels/module_level.pyk", "float_constants", 2, 32,
         lambda rng: [floats(rng, np.float32, N), zeros(np.float32, (N, 6)), zeros(np.float64, (N, 8))],
         note="np.pi, float('inf') ... are weak like literals: float32 * TWO_PI stays float32 in pyk "
              "(LANGUAGE.md, Types); float32 tolerance"),
    Case("numba/kernels/module_level.pyk", "local_constant_shapes", 2, 32,
         lambda rng: [floats(rng, np.float32, N - 5), zeros(np.float32, (N - 5, 2))]),
    Case("numba/kernels/module_level.pyk", "constant_arrays", 2, 32,
         lambda rng: [ints(rng, np.int32, N, 0, 1000), zeros(np.float32, (N, 5)), zeros(np.float64, (N, 3)),
                      zeros(np.int64, (N, 4))]),
    Case("numba/kernels/module_level.pyk", "return_none", 2, 32,
         lambda rng: [floats(rng, np.float32, N - 5), zeros(np.float32, N)]),
    # --- numba/kernels/builtins.pyk -----------------------------------------
    Case("numba/kernels/builtins.pyk", "casts", 2, 32,
         lambda rng: [with_zeros(floats(rng, np.float64, N, -100, 100)), floats(rng, np.float32, N, -100, 100),
                      ints(rng, np.int64, N, -100000, 100000), zeros(np.int64, (N, 3)), zeros(np.int32, (N, 3)),
                      zeros(np.uint8, (N, 2)), zeros(np.float64, (N, 3)), zeros(np.float32, (N, 2)),
                      zeros(np.uint8, (N, 2))]),
    Case("numba/kernels/builtins.pyk", "abs_min_max", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -50, 50), ints(rng, np.int32, N, -2**31, 2**31 - 1),
                      with_values(ints(rng, np.int8, N, -128, 127), -128, 127, 0),
                      with_values(with_nans(floats(rng, np.float64, N), first=1), -0.0, 0.0, -0.0, 0.0),
                      with_values(with_nans(floats(rng, np.float64, N), first=2), 0.0, -0.0, -0.0, 0.0),
                      floats(rng, np.float32, N),
                      zeros(np.int64, (N, 5)), zeros(np.int8, (N, 2)), zeros(np.float64, (N, 5)),
                      zeros(np.float32, (N, 2))]),
    Case("numba/kernels/builtins.pyk", "rounding", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -40, 40) / 4.0, (ints(rng, np.int64, N, -40, 40) / 4.0).astype(np.float32),
                      zeros(np.int64, (N, 3))]),
    # --- numba/kernels/math_functions.pyk -----------------------------------
    Case("numba/kernels/math_functions.pyk", "math32", 2, 32,
         lambda rng: [floats(rng, np.float32, N), floats(rng, np.float32, N, 0.1, 4.0), zeros(np.float32, (N, 30))],
         note="pyk calls the C library's float functions, Python's math module computes in double; "
              "float32 tolerance"),
    Case("numba/kernels/math_functions.pyk", "math64", 2, 32,
         lambda rng: [floats(rng, np.float64, N), floats(rng, np.float64, N, 0.1, 4.0), ints(rng, np.int64, N, 0, 20),
                      zeros(np.float64, (N, 12))]),
    Case("numba/kernels/math_functions.pyk", "more_math", 2, 32,
         lambda rng: [floats(rng, np.float64, N), floats(rng, np.float64, N, 0.1, 4.0), ints(rng, np.int64, N, -90, 90),
                      floats(rng, np.float32, N), zeros(np.float64, (N, 8)), zeros(np.float32, (N, 5))],
         note="float32 columns: Python's math computes in double and rounds once; float32 tolerance"),
    Case("numba/kernels/math_functions.pyk", "rounding_and_tests", 2, 32,
         lambda rng: [with_values(floats(rng, np.float64, N, -1e6, 1e6), np.nan, np.inf, -np.inf, -0.0, -0.5, 2.5),
                      with_values(floats(rng, np.float32, N, -1e3, 1e3), np.inf, 1.5, np.nan, -1.5),
                      zeros(np.int64, (N, 4)), zeros(np.uint8, (N, 5))]),
    Case("numba/kernels/math_functions.pyk", "split_floats", 2, 32,
         lambda rng: [with_values(floats(rng, np.float64, N, -1e6, 1e6), np.nan, np.inf, -np.inf, -0.0, 0.0, -3.0, 5e-324,
                                  1.7e308, 0.75),
                      with_values(floats(rng, np.float32, N, -1e3, 1e3), -np.inf, np.nan, -0.0, 1e-45, 3e38, -2.0, 0.5),
                      zeros(np.float64, (N, 3)), zeros(np.int32, (N, 2)), zeros(np.float32, (N, 3))]),
    # --- numba/kernels/loops.pyk --------------------------------------------
    Case("numba/kernels/loops.pyk", "ranges", 1, 32,
         lambda rng: [ints(rng, np.int64, 32, -20, 20), ints(rng, np.int64, 32, -20, 20),
                      with_values(nonzero(ints(rng, np.int64, 32, -4, 4)), 1, -1, 7, -7), zeros(np.int64, 32),
                      zeros(np.int64, 32), zeros(np.int64, 32)]),
    Case("numba/kernels/loops.pyk", "fixed_ranges", 1, 32, lambda rng: [zeros(np.int64, (20, 4))]),
    Case("numba/kernels/loops.pyk", "collatz", 2, 32,
         lambda rng: [with_values(ints(rng, np.int64, N, 1, 10000), 1, 27, 97, 871), zeros(np.int32, N),
                      zeros(np.int64, N)]),
    Case("numba/kernels/loops.pyk", "skip_and_stop", 1, 32,
         lambda rng: [floats(rng, np.float32, (24, 9), -1, 3), np.float32(6.0), zeros(np.float32, 24),
                      zeros(np.int32, 24)]),
    Case("numba/kernels/loops.pyk", "nested", (2, 2), (8, 4), lambda rng: [zeros(np.int32, (13, 7))]),
    Case("numba/kernels/loops.pyk", "grid_stride_scale", 2, 16,
         lambda rng: [floats(rng, np.float32, 100), np.float32(-0.5)]),
    # --- numba/kernels/indexing.pyk -----------------------------------------
    Case("numba/kernels/indexing.pyk", "thread_ids", 3, 16, lambda rng: [zeros(np.int32, (40, 5))]),
    Case("numba/kernels/indexing.pyk", "ids_2d", (3, 2), (4, 8), lambda rng: [zeros(np.int64, (11, 14, 6))]),
    Case("numba/kernels/indexing.pyk", "matmul", (2, 2), (8, 8),
         lambda rng: [floats(rng, np.float32, (12, 7), -1, 1), floats(rng, np.float32, (7, 10), -1, 1),
                      zeros(np.float32, (12, 10))]),
    Case("numba/kernels/indexing.pyk", "stencil_3d", (2, 2, 2), (4, 4, 2),
         lambda rng: [floats(rng, np.float64, (6, 7, 4)), zeros(np.float64, (6, 7, 4))]),
    Case("numba/kernels/indexing.pyk", "array_facts", 1, 4,
         lambda rng: [zeros(np.float32, (5, 3)), zeros(np.int64, 9), zeros(np.int64, 6)]),
    # --- numba/kernels/constants.pyk ----------------------------------------
    Case("numba/kernels/constants.pyk", "use_constants", 2, 32,
         lambda rng: [floats(rng, np.float32, N, -1, 1), ints(rng, np.int32, N, -200, 200),
                      zeros(np.float32, (N, 2)), zeros(np.int32, (N, 4)), zeros(np.float64, N)],
         note="constants are weak like literals: float32 * SCALE stays float32 in pyk (LANGUAGE.md, Types); "
              "float32 tolerance"),
    # --- numba/kernels/tuples.pyk -------------------------------------------
    Case("numba/kernels/tuples.pyk", "transpose", (2, 2), (8, 8),
         lambda rng: [floats(rng, np.float32, (9, 13)), zeros(np.float32, (13, 9))]),
    Case("numba/kernels/tuples.pyk", "fibonacci_pairs", 1, 32,
         lambda rng: [ints(rng, np.int64, 30, 0, 60), zeros(np.int64, (30, 3))]),
    # --- numba/kernels/functions.pyk ----------------------------------------
    Case("numba/kernels/functions.pyk", "use_functions", 2, 32,
         lambda rng: [floats(rng, np.float32, N, -3, 3), ints(rng, np.int64, N, -500, 500),
                      with_values(ints(rng, np.int64, N, -60, 60), 0, 7, -7), with_zeros(floats(rng, np.float64, N)),
                      zeros(np.float32, (N, 2)), zeros(np.int64, (N, 4)), zeros(np.float64, N)]),
    # --- numba/kernels/differences.pyk --------------------------------------
    # Deliberate differences (see the file's comment): pyk must give the
    # NEP 50 value exactly, Numba its own, legacy-promotion value.
    Case("numba/kernels/differences.pyk", "weak_float_literal", 1, 32,
         lambda rng: [floats(rng, np.float32, 32), zeros(np.float64, 32)],
         pyk_expected={"out": lambda inputs: inputs[0] * np.float32(0.1) + np.float32(1.0)},
         numba_expected={"out": lambda inputs: inputs[0].astype(np.float64) * 0.1 + 1.0},
         note="weak float literal: float32 in pyk, float64 in Numba"),
    Case("numba/kernels/differences.pyk", "weak_float_compare", 1, 8,
         lambda rng: [np.array([0.1, 0.2, -0.1, 0.0999999, 0.1000001, 0.5, np.nan, 0.1], np.float32),
                      zeros(np.bool_, (8, 2))],
         pyk_expected={"out": lambda inputs: np.stack([inputs[0] == np.float32(0.1), inputs[0] > np.float32(0.1)], 1)},
         numba_expected={"out": lambda inputs: np.stack([inputs[0].astype(np.float64) == 0.1,
                                                         inputs[0].astype(np.float64) > 0.1], 1)},
         note="float32 == 0.1: compared in float32 in pyk, in float64 in Numba"),
    Case("numba/kernels/differences.pyk", "weak_int_literal", 1, 32,
         lambda rng: [with_values(ints(rng, np.int32, 32, -2**31, 2**31 - 1), 2**31 - 1, 147483647, 147483648, -1),
                      zeros(np.int64, 32)],
         pyk_expected={"out": lambda inputs: wrapped_int32(inputs[0].astype(np.int64) + 2000000000)},
         numba_expected={"out": lambda inputs: inputs[0].astype(np.int64) + 2000000000},
         note="weak int literal: int32 (wrapping) in pyk, int64 in Numba"),
    # NumPy 1.x promotes a uint64 scalar and a Python int to float64, which
    # has no >>; so the simulator raises. Compiled Numba types this uint64,
    # as pyk does, but cannot run here.
    Case("numba/kernels/differences.pyk", "unsigned_with_literal", 1, 16,
         lambda rng: [with_values(ints(rng, np.uint64, 16, 0, 2**64 - 1), 2**64 - 1, 0, 127, 128),
                      zeros(np.uint64, 16)],
         pyk_expected={"out": lambda inputs: (inputs[0] >> np.uint64(7)) + np.uint64(1)},
         run_numba=False,
         note="uint64 >> 7: uint64 in pyk; the simulator's NumPy 1.x raises"),
    # bool + bool is int64 in pyk, as in Python and compiled Numba
    # (docs/language.md: "bool arithmetic gives int64"), but NumPy's bool
    # scalars, which the simulator runs on, add as a logical or.
    Case("numba/kernels/differences.pyk", "bool_arithmetic", 1, 8,
         lambda rng: [np.array([0, 1, 0, 1, 1, 0, 1, 0], np.bool_), np.array([0, 0, 1, 1, 1, 0, 0, 1], np.bool_),
                      zeros(np.int64, 8)],
         pyk_expected={"out": lambda inputs: inputs[0].astype(np.int64) + inputs[1]},
         numba_expected={"out": lambda inputs: inputs[0] | inputs[1]},
         note="bool + bool: int64 in pyk, a logical or for the simulator's NumPy scalars"),
    # --- numba/kernels/typing.pyk: lazily typed kernels and signature lists -
    Case("numba/kernels/typing.pyk", "saxpy", 2, 32,
         lambda rng: [np.float32(-2.5), floats(rng, np.float32, N), floats(rng, np.float32, N),
                      zeros(np.float32, N)]),
    Case("numba/kernels/typing.pyk", "row_sums", 1, 32,
         lambda rng: [floats(rng, np.float64, (30, 7)), zeros(np.float64, 30)]),
    Case("numba/kernels/typing.pyk", "add_2d", (2, 2), (8, 4),
         lambda rng: [ints(rng, np.int32, (13, 6), -2**31, 2**31 - 1), ints(rng, np.int32, (13, 6), -2**31, 2**31 - 1),
                      zeros(np.int32, (13, 6))],
         note="int32 + int32 wraps on both sides"),
    Case("numba/kernels/typing.pyk", "scale", 2, 32,
         lambda rng: [floats(rng, np.float32, 40), np.float32(1.5)]),
    Case("numba/kernels/typing.pyk", "scale", 2, 32,
         lambda rng: [floats(rng, np.float64, 40), np.float64(-0.3)]),
    Case("numba/kernels/typing.pyk", "clip", 2, 32,
         lambda rng: [ints(rng, np.int32, N, -100, 100), np.int32(-40), np.int32(60), zeros(np.int32, N)]),
    Case("numba/kernels/typing.pyk", "clip", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -2**40, 2**40), np.int64(-2**35), np.int64(2**36), zeros(np.int64, N)]),
    Case("numba/kernels/typing.pyk", "laplacian_3d", (2, 2, 2), (4, 4, 2),
         lambda rng: [floats(rng, np.float32, (7, 5, 3)), zeros(np.float32, (7, 5, 3))]),
    Case("numba/kernels/typing.pyk", "cube", 2, 32,
         lambda rng: [floats(rng, np.float32, N), zeros(np.float32, N)]),
    Case("numba/kernels/typing.pyk", "cube", 2, 32,
         lambda rng: [floats(rng, np.float64, N), zeros(np.float64, N)]),
    Case("numba/kernels/typing.pyk", "column_max", 1, 16,
         lambda rng: [ints(rng, np.int32, (9, 12), -1000, 1000), zeros(np.int64, 12)]),
    Case("numba/kernels/typing.pyk", "column_max", 1, 16,
         lambda rng: [with_nans(floats(rng, np.float64, (9, 12)), first=3), zeros(np.float64, 12)],
         note="NaNs: max keeps its first argument when the second is NaN, as Python's builtin"),
    Case("numba/kernels/typing.pyk", "bit_count", 2, 32,
         lambda rng: [with_values(ints(rng, np.int32, N, 0, 2**31 - 1), 0, 2**31 - 1, 1), zeros(np.int64, N)]),
    Case("numba/kernels/typing.pyk", "bit_count", 2, 32,
         lambda rng: [with_values(ints(rng, np.uint8, N, 0, 255), 0, 255, 128), zeros(np.int64, N)]),
    Case("numba/kernels/typing.pyk", "abbreviations", 2, 32,
         lambda rng: [zeros(np.float32, N), ints(rng, np.int32, (N, 2), -1000, 1000), ints(rng, np.uint8, N, 0, 255),
                      rng.integers(0, 2, N).astype(np.bool_), np.int64(-7), np.float64(0.5)]),
    # --- numba/kernels/generic_device.pyk: untyped device functions ---------
    Case("numba/kernels/generic_device.pyk", "scalar_instances", 2, 32,
         lambda rng: [with_values(floats(rng, np.float32, N), -0.25, 0.5, 0.0), ints(rng, np.int32, N, -100, 100),
                      with_values(ints(rng, np.int64, N, -200, 200), 0), zeros(np.float32, (N, 3)),
                      zeros(np.int64, (N, 6))]),
    Case("numba/kernels/generic_device.pyk", "literal_arguments", 2, 32,
         lambda rng: [floats(rng, np.float32, N), zeros(np.float64, (N, 4)), zeros(np.int64, N)],
         note="a literal argument is float64 (int64), as Numba types it: float64 products"),
    Case("numba/kernels/generic_device.pyk", "arrays_float32", 2, 32,
         lambda rng: [floats(rng, np.float32, (40, 5)), floats(rng, np.float32, (40, 5)), zeros(np.float32, 40),
                      zeros(np.float32, 40)]),
    Case("numba/kernels/generic_device.pyk", "arrays_mixed", 2, 32,
         lambda rng: [floats(rng, np.float64, (40, 5)), ints(rng, np.int32, (40, 5), -1000, 1000),
                      zeros(np.float64, 40), zeros(np.float64, 40)]),
    Case("numba/kernels/generic_device.pyk", "normalize_rows", (2, 1), (8, 8),
         lambda rng: [with_values(floats(rng, np.float32, (12, 5)), 0.0), zeros(np.float32, (12, 5))]),
    Case("numba/kernels/generic_device.pyk", "normalize_rows", (2, 1), (8, 8),
         lambda rng: [floats(rng, np.float64, (12, 5)), zeros(np.float64, (12, 5))]),
    Case("numba/kernels/generic_device.pyk", "default_arguments", 2, 32,
         lambda rng: [floats(rng, np.float32, N), ints(rng, np.int32, N, -1000, 1000), zeros(np.float64, (N, 4)),
                      zeros(np.int64, (N, 2))]),
    # --- numba/kernels/cpu_jit.pyk: @njit and @numba.jit helpers, @numba.cuda.jit
    Case("numba/kernels/cpu_jit.pyk", "call_cpu_helpers", 2, 32,
         lambda rng: [floats(rng, np.float32, N), floats(rng, np.float32, N), floats(rng, np.float64, N),
                      zeros(np.float32, (N, 3)), zeros(np.float64, (N, 3))]),
    Case("numba/kernels/cpu_jit.pyk", "numba_cuda_jit", 2, 32,
         lambda rng: [with_values(ints(rng, np.int64, N, -5000, 5000), 0, 12, -12),
                      with_values(ints(rng, np.int64, N, -300, 300), 0, 0, 18), zeros(np.int64, (N, 3))]),
    # --- numba/kernels/signature_forms.pyk: the other signature spellings ---
    Case("numba/kernels/signature_forms.pyk", "shift", 2, 32,
         lambda rng: [floats(rng, np.float32, N), np.float32(0.75)]),
    Case("numba/kernels/signature_forms.pyk", "scale_by_count", 2, 32,
         lambda rng: [floats(rng, np.float32, N), np.int32(-3)],
         note="float32 * int32 is float64 in pyk and compiled Numba, float32 for the simulator's NumPy 1.x "
              "scalars; float32 tolerance"),
    Case("numba/kernels/signature_forms.pyk", "lookup", 2, 32,
         lambda rng: [floats(rng, np.float64, 11), ints(rng, np.int64, N, -30, 30), zeros(np.float64, N)]),
    Case("numba/kernels/signature_forms.pyk", "weighted", 2, 32,
         lambda rng: [floats(rng, np.float32, N), ints(rng, np.int32, N, -9, 9), zeros(np.float32, N)]),
    Case("numba/kernels/signature_forms.pyk", "square_in_place", 2, 32,
         lambda rng: [floats(rng, np.float32, N)]),
    Case("numba/kernels/signature_forms.pyk", "elementwise_max", 2, 32,
         lambda rng: [floats(rng, np.float32, N), floats(rng, np.float32, N), zeros(np.float32, N)]),
    Case("numba/kernels/signature_forms.pyk", "offset", 2, 32,
         lambda rng: [floats(rng, np.float32, N), np.float32(-1.25)]),
    Case("numba/kernels/signature_forms.pyk", "prefix_counts", 2, 32,
         lambda rng: [ints(rng, np.int32, N, 0, 1), zeros(np.int32, N)]),
    Case("numba/kernels/signature_forms.pyk", "prefix_counts", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -2**40, 2**40), zeros(np.int64, N)]),
    Case("numba/kernels/signature_forms.pyk", "row_max", 1, 32,
         lambda rng: [floats(rng, np.float64, (20, 6)), zeros(np.float64, 20)]),
    # --- numba/kernels/compiled_by_call.pyk: k = cuda.jit(sig)(f) ----------
    Case("numba/kernels/compiled_by_call.pyk", "axpy", 2, 32,
         lambda rng: [np.float32(0.5), floats(rng, np.float32, N), floats(rng, np.float32, N),
                      zeros(np.float32, N)]),
    Case("numba/kernels/compiled_by_call.pyk", "gather", 2, 32,
         lambda rng: [floats(rng, np.float64, 13), with_values(ints(rng, np.int64, N, -40, 40), -13, -1, 13),
                      zeros(np.float64, N)]),
    Case("numba/kernels/compiled_by_call.pyk", "negate32", 2, 32, lambda rng: [floats(rng, np.float32, N)]),
    Case("numba/kernels/compiled_by_call.pyk", "negate64", 2, 32, lambda rng: [floats(rng, np.float64, N)]),
    # --- numba/kernels/unified_locals.pyk: p = 0, then p += float ----------
    Case("numba/kernels/unified_locals.pyk", "weighted_row_sums", 1, 32,
         lambda rng: [floats(rng, np.float32, (24, 7)), np.float32(0.3), zeros(np.float32, 24)],
         note="p is float64 in pyk and compiled Numba, float32 for the simulator's NumPy 1.x scalars; "
              "float32 tolerance"),
    Case("numba/kernels/unified_locals.pyk", "weighted_row_sums", 1, 32,
         lambda rng: [floats(rng, np.float64, (24, 7)), np.float64(-1.7), zeros(np.float64, 24)]),
    Case("numba/kernels/unified_locals.pyk", "masked_squares", 2, 32,
         lambda rng: [floats(rng, np.float32, N), rng.integers(0, 2, N).astype(np.bool_), zeros(np.float32, N)]),
    Case("numba/kernels/unified_locals.pyk", "decay", 1, 32,
         lambda rng: [floats(rng, np.float64, (20, 9)), zeros(np.float64, 20)]),
    # --- numba/kernels/tuple_device.pyk: tuples out of and into device functions
    Case("numba/kernels/tuple_device.pyk", "sort_pairs", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -9, 9), ints(rng, np.int64, N, -9, 9), zeros(np.int64, N),
                      zeros(np.int64, N)]),
    Case("numba/kernels/tuple_device.pyk", "sort_pairs", 2, 32,
         lambda rng: [floats(rng, np.float32, N), floats(rng, np.float32, N), zeros(np.float32, N),
                      zeros(np.float32, N)]),
    Case("numba/kernels/tuple_device.pyk", "odd_even_step", 1, 32,
         lambda rng: [ints(rng, np.int32, 41, -100, 100), np.int64(1)]),
    Case("numba/kernels/tuple_device.pyk", "shape_facts", 1, 4,
         lambda rng: [zeros(np.float32, (9, 4)), np.full(5, -1, np.int64)]),
    Case("numba/kernels/tuple_device.pyk", "tile_offsets", (2, 2), (8, 4), lambda rng: [zeros(np.int64, (11, 6))]),
    # --- numba/kernels/dtype_generic.pyk: x.dtype.type(v), acc: out.dtype --
    Case("numba/kernels/dtype_generic.pyk", "row_means", 1, 32,
         lambda rng: [floats(rng, np.float32, (20, 7)), zeros(np.float32, 20)]),
    Case("numba/kernels/dtype_generic.pyk", "row_means", 1, 32,
         lambda rng: [floats(rng, np.float64, (20, 7)), zeros(np.float64, 20)]),
    Case("numba/kernels/dtype_generic.pyk", "halve_positive", 2, 32,
         lambda rng: [with_values(ints(rng, np.int32, N, -50, 50), 0, 1, -1, 7), np.full(N, 99, np.int32)]),
    Case("numba/kernels/dtype_generic.pyk", "halve_positive", 2, 32,
         lambda rng: [with_values(floats(rng, np.float64, N), 0.0, -0.0, 7.0), np.full(N, 99.0)]),
    # NumPy's dtype objects are not callable: Numba (its CPU compiler, too)
    # rejects out.dtype(v) and the simulator raises TypeError.
    Case("numba/kernels/dtype_generic.pyk", "ramp", 2, 32, lambda rng: [zeros(np.float32, N)],
         pyk_expected={"out": lambda inputs: np.arange(N) * 3 + 1}, run_numba=False,
         note="out.dtype(v): NumPy's dtypes are not callable (docs/language.md, section 5)"),
    Case("numba/kernels/dtype_generic.pyk", "ramp", 2, 32, lambda rng: [zeros(np.int64, N)],
         pyk_expected={"out": lambda inputs: np.arange(N) * 3 + 1}, run_numba=False,
         note="out.dtype(v): NumPy's dtypes are not callable (docs/language.md, section 5)"),
    # --- numba/kernels/cupy_scalars.pyk: import cupy as cp -----------------
    Case("numba/kernels/cupy_scalars.pyk", "round_to_single", 2, 32,
         lambda rng: [with_values(floats(rng, np.float64, N), 0.1, 1e-50, 3.4e38, 1e39), zeros(np.float64, N)]),
    Case("numba/kernels/cupy_scalars.pyk", "quantize", 2, 32,
         lambda rng: [floats(rng, np.float32, N, -20, 20), np.float32(0.25), zeros(np.int32, N)]),
    # --- numba/kernels/jit_options.pyk: inline="always", opt=, cache= -------
    Case("numba/kernels/jit_options.pyk", "smooth", 2, 32,
         lambda rng: [floats(rng, np.float32, N, -0.5, 1.5), zeros(np.float32, N)],
         note="weak literals: float32 in pyk, float64 in Numba; float32 tolerance"),
    Case("numba/kernels/jit_options.pyk", "sigmoid", 2, 32,
         lambda rng: [floats(rng, np.float64, N, -30, 30), zeros(np.float64, N)]),
    # --- numba/kernels/boundscheck.pyk: checked mode ------------------------
    # Numba-CUDA and its simulator raise NotImplementedError for
    # boundscheck=True (docs/language.md, section 7); pyk compiles the
    # kernel checked (section 8b): pyk alone, against NumPy's values.
    Case("numba/kernels/boundscheck.pyk", "neighbour_sums", 2, 32,
         lambda rng: [floats(rng, np.float32, N), zeros(np.float32, N)],
         pyk_expected={"out": lambda inputs: np.concatenate(
             ([0], inputs[0][:-2] + inputs[0][1:-1] + inputs[0][2:], [0]))},
         run_numba=False, note="boundscheck=True: checked mode, every access in bounds"),
    Case("numba/kernels/boundscheck.pyk", "pair_sums", 2, 32,
         lambda rng: [floats(rng, np.float32, N), zeros(np.float32, N)],
         pyk_expected={"out": lambda inputs: inputs[0] + np.append(inputs[0][1:], 0)},
         run_numba=False, pyk_error=f"index {N} out of bounds for axis 0 of 'x' with size {N}",
         note="boundscheck=True: the read past the end is reported and gives 0"),
    Case("numba/kernels/boundscheck.pyk", "window_sums", 2, 32,
         lambda rng: [floats(rng, np.float32, N), zeros(np.float32, N)],
         pyk_expected={"out": lambda inputs: np.array(
             [inputs[0][i] + inputs[0][min(i + 2, N - 1)] for i in range(N)],
             np.float32)},
         run_numba=False, pyk_error="index 3 out of bounds for axis 0 of 'window' with size 3",
         note="boundscheck=True: a view's own extent bounds its accesses; window[3] gives 0"),
    # --- execution/signatures.pyk: the behaviour test of versions -----------
    Case("execution/signatures.pyk", "unit_clamp", 2, 32,
         lambda rng: [floats(rng, np.float32, N, -1, 2), zeros(np.float32, N)]),
    Case("execution/signatures.pyk", "unit_clamp", 2, 32,
         lambda rng: [floats(rng, np.float64, N, -1, 2), zeros(np.float64, N)]),
    Case("execution/signatures.pyk", "norms", 2, 32,
         lambda rng: [floats(rng, np.float32, (N, 3)), zeros(np.float32, N)]),
    Case("execution/signatures.pyk", "norms", 2, 32,
         lambda rng: [floats(rng, np.float64, (N, 3)), zeros(np.float64, N)]),
    Case("execution/signatures.pyk", "capped", 2, 32,
         lambda rng: [ints(rng, np.int32, N, -10, 20), zeros(np.int64, N)]),
    # --- execution/negative_indices.pyk: indices count from the end ---------
    Case("execution/negative_indices.pyk", "neighbours", 2, 32,
         lambda rng: [floats(rng, np.float32, N), zeros(np.float32, N), zeros(np.float32, N)],
         note="x[i - 1] at i = 0 reads the last element, as in Numba"),
    Case("execution/negative_indices.pyk", "ends", 1, 32,
         lambda rng: [floats(rng, np.float32, N), floats(rng, np.float32, (5, 7)), zeros(np.float32, 5)]),
    Case("execution/negative_indices.pyk", "blur_rows", (1, 1), (8, 8),
         lambda rng: [floats(rng, np.float32, (5, 7)), zeros(np.float32, (5, 7))],
         note="the borders read the opposite edge; float32 tolerance (the simulator divides in float64)"),
    Case("execution/negative_indices.pyk", "counts", 1, 32,
         lambda rng: [ints(rng, np.int32, 24, -8, 7), zeros(np.int32, 8), zeros(np.int32, 8)]),
    # --- execution/*.pyk: the behaviour tests' kernels, on the same inputs
    # their .cpp drivers use where those exercise edge cases -----------------
    Case("execution/operators.pyk", "int_cases", 1, 64,
         lambda rng: [np.array([7, -7, 7, -7, 0, 5, -2**63, -2**63, 12345, -1, 3, 1], np.int64),
                      np.array([2, 2, -2, -2, 3, 0, -1, 1, 7, 70, -1, 63], np.int64)]
         + [zeros(np.int64, 12) for _ in range(7)],
         note="includes // and % by zero and by -1 of the most negative int64 (wrap)"),
    Case("execution/operators.pyk", "float_cases", 1, 32,
         lambda rng: [np.array([7.5, -7.5, 7.5, -7.5, 1e300, 2.0]), np.array([2.0, 2.0, -2.0, -2.0, 3.0, 0.5])]
         + [zeros(np.float64, 6) for _ in range(3)]),
    Case("execution/operators.pyk", "small_cases", 1, 32,
         lambda rng: [zeros(np.int32, 6), np.array([False, True, False, False, False]),
                      np.array([200, 100, 0x1F], np.uint8)]),
    Case("execution/loops.pyk", "loop_cases", 1, 32, lambda rng: [zeros(np.int64, 8), np.int64(-2)]),
    Case("execution/loops.pyk", "row_sums", 1, 32,
         lambda rng: [floats(rng, np.float32, (20, 9)), zeros(np.float32, 20)]),
    Case("execution/builtins.pyk", "conversions", 2, 32,
         lambda rng: [with_zeros(floats(rng, np.float64, N, -1000, 1000)), zeros(np.int64, N), zeros(np.int32, N),
                      zeros(np.float32, N), zeros(np.uint8, N)]),
    Case("execution/builtins.pyk", "extremes", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -9, 9), ints(rng, np.int64, N, -9, 9),
                      with_nans(floats(rng, np.float64, N)), zeros(np.int64, N), zeros(np.float64, N)]),
    Case("execution/builtins.pyk", "rounding", 1, 32,
         lambda rng: [ints(rng, np.int64, 24, -20, 20) / 4.0,
                      (ints(rng, np.int64, 24, -20, 20) / 4.0).astype(np.float32), zeros(np.int64, (24, 3))]),
    Case("execution/math_functions.pyk", "unary32", 2, 32,
         lambda rng: [floats(rng, np.float32, N), zeros(np.float32, (N, 10))],
         note="float32 math; float32 tolerance"),
    # Finite inputs only: Python's math.floor and friends raise for NaN and inf.
    Case("execution/math_functions.pyk", "unary64", 2, 32,
         lambda rng: [with_values(floats(rng, np.float64, N), -0.0, 0.75, -2.5), zeros(np.float64, (N, 6)),
                      zeros(np.int64, (N, 3)), zeros(np.uint8, (N, 3))]),
    Case("execution/statements.pyk", "first_above", 1, 32,
         lambda rng: [np.array([0.5, 1.5, 2.5, 7.0, 1.0, 9.0], np.float32), np.float32(2.0), zeros(np.int64, 1)]),
    Case("execution/statements.pyk", "loop_else", 1, 32, lambda rng: [zeros(np.int64, 3)]),
    Case("execution/statements.pyk", "declared_types", 1, 32,
         lambda rng: [floats(rng, np.float32, 20), zeros(np.float64, 20), zeros(np.int32, 20)]),
    Case("execution/statements.pyk", "rounding", 2, 32,
         lambda rng: [with_values(floats(rng, np.float64, N, -500, 500), 2.675, 1.005, -0.125, 25.0, 35.0, 0.5),
                      np.int64(1), zeros(np.float64, N), zeros(np.float64, N), zeros(np.float64, N)]),
    Case("execution/statements.pyk", "halvings", 1, 32,
         lambda rng: [with_values(ints(rng, np.int64, 24, -5, 10**12), 0, 1, 2, 1024, 1023), zeros(np.int32, 24)]),
    Case("execution/statements.pyk", "lanes", 1, (16, 4), lambda rng: [zeros(np.int32, (4, 16))]),
    # WEIGHTS[k] is a weak Python float in pyk (float32 math), float64 in Numba.
    Case("execution/tuples.pyk", "smooth", 2, 32,
         lambda rng: [floats(rng, np.float32, 50), zeros(np.float32, 50)],
         note="weak tuple constants: float32 in pyk, float64 in Numba; float32 tolerance"),
    Case("execution/tuples.pyk", "tile_ids", (4, 6), (4, 4), lambda rng: [zeros(np.int32, (13, 21))]),
    Case("execution/tuples.pyk", "pick", 1, 32,
         lambda rng: [with_values(ints(rng, np.int64, 20, -3, 50), -1, 0, 1, 2), zeros(np.float32, 20)]),
    Case("execution/tuples.pyk", "from_either_end", 1, 32,
         lambda rng: [ints(rng, np.int64, 30, -3, 2), zeros(np.int64, 30)]),
    Case("execution/loops.pyk", "narrow_ranges", 1, 32,
         lambda rng: [np.array([255], np.uint8), np.array([-100], np.int8), zeros(np.int64, 2)]),
    # The memory model: shared memory, barriers, local arrays and atomics
    # (the simulator has no warp operations; execution/memory_model.cpp
    # checks those against hand-derived values).
    Case("execution/memory_model.pyk", "block_reverse", 3, 64,
         lambda rng: [ints(rng, np.int32, 192, -1000, 1000), zeros(np.int32, 192)]),
    Case("execution/memory_model.pyk", "barrier_counts", 2, 100, lambda rng: [zeros(np.int32, (2, 100))]),
    Case("execution/memory_model.pyk", "local_prefix", 2, 32, lambda rng: [zeros(np.int64, (64, 8))]),
    # Threads that return before barriers are not waited for (the simulator
    # waits for the threads still alive, as PTX's bar.sync for those that
    # have not exited).
    Case("execution/memory_model.pyk", "returns_before_barrier", 1, 64,
         lambda rng: [np.full(64, -1, np.int32), zeros(np.int32, 1)]),
    # Atomics in conditions: a spin lock, and the last block's ticket.
    Case("execution/memory_model.pyk", "locked_updates", 8, 32,
         lambda rng: [zeros(np.int32, 1), ints(rng, np.int64, 8, -500, 500), zeros(np.int64, 2), zeros(np.int32, 2),
                      zeros(np.int32, 1)]),
    Case("execution/memory_model.pyk", "atomics", 2, 32,
         lambda rng: [np.array([0, 0, -5, 5], np.int32), np.array([0xFFFFFFFF, 0, 0, 0, 0], np.uint32),
                      zeros(np.int64, 3), zeros(np.uint64, 2), np.array([0, -1], np.float32),
                      zeros(np.float64, 2), zeros(np.int32, 1)]),
    # Float max and min as Numba's (a NaN stored stays, one given is ignored),
    # nanmax and nanmin as NumPy's nanmax (a NaN loses).
    Case("execution/memory_model.pyk", "nan_atomics", 2, 32,
         lambda rng: [np.array([np.nan, 0, np.nan, 0], np.float32), np.array([np.nan, np.nan, 0], np.float64),
                      zeros(np.int32, 2)]),
    # Shared arrays made in device functions: one per block, the same for
    # every call of the function.
    Case("execution/shared_in_device_functions.pyk", "sums", 3, 128,
         lambda rng: [floats(rng, np.float32, 384), zeros(np.float32, 6)],
         note="float32 sums in a tree: the order is the same in both"),
    Case("execution/shared_in_device_functions.pyk", "counts", 3, 64, lambda rng: [zeros(np.int32, 192)]),
    # Grid syncs: the simulator runs a grid of one block, whose sync is its
    # barrier (threads that returned are not waited for, as on a GPU).
    Case("execution/grid_sync.pyk", "sequential_rows", 1, 32, lambda rng: [zeros(np.int32, (9, 32))]),
    Case("execution/grid_sync.pyk", "solve_heat_equation", 1, 32,
         lambda rng: [floats(rng, np.float64, 21, 0.0, 100.0), zeros(np.float64, 21), np.int64(40), np.float64(0.25)]),
    Case("execution/tuples.pyk", "sort_pairs", 1, 32,
         lambda rng: [ints(rng, np.int64, 24, -9, 9), ints(rng, np.int64, 24, -9, 9),
                      zeros(np.int64, 24), zeros(np.int64, 24)]),
    Case("execution/grids.pyk", "add_2d", (2, 3), (8, 4),
         lambda rng: [floats(rng, np.float32, (13, 10)), floats(rng, np.float32, (13, 10)),
                      zeros(np.float32, (13, 10))]),
    Case("execution/grids.pyk", "grid_stride", 3, 8, lambda rng: [ints(rng, np.int64, 100, -1000, 1000)]),
    Case("execution/grids.pyk", "swaps", (2, 3), (4, 2), lambda rng: [zeros(np.int64, 7)]),
    Case("execution/truth.pyk", "conditions", 2, 32,
         lambda rng: [ints(rng, np.int64, N, -5, N + 5),
                      with_values(with_zeros(floats(rng, np.float64, N)), np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-300),
                      with_values(with_zeros(floats(rng, np.float32, N)), np.nan, -0.0, 0.0, 1e-30),
                      with_zeros(ints(rng, np.uint8, N, 0, 255)), zeros(np.int64, (N, 9))]),
    Case("execution/truth.pyk", "values", 2, 32,
         lambda rng: [with_zeros(ints(rng, np.int64, N, -5, N + 5)), with_values(ints(rng, np.int64, N, -3, 3), 0, 0),
                      with_values(with_zeros(floats(rng, np.float64, N)), np.nan, -0.0, 0.0, np.inf),
                      with_values(with_zeros(floats(rng, np.float32, N)), -0.0, np.nan, 0.0, -0.0),
                      zeros(np.int64, (N, 8)), zeros(np.float64, (N, 6)), zeros(np.float32, (N, 3))]),
    Case("execution/truth.pyk", "barriers", 1, 32,
         lambda rng: [with_zeros(ints(rng, np.int64, 32, -9, 9)), zeros(np.int64, (32, 5))]),
    Case("execution/truth.pyk", "barriers", 1, 32,
         lambda rng: [ints(rng, np.int64, 32, 1, 9), zeros(np.int64, (32, 5))]),
    # Records of the file's own dtypes: aligned and packed (misaligned
    # fields), read and written by attribute and by name.
    Case("execution/records.pyk", "advance", 2, 32,
         lambda rng: [records(rng, PARTICLE, 40, x=lambda r, t, n: floats(r, t, n), y=lambda r, t, n: floats(r, t, n),
                              id=lambda r, t, n: ints(r, t, n, -1000, 1000),
                              mass=lambda r, t, n: floats(r, t, n, 0.5, 3.0)),
                      np.float32(0.125), zeros(np.float64, 40)]),
    Case("execution/records.pyk", "tally", 1, 32,
         lambda rng: [records(rng, READING, 20, flag=lambda r, t, n: ints(r, t, n, 0, 2),
                              value=lambda r, t, n: floats(r, t, n),
                              count=lambda r, t, n: with_values(ints(r, t, n, -300, 300), 32767, -32768)),
                      zeros(np.float64, 20)]),
    Case("execution/records.pyk", "swap_pairs", 1, 32,
         lambda rng: [records(rng, PAIR, 12, lo=lambda r, t, n: ints(r, t, n, -99, 99),
                              hi=lambda r, t, n: ints(r, t, n, -99, 99)),
                      records(rng, KEYWORDS, 12, int=lambda r, t, n: ints(r, t, n, -2**40, 2**40),
                              new=lambda r, t, n: floats(r, t, n))]),
    # A whole record copied (ary[i] = ary[j]), which compiled Numba does and
    # its simulator cannot ("setting an array element with a sequence").
    Case("execution/records.pyk", "ordered_copies", 1, 32,
         lambda rng: [records(rng, PAIR, 12, lo=lambda r, t, n: ints(r, t, n, -99, 99),
                              hi=lambda r, t, n: ints(r, t, n, -99, 99)), np.zeros(12, PAIR)],
         run_numba=False,
         pyk_expected={"pairs": lambda inputs: inputs[0],
                       "out": lambda inputs: ordered_copies(inputs[0])}),
    Case("execution/records.pyk", "bounce", 2, 32,
         lambda rng: [records(rng, PARTICLE, 40, x=lambda r, t, n: floats(r, t, n, 0.0, 8.0),
                              y=lambda r, t, n: floats(r, t, n, -2.0, 2.0), id=lambda r, t, n: ints(r, t, n, 0, 99),
                              mass=lambda r, t, n: floats(r, t, n)),
                      np.float32(7.5)]),
    Case("execution/records.pyk", "ends", 1, 4,
         lambda rng: [records(rng, KEYWORDS, 5, int=lambda r, t, n: ints(r, t, n, -2**40, 2**40),
                              new=lambda r, t, n: floats(r, t, n)),
                      zeros(np.float64, 2)]),
    # float16: arithmetic rounded once per operation (NumPy's float16 in the
    # simulator), overflow to infinity, subnormals, and cuda.fp16.
    Case("numba/kernels/half_precision.pyk", "half_arithmetic", 2, 32,
         lambda rng: [with_values(floats(rng, np.float16, 50), 65504.0, -65504.0, 6e-8, 1.0, 0.1),
                      with_values(floats(rng, np.float16, 50, 0.25, 4.0), 2.0, 2.0, 0.5, 3.0, -0.1),
                      zeros(np.float16, (50, 9))]),
    # hmax(-0.0, 0.0) is 0.0 in compiled Numba (a > b ? a : b) and in pyk,
    # -0.0 in the simulator (Python's max): no signed zeros here.
    Case("numba/kernels/half_precision.pyk", "half_intrinsics", 2, 32,
         lambda rng: [with_values(floats(rng, np.float16, 50), 65504.0, 1.5, -2.0),
                      with_values(floats(rng, np.float16, 50), 65504.0, 1.5, 0.0),
                      zeros(np.float16, (50, 7)), zeros(np.int32, (50, 4)), zeros(np.float32, 50)]),
    # Complex numbers: Python's arithmetic (NumPy's in the simulator, whose
    # quotient multiplies by a reciprocal: within the tolerance), cmath away
    # from its branch cuts, a complex scalar, the Mandelbrot iteration.
    Case("numba/kernels/complex_numbers.pyk", "complex_arithmetic", 2, 32,
         lambda rng: [with_values(complex_values(rng, np.complex128, 50), 2.5, -1j, 0.0),
                      with_values(complex_values(rng, np.complex128, 50), 0.5 - 0.25j, 3j, 1 + 1j),
                      zeros(np.complex128, (50, 10))]),
    Case("numba/kernels/complex_numbers.pyk", "complex_arithmetic", 2, 32,
         lambda rng: [complex_values(rng, np.complex64, 50), complex_values(rng, np.complex64, 50),
                      zeros(np.complex64, (50, 10))]),
    Case("numba/kernels/complex_numbers.pyk", "complex_functions", 2, 32,
         lambda rng: [complex_values(rng, np.complex128, 50, 0.2), zeros(np.complex128, (50, 10)),
                      zeros(np.float64, (50, 2))]),
    # complex64: pyk computes cmath in float32, the simulator in Python's
    # double, rounded at the end: within float32's tolerance of |z|.
    Case("numba/kernels/complex_numbers.pyk", "complex_functions", 2, 32,
         lambda rng: [complex_values(rng, np.complex64, 50, 0.2), zeros(np.complex64, (50, 10)),
                      zeros(np.float32, (50, 2))]),
    Case("numba/kernels/complex_numbers.pyk", "rotate", 1, 32,
         lambda rng: [complex_values(rng, np.complex128, 20), np.complex128(0.6 + 0.8j), zeros(np.complex128, 20)]),
    Case("numba/kernels/complex_numbers.pyk", "constants", 2, 32,
         lambda rng: [complex_values(rng, np.complex128, 50), zeros(np.complex128, (50, 5)),
                      zeros(np.float64, (50, 3))]),
    Case("numba/kernels/complex_numbers.pyk", "mandelbrot_counts", 4, 32,
         lambda rng: [(rng.uniform(-2.2, 0.8, 120) + 1j * rng.uniform(-1.2, 1.2, 120)).astype(np.complex128),
                      np.int64(50), zeros(np.int32, 120)]),
    # numba.cuda.random: the same states give Numba's numbers, and the states
    # advance as Numba's do (the states are compared too).
    Case("execution/random.pyk", "draw", 2, 32,
         lambda rng: [rng_states(rng, 40), zeros(np.float32, (40, 3)), zeros(np.float64, (40, 3)),
                      zeros(np.float32, (40, 3)), zeros(np.float64, (40, 3)), zeros(np.uint64, (40, 3))],
         float32_intermediates=("normal64",),
         note="xoroshiro128p_normal_float64 is Box-Muller on float32 draws: log(u1) is float32"),
    Case("execution/random.pyk", "draw", 1, 8,
         lambda rng: [numba_states(7, seed=12345), zeros(np.float32, (7, 4)), zeros(np.float64, (7, 4)),
                      zeros(np.float32, (7, 4)), zeros(np.float64, (7, 4)), zeros(np.uint64, (7, 4))],
         float32_intermediates=("normal64",),
         note="states from Numba's own host initialisation, seed 12345"),
    Case("execution/random.pyk", "inline_draws", 2, 32,
         lambda rng: [rng_states(rng, 40), zeros(np.float32, (40, 2)), zeros(np.int32, 40)]),
    Case("execution/random.pyk", "seed_and_jump", 1, 8,
         lambda rng: [rng_states(rng, 6), np.array([0, 1, 42, 2**63 + 5, 2**64 - 1, 7], np.uint64),
                      zeros(np.uint64, (6, 4))]),
]
