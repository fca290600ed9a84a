#!/usr/bin/env python3
"""Static check of code generation without a GPU: the number of sm_90 machine
instructions (SASS, NOPs left out) of each benchmark kernel through pyk's
PTX path (default and --index-bits=32), pyk's CUDA C++ path (nvcc -O3) and
the hand-written CUDA (nvcc -O3), side by side.

Fewer instructions are not less time (memory-bound kernels wait on memory
whatever they execute, and a loop body counts once), so this is no
benchmark: it shows where pyk's code differs from nvcc's and by how much,
on a machine without a GPU. The times come from bench/gpu/run.

It needs cuobjdump and nvdisasm, which this project's CUDA toolkit lacks:
$CUOBJDUMP, or cuobjdump on PATH or in /usr/local/cuda/bin, or else NVIDIA's
nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm wheels from PyPI, fetched
once into ~/.cache/pyk/cuobjdump.

usage: bench/gpu/sass_counts.py [--pykc build/cli/pykc] [--nvcc nvcc]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ARCH = "sm_90"
# Kernel files and, for each kernel, the hand-written file that has it.
KERNELS = {
    "elementwise": ["vector_add", "saxpy"],
    "stencil": ["jacobi_step"],
    "matmul": ["matmul_naive", "matmul_tiled"],
    "reduction": ["block_sum", "warp_sum"],
    "histogram": ["histogram"],
}
COLUMNS = ["pyk PTX", "pyk PTX i32", "pyk CUDA C++", "hand-written"]


def find_cuobjdump() -> str:
    """cuobjdump, with the nvdisasm it runs for -sass next to it."""
    for candidate in (os.environ.get("CUOBJDUMP"), shutil.which("cuobjdump"), "/usr/local/cuda/bin/cuobjdump"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    cache = Path.home() / ".cache" / "pyk" / "cuobjdump"
    tools = [next(cache.glob(f"**/bin/{name}"), None) for name in ("cuobjdump", "nvdisasm")]
    if None in tools:
        print("sass_counts: fetching cuobjdump and nvdisasm (PyPI: nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm) "
              "into", cache, file=sys.stderr)
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(cache),
                        "nvidia-cuda-cuobjdump", "nvidia-cuda-nvdisasm"], check=True)
        for wheel in cache.glob("*.whl"):
            zipfile.ZipFile(wheel).extractall(cache)
        tools = [next(cache.glob(f"**/bin/{name}"), None) for name in ("cuobjdump", "nvdisasm")]
        if None in tools:
            sys.exit("sass_counts: the wheels hold no bin/cuobjdump and bin/nvdisasm")
    for tool in tools:
        tool.chmod(0o755)
    os.environ["PATH"] = f"{tools[1].parent}{os.pathsep}{os.environ['PATH']}"
    return str(tools[0])


def instructions(cuobjdump: str, cubin: Path) -> dict:
    """Instructions per function: lines like '/*0040*/  IMAD ...', NOPs not counted."""
    listing = subprocess.run([cuobjdump, "-sass", str(cubin)], check=True, capture_output=True, text=True).stdout
    counts, function = {}, None
    for line in listing.splitlines():
        header = re.search(r"Function : (\S+)", line)
        if header:
            function = header.group(1)
            counts[function] = 0
        elif function and re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+\S", line) and " NOP" not in line:
            counts[function] += 1
    return counts


def count_for(counts: dict, kernel: str) -> int:
    """pyk's kernels keep their names; hand-written ones are KERNEL_kernel, mangled."""
    if kernel in counts:
        return counts[kernel]
    matches = [n for name, n in counts.items() if re.search(rf"\d{kernel}_kernel", name)]
    return matches[0] if len(matches) == 1 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pykc", default=str(ROOT / "build" / "cli" / "pykc"))
    parser.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    args = parser.parse_args()
    cuobjdump = find_cuobjdump()
    table = {}
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        for name, kernels in KERNELS.items():
            pyk = HERE / "kernels" / f"{name}.pyk"
            cuda = work / f"{name}.pyk.cu"
            subprocess.run([args.pykc, str(pyk), "--emit=cuda", "-o", str(cuda)], check=True)
            pykc = [args.pykc, str(pyk), "--emit=cubin", f"--arch={ARCH}"]
            nvcc = [args.nvcc, "-cubin", "-O3", f"-arch={ARCH}", "-I", str(HERE / "handwritten")]
            commands = {  # column: the command, to which "-o CUBIN" is added
                "pyk PTX": pykc,
                "pyk PTX i32": pykc + ["--index-bits=32"],
                "pyk CUDA C++": nvcc + [str(cuda)],
                "hand-written": nvcc + [str(HERE / "handwritten" / f"{name}.cu")],
            }
            cubins = {}
            for column, command in commands.items():
                cubins[column] = work / f"{name}.{len(cubins)}.cubin"
                subprocess.run(command + ["-o", str(cubins[column])], check=True)
            for column, cubin in cubins.items():
                counts = instructions(cuobjdump, cubin)
                for kernel in kernels:
                    table.setdefault(kernel, {})[column] = count_for(counts, kernel)

    print(f"SASS instructions per kernel ({ARCH}, NOPs left out; static counts, not times)\n")
    print("| kernel | " + " | ".join(COLUMNS) + " | pyk PTX / hand | pyk PTX i32 / hand |")
    print("|---" * (len(COLUMNS) + 3) + "|")
    for kernel, row in table.items():
        cells = [str(row.get(c)) if row.get(c) is not None else "?" for c in COLUMNS]
        hand = row.get("hand-written")
        ratios = [f"{row[c] / hand:.2f}" if hand and row.get(c) else "?" for c in ("pyk PTX", "pyk PTX i32")]
        print(f"| {kernel} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    main()
