#!/usr/bin/python3
"""The CPU device against Numba's CUDA simulator, for scale (issue 8, item 3).

Runs the same .pyk source (bench/cpu/checked_cost.pyk, whose unchecked
kernels are plain Numba kernels) under NUMBA_ENABLE_CUDASIM=1, and the pyk
CPU device's times from the checked_cost program at the same sizes, and
prints a table. The simulator runs each GPU thread as a Python thread, so
the sizes are small. Asserts nothing about time.

usage: against_numba_simulator.py BUILD_DIR [N] [SIDE]   (needs /usr/bin/python3 with numpy and numba)
"""
import os
import sys

os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
sys.dont_write_bytecode = True

import importlib.machinery
import importlib.util
import re
import subprocess
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def load_kernels():
    loader = importlib.machinery.SourceFileLoader("checked_cost", os.path.join(HERE, "checked_cost.pyk"))
    spec = importlib.util.spec_from_loader("checked_cost", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def median_ms(runs, work):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times)[len(times) // 2]


def pyk_times(build, n, side):
    """The unchecked column of checked_cost's table, by kernel name."""
    output = subprocess.run([os.path.join(build, "bench", "cpu", "checked_cost"), str(n), str(side)],
                            check=True, capture_output=True, text=True).stdout
    times = {}
    for line in output.splitlines():
        match = re.match(r"\| (vector_add|stencil) \| ([0-9.]+) \|", line)
        if match:
            times[match.group(1)] = float(match.group(2))
    return times


def main():
    build = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 14
    side = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    kernels = load_kernels()

    x = np.full(n, 1.5, np.float32)
    y = np.full(n, 2.5, np.float32)
    out = np.zeros(n, np.float32)
    add = median_ms(3, lambda: kernels.vector_add[(n + 255) // 256, 256](x, y, out))
    assert np.all(out == 4.0), "the simulator's vector_add is wrong"

    src = np.ones((side, side), np.float32)
    dst = np.zeros((side, side), np.float32)
    tiles = (side + 15) // 16
    stencil = median_ms(3, lambda: kernels.stencil[(tiles, tiles), (16, 16)](src, dst))
    assert dst[1, 1] == 1.0, "the simulator's stencil is wrong"

    pyk = pyk_times(build, n, side)
    print(f"vector n = {n}; stencil {side}^2; simulator: median of 3, pyk: median of 11\n")
    print("| kernel | Numba CUDA simulator (ms) | pyk CPU device (ms) | simulator / pyk |")
    print("|---|---|---|---|")
    for name, simulated in (("vector_add", add), ("stencil", stencil)):
        print(f"| {name} | {simulated:.1f} | {pyk[name]:.3f} | {simulated / pyk[name]:.0f}x |")


if __name__ == "__main__":
    main()
