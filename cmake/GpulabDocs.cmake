# The 'docs' target: Doxygen over the public headers of common/ and the
# Markdown pages (docs/, README.md, CONTRIBUTING.md, the handouts), with
# warnings as errors, so an undocumented public declaration fails the docs
# build. Output: build/docs/html/index.html.

find_package(Doxygen)
if(NOT DOXYGEN_FOUND)
  add_custom_target(docs
    COMMAND ${CMAKE_COMMAND} -E echo
            "docs: Doxygen not found; install it (Debian: sudo apt-get install doxygen) and reconfigure"
    COMMAND ${CMAKE_COMMAND} -E false)
  return()
endif()

set(DOXYGEN_PROJECT_NAME "gpulab")
set(DOXYGEN_PROJECT_BRIEF "${PROJECT_DESCRIPTION}")
set(DOXYGEN_PROJECT_NUMBER "${PROJECT_VERSION}")
set(DOXYGEN_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/docs")
set(DOXYGEN_USE_MDFILE_AS_MAINPAGE "${PROJECT_SOURCE_DIR}/docs/index.md")
set(DOXYGEN_FILE_PATTERNS "*.h" "*.md")
set(DOXYGEN_EXCLUDE_PATTERNS "*/tests/*" "*/build*/*")
set(DOXYGEN_STRIP_FROM_PATH "${PROJECT_SOURCE_DIR}")
set(DOXYGEN_STRIP_FROM_INC_PATH "${PROJECT_SOURCE_DIR}/common/include")
set(DOXYGEN_OPTIMIZE_OUTPUT_FOR_C YES)
set(DOXYGEN_EXTRACT_ALL NO)
set(DOXYGEN_EXTRACT_STATIC NO)
set(DOXYGEN_WARN_IF_UNDOCUMENTED YES)
set(DOXYGEN_WARN_IF_DOC_ERROR YES)
set(DOXYGEN_WARN_NO_PARAMDOC YES)
set(DOXYGEN_WARN_AS_ERROR YES)
set(DOXYGEN_QUIET YES)
set(DOXYGEN_HAVE_DOT NO)
set(DOXYGEN_GENERATE_LATEX NO)
set(DOXYGEN_GENERATE_TREEVIEW YES)
set(DOXYGEN_ENABLE_PREPROCESSING YES)
set(DOXYGEN_MACRO_EXPANSION YES)
set(DOXYGEN_EXPAND_ONLY_PREDEF YES)
# Compiler attributes are not part of the documented API.
set(DOXYGEN_PREDEFINED "__attribute__(x)=" "LAB_NORETURN=")
set(DOXYGEN_ALIASES "")

# The labs' handouts (each declared lab's README.md), rendered with the rest.
set(GPULAB_DOC_INPUTS
  "${PROJECT_SOURCE_DIR}/docs"
  "${PROJECT_SOURCE_DIR}/common/include/lab"
  "${PROJECT_SOURCE_DIR}/CONTRIBUTING.md")
get_property(gpulab_labs GLOBAL PROPERTY GPULAB_LABS)
foreach(lab IN LISTS gpulab_labs)
  get_property(folder GLOBAL PROPERTY GPULAB_LAB_${lab}_FOLDER)
  if(EXISTS "${PROJECT_SOURCE_DIR}/labs/${folder}/README.md")
    list(APPEND GPULAB_DOC_INPUTS "${PROJECT_SOURCE_DIR}/labs/${folder}/README.md")
  endif()
endforeach()
doxygen_add_docs(docs ${GPULAB_DOC_INPUTS}
  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
  COMMENT "Building the documentation (Doxygen, warnings are errors)")

# Proof that the docs build can fail: the same configuration, given one
# header with an undocumented function, must stop with a warning.
if(BUILD_TESTING)
  add_test(NAME docs-undocumented-fails
    COMMAND ${CMAKE_COMMAND}
            -DDOXYGEN=${DOXYGEN_EXECUTABLE}
            -DDOXYFILE=${CMAKE_CURRENT_BINARY_DIR}/Doxyfile.docs
            -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/docs-undocumented
            -P "${PROJECT_SOURCE_DIR}/cmake/CheckDocsFail.cmake")
  set_tests_properties(docs-undocumented-fails PROPERTIES LABELS "docs")
endif()
