# Submissions made from the solutions with one defect each, honest mistakes
# and attacks on the checks: each must lose the points of the check it
# defeats, with a reason naming its cause. A defect is a text replacement in
# one student file of the solution (the test fails when the text is no longer
# there, so it follows the solutions); the other student files of the lab are
# the solution's.
#   cmake -DGRADE=<gpulab-grade> -DSOURCE=<repo> -DWORKDIR=<scratch> [-DONLY=<name>]
# (ONLY: one case, by its name; a starter's is <lab>-starter)
#         -P check_defects.cmake
file(REMOVE_RECURSE "${WORKDIR}")
# The labs are built outside the kit's build tree, which graded runs do not see (a run must
# reach its program's check build, NAME.check, for memcheck).
string(RANDOM LENGTH 10 tag)
set(BUILDS "/tmp/gpulab-defects-${tag}")
file(MAKE_DIRECTORY "${BUILDS}")

set(student_files_lab03 "03_kernels/kernels.cu")
set(student_files_lab05 "05_training/to_device.cu;05_training/kernels.cu")

# grade(NAME LAB SUB CHECK REASON): grades the submission folder SUB on LAB's checks whose
# name contains CHECK (gpulab-grade --check: only the check attacked is run); each must get 0
# points with a reason matching REASON. Every case builds in the same build folder, so the
# kit is built once and each case recompiles only its lab's student files.
function(grade name lab sub check reason)
  execute_process(COMMAND "${GRADE}" --submission "${sub}" --lab ${lab} --check "${check}"
                          --backend sim --quiet --source "${SOURCE}" --build-dir "${BUILDS}/build"
                          --json "${WORKDIR}/${name}.json"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 900)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: gpulab-grade failed (${rc}):\n${out}${err}")
  endif()
  file(READ "${WORKDIR}/${name}.json" json)
  string(JSON n LENGTH "${json}" results)
  if(n EQUAL 0)
    message(FATAL_ERROR "${name}: no check of ${lab} was graded for '${check}'")
  endif()
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON got GET "${json}" results ${i} points)
    string(JSON name_i GET "${json}" results ${i} check)
    string(JSON why GET "${json}" results ${i} reason)
    string(FIND "${name_i}" "${check}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${name}: check '${name_i}' was graded; --check '${check}' asked for "
                          "only the checks whose name contains it")
    endif()
    if(NOT got EQUAL 0 OR NOT why MATCHES "${reason}")
      message(FATAL_ERROR "${name}: check '${name_i}' got ${got} points, reason '${why}'; "
                          "expected 0 and a reason matching '${reason}'")
    endif()
  endforeach()
  message(STATUS "${name}: 0 points on ${n} check(s) '${check}...', the reason says why")
endfunction()

# --check with a text no check's name holds is refused, by name, before anything is built.
if(NOT ONLY)
  execute_process(COMMAND "${GRADE}" --lab lab03 --check "no such check" --backend sim --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "--check no such check: no check's name contains it")
    message(FATAL_ERROR "--check 'no such check': exit ${rc}, expected 2 and a message:\n${err}")
  endif()
endif()

# defect(NAME LAB FILE OLD NEW CHECK REASON [PREPEND]): the submission NAME is
# LAB's solution with OLD replaced by NEW in FILE (one of the lab's student
# files above), and PREPEND put before its first line; graded on the checks
# whose name contains CHECK, each must get 0 points with a reason matching REASON.
function(defect name lab file old new check reason)
  if(ONLY AND NOT name STREQUAL ONLY)
    return()
  endif()
  set(sub "${WORKDIR}/${name}")
  foreach(f IN LISTS student_files_${lab})
    get_filename_component(dir "${f}" DIRECTORY)
    file(COPY "${SOURCE}/solutions/${f}" DESTINATION "${sub}/${dir}")
  endforeach()
  file(READ "${sub}/${file}" text)
  string(FIND "${text}" "${old}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: solutions/${file} no longer holds the text to change:\n${old}")
  endif()
  string(REPLACE "${old}" "${new}" text "${text}")
  if(ARGC GREATER 7)
    set(text "${ARGV7}${text}")
  endif()
  file(WRITE "${sub}/${file}" "${text}")
  grade(${name} ${lab} "${sub}" "${check}" "${reason}")
endfunction()

# starter(LAB CHECK REASON [CHECK REASON ...]): the untouched starter code (labs/) still
# fails the checks whose name contains each CHECK, with a reason matching its REASON: a
# check that catches a defect must not pass the TODO stubs.
function(starter lab)
  set(name "${lab}-starter")
  if(ONLY AND NOT name STREQUAL ONLY)
    return()
  endif()
  set(sub "${WORKDIR}/${name}")
  foreach(f IN LISTS student_files_${lab})
    get_filename_component(dir "${f}" DIRECTORY)
    file(COPY "${SOURCE}/labs/${f}" DESTINATION "${sub}/${dir}")
  endforeach()
  set(pairs ${ARGN})
  set(k 0)
  while(pairs)
    list(POP_FRONT pairs check reason)
    math(EXPR k "${k} + 1")
    grade(${name}-${k} ${lab} "${sub}" "${check}" "${reason}")
  endwhile()
endfunction()

# ---- lab 03 -----------------------------------------------------------------------
# A grid-stride loop that steps by blockDim.x only: every block does all the
# work, c is right.
defect(lab03-stride-block lab03 03_kernels/kernels.cu
  "int stride = blockDim.x * gridDim.x;" "int stride = blockDim.x;"
  "grid-stride, N = 1000 on 64 blocks"
  "stored 2[.][0-9]+ times on average .*step by the whole grid, blockDim.x [*] gridDim.x [(]TODO 3 in kernels.cu")
# The add done on the host: copies in, a loop, a copy back; no launch at all.
defect(lab03-host-add lab03 03_kernels/kernels.cu
  [=[    vec_add_kernel<<<blocks, threads>>>(d_c, d_a, d_b, n);
    LAB_CHECK_LAUNCH();]=]
  [=[    float *h = (float *)malloc(sizeof(float) * 3 * (size_t)n);
    cudaMemcpy(h, d_a, sizeof(float) * (size_t)n, cudaMemcpyDeviceToHost);
    cudaMemcpy(h + n, d_b, sizeof(float) * (size_t)n, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        h[2 * n + i] = h[i] + h[n + i];
    cudaMemcpy(d_c, h + 2 * n, sizeof(float) * (size_t)n, cudaMemcpyHostToDevice);
    free(h);]=]
  "vec_add, N = 5466, 32 threads"
  "counted no launch of vec_add_kernel .*computed on the host")
# The host add again, with the simulator's counts for N = 5466 on blocks of 32 forged on
# stderr at exit: lines without the run's report key are not the simulator's.
defect(lab03-forged-counts lab03 03_kernels/kernels.cu
  [=[    vec_add_kernel<<<blocks, threads>>>(d_c, d_a, d_b, n);
    LAB_CHECK_LAUNCH();]=]
  [=[    float *h = (float *)malloc(sizeof(float) * 3 * (size_t)n);
    cudaMemcpy(h, d_a, sizeof(float) * (size_t)n, cudaMemcpyDeviceToHost);
    cudaMemcpy(h + n, d_b, sizeof(float) * (size_t)n, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        h[2 * n + i] = h[i] + h[n + i];
    cudaMemcpy(d_c, h + 2 * n, sizeof(float) * (size_t)n, cudaMemcpyHostToDevice);
    free(h);]=]
  "vec_add, N = 5466, 32 threads"
  "counted no launch of vec_add_kernel .*computed on the host"
  [=[#include <stdio.h>
#include <stdlib.h>
static void forge(void)
{
    fprintf(stderr, "========= gpulab-sim stats: kernel vec_add_kernel (launched at kernels.cu:1), "
                    "counted by the simulator\n"
                    "=========     5472 threads; global loads 10932 (2.0 per thread), stores 5466 "
                    "(1.0 per thread); shared loads 0, stores 0\n"
                    "=========     global load requests 342: 1368 sectors of 32 bytes (4.0 per "
                    "request)\n"
                    "=========     global store requests 171: 684 sectors of 32 bytes (4.0 per "
                    "request)\n");
}
__attribute__((constructor)) static void arm(void) { atexit(forge); }
]=])
# An attack on memcheck: a constructor (priority 101, before the simulator's) unsets
# GPULAB_SIM_CHECK, and the kernel has no bounds check. The simulator read the variable
# before any constructor ran, so memcheck runs and reports the write past the end.
defect(lab03-memcheck-off lab03 03_kernels/kernels.cu
  [=[    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];]=]
  [=[    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];]=]
  "vec_add, N = 5466, 1024 threads"
  "memcheck: Invalid __global__ (write|read) of size 4 bytes"
  [=[#include <stdlib.h>
__attribute__((constructor(101))) static void quiet(void) { unsetenv("GPULAB_SIM_CHECK"); }
]=])

# The same kernel, with stderr closed before the simulator can write its reports to it:
# without the simulator's banner and summary the run is not taken as checked.
defect(lab03-stderr-closed lab03 03_kernels/kernels.cu
  [=[    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];]=]
  [=[    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];]=]
  "vec_add, N = 5466, 1024 threads"
  "memcheck did not (run|finish): the simulator's"
  [=[#include <unistd.h>
__attribute__((constructor(101))) static void quiet(void) { close(2); }
]=])

# Full blocks only, in the kernel: its bounds check leaves out the last, partial block, while
# ceil_div and the launch are right. The kernel is to blame, not ceil_div.
defect(lab03-full-blocks-kernel lab03 03_kernels/kernels.cu
  [=[    if (i < n)
        c[i] = a[i] + b[i];]=]
  [=[    if ((blockIdx.x + 1) * blockDim.x <= n)
        c[i] = a[i] + b[i];]=]
  "vec_add, N = 5466, 1024 threads"
  "c.5120. .. c.5465., the elements of the last block .*ceil_div is right.*the check is i < n [(]TODO 2, vec_add_kernel in kernels.cu[)]")
# Full blocks only, in the launcher: n / threads blocks although ceil_div is right. The
# reason names the launch in vec_add beside ceil_div.
defect(lab03-full-blocks-launch lab03 03_kernels/kernels.cu
  "    int blocks = ceil_div(n, threads);" "    int blocks = n / threads;"
  "vec_add, N = 5466, 1024 threads"
  "grid_x.*ceil_div rounds up [(]TODO 1[)] and vec_add [(]kernels.cu[)] launches ceil_div[(]n, threads[)] blocks")
starter(lab03 "vec_add, N = 5466, 32 threads" "ceil_div rounds up [(]TODO 1[)]"
              "vec_add, N = 5466, 1024 threads" "ceil_div rounds up [(]TODO 1[)]"
              "grid-stride, N = 1000 on 64 blocks" "still the stub [(]TODO 3")

# ---- lab 04 -----------------------------------------------------------------------
set(student_files_lab04 "04_matvec/matvec.cu;04_matvec/matmul.c")
# An attack on the coalescing check: v2 reads a chunk of the row per lane (not
# coalesced: right u), and an atexit handler rewrites result.json with the
# sector counts of a coalesced kernel. The grader counts from the simulator.
defect(lab04-forged-sectors lab04 04_matvec/matvec.cu
  [=[    for (int j = lane; j < M; j += WARP_SIZE)
        sum += a[j] * v[j];]=]
  [=[    int chunk = (M + WARP_SIZE - 1) / WARP_SIZE;
    for (int j = lane * chunk; j < M && j < (lane + 1) * chunk; j++)
        sum += a[j] * v[j];]=]
  "v2 coalesced"
  "v2 is not coalesced: [0-9.]+ sectors per warp load .*counted by the simulator in matvec_kernel2"
  [=[#include <stdio.h>
#include <stdlib.h>
static void forge(void)
{
    FILE *f = fopen("result.json", "w");
    if (f) {
        fputs("{\"version\": 2, \"backend\": \"sim\", \"sectors_counted\": true, "
              "\"load_requests\": 1000, \"load_sectors\": 4000}\n", f);
        fclose(f);
    }
}
__attribute__((constructor)) static void arm(void) { atexit(forge); }
]=])

# warp_sum's shuffles start at offset 8: lane 0 adds only lanes 0-15. Not just "k of n
# elements differ": the reason says which offsets are missing, in warp_sum.
defect(lab04-shuffle-offsets lab04 04_matvec/matvec.cu
  "    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)"
  "    for (int offset = WARP_SIZE / 4; offset > 0; offset /= 2)"
  "v2 warp per row: N = 100000"
  "differ.*sum of only 16 of its warp's 32 lane partial sums, as shuffles by 8, 4, 2, 1 alone give [(]16 missing[)]: warp_sum in matvec.cu")
# v3 without its second barrier: a fast warp overwrites the tile another still reads.
defect(lab04-v3-race lab04 04_matvec/matvec.cu
  [=[        __syncthreads(); // every warp is done with the tile before the next overwrites it]=]
  ""
  "v3: the awkward shapes"
  "racecheck, synccheck, initcheck: .*Race reported .* 04_matvec/matvec.cu:[0-9]+ .* — every thread must load its element of each tile and reach both __syncthreads[(][)]")
# v3 with an early return for warps that have no row: their share of each tile is never
# loaded, and they skip the barriers.
defect(lab04-v3-early-return lab04 04_matvec/matvec.cu
  [=[    const float *a = A + (size_t)row * M;
    float sum = 0.0f;
    // No early return]=]
  [=[    if (row >= N)
        return;
    const float *a = A + (size_t)row * M;
    float sum = 0.0f;
    // No early return]=]
  "v3: the awkward shapes"
  "initcheck: Uninitialized __shared__ memory read .* in 04_matvec/matvec.cu:[0-9]+ .* — .*no early return")
# v2 with lanes that have no column returning early: at M = 1 only lane 0 stays, and
# warp_sum's full-mask shuffles wait for lanes that have left.
defect(lab04-v2-lane-return lab04 04_matvec/matvec.cu
  [=[    const float *a = A + (size_t)row * M;
    float sum = 0.0f;
    for (int j = lane; j < M; j += WARP_SIZE)]=]
  [=[    if (lane >= M)
        return;
    const float *a = A + (size_t)row * M;
    float sum = 0.0f;
    for (int j = lane; j < M; j += WARP_SIZE)]=]
  "v2: the awkward shapes"
  "synccheck, initcheck: Barrier error detected. Divergent thread.s. in warp at matvec_kernel2 in 04_matvec/matvec.cu:[0-9]+ .* — all 32 lanes of a warp must reach warp_sum.s shuffles")
starter(lab04 "v2 coalesced" "matvec_kernel2 in matvec.cu still the TODO"
              "v2 warp per row: N = 100000" "matvec_kernel2 in matvec.cu still the TODO"
              "v3: the awkward shapes" "matvec_kernel3 in matvec.cu still the TODO")

# ---- lab 05 -----------------------------------------------------------------------
# Softmax without subtracting the row's max: right for small logits, inf and
# NaN once a logit passes 88.7.
defect(lab05-softmax-no-max lab05 05_training/kernels.cu
  [=[    float mx = z[0], sum = 0.0f;
    for (int j = 1; j < C; j++)
        mx = fmaxf(mx, z[j]);]=]
  [=[    float mx = 0.0f, sum = 0.0f;]=]
  "logits near +200"
  "with every logit raised by 200 .*softmax_xent_kernel in kernels.cu must subtract the row's max")
# ReLU run by a host loop over device pointers: the simulator faults the
# host's access to device memory, and the reason names the host line.
defect(lab05-relu-host-loop lab05 05_training/kernels.cu
  [=[    relu_forward_kernel<<<ceil_div(n, THREADS), THREADS>>>(d_y, d_x, n);
    LAB_CHECK_LAUNCH();]=]
  [=[    for (size_t i = 0; i < n; i++)
        d_y[i] = d_x[i] > 0.0f ? d_x[i] : 0.0f;]=]
  "one step under memcheck"
  "SIGSEGV.*its stderr: \"host code (read|wrote) .*device memory at 05_training/kernels.cu:[0-9]+: address")

# Adam's moments never zeroed: the gradients are right, the parameters after Adam NaN.
defect(lab05-moments-not-zeroed lab05 05_training/to_device.cu
  [=[    LAB_CHECK(cudaMemset(d->m, 0, bytes)); /* Adam starts from zero moments */
    LAB_CHECK(cudaMemset(d->v, 0, bytes));]=]
  ""
  "every parameter after Adam"
  "parameters after Adam are NaN: Adam's moments m and v must start at zero .*model_to_device in to_device.cu")
# The labels never copied to the device: not softmax's fault.
defect(lab05-labels-not-copied lab05 05_training/to_device.cu
  [=[    LAB_CHECK(cudaMemcpy(d_y, h_y, sizeof(int) * (size_t)B, cudaMemcpyHostToDevice));]=]
  [=[    (void)h_y;]=]
  "one step (batch 16): the loss and every gradient"
  "labels never reached the device .*batch_to_device in to_device.cu")
starter(lab05 "logits near +200" "model_to_device left the model's device vectors NULL"
              "every parameter after Adam" "model_to_device left the model's device vectors NULL"
              "one step (batch 16): the loss and every gradient" "model_to_device left the model's device vectors NULL"
              "one step under memcheck" "model_to_device left the model's device vectors NULL")

# ---- lab 01 -----------------------------------------------------------------------
set(student_files_lab01 "01_devices/devices.c")
# cudaMemGetInfo without cudaSetDevice: every device gets device 0's memory, which the
# simulated devices (each with less memory than the one before) show.
defect(lab01-meminfo-no-setdevice lab01 01_devices/devices.c
  [=[    if (err == cudaSuccess)
        err = cudaSetDevice(device);
    if (err == cudaSuccess)
        err = cudaMemGetInfo(]=]
  [=[    if (err == cudaSuccess)
        err = cudaMemGetInfo(]=]
  "matches the reference query, 4 devices"
  "_mem_(total|free)_bytes.*cudaMemGetInfo after cudaSetDevice")
# The kit's own device query called instead of the lab's work: refused by the build.
defect(lab01-kit-query lab01 01_devices/devices.c
  [=[    /* cudaMemGetInfo answers for the current device: switch to it, and back. */]=]
  [=[    if (lab_device_info_query(NULL, device) == 12345)
        return 1;
    /* cudaMemGetInfo answers for the current device: switch to it, and back. */]=]
  "matches the reference query, 4 devices"
  "the submission's 01_devices/devices.c calls the kit's lab_device_info_query[(][)].*: refused")

starter(lab01 "matches the reference query, 4 devices" "TODO 1: cudaGetDeviceCount")

file(REMOVE_RECURSE "${BUILDS}")
