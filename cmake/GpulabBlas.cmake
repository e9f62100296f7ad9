# OpenBLAS, the CPU reference BLAS of every lab (cblas_sgemv, cblas_sgemm, ...).
#
# Defines the interface target gpulab_blas: the library plus the directory of
# OpenBLAS's own cblas.h. The header is looked up explicitly because Debian's
# /usr/include/<arch>/cblas.h is an alternatives link that may point at
# another BLAS's header.

set(BLA_VENDOR OpenBLAS)
find_package(BLAS QUIET)
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(GPULAB_PC_OPENBLAS QUIET IMPORTED_TARGET openblas)
endif()

set(gpulab_openblas_missing
  "OpenBLAS was not found. On Debian or Ubuntu: sudo apt-get install libopenblas-dev "
  "(or run 'make deps'); elsewhere install OpenBLAS with its cblas.h and pass "
  "-DCMAKE_PREFIX_PATH=<its prefix>.")

find_path(GPULAB_CBLAS_INCLUDE_DIR
  NAMES cblas.h openblas_config.h
  HINTS ${GPULAB_PC_OPENBLAS_INCLUDE_DIRS}
  PATH_SUFFIXES openblas-pthread openblas openblas-openmp openblas-serial
  DOC "Directory of OpenBLAS's cblas.h")
if(NOT GPULAB_CBLAS_INCLUDE_DIR OR NOT EXISTS "${GPULAB_CBLAS_INCLUDE_DIR}/openblas_config.h")
  message(FATAL_ERROR "gpulab: OpenBLAS's cblas.h not found. " ${gpulab_openblas_missing})
endif()

add_library(gpulab_blas INTERFACE)
target_include_directories(gpulab_blas SYSTEM INTERFACE "${GPULAB_CBLAS_INCLUDE_DIR}")
if(BLAS_FOUND)
  target_link_libraries(gpulab_blas INTERFACE BLAS::BLAS)
elseif(GPULAB_PC_OPENBLAS_FOUND)
  target_link_libraries(gpulab_blas INTERFACE PkgConfig::GPULAB_PC_OPENBLAS)
else()
  message(FATAL_ERROR "gpulab: the OpenBLAS library not found. " ${gpulab_openblas_missing})
endif()
message(STATUS "gpulab: OpenBLAS headers in ${GPULAB_CBLAS_INCLUDE_DIR}")
