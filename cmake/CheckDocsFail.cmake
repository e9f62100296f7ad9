# Runs Doxygen with the project's docs configuration over a header that
# declares an undocumented function and succeeds only if Doxygen fails and
# names it. Invoked by the docs-undocumented-fails test:
#   cmake -DDOXYGEN=... -DDOXYFILE=... -DWORKDIR=... -P CheckDocsFail.cmake
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
file(WRITE "${WORKDIR}/bad.h" [=[
/**
 * @file bad.h
 * @brief A header with one undocumented declaration.
 */
int lab_bad_undocumented(int x);
]=])
file(READ "${DOXYFILE}" config)
string(APPEND config "\nINPUT = ${WORKDIR}/bad.h\nOUTPUT_DIRECTORY = ${WORKDIR}/out\n"
       "USE_MDFILE_AS_MAINPAGE =\n")
file(WRITE "${WORKDIR}/Doxyfile" "${config}")
execute_process(COMMAND "${DOXYGEN}" "${WORKDIR}/Doxyfile" WORKING_DIRECTORY "${WORKDIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "Doxygen accepted an undocumented declaration:\n${out}${err}")
endif()
if(NOT err MATCHES "lab_bad_undocumented")
  message(FATAL_ERROR "Doxygen failed, but not naming the undocumented function:\n${err}")
endif()
message(STATUS "Doxygen rejected the undocumented declaration, as it must")
