#!/usr/bin/env bash
# Runs every .pyk file in examples/, tests/golden/, tests/execution/ and
# tests/numba/ that pykc accepts through every backend:
#   - the CUDA C++ must compile with nvcc for sm_90 without a warning (to a
#     cubin: the device side, where pyk's code is; nvcc's host side of it
#     is only the launch stubs nvcc writes itself, and compiling it took
#     two thirds of nvcc's time);
#   - the PTX from LLVM must assemble with ptxas for sm_75, sm_80 and sm_90;
#   - the host code (launch functions and the CPU device's object) must
#     compile with the C++ compiler against the runtime's headers;
#   - in checked mode (--checked), and with 32-bit offsets (--index-bits=32),
#     the same for the CUDA C++, the PTX for sm_90 and the host code.
# A file that declares CUDA C++ functions (cuda.declare_device) is compiled
# as relocatable code (nvcc -rdc=true, ptxas -c), which calls them, and its
# sm_90 code is linked (nvlink) with that of the .cu files it names
# (`link=["cnd.cu"]`, next to it), compiled by nvcc.
# No GPU is needed. Files are checked two at a time. A lazily typed file
# (types from the build) lists them in lines '# build-signature: NAME=SIG',
# each passed to every pykc run as --signature.
# usage: check_gpu_backends.sh PYKC NVCC PTXAS SOURCE_ROOT
set -euo pipefail
pykc=$1 nvcc=$2 ptxas=$3 root=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The host code as a user's build compiles it, against the runtime's
# headers. Every generated .pyk.cpp includes <pyk/pyk.h> first, so the
# compiler takes it precompiled from $work/pch (made once, below, with the
# same flags) and parses only the generated code: two thirds of each
# compile's time. Without the precompiled header it reads the header
# itself; the result is the same.
host_flags="-std=c++17 -Wall -Wextra -Werror"
compile_host() { # DIR PYK
  # shellcheck disable=SC2086 # host_flags is a list of flags
  c++ $host_flags -c -I "$work/pch" -I "$root/runtime/include" -I "$1" \
    "$1/$(basename "$2" .pyk).pyk.cpp" -o "$1.o"
}
mkdir -p "$work/pch/pyk"
# shellcheck disable=SC2086
c++ $host_flags -I "$root/runtime/include" -x c++-header "$root/runtime/include/pyk/pyk.h" \
  -o "$work/pch/pyk/pyk.h.gch"

check_one() {
  local pyk=$1 out signature
  out="$work/$(echo "$pyk" | md5sum | cut -c1-12)"
  mkdir -p "$out"
  local -a signatures=()
  while IFS= read -r signature; do
    signatures+=("--signature=$signature")
  done < <(sed -n 's/^# build-signature: //p' "$pyk")
  # Every pykc below gets the file's build signatures.
  pykc() { "$pykc_path" "${signatures[@]}" "$@"; }
  pykc "$pyk" --emit=cuda -o "$out/k.cu" 2>/dev/null || { echo "SKIP $pyk"; return 0; }
  # Code that calls declared CUDA C++ functions is relocatable, for a link.
  local -a nvcc_relocatable=() ptxas_relocatable=()
  if grep -q 'declare_device' "$pyk"; then
    nvcc_relocatable=(-rdc=true)
    ptxas_relocatable=(-c)
  fi
  nvcc() { "$nvcc_path" "${nvcc_relocatable[@]}" "$@"; }
  ptxas() { "$ptxas_path" "${ptxas_relocatable[@]}" "$@"; }
  if ! nvcc -cubin -arch=sm_90 -Werror all-warnings -o "$out/k.o" "$out/k.cu" >"$out/log" 2>&1; then
    echo "FAIL $pyk: nvcc rejects its CUDA C++:"; cat "$out/log"; return 0
  fi
  for arch in sm_75 sm_80 sm_90; do
    if ! pykc "$pyk" --emit=ptx --arch="$arch" -o "$out/$arch.ptx" >"$out/log" 2>&1 ||
       ! ptxas -arch="$arch" "$out/$arch.ptx" -o "$out/$arch.cubin" >>"$out/log" 2>&1; then
      echo "FAIL $pyk: its PTX for $arch does not assemble:"; cat "$out/log"; return 0
    fi
  done
  if ! pykc "$pyk" --emit=host -o "$out/host" >"$out/log" 2>&1 ||
     ! compile_host "$out/host" "$pyk" >>"$out/log" 2>&1; then
    echo "FAIL $pyk: its host code does not compile:"; cat "$out/log"; return 0
  fi
  if ! pykc "$pyk" --checked --emit=cuda -o "$out/checked.cu" >"$out/log" 2>&1 ||
     ! nvcc -cubin -arch=sm_90 -Werror all-warnings -o "$out/checked.o" "$out/checked.cu" >>"$out/log" 2>&1; then
    echo "FAIL $pyk: nvcc rejects its checked CUDA C++:"; cat "$out/log"; return 0
  fi
  if ! pykc "$pyk" --checked --emit=ptx --arch=sm_90 -o "$out/checked.ptx" >"$out/log" 2>&1 ||
     ! ptxas -arch=sm_90 "$out/checked.ptx" -o "$out/checked.cubin" >>"$out/log" 2>&1; then
    echo "FAIL $pyk: its checked PTX does not assemble:"; cat "$out/log"; return 0
  fi
  if ! pykc "$pyk" --checked --emit=host -o "$out/checked-host" >"$out/log" 2>&1 ||
     ! compile_host "$out/checked-host" "$pyk" >>"$out/log" 2>&1; then
    echo "FAIL $pyk: its checked host code does not compile:"; cat "$out/log"; return 0
  fi
  if ! pykc "$pyk" --index-bits=32 --emit=cuda -o "$out/narrow.cu" >"$out/log" 2>&1 ||
     ! nvcc -cubin -arch=sm_90 -Werror all-warnings -o "$out/narrow.o" "$out/narrow.cu" >>"$out/log" 2>&1; then
    echo "FAIL $pyk: nvcc rejects its CUDA C++ with --index-bits=32:"; cat "$out/log"; return 0
  fi
  if ! pykc "$pyk" --index-bits=32 --emit=ptx --arch=sm_90 -o "$out/narrow.ptx" >"$out/log" 2>&1 ||
     ! ptxas -arch=sm_90 "$out/narrow.ptx" -o "$out/narrow.cubin" >>"$out/log" 2>&1; then
    echo "FAIL $pyk: its PTX with --index-bits=32 does not assemble:"; cat "$out/log"; return 0
  fi
  if ! pykc "$pyk" --index-bits=32 --emit=host -o "$out/narrow-host" >"$out/log" 2>&1 ||
     ! compile_host "$out/narrow-host" "$pyk" >>"$out/log" 2>&1; then
    echo "FAIL $pyk: its host code with --index-bits=32 does not compile:"; cat "$out/log"; return 0
  fi
  if [ ${#nvcc_relocatable[@]} -gt 0 ]; then
    local -a cubins=("$out/sm_90.cubin")
    local linked
    while IFS= read -r linked; do
      cubins+=("$out/linked${#cubins[@]}.cubin")
      if ! nvcc -cubin -arch=sm_90 -o "${cubins[-1]}" "$(dirname "$pyk")/$linked" >"$out/log" 2>&1; then
        echo "FAIL $pyk: nvcc rejects $linked:"; cat "$out/log"; return 0
      fi
    done < <(grep -o '"[^"]*\.cu"' "$pyk" | tr -d '"' | sort -u)
    if [ ${#cubins[@]} -gt 1 ] &&
       ! "$(dirname "$nvcc_path")/nvlink" -arch=sm_90 "${cubins[@]}" -o "$out/whole.cubin" >"$out/log" 2>&1; then
      echo "FAIL $pyk: its sm_90 code does not link with its .cu files':"; cat "$out/log"; return 0
    fi
  fi
  echo "PASS $pyk"
}
export -f check_one compile_host
pykc_path=$pykc nvcc_path=$nvcc ptxas_path=$ptxas
export pykc_path nvcc_path ptxas_path work root host_flags

find "$root/examples" "$root/tests/golden" "$root/tests/execution" "$root/tests/numba" -name '*.pyk' -print0 | sort -z |
  xargs -0 -n1 -P2 bash -c 'check_one "$0"' >"$work/results"

grep '^FAIL' -A20 "$work/results" || true
passed=$(grep -c '^PASS' "$work/results" || true)
failed=$(grep -c '^FAIL' "$work/results" || true)
echo "$passed passed, $failed failed"
[ "$passed" -gt 0 ] || { echo "FAIL: no .pyk file was accepted"; exit 1; }
[ "$failed" -eq 0 ]
