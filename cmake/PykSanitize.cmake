# PYK_SANITIZE=ON: the sanitised build (scripts/test-sanitized builds it in
# build-sanitize/). Everything pyk compiles itself (the compiler, the runtime,
# the tests, the examples' C++) is built with AddressSanitizer (leaks
# included) and UndefinedBehaviorSanitizer, and undefined behaviour ends the
# program (-fno-sanitize-recover) instead of printing and going on.
# Assertions stay on (no NDEBUG), so a broken invariant fails loudly.
# The compiler's code also carries libFuzzer's coverage instrumentation
# (-fsanitize=fuzzer-no-link), for the fuzz target in tests/fuzz/.
#
# Needs clang (libFuzzer is clang's): configure with
# CMAKE_CXX_COMPILER=clang++-19 (and libclang-rt-19-dev installed).
# What is not built by this build is not instrumented: LLVM's and ANTLR's
# libraries, and the kernels' CPU code that pykc compiles.
option(PYK_SANITIZE "Build with ASan+UBSan and the libFuzzer target (clang only)" OFF)

if(PYK_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "PYK_SANITIZE needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++-19")
  endif()
  set(PYK_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  # -O1 and line tables only, after the build type's flags: what ASan
  # recommends, and all a sanitizer's stack needs (file and line); a third
  # less compile time than -O2 with full debug information.
  add_compile_options(${PYK_SANITIZE_FLAGS} -fno-omit-frame-pointer -UNDEBUG -O1 -gline-tables-only)
  add_link_options(${PYK_SANITIZE_FLAGS})
  # The ASan runtime as a shared library, for processes that are not built
  # here but load code built here (python3 loading the Numba cross-check's
  # shim): they run with it in LD_PRELOAD.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so
    OUTPUT_VARIABLE PYK_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
