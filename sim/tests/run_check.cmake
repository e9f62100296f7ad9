# Runs one program of the check corpus under GPULAB_SIM_CHECK and judges it:
#   cmake -DPROG=<plain program> -DSRC=<its .cu> [-DCLEAN=1] [-DGPULAB=<bin>/gpulab]
#         -P run_check.cmake
# The plain program must re-run itself as its check twin. With GPULAB, the
# program runs as a user runs it, under `gpulab sanitizer --tool TOOL
# --leak-check full --error-exitcode 1` (compute-sanitizer's options). A buggy program
# (// CHECK-EXPECT: lines) must produce every expected line, none matching a
# // CHECK-NOT: line, a nonzero ERROR SUMMARY and exit status 1; a correct
# one (// CHECK-CLEAN) must produce "ERROR SUMMARY: 0 errors" and exit 0.
file(STRINGS "${SRC}" tool_line REGEX "^// CHECK-TOOL: " LIMIT_COUNT 1)
file(STRINGS "${SRC}" expects REGEX "^// CHECK-EXPECT: ")
file(STRINGS "${SRC}" nots REGEX "^// CHECK-NOT: ")
file(STRINGS "${SRC}" clean REGEX "^// CHECK-CLEAN" LIMIT_COUNT 1)
if(CLEAN)
  set(clean 1) # -DCLEAN=1: a correct program from elsewhere (the conformance suite)
endif()
file(STRINGS "${SRC}" devices_line REGEX "^// DEVICES: [0-9]+" LIMIT_COUNT 1)
string(REGEX REPLACE "^// CHECK-TOOL: *([a-z,]+).*" "\\1" tool "${tool_line}")
if(NOT tool)
  set(tool all)
endif()
set(env GPULAB_SIM_CHECK=${tool})
set(run "${PROG}")
if(GPULAB)
  set(env) # the tool sets the check mode
  set(run "${GPULAB}" sanitizer --tool ${tool} --leak-check full --error-exitcode 1
          --print-limit 0 "${PROG}")
endif()
if(devices_line)
  string(REGEX REPLACE "^// DEVICES: ([0-9]+).*" "\\1" n "${devices_line}")
  list(APPEND env GPULAB_SIM_DEVICES=${n})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=GPULAB_SIM_CHECK ${env} ${run}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
set(all "${out}${err}")
message("${all}")
if(NOT all MATCHES "gpulab-sim check mode")
  message(FATAL_ERROR "the check mode did not start (no check twin run?)")
endif()
if(clean)
  if(NOT all MATCHES "ERROR SUMMARY: 0 errors" OR NOT rc EQUAL 0)
    message(FATAL_ERROR "a correct program must give no report and exit 0 (exit ${rc})")
  endif()
  return()
endif()
if(NOT expects)
  message(FATAL_ERROR "${SRC} has neither CHECK-EXPECT nor CHECK-CLEAN lines")
endif()
foreach(line IN LISTS expects)
  string(REGEX REPLACE "^// CHECK-EXPECT: " "" regex "${line}")
  if(NOT all MATCHES "${regex}")
    message(FATAL_ERROR "expected a report matching: ${regex}")
  endif()
endforeach()
foreach(line IN LISTS nots)
  string(REGEX REPLACE "^// CHECK-NOT: " "" regex "${line}")
  if(all MATCHES "${regex}")
    message(FATAL_ERROR "a report must not match: ${regex}")
  endif()
endforeach()
if(NOT all MATCHES "ERROR SUMMARY: [1-9]" OR NOT rc EQUAL 1)
  message(FATAL_ERROR "a buggy program must end with a nonzero ERROR SUMMARY and exit 1 (exit ${rc})")
endif()
