# The test house-lab-declared-once: a lab is declared once. It copies the kit
# (its tracked files, or the whole tree outside build folders), adds a
# throw-away lab folder, labs/06_scratch/ (the build's fixture lab under a
# lab's name: main.c, scale.cu, its solution, its grader checks, a handout),
# and changes nothing else. Then it checks that every part of the kit found
# the lab:
#   - the build: lab06-sim-student, -solution and lab06-grading are targets,
#     and the demo and check-mode tests are registered;
#   - the grader: built in the copy, it lists lab06 among the labs and grades
#     it (its programs are not built here, so each check fails, named, with
#     the reason that the program is missing: the checks are lab06's own);
#   - the docs render its handout; `make lab06` builds it.
#
#   cmake -DSOURCE=<kit> -DWORKDIR=<dir> -DGIT=<git> -P check_lab_declared_once.cmake
cmake_minimum_required(VERSION 3.25)
foreach(v SOURCE WORKDIR)
  if(NOT ${v})
    message(FATAL_ERROR "check_lab_declared_once.cmake: -D${v}= is required")
  endif()
endforeach()
set(copy "${WORKDIR}/kit")
set(build "${WORKDIR}/build")
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${copy}")

# The kit's files: git's list where there is one, else every file outside build folders.
set(files "")
if(GIT AND EXISTS "${SOURCE}/.git")
  execute_process(COMMAND "${GIT}" -c core.quotepath=off ls-files WORKING_DIRECTORY "${SOURCE}"
                  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(rc EQUAL 0)
    string(REPLACE "\n" ";" files "${out}")
  endif()
endif()
if(NOT files)
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${SOURCE}" "${SOURCE}/*")
  list(FILTER files EXCLUDE REGEX "^(build[^/]*|\\.git)/")
endif()
foreach(f IN LISTS files)
  if(f AND EXISTS "${SOURCE}/${f}" AND NOT IS_DIRECTORY "${SOURCE}/${f}")
    get_filename_component(dir "${copy}/${f}" DIRECTORY)
    file(COPY "${SOURCE}/${f}" DESTINATION "${dir}")
  endif()
endforeach()

# The throw-away lab: one folder in labs/ (and its solution), nothing else.
set(fixture "${SOURCE}/common/tests/fixture_lab")
set(lab "${copy}/labs/06_scratch")
file(COPY "${fixture}/labs/00_fixture/main.c" "${fixture}/labs/00_fixture/scale.cu"
          "${fixture}/labs/00_fixture/scale.h" DESTINATION "${lab}")
file(COPY "${fixture}/solutions/00_fixture/scale.cu" DESTINATION "${copy}/solutions/06_scratch")
file(READ "${SOURCE}/grader/checks/fixture.c" checks)
string(REPLACE "grade_lab_fixture = { \"fixture\"" "grade_lab_lab06 = { \"lab06\"" checks "${checks}")
string(REPLACE "\"00_fixture\" }" "\"06_scratch\" }" checks "${checks}")
if(NOT checks MATCHES "grade_lab_lab06" OR NOT checks MATCHES "06_scratch")
  message(FATAL_ERROR "grader/checks/fixture.c changed shape: the scratch lab's checks could not be made from it")
endif()
file(WRITE "${lab}/grader_checks.c" "${checks}")
file(WRITE "${lab}/README.md" "# Lab 06 — scratch {#lab06}\n\nA throw-away lab: y = a x.\n")
file(WRITE "${lab}/CMakeLists.txt"
     "gpulab_add_lab(lab06 DIR 06_scratch HARNESS main.c STUDENT scale.cu\n"
     "  GRADER_CHECKS grader_checks.c LABELS lab06 DEMO_TEST STUDENT_DEMO_FAILS)\n")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()
function(expect what text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "the scratch lab is missing from ${what}: no match for '${regex}' in:\n${text}")
  endif()
  message(STATUS "ok: ${what}")
endfunction()

run("configuring the copy" "${CMAKE_COMMAND}" -S "${copy}" -B "${build}" -DGPULAB_CUDA=OFF)
run("listing its targets" "${CMAKE_COMMAND}" --build "${build}" --target help)
expect("the build's targets" "${out}" "lab06-sim-student")
expect("the build's targets" "${out}" "lab06-sim-solution")
expect("the build's targets" "${out}" "lab06-grading")
run("listing its tests" "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" -N)
expect("the tests" "${out}" "lab06-sim-solution-demo")
expect("the tests" "${out}" "lab06-sim-student-demo")
expect("the tests" "${out}" "lab06-sim-solution-checked")
file(GLOB doxyfiles "${build}/Doxyfile*")
if(doxyfiles)
  list(GET doxyfiles 0 doxyfile)
  file(READ "${doxyfile}" text)
  expect("the docs' inputs" "${text}" "labs/06_scratch/README\\.md")
endif()
find_program(MAKE_PROGRAM NAMES make gmake)
if(MAKE_PROGRAM)
  run("make -n lab06" "${MAKE_PROGRAM}" -n -C "${copy}" lab06 "BUILD=${build}")
  expect("the Makefile's labs" "${out}" "--target lab06")
endif()

run("building the grader" "${CMAKE_COMMAND}" --build "${build}" --target gpulab-grade)
run("gpulab-grade --help" "${build}/bin/gpulab-grade" --help)
expect("the grader's --lab" "${out}" "one lab only \\(lab01 \\.\\.\\. lab06\\)")
file(MAKE_DIRECTORY "${WORKDIR}/no-programs")
execute_process(COMMAND "${build}/bin/gpulab-grade" --lab lab06 --backend sim --quiet
                        --bin "${WORKDIR}/no-programs" --json "${WORKDIR}/grades.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT EXISTS "${WORKDIR}/grades.json")
  message(FATAL_ERROR "gpulab-grade --lab lab06 wrote no report (${rc}):\n${out}\n${err}")
endif()
file(READ "${WORKDIR}/grades.json" json)
string(JSON n LENGTH "${json}" results)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "the grader graded ${n} checks, not lab06's 3:\n${json}")
endif()
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" results ${i} lab)
  string(JSON check GET "${json}" results ${i} check)
  expect("the grader's report" "${name} ${check}" "^lab06 scale, n = ")
endforeach()
message(STATUS "lab declared once: the scratch lab reached the build, the tests, the docs, make and the grader")
