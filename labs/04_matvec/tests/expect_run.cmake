# cmake -DPROGRAM=<path> -DEXPECT_RC=<n> -DEXPECT_REGEX=<regex> -P expect_run.cmake
# Runs PROGRAM (demo mode) and fails unless it exits with EXPECT_RC and its
# stdout + stderr match EXPECT_REGEX.
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}, expected ${EXPECT_RC}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "the output of ${PROGRAM} does not match: ${EXPECT_REGEX}")
endif()
