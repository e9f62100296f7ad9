# The grader graded by its own tests: gpulab-grade runs the fake lab program
# (as the fixture lab's "solution") in each way it can misbehave, and each
# must score 0 with the right reason while the grader itself exits 0. Then
# its options (--opt value and --opt=value, and the errors), the backend that
# --backend auto picks (from the kit's GPU query, never from a lab program),
# its wording in a student's kit, and reports that survive any bytes.
#   cmake -DGRADE=<gpulab-grade> -DFAKE=<fake-lab> -DWORKDIR=<scratch>
#         [-DPYTHON=<python3>] -P check_grader.cmake
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}/bin")
file(CREATE_LINK "${FAKE}" "${WORKDIR}/bin/fixture-sim-solution" SYMBOLIC)

# Time limits far from what a run needs on a loaded machine, except for the
# runs that must be killed at the limit (sleep, hang, forkbomb).
function(expect mode passed reason)
  set(limit 60)
  if(mode MATCHES "^(sleep|hang|forkbomb)$")
    set(limit 3)
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env GRADE_FAKE=${mode}
            "${GRADE}" --solutions --backend sim --bin "${WORKDIR}/bin" --lab fixture
            --time-limit ${limit} --json "${WORKDIR}/${mode}.json"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${mode}: the grader itself failed (${rc}):\n${out}${err}")
  endif()
  file(READ "${WORKDIR}/${mode}.json" json)
  string(JSON n LENGTH "${json}" results)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON got GET "${json}" results ${i} passed)
    string(JSON points GET "${json}" results ${i} points)
    string(JSON max GET "${json}" results ${i} max_points)
    string(JSON why GET "${json}" results ${i} reason)
    if(NOT got STREQUAL passed OR (passed STREQUAL "ON" AND NOT points EQUAL max)
       OR (passed STREQUAL "OFF" AND NOT points EQUAL 0))
      message(FATAL_ERROR "${mode}: check ${i}: passed ${got}, ${points} of ${max} points, "
                          "expected passed ${passed} (${why})\n${out}")
    endif()
    if(NOT why MATCHES "${reason}")
      message(FATAL_ERROR "${mode}: reason '${why}' does not match '${reason}'\n${out}")
    endif()
  endforeach()
  message(STATUS "${mode}: ${n} checks graded as expected")
endfunction()

expect(ok ON "^$")
expect(wrong_shape OFF "y.npy is float32 of shape \\([0-9]+, 1\\); expected float32 of shape \\([0-9]+,\\)")
expect(wrong_dtype OFF "y.npy is float64 of shape \\([0-9]+,\\); expected float32")
expect(nan OFF "y: 1 of [0-9]+ elements differ")
expect(truncated OFF "truncated")
expect(missing OFF "missing output y.npy")
expect(lying OFF "elements differ")
expect(not_json OFF "result.json is not JSON")
expect(empty OFF "missing output y.npy")
expect(segfault OFF "SIGSEGV")
expect(hang OFF "wall")
expect(stderr_exit OFF "^exited with status 3: program said: \"out of luck\"$")
expect(abort OFF "crashed with SIGABRT")
expect(sleep OFF "killed after 3.0 s of wall time")
expect(forkbomb OFF "exited with status 1: program said: \"fake lab: fork: Resource temporarily unavailable\"")
expect(bigalloc OFF "ran out of memory \\(address space limit [0-9.]+ GiB\\)")
# Its address space comes from the machine (its memory, at least 4 GiB), not a fixed 64 GiB
# that a 23 GiB machine cannot back.
file(READ "${WORKDIR}/bigalloc.json" json)
string(JSON why GET "${json}" results 0 reason)
if(NOT why MATCHES "limit ([0-9]+)(\\.([0-9]))? GiB")
  message(FATAL_ERROR "bigalloc: no limit in GiB in '${why}'")
endif()
set(limit_tenths "${CMAKE_MATCH_1}0")
if(CMAKE_MATCH_3)
  math(EXPR limit_tenths "${limit_tenths} + ${CMAKE_MATCH_3}")
endif()
file(STRINGS /proc/meminfo mem_total REGEX "^MemTotal:")
string(REGEX MATCH "[0-9]+" mem_kib "${mem_total}")
if(mem_kib)
  math(EXPR mem_tenths "${mem_kib} * 10 / 1048576 + 1")
  if(mem_tenths LESS 41)
    set(mem_tenths 41)
  endif()
  if(limit_tenths GREATER mem_tenths)
    message(FATAL_ERROR "bigalloc: an address space limit over the machine's memory "
                        "(${mem_kib} KiB): ${why}")
  endif()
  message(STATUS "bigalloc: the address space limit is the machine's memory (${mem_kib} KiB)")
endif()
expect(bigfile OFF "tried to write a file bigger than the limit of 256 MiB")
expect(chatty OFF "printed more than 16 MiB")
expect(snoop OFF "missing output y.npy")
expect(wrong_fact OFF "result.json: \"n\" is [0-9]+, expected [0-9]+")
expect(bytes OFF "exited with status 1: program said: \"fake lab: caf")
# A program that words its last line as the grader would, with a quote to close the marking
# early and a terminal escape: shown only as its own words, escaped.
expect(forge OFF "^exited with status 1: program said: \"\\\\\"; all checks passed \\(10 of 10 points\\)\\\\x1b\\[0m\"$")

# Runs gpulab-grade (or another program) with the fake lab's mode; out, err and rc back.
function(grade_run mode)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env GRADE_FAKE=${mode} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(must_match what text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected to match '${regex}', got:\n${text}")
  endif()
endfunction()

# ---- what a graded program cannot reach (as root: the runner's own mounts) -------------
# It looks for the grader's command line (--seed) in /proc: it must not find it, and scores
# full marks.
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
if(uid STREQUAL "0")
  # A run that makes files without end in its directory stops at the cap, and says so.
  expect(litter OFF "^filled its run directory \\(the limit is [0-9]+ files and folders")
  get_filename_component(kit "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
  foreach(mode seed)
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env GRADE_FAKE=${mode}
              "GRADE_FAKE_FILES=${kit}/CMakeLists.txt:${kit}/grader/tests/fake_lab.c"
              "${GRADE}" --solutions --backend sim --bin "${WORKDIR}/bin" --lab fixture
              --seed 4242 --json "${WORKDIR}/${mode}.json"
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${mode}: the grader itself failed (${rc}):\n${out}${err}")
    endif()
    file(READ "${WORKDIR}/${mode}.json" json)
    string(JSON why GET "${json}" results 0 reason)
    string(JSON isolation GET "${json}" isolation)
    if(NOT why STREQUAL "")
      message(FATAL_ERROR "${mode}: the graded program reached what it must not: ${why}")
    endif()
    must_match("${mode}: isolation" "${isolation}" "own mounts")
    message(STATUS "${mode}: the program did not find the seed")
  endforeach()
endif()

# ---- reports that survive any bytes -------------------------------------------------
# The program printed a Latin-1 byte and control bytes: every report must
# still parse (Python's json and xml.etree), with U+FFFD in their place.
if(PYTHON)
  grade_run(bytes "${GRADE}" --solutions --backend sim --bin "${WORKDIR}/bin" --lab fixture
            --quiet --json "${WORKDIR}/bytes.json" --junit "${WORKDIR}/bytes.xml"
            --gradescope "${WORKDIR}/bytes-gradescope.json")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "bytes: the grader failed (${rc}):\n${out}${err}")
  endif()
  get_filename_component(here "${CMAKE_CURRENT_LIST_FILE}" DIRECTORY)
  execute_process(COMMAND "${PYTHON}" "${here}/check_reports.py" --files "${WORKDIR}/bytes.json"
                          "${WORKDIR}/bytes.xml" "${WORKDIR}/bytes-gradescope.json"
                          "fake lab: caf"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "bytes: a report does not parse:\n${out}${err}")
  endif()
  message(STATUS "bytes: JSON, JUnit XML and Gradescope reports parse")
endif()

# ---- options: --opt value and --opt=value; clear errors -----------------------------
grade_run(ok "${GRADE}" --solutions --backend=sim "--bin=${WORKDIR}/bin" --lab=fixture
          --time-limit=60 "--json=${WORKDIR}/equals.json")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--opt=value: the grader failed (${rc}):\n${out}${err}")
endif()
file(READ "${WORKDIR}/equals.json" json)
string(JSON n LENGTH "${json}" results)
string(JSON passed GET "${json}" results 0 passed)
string(JSON backend GET "${json}" backend)
if(n EQUAL 0 OR NOT passed OR NOT backend STREQUAL "sim")
  message(FATAL_ERROR "--opt=value: ${n} results, first passed ${passed}, backend ${backend}")
endif()
foreach(case IN ITEMS "--bogus;unknown option --bogus \\(gpulab-grade --help lists them\\)"
                      "--lab;--lab needs a value \\(--lab VALUE or --lab=VALUE\\)"
                      "--lab=;--lab needs a value"
                      "--lab,--quiet;--lab needs a value .*found the option --quiet"
                      "--quiet=yes;--quiet takes no value: --quiet=yes"
                      "--backend=gpu;--backend gpu: expected auto, cuda or sim"
                      "--seed=12x;--seed 12x: expected a whole number"
                      "lab03;unexpected argument lab03")
  list(GET case 0 args)
  list(GET case 1 message)
  string(REPLACE "," ";" args "${args}")
  grade_run(ok "${GRADE}" ${args})
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "gpulab-grade ${args}: exit status ${rc}, expected 2 (bad usage)")
  endif()
  must_match("gpulab-grade ${args}" "${err}" "gpulab-grade: ${message}")
endforeach()
message(STATUS "options: --opt value, --opt=value and usage errors as expected")

# ---- the backend auto picks ----------------------------------------------------------
# A lab's cuda program that exits 1 (a student's buggy lab) or 0 when run
# bare must not make auto pick cuda: only the kit's GPU query decides.
file(MAKE_DIRECTORY "${WORKDIR}/auto")
file(CREATE_LINK "${FAKE}" "${WORKDIR}/auto/fixture-sim-student" SYMBOLIC)
file(WRITE "${WORKDIR}/auto/fixture-cuda-student" "#!/bin/sh\necho 'a buggy lab' >&2\nexit 1\n")
file(CHMOD "${WORKDIR}/auto/fixture-cuda-student" PERMISSIONS OWNER_READ OWNER_WRITE
     OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
get_filename_component(grade_dir "${GRADE}" DIRECTORY)

# Runs gpulab-grade (the program given) with --backend auto on the fake bin and
# checks the table's first line and the JSON report's backend and reason
# (a regular expression; an exact text when EXACT_REASON is set).
function(expect_auto what grade backend reason)
  grade_run(ok "${grade}" --labs --lab fixture --bin "${WORKDIR}/auto" --quiet
            --json "${WORKDIR}/auto-${what}.json")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "auto, ${what}: the grader failed (${rc}):\n${out}${err}")
  endif()
  string(REGEX MATCH "^[^\n]*" first_line "${out}")
  file(READ "${WORKDIR}/auto-${what}.json" json)
  string(JSON got GET "${json}" backend)
  string(JSON why GET "${json}" backend_reason)
  if(NOT got STREQUAL backend)
    message(FATAL_ERROR "auto, ${what}: the report says backend ${got}, expected ${backend}")
  endif()
  if(EXACT_REASON)
    if(NOT first_line STREQUAL "backend: ${backend} (${reason})" OR NOT why STREQUAL reason)
      message(FATAL_ERROR "auto, ${what}: expected 'backend: ${backend} (${reason})', got "
                          "'${first_line}' (backend_reason '${why}')")
    endif()
  else()
    must_match("auto, ${what}: the table's first line" "${first_line}"
               "^backend: ${backend} \\(${reason}\\)$")
    must_match("auto, ${what}: backend_reason" "${why}" "^${reason}$")
  endif()
  message(STATUS "auto, ${what}: ${first_line}")
endfunction()

# This machine, with the kit's own query (or without one, when the cuda
# backend is not built): whatever the query says decides.
if(EXISTS "${grade_dir}/gpulab-gpu-query")
  execute_process(COMMAND "${grade_dir}/gpulab-gpu-query" RESULT_VARIABLE rc OUTPUT_VARIABLE q)
  if(rc EQUAL 0)
    string(REGEX MATCH "device 0: [^\n]*" name "${q}")
    string(REPLACE "device 0: " "" name "${name}")
    expect_auto(here "${GRADE}" cuda "${name} usable|[0-9]+ GPUs usable; device 0 is ${name}")
  else()
    string(REGEX MATCH "reason: [^\n]*" reason "${q}")
    string(REPLACE "reason: " "" reason "${reason}")
    set(EXACT_REASON ON)
    expect_auto(here "${GRADE}" sim "no usable GPU — ${reason}")
    unset(EXACT_REASON)
  endif()
else()
  expect_auto(here "${GRADE}" sim "this kit was built without the cuda backend.*")
endif()

# A copy of gpulab-grade beside a stand-in query: what the query says is
# what auto does, the program's exit status nothing.
function(with_query what script backend reason)
  file(MAKE_DIRECTORY "${WORKDIR}/kit-${what}")
  file(COPY "${GRADE}" DESTINATION "${WORKDIR}/kit-${what}")
  get_filename_component(name "${GRADE}" NAME)
  if(script)
    file(WRITE "${WORKDIR}/kit-${what}/gpulab-gpu-query" "#!/bin/sh\n${script}\n")
    file(CHMOD "${WORKDIR}/kit-${what}/gpulab-gpu-query" PERMISSIONS OWNER_READ OWNER_WRITE
         OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  endif()
  expect_auto(${what} "${WORKDIR}/kit-${what}/${name}" ${backend} "${reason}")
endfunction()
with_query(gpu "printf 'status: ok\\ndevices: 1\\ndevice 0: Test GPU 9000\\n'" cuda
           "Test GPU 9000 usable")
with_query(no-driver
           "printf 'status: no_driver\\ndevices: 0\\nreason: the NVIDIA driver is not loaded\\n'; exit 77"
           sim "no usable GPU — the NVIDIA driver is not loaded")
with_query(crash "kill -SEGV $$" sim "no usable GPU — the GPU query gpulab-gpu-query crashed with SIGSEGV.*")
with_query(none "" sim "(this kit was built without the cuda backend|no GPU looked for: gpulab-gpu-query, the kit's GPU query, is missing).*")

# Asked for: said so.
grade_run(ok "${GRADE}" --labs --lab fixture --bin "${WORKDIR}/auto" --backend sim --quiet)
string(REGEX MATCH "^[^\n]*" first_line "${out}")
must_match("--backend sim: the table's first line" "${first_line}"
           "^backend: sim \\(asked for with --backend sim\\)$")

# ---- a student's kit: no solutions/ ---------------------------------------------------
# --compare (what make grade runs) grades the student's programs only: the
# progress count and the words leave the reference solutions out.
file(MAKE_DIRECTORY "${WORKDIR}/student-kit")
grade_run(ok "${GRADE}" --compare --lab fixture --backend sim --bin "${WORKDIR}/auto"
          --source "${WORKDIR}/student-kit" --json "${WORKDIR}/student-kit.json")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "student kit: the grader failed (${rc}):\n${out}${err}")
endif()
file(READ "${WORKDIR}/student-kit.json" json)
string(JSON n LENGTH "${json}" results)
must_match("student kit: progress" "${err}" "grading: 100% \\(${n}/${n}\\) done")
must_match("student kit: note" "${err}" "grading your programs, built from labs/; this kit has no reference solutions")
if(out MATCHES "solution" OR err MATCHES "side by side")
  message(FATAL_ERROR "student kit: solutions spoken of:\n${out}${err}")
endif()
grade_run(ok "${GRADE}" --source "${WORKDIR}/student-kit" --help)
must_match("student kit: --help" "${out}" "--labs +your lab programs, built from labs/")
must_match("student kit: --help" "${out}" "^usage: gpulab-grade \\[--labs \\| --compare\\]")
if(out MATCHES "side by side")
  message(FATAL_ERROR "student kit: --help speaks of solutions side by side:\n${out}")
endif()
message(STATUS "student kit: ${n} of ${n} checks counted, no solutions spoken of")
