# Runs the model's test program under one GPU profile and judges it:
#   cmake -DPROG=<sim-model-timing-sim> -DGPU=<name> -DREPORT=<json> [-DPYTHON=<python3>]
#         -P model_check.cmake
# A known GPU: two runs print the same modeled times (the model is
# deterministic), the program's own checks pass (its ranking, and the T4's
# formula value), and the report (GPULAB_SIM_MODEL_REPORT) parses, with every
# field, and ranks the work as the sectors and bytes say (model_report_check.py).
# An unknown GPU: a message naming it and listing the valid names, and the
# program runs on without the model.
set(outs "")
foreach(run 1 2)
  file(REMOVE "${REPORT}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env GPULAB_SIM_MODEL=${GPU}
                          GPULAB_SIM_MODEL_REPORT=${REPORT} --unset=GPULAB_SIM_STATS
                          --unset=GPULAB_SIM_CHECK "${PROG}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the program exited with ${rc}")
  endif()
  if(NOT out MATCHES "PASS model_timing")
    message(FATAL_ERROR "the program's own checks failed")
  endif()
  list(APPEND outs "${out}")
endforeach()

if(GPU STREQUAL "nosuchgpu")
  foreach(want "GPULAB_SIM_MODEL=\"nosuchgpu\" is not a GPU the model knows"
               "t4 \\(NVIDIA T4\\)" "h200" "Running without the model")
    if(NOT err MATCHES "${want}")
      message(FATAL_ERROR "expected on stderr: ${want}")
    endif()
  endforeach()
  if(NOT out MATCHES "times \\(simulator CPU time\\)")
    message(FATAL_ERROR "without the model the times must say they are simulator CPU time")
  endif()
  if(EXISTS "${REPORT}")
    message(FATAL_ERROR "no report may be written when the model is off")
  endif()
  return()
endif()

list(GET outs 0 first)
list(GET outs 1 second)
if(NOT first STREQUAL second)
  message(FATAL_ERROR "two runs printed different modeled times")
endif()
if(NOT first MATCHES "times \\(modeled (NVIDIA|Tesla) ")
  message(FATAL_ERROR "modeled times must say \"modeled <GPU>\"")
endif()
if(NOT EXISTS "${REPORT}")
  message(FATAL_ERROR "GPULAB_SIM_MODEL_REPORT=${REPORT} was not written")
endif()
if(PYTHON)
  execute_process(COMMAND "${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/model_report_check.py"
                          "${REPORT}" "${first}"
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the report failed its checks")
  endif()
else()
  file(READ "${REPORT}" json)
  string(JSON n LENGTH "${json}")
  if(n LESS 5)
    message(FATAL_ERROR "the report has ${n} entries, expected at least 5")
  endif()
endif()
