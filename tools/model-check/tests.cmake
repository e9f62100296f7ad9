# model-check's tests (label model-check). The sim build's run and its
# options; the cuda build's run skips (77) where there is no GPU.
if(TARGET model-check-sim)
  # Every case on every profile, positive and ranked as the lessons say
  # (check_sim.cmake lists the cases it expects).
  add_test(NAME model-check-sim-quick
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:model-check-sim>
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR}/model-validation-quick.md
                   -P "${CMAKE_CURRENT_SOURCE_DIR}/check_sim.cmake")
  set_tests_properties(model-check-sim-quick PROPERTIES LABELS "model-check;sim;model" TIMEOUT 600)

  # Bad arguments: a clear message and status 2, before any work.
  add_test(NAME model-check-sim-unknown-profile
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:model-check-sim>
                   "-DARGS=--quick;--gpu;tesla-p100" -DEXPECT_RC=2
                   "-DEXPECT_REGEX=--gpu tesla-p100: no such profile; the profiles are gtx1650 gtx1650-gddr6 gtx1650-super t4 l4 v100 v100-pcie rtx3060 rtx4090 a100-40gb a100-80gb a100-40gb-pcie a100-80gb-pcie h100-sxm h100-pcie h200"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  add_test(NAME model-check-sim-unwritable-out
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:model-check-sim>
                   "-DARGS=--quick;--out;${CMAKE_CURRENT_BINARY_DIR}/no-such-folder/table.md"
                   -DEXPECT_RC=2
                   "-DEXPECT_REGEX=--out [^\n]*no-such-folder/table.md: cannot write [^\n]*: No such file or directory"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  add_test(NAME model-check-sim-unknown-option
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:model-check-sim>
                   "-DARGS=--fast" -DEXPECT_RC=2
                   "-DEXPECT_REGEX=--fast: unknown option, or its value is missing.*usage:"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  # The modeled side of docs/model-validation.md's comparison with published
  # figures, for the T4: the figures that page quotes (a change to the model
  # that moves them must update the page).
  add_test(NAME model-check-sim-published-t4
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:model-check-sim>
                   "-DARGS=--published;--gpu;t4" -DEXPECT_RC=0
                   "-DEXPECT_REGEX=modeled, never measured.*t4 +empty kernel <<<1, 1>>> +5\\.00\n.*t4 +cudaMemcpy H2D pinned, 32000000 bytes +2546\\.07 +12\\.57 GB/s.*t4 +cudaMemcpy D2H pinned, 32000000 bytes +2546\\.07 +12\\.57 GB/s.*t4 +cudaMemcpy H2D pageable, 32000000 bytes +5088\\.14 +6\\.29 GB/s.*t4 +cudaMemcpy D2D, 32000000 bytes \\(read \\+ write counted\\) +238\\.29 +268\\.58 GB/s"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  # docs/model-validation.md's corpus of published measurements: its modeled
  # column and statistics as the simulator gives them now (corpus.py).
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    add_test(NAME model-check-corpus
             COMMAND ${Python3_EXECUTABLE} "${CMAKE_CURRENT_SOURCE_DIR}/corpus.py"
                     --sim $<TARGET_FILE:model-check-sim>
                     --check "${PROJECT_SOURCE_DIR}/docs/model-validation.md")
    set_tests_properties(model-check-corpus PROPERTIES LABELS "model-check;sim;model" TIMEOUT 600)
  endif()
  # A corpus case that is not one: a clear message and status 2.
  add_test(NAME model-check-sim-bad-corpus-case
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:model-check-sim>
                   "-DARGS=--corpus;${CMAKE_CURRENT_SOURCE_DIR}/tests/bad_corpus.txt" -DEXPECT_RC=2
                   "-DENV=GPULAB_SIM_MODEL=t4"
                   "-DEXPECT_REGEX=corpus case .transpose sideways 1024 16 16. is not one"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  set_tests_properties(model-check-sim-bad-corpus-case PROPERTIES LABELS "model-check;sim;model"
                       TIMEOUT 60)
  # The lines a cuda run reads need the model on.
  add_test(NAME model-check-sim-tsv-needs-model
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:model-check-sim>
                   "-DARGS=--tsv;--quick" -DEXPECT_RC=2 "-DENV=GPULAB_SIM_MODEL=off"
                   "-DEXPECT_REGEX=--tsv needs the performance model on"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  set_tests_properties(model-check-sim-unknown-profile model-check-sim-unwritable-out
                       model-check-sim-published-t4
                       model-check-sim-unknown-option model-check-sim-tsv-needs-model
                       PROPERTIES LABELS "model-check;sim;model" TIMEOUT 60)
endif()

if(TARGET model-check-gpu-path-sim)
  # The GPU's code path, run on the simulator against the sim build (see
  # check_gpu_path.cmake): every case found, every ratio 1.00.
  add_test(NAME model-check-gpu-path-on-sim
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:model-check-gpu-path-sim>
                   -DSIM=$<TARGET_FILE:model-check-sim>
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR}/model-validation-gpu-path.md
                   -P "${CMAKE_CURRENT_SOURCE_DIR}/check_gpu_path.cmake")
  set_tests_properties(model-check-gpu-path-on-sim PROPERTIES LABELS "model-check;sim;model"
                       TIMEOUT 300)
endif()

if(TARGET model-check-cuda)
  # On a GPU: measured vs modeled, rankings the same on both (status 0).
  # Here without one: skipped.
  add_test(NAME model-check-cuda-quick COMMAND model-check-cuda --quick --reps 3)
  set_tests_properties(model-check-cuda-quick PROPERTIES LABELS "model-check;cuda;model"
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
  # Its arguments are checked before it looks for a GPU.
  add_test(NAME model-check-cuda-unknown-profile
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:model-check-cuda>
                   "-DARGS=--gpu;tesla-p100" -DEXPECT_RC=2
                   "-DEXPECT_REGEX=--gpu tesla-p100: no such profile; the profiles are gtx1650 gtx1650-gddr6 gtx1650-super t4"
                   -P "${PROJECT_SOURCE_DIR}/cmake/ExpectRun.cmake")
  set_tests_properties(model-check-cuda-unknown-profile PROPERTIES
                       LABELS "model-check;cuda;model" TIMEOUT 60)
endif()
