#!/usr/bin/env bash
# Installs pyk from BUILD_DIR into a fresh prefix, then configures, builds and
# runs the consumer project against that prefix alone.
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
