#!/usr/bin/env python3
"""Times Numba running the benchmark's own .pyk files, which are Numba
kernels (pyk's language is Numba-CUDA's spelling), with the sizes and
launch shapes gpu_bench uses, and writes one line per kernel for gpu_bench
--numba: "NAME MS" (median of the timed runs, CUDA events on the default
stream) or "NAME WHY" when it could not run or its check failed. Numba runs
in its own process, with its own allocations, so it cannot disturb the
C++ program's measurements.

usage: numba_bench.py --sizes "$(gpu_bench --print-sizes)" --out FILE [--runs N]
       numba_bench.py --simulator --out FILE   # tiny sizes under Numba's CUDA simulator (no GPU)
Exit status: 0 when every kernel ran and passed its check, 1 when some did
not, 3 when Numba's CUDA target is not usable (the reason is printed).
"""
import argparse
import importlib.machinery
import importlib.util
import math
import os
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent


def say(text):
    print(f"numba_bench: {text}", flush=True)


def load(name):
    """bench/gpu/kernels/NAME.pyk, imported as a Python module."""
    path = HERE / "kernels" / f"{name}.pyk"
    loader = importlib.machinery.SourceFileLoader(f"pyk_{name}", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def blocks_for(threads, per_block):
    return (threads + per_block - 1) // per_block


class Bench:
    def __init__(self, cuda, np, sizes, runs, warmups, grid_stride_blocks):
        self.cuda, self.np, self.sizes = cuda, np, sizes
        self.runs, self.warmups, self.grid_stride_blocks = runs, warmups, grid_stride_blocks
        self.rng = np.random.default_rng(20261130)
        self.lines, self.failures = [], 0

    def time(self, launch, before=None):
        """Median ms of self.runs launches, each between two events."""
        cuda = self.cuda
        for _ in range(self.warmups):
            if before:
                before()
            launch()
        cuda.synchronize()
        start, stop, times = cuda.event(), cuda.event(), []
        for _ in range(self.runs):
            if before:
                before()
            start.record()
            launch()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
        return median(times)

    def run(self, name, launch, check, before=None):
        """Checks one launch's output first (check() returns '' or what is wrong), then times it."""
        try:
            say(f"{name}: checking against NumPy")
            if before:
                before()
            launch()
            self.cuda.synchronize()
            wrong = check()
            if wrong:
                say(f"{name}: CHECK FAILED: {wrong}")
                self.lines.append(f"{name} check-failed")
                self.failures += 1
                return
            ms = self.time(launch, before)
            say(f"{name}: median {ms:.3f} ms")
            self.lines.append(f"{name} {ms:.6f}")
        except Exception as error:  # one kernel's failure must not stop the others
            say(f"{name}: ERROR: {type(error).__name__}: {error}")
            self.lines.append(f"{name} error")
            self.failures += 1

    def elementwise(self, module):
        np, cuda, n = self.np, self.cuda, self.sizes["elementwise"]
        say(f"elementwise: {n} float32 elements")
        x = self.rng.uniform(-1, 1, n).astype(np.float32)
        y = self.rng.uniform(-1, 1, n).astype(np.float32)
        a = np.float32(1.75)
        dx, dy, dout = cuda.to_device(x), cuda.to_device(y), cuda.device_array(n, np.float32)
        grid, block = blocks_for(n, 256), 256

        def check(want, tolerance):
            def compare():
                got = dout.copy_to_host()
                bad = np.flatnonzero(~(np.abs(got - want) <= tolerance))
                return "" if bad.size == 0 else f"{bad.size} elements differ, first out[{bad[0]}] = {got[bad[0]]} (want {want[bad[0]]})"
            return compare

        poison = lambda: dout.copy_to_device(np.full(n, np.nan, np.float32))
        poison()
        self.run("vector_add", lambda: module.vector_add[grid, block](dx, dy, dout), check(x + y, 0.0), None)
        poison()
        self.run("saxpy", lambda: module.saxpy[grid, block](a, dx, dy, dout), check(a * x + y, 1e-6), None)
        # float16, one rounding apart (one fma or two operations).
        hx, hy, ha = x.astype(np.float16), y.astype(np.float16), np.float16(a)
        dhx, dhy = cuda.to_device(hx), cuda.to_device(hy)
        dout = cuda.device_array(n, np.float16)
        dout.copy_to_device(np.full(n, np.nan, np.float16))
        self.run("haxpy", lambda: module.haxpy[grid, block](ha, dhx, dhy, dout),
                 check((ha * hx + hy).astype(np.float32), 2.0**-9), None)
        # complex64: a few roundings apart (fma or not).
        cx, cy, ca = (x + 1j * y).astype(np.complex64), (y - 1j * x).astype(np.complex64), np.complex64(a - 0.5j)
        dcx, dcy = cuda.to_device(cx), cuda.to_device(cy)
        dout = cuda.device_array(n, np.complex64)
        dout.copy_to_device(np.full(n, np.nan, np.complex64))
        self.run("caxpy", lambda: module.caxpy[grid, block](ca, dcx, dcy, dout), check(ca * cx + cy, 1e-6), None)

    def stencil(self, module):
        np, cuda, side = self.np, self.cuda, self.sizes["stencil_side"]
        say(f"jacobi_step: {side} x {side} float32")
        src = self.rng.uniform(0, 1, (side, side)).astype(np.float32)
        want = np.float32(0.25) * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:])
        dsrc, ddst = cuda.to_device(src), cuda.to_device(np.full((side, side), np.nan, np.float32))
        grid, block = (blocks_for(side, 32), blocks_for(side, 8)), (32, 8)

        def check():
            got = ddst.copy_to_host()[1:-1, 1:-1]
            bad = np.argwhere(~(np.abs(got - want) <= 1e-6))
            return "" if bad.size == 0 else f"{len(bad)} elements differ, first at interior {tuple(bad[0])}"

        self.run("jacobi_step", lambda: module.jacobi_step[grid, block](dsrc, ddst), check)

    def matmul(self, module):
        np, cuda, n = self.np, self.cuda, self.sizes["matmul"]
        say(f"matmul: {n} x {n} float32")
        A = self.rng.uniform(-1, 1, (n, n)).astype(np.float32)
        B = self.rng.uniform(-1, 1, (n, n)).astype(np.float32)
        dA, dB, dC = cuda.to_device(A), cuda.to_device(B), cuda.device_array((n, n), np.float32)
        grid, block = (blocks_for(n, 16), blocks_for(n, 16)), (16, 16)
        rows = self.rng.integers(0, n, 256)
        cols = self.rng.integers(0, n, 256)
        A64, B64 = A.astype(np.float64), B.astype(np.float64)

        def check():
            got = dC.copy_to_host()
            if np.isnan(got).any():
                return f"{int(np.isnan(got).sum())} elements not written"
            for i, j in zip(rows, cols):
                products = A64[i, :] * B64[:, j]
                if not abs(got[i, j] - products.sum()) <= 1e-4 * np.abs(products).sum() + 1e-6:
                    return f"C[{i}, {j}] = {got[i, j]} (want {products.sum()})"
            return ""

        poison = lambda: dC.copy_to_device(np.full((n, n), np.nan, np.float32))
        poison()
        self.run("matmul_naive", lambda: module.matmul_naive[grid, block](dA, dB, dC), check)
        poison()
        self.run("matmul_tiled", lambda: module.matmul_tiled[grid, block](dA, dB, dC), check)

    def reductions(self, module):
        np, cuda, n = self.np, self.cuda, self.sizes["reduction"]
        grid = self.grid_stride_blocks
        say(f"block_sum, warp_sum: {n} values, {grid} blocks of 256")
        x = self.rng.integers(-1000, 1000, n, endpoint=True, dtype=np.int64)
        dx, total = cuda.to_device(x), cuda.to_device(np.zeros(1, np.int64))
        zero = np.zeros(1, np.int64)
        want = int(x.sum())
        check = lambda: "" if int(total.copy_to_host()[0]) == want else f"total {total.copy_to_host()[0]} (want {want})"
        self.run("block_sum", lambda: module.block_sum[grid, 256](dx, total), check,
                 lambda: total.copy_to_device(zero))
        del dx
        # Multiples of 1/8: every partial sum is exact, in any order.
        xf = self.rng.integers(-500, 500, n, endpoint=True).astype(np.float64) / 8.0
        dxf, totalf = cuda.to_device(xf), cuda.to_device(np.zeros(1, np.float64))
        zerof = np.zeros(1, np.float64)
        wantf = float(xf.sum())
        checkf = lambda: "" if totalf.copy_to_host()[0] == wantf else f"total {totalf.copy_to_host()[0]} (want {wantf})"
        self.run("warp_sum", lambda: module.warp_sum[grid, 256](dxf, totalf), checkf,
                 lambda: totalf.copy_to_device(zerof))

    def histogram(self, module):
        np, cuda, n = self.np, self.cuda, self.sizes["histogram"]
        grid = self.grid_stride_blocks
        say(f"histogram: {n} int32 values, {grid} blocks of 256")
        data = self.rng.integers(0, 2**31 - 1, n, dtype=np.int32)
        want = np.bincount(data % 64, minlength=64).astype(np.uint32)
        ddata, bins = cuda.to_device(data), cuda.to_device(np.zeros(64, np.uint32))
        zero = np.zeros(64, np.uint32)

        def check():
            got = bins.copy_to_host()
            bad = np.flatnonzero(got != want)
            return "" if bad.size == 0 else f"{bad.size} bins differ, first bins[{bad[0]}] = {got[bad[0]]} (want {want[bad[0]]})"

        self.run("histogram", lambda: module.histogram[grid, 256](ddata, bins), check, lambda: bins.copy_to_device(zero))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="", help="gpu_bench --print-sizes output")
    parser.add_argument("--out", required=True)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--simulator", action="store_true", help="Numba's CUDA simulator, tiny sizes")
    args = parser.parse_args()
    if args.simulator:
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    sys.dont_write_bytecode = True  # importing the .pyk files must leave no caches behind
    started = time.time()
    try:
        import numpy as np
        from numba import cuda
        if not cuda.is_available():
            raise RuntimeError("numba.cuda.is_available() is False")
        if args.simulator:  # the simulator has no device to ask
            name, sms = "Numba's CUDA simulator", 1
        else:
            device = cuda.get_current_device()
            name = device.name.decode() if isinstance(device.name, bytes) else device.name
            sms = device.MULTIPROCESSOR_COUNT
    except Exception as error:
        say(f"skipped: Numba's CUDA target is not usable here: {type(error).__name__}: {error}")
        return 3
    if args.simulator:
        sizes = dict(elementwise=4096, stencil_side=34, matmul=32, reduction=8192, histogram=8192, blocks_per_sm=2)
        runs, warmups = 2, 1
    else:
        sizes = dict(item.split("=") for item in args.sizes.split())
        sizes = {key: int(value) for key, value in sizes.items()}
        runs, warmups = args.runs, 3
    import numba
    say(f"Numba {numba.__version__} on {name}, {sms} SMs; sizes {sizes}; median of {runs} runs")
    bench = Bench(cuda, np, sizes, runs, warmups, sizes["blocks_per_sm"] * sms)
    for part, module in (("elementwise", "elementwise"), ("stencil", "stencil"), ("matmul", "matmul"),
                         ("reductions", "reduction"), ("histogram", "histogram")):
        try:
            getattr(bench, part)(load(module))
        except Exception as error:
            say(f"{part}: ERROR: {type(error).__name__}: {error}")
            bench.failures += 1
    pathlib.Path(args.out).write_text("".join(line + "\n" for line in bench.lines))
    say(f"{len(bench.lines)} kernel lines written to {args.out} in {time.time() - started:.0f} s; "
        f"{bench.failures} failed")
    return 1 if bench.failures else 0


if __name__ == "__main__":
    sys.exit(main())
