# The test of handout.cmake (CTest: starter-handout), on a scratch repository:
#   cmake -DHANDOUT=<handout.cmake> -DWORK=<scratch> [-DGIT_EXECUTABLE=<git>] -P handout_test.cmake
# With git: only tracked files go in. Without git (or as a second run, with
# .git removed): every file but build/. Either way solutions/ and the
# instructor-only files stay out, and the archive unpacks into gpulab-handout/.
foreach(var HANDOUT WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "handout_test.cmake: -D${var}=... is required")
  endif()
endforeach()

set(repo "${WORK}/repo")
file(REMOVE_RECURSE "${WORK}")
set(tracked
  README.md
  Makefile
  labs/01_devices/README.md
  labs/01_devices/devices.cu
  solutions/01_devices/devices.cu
  grader/checks/lab01.c
  grader/checks/hidden_lab01.c
  grader/checks/secret/extra.c
  grader/checks/Instructor_notes.md
  grader/instructor/keys.json
  grader/instructor-only.txt)
foreach(path IN LISTS tracked)
  file(WRITE "${repo}/${path}" "${path}\n")
endforeach()
file(WRITE "${repo}/grader/instructor-only.txt"
     "# instructor-only files besides any path containing 'instructor'\n"
     "\n"
     "grader/checks/hidden_lab01.c\n"
     "  ./grader/checks/secret/  \n")
file(WRITE "${repo}/build/CMakeCache.txt" "a build product\n")

set(in_archive
  Makefile README.md grader/checks/lab01.c labs/01_devices/README.md labs/01_devices/devices.cu)

function(check_archive label expected)
  file(REMOVE_RECURSE "${WORK}/unpacked")
  file(MAKE_DIRECTORY "${WORK}/unpacked")
  execute_process(COMMAND "${CMAKE_COMMAND}" -DSOURCE_DIR=${repo} ${ARGN} -P "${HANDOUT}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${repo}/build/gpulab-handout.tar.gz")
    message(FATAL_ERROR "${label}: handout.cmake failed (${rc}):\n${out}${err}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xzf "${repo}/build/gpulab-handout.tar.gz"
                  WORKING_DIRECTORY "${WORK}/unpacked" RESULT_VARIABLE rc)
  file(GLOB_RECURSE got LIST_DIRECTORIES false RELATIVE "${WORK}/unpacked" "${WORK}/unpacked/*")
  list(SORT got)
  set(want "")
  foreach(path IN LISTS expected)
    list(APPEND want "gpulab-handout/${path}")
  endforeach()
  list(SORT want)
  if(NOT rc EQUAL 0 OR NOT got STREQUAL want)
    string(REPLACE ";" "\n  " got_text "${got}")
    string(REPLACE ";" "\n  " want_text "${want}")
    message(FATAL_ERROR "${label}: the archive holds\n  ${got_text}\nexpected\n  ${want_text}")
  endif()
  file(READ "${WORK}/unpacked/gpulab-handout/labs/01_devices/devices.cu" text)
  if(NOT text STREQUAL "labs/01_devices/devices.cu\n")
    message(FATAL_ERROR "${label}: labs/01_devices/devices.cu has the wrong contents: ${text}")
  endif()
  message(STATUS "ok   ${label}: ${out}")
endfunction()

if(GIT_EXECUTABLE)
  execute_process(COMMAND "${GIT_EXECUTABLE}" init -q WORKING_DIRECTORY "${repo}" RESULT_VARIABLE rc)
  execute_process(COMMAND "${GIT_EXECUTABLE}" add ${tracked} WORKING_DIRECTORY "${repo}"
                  RESULT_VARIABLE rc2)
  if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "could not make the scratch git repository in ${repo}")
  endif()
  # Untracked files stay out of a handout made from git.
  file(WRITE "${repo}/labs/01_devices/scratch_notes.txt" "untracked\n")
  check_archive("from git ls-files" "${in_archive}" -DGIT_EXECUTABLE=${GIT_EXECUTABLE})
  file(REMOVE_RECURSE "${repo}/.git")
  list(APPEND in_archive labs/01_devices/scratch_notes.txt)
else()
  message(STATUS "git not found: testing the fallback only")
endif()
# Without git: every file except build/ (untracked ones included).
check_archive("without git" "${in_archive}" -DGIT_EXECUTABLE=/nonexistent/git)
message(STATUS "starter-handout: all checks passed")
