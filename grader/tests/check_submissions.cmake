# --submission, --batch and --package-gradescope, on the fixture lab:
# submissions made from the fixture's solution (full marks), its starter
# (zero), one that does not compile, one that lacks the file, and one that
# holds a labs/ folder, graded in one batch; then one submission graded alone
# (the compile error must be its reason), ones that include the solution or link to it
# (refused, each with its reason), one whose compile error holds a
# Latin-1 byte (every report must parse), and a Gradescope bundle written.
#   cmake -DGRADE=<gpulab-grade> -DSOURCE=<repo> -DWORKDIR=<scratch> -P check_submissions.cmake
file(REMOVE_RECURSE "${WORKDIR}")
set(subs "${WORKDIR}/submissions")
set(fixture "${SOURCE}/common/tests/fixture_lab")
file(MAKE_DIRECTORY "${subs}/starter/00_fixture" "${subs}/missing/00_fixture"
     "${subs}/nested/labs/00_fixture" "${subs}/broken/00_fixture" "${subs}/good/00_fixture")
file(COPY "${fixture}/solutions/00_fixture/scale.cu" DESTINATION "${subs}/good/00_fixture")
file(COPY "${fixture}/solutions/00_fixture/scale.cu" DESTINATION "${subs}/nested/labs/00_fixture")
file(COPY "${fixture}/labs/00_fixture/scale.cu" DESTINATION "${subs}/starter/00_fixture")
file(READ "${fixture}/solutions/00_fixture/scale.cu" text)
string(REPLACE "const int blocks" "const int blocks oops" text "${text}")
file(WRITE "${subs}/broken/00_fixture/scale.cu" "${text}")
# Submissions that reach for the solution: by a path relative to the kit's lab folder (which
# the student's compile once had on its include path), by an absolute path, by a macro, and
# through a symbolic link. Each must be refused with a reason, and score 0.
file(MAKE_DIRECTORY "${WORKDIR}/cheats/peek/00_fixture" "${WORKDIR}/cheats/abs/00_fixture"
     "${WORKDIR}/cheats/macro/00_fixture" "${WORKDIR}/cheats/link/00_fixture")
file(WRITE "${WORKDIR}/cheats/peek/00_fixture/scale.cu" "#include \"../../solutions/00_fixture/scale.cu\"\n")
file(WRITE "${WORKDIR}/cheats/abs/00_fixture/scale.cu"
     "/* the kit's own */\n  #  include /* here */ \"${fixture}/solutions/00_fixture/scale.cu\"\n")
file(WRITE "${WORKDIR}/cheats/macro/00_fixture/scale.cu"
     "#define SOLUTION \"${fixture}/solutions/00_fixture/scale.cu\"\n#include SOLUTION\n")
file(CREATE_LINK "${fixture}/solutions/00_fixture/scale.cu" "${WORKDIR}/cheats/link/00_fixture/scale.cu"
     SYMBOLIC)
# A folder name with a Latin-1 byte (0xE9): grades.csv must stay valid UTF-8.
string(ASCII 233 latin1_e)
file(MAKE_DIRECTORY "${subs}/caf${latin1_e}/00_fixture")
file(COPY "${fixture}/solutions/00_fixture/scale.cu" DESTINATION "${subs}/caf${latin1_e}/00_fixture")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# ---- the batch --------------------------------------------------------------------
run("${GRADE}" --batch "${subs}" --jobs 2 --lab fixture --backend sim --source "${SOURCE}"
    --out "${WORKDIR}/grades")
file(STRINGS "${WORKDIR}/grades/grades.csv" rows ENCODING UTF-8)
list(LENGTH rows n)
if(NOT n EQUAL 7)
  message(FATAL_ERROR "grades.csv: ${n} lines, expected a header and 6 rows:\n${rows}")
endif()
if(PYTHON) # strict UTF-8, and the Latin-1 byte as U+FFFD
  run("${PYTHON}" -c "import sys; t = open(sys.argv[1], encoding='utf-8', errors='strict').read(); assert '\"caf\\ufffd\",10,10,100.0,' in t, t"
      "${WORKDIR}/grades/grades.csv")
endif()
foreach(want IN ITEMS "\"broken\",0,10," "\"good\",10,10,100.0," "\"missing\",0,10,"
                      "\"nested\",10,10,100.0," "\"starter\",0,10,0.0,")
  string(FIND "${rows}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "grades.csv has no row starting ${want}:\n${rows}")
  endif()
endforeach()
message(STATUS "batch: 6 submissions graded as expected")
# --jobs 2 is two processes in all: two slots, each building with one compiler.
file(GLOB build_logs "${WORKDIR}/grades/*.build.log")
list(LENGTH build_logs n_logs)
if(n_logs EQUAL 0)
  message(FATAL_ERROR "--batch wrote no NAME.build.log in ${WORKDIR}/grades")
endif()
foreach(build_log IN LISTS build_logs)
  file(STRINGS "${build_log}" builds REGEX "^\\$ cmake --build ")
  if(NOT builds OR NOT builds MATCHES "-j 1 " OR builds MATCHES "-j [02-9]")
    message(FATAL_ERROR "${build_log}: with --jobs 2 in a batch each build must use -j 1, got: ${builds}")
  endif()
endforeach()
message(STATUS "batch: --jobs 2 ran two slots of one compiler each")

# ---- one submission: the reasons ----------------------------------------------------
foreach(case IN ITEMS "broken;does not compile: 00_fixture/scale.cu:[0-9]+:[0-9]+: error"
                      "missing;the submission has no 00_fixture/scale.cu"
                      "starter;y: [0-9]+ of [0-9]+ elements differ"
                      "cheats/peek;the submission's 00_fixture/scale.cu includes '../../solutions/00_fixture/scale.cu': refused"
                      "cheats/abs;the submission's 00_fixture/scale.cu includes '/.*/solutions/00_fixture/scale.cu': refused"
                      "cheats/macro;the submission's 00_fixture/scale.cu includes by a macro \\(SOLUTION\\): refused"
                      "cheats/link;the submission's 00_fixture/scale.cu is a symbolic link: refused")
  list(GET case 0 name)
  list(GET case 1 reason)
  set(dir "${subs}/${name}")
  if(name MATCHES "^cheats/")
    set(dir "${WORKDIR}/${name}")
  endif()
  run("${GRADE}" --submission "${dir}" --lab fixture --backend sim --quiet
      --source "${SOURCE}" --build-dir "${WORKDIR}/build" --json "${WORKDIR}/${name}.json")
  file(READ "${WORKDIR}/${name}.json" json)
  string(JSON why GET "${json}" results 0 reason)
  string(JSON points GET "${json}" results 0 points)
  string(JSON last GET "${json}" results 2 points)
  if(NOT why MATCHES "${reason}" OR NOT points EQUAL 0 OR NOT last EQUAL 0)
    message(FATAL_ERROR "${name}: ${points} points, reason '${why}', expected 0 and '${reason}'")
  endif()
endforeach()
message(STATUS "submission: reasons as expected")

# ---- a compile error that is not UTF-8 ----------------------------------------------
# A Latin-1 byte (0xE9) and a control byte in the line the compiler quotes:
# every report must still parse, with U+FFFD in their place.
if(PYTHON)
  string(ASCII 233 latin1_e)
  string(ASCII 1 control)
  file(READ "${fixture}/solutions/00_fixture/scale.cu" text)
  file(WRITE "${WORKDIR}/latin1/00_fixture/scale.cu"
       "#error caf${latin1_e} ${control} (a Latin-1 byte)\n${text}")
  run("${GRADE}" --submission "${WORKDIR}/latin1" --lab fixture --backend sim --quiet
      --source "${SOURCE}" --build-dir "${WORKDIR}/build" --json "${WORKDIR}/latin1.json"
      --junit "${WORKDIR}/latin1.xml" --gradescope "${WORKDIR}/latin1-gradescope.json")
  run("${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/check_reports.py" --files "${WORKDIR}/latin1.json"
      "${WORKDIR}/latin1.xml" "${WORKDIR}/latin1-gradescope.json"
      "does not compile: 00_fixture/scale.cu:1:")
  message(STATUS "submission: a compile error with a Latin-1 byte; every report parses")
endif()

# ---- the Gradescope bundle -------------------------------------------------------------
run("${GRADE}" --package-gradescope "${WORKDIR}/gradescope" --seed 4242 --source "${SOURCE}")
foreach(f setup.sh run_autograder)
  set(p "${WORKDIR}/gradescope/${f}")
  if(NOT EXISTS "${p}")
    message(FATAL_ERROR "the bundle has no ${f}")
  endif()
  run(bash -n "${p}")
  execute_process(COMMAND test -x "${p}" RESULT_VARIABLE x)
  if(NOT x EQUAL 0)
    message(FATAL_ERROR "${f} is not executable")
  endif()
endforeach()
file(READ "${WORKDIR}/gradescope/run_autograder" ra)
if(NOT ra MATCHES "--seed 4242" OR NOT ra MATCHES "/autograder/results/results.json")
  message(FATAL_ERROR "run_autograder does not grade with the seed into results.json:\n${ra}")
endif()
run(${CMAKE_COMMAND} -E tar tf "${WORKDIR}/gradescope/gpulab.tar.gz")
if(out MATCHES "(^|\n)gpulab-handout/solutions/")
  message(FATAL_ERROR "the bundle's kit holds solutions/")
endif()
if(NOT out MATCHES "gpulab-handout/grader/src/main.c")
  message(FATAL_ERROR "the bundle's kit has no grader")
endif()
message(STATUS "gradescope bundle: as expected")

# ---- the Gradescope bundle, run: a lab's autograder on a loose file ---------------
# run_autograder under another root (GPULAB_AUTOGRADER_ROOT) laid out as
# Gradescope's: source/ (the kit), build/ (gpulab-grade), submission/ (one
# loose file, the lab 03 solution's kernels.cu), results/.
set(solution "${SOURCE}/solutions/03_kernels/kernels.cu")
if(EXISTS "${solution}")
  set(root "${WORKDIR}/autograder")
  run("${GRADE}" --package-gradescope "${WORKDIR}/gradescope-lab03" --lab lab03 --backend sim
      --source "${SOURCE}")
  file(MAKE_DIRECTORY "${root}/source" "${root}/build/bin" "${root}/submission")
  file(CREATE_LINK "${SOURCE}" "${root}/source/gpulab-handout" SYMBOLIC)
  file(COPY "${GRADE}" DESTINATION "${root}/build/bin")
  file(COPY "${solution}" DESTINATION "${root}/submission")
  run(${CMAKE_COMMAND} -E env GPULAB_AUTOGRADER_ROOT=${root}
      bash "${WORKDIR}/gradescope-lab03/run_autograder")
  file(READ "${root}/results/results.json" results)
  string(JSON score GET "${results}" score)
  string(JSON n LENGTH "${results}" tests)
  set(max 0)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON m GET "${results}" tests ${i} max_score)
    string(JSON name GET "${results}" tests ${i} name)
    math(EXPR max "${max} + ${m}")
    if(NOT name MATCHES "^lab03: ")
      message(FATAL_ERROR "the lab 03 autograder ran a check of another lab: ${name}")
    endif()
  endforeach()
  if(n EQUAL 0 OR NOT score EQUAL max)
    message(FATAL_ERROR "the lab 03 autograder gave the solution ${score} of ${max}:\n${results}")
  endif()
  message(STATUS "gradescope run_autograder: a loose kernels.cu graded ${score}/${max}")
endif()
