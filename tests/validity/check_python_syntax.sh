#!/usr/bin/env bash
# LANGUAGE.md: every .pyk file is valid Python. Check it for each file in
# examples/ and tests/ that pykc accepts.
# usage: check_python_syntax.sh PYKC PYTHON3 SOURCE_ROOT
set -euo pipefail
pykc=$1 python=$2 root=$3

checked=0 failed=0
while IFS= read -r -d '' pyk; do
  if ! "$pykc" "$pyk" --emit=ir -o /dev/null 2>/dev/null; then
    continue
  fi
  if "$python" -c "import ast, sys; ast.parse(open(sys.argv[1], encoding='utf-8').read())" "$pyk"; then
    checked=$((checked + 1))
  else
    echo "FAIL: pykc accepts $pyk but Python does not parse it"
    failed=$((failed + 1))
  fi
done < <(find "$root/examples" "$root/tests" -name '*.pyk' -print0 | sort -z)

echo "$checked passed, $failed failed"
[ "$checked" -gt 0 ] || { echo "FAIL: pykc accepted no .pyk file"; exit 1; }
[ "$failed" -eq 0 ]
