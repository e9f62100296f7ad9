# unit-npy-numpy: NumPy loads what lab_npy_write wrote, and lab_npy_read reads
# what numpy.save wrote (npy_numpy_check.py drives test-npy in both directions).
#
# It needs a Python 3 that can `import numpy`: GPULAB_NUMPY_PYTHON when set,
# else the first that can of the interpreter find_package(Python3) finds and
# /usr/bin/python3 (a pyenv or venv python3 first on PATH often lacks NumPy
# while the system one has it). With none, the test is still registered and reports itself skipped
# (exit 77) with the reason, so it never passes silently.

set(GPULAB_NUMPY_PYTHON "" CACHE FILEPATH "Python 3 with NumPy for unit-npy-numpy (empty: search)")

set(gpulab_npy_candidates "${GPULAB_NUMPY_PYTHON}")
if(NOT GPULAB_NUMPY_PYTHON)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    list(APPEND gpulab_npy_candidates "${Python3_EXECUTABLE}")
  endif()
  if(EXISTS /usr/bin/python3)
    list(APPEND gpulab_npy_candidates /usr/bin/python3)
  endif()
endif()
set(gpulab_npy_python "")
foreach(py IN LISTS gpulab_npy_candidates)
  execute_process(COMMAND "${py}" -c "import numpy"
                  RESULT_VARIABLE gpulab_npy_rc OUTPUT_QUIET ERROR_QUIET)
  if(gpulab_npy_rc EQUAL 0)
    set(gpulab_npy_python "${py}")
    break()
  endif()
endforeach()

if(gpulab_npy_python)
  message(STATUS "gpulab: unit-npy-numpy uses ${gpulab_npy_python}")
  add_test(NAME unit-npy-numpy
           COMMAND "${gpulab_npy_python}" "${CMAKE_CURRENT_SOURCE_DIR}/npy_numpy_check.py"
                   $<TARGET_FILE:test-npy>)
else()
  list(JOIN gpulab_npy_candidates ", " gpulab_npy_tried)
  set(gpulab_npy_why "no Python 3 with NumPy found (tried: ${gpulab_npy_tried})")
  message(STATUS "gpulab: unit-npy-numpy will be skipped: ${gpulab_npy_why}")
  string(APPEND gpulab_npy_why "; install NumPy (e.g. apt install python3-numpy) "
         "or set GPULAB_NUMPY_PYTHON, then reconfigure")
  add_test(NAME unit-npy-numpy COMMAND test-npy --skip "${gpulab_npy_why}")
endif()
set_tests_properties(unit-npy-numpy PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 120)
