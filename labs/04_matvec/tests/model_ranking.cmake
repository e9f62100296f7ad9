# Lab 04 under the simulator's performance model (docs/model.md): the
# coalesced versions are modeled faster than the thread-per-row one.
#
#   cmake -DPROGRAM=<lab04-sim-solution> -DWORKDIR=<dir> -P model_ranking.cmake
#
# 1. The demo with GPULAB_SIM_MODEL=t4 at its own shape (--matmul-n 64 keeps
#    the matmul short): every device row is timed by "modeled NVIDIA T4" with
#    the simulator's CPU time beside it; from the table, v2 < v1 and v3 < v1;
#    the speed-ups are printed beside the sector ratios; cublasSgemv is near
#    the bandwidth bound (at least 80% of the modeled device-to-device copy);
#    and the report (GPULAB_SIM_MODEL_REPORT) ranks the kernels the same way.
# 2. --validate (N = 4096 and the awkward shapes, every version on the same
#    shapes) under every GPU profile: from each report, v2 < v1 and v3 < v1.
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")

# The modeled_us of each matvec kernel in a report, as k1 k2 k3 in the caller.
function(read_report file)
  file(READ "${file}" json)
  string(JSON n LENGTH "${json}")
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${json}" ${i} name)
    string(JSON us GET "${json}" ${i} modeled_us)
    if(name MATCHES "^matvec_kernel([123])$")
      set(k${CMAKE_MATCH_1} "${us}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

function(expect_ranking what v1 v2 v3)
  if(NOT v1 OR NOT v2 OR NOT v3)
    message(FATAL_ERROR "${what}: a version's time is missing (v1 '${v1}', v2 '${v2}', v3 '${v3}')")
  endif()
  if(NOT v2 LESS v1 OR NOT v3 LESS v1)
    message(FATAL_ERROR "${what}: expected v2 < v1 and v3 < v1, got v1 ${v1}, v2 ${v2}, v3 ${v3}")
  endif()
  message("${what}: v1 ${v1}, v2 ${v2}, v3 ${v3}: v2 < v1, v3 < v1")
endfunction()

# 1. The demo on the T4.
set(ENV{GPULAB_SIM_MODEL} t4)
set(ENV{GPULAB_SIM_MODEL_REPORT} "${WORKDIR}/demo-t4.json")
execute_process(COMMAND "${PROGRAM}" --matmul-n 64 WORKING_DIRECTORY "${WORKDIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the demo with GPULAB_SIM_MODEL=t4 exited with ${rc}")
endif()
set(row_time " ([0-9]+\\.[0-9]+) ms  modeled NVIDIA T4 +[0-9.]+ GB/s +[0-9.]+% +[0-9.]+ ms ")
foreach(v 1 2 3)
  if(NOT out MATCHES "\n  v${v}: [^\n]*${row_time}")
    message(FATAL_ERROR "no v${v} row timed by \"modeled NVIDIA T4\" with the sim CPU time beside it")
  endif()
  set(t${v} "${CMAKE_MATCH_1}")
endforeach()
expect_ranking("the demo's table (modeled NVIDIA T4, ms)" "${t1}" "${t2}" "${t3}")
foreach(re "version +time  timed by +bandwidth of copy sim CPU time"
           "cudaMemcpy D2D of A [^\n]* ms  modeled NVIDIA T4 "
           "Modeled NVIDIA T4 \\(docs/model.md\\): v2 [0-9.]+x and v3 [0-9.]+x faster than v1"
           "v2 [0-9]+ \\([0-9]+ x [0-9.]+\\): [0-9.]+x fewer,\n  v3 [0-9]+ \\([0-9]+ x [0-9.]+\\): [0-9.]+x fewer"
           "cublasSgemv: [0-9.]+ GB/s modeled, (8[0-9]|9[0-9]|1[0-9][0-9])% of the modeled device-to-device copy's [^\n]*\n[^\n]*near the bandwidth bound"
           "Model figures, not measurements"
           "PASS \\(sim backend, solution\\)")
  if(NOT out MATCHES "${re}")
    message(FATAL_ERROR "the demo's output does not match: ${re}")
  endif()
endforeach()
if(out MATCHES "measured by|simulator CPU time")
  message(FATAL_ERROR "with the model on, no time may say \"measured by\" or \"simulator CPU time\"")
endif()
unset(k1)
unset(k2)
unset(k3)
read_report("${WORKDIR}/demo-t4.json")
expect_ranking("the demo's report (modeled NVIDIA T4, us in all)" "${k1}" "${k2}" "${k3}")

# 2. Every profile, on the quick validation's shapes.
foreach(gpu gtx1650 gtx1650-gddr6 gtx1650-super t4 l4 v100 v100-pcie rtx3060 rtx4090 a100-40gb a100-80gb a100-40gb-pcie a100-80gb-pcie h100-sxm h100-pcie h200)
  set(ENV{GPULAB_SIM_MODEL} ${gpu})
  set(ENV{GPULAB_SIM_MODEL_REPORT} "${WORKDIR}/validate-${gpu}.json")
  execute_process(COMMAND "${PROGRAM}" --validate WORKING_DIRECTORY "${WORKDIR}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--validate with GPULAB_SIM_MODEL=${gpu} exited with ${rc}:\n${out}${err}")
  endif()
  unset(k1)
  unset(k2)
  unset(k3)
  read_report("${WORKDIR}/validate-${gpu}.json")
  expect_ranking("--validate, GPULAB_SIM_MODEL=${gpu} (report, us in all)" "${k1}" "${k2}" "${k3}")
endforeach()
