#!/usr/bin/env bash
# Every .pyk file in examples/ and tests/golden/ that pykc accepts must give
# CUDA C++ that nvcc compiles for sm_90 with no warning.
# usage: check_cuda_compiles.sh PYKC NVCC SOURCE_ROOT
set -euo pipefail
pykc=$1 nvcc=$2 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

compiled=0 failed=0
while IFS= read -r -d '' pyk; do
  cu="$work/$(basename "$pyk" .pyk).cu"
  if ! "$pykc" "$pyk" --emit=cuda -o "$cu" 2>/dev/null; then
    continue # rejected inputs are the diagnostics tests' business
  fi
  if "$nvcc" -c -arch=sm_90 -Werror all-warnings -o "$work/out.o" "$cu" 2>"$work/nvcc.log"; then
    compiled=$((compiled + 1))
  else
    echo "FAIL: nvcc rejects the CUDA C++ of $pyk:"
    cat "$work/nvcc.log"
    failed=$((failed + 1))
  fi
done < <(find "$root/examples" "$root/tests/golden" -name '*.pyk' -print0 | sort -z)

echo "$compiled passed, $failed failed"
[ "$compiled" -gt 0 ] || { echo "FAIL: no .pyk file was compiled"; exit 1; }
[ "$failed" -eq 0 ]
