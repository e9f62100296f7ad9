# Runs one program of the check corpus without the check mode and judges it:
#   cmake -DPROG=<plain program> -DSRC=<its .cu> -P run_plain.cmake
# What a student sees who never set GPULAB_SIM_CHECK: the program must end
# with a normal exit (a signal means the simulator itself crashed) of status
# `// PLAIN-EXIT: n`, and its output must match every `// PLAIN-EXPECT: regex`
# line of the source.
file(STRINGS "${SRC}" exit_line REGEX "^// PLAIN-EXIT: [0-9]+" LIMIT_COUNT 1)
file(STRINGS "${SRC}" expects REGEX "^// PLAIN-EXPECT: ")
if(NOT exit_line OR NOT expects)
  message(FATAL_ERROR "${SRC} needs a // PLAIN-EXIT: line and // PLAIN-EXPECT: lines")
endif()
string(REGEX REPLACE "^// PLAIN-EXIT: ([0-9]+).*" "\\1" want_rc "${exit_line}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=GPULAB_SIM_CHECK "${PROG}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
set(all "${out}${err}")
message("${all}")
if(NOT rc MATCHES "^[0-9]+$")
  message(FATAL_ERROR "the program did not exit normally: ${rc}")
endif()
if(NOT rc EQUAL want_rc)
  message(FATAL_ERROR "the program exited with ${rc}, expected ${want_rc} (// PLAIN-EXIT)")
endif()
foreach(line IN LISTS expects)
  string(REGEX REPLACE "^// PLAIN-EXPECT: " "" regex "${line}")
  if(NOT all MATCHES "${regex}")
    message(FATAL_ERROR "expected output matching: ${regex}")
  endif()
endforeach()
