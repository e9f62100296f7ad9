# The unit-rewrite-cli test: runs gpulab-sim-rewrite the way the build does.
#   cmake -DTOOL=<gpulab-sim-rewrite> -DCXX=<c++ compiler> -DWORKDIR=<scratch dir> -P check_cli.cmake
# 1. sample.cu rewritten with --traits must equal sample.expected.cpp, byte for byte;
# 2. that output must compile (c++ -fsyntax-only) against the stand-in fake_sim.h;
# 3. bad.cu must fail with status 1 and name each malformed launch by file:line.
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
message(STATUS "gpulab-sim-rewrite: sample output as expected and compiles; bad.cu rejected")
