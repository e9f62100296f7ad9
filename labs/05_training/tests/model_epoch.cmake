# Lab 05 under the simulator's performance model (docs/model.md), in a small
# configuration (64 images, batch 32, sweep to 128):
#
#   cmake -DPROGRAM=<lab05-sim-solution> -DWORKDIR=<dir> -P model_epoch.cmake
#
# With GPULAB_SIM_MODEL=t4: the device epoch's row is timed by "modeled
# NVIDIA T4" and is shorter than the CPU trainer's epoch (CPU wall clock);
# the sweep's times say they are modeled, its transfer share falls as the
# batch grows (each row's at most the previous one's, the last below the
# first) while images/s rises; both plots exist and are named by absolute
# paths; no time is labelled as the simulator's CPU time where it is not.
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
file(REAL_PATH "${WORKDIR}" workdir)
set(ENV{GPULAB_SIM_MODEL} t4)
execute_process(COMMAND "${PROGRAM}" --images 64 --batch 32 --sweep-max 128
                WORKING_DIRECTORY "${workdir}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the demo with GPULAB_SIM_MODEL=t4 exited with ${rc}")
endif()

# The epoch: CPU (wall clock) against the device (modeled).
set(num "([0-9]+\\.[0-9]+)")
if(NOT out MATCHES "\n   CPU +${num} +[0-9]+ [^\n]*CPU wall clock \\(C \\+ OpenBLAS\\)")
  message(FATAL_ERROR "no CPU epoch row timed by the CPU wall clock")
endif()
set(cpu_s "${CMAKE_MATCH_1}")
if(NOT out MATCHES "\n   device +${num} +[0-9]+ +modeled NVIDIA T4: the steps' device time")
  message(FATAL_ERROR "no device epoch row timed by \"modeled NVIDIA T4\"")
endif()
set(dev_s "${CMAKE_MATCH_1}")
if(NOT dev_s LESS cpu_s)
  message(FATAL_ERROR "the device epoch (${dev_s} s, modeled NVIDIA T4) is not shorter than the CPU's (${cpu_s} s)")
endif()
message("epoch: device ${dev_s} s (modeled NVIDIA T4) < CPU ${cpu_s} s (CPU wall clock)")
foreach(re "time s +images/s +first loss +last loss +timed by"
           "modeled NVIDIA T4: the device epoch takes [0-9.]+ s, [0-9.]+x faster than the CPU trainer's"
           "times from CUDA events: modeled NVIDIA T4\n"
           "transfer share [0-9.]+% -> [0-9.]+%, images/s [0-9]+ -> [0-9]+ \\(modeled NVIDIA T4\\)"
           "PASS \\(sim backend, solution\\)")
  if(NOT out MATCHES "${re}")
    message(FATAL_ERROR "the demo's output does not match: ${re}")
  endif()
endforeach()
if(out MATCHES "measured by|simulator: CPU time")
  message(FATAL_ERROR "with the model on, no time may be labelled \"measured by\" or as the simulator's CPU time")
endif()

# The sweep: transfer share falls, images/s rises.
string(REGEX MATCHALL "\n +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+% +[0-9]+" rows "${out}")
list(LENGTH rows n_rows)
if(n_rows LESS 3)
  message(FATAL_ERROR "expected the sweep's rows for batches 32, 64 and 128, found ${n_rows}")
endif()
set(first "")
foreach(row IN LISTS rows)
  string(REGEX MATCH "([0-9]+) +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +([0-9.]+)% +([0-9]+)" _ "${row}")
  set(batch "${CMAKE_MATCH_1}")
  set(share "${CMAKE_MATCH_2}")
  set(ips "${CMAKE_MATCH_3}")
  message("sweep: batch ${batch}, transfer ${share}%, ${ips} images/s")
  if(first STREQUAL "")
    set(first "${share}")
    set(first_ips "${ips}")
  elseif(share GREATER prev)
    message(FATAL_ERROR "the transfer share rose from ${prev}% to ${share}% at batch ${batch}")
  endif()
  set(prev "${share}")
  set(last_ips "${ips}")
endforeach()
if(NOT prev LESS first)
  message(FATAL_ERROR "the transfer share did not fall: ${first}% at the smallest batch, ${prev}% at the largest")
endif()
if(NOT last_ips GREATER first_ips)
  message(FATAL_ERROR "images/s did not rise with the batch: ${first_ips} -> ${last_ips}")
endif()

# The plots, by absolute path, in this run's folder.
foreach(what "the shares" "images/s")
  if(NOT out MATCHES "plot of ${what}: (${workdir}/runs/[^\n]+\\.svg)\n")
    message(FATAL_ERROR "no plot of ${what} named by its absolute path under ${workdir}/runs")
  endif()
  set(svg_path "${CMAKE_MATCH_1}")
  file(READ "${svg_path}" svg)
  if(NOT svg MATCHES "<svg " OR NOT svg MATCHES "modeled NVIDIA T4")
    message(FATAL_ERROR "${svg_path} is not an SVG that says its times are modeled")
  endif()
endforeach()
