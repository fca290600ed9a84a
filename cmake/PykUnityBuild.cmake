# Unity builds of pyk's own libraries and programs: CMake compiles their
# source files eight to a translation unit, so that the headers every file
# of a library includes (pyk's AST, types and IR, LLVM's ADTs, the standard
# library) are parsed and their templates instantiated once per eight files.
# For the frontend, IR and lowering libraries this halved the processor time
# of a build (276 s to 148 s on 2 cores), and the builds are half of a CI run.
#
# The files still compile on their own: PYK_UNITY_BUILD=OFF builds them one
# by one (an incremental build then recompiles one file, not its batch, and
# a missing #include shows). Generated sources are never batched: kernels'
# launch code and the CPU device's CUDA C++ are units of their own
# (pyk_add_kernels).
option(PYK_UNITY_BUILD "Compile pyk's source files in batches (CMake unity builds)" ON)
if(PYK_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
endif()
