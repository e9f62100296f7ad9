# cmake -DPROG=<model-check-sim> -DOUT=<file.md> -P check_sim.cmake
# Runs the sim build on every profile at the quick sizes and fails unless:
# it exits 0; every case below has a row with a positive modeled time for
# each of the profiles, on stdout and in the Markdown table; and every
# ranking of the lessons is printed as holding on every profile.
file(REMOVE "${OUT}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=GPULAB_SIM_MODEL --unset=GPULAB_SIM_CHECK
                        --unset=GPULAB_SIM_STATS "${PROG}" --quick --out "${OUT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 580)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "model-check-sim exited with ${rc}")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "no Markdown table at ${OUT}")
endif()
file(READ "${OUT}" md)

set(cases
  "lab02 cudaMemcpy H2D pageable 4 KiB" "lab02 cudaMemcpy H2D pinned 4 KiB"
  "lab02 cudaMemcpy H2D pageable 1 MiB" "lab02 cudaMemcpy H2D pinned 1 MiB"
  "lab02 cudaMemcpy H2D pageable 8 MiB" "lab02 cudaMemcpy H2D pinned 8 MiB"
  "lab02 cudaMemcpy D2H pageable 4 KiB" "lab02 cudaMemcpy D2H pinned 4 KiB"
  "lab02 cudaMemcpy D2H pageable 1 MiB" "lab02 cudaMemcpy D2H pinned 1 MiB"
  "lab02 cudaMemcpy D2H pageable 8 MiB" "lab02 cudaMemcpy D2H pinned 8 MiB"
  "lab02 H2D pinned 4 MiB, one cudaMemcpy" "lab02 H2D pinned 4 MiB, 1024 x 4 KiB pieces"
  "lab02 cudaMemcpy D2D 8 MiB" "lab02 cudaMemset 8 MiB"
  "lab03 vec_add, n = 1048576, 256 threads a block"
  "lab03 vec_add_grid_stride, n = 1048576, 64 x 256"
  "lab03 mat_add, 1024 x 1024, 16 x 16 blocks"
  "lab04 matvec v1, N = 10000, M = 100" "lab04 matvec v2, N = 10000, M = 100"
  "lab04 matvec v3, N = 10000, M = 100" "lab04 cublasSgemv, N = 10000, M = 100"
  "lab05 relu_forward, 16 x 6 x 28 x 28" "lab05 relu_backward, 16 x 6 x 28 x 28"
  "lab05 bias_add, 16 x 6 x 28 x 28" "lab05 maxpool_forward, 16 x 6 x 28 x 28"
  "lab05 maxpool_backward, 16 x 6 x 28 x 28" "lab05 softmax_xent, 16 x 10"
  "lab05 adam_update, 30422 parameters"
  "lab05 cublasSgemm conv1, M = 6, N = 12544, K = 75"
  "lab05 cublasSgemm fc1, M = 16, N = 120, K = 64")
# A modeled time: positive, so not 0.00 (nor negative, nor nan).
set(profiles gtx1650 gtx1650-gddr6 gtx1650-super t4 l4 v100 v100-pcie rtx3060 rtx4090 a100-40gb a100-80gb a100-40gb-pcie a100-80gb-pcie h100-sxm h100-pcie h200)
list(LENGTH profiles nprof)
set(n 0)
foreach(c IN LISTS cases)
  string(REGEX REPLACE "^(lab0[0-9]) (.*)$" "\\1" lab "${c}")
  string(REGEX REPLACE "^(lab0[0-9]) (.*)$" "\\2" what "${c}")
  string(REGEX REPLACE "([.+*()^$?|\\[\\]])" "\\\\\\1" what_re "${what}")
  # One time per profile (CMake regexes allow 9 groups: no group per cell);
  # none of them 0.00.
  set(row "${lab} +${what_re}")
  foreach(i RANGE 1 ${nprof})
    string(APPEND row " +[0-9]+\\.[0-9][0-9]")
  endforeach()
  if(NOT out MATCHES "\n${row}\n" OR CMAKE_MATCH_0 MATCHES " 0\\.00[ \n]")
    message(FATAL_ERROR "no row with ${nprof} positive modeled times for: ${c}")
  endif()
  string(REGEX MATCHALL "\\| ${lab} \\| ${what_re} \\|[^\n]*" mdline "${md}")
  if(NOT mdline)
    message(FATAL_ERROR "the Markdown table has no row for: ${c}")
  endif()
  string(REGEX MATCHALL "\\| [0-9]+\\.[0-9][0-9]" cells "${mdline}")
  list(LENGTH cells ncells)
  if(NOT ncells EQUAL nprof OR mdline MATCHES "\\| 0\\.00 \\|")
    message(FATAL_ERROR "the Markdown row of ${c} needs ${nprof} positive times: ${mdline}")
  endif()
  math(EXPR n "${n} + 1")
endforeach()

# The lessons' rankings, each on each of the profiles.
foreach(rank "lab02 +cudaMemcpy H2D pinned 1 MiB < cudaMemcpy H2D pageable 1 MiB"
             "lab02 +cudaMemcpy H2D pinned 8 MiB < cudaMemcpy H2D pageable 8 MiB"
             "lab02 +cudaMemcpy D2H pinned 1 MiB < cudaMemcpy D2H pageable 1 MiB"
             "lab02 +cudaMemcpy D2H pinned 8 MiB < cudaMemcpy D2H pageable 8 MiB"
             "lab02 +H2D pinned 4 MiB, one cudaMemcpy < H2D pinned 4 MiB, 1024 x 4 KiB pieces"
             "lab04 +matvec v2, N = 10000, M = 100 < matvec v1, N = 10000, M = 100"
             "lab04 +matvec v3, N = 10000, M = 100 < matvec v1, N = 10000, M = 100")
  foreach(gpu IN LISTS profiles)
    if(NOT out MATCHES "${rank}: holds \\(modeled ${gpu}\\)")
      message(FATAL_ERROR "the ranking '${rank}' is not shown holding on ${gpu}")
    endif()
  endforeach()
endforeach()
if(out MATCHES "DOES NOT HOLD" OR NOT out MATCHES "Every ranking holds on every modeled GPU")
  message(FATAL_ERROR "a lesson's ranking does not hold on the model")
endif()
message(STATUS "model-check-sim: ${n} cases on ${nprof} profiles, every ranking holds")
