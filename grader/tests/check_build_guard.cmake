# The guards of a submission's build, on the fixture lab, in one build folder (the first,
# honest submission builds the kit's libraries; each later one recompiles only its own file):
#   - a FIFO as the student's file is refused at once with that reason (it once hung a batch
#     slot for 10 minutes: CMake read it and waited);
#   - a lab folder that is a symbolic link (to the kit's own solution) is refused, so the
#     solution is never compiled in; a header that links out of the submission is refused, and
#     what it points to never reaches the build tree (the rewriter's --headers) or the report;
#   - a file of constexpr static_asserts that would compile for minutes is stopped at the
#     build's CPU time limit, and a file whose compile needs gigabytes at its memory limit, each
#     with a reason that says which (both limits small here, so each is hit in seconds);
#   - as root, the build runs as an unprivileged uid: the programs it makes are not root's;
#   - a configure that outlives --build-time-limit is killed, with that reason.
#   cmake -DGRADE=<gpulab-grade> -DSOURCE=<repo> -DWORKDIR=<scratch> -P check_build_guard.cmake
file(REMOVE_RECURSE "${WORKDIR}")
set(fixture "${SOURCE}/common/tests/fixture_lab")
set(subs "${WORKDIR}/submissions")
file(READ "${fixture}/solutions/00_fixture/scale.cu" text)
file(MAKE_DIRECTORY "${subs}/good/00_fixture" "${subs}/fifo/00_fixture" "${subs}/dirlink"
     "${subs}/bomb/00_fixture" "${subs}/hog/00_fixture")
file(COPY "${fixture}/solutions/00_fixture/scale.cu" DESTINATION "${subs}/good/00_fixture")
execute_process(COMMAND mkfifo "${subs}/fifo/00_fixture/scale.cu" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mkfifo failed (${rc})")
endif()
file(CREATE_LINK "${fixture}/solutions/00_fixture" "${subs}/dirlink/00_fixture" SYMBOLIC)
# A header that is a link out of the submission, included by the student's file: the rewriter's
# --headers (which rewrites the headers a .cu includes) must never see what it points to.
file(MAKE_DIRECTORY "${subs}/headerlink/00_fixture" "${WORKDIR}/private")
file(WRITE "${WORKDIR}/private/secret.txt" "SECRET-TOKEN-4242\n")
file(CREATE_LINK "${WORKDIR}/private/secret.txt" "${subs}/headerlink/00_fixture/secret.h" SYMBOLIC)
file(WRITE "${subs}/headerlink/00_fixture/scale.cu" "#include \"secret.h\"\n${text}")
# 4^7 distinct constant expressions of 100000 steps each (within GCC's and clang's per-expression
# limits, so neither compiler stops it on its own): minutes of CPU time.
file(WRITE "${subs}/bomb/00_fixture/scale.cu"
     "constexpr unsigned long bomb(unsigned long n, unsigned long k)\n"
     "{\n    unsigned long s = k;\n"
     "    for (unsigned long i = 0; i < n; i++)\n        s = s * 6364136223846793005ul + i;\n"
     "    return s;\n}\n"
     "#define B1(k) static_assert(bomb(100000ul, k##ul) != 1ul, \"\");\n"
     "#define B4(k) B1(k##0) B1(k##1) B1(k##2) B1(k##3)\n"
     "#define B16(k) B4(k##0) B4(k##1) B4(k##2) B4(k##3)\n"
     "#define B64(k) B16(k##0) B16(k##1) B16(k##2) B16(k##3)\n"
     "#define B256(k) B64(k##0) B64(k##1) B64(k##2) B64(k##3)\n"
     "#define B1024(k) B256(k##0) B256(k##1) B256(k##2) B256(k##3)\n"
     "#define B4096(k) B1024(k##0) B1024(k##1) B1024(k##2) B1024(k##3)\n"
     "B4096(10) B4096(11) B4096(12) B4096(13)\n"
     "${text}")

# An array of 4^11 initializers written by macros: a few lines of source, over 3 GB of the
# compiler's memory (GCC reads every token of a file before it parses it).
file(WRITE "${subs}/hog/00_fixture/scale.cu"
     "#define H1(k) k##u,\n"
     "#define H4(k) H1(k##0) H1(k##1) H1(k##2) H1(k##3)\n"
     "#define H16(k) H4(k##0) H4(k##1) H4(k##2) H4(k##3)\n"
     "#define H64(k) H16(k##0) H16(k##1) H16(k##2) H16(k##3)\n"
     "#define H256(k) H64(k##0) H64(k##1) H64(k##2) H64(k##3)\n"
     "#define H1K(k) H256(k##0) H256(k##1) H256(k##2) H256(k##3)\n"
     "#define H4K(k) H1K(k##0) H1K(k##1) H1K(k##2) H1K(k##3)\n"
     "#define H16K(k) H4K(k##0) H4K(k##1) H4K(k##2) H4K(k##3)\n"
     "#define H64K(k) H16K(k##0) H16K(k##1) H16K(k##2) H16K(k##3)\n"
     "#define H256K(k) H64K(k##0) H64K(k##1) H64K(k##2) H64K(k##3)\n"
     "#define H1M(k) H256K(k##0) H256K(k##1) H256K(k##2) H256K(k##3)\n"
     "unsigned long long hog[] = { H1M(1) H1M(2) H1M(3) H1M(4) };\n"
     "${text}")

set(build "${WORKDIR}/build")
# Grades one submission; sets points, reason (of the first check) and seconds (wall, CPU clock).
function(grade name)
  string(TIMESTAMP t0 "%s")
  execute_process(COMMAND "${GRADE}" --submission "${subs}/${name}" --lab fixture --backend sim
                          --quiet --source "${SOURCE}" --build-dir "${build}"
                          --json "${WORKDIR}/${name}.json" ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
  string(TIMESTAMP t1 "%s")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: gpulab-grade failed (${rc}):\n${out}${err}")
  endif()
  file(READ "${WORKDIR}/${name}.json" json)
  string(JSON n LENGTH "${json}" results)
  math(EXPR last "${n} - 1")
  set(p 0)
  foreach(i RANGE ${last})
    string(JSON x GET "${json}" results ${i} points)
    math(EXPR p "${p} + ${x}")
  endforeach()
  string(JSON why GET "${json}" results 0 reason)
  math(EXPR s "${t1} - ${t0}")
  set(points "${p}" PARENT_SCOPE)
  set(reason "${why}" PARENT_SCOPE)
  set(seconds "${s}" PARENT_SCOPE)
  message(STATUS "${name}: ${p} points in ${s} s (wall clock): ${why}")
endfunction()

grade(good)
if(NOT points EQUAL 10)
  message(FATAL_ERROR "the honest submission got ${points} of 10: ${reason}")
endif()
execute_process(COMMAND id -u OUTPUT_VARIABLE me OUTPUT_STRIP_TRAILING_WHITESPACE)
if(me STREQUAL "0")
  execute_process(COMMAND stat -c %u "${build}/bin/fixture-sim-student"
                  OUTPUT_VARIABLE owner OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(owner STREQUAL "0" OR owner STREQUAL "")
    message(FATAL_ERROR "the build ran as root: its program is owned by uid '${owner}'")
  endif()
  message(STATUS "the build ran as uid ${owner}")
else()
  message(STATUS "not root: the build's own user is not checked")
endif()

grade(fifo)
if(NOT points EQUAL 0 OR
   NOT reason MATCHES "the submission's 00_fixture/scale.cu is a FIFO \\(named pipe\\): refused")
  message(FATAL_ERROR "fifo: ${points} points, reason '${reason}'")
endif()

grade(dirlink)
if(NOT points EQUAL 0 OR
   NOT reason MATCHES "the submission's 00_fixture is a symbolic link: refused")
  message(FATAL_ERROR "dirlink: ${points} points, reason '${reason}'")
endif()

grade(headerlink)
if(NOT points EQUAL 0 OR
   NOT reason MATCHES "the submission's 00_fixture/secret.h is a symbolic link: refused")
  message(FATAL_ERROR "headerlink: ${points} points, reason '${reason}'")
endif()
execute_process(COMMAND grep -rl SECRET-TOKEN "${build}" "${WORKDIR}/headerlink.json"
                OUTPUT_VARIABLE leaked)
if(leaked)
  message(FATAL_ERROR "headerlink: the linked file's text reached ${leaked}")
endif()

grade(bomb --build-cpu-limit 3)
if(NOT points EQUAL 0 OR
   NOT reason MATCHES "compiling 00_fixture/scale.cu was stopped: it used up the build's CPU time limit \\(3 s of CPU time")
  message(FATAL_ERROR "bomb: ${points} points in ${seconds} s, reason '${reason}'")
endif()

grade(hog --build-memory-limit 512)
if(NOT points EQUAL 0 OR
   NOT reason MATCHES "compiling 00_fixture/scale.cu was stopped: it ran out of memory at the build's limit \\(300 s of CPU time and 512 MiB of memory per process")
  message(FATAL_ERROR "hog: ${points} points in ${seconds} s, reason '${reason}'")
endif()
# A configure that outlives the build's wall-time limit is killed, and the grader says so.
execute_process(COMMAND "${GRADE}" --submission "${subs}/good" --lab fixture --backend sim --quiet
                        --source "${SOURCE}" --build-dir "${WORKDIR}/build-slow"
                        --build-time-limit 0.5 --json "${WORKDIR}/slow.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 2 OR NOT err MATCHES "stopped at its time limit of 0.5 s of wall time")
  message(FATAL_ERROR "a configure past --build-time-limit: exit ${rc}, said:\n${out}${err}")
endif()
message(STATUS "build guards: as expected")
