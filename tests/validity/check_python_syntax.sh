#!/usr/bin/env bash
# LANGUAGE.md: every .pyk file is valid Python. Check it for each file in
# examples/ and tests/ that pykc accepts (one python3 parses them all).
# usage: check_python_syntax.sh PYKC PYTHON3 SOURCE_ROOT
set -euo pipefail
pykc=$1 python=$2 root=$3

accepted=()
while IFS= read -r -d '' pyk; do
  if "$pykc" "$pyk" --emit=ir -o /dev/null 2>/dev/null; then
    accepted+=("$pyk")
  fi
done < <(find "$root/examples" "$root/tests" -name '*.pyk' -print0 | sort -z)
[ "${#accepted[@]}" -gt 0 ] || { echo "FAIL: pykc accepted no .pyk file"; exit 1; }

"$python" - "${accepted[@]}" <<'PYTHON'
import ast
import sys

failed = 0
for path in sys.argv[1:]:
    try:
        with open(path, encoding="utf-8") as source:
            ast.parse(source.read(), path)
    except SyntaxError as error:
        print(f"FAIL: pykc accepts {path} but Python does not parse it: {error}")
        failed += 1
print(f"{len(sys.argv) - 1 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PYTHON
