# The backends a lab program is built for. Each backend <b> is an INTERFACE
# target gpulab_backend_<b> (what its programs compile and link with) plus a
# function gpulab_backend_<b>_sources(<target> <files>...) that adds lab
# sources to a target the way that backend compiles them. GPULAB_BACKENDS
# lists the enabled ones, in the order their programs are built.
#
#   cuda  nvcc, cudart and cuBLAS; runs on an NVIDIA GPU, exits 77 without one.

set(GPULAB_BACKENDS "")

if(GPULAB_HAVE_CUDA)
  list(APPEND GPULAB_BACKENDS cuda)
  add_library(gpulab_backend_cuda INTERFACE)
  target_link_libraries(gpulab_backend_cuda INTERFACE CUDA::cudart CUDA::cublas)
  target_compile_definitions(gpulab_backend_cuda INTERFACE
    GPULAB_BACKEND_CUDA=1 GPULAB_BACKEND_NAME="cuda")
  # Line info in device code for profilers and compute-sanitizer reports.
  target_compile_options(gpulab_backend_cuda INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)

  function(gpulab_backend_cuda_sources target)
    # .cu files compile with nvcc by their extension; .c and .cpp with the host compilers.
    target_sources(${target} PRIVATE ${ARGN})
  endfunction()
endif()
