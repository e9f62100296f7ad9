# The students' kit as a student meets it (CTest: handout-student-kit, label
# handout): packed by handout.cmake, unpacked, built and tested on its own.
#
#   cmake -DSOURCE_DIR=<repo> -DWORK=<scratch> -DHANDOUT=<handout.cmake>
#         [-DGIT_EXECUTABLE=<git>] [-DMAKE=<make>] [-DCTEST=<ctest>] [-DJOBS=2]
#         [-DKIT_CUDA=OFF|AUTO] -P student_kit_test.cmake
#
# In the unpacked kit (no solutions/):
#   1. the README, the lab handouts and the Makefile's help speak to the
#      student: no mention of solutions, no instructor-only part left;
#   2. it is configured and built as `make test` does it (GPULAB_WERROR=ON,
#      left in build/CMakeCache.txt), and no registered test runs a student's
#      lab program or grades a lab: no test can depend on how far the student
#      has got, so the rest of the suite need not run again here;
#   3. the tests that come nearest (labels lab01..lab05, demo, student) pass
#      on the untouched kit, and `make grade LAB=lab03` grades on the sim
#      backend (no GPU here) and scores below full marks;
#   4. with solutions/NN_x/* copied into labs/NN_x/ (every lab finished) the
#      kit builds and they pass again, lab 03's finished demo passes, and
#      `make grade LAB=lab03` scores full marks on sim;
#   5. a harmless warning in labs/03_kernels/kernels.cu (an unused parameter)
#      is shown but does not stop `make lab03`, whose new program runs;
#   6. a compile error in it makes `make lab03` fail and leaves no
#      lab03-*-student program (nor its check twin) in build/bin.
# KIT_CUDA (default OFF) is the kit's GPULAB_CUDA: OFF keeps the test to a few
# minutes; AUTO builds the cuda backend too where nvcc is installed, as on a
# student's machine with the toolkit and no GPU.
foreach(var SOURCE_DIR WORK HANDOUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "student_kit_test.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT MAKE)
  find_program(MAKE NAMES make gmake REQUIRED)
endif()
if(NOT CTEST)
  get_filename_component(cmake_dir "${CMAKE_COMMAND}" DIRECTORY)
  find_program(CTEST ctest HINTS "${cmake_dir}" REQUIRED)
endif()
if(NOT JOBS)
  set(JOBS 2)
endif()
if(NOT KIT_CUDA)
  set(KIT_CUDA OFF)
endif()
# The kit's make and builds are our own, whatever make runs this test.
unset(ENV{MAKEFLAGS})
unset(ENV{MFLAGS})
unset(ENV{MAKELEVEL})

set(kit "${WORK}/gpulab-handout")
set(build "${kit}/build")
set(labs_labels "lab01|lab02|lab03|lab04|lab05|demo|student")

# Runs a command; fails the test unless it exits with 0 (or, with
# EXPECT_FAIL, with anything else). Its output is in <out_var>.
function(run out_var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EXPECT_FAIL" "WHAT;DIR" "COMMAND")
  if(NOT arg_DIR)
    set(arg_DIR "${kit}")
  endif()
  execute_process(COMMAND ${arg_COMMAND} WORKING_DIRECTORY "${arg_DIR}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(arg_EXPECT_FAIL AND rc EQUAL 0)
    message(FATAL_ERROR "${arg_WHAT}: succeeded, but it must fail:\n${out}")
  elseif(NOT arg_EXPECT_FAIL AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${arg_WHAT}: failed (${rc}):\n${out}")
  endif()
  message(STATUS "ok   ${arg_WHAT}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# ---- pack and unpack ---------------------------------------------------------------
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(args -DSOURCE_DIR=${SOURCE_DIR} -DOUTPUT=${WORK}/gpulab-handout.tar.gz)
if(GIT_EXECUTABLE)
  list(APPEND args -DGIT_EXECUTABLE=${GIT_EXECUTABLE})
endif()
run(out WHAT "make handout" DIR "${WORK}" COMMAND "${CMAKE_COMMAND}" ${args} -P "${HANDOUT}")
run(out WHAT "unpack the kit" DIR "${WORK}"
    COMMAND "${CMAKE_COMMAND}" -E tar xzf "${WORK}/gpulab-handout.tar.gz")
if(IS_DIRECTORY "${kit}/solutions" OR NOT EXISTS "${kit}/labs/03_kernels/kernels.cu")
  message(FATAL_ERROR "the unpacked kit ${kit} has solutions/, or no labs/03_kernels/kernels.cu")
endif()

# ---- 1. worded for the student -----------------------------------------------------------
file(GLOB handouts RELATIVE "${kit}" "${kit}/labs/*/README.md")
set(wording_errors "")
foreach(doc README.md ${handouts} Makefile)
  file(STRINGS "${kit}/${doc}" lines)
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    if(doc STREQUAL "Makefile" AND NOT line MATCHES "^#")
      continue() # the Makefile's help is its comments
    endif()
    string(TOLOWER "${line}" lower)
    if(lower MATCHES "solution" OR lower MATCHES "<!-- */?instructor")
      string(APPEND wording_errors "\n  ${doc}:${n}: ${line}")
    endif()
  endforeach()
endforeach()
if(wording_errors)
  message(FATAL_ERROR "the student's kit speaks of solutions (or keeps an instructor-only part):"
                      "${wording_errors}")
endif()
message(STATUS "ok   README, handouts and the Makefile's help are worded for the student")

# ---- 2. configured as make test does; no test depends on the student's work ---------
run(out WHAT "configure the kit as make test does (GPULAB_WERROR=ON, GPULAB_CUDA=${KIT_CUDA})"
    COMMAND "${CMAKE_COMMAND}" -S "${kit}" -B "${build}" -DGPULAB_WERROR=ON
            -DGPULAB_CUDA=${KIT_CUDA} -DGPULAB_DOCS=OFF)
# Built first: CTest lists a test's command only once its program exists.
run(out WHAT "build the kit (untouched)" COMMAND "${CMAKE_COMMAND}" --build "${build}" -j ${JOBS})
run(json WHAT "list the kit's tests" DIR "${build}" COMMAND "${CTEST}" --show-only=json-v1)
string(JSON ntests LENGTH "${json}" tests)
math(EXPR last "${ntests} - 1")
set(dependent "")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" tests ${i} name)
  string(JSON nwords ERROR_VARIABLE no_command LENGTH "${json}" tests ${i} command)
  if(no_command)
    string(APPEND dependent "\n  ${name}: its program was not built, so what it runs is unknown")
    continue()
  endif()
  set(words "")
  math(EXPR lastw "${nwords} - 1")
  foreach(w RANGE ${lastw})
    string(JSON word GET "${json}" tests ${i} command ${w})
    list(APPEND words "${word}")
  endforeach()
  list(JOIN words " " line)
  # A lab's student program (or its twin), or the grading of a lab: both are
  # the student's work.
  if(line MATCHES "lab0[1-5]-[a-z]+-student" OR line MATCHES "(-DLAB=|--lab[ =])lab0[1-5]")
    string(APPEND dependent "\n  ${name}: ${line}")
  endif()
endforeach()
if(dependent)
  message(FATAL_ERROR "in a student's kit these tests run the student's lab programs or grade the "
                      "labs (or cannot be inspected), so make test would depend on how far the "
                      "student has got:${dependent}")
endif()
message(STATUS "ok   none of the kit's ${ntests} tests runs a student's program or grades a lab")

# ---- 3. the untouched kit ---------------------------------------------------------------------
function(labs_tests what)
  run(out WHAT "ctest -L '${labs_labels}' (${what})" DIR "${build}"
      COMMAND "${CTEST}" -L "^(${labs_labels})$" --no-tests=error --output-on-failure -j ${JOBS})
endfunction()
labs_tests("untouched kit")

# make grade LAB=lab03 with its JSON report: the backend must be sim (this
# test's kit has no cuda backend; run by hand with KIT_CUDA=AUTO on a machine
# with nvcc and no GPU, the grader must still choose sim), and lab 03's
# points are compared with FULL: "below" or "full".
function(grade_lab03 what want)
  set(report "${WORK}/grade-${want}.json")
  file(REMOVE "${report}")
  run(table WHAT "make grade LAB=lab03 (${what})"
      COMMAND "${MAKE}" --no-print-directory grade LAB=lab03 JOBS=${JOBS}
              "GRADE_ARGS=--json ${report}")
  if(NOT EXISTS "${report}")
    message(FATAL_ERROR "make grade LAB=lab03 (${what}) wrote no ${report}:\n${table}")
  endif()
  file(READ "${report}" json)
  string(JSON backend GET "${json}" backend)
  string(JSON why GET "${json}" backend_reason)
  if(NOT backend STREQUAL "sim")
    message(FATAL_ERROR "make grade LAB=lab03 (${what}) graded on ${backend} (${why}), not on sim, "
                        "on a machine without a GPU:\n${table}")
  endif()
  if(KIT_CUDA STREQUAL "OFF" AND NOT why MATCHES "switched off \\(GPULAB_CUDA=OFF\\)")
    message(FATAL_ERROR "make grade LAB=lab03 (${what}): the backend's reason should say the cuda "
                        "backend was switched off (GPULAB_CUDA=OFF), not: ${why}")
  endif()
  string(JSON n LENGTH "${json}" results)
  set(short 0) # checks below their full points (points may be fractional: no sums)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON lab GET "${json}" results ${i} lab)
    string(JSON variant GET "${json}" results ${i} variant)
    if(NOT lab STREQUAL "lab03" OR NOT variant STREQUAL "student")
      message(FATAL_ERROR "make grade LAB=lab03 (${what}) graded ${lab} ${variant}: a student's "
                          "kit has only the student's labs, and LAB=lab03 asks for lab 03 alone")
    endif()
    string(JSON p GET "${json}" results ${i} points)
    string(JSON m GET "${json}" results ${i} max_points)
    if(NOT p EQUAL m)
      math(EXPR short "${short} + 1")
    endif()
  endforeach()
  if(n EQUAL 0 OR (want STREQUAL "full" AND short GREATER 0)
     OR (want STREQUAL "below" AND short EQUAL 0))
    message(FATAL_ERROR "make grade LAB=lab03 (${what}): ${short} of ${n} checks below their "
                        "points on sim; expected ${want} marks:\n${table}")
  endif()
  message(STATUS "ok   lab 03 (${what}) on sim (${why}): ${short} of ${n} checks below their points")
endfunction()
grade_lab03("untouched kit" below)

# ---- 4. every lab finished ------------------------------------------------------------------
file(GLOB lab_dirs RELATIVE "${SOURCE_DIR}/solutions" "${SOURCE_DIR}/solutions/[0-9][0-9]_*")
if(NOT lab_dirs)
  message(FATAL_ERROR "no solutions/NN_x folders in ${SOURCE_DIR} to finish the kit with")
endif()
foreach(dir IN LISTS lab_dirs)
  file(GLOB files LIST_DIRECTORIES false RELATIVE "${SOURCE_DIR}/solutions/${dir}"
       "${SOURCE_DIR}/solutions/${dir}/*")
  foreach(f IN LISTS files)
    # Copied as a student would: a new file, written now (file(COPY) would
    # keep the old time, and the build could miss the change).
    file(COPY_FILE "${SOURCE_DIR}/solutions/${dir}/${f}" "${kit}/labs/${dir}/${f}")
    file(TOUCH "${kit}/labs/${dir}/${f}")
  endforeach()
endforeach()
run(out WHAT "build the kit (every lab finished)"
    COMMAND "${CMAKE_COMMAND}" --build "${build}" -j ${JOBS})
labs_tests("every lab finished")
run(out WHAT "lab 03's finished demo" COMMAND "${build}/bin/lab03-sim-student" --no-timing)
if(NOT out MATCHES "PASS")
  message(FATAL_ERROR "lab 03's finished demo does not say PASS:\n${out}")
endif()
grade_lab03("every lab finished" full)

# ---- 5. a warning after make test's configuration -----------------------------------------
file(STRINGS "${build}/CMakeCache.txt" werror REGEX "^GPULAB_WERROR:BOOL=ON$")
if(NOT werror)
  message(FATAL_ERROR "the kit's build/CMakeCache.txt lost GPULAB_WERROR=ON; the test needs it on")
endif()
set(kernels "${kit}/labs/03_kernels/kernels.cu")
file(READ "${kernels}" finished)
file(WRITE "${kernels}" "${finished}
/* A student's experiment: a helper with a parameter it does not use yet. */
int kit_test_experiment(int n, int unused_for_now)
{
    return n;
}
")
run(out WHAT "make lab03 with an unused parameter in kernels.cu"
    COMMAND "${MAKE}" --no-print-directory lab03 JOBS=${JOBS})
if(NOT out MATCHES "unused_for_now")
  message(FATAL_ERROR "make lab03 did not show the warning about the unused parameter:\n${out}")
endif()
run(out WHAT "the rebuilt lab03-sim-student runs" COMMAND "${build}/bin/lab03-sim-student" --no-timing)

# ---- 6. a compile error --------------------------------------------------------------------
file(WRITE "${kernels}" "${finished}\nthis line is not CUDA C;\n")
run(out WHAT "make lab03 with a compile error in kernels.cu" EXPECT_FAIL
    COMMAND "${MAKE}" --no-print-directory lab03 JOBS=${JOBS})
file(GLOB stale "${build}/bin/lab03-*-student" "${build}/bin/lab03-*-student.check")
if(stale)
  message(FATAL_ERROR "after a failed compile these old programs are still there, ready to run "
                      "the previous code: ${stale}")
endif()
message(STATUS "ok   no lab03-*-student program is left after the failed compile")
message(STATUS "handout-student-kit: all checks passed")
