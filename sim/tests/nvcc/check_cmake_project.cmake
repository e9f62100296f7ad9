# A user's own CMake project (cmake_project/) against the kit installed into a
# scratch prefix: CMake identifies gpulab-nvcc as NVIDIA's CUDA compiler,
# find_package(CUDAToolkit) resolves CUDA::cudart and CUDA::cublas to the
# simulator (never to a CUDA toolkit installed on the machine),
# find_package(gpulab) gives its imported targets, and the programs build
# (with CUDA_SEPARABLE_COMPILATION) and run.
#   cmake -DBUILD=<gpulab build> -DWORKDIR=<scratch> -DGENERATOR=<generator> -P check_cmake_project.cmake
set(prefix "${WORKDIR}/prefix")
set(bin "${WORKDIR}/build")
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")

function(run_ok what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

function(expect what text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected '${regex}' in:\n${text}")
  endif()
endfunction()

run_ok("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${prefix}")
# A clean environment: no CUDA compiler or toolkit chosen from outside.
run_ok("configuring the project" "${CMAKE_COMMAND}" -E env --unset=CUDACXX --unset=CUDAARCHS
       --unset=CUDAToolkit_ROOT --unset=CUDA_PATH
       "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}/cmake_project" -B "${bin}" -G "${GENERATOR}"
       "-DCMAKE_CUDA_COMPILER=${prefix}/bin/gpulab-nvcc" -DUSE_GPULAB_PACKAGE=ON
       "-DCMAKE_PREFIX_PATH=${prefix}")
expect("configure" "${out}" "The CUDA compiler identification is NVIDIA 12\\.4\\.0")
expect("configure" "${out}" "Found CUDAToolkit: ${prefix}/[^\n]* \\(found version \"12\\.4\\.0\"\\)")
# The default architecture CMake detects (from -v's "-arch compute_52") before
# the project sets its own.
file(STRINGS "${bin}/CMakeCache.txt" arch REGEX "^CMAKE_CUDA_ARCHITECTURES:")
expect("the detected architecture" "${arch}" "=52$")
file(STRINGS "${bin}/CMakeCache.txt" libs REGEX "^CUDA_(cudart|cublas)_LIBRARY:")
list(LENGTH libs n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "CUDA::cudart and CUDA::cublas were not both found:\n${libs}")
endif()
foreach(lib IN LISTS libs)
  expect("find_package(CUDAToolkit)" "${lib}" "=${prefix}/")
endforeach()
run_ok("building the project" "${CMAKE_COMMAND}" --build "${bin}" --verbose)
expect("building" "${out}" "-rdc=true")
expect("building" "${out}" "-dlink")
run_ok("the CUDA program" "${bin}/app")
expect("the CUDA program" "${out}" "cmake-app y\\[999\\]=2997 dot=14 nvcc=12\\.4")
run_ok("the C++ program on gpulab::cublas" "${bin}/host_only")
expect("the C++ program" "${out}" "host-only dot=14")
# The check mode on programs CMake built (each .cu object carries its check
# build; the link makes the twin): the planted bug found at its line, with
# gpulab sanitizer's exit statuses; the correct program (its kernel calls a
# __device__ function of another object) clean; a C++ program linked by the
# C++ compiler has no twin, and the tool says so with status 2.
set(sanitizer "${prefix}/bin/gpulab" sanitizer)
execute_process(COMMAND ${sanitizer} "${bin}/off_by_one" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("gpulab sanitizer off_by_one" "${out}${err}" "Invalid __global__ write of size 4 bytes")
expect("gpulab sanitizer off_by_one" "${err}" "at fill in [^=]*off_by_one\\.cu:9")
expect("gpulab sanitizer off_by_one" "${err}" "ERROR SUMMARY: [1-9][0-9]* errors?")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpulab sanitizer off_by_one: the program's own status 0 expected, got ${rc}")
endif()
execute_process(COMMAND ${sanitizer} --error-exitcode 3 "${bin}/off_by_one" RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "gpulab sanitizer --error-exitcode 3 off_by_one: status ${rc}, expected 3")
endif()
run_ok("gpulab sanitizer --tool all --leak-check full app" ${sanitizer} --tool all --leak-check full
       --error-exitcode 1 "${bin}/app")
execute_process(COMMAND ${sanitizer} "${bin}/host_only" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("gpulab sanitizer host_only" "${err}" "has no check build")
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "gpulab sanitizer host_only: status ${rc}, expected 2")
endif()
# The profilers on a program CMake built: ncu's report of its kernels, with
# counts from its check build; nsys's timeline with the kernels and the host's calls.
run_ok("gpulab ncu --set full app" "${prefix}/bin/gpulab" ncu --set full "${bin}/app")
expect("gpulab ncu app" "${out}" "Section: Memory Workload Analysis")
expect("gpulab ncu app" "${out}" "Global Load Sectors Per Request")
expect("gpulab ncu app" "${out}" "simulator's counts \\((counted|sampled)\\)")
run_ok("gpulab nsys profile app" "${prefix}/bin/gpulab" nsys profile -f true -o "${bin}/app-timeline"
       --stats true "${bin}/app")
expect("gpulab nsys profile app" "${out}" "cuda_gpu_kern_sum")
expect("gpulab nsys profile app" "${out}" "cudaLaunchKernel")
# The dependencies the build tool read name the real source, not a rewritten copy.
if(GENERATOR MATCHES "Ninja")
  run_ok("ninja -t deps" "${CMAKE_COMMAND}" --build "${bin}" -- -t deps)
  set(deps "${out}")
else()
  file(GLOB_RECURSE depfiles "${bin}/*main.cu.o.d")
  list(GET depfiles 0 depfile)
  file(READ "${depfile}" deps)
endif()
expect("the depfile" "${deps}" "cmake_project/main\\.cu")
if(deps MATCHES "gpulab-nvcc\\.")
  message(FATAL_ERROR "the depfile names a rewritten copy:\n${deps}")
endif()
message(STATUS "gpulab-nvcc with CMake: all checks passed")
