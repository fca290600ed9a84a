# pyk_add_kernels(TARGET <target> KERNELS a.pyk [b.pyk ...]
#                 [ARCH sm_80 [sm_90 ...]] [BACKEND ptx] [CHECKED]
#                 [INDEX_BITS 32] [SIGNATURES NAME "sig" [NAME "sig" ...]]
#                 [CPU_DEVICE_CODE cuda] [LINK functions.cu ...])
#
# Compiles each .pyk file with pykc at build time (again whenever it, or a
# file it imports, changes)
# into NAME.pyk.h, NAME.pyk.cpp (the launch functions, with the PTX embedded),
# NAME.pyk.cpu.o (the CPU device's code) and NAME.pyk.link.cpp (the CUDA C++
# files the kernels link, compiled for the CPU device), adds them to <target>, puts
# their directory on its include path and links pyk::runtime. The program
# then includes "NAME.pyk.h" and calls pyk::kernels::KERNEL(...).
#
# ARCH: the GPU architectures to target (default sm_75 sm_80 sm_90). Each gets
# a cubin (assembled by the toolkit's ptxas, when CMake finds it) that a GPU
# of that architecture, or a newer one of the same major version, loads
# without compiling anything; the embedded PTX, compiled for the first
# (oldest) one, is the fallback the driver JIT-compiles for other GPUs.
# BACKEND: ptx (default): the PTX comes from pykc's LLVM backend, no nvcc is
# needed. cuda: pykc writes NAME.pyk.cu (readable CUDA C++), nvcc compiles it
# to PTX at build time (relocatable, -rdc=true, so that calls to declared
# CUDA C++ functions link), and that PTX is embedded instead (needs the CUDA
# toolkit; find_package(CUDAToolkit) locates nvcc). Both export the same
# kernel names and run through the same runtime; the CPU device's code is
# the same in both.
# CHECKED: every kernel in checked mode (pykc --checked): array indices,
# integer division and asserts are checked at run time, and a failure raises
# pyk::KernelError after the launch (LANGUAGE.md, "Checked mode").
# INDEX_BITS 32: array element offsets in 32-bit arithmetic, which is faster
# on a GPU (pykc --index-bits=32); each launch then checks that every array
# argument has fewer than 2^31 elements (pyk::ShapeError). Default 64.
# CPU_DEVICE_CODE cuda: the CPU device runs the kernels' CUDA C++ instead of
# pykc's LLVM code: pykc writes NAME.pyk.cu and NAME.pyk.cpu.cpp (which
# includes it) in place of NAME.pyk.cpu.o, and the host's C++ compiler
# builds it against pyk/CudaOnCpu.h (pykc --cpu-device-code=cuda). Both
# codes run the same launches; pyk's tests run every kernel through both.
# SIGNATURES: type signatures of kernels, as pairs of a kernel's name and a
# signature in any form @cuda.jit takes ("void(float32[:], float32)",
# "(float32[::1], int32)"): the types of a lazily typed kernel (plain
# @cuda.jit, as most Numba kernels are), or more versions of a typed one; a
# name given several times gets a version per signature, and its launch
# function an overload per version (pykc --signature NAME=SIG). With several
# KERNELS files, a signature goes to the file that has `def NAME`.
# LINK: CUDA C++ files that define the device functions the kernels declare
# with cuda.declare_device (Numba's ABI), besides those `link=` names in the
# .pyk files (pykc --link). pykc compiles them with nvcc (relocatable PTX
# for each architecture) and links them with the kernels: each cubin with
# nvlink, the embedded PTX at load time by the driver's JIT linker. The
# CPU device runs them compiled for the host against pyk/CudaOnCpu.h
# (plain C++ and math).
function(pyk_add_kernels)
  cmake_parse_arguments(PARSE_ARGV 0 PYK "CHECKED" "TARGET;BACKEND;INDEX_BITS;CPU_DEVICE_CODE" "KERNELS;ARCH;SIGNATURES;LINK")
  if(NOT PYK_TARGET OR NOT TARGET ${PYK_TARGET})
    message(FATAL_ERROR "pyk_add_kernels: TARGET must name an existing target (got '${PYK_TARGET}')")
  endif()
  if(NOT PYK_KERNELS)
    message(FATAL_ERROR "pyk_add_kernels: KERNELS lists no .pyk file")
  endif()
  if(PYK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pyk_add_kernels: unknown arguments: ${PYK_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT PYK_BACKEND)
    set(PYK_BACKEND ptx)
  endif()
  if(NOT PYK_BACKEND MATCHES "^(ptx|cuda)$")
    message(FATAL_ERROR "pyk_add_kernels: BACKEND must be ptx or cuda, not '${PYK_BACKEND}'")
  endif()
  if(PYK_BACKEND STREQUAL "cuda")
    find_package(CUDAToolkit REQUIRED)
    find_program(PYK_NVCC_EXECUTABLE nvcc HINTS "${CUDAToolkit_BIN_DIR}" REQUIRED)
  endif()
  if(NOT PYK_CPU_DEVICE_CODE)
    set(PYK_CPU_DEVICE_CODE llvm)
  endif()
  if(NOT PYK_CPU_DEVICE_CODE MATCHES "^(llvm|cuda)$")
    message(FATAL_ERROR "pyk_add_kernels: CPU_DEVICE_CODE must be llvm or cuda, not '${PYK_CPU_DEVICE_CODE}'")
  endif()
  set(checked_flag "")
  if(PYK_CHECKED)
    set(checked_flag "--checked")
  endif()
  if(NOT PYK_INDEX_BITS)
    set(PYK_INDEX_BITS 64)
  endif()
  if(NOT PYK_INDEX_BITS MATCHES "^(32|64)$")
    message(FATAL_ERROR "pyk_add_kernels: INDEX_BITS must be 32 or 64, not '${PYK_INDEX_BITS}'")
  endif()
  # One list of the options that change the generated code, passed alike to
  # every pykc run of a kernel file (its CUDA C++, PTX and launch code
  # must agree).
  set(code_flags ${checked_flag} --index-bits=${PYK_INDEX_BITS})
  foreach(linked IN LISTS PYK_LINK)
    get_filename_component(linked_path "${linked}" ABSOLUTE)
    list(APPEND code_flags "--link=${linked_path}")
  endforeach()
  if(NOT PYK_ARCH)
    set(PYK_ARCH sm_75 sm_80 sm_90)
  endif()
  list(GET PYK_ARCH 0 ptx_arch)
  find_program(PYK_PTXAS_EXECUTABLE ptxas HINTS "$ENV{CUDA_HOME}/bin" /usr/local/cuda/bin)
  set(cubin_flag "")
  if(PYK_PTXAS_EXECUTABLE)
    list(JOIN PYK_ARCH "," cubin_archs)
    set(cubin_flag "--cubin=${cubin_archs}")
  endif()

  list(LENGTH PYK_SIGNATURES signature_words)
  math(EXPR odd "${signature_words} % 2")
  if(odd)
    message(FATAL_ERROR "pyk_add_kernels: SIGNATURES takes pairs of a kernel's name and a signature, as in "
                        "SIGNATURES scale \"void(float32[:], float32)\"")
  endif()
  list(LENGTH PYK_KERNELS kernel_files)
  set(signatures_used "")

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/pyk_kernels/${PYK_TARGET}")
  set(names_seen "")
  foreach(kernel IN LISTS PYK_KERNELS)
    get_filename_component(kernel_path "${kernel}" ABSOLUTE)
    # NAME of NAME.pyk as pykc takes it: all but the last extension
    # (vec.ops.pyk writes vec.ops.pyk.h).
    get_filename_component(name "${kernel}" NAME_WLE)
    # Two files of one name would write the same NAME.pyk.h into out_dir.
    list(FIND names_seen "${name}" seen_at)
    if(NOT seen_at EQUAL -1)
      list(GET PYK_KERNELS ${seen_at} first)
      message(FATAL_ERROR "pyk_add_kernels: target ${PYK_TARGET} has two kernel files named ${name}.pyk: "
                          "'${first}' and '${kernel}'; their launch headers would both be ${name}.pyk.h. "
                          "Rename one, or put them in two targets.")
    endif()
    list(APPEND names_seen "${name}")
    # This file's signatures: all of them when it is the only file (pykc
    # then reports a name it does not define), else those it has a `def` of.
    set(signature_flags "")
    if(signature_words GREATER 0)
      if(NOT kernel_files EQUAL 1)
        file(READ "${kernel_path}" kernel_text)
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${kernel_path}")
      endif()
      math(EXPR last "${signature_words} - 1")
      foreach(at RANGE 0 ${last} 2)
        math(EXPR next "${at} + 1")
        list(GET PYK_SIGNATURES ${at} signature_name)
        list(GET PYK_SIGNATURES ${next} signature_text)
        if(kernel_files EQUAL 1 OR kernel_text MATCHES "def[ \t]+${signature_name}[ \t]*\\(")
          list(APPEND signature_flags "--signature=${signature_name}=${signature_text}")
          list(APPEND signatures_used "${signature_name}")
        endif()
      endforeach()
    endif()
    list(APPEND code_flags_here ${code_flags} ${signature_flags})
    set(outputs "${out_dir}/${name}.pyk.h" "${out_dir}/${name}.pyk.cpp" "${out_dir}/${name}.pyk.link.cpp")
    if(PYK_CPU_DEVICE_CODE STREQUAL "cuda")
      list(APPEND outputs "${out_dir}/${name}.pyk.cpu.cpp")
      if(NOT PYK_BACKEND STREQUAL "cuda")
        list(APPEND outputs "${out_dir}/${name}.pyk.cu") # included by NAME.pyk.cpu.cpp
      endif()
    else()
      list(APPEND outputs "${out_dir}/${name}.pyk.cpu.o")
    endif()
    set(host_flags --cpu-device-code=${PYK_CPU_DEVICE_CODE})
    # The files the kernel file imports (pykc --depfile): editing one
    # recompiles it.
    set(depfile "${out_dir}/${name}.pyk.d")
    if(PYK_BACKEND STREQUAL "cuda")
      string(REPLACE "sm_" "compute_" virtual_arch "${ptx_arch}")
      set(cu "${out_dir}/${name}.pyk.cu")
      set(ptx "${out_dir}/${name}.pyk.ptx")
      add_custom_command(
        OUTPUT ${outputs} ${cu} ${ptx}
        COMMAND "${CMAKE_COMMAND}" -E make_directory "${out_dir}"
        COMMAND pyk::pykc "${kernel_path}" --emit=cuda ${code_flags_here} -o "${cu}"
        COMMAND "${PYK_NVCC_EXECUTABLE}" -rdc=true -ptx -arch=${virtual_arch} "${cu}" -o "${ptx}"
        COMMAND pyk::pykc "${kernel_path}" --emit=host ${code_flags_here} ${host_flags} ${cubin_flag} --arch=${ptx_arch}
                --embed-ptx "${ptx}"
                -o "${out_dir}"
                --depfile "${depfile}"
        DEPENDS "${kernel_path}" pyk::pykc
        DEPFILE "${depfile}"
        COMMENT "pykc ${name}.pyk (CUDA C++ through nvcc)"
        VERBATIM)
    else()
      add_custom_command(
        OUTPUT ${outputs}
        COMMAND pyk::pykc "${kernel_path}" --emit=host ${code_flags_here} ${host_flags} ${cubin_flag} --arch=${ptx_arch}
                -o "${out_dir}"
                --depfile "${depfile}"
        DEPENDS "${kernel_path}" pyk::pykc
        DEPFILE "${depfile}"
        COMMENT "pykc ${name}.pyk"
        VERBATIM)
    endif()
    set(code_flags_here "")
    target_sources(${PYK_TARGET} PRIVATE ${outputs})
    # Each generated file is a translation unit of its own, as pykc wrote it
    # (NAME.pyk.cpp repeats NAME.pyk.h's declarations, NAME.pyk.cpu.cpp is
    # CUDA C++): a unity build does not paste it into another.
    set_source_files_properties(${outputs} TARGET_DIRECTORY ${PYK_TARGET} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    if(PYK_CPU_DEVICE_CODE STREQUAL "llvm")
      set_source_files_properties("${out_dir}/${name}.pyk.cpu.o" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    endif()
  endforeach()
  if(signature_words GREATER 0 AND NOT kernel_files EQUAL 1)
    foreach(at RANGE 0 ${last} 2)
      list(GET PYK_SIGNATURES ${at} signature_name)
      if(NOT signature_name IN_LIST signatures_used)
        message(FATAL_ERROR "pyk_add_kernels: SIGNATURES gives a signature for '${signature_name}', but no file "
                            "in KERNELS has 'def ${signature_name}('")
      endif()
    endforeach()
  endif()
  target_include_directories(${PYK_TARGET} PRIVATE "${out_dir}")
  target_link_libraries(${PYK_TARGET} PRIVATE pyk::runtime)
endfunction()
