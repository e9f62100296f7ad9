# The test of handout.cmake (CTest: starter-handout), on a scratch repository:
#   cmake -DHANDOUT=<handout.cmake> -DWORK=<scratch> [-DGIT_EXECUTABLE=<git>] -P handout_test.cmake
# With git: only tracked files go in. Without git (or as a second run, with
# .git removed): every file but build/. Either way solutions/ and the
# instructor-only files stay out, the archive unpacks into gpulab-handout/,
# and its Markdown files lose their <!-- instructor --> parts (the kit's own
# keep them). Unclosed, stray and nested markers stop the packing with the
# file and line.
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
# Markdown with instructor-only parts: a block, a span within a line, a block
# at the very start and one at the very end without a final newline. The
# Makefile's marker is not Markdown and stays.
set(readme_text
  "<!-- instructor -->\nFor instructors only.\n<!-- /instructor -->\n"
  "# Kit\n"
  "Run `make grade`.\n"
  "<!-- instructor -->\n"
  "Instructors: solutions/ is graded beside labs/.\n"
  "\n"
  "A second paragraph; with a semicolon.\n"
  "<!-- /instructor -->\n"
  "It grades your labs<!-- instructor --> and the solutions<!-- /instructor -->, "
  "then prints a table<!-- instructor --> (solution column)<!-- /instructor -->.\n"
  "The end.\n"
  "<!-- instructor -->\nsolutions/ again\n<!-- /instructor -->")
set(readme_student "# Kit\nRun `make grade`.\nIt grades your labs, then prints a table.\nThe end.\n")
string(CONCAT readme_text ${readme_text})
file(WRITE "${repo}/README.md" "${readme_text}")
file(WRITE "${repo}/Makefile" "# <!-- instructor -->solutions<!-- /instructor -->\n")

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
  file(READ "${WORK}/unpacked/gpulab-handout/README.md" text)
  if(NOT text STREQUAL readme_student)
    message(FATAL_ERROR "${label}: the archive's README.md is\n${text}\nexpected\n${readme_student}")
  endif()
  file(READ "${WORK}/unpacked/gpulab-handout/Makefile" text)
  if(NOT text STREQUAL "# <!-- instructor -->solutions<!-- /instructor -->\n")
    message(FATAL_ERROR "${label}: the archive's Makefile changed (only Markdown is cut): ${text}")
  endif()
  file(READ "${repo}/README.md" text)
  if(NOT text STREQUAL readme_text)
    message(FATAL_ERROR "${label}: packing changed the kit's own README.md")
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

# Broken markers stop the packing and name the file and line.
function(check_refused label text want)
  file(WRITE "${repo}/labs/01_devices/README.md" "${text}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -DSOURCE_DIR=${repo} -DGIT_EXECUTABLE=/nonexistent/git
                          -P "${HANDOUT}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "${want}")
    message(FATAL_ERROR "${label}: expected a refusal matching ${want}, got (${rc}):\n${out}${err}")
  endif()
  message(STATUS "ok   ${label}")
endfunction()
check_refused("unclosed marker" "a\n\n<!-- instructor -->\nb\n"
              "labs/01_devices/README.md:3: <!-- instructor --> is never closed")
check_refused("stray closing marker" "a\n<!-- /instructor -->\n"
              "labs/01_devices/README.md:2: <!-- /instructor --> without")
check_refused("nested markers" "<!-- instructor -->\n<!-- instructor -->\n<!-- /instructor -->\n"
              "labs/01_devices/README.md:1: .* do not nest")
message(STATUS "starter-handout: all checks passed")
