# gpulab_add_lab(<name>
#                DIR <folder>                  e.g. 03_kernels
#                HARNESS <file>...             files of labs/<folder> the student does not edit
#                STUDENT <file>...             files the student edits (TODO regions)
#                [LIBRARIES <lib>...]          extra libraries (gpulab_blas, ...)
#                [LABELS <label>...]           extra CTest labels
#                [DEMO_TEST]                   register the demo run of each program as a test
#                [STUDENT_DEMO_FAILS]          ... and expect the untouched starter's demo to fail
#                                              (in the instructor's kit only: see below)
#                [SIM_DEMO_PASS <regex>...]    what the sim solution's demo must print: the
#                                              pieces in this order (joined by ".*")
#                [SIM_DEMO_ENV <VAR=value>...] the environment of the sim solution's demo test
#                [GRADER_CHECKS <file>...]     the grader's checks of the lab, in its folder:
#                                              the first defines grade_lab_<name> (labs.h)
#                [GRADER_LIBRARIES <lib>...]   what those checks link (e.g. the lab's CPU code)
#                [CHECKED_API_ERRORS <regex>]  failing CUDA calls the solution makes on purpose,
#                                              which its check-mode run may report
#                [LABS_ROOT <dir>]             default ${PROJECT_SOURCE_DIR}/labs
#                [SOLUTIONS_ROOT <dir>])       default ${PROJECT_SOURCE_DIR}/solutions
#
# Declares a lab once: everything else reads this declaration. It builds the
# lab's program for every enabled backend (GPULAB_BACKENDS) and both variants:
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
# the kit). That program is compiled from copies in
# ${CMAKE_BINARY_DIR}/gpulab-submission/<folder> (the harness and the lab's
# headers, then the submission's headers and files, each checked by
# gpulab_submission_copy), the only lab folder on its include path. Without
# solutions/<folder> (a student's handout) only the student variant is built.
#
# The lab joins the kit's list of labs, the global property GPULAB_LABS (in
# the order declared), with GPULAB_LAB_<name>_FOLDER (its folder's name),
# GPULAB_LAB_<name>_GRADER_CHECKS and GPULAB_LAB_<name>_GRADER_LIBRARIES: the
# grader builds every lab's checks from them (grader/CMakeLists.txt), the docs
# render every lab's handout, and the solution's check-mode test
# (<name>-sim-solution-checked) is registered here. The checks always come
# from the kit's folder, never from a submission.
#
# Demo tests are labelled <name>, <backend>, <variant> and "demo", and skip
# (exit 77) where the backend has no usable device. A lab's own tests live in
# labs/<folder>/tests/CMakeLists.txt (its CMakeLists.txt ends with
# add_subdirectory(tests)); what they need of the demo test is said here
# (SIM_DEMO_PASS, SIM_DEMO_ENV), never patched there. Its test programs
# (gpulab_add_lab_test_program ... STUDENT) take the harness, include folder
# and libraries declared here. The starter's demo test
# (STUDENT_DEMO_FAILS) expects the untouched starter to fail, so it is
# registered only where the lab has its solution (the instructor's kit) and
# no submission is built: in a student's kit labs/ is the student's work,
# finished or not, and no test may depend on how far it has got.
#
# Two rules keep a student's build honest:
#   - GPULAB_WERROR never applies to the student's own programs (the student
#     variant where the kit has no solutions/<folder>, or a submission): a
#     warning is shown, but it does not stop `make labNN`. In the instructor's
#     kit the starters are the kit's code, and warnings in them are errors.
#   - A program whose sources (or the headers beside them) changed is deleted
#     before anything is compiled (the target <target>-stale-guard), so a
#     failed compile leaves no program behind, never the last good one.
# The GPU the labs' sim programs model by default (docs/model.md): their CUDA
# events then read the model's clock. GPULAB_SIM_MODEL in the environment
# overrides it (a name, or off); off here means simulator CPU time unless asked.
set(GPULAB_LAB_SIM_MODEL "t4" CACHE STRING
    "GPU the labs' sim programs model by default (a profile of docs/model.md: t4, l4, a100-40gb, h100-sxm, ...; or off)")
set(GPULAB_LAB_SIM_MODEL_SOURCE "${CMAKE_BINARY_DIR}/gpulab/lab_sim_model.c")
file(CONFIGURE OUTPUT "${GPULAB_LAB_SIM_MODEL_SOURCE}"
     CONTENT "/* Generated from GPULAB_LAB_SIM_MODEL: the GPU this lab program models on the sim backend\n * unless GPULAB_SIM_MODEL says otherwise. */\nconst char gpulab_sim_default_model[] = \"@GPULAB_LAB_SIM_MODEL@\";\n"
     @ONLY)

function(gpulab_add_lab name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "DEMO_TEST;STUDENT_DEMO_FAILS"
                        "DIR;LABS_ROOT;SOLUTIONS_ROOT;CHECKED_API_ERRORS"
                        "HARNESS;STUDENT;LIBRARIES;LABELS;SIM_DEMO_PASS;SIM_DEMO_ENV;GRADER_CHECKS;GRADER_LIBRARIES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpulab_add_lab(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_DIR OR NOT arg_STUDENT)
    message(FATAL_ERROR "gpulab_add_lab(${name}): DIR and STUDENT are required")
  endif()
  if(NOT arg_LABS_ROOT)
    set(arg_LABS_ROOT "${PROJECT_SOURCE_DIR}/labs")
    # A kit lab's name is its folder's number (lab03 for 03_kernels): `make lab03` and the
    # grader's --lab find it by that.
    string(REGEX MATCH "^[0-9][0-9]" number "${arg_DIR}")
    if(NOT number OR NOT name STREQUAL "lab${number}")
      message(FATAL_ERROR "gpulab_add_lab(${name}): a lab in labs/ is named lab<NN> after its "
                          "folder NN_name (DIR ${arg_DIR})")
    endif()
  endif()
  if(NOT arg_SOLUTIONS_ROOT)
    set(arg_SOLUTIONS_ROOT "${PROJECT_SOURCE_DIR}/solutions")
  endif()
  set(lab_dir "${arg_LABS_ROOT}/${arg_DIR}")
  set(sol_dir "${arg_SOLUTIONS_ROOT}/${arg_DIR}")
  # For the lab's test programs (gpulab_add_lab_test_program ... STUDENT).
  set(harness_paths "")
  foreach(f IN LISTS arg_HARNESS)
    list(APPEND harness_paths "${lab_dir}/${f}")
  endforeach()
  set_property(GLOBAL PROPERTY GPULAB_LAB_${name}_HARNESS "${harness_paths}")
  set_property(GLOBAL PROPERTY GPULAB_LAB_${name}_DIR "${lab_dir}")
  set_property(GLOBAL PROPERTY GPULAB_LAB_${name}_LIBRARIES "${arg_LIBRARIES}")
  get_property(known GLOBAL PROPERTY GPULAB_LABS)
  if(name IN_LIST known)
    message(FATAL_ERROR "gpulab_add_lab(${name}): a lab of that name is already declared")
  endif()
  set_property(GLOBAL APPEND PROPERTY GPULAB_LABS ${name})
  set_property(GLOBAL PROPERTY GPULAB_LAB_${name}_FOLDER "${arg_DIR}")
  set(checks "")
  foreach(f IN LISTS arg_GRADER_CHECKS)
    if(NOT EXISTS "${lab_dir}/${f}")
      message(FATAL_ERROR "gpulab_add_lab(${name}): GRADER_CHECKS ${lab_dir}/${f} does not exist")
    endif()
    list(APPEND checks "${lab_dir}/${f}")
  endforeach()
  set_property(GLOBAL PROPERTY GPULAB_LAB_${name}_GRADER_CHECKS "${checks}")
  set_property(GLOBAL PROPERTY GPULAB_LAB_${name}_GRADER_LIBRARIES "${arg_GRADER_LIBRARIES}")
  set(submitted_dir "${lab_dir}")
  if(GPULAB_SUBMISSION_DIR)
    set(submitted_dir "${GPULAB_SUBMISSION_DIR}/${arg_DIR}")
  endif()
  set(variants student)
  if(IS_DIRECTORY "${sol_dir}")
    list(APPEND variants solution)
  endif()
  if(GPULAB_SUBMISSION_DIR)
    # The student's compile sees a copy: the harness and the kit's headers of the lab, then the
    # submission's headers and files, each checked (gpulab_submission_copy); never the kit's
    # lab folder, whose ../.. is the kit (solutions/ among it).
    set(copy_dir "${CMAKE_BINARY_DIR}/gpulab-submission/${arg_DIR}")
    file(REMOVE_RECURSE "${copy_dir}")
    file(MAKE_DIRECTORY "${copy_dir}")
    file(GLOB kit_headers LIST_DIRECTORIES false "${lab_dir}/*.h" "${lab_dir}/*.cuh")
    foreach(f IN LISTS kit_headers arg_HARNESS)
      get_filename_component(f "${f}" ABSOLUTE BASE_DIR "${lab_dir}")
      get_filename_component(base "${f}" NAME)
      configure_file("${f}" "${copy_dir}/${base}" COPYONLY)
    endforeach()
    file(GLOB own_headers LIST_DIRECTORIES false "${submitted_dir}/*.h" "${submitted_dir}/*.cuh")
    foreach(f IN LISTS own_headers)
      get_filename_component(base "${f}" NAME)
      gpulab_submission_copy(${name} "${f}" "${copy_dir}/${base}")
    endforeach()
  endif()

  # `cmake --build build --target <name>` (and `make <name>`) builds them all;
  # <name>-grading builds what grading a student's copy needs: the student
  # programs, and whatever the lab adds to it (e.g. a reference tool its
  # checks run), which the grader's --submission builds.
  add_custom_target(${name})
  add_custom_target(${name}-grading)
  # The instruments the handouts run beside the lab's programs (`gpulab nsys
  # ... --svg`, `gpulab smi`: docs/tools.md).
  foreach(tool IN ITEMS gpulab-smi gpulab-trace)
    if(TARGET ${tool})
      add_dependencies(${name} ${tool})
    endif()
  endforeach()
  foreach(backend IN LISTS GPULAB_BACKENDS)
    foreach(variant IN LISTS variants)
      set(target "${name}-${backend}-${variant}")
      if(variant STREQUAL "student")
        set(student_dir "${submitted_dir}")
      else()
        set(student_dir "${sol_dir}")
      endif()
      set(files "")
      set(include_dirs "${student_dir}" "${lab_dir}")
      set(copied OFF) # the student's program of a submission: built from the copies
      if(GPULAB_SUBMISSION_DIR AND variant STREQUAL "student")
        set(copied ON)
        set(include_dirs "${copy_dir}")
      endif()
      set(present "")
      foreach(f IN LISTS arg_HARNESS)
        if(copied)
          cmake_path(GET f FILENAME base)
          list(APPEND present "${copy_dir}/${base}") # copied above
        else()
          list(APPEND files "${lab_dir}/${f}")
        endif()
      endforeach()
      foreach(f IN LISTS arg_STUDENT)
        list(APPEND files "${student_dir}/${f}")
      endforeach()
      foreach(f IN LISTS files)
        cmake_path(GET f FILENAME base)
        if(copied AND (EXISTS "${f}" OR IS_SYMLINK "${f}"))
          gpulab_submission_copy(${name} "${f}" "${copy_dir}/${base}")
          list(APPEND present "${copy_dir}/${base}")
        elseif(EXISTS "${f}")
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
      # The variant's own folder first, so its headers win over the harness's (a submission:
      # the one folder of copies, where its headers replaced the harness's).
      target_include_directories(${target} PRIVATE ${include_dirs})
      target_link_libraries(${target} PRIVATE gpulab_common_${backend} ${arg_LIBRARIES})
      target_compile_definitions(${target} PRIVATE
        GPULAB_LAB_NAME="${name}" GPULAB_VARIANT="${variant}")
      if(variant STREQUAL "student" AND (GPULAB_SUBMISSION_DIR OR NOT "solution" IN_LIST variants))
        gpulab_target_warnings(${target} NO_WERROR) # the student's own code
      else()
        gpulab_target_warnings(${target})
      endif()
      gpulab_lab_stale_guard(${target} DIRS ${include_dirs} FILES ${files})
      add_dependencies(${name} ${target})
      if(variant STREQUAL "student")
        add_dependencies(${name}-grading ${target})
      endif()
      if(backend STREQUAL "sim")
        target_sources(${target} PRIVATE "${GPULAB_LAB_SIM_MODEL_SOURCE}")
        gpulab_sim_check_twin(${target})
        if(TARGET ${target}.check)
          add_dependencies(${target}.check ${target}-stale-guard)
        endif()
        add_dependencies(${name} ${target}.check)
        if(variant STREQUAL "student")
          add_dependencies(${name}-grading ${target}.check)
        endif()
      endif()

      set(starter_demo_test OFF)
      if(arg_STUDENT_DEMO_FAILS AND "solution" IN_LIST variants AND NOT GPULAB_SUBMISSION_DIR)
        set(starter_demo_test ON)
      endif()
      if(arg_DEMO_TEST AND (variant STREQUAL "solution" OR starter_demo_test))
        add_test(NAME ${target}-demo COMMAND ${target})
        set_tests_properties(${target}-demo PROPERTIES
          SKIP_RETURN_CODE 77
          LABELS "${name};${backend};${variant};demo;${arg_LABELS}"
          TIMEOUT 300)
        if(variant STREQUAL "student")
          # The untouched starter must fail its demo: proof the check can fail.
          set_tests_properties(${target}-demo PROPERTIES WILL_FAIL TRUE)
        elseif(backend STREQUAL "sim")
          if(arg_SIM_DEMO_PASS)
            list(JOIN arg_SIM_DEMO_PASS ".*" pass)
            set_tests_properties(${target}-demo PROPERTIES PASS_REGULAR_EXPRESSION "${pass}")
          endif()
          if(arg_SIM_DEMO_ENV)
            set_tests_properties(${target}-demo PROPERTIES ENVIRONMENT "${arg_SIM_DEMO_ENV}")
          endif()
        endif()
      endif()
    endforeach()
  endforeach()

  # The solution under every check of the simulator's check mode: its demo and
  # every graded run the grader makes must give no report, but for the failing
  # CUDA calls it makes on purpose (CHECKED_API_ERRORS), each reported as
  # "Program hit ..." (sim/tests/run_lab_checked.cmake).
  if(BUILD_TESTING AND arg_GRADER_CHECKS AND "sim" IN_LIST GPULAB_BACKENDS
     AND "solution" IN_LIST variants AND NOT GPULAB_SUBMISSION_DIR)
    set(extra "")
    if(arg_CHECKED_API_ERRORS)
      set(extra "-DAPI_ERRORS=${arg_CHECKED_API_ERRORS}")
    endif()
    add_test(NAME ${name}-sim-solution-checked
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${name}-sim-solution>
                     -DGRADE=$<TARGET_FILE:gpulab-grade> -DLAB=${name}
                     -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/checked-${name} ${extra}
                     -P "${PROJECT_SOURCE_DIR}/sim/tests/run_lab_checked.cmake")
    set_tests_properties(${name}-sim-solution-checked PROPERTIES
      LABELS "simcheck;sim;${name}" TIMEOUT 1200)
  endif()
endfunction()

# gpulab_submission_copy(<lab> <file> <copy>)
#
# Copies one file of a submission to where its lab is compiled from, unless it
# could reach beyond the submission: a symbolic link, an #include (or
# #include_next, #import, #embed) of an absolute path, of a path with "..",
# naming solutions/, or by a macro, or an .incbin, or a call of one of the kit
# functions the lab names in GPULAB_SUBMISSION_FORBIDDEN (a regex of names: the
# work the lab asks for, e.g. lab 01's device query). Such a file is replaced by
# one that fails to compile, and the configure log says why in a line the
# grader takes as the lab's reason ("gpulab_add_lab(lab01): the submission's
# 01_devices/devices.c includes ...: refused ...").
function(gpulab_submission_copy lab file copy)
  file(RELATIVE_PATH rel "${GPULAB_SUBMISSION_DIR}" "${file}")
  set(refused "")
  set(rule "a student's file may include only the submission's own files and the kit's public "
           "headers, by name, never by a path that leaves its folder")
  if(IS_SYMLINK "${file}")
    set(refused "is a symbolic link")
  else()
    file(READ "${file}" text)
    string(REPLACE "\\\n" "" text "${text}")       # line splices
    string(REPLACE "%:" "#" text "${text}")           # the digraph of #
    string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" " " text "${text}") # comments
    string(REGEX MATCHALL "#[ \t]*(include_next|include|import|embed)[ \t]*[^\n]*" lines
           "${text}")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^#[ \t]*[a-z_]+[ \t]*" "" arg "${line}")
      string(REGEX REPLACE "//.*$" "" arg "${arg}")
      string(STRIP "${arg}" arg)
      if(NOT arg MATCHES "^(\"[^\"]*\"|<[^>]*>)$")
        set(refused "includes by a macro (${arg})")
      elseif(arg MATCHES "^./" OR arg MATCHES "\\.\\." OR arg MATCHES "solutions")
        set(refused "includes ${arg}")
      endif()
      if(refused)
        break()
      endif()
    endforeach()
    if(NOT refused AND text MATCHES "incbin")
      set(refused "uses .incbin")
    endif()
    # GPULAB_SUBMISSION_FORBIDDEN (set by a lab's CMakeLists.txt): kit functions whose work
    # the lab asks the student to write, which a submission may not call instead.
    string(REGEX REPLACE "//[^\n]*" "" code "${text}")
    if(NOT refused AND GPULAB_SUBMISSION_FORBIDDEN AND
       code MATCHES "(${GPULAB_SUBMISSION_FORBIDDEN})[ \t\r\n]*\\(")
      set(refused "calls the kit's ${CMAKE_MATCH_1}(), the work this lab asks you to write")
      set(rule "the kit's own function is the grader's answer key: write the lab's with the CUDA "
               "runtime")
    endif()
  endif()
  if(refused)
    string(REPLACE "\"" "'" said "${refused}")
    string(CONCAT rule ${rule})
    message(WARNING "gpulab_add_lab(${lab}): the submission's ${rel} ${said}: refused (${rule})")
    file(WRITE "${copy}" "#error \"the submission's ${rel} ${said}: refused\"\n")
  else()
    configure_file("${file}" "${copy}" COPYONLY)
  endif()
endfunction()

# gpulab_lab_stale_guard(<target> DIRS <dir>... FILES <file>...)
#
# Deletes <target>'s program and its check twin whenever one of FILES or a
# header (*.h, *.cuh) in one of DIRS is newer than the last build, before
# anything of <target> is compiled. A compile or link error then leaves no
# program at all in build/bin, never the previous one running old code under
# the new name. Nothing is deleted when nothing changed, so a build with no
# edits stays a no-op.
function(gpulab_lab_stale_guard target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "DIRS;FILES")
  set(deps ${arg_FILES})
  foreach(dir IN LISTS arg_DIRS)
    if(IS_DIRECTORY "${dir}")
      file(GLOB headers "${dir}/*.h" "${dir}/*.cuh")
      list(APPEND deps ${headers})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES deps)
  get_target_property(out_dir ${target} RUNTIME_OUTPUT_DIRECTORY)
  if(NOT out_dir)
    set(out_dir "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(program "${out_dir}/${target}${CMAKE_EXECUTABLE_SUFFIX}")
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/gpulab-stale-guard/${target}.stamp")
  file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/gpulab-stale-guard")
  add_custom_command(OUTPUT "${stamp}"
    COMMAND "${CMAKE_COMMAND}" -E rm -f "${program}" "${program}.check"
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS ${deps}
    COMMENT "${target}: sources changed; the old program is removed before the build"
    VERBATIM)
  add_custom_target(${target}-stale-guard DEPENDS "${stamp}")
  add_dependencies(${target} ${target}-stale-guard)
endfunction()

# gpulab_add_lab_test_program(<target>
#                             LAB <name>                   e.g. lab03
#                             VARIANT <student|solution>   the name the grader looks for
#                             BIN_DIR <dir>                a folder of its own
#                             [STUDENT <file>...]          the student files it is built from
#                             [SOURCES <file>...]
#                             [INCLUDES <dir>...] [LIBRARIES <lib>...])
#
# A test's own sim program: a lab built from other sources than labs/ or
# solutions/ (the solution with one deliberate slip, say), named
# <lab>-sim-<variant> in BIN_DIR as the grader and the demo tests expect,
# with its check-mode twin, built with the lab's target. With STUDENT, the
# program is the lab as gpulab_add_lab declared it (its HARNESS files, its
# folder on the include path after the STUDENT files' folders, its
# LIBRARIES) with these student files; SOURCES, INCLUDES and LIBRARIES add
# to that, or say it all without STUDENT.
function(gpulab_add_lab_test_program target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "LAB;VARIANT;BIN_DIR"
                        "STUDENT;SOURCES;INCLUDES;LIBRARIES")
  set(sources ${arg_SOURCES})
  set(includes ${arg_INCLUDES})
  set(libraries ${arg_LIBRARIES})
  if(arg_STUDENT)
    get_property(harness GLOBAL PROPERTY GPULAB_LAB_${arg_LAB}_HARNESS)
    get_property(lab_dir GLOBAL PROPERTY GPULAB_LAB_${arg_LAB}_DIR)
    get_property(lab_libraries GLOBAL PROPERTY GPULAB_LAB_${arg_LAB}_LIBRARIES)
    if(NOT lab_dir)
      message(FATAL_ERROR "gpulab_add_lab_test_program(${target}): no gpulab_add_lab(${arg_LAB}) before it")
    endif()
    foreach(f IN LISTS arg_STUDENT)
      get_filename_component(dir "${f}" DIRECTORY)
      list(APPEND includes "${dir}")
    endforeach()
    list(APPEND includes "${lab_dir}")
    list(REMOVE_DUPLICATES includes)
    list(APPEND sources ${harness} ${arg_STUDENT})
    list(APPEND libraries ${lab_libraries})
  endif()
  add_executable(${target})
  gpulab_backend_sim_sources(${target} ${sources} "${GPULAB_LAB_SIM_MODEL_SOURCE}")
  target_include_directories(${target} PRIVATE ${includes})
  target_link_libraries(${target} PRIVATE gpulab_common_sim ${libraries})
  target_compile_definitions(${target} PRIVATE
    GPULAB_LAB_NAME="${arg_LAB}" GPULAB_VARIANT="${arg_VARIANT}")
  gpulab_target_warnings(${target})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${arg_LAB}-sim-${arg_VARIANT}
                        RUNTIME_OUTPUT_DIRECTORY "${arg_BIN_DIR}")
  gpulab_sim_check_twin(${target})
  add_dependencies(${arg_LAB} ${target})
endfunction()

# gpulab_write_slip(<in> <out> <find> <replace>)
#
# At configure time, writes <in> to <out> with the one text <find> replaced
# by <replace> (a deliberate slip for a test), and stops with a message when
# <in> no longer holds <find>. <out> is rewritten only when it changes.
function(gpulab_write_slip in out find replace)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${in}")
  file(READ "${in}" text)
  string(FIND "${text}" "${find}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${in} no longer holds the text a test's slip replaces:\n${find}")
  endif()
  string(REPLACE "${find}" "${replace}" text "${text}")
  file(WRITE "${out}.new" "${text}")
  configure_file("${out}.new" "${out}" COPYONLY)
endfunction()

# gpulab_add_lab_unit_test(<lab> <name> SOURCES <file>... [LIBRARIES <lib>...])
#
# A unit test of a lab's own code (its diagnoses, say): the program
# build/tests/test-<lab>-<name> from SOURCES, with the lab's folder (as
# gpulab_add_lab declared it) and common/tests (lab_test.h) on its include
# path, registered as the test <lab>-<name>, labelled <lab> and unit.
function(gpulab_add_lab_unit_test lab name)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "SOURCES;LIBRARIES")
  get_property(lab_dir GLOBAL PROPERTY GPULAB_LAB_${lab}_DIR)
  if(NOT lab_dir)
    message(FATAL_ERROR "gpulab_add_lab_unit_test(${lab} ${name}): no gpulab_add_lab(${lab}) before it")
  endif()
  set(target test-${lab}-${name})
  add_executable(${target} ${arg_SOURCES})
  target_include_directories(${target} PRIVATE "${lab_dir}" "${PROJECT_SOURCE_DIR}/common/tests")
  target_link_libraries(${target} PRIVATE m ${arg_LIBRARIES})
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  gpulab_target_warnings(${target})
  add_test(NAME ${lab}-${name} COMMAND ${target})
  set_tests_properties(${lab}-${name} PROPERTIES LABELS "${lab};unit" TIMEOUT 60)
endfunction()
