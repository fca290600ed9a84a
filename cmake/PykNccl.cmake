# NCCL, which the CUDA toolkit ships, for the programs that call it (the
# multi-GPU examples, and bench/gpu, which builds one of them): where
# nccl.h, libnccl and the CUDA runtime are found, the interface target
# pyk_nccl carries all three.
find_path(PYK_NCCL_INCLUDE_DIR nccl.h HINTS /usr/local/cuda/include)
find_library(PYK_NCCL_LIBRARY nccl HINTS /usr/local/cuda/lib /usr/local/cuda/lib64)
find_package(CUDAToolkit)
if(PYK_NCCL_INCLUDE_DIR AND PYK_NCCL_LIBRARY AND CUDAToolkit_FOUND AND NOT TARGET pyk_nccl)
  add_library(pyk_nccl INTERFACE)
  target_include_directories(pyk_nccl SYSTEM INTERFACE ${PYK_NCCL_INCLUDE_DIR})
  target_link_libraries(pyk_nccl INTERFACE ${PYK_NCCL_LIBRARY} CUDA::cudart)
endif()
