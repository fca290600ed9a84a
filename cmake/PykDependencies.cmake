# Finds the libraries pyk builds on. scripts/bootstrap installs all of them.

# ANTLR 4: the tool generates the parser into the build tree (never committed);
# the Debian runtime's CMake targets carry no include directory.
find_program(ANTLR4_TOOL antlr4 REQUIRED)
find_package(antlr4-runtime 4.9 CONFIG REQUIRED)
set(PYK_ANTLR4_INCLUDE_DIR /usr/include/antlr4-runtime)

# LLVM 19. find_package(LLVM 19) rejects 19.1, so pin the path and check the
# major version. Only the include path is taken from LLVM: its compile flags
# (-fno-exceptions, -std=c++14) must not leak into pyk.
find_package(LLVM REQUIRED CONFIG PATHS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "pyk needs LLVM 19, found ${LLVM_PACKAGE_VERSION}")
endif()
set(PYK_LLVM_TOOLS_DIR "${LLVM_TOOLS_BINARY_DIR}")

# LLVM is linked from its static component libraries, not the shared
# libLLVM: loading libLLVM.so runs the static initialisers of every LLVM
# component (~15 ms before main), which would dominate pykc's run time.
# Static linking of just these components starts in ~3 ms.
#   PykLLVMSupport: SourceMgr-style utilities, command line, casting.
#   PykLLVMCodegen: IR, passes, the NVPTX and host targets, linker, bitcode
#                   reader.
llvm_map_components_to_libnames(PYK_LLVM_SUPPORT_LIBS support)
add_library(PykLLVMSupport INTERFACE)
target_include_directories(PykLLVMSupport SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(PykLLVMSupport INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(PykLLVMSupport INTERFACE ${PYK_LLVM_SUPPORT_LIBS})

llvm_map_components_to_libnames(PYK_LLVM_CODEGEN_LIBS
  core passes linker bitreader target analysis nvptxcodegen nvptxdesc nvptxinfo
  ${LLVM_NATIVE_ARCH}codegen ${LLVM_NATIVE_ARCH}desc ${LLVM_NATIVE_ARCH}info)
add_library(PykLLVMCodegen INTERFACE)
target_link_libraries(PykLLVMCodegen INTERFACE PykLLVMSupport ${PYK_LLVM_CODEGEN_LIBS})

# Drop the unused parts of the static libraries from executables.
add_link_options(-Wl,--gc-sections)

# DLPack's header (Debian's libdlpack-dev): pyk/DLPack.h includes it, and
# only programs that use DLPack need it (the runtime library does not).
find_package(dlpack CONFIG REQUIRED)
