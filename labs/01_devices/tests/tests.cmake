# Lab 01's own tests (label lab01), besides the demo tests of gpulab_add_lab.
set(_lab01_tests "${CMAKE_CURRENT_SOURCE_DIR}/tests")

if("sim" IN_LIST GPULAB_BACKENDS AND TARGET lab01-sim-solution)
  # Four simulated GPUs: the solution's report and fallbacks still match the kit's.
  add_test(NAME lab01-sim-solution-demo-4-devices
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab01-sim-solution> -DEXPECT_RC=0
                   "-DEXPECT_REGEX=Got GPU\\? yes: 4 usable devices.*Device 3:.*try_all_gpus\\(\\) = \\[cuda:0, cuda:1, cuda:2, cuda:3\\].*PASS"
                   -DENV=GPULAB_SIM_DEVICES=4 -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  # No simulated GPU: the demo names the reason and skips (77).
  add_test(NAME lab01-sim-solution-no-gpu
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab01-sim-solution> -DEXPECT_RC=77
                   "-DEXPECT_REGEX=Got GPU\\? no \\(no_device\\): .*sees no CUDA device.*try_gpu\\(0\\) = cpu.*skipped: no usable GPU for the sim backend: "
                   -DENV=GPULAB_SIM_DEVICES=0 -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  # The starter gives no reason: its demo says so and fails.
  add_test(NAME lab01-sim-student-no-gpu
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab01-sim-student> -DEXPECT_RC=1
                   "-DEXPECT_REGEX=MISSING reason.*TODO 1.*FAIL"
                   -DENV=GPULAB_SIM_DEVICES=0 -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  # The grader: the solution scores full marks, the starter less, with reasons.
  add_test(NAME lab01-sim-grade
           COMMAND ${CMAKE_COMMAND} -DGRADE=$<TARGET_FILE:gpulab-grade> -DLAB=lab01
                   -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/grade-test
                   -P "${PROJECT_SOURCE_DIR}/cmake/CheckLabGrades.cmake")
  set_tests_properties(lab01-sim-solution-demo-4-devices lab01-sim-solution-no-gpu
                       lab01-sim-student-no-gpu lab01-sim-grade
                       PROPERTIES LABELS "lab01;sim" TIMEOUT 120)
endif()

if("cuda" IN_LIST GPULAB_BACKENDS AND TARGET lab01-cuda-solution)
  # With every device hidden, the cuda program names why there is no GPU and
  # skips (77), on a machine with a GPU and on one without (no driver).
  add_test(NAME lab01-cuda-solution-no-gpu
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab01-cuda-solution> -DEXPECT_RC=77
                   "-DEXPECT_REGEX=Got GPU\\? no \\((no_driver|no_device|driver_too_old)\\): .*skipped: no usable GPU for the cuda backend: [a-z]"
                   -DENV=CUDA_VISIBLE_DEVICES= -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  set_tests_properties(lab01-cuda-solution-no-gpu PROPERTIES LABELS "lab01;cuda" TIMEOUT 120)
endif()
