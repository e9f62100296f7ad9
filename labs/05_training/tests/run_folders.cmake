# Each run of lab 05's demo gets a folder of its own, and says where.
#
#   cmake -DPROGRAM=<lab05-sim-solution> -DWORKDIR=<dir> -P run_folders.cmake
#
# Runs a short demo twice in WORKDIR (runs/ under it, as a student runs it
# from the repository root) and checks: two folders under runs/, each with
# its own cpu/ and device-sim/ logs (an event file and steps.csv each), no
# shared runs/cpu; and each run's output names its own folder by its
# absolute path.
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
file(REAL_PATH "${WORKDIR}" workdir)
set(outputs "")
foreach(k 1 2)
  execute_process(COMMAND "${PROGRAM}" --images 16 --batch 8 --no-sweep
                  WORKING_DIRECTORY "${workdir}" OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("run ${k}:\n${out}${err}")
  list(APPEND outputs "${out}")
endforeach()
file(GLOB runs LIST_DIRECTORIES true "${workdir}/runs/*")
list(LENGTH runs n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "expected two run folders in ${workdir}/runs, found ${n}: ${runs}")
endif()
if(EXISTS "${workdir}/runs/cpu")
  message(FATAL_ERROR "runs/cpu exists: the runs share one folder")
endif()
foreach(k 0 1)
  list(GET runs ${k} run)
  foreach(part cpu device-sim)
    file(GLOB events "${run}/${part}/events.out.tfevents.*")
    list(LENGTH events n_events)
    if(NOT n_events EQUAL 1 OR NOT EXISTS "${run}/${part}/steps.csv")
      message(FATAL_ERROR "${run}/${part} should hold one event file and steps.csv")
    endif()
  endforeach()
  # Which output names this folder (absolute), and only one of them does.
  set(named 0)
  foreach(out IN LISTS outputs)
    string(FIND "${out}" "go to a new folder:\n   ${run}/\n" at)
    if(NOT at EQUAL -1)
      math(EXPR named "${named} + 1")
    endif()
  endforeach()
  if(NOT named EQUAL 1)
    message(FATAL_ERROR "${run}: named by ${named} of the two runs' outputs, expected 1")
  endif()
endforeach()
