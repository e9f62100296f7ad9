# cmake -DPROG=<model-check-gpu-path-sim> -DSIM=<model-check-sim> -DOUT=<file.md>
#       -P check_gpu_path.cmake
# The GPU's code path of model-check, built on the simulator: with
# GPULAB_SIM_MODEL=t4 its "measured" events read the modeled T4 clock, the
# same the sim build reports, so it must match every case with the sim
# build's run, find every ratio 1.00 and every ranking alike, exit 0, and
# write the Markdown table.
file(REMOVE "${OUT}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env GPULAB_SIM_MODEL=t4 --unset=GPULAB_SIM_CHECK
                        --unset=GPULAB_SIM_STATS
                        "${PROG}" --quick --gpu t4 --reps 2 --sim "${SIM}" --out "${OUT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 280)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the GPU path exited with ${rc}")
endif()
string(REGEX MATCHALL "\n(lab0[2-5])  [^\n]*" rows "${out}")
list(LENGTH rows nrows)
if(nrows LESS 30)
  message(FATAL_ERROR "only ${nrows} case rows")
endif()
foreach(row IN LISTS rows)
  if(NOT row MATCHES " 1\\.00x$")
    message(FATAL_ERROR "a ratio is not 1.00: ${row}")
  endif()
endforeach()
if(NOT out MATCHES "${nrows} of ${nrows} cases modeled within 1.5x of measured")
  message(FATAL_ERROR "not every case is counted within 1.5x")
endif()
if(NOT out MATCHES "the model ranks every pair as the GPU does")
  message(FATAL_ERROR "the rankings differ")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "no table at ${OUT}")
endif()
file(READ "${OUT}" md)
string(REGEX MATCHALL "\n\\| lab0[2-5] \\| [^\n]* \\| 1\\.00 \\|" mdrows "${md}")
list(LENGTH mdrows nmd)
if(NOT nmd EQUAL nrows OR NOT md MATCHES "# Model validation: " OR md MATCHES "does not hold")
  message(FATAL_ERROR "the Markdown table has ${nmd} rows at 1.00 of ${nrows}, or a ranking fails")
endif()
message(STATUS "GPU path: ${nrows} cases, every ratio 1.00, rankings alike, table written")
