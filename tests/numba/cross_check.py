#!/usr/bin/python3
"""Runs pyk's conformance kernels on pyk's CPU device and under Numba's CUDA
simulator, and requires the same outputs (LANGUAGE.md, principle 2: a .pyk
file is a Numba kernel, and Numba is the reference).

For each case of cases.py, and each CPU-device code --cpu-device-code names
(by default both: pykc's LLVM code and its CUDA C++ compiled for the host):
  1. pykc FILE --emit=host writes the CPU device's code (NAME.pyk.cpu.o, or
     with --cpu-device-code=cuda NAME.pyk.cu and NAME.pyk.cpu.cpp, which the
     C++ compiler builds against pyk/CudaOnCpu.h), with
     one hidden entry pyk_cpu_<unit>_<symbol> per kernel version, and
     NAME.pyk.cpp, the launch code with one KernelInfo per version (its
     entry, argument sizes, checked mode, check sites ...). Both go into a
     shared object with an exported getter of each KernelInfo, loaded with
     ctypes. A lazily typed kernel (plain @cuda.jit) gets its types from the
     build: each line '# build-signature: NAME=SIG' of the file is one
     --signature option. A kernel has one version per signature (one, unless
     its decorator lists several or the build gives several), each with its
     own symbol (NAME, or NAME_<parameter types> for one of several) and
     its own launch function, a C++ overload of NAME.
  2. The case runs the version whose launch function's parameters its
     inputs fit exactly (dtypes and ranks), as C++ overload resolution
     picks one; none or several fitting is a failure.
  3. The arguments are packed as that launch function (NAME.pyk.cpp) packs
     them: a scalar is one pointer to its value, an array is a pointer to its
     data pointer followed by one pointer to an int64 per extent.
  4. The shim (cpu_launch_shim.cpp) launches that KernelInfo through the
     pyk runtime on the CPU device, on the case's NumPy arrays. A kernel
     compiled checked (boundscheck=True) reports a failed check as the
     launch's error, which fails the case unless its pyk_error expects it.
  5. The same .pyk file, imported as a Python module with
     NUMBA_ENABLE_CUDASIM=1, runs the kernel under the simulator on copies of
     the same inputs: the simulator runs the Python function as it is,
     whatever its signatures, so a lazily typed kernel and each version of
     one with several run there on exactly these inputs. The kernel is the
     module's attribute of that name, so a kernel compiled by a call
     (`k = cuda.jit(sig)(f)`) is found as `k`, the name pyk gives it. A file
     none of whose cases runs under Numba is never imported (the simulator
     rejects some files as soon as their decorators run). With
     --simulator-cache, the arrays the simulator left for the same file,
     kernel and inputs in an earlier run are taken instead (SimulatorCache).
  6. Every array argument (outputs and inputs alike) is compared: integers,
     bools and records (numba.cuda.random's states) exactly, floats within a
     tolerance (see Tolerance below). Each CPU-device code is compared with
     Numba on its own.
Last, the generator states pyk::random makes on the host are compared with
those Numba's init_xoroshiro128p_states_cpu makes, for several seeds,
counts and subsequence starts (check_xoroshiro128p_states).

usage: cross_check.py --pykc PYKC --shim LIBSHIM.so --cxx CXX [--work DIR] [--only SUBSTRING]
                      [--cpu-device-code llvm,cuda] [--simulator-cache DIR]
Exits non-zero on any mismatch or failure; the last line is
"cross-check: N kernels, M arrays compared, K mismatches".
"""
import os
import sys

# The simulator must be chosen before numba is first imported. Importing
# cases.py and the .pyk files must not leave bytecode caches in the source tree.
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
sys.dont_write_bytecode = True

import argparse
import ast
import ctypes
import importlib.machinery
import importlib.util
import re
import subprocess
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

import cases as case_specs

TESTS_DIR = Path(__file__).resolve().parent.parent
# The runtime's headers, which the generated launch code includes.
RUNTIME_INCLUDE = TESTS_DIR.parent / "runtime" / "include"

# In the sanitised build this process runs with the ASan runtime in
# LD_PRELOAD, for the instrumented shim it loads; pykc and the C++ compiler
# are programs of their own (pykc has its ASan runtime linked in) and run
# without it.
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "LD_PRELOAD"}

# How the launch code is compiled, and <pyk/pyk.h> for it ahead of time.
LAUNCH_CODE_FLAGS = ["-std=c++17", "-fPIC"]


def precompile_runtime_header(work_dir, cxx):
    """<pyk/pyk.h> precompiled, for GCC (the first thing each launch code
    includes): two thirds of each compile's time. GCC takes WORK/pch/pyk/pyk.h.gch
    for it, and reads the header itself where the flags differ; other
    compilers read the header (linked beside it) as always."""
    pch = work_dir / "pch" / "pyk"
    pch.mkdir(parents=True, exist_ok=True)
    header = pch / "pyk.h"
    if not header.exists():
        header.symlink_to(RUNTIME_INCLUDE / "pyk" / "pyk.h")
    subprocess.run([cxx, *LAUNCH_CODE_FLAGS, "-I", str(RUNTIME_INCLUDE), "-x", "c++-header", str(header),
                    "-o", str(pch / "pyk.h.gch")], check=True, env=CHILD_ENV)


# What the CPU device runs (pykc --cpu-device-code), as the report names it.
CODE_NAMES = {"llvm": "LLVM code", "cuda": "CUDA C++"}

# The element types of the generated launch functions' parameters.
CPP_TYPES = {
    "bool": np.bool_,
    "std::int8_t": np.int8,
    "std::int16_t": np.int16,
    "std::int32_t": np.int32,
    "std::int64_t": np.int64,
    "std::uint8_t": np.uint8,
    "std::uint16_t": np.uint16,
    "std::uint32_t": np.uint32,
    "std::uint64_t": np.uint64,
    "pyk::float16": np.float16,
    "float": np.float32,
    "double": np.float64,
    "std::complex<float>": np.complex64,
    "std::complex<double>": np.complex128,
}
# Arrays of records: the C++ struct of a launch function's parameter, and
# the NumPy dtype with its layout.
from numba.cuda.random import xoroshiro128p_dtype  # noqa: E402 (after NUMBA_ENABLE_CUDASIM)
CPP_TYPES["pyk::random::xoroshiro128p_state"] = xoroshiro128p_dtype


def file_record_dtypes(text):
    """The dtypes of the records a kernel file defines, from its launch code:
    each struct's comment gives NumPy's names and formats, and its layout
    assertion the offsets and the size ({C++ type: dtype})."""
    dtypes = {}
    for fields, size, name in re.findall(
            r"NumPy's dtype\n/// (\[.*\]), (\d+) bytes\.\n(?:#pragma pack\(push, 1\)\n)?struct (\w+) \{", text):
        cxx = f"pyk::records::{name}"
        names, formats = zip(*ast.literal_eval(fields))
        offsets = [int(offset) for offset in re.findall(rf"offsetof\({re.escape(cxx)}, \w+\) == (\d+)", text)]
        dtypes[cxx] = np.dtype({"names": list(names), "formats": list(formats), "offsets": offsets,
                                "itemsize": int(size)})
    return dtypes


class Tolerance:
    """How close two float results must be: |pyk - numba| <= atol + rtol * |numba|.

    float16 results: exact. NumPy's float16 rounds every operation once, as
    pyk does; the cases give the simulator no Python float to promote to.

    float32 results: the simulator evaluates Python's math functions in double
    precision and, under NumPy 1.x promotion, some float32 expressions too
    (a float32 times a Python float is float64 there), while pyk computes them
    in float32 with the C library's float functions (a few ulp). 2^-20 is
    8 float32 ulp relative; the same as an absolute floor covers results near
    zero that come from cancellation of O(1) values (the inputs are O(1)).

    float64 results: both sides compute in IEEE double with the same C
    library (CPython's math module calls glibc, as pyk's CPU device does), so
    they should agree to the last bit; 1e-12 allows a different evaluation
    order or a fused multiply-add, and is still 1e5 times tighter than
    float32 precision, so a float64 expression that pyk computed in float32
    is caught.
    """

    FLOAT16 = (0.0, 0.0)
    FLOAT32 = (2.0**-20, 2.0**-20)
    FLOAT64 = (1e-12, 1e-12)

    @staticmethod
    def for_array(dtype):
        if dtype == np.float16:
            return Tolerance.FLOAT16
        return Tolerance.FLOAT32 if dtype in (np.float32, np.complex64) else Tolerance.FLOAT64


def mismatches(got, want, tolerance):
    """Indices where got and want differ (NaN equals NaN; infinities and the sign of zero must match);
    records field by field, each by its own type's rule."""
    if got.dtype.names:
        wrong = set()
        for field in got.dtype.names:
            field_tolerance = Tolerance.for_array(got.dtype[field])
            wrong.update(tuple(int(p) for p in position)
                         for position in mismatches(got[field], want[field], field_tolerance))
        return np.array(sorted(wrong), dtype=np.int64).reshape(-1, got.ndim)
    if got.dtype.kind == "c":
        # Complex numbers to the tolerance relative to |want|, as complex
        # arithmetic's error is bounded (a part that cancels may lose more
        # of its own digits); a part that is not finite must be the same.
        rtol, atol = tolerance
        g, w = got.astype(np.complex128), want.astype(np.complex128)
        finite = np.isfinite(g) & np.isfinite(w)
        with np.errstate(invalid="ignore"):
            close = finite & (np.abs(g - w) <= atol + rtol * np.abs(w))
        same_part = [((p(g) == p(w)) | (np.isnan(p(g)) & np.isnan(p(w)))) for p in (np.real, np.imag)]
        return np.argwhere(~(close | (same_part[0] & same_part[1])))
    if got.dtype.kind != "f":
        return np.argwhere(got != want)
    rtol, atol = tolerance
    g, w = got.astype(np.float64), want.astype(np.float64)
    with np.errstate(invalid="ignore"):
        close = np.isfinite(g) & np.isfinite(w) & (np.abs(g - w) <= atol + rtol * np.abs(w))
    # Two zeros must agree in sign too: Python gives the result of % the
    # divisor's sign, also when it is zero, and min/max pick an operand.
    zeros = (g == 0) & (w == 0)
    same = (zeros & (np.signbit(g) == np.signbit(w))) | (~zeros & ((g == w) | close)) | (np.isnan(g) & np.isnan(w))
    return np.argwhere(~same)


def build_signatures(pyk_path):
    """The types a lazily typed file gets from the build: its lines
    '# build-signature: NAME=SIG', each one pykc option --signature (the
    convention tests/validity/check_gpu_backends.sh reads too)."""
    return re.findall(r"^# build-signature: (.+)$", pyk_path.read_text(), re.M)


# The rank field of a tuple parameter (Version.params).
TUPLE = "tuple"


@dataclass
class Version:
    """One compiled version of a kernel: a kernel has one per signature."""

    symbol: str  # its name in the KernelInfos: the kernel's, or NAME_<parameter types> for one of several
    # [(name, numpy dtype, rank or None for a scalar)], from its launch function; a tuple parameter
    # (a std::tuple) is (name, [numpy dtype per element], TUPLE), its value a tuple of NumPy scalars
    params: list
    info: str  # its KernelInfo in the generated launch code
    arg_sizes: list  # the bytes of each launch argument, as the runtime is told them
    grid_barrier: bool = False  # it syncs its grid: one more slot, the runtime's, last

    def accepts(self, values):
        """Whether `values` have exactly this version's parameter dtypes and ranks."""
        if len(values) != len(self.params):
            return False
        for (_, dtype, rank), value in zip(self.params, values):
            if rank == TUPLE:
                if not isinstance(value, tuple) or len(value) != len(dtype) or any(
                        np.asarray(v).dtype != d for v, d in zip(value, dtype)):
                    return False
            elif rank is None:
                if isinstance(value, np.ndarray) or np.asarray(value).dtype != dtype:
                    return False
            elif not isinstance(value, np.ndarray) or value.dtype != dtype or value.ndim != rank:
                return False
        return True

    def describe(self):
        def spelled(dtype, rank):
            if rank == TUPLE:
                return "(" + ", ".join(str(d) for d in dtype) + ")"
            return f"{dtype}" if rank is None else f"{dtype}[{rank}-D]"
        return "(" + ", ".join(spelled(dtype, rank) for _, dtype, rank in self.params) + ")"


class PykFile:
    """One .pyk file compiled by pykc: its CPU-device entries, loaded."""

    def __init__(self, pyk_path, work_dir, pykc, cxx, code):
        stem = pyk_path.name[: -len(".pyk")]
        out_dir = work_dir / code / pyk_path.parent.name / stem
        out_dir.mkdir(parents=True, exist_ok=True)
        signatures = [f"--signature={signature}" for signature in build_signatures(pyk_path)]
        subprocess.run([pykc, str(pyk_path), *signatures, "--emit=host", f"--cpu-device-code={code}",
                        "-o", str(out_dir)], check=True, env=CHILD_ENV)
        # kernel -> its versions, in the order of the launch functions
        self.versions = self._parse_launch_functions((out_dir / f"{stem}.pyk.cpp").read_text())
        # The KernelInfos are internal to the launch code (only its launch
        # functions use them): an exported getter per version, compiled in
        # the same translation unit, hands out each one's address.
        getters = out_dir / f"{stem}.kernel_infos.cpp"
        getters.write_text(f'#include <pyk/pyk.h>\n#include "{stem}.pyk.cpp"\n' + "".join(
            f'extern "C" __attribute__((visibility("default"))) void *pyk_cross_check_info_{version.symbol}() '
            f'{{ return &{version.info}; }}\n'
            for versions in self.versions.values() for version in versions))
        library = out_dir / f"{stem}.so"
        # The entries call the C math library; the launch code calls the
        # runtime, which the shim, loaded first and globally, provides.
        cpu_code = out_dir / f"{stem}.pyk.cpu.o"
        if code == "cuda":
            # pyk/CudaOnCpu.h is C++20; the launch code is compiled as C++17,
            # as the oldest standard its users may have.
            source, cpu_code = cpu_code.with_suffix(".cpp"), out_dir / f"{stem}.pyk.cuda.o"
            subprocess.run([cxx, "-std=c++20", "-c", "-fPIC", "-I", str(RUNTIME_INCLUDE), "-o", str(cpu_code),
                            str(source)], check=True, env=CHILD_ENV)
        subprocess.run([cxx, *LAUNCH_CODE_FLAGS, "-shared", "-I", str(work_dir / "pch"), "-I", str(RUNTIME_INCLUDE),
                        "-o", str(library), str(getters), str(cpu_code), "-lm"], check=True, env=CHILD_ENV)
        self.library = ctypes.CDLL(str(library))

    def version(self, kernel, values):
        """The version of `kernel` whose parameters `values` fit, as C++ overload resolution picks it."""
        if kernel not in self.versions:
            raise RuntimeError(f"pykc generated no launch function '{kernel}' (a C++ keyword is renamed)")
        versions = self.versions[kernel]
        if len(versions) == 1:
            return versions[0]  # PackedArgs names the parameter that does not fit, if one does not
        fitting = [version for version in versions if version.accepts(values)]
        if len(fitting) != 1:
            given = "(" + ", ".join(f"{v.dtype}[{v.ndim}-D]" if isinstance(v, np.ndarray) else f"{np.asarray(v).dtype}"
                                    for v in values) + ")"
            taken = ", ".join(version.describe() for version in versions)
            if not fitting:
                raise TypeError(f"no version of '{kernel}' takes the arguments {given}; its versions take {taken}")
            raise TypeError(f"{len(fitting)} versions of '{kernel}' take the arguments {given}: {taken}")
        return fitting[0]

    def kernel_info(self, version):
        """The address of `version`'s KernelInfo."""
        getter = getattr(self.library, f"pyk_cross_check_info_{version.symbol}")
        getter.restype = ctypes.c_void_p
        return getter()

    @staticmethod
    def _parse_launch_functions(text):
        """kernel -> [Version], from the generated launch functions (one C++
        overload per version, each launching its own KernelInfo) and the
        KernelInfos they launch."""
        sizes = {name: [int(v) for v in values.split(",")]
                 for name, values in re.findall(r"const std::uint8_t (\w+)\[\] = \{([\d, ]+)\};", text)}
        infos = {variable: (symbol, sizes[sizes_name]) for variable, symbol, sizes_name in re.findall(
            r"KernelInfo (\w+)\{&pyk_module, \"(\w+)\", &\w+, \d+, (\w+)[,}]", text)}
        element_types = {**CPP_TYPES, **file_record_dtypes(text)}
        versions = {}
        for kernel, params, body in re.findall(
            r"^void pyk::kernels::[\w:]*::(\w+)\(const pyk::Launch &pyk_launch(?:, ([^\n]*))?\) \{\n(.*?)^\}$", text,
            re.M | re.S
        ):
            parsed = []
            for array_type, rank, tuple_types, scalar_type, name in re.findall(
                r"(?:pyk::detail::ArrayArgument<(?:const )?([\w:]+(?:<\w+>)?), (\d)>|std::tuple<([^>]*)>|([\w:]+(?:<\w+>)?)) (\w+)",
                params or ""
            ):
                if tuple_types:
                    parsed.append((name, [np.dtype(element_types[t]) for t in tuple_types.split(", ")], TUPLE))
                    continue
                element = element_types[array_type or scalar_type]
                parsed.append((name, np.dtype(element), int(rank) if array_type else None))
            info = re.search(r"pyk::detail::launch\((\w+), ", body).group(1)
            symbol, arg_sizes = infos[info]
            grid_barrier = "pyk_grid_barrier" in body
            versions.setdefault(kernel, []).append(Version(symbol, parsed, info, arg_sizes, grid_barrier))
        return versions


class PackedArgs:
    """The args array of one launch; keeps every value it points to alive."""

    def __init__(self, signature, values, grid_barrier=False):
        self.keep = []
        pointers, self.sizes = [], []
        for (name, dtype, rank), value in zip(signature, values, strict=True):
            if rank == TUPLE:
                if not isinstance(value, tuple) or len(value) != len(dtype):
                    raise TypeError(f"tuple '{name}' must be a tuple of {len(dtype)} NumPy scalars")
                for element, element_dtype in zip(value, dtype):
                    if np.asarray(element).dtype != element_dtype:
                        raise TypeError(f"an element of tuple '{name}' must be {element_dtype}, "
                                        f"got {np.asarray(element).dtype}")
                    scalar = np.array(element, dtype=element_dtype)
                    self._add(scalar, scalar.ctypes.data, element_dtype.itemsize, pointers)
                continue
            if rank is None:
                scalar = np.array(value, dtype=dtype)
                if np.asarray(value).dtype != dtype:
                    raise TypeError(f"scalar '{name}' must be {dtype}, got {np.asarray(value).dtype}")
                self._add(scalar, scalar.ctypes.data, dtype.itemsize, pointers)
                continue
            if value.dtype != dtype or value.ndim != rank or not value.flags.c_contiguous:
                raise TypeError(f"array '{name}' must be a C-contiguous {dtype}[{rank}-D], "
                                f"got {value.dtype}[{value.ndim}-D]")
            data = ctypes.c_void_p(value.ctypes.data)
            self._add(data, ctypes.addressof(data), 8, pointers)
            for extent in value.shape:
                boxed = ctypes.c_int64(extent)
                self._add(boxed, ctypes.addressof(boxed), 8, pointers)
        if grid_barrier:  # 0, as the launch function passes it (the CPU device does not read it)
            slot = ctypes.c_uint64(0)
            self._add(slot, ctypes.addressof(slot), 8, pointers)
        self.count = len(pointers)
        self.args = (ctypes.c_void_p * max(1, self.count))(*pointers)

    def _add(self, owner, address, size, pointers):
        self.keep.append(owner)
        pointers.append(address)
        self.sizes.append(size)


class Shim:
    """cpu_launch_shim.cpp's pyk_cross_check_launch."""

    def __init__(self, path):
        # Global, so that the kernels' objects, loaded after it, find the
        # runtime's pyk_cpu_* functions (barriers, warp operations) in it.
        self.library = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
        self.launch_fn = self.library.pyk_cross_check_launch
        self.launch_fn.restype = ctypes.c_int
        self.launch_fn.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_uint32),
                                   ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_size_t]

    def launch(self, kernel_info, grid, block, packed):
        message = ctypes.create_string_buffer(4096)
        status = self.launch_fn(kernel_info, (ctypes.c_uint32 * 3)(*grid), (ctypes.c_uint32 * 3)(*block), packed.args,
                                message, len(message))
        if status != 0:
            raise RuntimeError(message.value.decode())


def dims3(extent):
    extent = extent if isinstance(extent, tuple) else (extent,)
    return tuple(extent) + (1,) * (3 - len(extent))


def simulate_signature_lists():
    """Lets the simulator take a kernel's list of signatures.

    Numba compiles one version per signature of @cuda.jit([sig, ...]); the
    simulator runs the Python function on whatever it is given, but the
    simulator of Numba 0.56 (Debian's) takes a list for the function itself
    and fails. It ignores a single signature, so it is given the first of
    the list instead.
    """
    from numba import cuda

    simulated_jit = cuda.jit

    def jit(func_or_sig=None, *args, **options):
        if isinstance(func_or_sig, list):
            func_or_sig = func_or_sig[0]
        return simulated_jit(func_or_sig, *args, **options)

    cuda.jit = jit


def provide_cupy_scalar_types():
    """Lets the simulator import kernel files of CuPy code where CuPy is not installed.

    Such files `import cupy as cp` for its scalar types only (`cp.float32(v)`:
    docs/language.md, section 1), and those are NumPy's own: CuPy's package
    imports them from numpy, so cupy.float32 is numpy.float32. CuPy itself
    needs the CUDA toolkit to install; without it, `import cupy` gets a
    stand-in holding exactly those types, and any other use of CuPy fails
    under the simulator as it would on a machine without CuPy.
    """
    try:
        import cupy  # noqa: F401  (the real one, where it is installed)
        return
    except ImportError:
        pass
    stand_in = ModuleType("cupy", "NumPy's scalar types, which CuPy exports as its own (cross_check.py)")
    for name in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                 "float32", "float64"):
        setattr(stand_in, name, getattr(np, name))
    sys.modules["cupy"] = stand_in


def load_python_module(pyk_path):
    """The .pyk file as a Python module (its suffix is not .py, hence the explicit loader)."""
    name = "pyk_cross_check_" + pyk_path.parent.name + "_" + pyk_path.stem
    loader = importlib.machinery.SourceFileLoader(name, str(pyk_path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    loader.exec_module(module)
    return module


def row_inputs(signature, inputs, compared, row, rows):
    """For a mismatch report: the scalar arguments, and the element `row` of
    the other 1-D arguments with `rows` elements, as they were before the launch."""
    shown = [f"{name}={value!r}" if rank in (None, TUPLE) else f"{name}[{row}]={value[row]!r}"
             for (name, _, rank), value in zip(signature, inputs)
             if rank in (None, TUPLE) or (rank == 1 and len(value) == rows and name != compared)]
    return "  (inputs: " + ", ".join(shown) + ")" if shown else ""


def run_on_pyk(case, pyk_file, version, inputs, shim):
    """Launches `version` of the case's kernel on pyk's CPU device on copies
    of `inputs`; returns the arguments as the launch left them."""
    pyk_args = [np.copy(v) if isinstance(v, np.ndarray) else v for v in inputs]
    packed = PackedArgs(version.params, pyk_args, version.grid_barrier)
    if packed.sizes != version.arg_sizes:
        raise RuntimeError(f"args packed as {packed.sizes} bytes, the generated launch function packs "
                           f"{version.arg_sizes}")
    try:
        shim.launch(pyk_file.kernel_info(version), dims3(case.grid), dims3(case.block), packed)
        error = None
    except RuntimeError as raised:
        if not case.pyk_error:
            raise
        error = str(raised)
    if case.pyk_error and (error is None or case.pyk_error not in error):
        raise RuntimeError(f"pyk's launch must fail with '{case.pyk_error}'; it "
                           + (f"failed with '{error}'" if error else "succeeded"))
    return pyk_args


class SimulatorCache:
    """The arrays Numba's simulator left in earlier runs, by everything that
    decides them: Numba's and NumPy's versions, this harness (cross_check.py,
    cases.py, case_inputs.py), the kernel's file and the other .pyk files
    beside it (which it may import), the kernel, its grid and block, and
    every input's dtype, shape and bytes. scripts/test points both of its
    runs (the normal build's and the sanitised build's) at one directory
    (PYK_SIMULATOR_CACHE): the simulator, which is the same Python in both,
    runs in the first only. Nothing is kept where no directory is given."""

    def __init__(self, directory):
        import hashlib
        import numba

        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._hashlib = hashlib
        harness = hashlib.sha256(f"numba {numba.__version__} numpy {np.__version__}".encode())
        here = Path(__file__).resolve().parent
        for name in ("cross_check.py", "cases.py", "case_inputs.py"):
            harness.update((here / name).read_bytes())
        self.harness = harness.hexdigest()

    def key(self, case, inputs):
        digest = self._hashlib.sha256(self.harness.encode())
        pyk_path = TESTS_DIR / case.file
        for path in [pyk_path] + sorted(p for p in pyk_path.parent.glob("*.pyk") if p != pyk_path):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        digest.update(repr((case.kernel, case.grid, case.block)).encode())
        for value in inputs:
            if isinstance(value, np.ndarray):
                digest.update(repr((value.dtype.descr, value.shape)).encode())
                digest.update(np.ascontiguousarray(value).tobytes())
            else:
                digest.update(repr((type(value).__name__, value)).encode())
        return digest.hexdigest()

    def restore(self, key, args):
        """Fills the arrays of `args` with what the simulator left; False if
        this key was never stored."""
        path = self.directory / f"{key}.npz"
        if not path.exists():
            return False
        with np.load(path, allow_pickle=False) as stored:
            for index, value in enumerate(args):
                if isinstance(value, np.ndarray):
                    value[...] = stored[f"arg{index}"]
        return True

    def store(self, key, args):
        arrays = {f"arg{index}": value for index, value in enumerate(args) if isinstance(value, np.ndarray)}
        partial = self.directory / f"{key}.{os.getpid()}.partial.npz"
        np.savez(partial, **arrays)
        partial.replace(self.directory / f"{key}.npz")


def run_case(case, pyk_files, python_module, shim, simulator_cache=None):
    """Runs one case on pyk's CPU device with each code of `pyk_files`
    ({code: PykFile}) and under Numba (python_module() gives the file
    imported as Python; a SimulatorCache may hold what it gave before); returns (the version of the kernel run, arrays
    compared, elements that differ, lines describing them)."""
    inputs = case.make_args(np.random.default_rng(case_specs.SEED))
    # {code: the arrays and values pyk's launch left}
    pyk_results = {}
    for code, pyk_file in pyk_files.items():
        version = pyk_file.version(case.kernel, inputs)
        pyk_results[code] = run_on_pyk(case, pyk_file, version, inputs, shim)
    signature = version.params

    numba_args = None
    if case.run_numba:
        numba_args = [np.copy(v) if isinstance(v, np.ndarray) else v for v in inputs]
        key = simulator_cache.key(case, inputs) if simulator_cache else None
        if not (simulator_cache and simulator_cache.restore(key, numba_args)):
            getattr(python_module(), case.kernel)[case.grid, case.block](*numba_args)
            if simulator_cache:
                simulator_cache.store(key, numba_args)

    compared, mismatched, lines = 0, 0, []
    for index, (name, dtype, rank) in enumerate(signature):
        if rank is None or rank == TUPLE:
            continue
        tolerance = Tolerance.FLOAT32 if name in case.float32_intermediates else Tolerance.for_array(dtype)
        # (what is checked, its value, what it must be, what that is)
        checks = []
        for code, pyk_args in pyk_results.items():
            who = "pyk" if code == "llvm" else f"pyk ({CODE_NAMES[code]})"
            if name in case.pyk_expected:
                want = np.asarray(case.pyk_expected[name](inputs), dtype=dtype)
                checks.append((who, pyk_args[index], want, "documented value"))
            if numba_args is not None and name not in case.numba_expected:
                checks.append((who, pyk_args[index], numba_args[index], "Numba gives"))
        if numba_args is not None and name in case.numba_expected:
            want = np.asarray(case.numba_expected[name](inputs), dtype=dtype)
            checks.append(("Numba", numba_args[index], want, "documented value"))
        for who, value, want, source in checks:
            compared += 1
            wrong = mismatches(value, want, tolerance)
            mismatched += len(wrong)
            for position in wrong[:8]:
                at = tuple(int(p) for p in position)
                lines.append(f"  {name}{list(at)}: {who} gives {value[at]!r}, {source} {want[at]!r}"
                             + row_inputs(signature, inputs, name, at[0], len(value)))
            if len(wrong) > 8:
                lines.append(f"  {name}: {len(wrong) - 8} more mismatches")
    return version, compared, mismatched, lines


def check_xoroshiro128p_states(shim):
    """pyk::random::init_xoroshiro128p_states_host (through the shim) against
    Numba's init_xoroshiro128p_states_cpu, which makes the states that
    create_xoroshiro128p_states copies to the device: each state must be
    bit-identical, for seeds 0 to 2**64 - 1. Under the simulator Numba's
    function runs as plain Python, about 10 ms per 2**64-step jump, so it
    checks the counts up to 3; every count is checked against the function as
    Numba compiles it, in a child python3 without the simulator. Returns
    (arrays compared, states that differ, lines describing them)."""
    from numba.cuda.random import init_xoroshiro128p_states_cpu, xoroshiro128p_dtype

    # The compiled function's states for each (seed, subsequence_start, n) of
    # argv[1], one array after another on stdout. uint64 arguments: Python
    # ints would compile an int64 version first, which overflows at 2**63.
    compiled_numba = """
import ast, sys
import numpy as np
from numba.cuda.random import init_xoroshiro128p_states_cpu, xoroshiro128p_dtype
for seed, start, n in ast.literal_eval(sys.argv[1]):
    states = np.empty(n, xoroshiro128p_dtype)
    init_xoroshiro128p_states_cpu(states, np.uint64(seed), np.uint64(start))
    sys.stdout.buffer.write(states.tobytes())
"""
    fill = shim.library.pyk_cross_check_xoroshiro128p_states
    fill.restype = ctypes.c_int
    fill.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_uint64, ctypes.c_uint64]
    runs = [(seed, start, n) for seed in (0, 1, 42, 2**63 + 5, 2**64 - 1) for start in (0, 1, 3)
            for n in (1, 3, 64, 300)]
    without_simulator = {name: value for name, value in CHILD_ENV.items() if name != "NUMBA_ENABLE_CUDASIM"}
    compiled = subprocess.run([sys.executable, "-c", compiled_numba, repr(runs)], check=True,
                              stdout=subprocess.PIPE, env=without_simulator).stdout
    compared, mismatched, lines, offset = 0, 0, [], 0
    for seed, start, n in runs:
        pyk_states = np.empty(n, xoroshiro128p_dtype)
        if fill(pyk_states.ctypes.data, n, seed, start) != 0:
            raise RuntimeError(f"pyk_cross_check_xoroshiro128p_states failed "
                               f"(seed={seed}, subsequence_start={start}, n={n})")
        references = [("Numba (compiled)", np.frombuffer(compiled, xoroshiro128p_dtype, n, offset))]
        offset += n * xoroshiro128p_dtype.itemsize
        if n <= 3:
            simulated = np.empty(n, xoroshiro128p_dtype)
            init_xoroshiro128p_states_cpu(simulated, seed, start)
            references.append(("Numba (simulator)", simulated))
        for who, want in references:
            compared += 1
            wrong = np.flatnonzero(pyk_states != want)
            mismatched += len(wrong)
            for i in wrong[:8]:
                lines.append(f"  seed={seed}, subsequence_start={start}, n={n}: state {i} is "
                             f"(s0={pyk_states[i]['s0']}, s1={pyk_states[i]['s1']}) in pyk, "
                             f"(s0={want[i]['s0']}, s1={want[i]['s1']}) in {who}")
            if len(wrong) > 8:
                lines.append(f"  seed={seed}, subsequence_start={start}, n={n}: {len(wrong) - 8} more states "
                             f"differ from {who}'s")
    if offset != len(compiled):
        raise RuntimeError(f"the compiled Numba gave {len(compiled)} bytes of states, not {offset}")
    return compared, mismatched, lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pykc", required=True)
    parser.add_argument("--shim", required=True)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--work", help="directory for pykc's outputs (default: a temporary one)")
    parser.add_argument("--only", help="run only cases whose file:kernel contains this")
    parser.add_argument("--simulator-cache", default=os.environ.get("PYK_SIMULATOR_CACHE"),
                        help="directory keeping the simulator's outputs from run to run "
                             "(default: $PYK_SIMULATOR_CACHE; none: the simulator runs every case)")
    parser.add_argument("--cpu-device-code", default="llvm,cuda",
                        help="the CPU device's codes to run each case with, comma-separated (default llvm,cuda)")
    options = parser.parse_args()
    codes = options.cpu_device_code.split(",")
    if not codes or any(code not in CODE_NAMES for code in codes):
        parser.error(f"--cpu-device-code takes {', '.join(CODE_NAMES)}, not '{options.cpu_device_code}'")

    # NumPy reports integer overflow and division by zero in scalar
    # arithmetic as RuntimeWarnings; those are the semantics under test (they
    # wrap and give 0 as in pyk), not problems. The simulator runs each GPU
    # thread in its own Python thread, so np.errstate (per thread) cannot
    # silence them; the warnings filter is process-wide.
    warnings.filterwarnings("ignore", category=RuntimeWarning)

    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pyk-numba-") as temporary:
        work_dir = Path(options.work or temporary)
        shim = Shim(options.shim)
        simulator_cache = SimulatorCache(options.simulator_cache) if options.simulator_cache else None
        precompile_runtime_header(work_dir, options.cxx)
        simulate_signature_lists()
        provide_cupy_scalar_types()
        pyk_files, modules = {}, {}
        kernels = arrays = failures = 0
        for case in case_specs.CASES:
            label = f"{case.file}:{case.kernel}"
            if options.only and options.only not in label:
                continue
            kernels += 1
            pyk_path = TESTS_DIR / case.file
            try:
                if case.file not in pyk_files:
                    pyk_files[case.file] = {code: PykFile(pyk_path, work_dir, options.pykc, options.cxx, code)
                                            for code in codes}

                def python_module(file=case.file, path=pyk_path):
                    if file not in modules:
                        modules[file] = load_python_module(path)
                    return modules[file]

                version, compared, mismatched, lines = run_case(case, pyk_files[case.file], python_module, shim,
                                                             simulator_cache)
                if version.symbol != case.kernel:
                    label += f" ({version.symbol})"
            except Exception as error:  # a failed compile, launch or simulation counts as a mismatch
                compared, mismatched, lines = 0, 1, [f"  {type(error).__name__}: {error}"]
            arrays += compared
            failures += mismatched
            status = "ok  " if mismatched == 0 else "FAIL"
            where = "" if case.run_numba else " [pyk only]"
            print(f"{status} {label}: {compared} arrays compared{where}" + (f"  -- {case.note}" if case.note else ""))
            for line in lines:
                print(line)
        label = "numba.cuda.random:init_xoroshiro128p_states"
        if not options.only or options.only in label:
            try:
                compared, mismatched, lines = check_xoroshiro128p_states(shim)
            except Exception as error:
                compared, mismatched, lines = 0, 1, [f"  {type(error).__name__}: {error}"]
            arrays += compared
            failures += mismatched
            print(f"{'ok  ' if mismatched == 0 else 'FAIL'} {label}: {compared} arrays compared")
            for line in lines:
                print(line)
        print(f"time: {time.monotonic() - start:.1f} s")
    print(f"cross-check: {kernels} kernels, {arrays} arrays compared, {failures} mismatches")
    return 0 if failures == 0 and kernels > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
