# --submission, --batch and --package-gradescope, on the fixture lab:
# submissions made from the fixture's solution (full marks), its starter
# (zero), one that does not compile, one that lacks the file, and one that
# holds a labs/ folder, graded in one batch; then one submission graded alone
# (the compile error must be its reason), ones that include the solution or link to it
# (refused, each with its reason), one whose compile error holds a
# Latin-1 byte (every report must parse), and a Gradescope bundle written.
# As root, the batch also holds hostile neighbours (a killer, a fork bomb, a
# memory hoard, a /tmp filler: every clean submission must still get full
# marks), and a submission that reaches for the kit at run time is graded
# alone (it must find nothing of it).
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
# As root, the starter with a constructor that reaches for the kit at run time, as one once
# did: it reads the kit's solution source and the build trees' CMakeCache.txt (exit 3 naming
# what it read), then executes the kit's built solution program in its own place (full marks,
# were it reachable). The kit hidden, it runs as the starter: 0 points, the starter's reason.
set(exec_case "")
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
if(uid STREQUAL "0")
  set(exec_case "cheats/exec;y: [0-9]+ of [0-9]+ elements differ")
  get_filename_component(bindir "${GRADE}" DIRECTORY)
  file(READ "${fixture}/labs/00_fixture/scale.cu" starter_text)
  file(WRITE "${WORKDIR}/cheats/exec/00_fixture/scale.cu" "#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
__attribute__((constructor)) static void take(void)
{
    const char *kit[] = { \"${fixture}/solutions/00_fixture/scale.cu\",
                          \"${bindir}/../CMakeCache.txt\",
                          \"${WORKDIR}/slots/slot0/CMakeCache.txt\" };
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen(kit[i], \"r\");
        if (f) {
            fprintf(stderr, \"read %s\\n\", kit[i]);
            exit(3);
        }
    }
    static char buf[65536];
    static char *argv[256];
    FILE *f = fopen(\"/proc/self/cmdline\", \"r\");
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    int argc = 0;
    for (size_t i = 0; i < n && argc < 255; i += strlen(buf + i) + 1)
        argv[argc++] = buf + i;
    execv(\"${bindir}/fixture-sim-solution\", argv);
}
${starter_text}")
endif()
# A folder name with a Latin-1 byte (0xE9): grades.csv must stay valid UTF-8.
string(ASCII 233 latin1_e)
file(MAKE_DIRECTORY "${subs}/caf${latin1_e}/00_fixture")
file(COPY "${fixture}/solutions/00_fixture/scale.cu" DESTINATION "${subs}/caf${latin1_e}/00_fixture")

# As root (where each run is isolated), neighbours that attack while the batch grades: a run
# that SIGKILLs every process it can see and kill(-1) for 10 s (named to be graded first, so
# its runs overlap the clean ones' in the other slot), a fork bomb up to its process limit, a
# run that touches 1 GiB and holds it, one that fills /tmp and /dev/shm; each for seconds in a
# constructor, before the fixture's own code. Every clean submission must still get full marks,
# and nothing they wrote may stay in the machine's /tmp or /dev/shm.
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
set(rows_expected 7)
if(uid STREQUAL "0")
  set(hostile_code [=[
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static double hostile_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static void hostile_wait(double end)
{
    while (hostile_now() < end)
        usleep(20000);
}
__attribute__((constructor)) static void hostile(void)
{
    double end = hostile_now() + HOSTILE_SECONDS;
#if defined(HOSTILE_KILL)
    while (hostile_now() < end) {
        DIR *d = opendir("/proc");
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            long p = atol(e->d_name);
            if (p > 1 && p != (long)getpid()) {
                kill((pid_t)p, SIGKILL);
                kill((pid_t)-p, SIGKILL);
            }
        }
        if (d)
            closedir(d);
        kill(-1, SIGKILL);
        usleep(20000);
    }
#elif defined(HOSTILE_FORK)
    while (hostile_now() < end) {
        pid_t p = fork();
        if (p == 0) {
            hostile_wait(end);
            _exit(0);
        }
        if (p < 0)
            usleep(20000);
    }
    while (wait(NULL) > 0) {
    }
#elif defined(HOSTILE_HOG)
    for (int i = 0; i < 16; i++) {
        char *volatile p = (char *)malloc((size_t)64 << 20); /* volatile: never elided */
        if (!p)
            break;
        memset(p, 1, (size_t)64 << 20); /* never freed: held until the program ends */
    }
    hostile_wait(end);
#elif defined(HOSTILE_TMP)
    static char chunk[1 << 20];
    memset(chunk, 'x', sizeof(chunk));
    const char *dirs[] = { "/tmp", "/dev/shm", "/var/tmp" };
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 64; i++) {
            char path[64];
            snprintf(path, sizeof(path), "%s/gpulab-hostile-%d", dirs[k], i);
            FILE *f = fopen(path, "w");
            int full = !f;
            for (int j = 0; f && j < 16 && !full; j++)
                full = fwrite(chunk, 1, sizeof(chunk), f) != sizeof(chunk);
            if (f && fclose(f) != 0)
                full = 1;
            if (full)
                break;
        }
    hostile_wait(end);
#endif
}
]=])
  file(READ "${fixture}/solutions/00_fixture/scale.cu" solution_text)
  foreach(h IN ITEMS "a-killer;KILL;10" "hostile-fork;FORK;3" "hostile-hog;HOG;3" "hostile-tmp;TMP;3")
    list(GET h 0 name)
    list(GET h 1 what)
    list(GET h 2 seconds)
    file(WRITE "${subs}/${name}/00_fixture/scale.cu"
         "#define HOSTILE_${what} 1\n#define HOSTILE_SECONDS ${seconds}\n${hostile_code}${solution_text}")
  endforeach()
  file(GLOB left_before /tmp/gpulab-hostile-* /dev/shm/gpulab-hostile-* /var/tmp/gpulab-hostile-*)
  if(left_before)
    file(REMOVE ${left_before})
  endif()
  set(rows_expected 11)
endif()

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
    --out "${WORKDIR}/grades" --build-dir "${WORKDIR}/slots")
# Its slots' builds are kept under --build-dir: the submissions graded alone below reuse one.
if(NOT EXISTS "${WORKDIR}/slots/slot0/CMakeCache.txt" OR NOT EXISTS "${WORKDIR}/slots/slot1/bin")
  message(FATAL_ERROR "--batch --build-dir ${WORKDIR}/slots did not keep its slots' builds")
endif()
file(STRINGS "${WORKDIR}/grades/grades.csv" rows ENCODING UTF-8)
list(LENGTH rows n)
if(NOT n EQUAL rows_expected)
  message(FATAL_ERROR "grades.csv: ${n} lines, expected a header and a row per submission:\n${rows}")
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
if(uid STREQUAL "0")
  foreach(name a-killer hostile-fork hostile-hog hostile-tmp)
    string(FIND "${rows}" "\"${name}\"," at)
    if(at EQUAL -1)
      message(FATAL_ERROR "grades.csv has no row for ${name}:\n${rows}")
    endif()
  endforeach()
  file(GLOB left /tmp/gpulab-hostile-* /dev/shm/gpulab-hostile-* /var/tmp/gpulab-hostile-*)
  if(left)
    message(FATAL_ERROR "files a graded run wrote stayed on the machine: ${left}")
  endif()
  # Whether the killer was still being graded when a clean submission's report was written
  # (its three runs attack for 30 s; they start once both slots have built the kit, while the
  # other slot grades broken, caf\xe9 and good in turn).
  file(TIMESTAMP "${WORKDIR}/grades/a-killer.json" t_killer "%s")
  set(overlapped "")
  foreach(clean "caf${latin1_e}" good)
    file(TIMESTAMP "${WORKDIR}/grades/${clean}.json" t "%s")
    if(t AND t_killer GREATER_EQUAL t)
      list(APPEND overlapped "${clean}")
    endif()
  endforeach()
  if(overlapped)
    message(STATUS "batch: the killer was graded until after these reports: ${overlapped}")
  else()
    message(STATUS "batch: the killer's grading ended before the clean reports (no overlap)")
  endif()
endif()
math(EXPR n_subs "${rows_expected} - 1")
message(STATUS "batch: ${n_subs} submissions graded, each clean one with full marks")
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
                      "cheats/link;the submission's 00_fixture/scale.cu is a symbolic link: refused"
                      "${exec_case}")
  if(NOT case)
    continue()
  endif()
  list(GET case 0 name)
  list(GET case 1 reason)
  set(dir "${subs}/${name}")
  if(name MATCHES "^cheats/")
    set(dir "${WORKDIR}/${name}")
  endif()
  run("${GRADE}" --submission "${dir}" --lab fixture --backend sim --quiet
      --source "${SOURCE}" --build-dir "${WORKDIR}/slots/slot0" --json "${WORKDIR}/${name}.json")
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
      --source "${SOURCE}" --build-dir "${WORKDIR}/slots/slot0" --json "${WORKDIR}/latin1.json"
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
