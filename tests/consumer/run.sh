#!/usr/bin/env bash
# Installs pyk from BUILD_DIR into a fresh prefix, then configures, builds and
# runs the consumer project's programs against that prefix alone (saxpy:
# kernels as the docs use them; interop: beside the program's own CUDA
# runtime calls and DLPack tensors); then checks that a
# project with two kernel files of one name in a target fails to configure,
# naming both, and that a call of a kernel with a type none of its versions
# takes fails to compile, listing them; and that editing a file a kernel
# file imports rebuilds the kernels.
# usage: run.sh BUILD_DIR CONSUMER_SOURCE_DIR [CMAKE_ARG...]
# (CMAKE_ARGs: for the consumer's configuration, e.g. the sanitised build's
# compiler and flags.)
set -euo pipefail
build=$1 source=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" "$@" >/dev/null
cmake --build "$work/build"
"$work/build/saxpy"
"$work/build/interop"

# Two kernel files of one name in one target: a message naming both.
if cmake -S "$source/duplicate_names" -B "$work/duplicate" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" "$@" \
    >"$work/duplicate.log" 2>&1; then
  echo "FAIL: a target with two kernels.pyk files configured" >&2
  exit 1
fi
# (CMake wraps the message's lines: compare it with whitespace joined.)
if ! tr -s ' \n' '  ' <"$work/duplicate.log" |
    grep -q "has two kernel files named kernels.pyk: 'one/kernels.pyk' and 'two/kernels.pyk'"; then
  echo "FAIL: the duplicate-names message is not the expected one:" >&2
  cat "$work/duplicate.log" >&2
  exit 1
fi
echo "consumer: duplicate kernel file names rejected"

# A kernel of two versions called with a third type: a compile error at the
# call that shows both versions.
cmake -S "$source/wrong_overload" -B "$work/wrong_overload" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" "$@" >/dev/null
if cmake --build "$work/wrong_overload" >"$work/wrong_overload.log" 2>&1; then
  echo "FAIL: a call of scale_all with an int32 array compiled" >&2
  exit 1
fi
if ! grep -q "no matching function for call to .*scale_all" "$work/wrong_overload.log" ||
    ! grep -q "ArrayArgument<float, 1>" "$work/wrong_overload.log" ||
    ! grep -q "ArrayArgument<double, 1>" "$work/wrong_overload.log"; then
  echo "FAIL: the message for a call that matches no version is not the expected one:" >&2
  cat "$work/wrong_overload.log" >&2
  exit 1
fi
echo "consumer: a call matching no version of a kernel does not compile"

# A kernel file importing a device function from common.pyk: editing
# common.pyk rebuilds the kernels (pyk_add_kernels' DEPFILE).
cp -r "$source/imports" "$work/imports_src"
cmake -S "$work/imports_src" -B "$work/imports" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" "$@" >/dev/null
cmake --build "$work/imports" >/dev/null
before=$("$work/imports/imports")
sed -i 's/^SCALE = 2$/SCALE = 3/' "$work/imports_src/common.pyk"
cmake --build "$work/imports" >/dev/null
after=$("$work/imports/imports")
if [ "$before" != "imports: 2" ] || [ "$after" != "imports: 3" ]; then
  echo "FAIL: editing an imported file did not rebuild its kernels: '$before', then '$after'" >&2
  exit 1
fi
echo "consumer: editing an imported file rebuilds the kernels"
