# gpulab_add_lab(<name>
#                DIR <folder>                  e.g. 03_kernels
#                HARNESS <file>...             files of labs/<folder> the student does not edit
#                STUDENT <file>...             files the student edits (TODO regions)
#                [LIBRARIES <lib>...]          extra libraries (gpulab_blas, ...)
#                [LABELS <label>...]           extra CTest labels
#                [DEMO_TEST]                   register the demo run of each program as a test
#                [STUDENT_DEMO_FAILS]          ... and expect the untouched starter's demo to fail
#                [LABS_ROOT <dir>]             default ${PROJECT_SOURCE_DIR}/labs
#                [SOLUTIONS_ROOT <dir>])       default ${PROJECT_SOURCE_DIR}/solutions
#
# Declares a lab program once and builds it for every enabled backend
# (GPULAB_BACKENDS) and both variants:
#
#   student   HARNESS and STUDENT files from labs/<folder>/
#   solution  HARNESS from labs/<folder>/, STUDENT files from solutions/<folder>/
#
# A target named <name> builds all of them; <name>-grading the student
# programs and what the lab adds to it for its checks (the grader's
# --submission builds that).
#
# Target and program names are <name>-<backend>-<variant>, all in build/bin/,
# so `ls build/bin` tells the four apart: lab03-cuda-student,
# lab03-cuda-solution, lab03-sim-student, lab03-sim-solution.
#
# The student variant's STUDENT files come from GPULAB_SUBMISSION_DIR/<folder>
# when that cache variable is set (the grader's --submission builds a
# student's copy of labs/ out of tree this way; the harness always comes from
# the kit). Without solutions/<folder> (a student's handout) only the student
# variant is built.
#
# Demo tests are labelled <name>, <backend>, <variant> and "demo", and skip
# (exit 77) where the backend has no usable device.
function(gpulab_add_lab name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "DEMO_TEST;STUDENT_DEMO_FAILS"
                        "DIR;LABS_ROOT;SOLUTIONS_ROOT" "HARNESS;STUDENT;LIBRARIES;LABELS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpulab_add_lab(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_DIR OR NOT arg_STUDENT)
    message(FATAL_ERROR "gpulab_add_lab(${name}): DIR and STUDENT are required")
  endif()
  if(NOT arg_LABS_ROOT)
    set(arg_LABS_ROOT "${PROJECT_SOURCE_DIR}/labs")
  endif()
  if(NOT arg_SOLUTIONS_ROOT)
    set(arg_SOLUTIONS_ROOT "${PROJECT_SOURCE_DIR}/solutions")
  endif()
  set(lab_dir "${arg_LABS_ROOT}/${arg_DIR}")
  set(sol_dir "${arg_SOLUTIONS_ROOT}/${arg_DIR}")
  set(submitted_dir "${lab_dir}")
  if(GPULAB_SUBMISSION_DIR)
    set(submitted_dir "${GPULAB_SUBMISSION_DIR}/${arg_DIR}")
  endif()
  set(variants student)
  if(IS_DIRECTORY "${sol_dir}")
    list(APPEND variants solution)
  endif()

  # `cmake --build build --target <name>` (and `make <name>`) builds them all;
  # <name>-grading builds what grading a student's copy needs: the student
  # programs, and whatever the lab adds to it (e.g. a reference tool its
  # checks run), which the grader's --submission builds.
  add_custom_target(${name})
  add_custom_target(${name}-grading)
  foreach(backend IN LISTS GPULAB_BACKENDS)
    foreach(variant IN LISTS variants)
      set(target "${name}-${backend}-${variant}")
      if(variant STREQUAL "student")
        set(student_dir "${submitted_dir}")
      else()
        set(student_dir "${sol_dir}")
      endif()
      set(files "")
      foreach(f IN LISTS arg_HARNESS)
        list(APPEND files "${lab_dir}/${f}")
      endforeach()
      foreach(f IN LISTS arg_STUDENT)
        list(APPEND files "${student_dir}/${f}")
      endforeach()
      set(present "")
      foreach(f IN LISTS files)
        if(EXISTS "${f}")
          list(APPEND present "${f}")
        elseif(GPULAB_SUBMISSION_DIR AND variant STREQUAL "student")
          # A submission without one of its files: the program is still
          # declared (tests and targets refer to it) but its build fails on
          # a stand-in that names the missing file, which the grader reports.
          file(RELATIVE_PATH rel "${GPULAB_SUBMISSION_DIR}" "${f}")
          set(stand_in "${CMAKE_BINARY_DIR}/gpulab-missing/${rel}")
          file(WRITE "${stand_in}" "#error \"the submission has no ${rel}\"\n")
          message(WARNING "gpulab_add_lab(${name}): the submission has no ${rel}")
          list(APPEND present "${stand_in}")
        else()
          message(FATAL_ERROR "gpulab_add_lab(${name}): ${f} does not exist")
        endif()
      endforeach()
      set(files "${present}")

      add_executable(${target})
      cmake_language(CALL gpulab_backend_${backend}_sources ${target} ${files})
      # The variant's own folder first, so its headers win over the harness's.
      target_include_directories(${target} PRIVATE "${student_dir}" "${lab_dir}")
      target_link_libraries(${target} PRIVATE gpulab_common_${backend} ${arg_LIBRARIES})
      target_compile_definitions(${target} PRIVATE
        GPULAB_LAB_NAME="${name}" GPULAB_VARIANT="${variant}")
      gpulab_target_warnings(${target})
      add_dependencies(${name} ${target})
      if(variant STREQUAL "student")
        add_dependencies(${name}-grading ${target})
      endif()
      if(backend STREQUAL "sim")
        gpulab_sim_check_twin(${target})
        add_dependencies(${name} ${target}.check)
        if(variant STREQUAL "student")
          add_dependencies(${name}-grading ${target}.check)
        endif()
      endif()

      if(arg_DEMO_TEST AND (variant STREQUAL "solution" OR arg_STUDENT_DEMO_FAILS))
        add_test(NAME ${target}-demo COMMAND ${target})
        set_tests_properties(${target}-demo PROPERTIES
          SKIP_RETURN_CODE 77
          LABELS "${name};${backend};${variant};demo;${arg_LABELS}"
          TIMEOUT 300)
        if(variant STREQUAL "student")
          # The untouched starter must fail its demo: proof the check can fail.
          set_tests_properties(${target}-demo PROPERTIES WILL_FAIL TRUE)
        endif()
      endif()
    endforeach()
  endforeach()
endfunction()
