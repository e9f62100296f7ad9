# Grades one lab with gpulab-grade on the sim backend and checks the reason
# of each named check (lab 05's diagnosis tests).
#
#   cmake -DGRADE=<gpulab-grade> -DLAB=<lab> -DBIN=<dir> -DWORKDIR=<dir>
#         -DCHECKS=<regex;...> -DREASONS=<regex;...> -P check_reasons.cmake
#
# Only the student variant in BIN is graded (--labs). For each i, the checks
# whose name matches CHECKS[i] must fail, each with a reason matching
# REASONS[i]; at least one check must match each CHECKS[i].
file(MAKE_DIRECTORY "${WORKDIR}")
set(report "${WORKDIR}/grades.json")
file(REMOVE "${report}")
execute_process(COMMAND "${GRADE}" --labs --lab ${LAB} --backend sim --quiet --bin "${BIN}"
                        --json "${report}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
message("${table}${err}")
if(NOT rc EQUAL 0 OR NOT EXISTS "${report}")
  message(FATAL_ERROR "gpulab-grade failed (${rc})")
endif()
file(READ "${report}" json)
string(JSON n LENGTH "${json}" results)
math(EXPR last "${n} - 1")
list(LENGTH CHECKS n_checks)
math(EXPR last_check "${n_checks} - 1")
foreach(k RANGE ${last_check})
  list(GET CHECKS ${k} want_check)
  list(GET REASONS ${k} want_reason)
  set(seen 0)
  foreach(i RANGE ${last})
    string(JSON check GET "${json}" results ${i} check)
    if(NOT check MATCHES "${want_check}")
      continue()
    endif()
    set(seen 1)
    string(JSON passed GET "${json}" results ${i} passed)
    string(JSON reason GET "${json}" results ${i} reason)
    if(passed)
      message(SEND_ERROR "\"${check}\" passed; it must fail")
    elseif(NOT reason MATCHES "${want_reason}")
      message(SEND_ERROR "\"${check}\": the reason\n  ${reason}\ndoes not match\n  ${want_reason}")
    endif()
  endforeach()
  if(NOT seen)
    message(SEND_ERROR "no check matches ${want_check}")
  endif()
endforeach()
