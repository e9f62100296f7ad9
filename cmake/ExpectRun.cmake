# cmake -DPROGRAM=<path> [-DARGS=<arg;...>] -DEXPECT_RC=<n> -DEXPECT_REGEX=<regex>
#       [-DENV=NAME=value;...] -P ExpectRun.cmake
# Runs PROGRAM with ARGS and the variables of ENV set, and fails unless it
# exits with EXPECT_RC and its stdout + stderr match EXPECT_REGEX.
# (Used by the labs' own tests.)
foreach(kv IN LISTS ENV)
  string(FIND "${kv}" "=" eq)
  string(SUBSTRING "${kv}" 0 ${eq} name)
  math(EXPR start "${eq} + 1")
  string(SUBSTRING "${kv}" ${start} -1 value)
  set(ENV{${name}} "${value}")
endforeach()
execute_process(COMMAND "${PROGRAM}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}, expected ${EXPECT_RC}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "the output of ${PROGRAM} does not match: ${EXPECT_REGEX}")
endif()
