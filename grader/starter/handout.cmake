# The student handout: an archive of the kit without solutions/ and without
# the instructor-only checks.
#
#   cmake -DSOURCE_DIR=<repo> [-DOUTPUT=<file.tar.gz>] [-DGIT_EXECUTABLE=<git>] -P handout.cmake
#
# OUTPUT defaults to <repo>/build/gpulab-handout.tar.gz. The archive holds one
# folder, gpulab-handout/, so it never unpacks over the current directory.
#
# What goes in: the tracked files (`git ls-files`, with their working-tree
# contents) when SOURCE_DIR is a git checkout and git is found; otherwise every
# file under SOURCE_DIR except .git/, build/, build-*/ and out/. Then left out:
#   - solutions/ (the complete student files);
#   - any path containing "instructor" (case-insensitive), e.g.
#     grader/checks/instructor/ or grader/instructor-only.txt;
#   - every path listed in grader/instructor-only.txt, one per line, relative
#     to the repository root; a path ending in "/" is a folder and leaves out
#     everything under it; blank lines and lines starting with # are ignored.
# Markdown files (*.md) are worded for the student: a part between the lines
# `<!-- instructor -->` and `<!-- /instructor -->` (or between the two markers
# within one line) is for whoever has solutions/, and is cut from the
# archive's copy, markers included. An unclosed, nested or stray marker stops
# the script with the file and line. The archive is listed afterwards, and the
# script fails if anything left out is in it.
cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED SOURCE_DIR)
  message(FATAL_ERROR "handout.cmake: -DSOURCE_DIR=<repository root> is required")
endif()
get_filename_component(SOURCE_DIR "${SOURCE_DIR}" ABSOLUTE)
if(NOT DEFINED OUTPUT)
  set(OUTPUT "${SOURCE_DIR}/build/gpulab-handout.tar.gz")
endif()
get_filename_component(OUTPUT "${OUTPUT}" ABSOLUTE)
set(top gpulab-handout)

# ---- the candidate files ----------------------------------------------------
if(NOT GIT_EXECUTABLE)
  find_program(GIT_EXECUTABLE git)
endif()
set(files "")
set(from_git 0)
if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" -c core.quotepath=off ls-files
                  WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE listing ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "handout: git ls-files failed in ${SOURCE_DIR}: ${err}")
  endif()
  if(listing MATCHES ";")
    message(FATAL_ERROR "handout: a tracked path contains ';', which CMake lists cannot hold")
  endif()
  string(REGEX REPLACE "\n$" "" listing "${listing}")
  if(NOT listing STREQUAL "")
    string(REPLACE "\n" ";" files "${listing}")
  endif()
  set(from_git 1)
else()
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*")
  list(FILTER files EXCLUDE REGEX "^(\\.git|build|build-[^/]*|out)/")
  list(SORT files)
  message(STATUS "handout: not a git checkout (or no git): taking every file under ${SOURCE_DIR}"
                 " except .git/, build/, build-*/ and out/")
endif()

# ---- what is left out -----------------------------------------------------------
set(excluded_prefixes "solutions/")
set(excluded_files "")
set(list_file "${SOURCE_DIR}/grader/instructor-only.txt")
if(EXISTS "${list_file}")
  file(STRINGS "${list_file}" lines)
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line STREQUAL "" OR line MATCHES "^#")
      continue()
    endif()
    string(REGEX REPLACE "^\\./" "" line "${line}")
    if(line MATCHES "/$")
      list(APPEND excluded_prefixes "${line}")
    else()
      list(APPEND excluded_files "${line}")
    endif()
  endforeach()
endif()

function(handout_excluded path out)
  string(TOLOWER "${path}" lower)
  set(hit 0)
  if(lower MATCHES "instructor")
    set(hit 1)
  endif()
  if(path IN_LIST excluded_files)
    set(hit 1)
  endif()
  foreach(prefix IN LISTS excluded_prefixes)
    string(FIND "${path}" "${prefix}" at)
    if(at EQUAL 0)
      set(hit 1)
    endif()
  endforeach()
  set(${out} ${hit} PARENT_SCOPE)
endfunction()

# ---- instructor-only parts of Markdown files -------------------------------------
set(instructor_open "<!-- instructor -->")
set(instructor_close "<!-- /instructor -->")
string(LENGTH "${instructor_open}" instructor_open_len)
string(LENGTH "${instructor_close}" instructor_close_len)

# The line of <text> that offset <at> is on (1-based).
function(handout_line_of text at out)
  string(SUBSTRING "${text}" 0 ${at} before)
  string(REGEX MATCHALL "\n" newlines "${before}")
  list(LENGTH newlines n)
  math(EXPR n "${n} + 1")
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# Cuts the instructor-only parts out of the Markdown file <file> (shown as
# <path> in messages). A part whose markers stand alone on their lines goes
# with those lines; within a line only the span goes.
function(handout_strip_instructor file path)
  file(READ "${file}" original)
  set(text "${original}")
  set(kept "")
  set(consumed 0) # offset of ${text} in ${original}
  set(cut 0)
  while(1)
    string(FIND "${text}" "${instructor_open}" open_at)
    string(FIND "${text}" "${instructor_close}" close_at)
    if(open_at EQUAL -1 AND close_at EQUAL -1)
      break()
    endif()
    if(open_at EQUAL -1 OR (NOT close_at EQUAL -1 AND close_at LESS open_at))
      math(EXPR at "${consumed} + ${close_at}")
      handout_line_of("${original}" ${at} line)
      message(FATAL_ERROR "handout: ${path}:${line}: ${instructor_close} without an "
                          "${instructor_open} before it")
    endif()
    math(EXPR at "${consumed} + ${open_at}")
    handout_line_of("${original}" ${at} line)
    if(close_at EQUAL -1)
      message(FATAL_ERROR "handout: ${path}:${line}: ${instructor_open} is never closed "
                          "(end the instructor-only part with ${instructor_close})")
    endif()
    math(EXPR inner_at "${open_at} + ${instructor_open_len}")
    math(EXPR inner_len "${close_at} - ${inner_at}")
    string(SUBSTRING "${text}" ${inner_at} ${inner_len} inner)
    string(FIND "${inner}" "${instructor_open}" nested)
    if(NOT nested EQUAL -1)
      message(FATAL_ERROR "handout: ${path}:${line}: an ${instructor_open} part holds another "
                          "${instructor_open}; they do not nest")
    endif()
    string(SUBSTRING "${text}" 0 ${open_at} before)
    math(EXPR after_at "${close_at} + ${instructor_close_len}")
    string(SUBSTRING "${text}" ${after_at} -1 after)
    if((before STREQUAL "" OR before MATCHES "\n$") AND after MATCHES "^\n")
      string(SUBSTRING "${after}" 1 -1 after) # a block: its lines go
      math(EXPR after_at "${after_at} + 1")
    endif()
    string(APPEND kept "${before}")
    set(text "${after}")
    math(EXPR consumed "${consumed} + ${after_at}")
    math(EXPR cut "${cut} + 1")
  endwhile()
  if(cut GREATER 0)
    string(APPEND kept "${text}")
    file(WRITE "${file}" "${kept}")
  endif()
endfunction()

# ---- stage and archive -------------------------------------------------------------
get_filename_component(out_dir "${OUTPUT}" DIRECTORY)
set(stage "${OUTPUT}.stage")
file(REMOVE_RECURSE "${stage}")
file(MAKE_DIRECTORY "${stage}/${top}" "${out_dir}")
set(kept 0)
set(left_out 0)
set(vanished "")
foreach(path IN LISTS files)
  handout_excluded("${path}" hit)
  if(hit)
    math(EXPR left_out "${left_out} + 1")
    continue()
  endif()
  if(NOT EXISTS "${SOURCE_DIR}/${path}" AND NOT IS_SYMLINK "${SOURCE_DIR}/${path}")
    list(APPEND vanished "${path}")
    continue()
  endif()
  get_filename_component(dir "${path}" DIRECTORY)
  file(COPY "${SOURCE_DIR}/${path}" DESTINATION "${stage}/${top}/${dir}")
  if(path MATCHES "\\.md$" AND NOT IS_SYMLINK "${SOURCE_DIR}/${path}")
    handout_strip_instructor("${stage}/${top}/${path}" "${path}")
  endif()
  math(EXPR kept "${kept} + 1")
endforeach()
if(vanished)
  list(JOIN vanished "\n  " vanished_text)
  message(WARNING "handout: tracked but deleted in the working tree, not in the archive:\n  ${vanished_text}")
endif()

file(REMOVE "${OUTPUT}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar czf "${OUTPUT}" "${top}"
                WORKING_DIRECTORY "${stage}" RESULT_VARIABLE rc ERROR_VARIABLE err)
file(REMOVE_RECURSE "${stage}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "handout: cmake -E tar failed: ${err}")
endif()

# ---- verify ------------------------------------------------------------------------
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar tf "${OUTPUT}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE listing ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "handout: cannot list ${OUTPUT}: ${err}")
endif()
string(REGEX REPLACE "\n$" "" listing "${listing}")
string(REPLACE "\n" ";" entries "${listing}")
foreach(entry IN LISTS entries)
  string(REGEX REPLACE "^${top}/" "" path "${entry}")
  if(path STREQUAL "" OR path MATCHES "/$")
    continue()
  endif()
  handout_excluded("${path}" hit)
  if(hit)
    file(REMOVE "${OUTPUT}")
    message(FATAL_ERROR "handout: ${path} is instructor-only but got into the archive; removed it")
  endif()
endforeach()

if(from_git)
  set(source "tracked files")
else()
  set(source "files")
endif()
message(STATUS "handout: wrote ${OUTPUT}: ${kept} ${source}, ${left_out} left out "
               "(solutions/, instructor-only)")
