# Decides whether the cuda backend is built, and for which GPU architectures.
# Included after project() and before enable_language(CUDA), the last moment
# at which CMAKE_CUDA_ARCHITECTURES can still be defaulted.
#
#   GPULAB_CUDA=AUTO (default)  build the cuda backend whenever nvcc is found,
#                               GPU or not (the programs then exit 77 at run
#                               time on a machine without a usable GPU).
#   GPULAB_CUDA=ON              require the CUDA toolkit; stop with an error
#                               when nvcc cannot be found.
#   GPULAB_CUDA=OFF             never build the cuda backend.

set(GPULAB_CUDA "AUTO" CACHE STRING "Build the cuda backend: AUTO, ON or OFF")
set_property(CACHE GPULAB_CUDA PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${GPULAB_CUDA}" gpulab_cuda_mode)
if(NOT gpulab_cuda_mode MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "GPULAB_CUDA must be AUTO, ON or OFF (got '${GPULAB_CUDA}')")
endif()

# nvcc is often installed outside PATH; look in the usual place too.
if(NOT gpulab_cuda_mode STREQUAL "OFF" AND NOT DEFINED CMAKE_CUDA_COMPILER
   AND NOT DEFINED ENV{CUDACXX})
  find_program(GPULAB_NVCC nvcc PATHS /usr/local/cuda/bin /opt/cuda/bin NO_CACHE)
  if(GPULAB_NVCC)
    set(CMAKE_CUDA_COMPILER "${GPULAB_NVCC}" CACHE FILEPATH "CUDA compiler")
  endif()
endif()

# CMAKE_CUDA_ARCHITECTURES: a user's -DCMAKE_CUDA_ARCHITECTURES=... or CUDAARCHS
# always wins. Otherwise "native" when a GPU is visible, and with no GPU the
# documented list below, less what the installed nvcc cannot target.
function(gpulab_default_cuda_architectures nvcc out_var)
  execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                  RESULT_VARIABLE smi_rc OUTPUT_VARIABLE smi_out ERROR_QUIET)
  if(smi_rc EQUAL 0 AND smi_out MATCHES "[0-9]")
    set(${out_var} "native" PARENT_SCOPE)
    return()
  endif()
  # One entry per architecture; "-real" builds machine code only, the last
  # entry also embeds PTX so newer GPUs can JIT-compile it.
  set(wanted
      75-real    # Turing: T4, RTX 20xx, GTX 16xx (the oldest CUDA 13 supports)
      80-real    # Ampere data centre: A100, A30
      86-real    # Ampere consumer: RTX 30xx, A40, A10
      89-real    # Ada: RTX 40xx, L4, L40
      90-real    # Hopper: H100, H200
      100-real   # Blackwell data centre: B200
      120)       # Blackwell consumer: RTX 50xx (+ PTX for what comes after)
  execute_process(COMMAND "${nvcc}" --list-gpu-arch RESULT_VARIABLE list_rc
                  OUTPUT_VARIABLE supported ERROR_QUIET)
  set(result "")
  foreach(arch IN LISTS wanted)
    string(REGEX MATCH "^[0-9]+" num "${arch}")
    # Older nvcc (before --list-gpu-arch) is taken at its word for 75-90.
    if((list_rc EQUAL 0 AND supported MATCHES "compute_${num}([^0-9]|$)")
       OR (NOT list_rc EQUAL 0 AND num LESS_EQUAL 90))
      list(APPEND result "${arch}")
    endif()
  endforeach()
  if(NOT result)
    message(FATAL_ERROR "gpulab: ${nvcc} supports none of the architectures 75..120; "
                        "set -DCMAKE_CUDA_ARCHITECTURES=... yourself")
  endif()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

set(GPULAB_HAVE_CUDA OFF)
if(NOT gpulab_cuda_mode STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
      gpulab_default_cuda_architectures("${CMAKE_CUDA_COMPILER}" gpulab_archs)
      set(CMAKE_CUDA_ARCHITECTURES "${gpulab_archs}" CACHE STRING "CUDA architectures")
      message(STATUS "gpulab: CMAKE_CUDA_ARCHITECTURES defaulted to ${gpulab_archs}")
      set(GPULAB_CUDA_DEFAULT_ARCHS "${gpulab_archs}" CACHE INTERNAL "the no-GPU default list")
    endif()
    # The project's own test programs (not the labs) need every architecture
    # only where they can run: with the no-GPU default list they are built for
    # its first entry alone, which proves they compile at a seventh of the cost.
    set(GPULAB_CUDA_TEST_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
    if(CMAKE_CUDA_ARCHITECTURES STREQUAL "${GPULAB_CUDA_DEFAULT_ARCHS}"
       AND NOT CMAKE_CUDA_ARCHITECTURES STREQUAL "native")
      list(GET CMAKE_CUDA_ARCHITECTURES 0 GPULAB_CUDA_TEST_ARCHITECTURES)
    endif()
    set(GPULAB_HAVE_CUDA ON)
  elseif(gpulab_cuda_mode STREQUAL "ON")
    message(FATAL_ERROR
      "GPULAB_CUDA=ON but no CUDA compiler (nvcc) was found. Install the CUDA toolkit "
      "(Debian: nvidia-cuda-toolkit, or NVIDIA's cuda-toolkit packages), put nvcc on PATH "
      "or pass -DCMAKE_CUDA_COMPILER=/path/to/nvcc; or configure with -DGPULAB_CUDA=AUTO.")
  else()
    message(STATUS "gpulab: no nvcc found; the cuda backend is not built")
  endif()
endif()
