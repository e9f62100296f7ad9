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
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_lab03_sol}")
  file(READ "${_lab03_sol}" _src)
  set(_check "    if (i < n)\n        c[i] = a[i] + b[i];")
  string(FIND "${_src}" "${_check}" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "labs/03_kernels/tests: the bounds check of vec_add_kernel in ${_lab03_sol} "
                        "is no longer written as the no-bounds test expects:\n${_check}")
  endif()
  string(REPLACE "${_check}" "    c[i] = a[i] + b[i]; /* no bounds check (test variant) */" _src
                 "${_src}")
  set(_gen "${CMAKE_CURRENT_BINARY_DIR}/nobounds")
  file(WRITE "${_gen}/kernels.cu.new" "${_src}")
  configure_file("${_gen}/kernels.cu.new" "${_gen}/kernels.cu" COPYONLY)

  set(_t lab03-nobounds-sim)
  add_executable(${_t})
  gpulab_backend_sim_sources(${_t} "${CMAKE_CURRENT_SOURCE_DIR}/main.c" "${_gen}/kernels.cu")
  target_include_directories(${_t} PRIVATE "${_gen}" "${CMAKE_CURRENT_SOURCE_DIR}")
  target_link_libraries(${_t} PRIVATE gpulab_common_sim)
  target_compile_definitions(${_t} PRIVATE GPULAB_LAB_NAME="lab03" GPULAB_VARIANT="student")
  gpulab_target_warnings(${_t})
  set_target_properties(${_t} PROPERTIES OUTPUT_NAME lab03-sim-student
                        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/nobounds-bin")
  gpulab_sim_check_twin(${_t})
  add_dependencies(lab03 ${_t})

  add_test(NAME lab03-sim-nobounds-fails
           COMMAND ${CMAKE_COMMAND} -DGRADE=$<TARGET_FILE:gpulab-grade> -DLAB=lab03
                   -DBIN=${CMAKE_CURRENT_BINARY_DIR}/nobounds-bin -DMODE=labs
                   "-DEXPECT_FAIL_REGEX=^memcheck: Invalid __global__ (read|write) .* at vec_add_kernel"
                   "-DEXPECT_FAIL_CHECKS=N = 5466, 1024 threads;N = 1025, 1024 threads;guard region"
                   -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/nobounds-test
                   -P "${PROJECT_SOURCE_DIR}/cmake/CheckLabGrades.cmake")
  set_tests_properties(lab03-sim-nobounds-fails PROPERTIES LABELS "lab03;sim" TIMEOUT 120)
endif()
