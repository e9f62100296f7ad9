# The gpulab-nvcc test: builds a program from .cu, .c and .cpp files with the
# flags people pass to nvcc, runs it, and checks the errors it must give.
#   cmake -DNVCC=<gpulab-nvcc> -DWORKDIR=<scratch> [-DCXX=<host c++>] -P check_nvcc.cmake
set(src "${CMAKE_CURRENT_LIST_DIR}")
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")

function(run_ok what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${src}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

# Fails unless `text` matches the regex `expect`.
function(expect_match what text expect)
  if(NOT text MATCHES "${expect}")
    message(FATAL_ERROR "${what}: expected a match of '${expect}' in:\n${text}")
  endif()
endfunction()

function(expect_no_match what text regex)
  if(text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: '${regex}' must not appear in:\n${text}")
  endif()
endfunction()

function(run_fails what expect)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${src}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${what} should have failed:\n${out}${err}")
  endif()
  if(NOT err MATCHES "${expect}")
    message(FATAL_ERROR "${what}: expected an error matching '${expect}', got:\n${err}")
  endif()
  set(err "${err}" PARENT_SCOPE)
endfunction()

set(want "nvcc-driver y\\[999\\]=2997 sum=10 twice=42 dot=14")

# 1. One command, every kind of input, nvcc's usual flags.
run_ok("compile and link" "${NVCC}" -O2 -std=c++17 -arch=sm_80 -gencode arch=compute_80,code=sm_80
       -lineinfo -Xcompiler -Wall,-Wextra -I inc -DSCALE=3 -o "${WORKDIR}/app"
       main.cu util.cu helper.c extra.cpp -lcublas -lcudart)
run_ok("the program" "${WORKDIR}/app")
if(NOT out MATCHES "${want}")
  message(FATAL_ERROR "the program printed:\n${out}\nexpected: ${want}")
endif()

# 2. Separate compilation: -c then link the object.
run_ok("compile util.cu alone" "${NVCC}" -c -I inc -DSCALE=3 util.cu -o "${WORKDIR}/util.o")
run_ok("link with the object" "${NVCC}" -I inc -o "${WORKDIR}/app2" main.cu "${WORKDIR}/util.o"
       helper.c extra.cpp -lcublas)
run_ok("the separately compiled program" "${WORKDIR}/app2")
if(NOT out MATCHES "${want}")
  message(FATAL_ERROR "the separately compiled program printed:\n${out}")
endif()

# 3. Kernels, extern __shared__ and launches in a quoted header.
run_ok("a kernel in a header" "${NVCC}" -o "${WORKDIR}/hdr" header_kernels.cu)
run_ok("the header program" "${WORKDIR}/hdr")
if(NOT out MATCHES "header-kernels 63 0 cudaSuccess")
  message(FATAL_ERROR "the header program printed:\n${out}")
endif()

# 4. The check twin carries a plain copy of the kernels (gpulab-sim-plain-copy):
# with the model on, the blocks its sample leaves out run it, a kernel of
# another file included; a file with a static __device__ variable gets no
# copy. The results are the same.
run_ok("a program with its kernels in two files" "${NVCC}" -o "${WORKDIR}/plain"
       plain_main.cu plain_kernels.cu plain_static.cu)
run_ok("the plain-copies program" "${CMAKE_COMMAND}" -E env GPULAB_SIM_MODEL=t4
       --unset=GPULAB_SIM_CHECK --unset=GPULAB_SIM_STATS "${WORKDIR}/plain")
if(NOT out MATCHES "plain-copies add_one 933 hits 128000 x 2 static 0 hits 64000")
  message(FATAL_ERROR "the plain-copies program printed:\n${out}${err}")
endif()
run_ok("the plain-copies program, checked" "${CMAKE_COMMAND}" -E env GPULAB_SIM_MODEL=t4
       GPULAB_SIM_CHECK=all --unset=GPULAB_SIM_STATS "${WORKDIR}/plain")
if(NOT out MATCHES "plain-copies add_one 0 hits 128000 x 2 static 0 hits 64000")
  message(FATAL_ERROR "under a check tool every block must run instrumented:\n${out}${err}")
endif()

# 5. What it cannot do: a one-line error each.
run_fails("an unknown option" "gpulab-nvcc: unknown option --frobnicate" "${NVCC}" --frobnicate main.cu)
run_fails("a library the simulator lacks" "cufft is not part of the simulator" "${NVCC}"
          -I inc -DSCALE=3 main.cu util.cu helper.c extra.cpp -lcufft)
run_fails("a missing file" "gpulab-nvcc: nope.cu: no such file" "${NVCC}" nope.cu)
run_fails("Thrust" "gpulab-sim: Thrust is not part of the CPU simulator yet" "${NVCC}"
          -o "${WORKDIR}/thrust_use" thrust_use.cu)
run_fails("PTX output" "-ptx is not supported" "${NVCC}" -ptx util.cu)
# 6. Compiler errors point at the student's file and line.
run_fails("a compile error" "broken.cu:5" "${NVCC}" -c broken.cu -o "${WORKDIR}/broken.o")
# More than 512 KiB of local memory a thread: ptxas's error, and no object left.
run_fails("a kernel with too much local data"
          "Entry function 'lab::too_big' uses too much local data \\(0x[0-9a-f]+ bytes, 0x80000 max\\).*local_too_big.cu\\(6\\): error: kernel lab::too_big needs"
          "${NVCC}" -O2 -c local_too_big.cu -o "${WORKDIR}/local_too_big.o")
expect_no_match("a kernel with too much local data" "${err}" "fits|host_side")
if(EXISTS "${WORKDIR}/local_too_big.o" OR EXISTS "${WORKDIR}/local_too_big.su")
  message(FATAL_ERROR "a kernel with too much local data: the object or the stack-usage file was left")
endif()

# 6. nvcc's flags as course Makefiles, cuda-samples and CMake pass them.
set(w "${WORKDIR}")
set(flags "${src}/flags")
# -run: link, then run.
run_ok("-run" "${NVCC}" -run -o "${w}/run-app" header_kernels.cu)
expect_match("-run" "${out}" "header-kernels 63 0 cudaSuccess")
# -M, -MM, -MD, -MMD, -MF, -MT, -MP: the user's own files, never the rewritten copies.
run_ok("-M" "${NVCC}" -M -I inc -DSCALE=3 util.cu)
expect_match("-M" "${out}" "^util\\.o: util\\.cu")
expect_match("-M" "${out}" "inc/util\\.h")
expect_match("-M" "${out}" "/stdio\\.h")
expect_no_match("-M" "${out}" "gpulab-nvcc\\.")
run_ok("-M, a rewritten header" "${NVCC}" -M header_kernels.cu -MT hk.o -MF "${w}/hk.d")
file(READ "${w}/hk.d" d)
expect_match("-M -MF -MT" "${d}" "^hk\\.o: header_kernels\\.cu")
expect_match("-M -MF -MT" "${d}" " kern/reverse\\.cuh")
expect_no_match("-M -MF -MT" "${d}" "gpulab-nvcc\\.")
run_ok("-MM" "${NVCC}" -MM -I inc -DSCALE=3 util.cu -o "${w}/mm.d")
file(READ "${w}/mm.d" d)
expect_match("-MM" "${d}" "inc/util\\.h")
expect_no_match("-MM" "${d}" "stdio\\.h")
run_ok("-MD" "${NVCC}" -c -MD -I inc -DSCALE=3 util.cu -o "${w}/md-util.o")
file(READ "${w}/md-util.d" d)
expect_match("-MD" "${d}" "md-util\\.o:[\\\\ \n]+util\\.cu")
expect_match("-MD" "${d}" "stdio\\.h")
run_ok("-MMD -MF -MT -MP" "${NVCC}" -c -MMD -MF "${w}/mmd.d" -MT target.o -MP -I inc -DSCALE=3
       util.cu -o "${w}/mmd-util.o")
file(READ "${w}/mmd.d" d)
expect_match("-MMD -MF -MT -MP" "${d}" "^target\\.o: util\\.cu")
expect_match("-MMD -MF -MT -MP" "${d}" "\ninc/util\\.h:")
expect_no_match("-MMD -MF -MT -MP" "${d}" "stdio\\.h|gpulab-nvcc\\.")
if(NOT EXISTS "${w}/mmd-util.o")
  message(FATAL_ERROR "-MMD: no object was compiled")
endif()
# -E: preprocessed text, with the launches the compiler sees and the user's file names.
run_ok("-E" "${NVCC}" -E -I inc -DSCALE=3 util.cu)
expect_match("-E" "${out}" "scale_on_device")
expect_match("-E" "${out}" "launch_site")
expect_match("-E" "${out}" "\"util\\.cu\"")
# The C++ standard: -std=, -std X, --std=, --std X; the headers are C++11-clean.
run_ok("-std=c++11" "${NVCC}" -std=c++11 -Xcompiler -Wall,-Wextra,-Werror --no-check-twin -I inc
       -DSCALE=3 -o "${w}/app-cxx11" main.cu util.cu helper.c extra.cpp -lcublas)
run_ok("the C++11 program" "${w}/app-cxx11")
expect_match("the C++11 program" "${out}" "${want}")
run_ok("-std=c++14" "${NVCC}" -std=c++14 -Xcompiler -Wall,-Wextra,-Werror --no-check-twin
       -run -o "${w}/hk-cxx14" header_kernels.cu)
expect_match("the C++14 program" "${out}" "header-kernels 63 0 cudaSuccess")
foreach(form "-std;c++17;201703L" "--std=c++11;201103L" "--std;c++14;201402L" "-std=c++11;201103L")
  list(POP_BACK form expect)
  run_ok("${form}" "${NVCC}" ${form} -DEXPECT_STD=${expect} -c "${flags}/macros.cu"
         -o "${w}/std.o")
endforeach()
run_fails("a standard that is not asked for" "the C\\+\\+ standard is not the one" "${NVCC}"
          --std c++14 -DEXPECT_STD=201103L -c "${flags}/macros.cu" -o "${w}/std.o")
# nvcc's predefined macros (the checks are #errors in the files).
run_ok("the macros of a .cu file" "${NVCC}" -c "${flags}/macros.cu" -o "${w}/macros-cu.o")
run_ok("the macros of a .cpp file" "${NVCC}" -c "${flags}/macros.cpp" -o "${w}/macros-cpp.o")
run_ok("__CUDACC_RDC__ with -rdc=true" "${NVCC}" -rdc=true -DEXPECT_RDC -c "${flags}/macros.cu"
       -o "${w}/macros-rdc.o")
run_ok("__CUDACC_RDC__ with -dc" "${NVCC}" -dc -DEXPECT_RDC "${flags}/macros.cu"
       -o "${w}/macros-dc.o")
# -lib, then -l with a space before the library.
run_ok("-lib" "${NVCC}" -lib -I inc -o "${w}/libmylib.a" helper.c extra.cpp)
run_ok("-l mylib" "${NVCC}" -I inc -DSCALE=3 -o "${w}/app-lib" main.cu util.cu -L "${w}" -l mylib
       -l cublas --no-check-twin)
run_ok("the program linked with -l mylib" "${w}/app-lib")
expect_match("the program linked with -l mylib" "${out}" "${want}")
# -dc, -dlink: objects with relocatable device code, and the device link's (empty) object.
run_ok("-dc" "${NVCC}" -dc -I inc -DSCALE=3 util.cu -o "${w}/util-dc.o")
run_ok("-dlink" "${NVCC}" -dlink -Xcompiler -fPIC "${w}/util-dc.o" -o "${w}/dlink.o")
run_ok("link with the -dlink object" "${NVCC}" -I inc -o "${w}/app-dc" main.cu "${w}/util-dc.o"
       "${w}/dlink.o" helper.c extra.cpp -lcublas --no-check-twin)
run_ok("the -dc program" "${w}/app-dc")
expect_match("the -dc program" "${out}" "${want}")
# -shared -Xcompiler -fPIC: a shared library of kernels that a program loads.
run_ok("-shared" "${NVCC}" -shared -Xcompiler -fPIC -I inc -DSCALE=3 -o "${w}/libscale.so" util.cu)
run_ok("link with the shared library" "${NVCC}" -I inc -o "${w}/app-so" main.cu helper.c extra.cpp
       -L "${w}" -lscale -lcublas --no-check-twin)
run_ok("the program with the shared library" ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${w}"
       "${w}/app-so")
expect_match("the program with the shared library" "${out}" "${want}")
# As nvcc 13 does them (each tried with both, side by side): -shared without
# -fPIC (nvcc adds it); a space-separated -Xcompiler value; -odir for what -c
# makes without -o; -ccbin gcc, a C driver, linking a C++ program; -MD while
# compiling and linking names the file and its target for -o (md-app.d).
run_ok("-shared without -fPIC" "${NVCC}" -shared -I inc -DSCALE=3 -o "${w}/libscale2.so" util.cu)
run_ok("-Xcompiler \"-Wall -Wextra\"" "${NVCC}" -Xcompiler "-Wall -Wextra" -c "${flags}/warn.cu"
       -o "${w}/warn2.o")
expect_match("-Xcompiler \"-Wall -Wextra\"" "${err}" "unused_variable")
file(MAKE_DIRECTORY "${w}/odir")
run_ok("-odir" "${NVCC}" -c -odir "${w}/odir" -I inc -DSCALE=3 util.cu)
if(NOT EXISTS "${w}/odir/util.o" OR EXISTS "${src}/util.o")
  file(REMOVE "${src}/util.o")
  message(FATAL_ERROR "-odir: util.o is not in ${w}/odir")
endif()
find_program(gcc_driver gcc)
if(gcc_driver)
  run_ok("-ccbin gcc" "${NVCC}" -ccbin gcc -o "${w}/ccbin-app" header_kernels.cu)
  run_ok("the program -ccbin gcc linked" "${w}/ccbin-app")
  expect_match("the program -ccbin gcc linked" "${out}" "header-kernels 63 0 cudaSuccess")
endif()
run_ok("-MD, compiled and linked" "${NVCC}" -MD -o "${w}/md-app" header_kernels.cu)
file(READ "${w}/md-app.d" d)
expect_match("-MD, compiled and linked" "${d}" "^[^\n]*md-app *:[\\\\ \n]+header_kernels\\.cu")
# Flags about GPU code or nvcc's own diagnostics: accepted and ignored.
run_ok("GPU-only flags" "${NVCC}" --threads 0 -t 0 -cudart static -cudart=shared --cudart none
       -Xcudafe --display_error_number --diag-suppress 177 -diag-suppress=550,20012
       -Xptxas -v --resource-usage -res-usage -Xnvlink -v -maxrregcount 32 -lineinfo
       -Wno-deprecated-gpu-targets -c util.cu -I inc -DSCALE=3 -o "${w}/gpu-flags.o")
run_ok("--list-gpu-arch" "${NVCC}" --list-gpu-arch)
expect_match("--list-gpu-arch" "${out}" "^compute_50\n(compute_[0-9]+\n)*compute_90\n$")
# -Werror all-warnings: the host compiler's warnings become errors.
run_ok("a warning" "${NVCC}" -Xcompiler -Wall -c "${flags}/warn.cu" -o "${w}/warn.o")
expect_match("a warning" "${err}" "unused_variable")
run_fails("-Werror all-warnings" "error: unused variable" "${NVCC}" -Werror all-warnings
          -Xcompiler -Wall -c "${flags}/warn.cu" -o "${w}/warn.o")
run_fails("-Werror=all-warnings" "error: unused variable" "${NVCC}" -Werror=all-warnings
          -Xcompiler -Wall -c "${flags}/warn.cu" -o "${w}/warn.o")
# -v: each command, and the lines build tools read (CMake: TOP, INCLUDES, LIBRARIES).
run_ok("-v" "${NVCC}" -v -c -I inc -DSCALE=3 util.cu -o "${w}/v.o")
expect_match("-v" "${err}" "#\\$ TOP=[^\n]*\n")
expect_match("-v" "${err}" "#\\$ INCLUDES=\"-I[^\n]*\n")
expect_match("-v" "${err}" "#\\$ LIBRARIES=[^\n]*-lcudart_static")
expect_match("-v" "${err}" "-arch compute_52")
expect_match("-v" "${err}" "#\\$ [^\n]*gpulab-sim-rewrite[^\n]*util\\.cu")
# -keep, -keep-dir: the rewritten sources stay.
run_ok("-keep-dir" "${NVCC}" -keep -keep-dir "${w}/kept" -c header_kernels.cu -o "${w}/hk.o")
if(NOT EXISTS "${w}/kept/header_kernels.cu.cpp" OR NOT EXISTS "${w}/kept/kern/reverse.cuh")
  message(FATAL_ERROR "-keep-dir: the rewritten sources are not in ${w}/kept")
endif()
# -ccbin: the host compiler named is the one used; one that does not exist is an error.
run_fails("-ccbin that does not exist" "-ccbin /nonexistent/g\\+\\+: no such host compiler"
          "${NVCC}" -ccbin /nonexistent/g++ -c util.cu -I inc -DSCALE=3 -o "${w}/ccbin.o")
if(CXX)
  file(WRITE "${w}/ccbin-bin/wrapped-c++" "#!/bin/sh\necho used >> '${w}/ccbin-used'\nexec '${CXX}' \"$@\"\n")
  file(CHMOD "${w}/ccbin-bin/wrapped-c++" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  file(REMOVE "${w}/ccbin-used")
  run_ok("-ccbin" "${NVCC}" -ccbin "${w}/ccbin-bin/wrapped-c++" -c util.cu -I inc -DSCALE=3
         -o "${w}/ccbin.o")
  if(NOT EXISTS "${w}/ccbin-used")
    message(FATAL_ERROR "-ccbin: the host compiler named was not used")
  endif()
endif()
# -Wl, is refused as nvcc refuses it; -Xlinker reaches the link.
run_fails("-Wl," "unknown option '-Wl,-rpath,/x'" "${NVCC}" -Wl,-rpath,/x -o "${w}/wl" header_kernels.cu)
run_ok("-Xlinker" "${NVCC}" -Xlinker -Map,${w}/app.map --no-check-twin -o "${w}/xl" header_kernels.cu)
if(NOT EXISTS "${w}/app.map")
  message(FATAL_ERROR "-Xlinker -Map,FILE: the linker wrote no map")
endif()

# 7. nvcc's errors for calls across execution spaces, and for a __device__
# function of another file without -rdc; code nvcc accepts passes.
run_fails("host code calling a __device__ function"
          "host_calls_device\\.cu\\(10\\): error: calling a __device__ function\\(\"square\\(float\\)\"\\) from a __host__ function\\(\"main\"\\) is not allowed"
          "${NVCC}" -c "${flags}/host_calls_device.cu" -o "${w}/x.o")
run_fails("a kernel calling a host function"
          "kernel_calls_host\\.cu\\(10\\): error: calling a __host__ function\\(\"host_offset\\(float\\)\"\\) from a __global__ function\\(\"shift\"\\) is not allowed"
          "${NVCC}" -c "${flags}/kernel_calls_host.cu" -o "${w}/x.o")
run_fails("an extern __device__ function without -rdc"
          "ptxas fatal   : Unresolved extern function 'twice\\(int\\)'"
          "${NVCC}" -o "${w}/rdc" "${flags}/extern_caller.cu" "${flags}/extern_callee.cu")
run_ok("the same with -rdc=true" "${NVCC}" -rdc=true -run -o "${w}/rdc"
       "${flags}/extern_caller.cu" "${flags}/extern_callee.cu")
expect_match("the -rdc=true program" "${out}" "rdc 2 4 6 8")
run_ok("calls nvcc accepts" "${NVCC}" -run -o "${w}/spaces-ok" "${flags}/spaces_ok.cu")
expect_match("calls nvcc accepts" "${out}" "spaces-ok 8 6")
message(STATUS "gpulab-nvcc: all checks passed")
