# Precompiled headers for pyk's own libraries and test programs.
#
# Most of a pyk source file's compile time is spent parsing the same
# third-party headers again: the standard library (0.75 s a file at -O3),
# LLVM's IR headers (2 s a file in codegen/llvm) and GoogleTest (1.5 s a
# test file). Each target parses them once, into its own precompiled header,
# and every one of its files starts from it. Only third-party headers go in:
# a change to a pyk header rebuilds what includes it and no more, and each
# file still includes what it uses (the headers are force-included, so a
# missing #include goes unnoticed here; a build with
# -DPYK_PRECOMPILE_HEADERS=OFF shows it).
option(PYK_PRECOMPILE_HEADERS "Precompile the third-party headers pyk's sources include" ON)

set(PYK_PCH_STANDARD
  <algorithm> <cstdint> <cstdio> <cstring> <functional> <map> <memory> <optional> <set> <string>
  <string_view> <unordered_map> <utility> <vector>)
set(PYK_PCH_LLVM_SUPPORT
  <llvm/ADT/SmallVector.h> <llvm/ADT/StringRef.h> <llvm/Support/Casting.h> <llvm/Support/raw_ostream.h>)
set(PYK_PCH_LLVM_IR
  <llvm/IR/IRBuilder.h> <llvm/IR/Module.h> <llvm/IR/LLVMContext.h> <llvm/IR/Intrinsics.h>
  <llvm/IR/IntrinsicsNVPTX.h> <llvm/IR/InlineAsm.h> <llvm/Support/Error.h>)
set(PYK_PCH_THREADS <atomic> <chrono> <condition_variable> <mutex> <thread>)
set(PYK_PCH_GTEST <gtest/gtest.h>)
set(PYK_PCH_GMOCK <gmock/gmock.h>)

# pyk_precompile_headers(TARGET [STANDARD] [LLVM_SUPPORT] [LLVM_IR] [THREADS] [GTEST] [GMOCK])
# Precompiles the named groups of headers for TARGET's C++ files.
function(pyk_precompile_headers target)
  if(NOT PYK_PRECOMPILE_HEADERS)
    return()
  endif()
  set(headers "")
  foreach(group IN LISTS ARGN)
    list(APPEND headers ${PYK_PCH_${group}})
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
  # g++ 12 does not keep quiet, for code read back from a precompiled
  # header, the false warnings its optimiser gives inside libstdc++'s
  # std::string (GCC bugs 105329 and 105651: a memcpy's bound "exceeds
  # maximum object size" in `"text" + std::string`, in the inlined
  # char_traits::copy), which it suppresses there without one. These are
  # the same four middle-end string warnings as -Wno-restrict (PykWarnings);
  # clang's build (scripts/test-sanitized) keeps its own, and ASan checks
  # every access when the tests run.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-stringop-overflow -Wno-stringop-overread -Wno-array-bounds)
  endif()
endfunction()
