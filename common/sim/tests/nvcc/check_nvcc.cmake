# The gpulab-nvcc test: builds a program from .cu, .c and .cpp files with the
# flags people pass to nvcc, runs it, and checks the errors it must give.
#   cmake -DNVCC=<gpulab-nvcc> -DWORKDIR=<scratch> -P check_nvcc.cmake
set(src "${CMAKE_CURRENT_LIST_DIR}")
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")

function(run_ok what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${src}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(run_fails what expect)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${src}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${what} should have failed:\n${out}${err}")
  endif()
  if(NOT err MATCHES "${expect}")
    message(FATAL_ERROR "${what}: expected an error matching '${expect}', got:\n${err}")
  endif()
endfunction()

set(want "nvcc-driver y\\[999\\]=2997 sum=10 twice=42 dot=14")

# 1. One command, every kind of input, nvcc's usual flags.
run_ok("compile and link" "${NVCC}" -O2 -std=c++17 -arch=sm_80 -gencode arch=compute_80,code=sm_80
       -lineinfo -Xcompiler -Wall,-Wextra -I inc -DSCALE=3 -o "${WORKDIR}/app"
       main.cu util.cu helper.c extra.cpp -lcublas -lcudart)
run_ok("the program" "${WORKDIR}/app")
if(NOT out MATCHES "${want}")
  message(FATAL_ERROR "the program printed:\n${out}\nexpected: ${want}")
endif()

# 2. Separate compilation: -c then link the object.
run_ok("compile util.cu alone" "${NVCC}" -c -I inc -DSCALE=3 util.cu -o "${WORKDIR}/util.o")
run_ok("link with the object" "${NVCC}" -I inc -o "${WORKDIR}/app2" main.cu "${WORKDIR}/util.o"
       helper.c extra.cpp -lcublas)
run_ok("the separately compiled program" "${WORKDIR}/app2")
if(NOT out MATCHES "${want}")
  message(FATAL_ERROR "the separately compiled program printed:\n${out}")
endif()

# 3. Kernels, extern __shared__ and launches in a quoted header.
run_ok("a kernel in a header" "${NVCC}" -o "${WORKDIR}/hdr" header_kernels.cu)
run_ok("the header program" "${WORKDIR}/hdr")
if(NOT out MATCHES "header-kernels 63 0 cudaSuccess")
  message(FATAL_ERROR "the header program printed:\n${out}")
endif()

# 4. The check twin carries a plain copy of the kernels (gpulab-sim-plain-copy):
# with the model on, the blocks its sample leaves out run it, a kernel of
# another file included; a file with a static __device__ variable gets no
# copy. The results are the same.
run_ok("a program with its kernels in two files" "${NVCC}" -o "${WORKDIR}/plain"
       plain_main.cu plain_kernels.cu plain_static.cu)
run_ok("the plain-copies program" "${CMAKE_COMMAND}" -E env GPULAB_SIM_MODEL=t4
       --unset=GPULAB_SIM_CHECK --unset=GPULAB_SIM_STATS "${WORKDIR}/plain")
if(NOT out MATCHES "plain-copies add_one 933 hits 128000 x 2 static 0 hits 64000")
  message(FATAL_ERROR "the plain-copies program printed:\n${out}${err}")
endif()
run_ok("the plain-copies program, checked" "${CMAKE_COMMAND}" -E env GPULAB_SIM_MODEL=t4
       GPULAB_SIM_CHECK=all --unset=GPULAB_SIM_STATS "${WORKDIR}/plain")
if(NOT out MATCHES "plain-copies add_one 0 hits 128000 x 2 static 0 hits 64000")
  message(FATAL_ERROR "under a check tool every block must run instrumented:\n${out}${err}")
endif()

# 5. What it cannot do: a one-line error each.
run_fails("an unknown option" "gpulab-nvcc: unknown option --frobnicate" "${NVCC}" --frobnicate main.cu)
run_fails("a library the simulator lacks" "curand is not part of the simulator" "${NVCC}"
          -I inc -DSCALE=3 main.cu util.cu helper.c extra.cpp -lcurand)
run_fails("a missing file" "gpulab-nvcc: nope.cu: no such file" "${NVCC}" nope.cu)
run_fails("PTX output" "-ptx is not supported" "${NVCC}" -ptx util.cu)
# 6. Compiler errors point at the student's file and line.
run_fails("a compile error" "broken.cu:5" "${NVCC}" -c broken.cu -o "${WORKDIR}/broken.o")
message(STATUS "gpulab-nvcc: all checks passed")
