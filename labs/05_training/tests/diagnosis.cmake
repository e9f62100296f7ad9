# Lab 05: diagnoses that point at the cause, and where a demo run's files go
# (label lab05). Included from labs/05_training/CMakeLists.txt.
#
# relubwd: the solution with relu_backward_kernel's test written y >= 0
# (every gradient passes, also where the ReLU output 0), built as a student
# program of its own. The forward pass and the loss are right, every
# gradient from the last ReLU down is wrong, conv.0.weight included. The
# demo must say where it starts (the ReLU after fc.2, relu_backward_kernel),
# not show conv.0.weight's difference first; the grader's reasons must name
# the same kernel, and the check under memcheck must say that memcheck found
# nothing and the gradients differ.
# The diagnosis itself (diagnose.c), from made-up layers and gradients.
add_executable(test-lab05-diagnose "${CMAKE_CURRENT_SOURCE_DIR}/tests/test_diagnose.c")
target_link_libraries(test-lab05-diagnose PRIVATE lab05_core)
target_include_directories(test-lab05-diagnose PRIVATE "${PROJECT_SOURCE_DIR}/common/tests")
set_target_properties(test-lab05-diagnose PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
gpulab_target_warnings(test-lab05-diagnose)
add_test(NAME lab05-diagnose COMMAND test-lab05-diagnose)
set_tests_properties(lab05-diagnose PROPERTIES LABELS "lab05;unit" TIMEOUT 60)

set(_l5_sol "${PROJECT_SOURCE_DIR}/solutions/05_training")
if(NOT "sim" IN_LIST GPULAB_BACKENDS OR NOT EXISTS "${_l5_sol}/kernels.cu")
  return()
endif()
set(_gen "${CMAKE_CURRENT_BINARY_DIR}/relubwd")
gpulab_write_slip("${_l5_sol}/kernels.cu" "${_gen}/kernels.cu"
                  "dx[i] = y[i] > 0.0f ? g : 0.0f;"
                  "dx[i] = y[i] >= 0.0f ? g : 0.0f; /* >= : test variant */")
gpulab_add_lab_test_program(lab05-relubwd-sim LAB lab05 VARIANT student BIN_DIR "${_gen}/bin"
  SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/main.c" "${CMAKE_CURRENT_SOURCE_DIR}/demo.c"
          "${CMAKE_CURRENT_SOURCE_DIR}/demo_step.c" "${CMAKE_CURRENT_SOURCE_DIR}/demo_sweep.c"
          "${CMAKE_CURRENT_SOURCE_DIR}/device_train.cu" "${CMAKE_CURRENT_SOURCE_DIR}/im2col.cu"
          "${_l5_sol}/to_device.cu"
          "${_gen}/kernels.cu"
  INCLUDES "${_gen}" "${CMAKE_CURRENT_SOURCE_DIR}"
  LIBRARIES lab05_core)

add_test(NAME lab05-sim-relubwd-demo-diagnosis
         COMMAND ${CMAKE_COMMAND} -DPROGRAM=${_gen}/bin/lab05-sim-student -DEXPECT_RC=1
                 "-DEXPECT_REGEX=fc\\.2\\.weight +[0-9]+ +[0-9.e+-]+ +[0-9.e+-]+ +DIFFERENT.*Where it starts: from the loss backwards, the first gradient that differs is at the input of the ReLU after fc\\.2 \\(layer 16 of 17; the gradient at its output matches\\): it is computed by relu_backward_kernel in kernels\\.cu\\.\n   gradient at the input of the ReLU after fc\\.2: [0-9]+ of [0-9]+ elements differ"
                 -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
# The old report's first detail was conv.0.weight's, far from the cause.
set_tests_properties(lab05-sim-relubwd-demo-diagnosis PROPERTIES
  LABELS "lab05;sim" TIMEOUT 300 FAIL_REGULAR_EXPRESSION "gradient of conv\\.0\\.weight"
  ENVIRONMENT GPULAB_SIM_MODEL=off)

add_test(NAME lab05-sim-relubwd-grade-diagnosis
         COMMAND ${CMAKE_COMMAND} -DGRADE=$<TARGET_FILE:gpulab-grade> -DLAB=lab05
                 -DBIN=${_gen}/bin -DWORKDIR=${_gen}/grade-test
                 "-DCHECKS=loss and every gradient;every parameter after Adam;under memcheck"
                 "-DREASONS=^grad_fc\\.2\\.[a-z]+: .* differ.* — from the loss backwards, the first gradients that differ are fc\\.2's, while fc\\.4's .* are right: .*the ReLU after fc\\.2 \\(relu_backward_kernel in kernels\\.cu\\);^param_fc\\.2\\.[a-z]+: .* differ.* — the gradients are already wrong: .*relu_backward_kernel in kernels\\.cu;^memcheck found no bad access, but the step's results differ from the CPU's: grad_fc\\.2\\..*relu_backward_kernel in kernels\\.cu"
                 -P "${CMAKE_CURRENT_SOURCE_DIR}/tests/check_reasons.cmake")
set_tests_properties(lab05-sim-relubwd-grade-diagnosis PROPERTIES LABELS "lab05;sim" TIMEOUT 600)

# Each demo run in a folder of its own (runs/<date>_<time>_<host>), named in
# the output by its absolute path.
if(TARGET lab05-sim-solution)
  add_test(NAME lab05-sim-run-folders
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab05-sim-solution>
                   -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/run-folders
                   -P "${CMAKE_CURRENT_SOURCE_DIR}/tests/run_folders.cmake")
  set_tests_properties(lab05-sim-run-folders PROPERTIES LABELS "lab05;sim" TIMEOUT 300
                       ENVIRONMENT GPULAB_SIM_MODEL=off)
endif()

# The demo's own test runs without the performance model (it checks the
# results, and the model makes lab 05's demo several times slower); the
# model's lessons have a small test of their own.
if(TARGET lab05-sim-solution)
  set_tests_properties(lab05-sim-solution-demo PROPERTIES ENVIRONMENT GPULAB_SIM_MODEL=off)
  add_test(NAME lab05-sim-model-epoch
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab05-sim-solution>
                   -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/model-epoch
                   -P "${CMAKE_CURRENT_SOURCE_DIR}/tests/model_epoch.cmake")
  set_tests_properties(lab05-sim-model-epoch PROPERTIES LABELS "lab05;sim;model" TIMEOUT 180)
endif()
