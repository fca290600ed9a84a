#!/usr/bin/env python3
"""A .pyk name never breaks the code pyk generates, whatever the headers declare.

1. The table ir/CudaHeaderNames.inc is not stale: scripts/cuda_header_names.py,
   run now against this toolkit's headers, finds no name (and no macro) that
   the table lacks.
2. Every name the table and ir/CxxKeywords.inc reserve, and every other
   identifier that appears anywhere in the preprocessed headers (a member, a
   parameter, a name in namespace std: names pyk leaves as they are), is used
   once as each of: a kernel, a device function, a kernel's and a device
   function's parameter, and a local of each. The CUDA C++ must compile with
   nvcc -Werror, the PTX assemble with ptxas, and the host launch code
   compile with the C++ compiler against the runtime's headers. The renamed
   names show that renaming works; the others, that leaving them alone is
   safe: together they check that the table misses nothing that matters.

usage: check_reserved_names.py PYKC NVCC PTXAS CXX SOURCE_ROOT
"""

import keyword
import os
import re
import subprocess
import sys
import tempfile

pykc, nvcc, ptxas, cxx, root = sys.argv[1:6]
sys.path.insert(0, os.path.join(root, "scripts"))
import cuda_header_names  # noqa: E402

# Names the probe files need for themselves (imports, their own helpers).
PROBE_NAMES = {"cuda", "numba", "probe_out"}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return result.returncode, result.stdout


def table():
    """{name: is_macro} of CudaHeaderNames.inc, and the keywords."""
    with open(os.path.join(root, "ir", "CudaHeaderNames.inc")) as f:
        entries = dict((name, flag == "true") for name, flag in re.findall(r'\{"(\w+)", (true|false)\}', f.read()))
    with open(os.path.join(root, "ir", "CxxKeywords.inc")) as f:
        keywords = set(re.findall(r'"(\w+)"', f.read()))
    return entries, keywords


def check_not_stale(entries):
    names, macros, tokens = cuda_header_names.names_in(cuda_header_names.preprocessed_headers(nvcc, cxx))
    listed = {n for n in names if cuda_header_names.needs_listing(n)}
    missing = sorted(listed - set(entries))
    not_macro = sorted(n for n in listed & macros if n in entries and not entries[n])
    if missing or not_macro:
        fail("ir/CudaHeaderNames.inc is stale: the headers declare %s%s; regenerate it with\n"
             "  scripts/cuda_header_names.py --nvcc %s --cxx %s -o ir/CudaHeaderNames.inc"
             % (", ".join(missing[:50]) or "nothing new",
                "; macros not marked as macros: " + ", ".join(not_macro[:50]) if not_macro else "", nvcc, cxx))
    print("table: %d names, none missing (%d names found now)" % (len(entries), len(listed)))
    return tokens


def usable(name):
    return name.isidentifier() and name.isascii() and not keyword.iskeyword(name) and name not in PROBE_NAMES and \
        not name.startswith("probe_calls_")


def kernels_file(names, others):
    """Kernel k is names[k]; its parameters others[k] and others[k+1]; its
    local others[k+2] (pyk takes no local named like a function of the file)."""
    n = len(others)
    lines = ["from numba import cuda", ""]
    for k, name in enumerate(names):
        array, scalar, local = others[k % n], others[(k + 1) % n], others[(k + 2) % n]
        lines += [
            "",
            '@cuda.jit("void(int64[:], int64)")',
            "def %s(%s, %s):" % (name, array, scalar),
            "    %s = %s + 1" % (local, scalar),
            "    %s[0] = %s" % (array, local),
            "",
        ]
    return "\n".join(lines) + "\n"


def device_functions_file(names, others, per_kernel=200):
    """Device function k is names[k]; its parameter others[k]; its local others[k+1]."""
    n = len(others)
    lines = ["from numba import cuda", ""]
    for k, name in enumerate(names):
        param, local = others[k % n], others[(k + 1) % n]
        lines += ["", "@cuda.jit(device=True)", "def %s(%s):" % (name, param),
                  "    %s = %s + 1" % (local, param), "    return %s" % local, ""]
    for first in range(0, len(names), per_kernel):
        lines += ["", '@cuda.jit("void(int64[:])")', "def probe_calls_%d(probe_out):" % first]
        for k in range(first, min(first + per_kernel, len(names))):
            lines.append("    probe_out[%d] = %s(%d)" % (k - first, names[k], k))
        lines.append("")
    return "\n".join(lines) + "\n"


def probe_files(names):
    """(stem, text): every name a kernel and a device function in one file,
    and parameters and locals in another."""
    half = len(names) // 2
    first, second = names[:half], names[half:]
    return [("kernels1", kernels_file(first, second)), ("kernels2", kernels_file(second, first)),
            ("device1", device_functions_file(first, second)), ("device2", device_functions_file(second, first))]


def rejected_names(path, source):
    """The identifiers at the places pykc reports errors in `path`."""
    code, output = run([pykc, path, "--emit=ir", "-o", os.devnull])
    if code == 0:
        return set()
    places = [(int(line), int(col)) for line, col in
              re.findall(r"^%s:(\d+):(\d+): error" % re.escape(path), output, re.M)]
    if not places:
        fail("pykc fails on %s without a located error:\n%s" % (path, output[-3000:]))
    lines = source.split("\n")
    names = set()
    for line, col in places:
        match = re.match(r"[A-Za-z_][A-Za-z0-9_]*", lines[line - 1][col - 1:])
        if not match:
            fail("pykc's error at %s:%d:%d is not at a name:\n%s" % (path, line, col, output[-3000:]))
        names.add(match.group(0))
    return names


def accepted_names(work, names):
    """`names` less those pykc rejects in some role (a located error is fine:
    no C++ is generated). Few may go; each one is printed."""
    dropped = set()
    for attempt in range(5):
        current = [n for n in names if n not in dropped]
        bad = set()
        for stem, text in probe_files(current):
            path = os.path.join(work, "reject_%s.pyk" % stem)
            with open(path, "w") as f:
                f.write(text)
            bad |= rejected_names(path, text)
        if not bad:
            break
        dropped |= bad
    else:
        fail("pykc still rejects names after 5 rounds")
    if len(dropped) > 40:
        fail("pykc rejects %d of the names (expected a few builtins): %s" % (len(dropped), " ".join(sorted(dropped))))
    if dropped:
        print("pykc rejects these names itself (a located error, no C++): " + " ".join(sorted(dropped)))
    return [n for n in names if n not in dropped]


def compile_everywhere(work, stem, text):
    pyk = os.path.join(work, stem + ".pyk")
    with open(pyk, "w") as f:
        f.write(text)
    steps = [
        ("CUDA C++", [pykc, pyk, "--emit=cuda", "-o", os.path.join(work, stem + ".cu")]),
        ("nvcc", [nvcc, "-cubin", "-arch=sm_90", "-Werror", "all-warnings", os.path.join(work, stem + ".cu"),
                  "-o", os.path.join(work, stem + ".o")]),
        ("PTX", [pykc, pyk, "--emit=ptx", "--arch=sm_90", "-o", os.path.join(work, stem + ".ptx")]),
        ("ptxas", [ptxas, "-arch=sm_90", os.path.join(work, stem + ".ptx"), "-o", os.path.join(work, stem + ".cubin")]),
        # -O0: what is checked is the launch code's C++; the CPU device's
        # object, which nothing here links, takes a sixth of the time
        # unoptimised for these thousands of kernels.
        ("host code", [pykc, pyk, "--emit=host", "-O0", "-o", os.path.join(work, stem + "-host")]),
        ("C++", [cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-c", "-I", os.path.join(root, "runtime", "include"),
                 os.path.join(work, stem + "-host", stem + ".pyk.cpp"), "-o", os.path.join(work, stem + "-host.o")]),
    ]
    # Device functions never reach the launch code: only the kernels'
    # files need their host code compiled.
    if not stem.startswith("kernels"):
        steps = steps[:4]
    for what, command in steps:
        code, output = run(command)
        if code != 0:
            fail("%s of %s fails:\n%s" % (what, stem, "\n".join(output.splitlines()[:60])))


def main():
    entries, keywords = table()
    tokens = check_not_stale(entries)
    reserved = sorted(n for n in set(entries) | keywords if usable(n))
    left_alone = sorted(t for t in tokens if usable(t) and t not in entries and t not in keywords and
                        cuda_header_names.needs_listing(t))
    for name in ("div", "ldiv", "time", "atexit", "strcmp", "getenv", "sincosf", "erfinv", "NULL", "errno", "linux"):
        if name not in reserved:
            fail("'%s' is not reserved" % name)
    with tempfile.TemporaryDirectory() as work:
        names = accepted_names(work, reserved + left_alone)
        for stem, text in probe_files(names):
            compile_everywhere(work, stem, text)
    print("%d reserved names and %d names the headers use but pyk leaves alone: each a kernel, a device function, "
          "parameters and locals; the CUDA C++, PTX and host code compile" % (len(reserved), len(left_alone)))


main()
