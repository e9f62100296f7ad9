# Lab 03's own tests (label lab03), besides the demo tests of gpulab_add_lab.
# The scripts are shared with lab 01 (labs/01_devices/tests/).
set(_lab03_scripts "${PROJECT_SOURCE_DIR}/labs/01_devices/tests")
set(_lab03_sol "${PROJECT_SOURCE_DIR}/solutions/03_kernels/kernels.cu")

if("sim" IN_LIST GPULAB_BACKENDS AND TARGET lab03-sim-solution)
  # The solution's demo under the simulator's memcheck: not one report.
  add_test(NAME lab03-sim-solution-memcheck
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab03-sim-solution> -DARGS=--no-timing
                   -DEXPECT_RC=0 "-DEXPECT_REGEX=PASS.*ERROR SUMMARY: 0 errors"
                   -DENV=GPULAB_SIM_CHECK=memcheck -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  # The grader: the solution scores full marks, the starter less, with reasons.
  add_test(NAME lab03-sim-grade
           COMMAND ${CMAKE_COMMAND} -DGRADE=$<TARGET_FILE:gpulab-grade> -DLAB=lab03
                   -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/grade-test
                   -P "${PROJECT_SOURCE_DIR}/cmake/CheckLabGrades.cmake")
  set_tests_properties(lab03-sim-solution-memcheck lab03-sim-grade
                       PROPERTIES LABELS "lab03;sim" TIMEOUT 120)
endif()

# A kernel without its bounds check must fail the grader: the solution with
# vec_add_kernel's `if (i < n)` taken out, built as a student program of its
# own (tests/nobounds-bin/lab03-sim-student) and graded. Its memcheck checks
# must fail with the simulator's report, and the guard-region check (the one
# that also works on a GPU) must fail too.
if("sim" IN_LIST GPULAB_BACKENDS AND EXISTS "${_lab03_sol}")
  set(_gen "${CMAKE_CURRENT_BINARY_DIR}/nobounds")
  gpulab_write_slip("${_lab03_sol}" "${_gen}/kernels.cu"
                    "    if (i < n)\n        c[i] = a[i] + b[i];"
                    "    c[i] = a[i] + b[i]; /* no bounds check (test variant) */")
  gpulab_add_lab_test_program(lab03-nobounds-sim LAB lab03 VARIANT student
    BIN_DIR "${CMAKE_CURRENT_BINARY_DIR}/nobounds-bin"
    SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/main.c" "${_gen}/kernels.cu"
    INCLUDES "${_gen}" "${CMAKE_CURRENT_SOURCE_DIR}")

  add_test(NAME lab03-sim-nobounds-fails
           COMMAND ${CMAKE_COMMAND} -DGRADE=$<TARGET_FILE:gpulab-grade> -DLAB=lab03
                   -DBIN=${CMAKE_CURRENT_BINARY_DIR}/nobounds-bin -DMODE=labs
                   "-DEXPECT_FAIL_REGEX=^memcheck: Invalid __global__ (read|write) .* at vec_add_kernel"
                   "-DEXPECT_FAIL_CHECKS=N = 5466, 1024 threads;N = 1025, 1024 threads;guard region"
                   -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/nobounds-test
                   -P "${PROJECT_SOURCE_DIR}/cmake/CheckLabGrades.cmake")
  set_tests_properties(lab03-sim-nobounds-fails PROPERTIES LABELS "lab03;sim" TIMEOUT 120)
endif()

# Diagnoses that point at the cause: the solution with vec_add_kernel's index
# written as threadIdx.x * blockDim.x + blockIdx.x (blockIdx and threadIdx
# swapped), built as a student program of its own. Its grid is right, so
# neither the demo nor the grader may blame the grid (TODO 1, ceil_div): both
# must say that the threads cover c, which elements were never written, the
# block and thread that should have written the first, and that the index is
# swapped.
if("sim" IN_LIST GPULAB_BACKENDS AND EXISTS "${_lab03_sol}")
  set(_gen "${CMAKE_CURRENT_BINARY_DIR}/swapped")
  gpulab_write_slip("${_lab03_sol}" "${_gen}/kernels.cu"
                    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)\n"
                    "    int i = threadIdx.x * blockDim.x + blockIdx.x; /* swapped (test variant) */\n    if (i < n)\n")
  gpulab_add_lab_test_program(lab03-swapped-sim LAB lab03 VARIANT student
    BIN_DIR "${CMAKE_CURRENT_BINARY_DIR}/swapped-bin"
    SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/main.c" "${_gen}/kernels.cu"
    INCLUDES "${_gen}" "${CMAKE_CURRENT_SOURCE_DIR}")

  # The demo: N = 31 with 32 threads is one block that covers c; thread 1
  # writes c[32], past the end, so c[1] is the first element never written.
  add_test(NAME lab03-sim-swapped-demo-diagnosis
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=${CMAKE_CURRENT_BINARY_DIR}/swapped-bin/lab03-sim-student
                   -DARGS=--no-timing -DEXPECT_RC=1
                   "-DEXPECT_REGEX=  31       32        1         32        1   WRONG: 30 never written \\(TODO 2\\)\n   \\^ 30 elements were never written although the 1 x 32 = 32 threads cover all of c: the index maps threads to the wrong elements\\. c\\[1\\] belongs to block 0, thread 1: i = blockIdx\\.x \\* blockDim\\.x \\+ threadIdx\\.x = 0 \\* 32 \\+ 1 [^\n]*blockIdx\\.x and threadIdx\\.x are swapped"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  # The grader: the same diagnosis as reasons, the grid-stride and 2-D
  # checks (other kernels) still pass.
  add_test(NAME lab03-sim-swapped-grade-diagnosis
           COMMAND ${CMAKE_COMMAND} -DGRADE=$<TARGET_FILE:gpulab-grade> -DLAB=lab03
                   -DBIN=${CMAKE_CURRENT_BINARY_DIR}/swapped-bin -DMODE=labs
                   "-DEXPECT_FAIL_REGEX=^[0-9]+ elements were never written although the [0-9]+ x 32 = [0-9]+ threads cover all of c: .* blockIdx\\.x and threadIdx\\.x are swapped"
                   "-DEXPECT_FAIL_CHECKS=N = 31, 32 threads;N = 5466, 1024 threads"
                   "-DEXPECT_PASS_CHECKS=^grid-stride;^2-D grid"
                   -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/swapped-test
                   -P "${PROJECT_SOURCE_DIR}/cmake/CheckLabGrades.cmake")
  # Neither may blame the grid, which is right.
  set_tests_properties(lab03-sim-swapped-demo-diagnosis lab03-sim-swapped-grade-diagnosis
                       PROPERTIES LABELS "lab03;sim" TIMEOUT 120
                       FAIL_REGULAR_EXPRESSION "grid too small|grid is too small|TODO 1")
endif()

# The diagnosis of a wrong c (diagnose.h, shared by the demo and the
# grader), one way of being wrong at a time: a grid too small, an index that
# maps threads to the wrong elements (and the swap recognised), wrong values,
# a grid-stride kernel without its loop, a 2-D grid too small.
add_executable(test-lab03-diagnose "${CMAKE_CURRENT_SOURCE_DIR}/tests/test_diagnose.c")
target_include_directories(test-lab03-diagnose PRIVATE
  "${CMAKE_CURRENT_SOURCE_DIR}" "${PROJECT_SOURCE_DIR}/common/tests")
target_link_libraries(test-lab03-diagnose PRIVATE m)
set_target_properties(test-lab03-diagnose PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
gpulab_target_warnings(test-lab03-diagnose)
add_test(NAME lab03-diagnose COMMAND test-lab03-diagnose)
set_tests_properties(lab03-diagnose PROPERTIES LABELS "lab03;unit" TIMEOUT 60)

# The lesson under the performance model (docs/model.md), on every GPU
# profile: the kernel's modeled time beats the CPU loop from some N on, the
# demo names the modeled GPU beside the CPU wall clock, and the plot of time
# per element is written where it says (an absolute path). --quick stops at
# N = 2^22 (50 MiB per array: out of the CPU's caches, so the CPU loop runs at
# memory speed; the crossover is near 2^15 on every profile).
if("sim" IN_LIST GPULAB_BACKENDS AND TARGET lab03-sim-solution)
  foreach(gpu gtx1650 t4 rtx3060 rtx4090 a100 h100 h200)
    set(_dir "${CMAKE_CURRENT_BINARY_DIR}/model-${gpu}")
    file(MAKE_DIRECTORY "${_dir}")
    add_test(NAME lab03-sim-model-crossover-${gpu}
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab03-sim-solution> -DARGS=--quick
                     -DEXPECT_RC=0 -DENV=GPULAB_SIM_MODEL=${gpu}
                     "-DEXPECT_REGEX=kernel: modeled NVIDIA [^\n]*CPU loop: CPU wall clock\n.*Crossover: the kernel \\(modeled NVIDIA [^)]+\\) beats the CPU loop \\(CPU wall clock\\)\n   from N = 2\\^[0-9]+ = [0-9]+ on\\..*plot: /[^\n]*/model-${gpu}/launch_overhead\\.svg .*PASS"
                     -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
    set_tests_properties(lab03-sim-model-crossover-${gpu} PROPERTIES
      LABELS "lab03;sim;model" TIMEOUT 120 WORKING_DIRECTORY "${_dir}")
  endforeach()
  # With the model off the label says simulator CPU time, never "modeled".
  add_test(NAME lab03-sim-model-off-label
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab03-sim-solution> -DARGS=--quick
                   -DEXPECT_RC=0 -DENV=GPULAB_SIM_MODEL=off
                   "-DEXPECT_REGEX=kernel: simulator CPU time, [^\n]*\n   \\(sim backend: the kernel times are simulator CPU times"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  set_tests_properties(lab03-sim-model-off-label PROPERTIES LABELS "lab03;sim;model" TIMEOUT 120
                       WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/model-t4")
endif()
