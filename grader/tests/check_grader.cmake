# The grader graded by its own tests: gpulab-grade runs the fake lab program
# (as the fixture lab's "solution") in each way it can misbehave, and each
# must score 0 with the right reason while the grader itself exits 0.
#   cmake -DGRADE=<gpulab-grade> -DFAKE=<fake-lab> -DWORKDIR=<scratch> -P check_grader.cmake
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}/bin")
file(CREATE_LINK "${FAKE}" "${WORKDIR}/bin/fixture-sim-solution" SYMBOLIC)

function(expect mode passed reason)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env GRADE_FAKE=${mode}
            "${GRADE}" --solutions --backend sim --bin "${WORKDIR}/bin" --lab fixture
            --time-limit 3 --json "${WORKDIR}/${mode}.json"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${mode}: the grader itself failed (${rc}):\n${out}${err}")
  endif()
  file(READ "${WORKDIR}/${mode}.json" json)
  string(JSON n LENGTH "${json}" results)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON got GET "${json}" results ${i} passed)
    string(JSON points GET "${json}" results ${i} points)
    string(JSON max GET "${json}" results ${i} max_points)
    string(JSON why GET "${json}" results ${i} reason)
    if(NOT got STREQUAL passed OR (passed STREQUAL "ON" AND NOT points EQUAL max)
       OR (passed STREQUAL "OFF" AND NOT points EQUAL 0))
      message(FATAL_ERROR "${mode}: check ${i}: passed ${got}, ${points} of ${max} points, "
                          "expected passed ${passed} (${why})\n${out}")
    endif()
    if(NOT why MATCHES "${reason}")
      message(FATAL_ERROR "${mode}: reason '${why}' does not match '${reason}'\n${out}")
    endif()
  endforeach()
  message(STATUS "${mode}: ${n} checks graded as expected")
endfunction()

expect(ok ON "^$")
expect(wrong_shape OFF "y.npy is float32 of shape \\([0-9]+, 1\\); expected float32 of shape \\([0-9]+,\\)")
expect(wrong_dtype OFF "y.npy is float64 of shape \\([0-9]+,\\); expected float32")
expect(nan OFF "y: 1 of [0-9]+ elements differ")
expect(truncated OFF "truncated")
expect(missing OFF "missing output y.npy")
expect(lying OFF "elements differ")
expect(not_json OFF "result.json is not JSON")
expect(empty OFF "missing output y.npy")
expect(segfault OFF "SIGSEGV")
expect(hang OFF "wall")
expect(stderr_exit OFF "exited with status 3: out of luck")
expect(abort OFF "crashed with SIGABRT")
expect(sleep OFF "killed after 3.0 s of wall time")
expect(forkbomb OFF "exited with status 1: fake lab: fork: Resource temporarily unavailable")
expect(bigalloc OFF "ran out of memory \\(address space limit 64 GiB\\)")
expect(bigfile OFF "tried to write a file bigger than the limit of 256 MiB")
expect(chatty OFF "printed more than 16 MiB")
expect(snoop OFF "missing output y.npy")
expect(wrong_fact OFF "result.json: \"n\" is [0-9]+, expected [0-9]+")
