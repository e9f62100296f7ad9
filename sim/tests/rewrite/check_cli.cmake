# The unit-rewrite-cli test: runs gpulab-sim-rewrite the way the build does.
#   cmake -DTOOL=<gpulab-sim-rewrite> -DCXX=<c++ compiler> -DWORKDIR=<scratch dir> -P check_cli.cmake
# 1. sample.cu rewritten with --traits must equal sample.expected.cpp, byte for byte;
# 2. that output must compile (c++ -fsyntax-only) against the stand-in fake_sim.h;
# 3. bad.cu must fail with status 1 and name each malformed launch by file:line;
# 4. --nvcc-checks: spaces.cu must fail with nvcc's errors, each once, and
#    --rdc must drop the one about a function defined in no file read.
set(data "${CMAKE_CURRENT_LIST_DIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
file(REMOVE "${WORKDIR}/sample.cpp" "${WORKDIR}/bad.cpp")

execute_process(COMMAND "${TOOL}" --traits sample.cu "${WORKDIR}/sample.cpp"
                WORKING_DIRECTORY "${data}" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpulab-sim-rewrite sample.cu failed (${rc}): ${err}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${WORKDIR}/sample.cpp"
                        "${data}/sample.expected.cpp" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${WORKDIR}/sample.cpp differs from ${data}/sample.expected.cpp")
endif()

if(CXX)
  execute_process(COMMAND "${CXX}" -std=c++17 -fsyntax-only -include "${data}/fake_sim.h"
                          -x c++ "${WORKDIR}/sample.cpp"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the rewritten sample does not compile:\n${err}")
  endif()
endif()

execute_process(COMMAND "${TOOL}" bad.cu "${WORKDIR}/bad.cpp"
                WORKING_DIRECTORY "${data}" RESULT_VARIABLE rc ERROR_VARIABLE err)
set(want "bad.cu:5: kernel launch needs 2 to 4 arguments between <<< and >>>, found 1\n"
         "bad.cu:7: kernel launch needs 2 to 4 arguments between <<< and >>>, found 5\n")
string(JOIN "" want ${want})
if(NOT rc EQUAL 1 OR NOT err STREQUAL want)
  message(FATAL_ERROR "bad.cu: want status 1 and\n${want}got status ${rc} and\n${err}")
endif()
if(EXISTS "${WORKDIR}/bad.cpp")
  message(FATAL_ERROR "bad.cu: an output was written despite the errors")
endif()

execute_process(COMMAND "${TOOL}" --headers --nvcc-checks spaces.cu "${WORKDIR}/spaces/spaces.cpp"
                WORKING_DIRECTORY "${data}" RESULT_VARIABLE rc ERROR_VARIABLE err)
set(want "ptxas fatal   : Unresolved extern function 'elsewhere(int)'\n"
         "spaces.cu(15): note: called from device code here but defined in no file of this compile. "
         "A __device__ function of another file needs -rdc=true (or -dc).\n"
         "spaces.cu(15): error: calling a __host__ function(\"on_host(int)\") from a __global__ function(\"k\") is not allowed\n"
         "spaces.cu(20): error: calling a __device__ function(\"from_header(int)\") from a __host__ function(\"main\") is not allowed\n"
         "3 errors detected in the compilation of \"spaces.cu\".\n")
string(JOIN "" want ${want})
if(NOT rc EQUAL 1 OR NOT err STREQUAL want)
  message(FATAL_ERROR "spaces.cu: want status 1 and\n${want}got status ${rc} and\n${err}")
endif()
execute_process(COMMAND "${TOOL}" --headers --nvcc-checks --rdc spaces.cu "${WORKDIR}/spaces/spaces.cpp"
                WORKING_DIRECTORY "${data}" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR err MATCHES "Unresolved" OR NOT err MATCHES "2 errors detected")
  message(FATAL_ERROR "spaces.cu --rdc: want the two calls and no unresolved function, got status ${rc} and\n${err}")
endif()
message(STATUS "gpulab-sim-rewrite: sample output as expected and compiles; bad.cu rejected; "
               "nvcc's execution-space errors reported")
