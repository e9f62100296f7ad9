# cmake -DPROGRAM=<lab02 demo> -DGPU=<profile> [-DCHECK_LOG=ON] -P model_lessons.cmake
#
# Lab 02's lessons under the simulator's performance model (docs/model.md),
# read from the numbers the demo prints with GPULAB_SIM_MODEL=<GPU>:
#   - parts 3 and 4 say their times are modeled, and the plot's note too;
#   - every row of the bandwidth table: pinned above pageable, both directions;
#   - one copy of the pieces' bytes takes less than the same bytes in 4 KiB pieces;
#   - with CHECK_LOG, the log kept on the device takes less than per-step logging.
# Every figure compared is modeled: none is a CPU wall-clock time.
set(ENV{GPULAB_SIM_MODEL} "${GPU}")
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}, expected 0 (PASS)")
endif()

foreach(part "== 3. what copies cost \\(modeled NVIDIA " "== 4. logging: [^\n]*\\(modeled NVIDIA ")
  if(NOT out MATCHES "${part}")
    message(FATAL_ERROR "the demo does not say its times are modeled: no match for ${part}")
  endif()
endforeach()
if(NOT out MATCHES "\n  plot: ([^\n]*/bandwidth\\.svg) ")
  message(FATAL_ERROR "the demo does not say where bandwidth.svg went")
endif()
file(READ "${CMAKE_MATCH_1}" svg)
if(NOT svg MATCHES "MODELED NVIDIA [^<]* figures, not measured" OR NOT svg MATCHES "SIMULATOR")
  message(FATAL_ERROR "bandwidth.svg does not say its figures are modeled by the simulator")
endif()

# The table: size, then GB/s for H2D pageable, H2D pinned, D2H pageable, D2H pinned.
set(num "([0-9]+\\.[0-9]+)")
string(REGEX MATCHALL "\n  [0-9]+ [KMG]?i?B +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+" rows "${out}")
list(LENGTH rows nrows)
if(nrows LESS 4)
  message(FATAL_ERROR "found ${nrows} rows of the bandwidth table, expected at least 4")
endif()
foreach(row IN LISTS rows)
  string(REGEX MATCH "\n  ([0-9]+ [KMG]?i?B) +${num} +${num} +${num} +${num}" _ "${row}")
  set(size "${CMAKE_MATCH_1}")
  if(NOT CMAKE_MATCH_2 LESS CMAKE_MATCH_3 OR NOT CMAKE_MATCH_4 LESS CMAKE_MATCH_5)
    message(FATAL_ERROR "${GPU}, ${size}: pinned (${CMAKE_MATCH_3}, ${CMAKE_MATCH_5} GB/s) is "
                        "not faster than pageable (${CMAKE_MATCH_2}, ${CMAKE_MATCH_4} GB/s)")
  endif()
endforeach()

if(NOT out MATCHES "pinned: one cudaMemcpy ${num} ms; [0-9]+ pieces of 4096 bytes ${num} ms")
  message(FATAL_ERROR "no line comparing one copy with 4 KiB pieces")
endif()
if(NOT CMAKE_MATCH_1 LESS CMAKE_MATCH_2)
  message(FATAL_ERROR "${GPU}: one copy (${CMAKE_MATCH_1} ms) is not faster than 4 KiB pieces "
                      "(${CMAKE_MATCH_2} ms)")
endif()

if(CHECK_LOG)
  if(NOT out MATCHES "every step : +${num} ms[^\n]*\n  log kept on the device, copied once: +${num} ms")
    message(FATAL_ERROR "no logging lines")
  endif()
  if(NOT CMAKE_MATCH_2 LESS CMAKE_MATCH_1)
    message(FATAL_ERROR "${GPU}: the log on the device (${CMAKE_MATCH_2} ms) is not faster than "
                        "per-step logging (${CMAKE_MATCH_1} ms)")
  endif()
endif()
message("${GPU}: pinned beats pageable in all ${nrows} rows; one copy beats 4 KiB pieces")
