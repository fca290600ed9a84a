#!/usr/bin/env bash
# Installs pyk from BUILD_DIR into a fresh prefix, then configures, builds and
# runs the consumer project against that prefix alone; then checks that a
# project with two kernel files of one name in a target fails to configure,
# naming both.
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
