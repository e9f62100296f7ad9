# A lab's solution under every check of the simulator (GPULAB_SIM_CHECK=all):
# its demo, then every graded run the grader makes for the lab, must give no
# report at all ("ERROR SUMMARY: 0 errors"). A report on a correct program is
# a check-mode bug, as a missed one on a buggy program would be.
#
#   cmake -DPROGRAM=<labNN-sim-solution> -DGRADE=<gpulab-grade> -DLAB=<labNN>
#         -DWORKDIR=<dir> [-DDEMO_ARGS=<arg;...>] [-DAPI_ERRORS=<regex>]
#         -P run_lab_checked.cmake
#
# API_ERRORS: the lab provokes failing CUDA calls on purpose (lab 02's error
# lessons, lab 01's run with no device), and memcheck rightly reports each
# one ("Program hit cudaErrorInvalidValue (error 1) due to ... on CUDA API
# call to cudaMemcpy."). Report lines "Program hit <API_ERRORS>" are allowed,
# nothing else. Access counts (GPULAB_SIM_STATS=1, which some checks set)
# are not reports.
#
# The graded runs: gpulab-grade makes each check's inputs and runs the
# program (or its check twin) in graded mode, here through a wrapper (a
# program of the same name in WORKDIR/bin) that sets GPULAB_SIM_CHECK=all and
# keeps the run's stderr in WORKDIR/logs. The grader's scores are not judged here (the lab's own
# grade test does that; a run with API errors exits 1 under memcheck).
get_filename_component(name "${PROGRAM}" NAME)
get_filename_component(bin "${PROGRAM}" DIRECTORY)
set(failures "")

# Judges one run's stderr; what: how the run is named in messages.
function(judge what text)
  if(NOT text MATCHES "gpulab-sim check mode: memcheck racecheck synccheck initcheck")
    set(failures "${failures}\n  ${what}: the check mode did not start" PARENT_SCOPE)
    return()
  endif()
  if(NOT text MATCHES "ERROR SUMMARY: [0-9]+ error")
    set(failures "${failures}\n  ${what}: no ERROR SUMMARY (did it crash or time out?)"
        PARENT_SCOPE)
    return()
  endif()
  string(REPLACE ";" "," text "${text}") # a line is one list element
  string(REGEX MATCHALL "========= [^\n]*" lines "${text}")
  set(bad "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE " #[0-9a-f]+$" "" line "${line}") # the grader's report key
    if(line MATCHES "^========= (gpulab-sim check mode|ERROR SUMMARY|gpulab-sim stats)" OR
       line MATCHES "^=========     ([0-9]+ threads, global loads|global (load|store) requests|shared requests)")
      continue()
    endif()
    if(API_ERRORS AND line MATCHES "^========= Program hit ${API_ERRORS}")
      continue()
    endif()
    string(APPEND bad "\n    ${line}")
  endforeach()
  if(NOT API_ERRORS AND NOT text MATCHES "ERROR SUMMARY: 0 errors")
    string(APPEND bad "\n    (the ERROR SUMMARY is not 0)")
  endif()
  if(bad)
    set(failures "${failures}\n  ${what} reported:${bad}" PARENT_SCOPE)
  endif()
endfunction()

# The demo.
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}/demo" "${WORKDIR}/bin" "${WORKDIR}/logs")
execute_process(COMMAND ${CMAKE_COMMAND} -E env GPULAB_SIM_CHECK=all "${PROGRAM}" ${DEMO_ARGS}
                WORKING_DIRECTORY "${WORKDIR}/demo" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 600)
message("---- demo (${name} ${DEMO_ARGS}), exit ${rc}\n${err}")
judge("the demo" "${err}")
if(NOT API_ERRORS AND NOT rc EQUAL 0)
  set(failures "${failures}\n  the demo exited with ${rc}, not 0")
endif()

# The graded runs, through the wrapper. The grader may run programs as an
# unprivileged user: the log folder is writable by everyone.
file(GLOB kit_programs "${bin}/${LAB}-*")
foreach(p IN LISTS kit_programs)
  get_filename_component(n "${p}" NAME)
  if(NOT n STREQUAL name AND NOT n STREQUAL "${name}.check")
    file(CREATE_LINK "${p}" "${WORKDIR}/bin/${n}" SYMBOLIC)
  endif()
endforeach()
# The program and its check twin (which the grader runs itself when a check
# has the simulator instrument the run) each get a wrapper.
foreach(suffix "" ".check")
  file(WRITE "${WORKDIR}/wrapper${suffix}.sh"
       "#!/bin/sh\n"
       "# ${name}${suffix} in graded mode under every check; stderr kept for run_lab_checked.cmake.\n"
       "GPULAB_SIM_CHECK=all\n"
       "export GPULAB_SIM_CHECK\n"
       "log=\"${WORKDIR}/logs/\${PWD##*/}.err\"\n"
       "echo \"inputs:\" * >\"$log\"\n"
       "exec \"${PROGRAM}${suffix}\" \"$@\" 2>>\"$log\"\n")
  file(COPY_FILE "${WORKDIR}/wrapper${suffix}.sh" "${WORKDIR}/bin/${name}${suffix}")
  file(CHMOD "${WORKDIR}/bin/${name}${suffix}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
             GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
file(CHMOD "${WORKDIR}/logs" DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
           GROUP_WRITE GROUP_EXECUTE WORLD_READ WORLD_WRITE WORLD_EXECUTE SETGID)
execute_process(COMMAND "${GRADE}" --solutions --lab ${LAB} --backend sim --quiet --bin
                        "${WORKDIR}/bin" --time-limit 600 --json "${WORKDIR}/grades.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
message("---- graded runs (gpulab-grade --lab ${LAB}), exit ${rc}\n${table}${err}")
if(NOT rc EQUAL 0 OR NOT EXISTS "${WORKDIR}/grades.json")
  message(FATAL_ERROR "gpulab-grade failed (${rc})")
endif()
file(READ "${WORKDIR}/grades.json" json)
string(JSON checks LENGTH "${json}" results)
file(GLOB logs "${WORKDIR}/logs/*.err")
list(LENGTH logs runs)
if(NOT runs EQUAL checks)
  set(failures "${failures}\n  ${runs} graded runs left a log, for ${checks} checks")
endif()
foreach(log IN LISTS logs)
  file(READ "${log}" err)
  string(REGEX MATCH "^inputs:[^\n]*" inputs "${err}")
  judge("the graded run with ${inputs}" "${err}")
endforeach()

if(failures)
  message(FATAL_ERROR "${LAB}'s solution under GPULAB_SIM_CHECK=all:${failures}")
endif()
message("${LAB}'s solution under GPULAB_SIM_CHECK=all: the demo and ${runs} graded runs, no report")
