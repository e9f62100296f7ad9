# The tests of gpulab-starter itself (CTest: starter-tool). Run as
#   cmake -DSTARTER=<gpulab-starter> -DSRC=<this folder> -DWORK=<scratch folder> -P run_tests.cmake
#
#   cases/<name>.sol      a solution file; <name>.starter is its starter, byte for byte
#   errors/<name>.sol     a malformed solution file; <name>.err is the exact stderr of
#                         `gpulab-starter strip errors/<name>.sol` (run in this folder)
#
# Then the tree modes on a scratch copy: check (missing, in step, out of step),
# generate (writes what changed, leaves harness files alone, writes nothing
# when a solution file is malformed).
foreach(var STARTER SRC WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_tests.cmake: -D${var}=... is required")
  endif()
endforeach()

set(failures 0)
macro(fail msg)
  message(SEND_ERROR "FAIL: ${msg}")
  math(EXPR failures "${failures} + 1")
endmacro()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# ---- strip: each case's starter, byte for byte --------------------------------
file(GLOB cases RELATIVE "${SRC}/cases" "${SRC}/cases/*.sol")
list(LENGTH cases ncases)
if(ncases LESS 7)
  fail("expected at least 7 cases in ${SRC}/cases, found ${ncases}")
endif()
foreach(sol IN LISTS cases)
  string(REGEX REPLACE "\\.sol$" "" name "${sol}")
  execute_process(COMMAND "${STARTER}" strip "${SRC}/cases/${sol}"
                  OUTPUT_FILE "${WORK}/${name}.got" ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    fail("strip ${sol}: exit ${rc}: ${err}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${WORK}/${name}.got"
                          "${SRC}/cases/${name}.starter" RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    fail("strip ${sol}: output ${WORK}/${name}.got differs from cases/${name}.starter")
  else()
    message(STATUS "ok   strip ${sol}")
  endif()
endforeach()

# ---- strip: each malformed file is refused with its message -------------------
file(GLOB errors RELATIVE "${SRC}/errors" "${SRC}/errors/*.sol")
list(LENGTH errors nerrors)
if(nerrors LESS 6)
  fail("expected at least 6 cases in ${SRC}/errors, found ${nerrors}")
endif()
foreach(sol IN LISTS errors)
  string(REGEX REPLACE "\\.sol$" "" name "${sol}")
  execute_process(COMMAND "${STARTER}" strip "errors/${sol}" WORKING_DIRECTORY "${SRC}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  file(READ "${SRC}/errors/${name}.err" want)
  if(NOT rc EQUAL 2)
    fail("strip errors/${sol}: exit ${rc}, expected 2")
  elseif(NOT out STREQUAL "")
    fail("strip errors/${sol}: wrote a starter anyway:\n${out}")
  elseif(NOT err STREQUAL want)
    fail("strip errors/${sol}: stderr\n${err}expected\n${want}")
  else()
    message(STATUS "ok   strip errors/${sol} refused")
  endif()
endforeach()

# ---- usage -------------------------------------------------------------------
execute_process(COMMAND "${STARTER}" frobnicate ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "usage:")
  fail("bad usage: exit ${rc}, stderr: ${err}")
endif()
execute_process(COMMAND "${STARTER}" check "${WORK}/no-such-dir" "${WORK}/labs"
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "not a solutions folder")
  fail("check of a missing solutions folder: exit ${rc}, stderr: ${err}")
endif()

# ---- the tree modes ------------------------------------------------------------
# solutions/<rel> is made from cases/<case>.sol, and its starter must equal
# cases/<case>.starter.
set(tree
  "01_first/vec_add.cu=vec_add.cu"
  "01_first/host/matvec_host.c=matvec_host.c"
  "02_second/Makefile=Makefile"
  "02_second/scripts/train.py=train.py"
  "02_second/crlf.cu=crlf.cu"
  "02_second/plain.c=plain.c"
  "02_second/data/.hidden.npy=data.npy")
set(sols "${WORK}/tree/solutions")
set(labs "${WORK}/tree/labs")
foreach(entry IN LISTS tree)
  string(REGEX MATCH "^([^=]+)=(.+)$" _ "${entry}")
  get_filename_component(dir "${sols}/${CMAKE_MATCH_1}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  file(COPY_FILE "${SRC}/cases/${CMAKE_MATCH_2}.sol" "${sols}/${CMAKE_MATCH_1}")
endforeach()
# A harness file of the lab, with no counterpart in solutions/: never touched.
file(MAKE_DIRECTORY "${labs}/01_first")
file(WRITE "${labs}/01_first/main.c" "int main(void) { return 0; }\n")

function(run_starter)
  execute_process(COMMAND "${STARTER}" ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
  set(rc "${rc}" PARENT_SCOPE)
endfunction()

# check before generate: every starter is missing.
run_starter(check "${sols}" "${labs}")
string(REGEX MATCHALL "missing: the starter of" missing "${err}")
list(LENGTH missing nmissing)
if(NOT rc EQUAL 1 OR NOT nmissing EQUAL 7 OR NOT err MATCHES "7 of 7 starter files out of step")
  fail("check with no starters: exit ${rc}, ${nmissing} missing, stderr:\n${err}")
else()
  message(STATUS "ok   check names the 7 missing starters")
endif()

# generate writes all seven; each equals its expected starter.
run_starter(generate "${sols}" "${labs}")
string(REGEX MATCHALL "\nwrote |^wrote " wrote "${out}")
list(LENGTH wrote nwrote)
if(NOT rc EQUAL 0 OR NOT nwrote EQUAL 7 OR NOT out MATCHES "7 starter files written, 0 up to date")
  fail("generate: exit ${rc}, wrote ${nwrote}:\n${out}${err}")
endif()
foreach(entry IN LISTS tree)
  string(REGEX MATCH "^([^=]+)=(.+)$" _ "${entry}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${labs}/${CMAKE_MATCH_1}"
                          "${SRC}/cases/${CMAKE_MATCH_2}.starter" RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    fail("generate: labs/${CMAKE_MATCH_1} differs from cases/${CMAKE_MATCH_2}.starter")
  endif()
endforeach()
file(READ "${labs}/01_first/main.c" harness)
if(NOT harness STREQUAL "int main(void) { return 0; }\n")
  fail("generate touched the harness labs/01_first/main.c")
endif()
file(GLOB_RECURSE leftovers "${labs}/*.tmp")
if(leftovers)
  fail("generate left temporary files: ${leftovers}")
endif()
message(STATUS "ok   generate writes the 7 starters, byte for byte")

# In step: check passes; generate again writes nothing.
run_starter(check "${sols}" "${labs}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "7 starter files in step")
  fail("check after generate: exit ${rc}:\n${out}${err}")
endif()
run_starter(generate "${sols}" "${labs}")
if(NOT rc EQUAL 0 OR out MATCHES "wrote " OR NOT out MATCHES "0 starter files written, 7 up to date")
  fail("generate when in step: exit ${rc}:\n${out}${err}")
else()
  message(STATUS "ok   check passes and generate writes nothing when in step")
endif()

# Out of step: a solution edited (line 11 of vec_add's starter), a starter
# edited by hand (CRLF turned to LF: line 1), a starter deleted.
file(READ "${sols}/01_first/vec_add.cu" text)
string(REPLACE "(void)n;" "(void)n; /* edited */" text "${text}")
file(WRITE "${sols}/01_first/vec_add.cu" "${text}")
file(READ "${labs}/02_second/crlf.cu" text)
string(REPLACE "\r\n" "\n" text "${text}")
file(WRITE "${labs}/02_second/crlf.cu" "${text}")
file(REMOVE "${labs}/02_second/scripts/train.py")
run_starter(check "${sols}" "${labs}")
set(want_lines
  "labs/01_first/vec_add.cu:10: out of step with [^\n]*solutions/01_first/vec_add.cu\n  starter: \"    \\(void\\)n; /\\* edited \\*/\"\n  labs:    \"    \\(void\\)n;\"\n"
  "labs/02_second/crlf.cu:1: out of step with [^\n]*solutions/02_second/crlf.cu\n  starter: \"__global__ void scale\\(float \\*x, float s, int n\\)\\\\r\"\n"
  "labs/02_second/scripts/train.py: missing: the starter of [^\n]*solutions/02_second/scripts/train.py\n"
  "3 of 7 starter files out of step")
set(ok 1)
foreach(want IN LISTS want_lines)
  if(NOT err MATCHES "${want}")
    set(ok 0)
    fail("check out of step: stderr does not match\n  ${want}")
  endif()
endforeach()
if(NOT rc EQUAL 1 OR NOT ok)
  fail("check out of step: exit ${rc}, stderr:\n${err}")
else()
  message(STATUS "ok   check names each out-of-step file and its first differing line")
endif()

run_starter(generate "${sols}" "${labs}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "3 starter files written, 4 up to date")
  fail("generate after edits: exit ${rc}:\n${out}${err}")
endif()
run_starter(check "${sols}" "${labs}")
if(NOT rc EQUAL 0)
  fail("check after regenerating: exit ${rc}:\n${err}")
endif()

# A malformed solution file: generate refuses and writes nothing at all.
file(COPY_FILE "${SRC}/errors/unterminated.cu.sol" "${sols}/02_second/broken.cu")
file(WRITE "${sols}/01_first/vec_add.cu" "// changed, and not written because broken.cu is malformed\n")
run_starter(generate "${sols}" "${labs}")
if(NOT rc EQUAL 2 OR NOT err MATCHES "broken.cu:3: the region opened here is not closed"
   OR NOT err MATCHES "nothing written" OR EXISTS "${labs}/02_second/broken.cu")
  fail("generate with a malformed file: exit ${rc}:\n${out}${err}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${labs}/01_first/vec_add.cu"
                        "${sols}/01_first/vec_add.cu" RESULT_VARIABLE same)
if(same EQUAL 0)
  fail("generate wrote a starter although a solution file is malformed")
else()
  message(STATUS "ok   generate writes nothing when a solution file is malformed")
endif()
run_starter(check "${sols}" "${labs}")
if(NOT rc EQUAL 2 OR NOT err MATCHES "broken.cu:3:")
  fail("check with a malformed file: exit ${rc}:\n${err}")
endif()
file(REMOVE "${sols}/02_second/broken.cu")

# A symbolic link in the solutions tree is an error, not skipped.
file(CREATE_LINK "vec_add.cu" "${sols}/01_first/link.cu" RESULT link_rc SYMBOLIC)
if(link_rc EQUAL 0)
  run_starter(check "${sols}" "${labs}")
  if(NOT rc EQUAL 2 OR NOT err MATCHES "link.cu: a symbolic link")
    fail("check with a symbolic link: exit ${rc}:\n${err}")
  else()
    message(STATUS "ok   a symbolic link in solutions/ is reported")
  endif()
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} starter-tool check(s) failed")
endif()
message(STATUS "starter-tool: all checks passed")
