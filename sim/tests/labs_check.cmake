# The labs' solutions in check mode: each lab's own run is registered by its
# declaration (gpulab_add_lab: <lab>-sim-solution-checked); here, the runs
# that plant a bug in a lab's solution and expect the check mode's report.
# Lab 03's solution without its bounds check (the lab's own test variant,
# built by labs/03_kernels/tests): memcheck stops vec_add_kernel at the read
# past the end, the harness exits with status 1 at the next checked call, and
# the buffers it would have freed are not reported as the student's leak.
if(EXISTS "${PROJECT_SOURCE_DIR}/solutions/03_kernels/kernels.cu")
  add_test(NAME lab03-sim-nobounds-no-leak-blame
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab03-nobounds-sim> -DARGS=--no-timing
                   -DEXPECT_RC=1
                   "-DEXPECT_REGEX=Invalid __global__ read of size 4 bytes.*at vec_add_kernel.*Leak check skipped: the program exited with status 1"
                   -DENV=GPULAB_SIM_CHECK=memcheck -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  set_tests_properties(lab03-sim-nobounds-no-leak-blame PROPERTIES
    LABELS "simcheck;sim;lab03" TIMEOUT 120 FAIL_REGULAR_EXPRESSION "Leaked [0-9]+ bytes")
endif()

# The labs' sim programs model a GPU by default (GPULAB_LAB_SIM_MODEL, t4):
# lab 03's demo prints modeled NVIDIA T4 times with nothing set, and none
# with GPULAB_SIM_MODEL=off.
if(IS_DIRECTORY "${PROJECT_SOURCE_DIR}/solutions/03_kernels" AND GPULAB_LAB_SIM_MODEL STREQUAL "t4")
  add_test(NAME lab03-sim-model-default
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab03-sim-solution> -DEXPECT_RC=0
                   "-DEXPECT_REGEX=modeled NVIDIA T4.*PASS"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  add_test(NAME lab03-sim-model-off
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab03-sim-solution> -DEXPECT_RC=0
                   -DENV=GPULAB_SIM_MODEL=off "-DEXPECT_REGEX=PASS"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  set_tests_properties(lab03-sim-model-default lab03-sim-model-off PROPERTIES
    LABELS "lab03;sim;model" TIMEOUT 300)
  set_tests_properties(lab03-sim-model-off PROPERTIES FAIL_REGULAR_EXPRESSION "modeled")
endif()
