# Lab 04's own tests (label lab04), besides the demo tests of gpulab_add_lab.
set(_lab04_tests "${CMAKE_CURRENT_SOURCE_DIR}/tests")

if("sim" IN_LIST GPULAB_BACKENDS)
  set(_lab04_tests_list "")

  # These need solutions/, which a student's handout does not have. The
  # starter's test is here too: in a student's kit labs/ is the student's
  # work, and no test may expect it to be unfinished.
  if(TARGET lab04-sim-solution)
    # The untouched starter's demo fails, and says where the TODOs are.
    add_test(NAME lab04-sim-student-demo-hints
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab04-sim-student> -DEXPECT_RC=1
                     "-DEXPECT_REGEX=matvec_kernel1 in matvec.cu still the TODO.*matvec_kernel3 in matvec.cu still the TODO.*matmul_cublas in matmul.c.*FAIL \\(sim backend, student\\)"
                     -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
    list(APPEND _lab04_tests_list lab04-sim-student-demo-hints)

    # The solution's demo: every version validated, the table with the
    # simulator's sectors per warp load (v1 uncoalesced, v2 and v3 not), the
    # unsynchronized matmul loop labelled as such, then PASS.
    # Without the model (GPULAB_SIM_MODEL=off): times are the simulator's CPU
    # time and say so.
    set_tests_properties(lab04-sim-solution-demo PROPERTIES ENVIRONMENT GPULAB_SIM_MODEL=off
      PASS_REGULAR_EXPRESSION
      "v3: [^\n]* ok at every shape.*timed by.*sectors per warp load.*v1: one thread per row[^\n]*simulator CPU time[^\n]* 16\\.[0-9][0-9] \\(.*v2: one warp per row[^\n]*  [34]\\.[0-9][0-9] \\(.*Simulator figures.*clock read without synchronizing[^\n]*unsynchronized: WRONG.*after cudaDeviceSynchronize.*C \\(cublasSgemm against cblas_sgemm\\): all .*PASS \\(sim backend, solution\\)")

    # With the model: v2 and v3 modeled faster than v1, on the T4 in the demo
    # and on every profile from the report (tests/model_ranking.cmake).
    add_test(NAME lab04-sim-model-ranking
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:lab04-sim-solution>
                     -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/model-ranking
                     -P "${_lab04_tests}/model_ranking.cmake")
    set_tests_properties(lab04-sim-model-ranking PROPERTIES LABELS "lab04;sim;model" TIMEOUT 180)

    # The solution's kernels under the simulator's check mode (out-of-bounds
    # accesses, shared-memory races, divergent barriers, uninitialized reads):
    # no report, and the validation passes.
    add_test(NAME lab04-sim-solution-check-all
             COMMAND ${CMAKE_COMMAND} -E env GPULAB_SIM_CHECK=all
                     $<TARGET_FILE:lab04-sim-solution> --validate)
    set_tests_properties(lab04-sim-solution-check-all PROPERTIES
      PASS_REGULAR_EXPRESSION "ERROR SUMMARY: 0 errors"
      FAIL_REGULAR_EXPRESSION "FAIL|Invalid|Race|Barrier|Uninitialized")

    # The grader: the solution scores full marks, the starter less, with reasons.
    add_test(NAME lab04-sim-grade
             COMMAND ${CMAKE_COMMAND} -DGRADE=$<TARGET_FILE:gpulab-grade> -DLAB=lab04
                     -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/grade-test
                     -P "${PROJECT_SOURCE_DIR}/cmake/CheckLabGrades.cmake")

    list(APPEND _lab04_tests_list lab04-sim-solution-check-all lab04-sim-grade)
  endif()

  # v1-as-v2: the solution with v2 launching v1's kernel, built as a
  # "solution" in a folder of its own, must fail the coalescing check of v2.
  set(_sol "${PROJECT_SOURCE_DIR}/solutions/04_matvec")
  if(EXISTS "${_sol}/matvec.cu")
    set(_dir "${CMAKE_CURRENT_BINARY_DIR}/v1-as-v2")
    add_custom_command(OUTPUT "${_dir}/matvec.cu"
      COMMAND ${CMAKE_COMMAND} -DIN=${_sol}/matvec.cu -DOUT=${_dir}/matvec.cu
              -P "${_lab04_tests}/make_v1_as_v2.cmake"
      DEPENDS "${_sol}/matvec.cu" "${_lab04_tests}/make_v1_as_v2.cmake"
      COMMENT "lab04: the solution with v2 launching v1's kernel (a test of the coalescing check)"
      VERBATIM)
    # Named as the grader looks for a solution, in a folder of its own.
    gpulab_add_lab_test_program(lab04-sim-v1-as-v2 LAB lab04 VARIANT solution BIN_DIR "${_dir}/bin"
      SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/main.c" "${CMAKE_CURRENT_SOURCE_DIR}/bigmm.c"
              "${CMAKE_CURRENT_SOURCE_DIR}/reference.c" "${_dir}/matvec.cu" "${_sol}/matmul.c"
      INCLUDES "${CMAKE_CURRENT_SOURCE_DIR}" LIBRARIES gpulab_blas)
    add_test(NAME lab04-v1-as-v2-not-coalesced
             COMMAND ${CMAKE_COMMAND} -DGRADE=$<TARGET_FILE:gpulab-grade> -DLAB=lab04 -DMODE=solutions
                     "-DEXPECT_FAIL_REGEX=^v2 is not coalesced: 16\\.[0-9]+ sectors per warp load .* at most 5\\.00 allowed"
                     "-DEXPECT_FAIL_CHECKS=^v2 coalesced"
                     "-DEXPECT_PASS_CHECKS=^v3 coalesced;^v2 warp per row"
                     -DBIN=${_dir}/bin -DWORKDIR=${_dir}/grade-test
                     -P "${PROJECT_SOURCE_DIR}/cmake/CheckLabGrades.cmake")
    list(APPEND _lab04_tests_list lab04-v1-as-v2-not-coalesced)
  endif()
  if(_lab04_tests_list)
    set_tests_properties(${_lab04_tests_list} PROPERTIES LABELS "lab04;sim" TIMEOUT 120)
  endif()
endif()

# colmajor: the solution with matmul_cublas's call written the textbook
# column-major way on row-major data (B A instead of A B), built as a student
# program in a folder of its own. The square C = A A comes out right, a
# rectangular C does not, and both the demo and the grader must name the
# cause (row-major vs column-major), not only the symptom.
set(_lab04_sol "${PROJECT_SOURCE_DIR}/solutions/04_matvec")
if("sim" IN_LIST GPULAB_BACKENDS AND EXISTS "${_lab04_sol}/matmul.c")
  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/colmajor")
  add_custom_command(OUTPUT "${_dir}/matmul.c"
    COMMAND ${CMAKE_COMMAND} -DIN=${_lab04_sol}/matmul.c -DOUT=${_dir}/matmul.c
            -P "${_lab04_tests}/make_colmajor_matmul.cmake"
    DEPENDS "${_lab04_sol}/matmul.c" "${_lab04_tests}/make_colmajor_matmul.cmake"
    COMMENT "lab04: the solution with a column-major cublasSgemm call (a test of the diagnoses)"
    VERBATIM)
  gpulab_add_lab_test_program(lab04-sim-colmajor LAB lab04 VARIANT student BIN_DIR "${_dir}/bin"
    SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/main.c" "${CMAKE_CURRENT_SOURCE_DIR}/bigmm.c"
            "${CMAKE_CURRENT_SOURCE_DIR}/reference.c" "${_lab04_sol}/matvec.cu" "${_dir}/matmul.c"
    INCLUDES "${CMAKE_CURRENT_SOURCE_DIR}" LIBRARIES gpulab_blas)
  # The demo: the square product passes, the rectangular one fails with the cause.
  add_test(NAME lab04-sim-colmajor-demo-diagnosis
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=${_dir}/bin/lab04-sim-student
                   "-DARGS=--matmul-n;64" -DEXPECT_RC=1
                   "-DEXPECT_REGEX=C \\(cublasSgemm against cblas_sgemm\\): all 4096 elements close.*rectangular: [0-9]+ of 30000 elements differ.*hint: C is what cublasSgemm\\(N, N, n, m, k, A, n, B, k, C, n\\) gives.*row-major vs column-major.*FAIL \\(sim backend, student\\)"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  # The grader: the rectangular check fails with the symptom and the cause,
  # the square one and the mat-vec checks pass.
  add_test(NAME lab04-sim-colmajor-grade-diagnosis
           COMMAND ${CMAKE_COMMAND} -DGRADE=$<TARGET_FILE:gpulab-grade> -DLAB=lab04 -DMODE=labs
                   "-DEXPECT_FAIL_REGEX=^C: [0-9]+ of 30000 elements differ; first at .* — C is what cublasSgemm\\(N, N, n, m, k, A, n, B, k, C, n\\) gives: .*row-major vs column-major"
                   "-DEXPECT_FAIL_CHECKS=\\(300, 200\\) x \\(200, 100\\)"
                   "-DEXPECT_PASS_CHECKS=C = A A, 512 x 512;^v1 one thread per row"
                   -DBIN=${_dir}/bin -DWORKDIR=${_dir}/grade-test
                   -P "${PROJECT_SOURCE_DIR}/cmake/CheckLabGrades.cmake")
  set_tests_properties(lab04-sim-colmajor-demo-diagnosis lab04-sim-colmajor-grade-diagnosis
                       PROPERTIES LABELS "lab04;sim" TIMEOUT 300)
endif()

# The likely causes of a wrong u or C (diagnose.h, shared by the demo and the
# grader), from hand-made results: each known matmul slip recognised, nothing
# claimed for a result that fits none, the mat-vec hints.
add_executable(test-lab04-diagnose "${_lab04_tests}/test_diagnose.c")
target_include_directories(test-lab04-diagnose PRIVATE
  "${CMAKE_CURRENT_SOURCE_DIR}" "${PROJECT_SOURCE_DIR}/common/tests")
target_link_libraries(test-lab04-diagnose PRIVATE m)
set_target_properties(test-lab04-diagnose PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
gpulab_target_warnings(test-lab04-diagnose)
add_test(NAME lab04-diagnose COMMAND test-lab04-diagnose)
set_tests_properties(lab04-diagnose PROPERTIES LABELS "lab04;unit" TIMEOUT 60)
