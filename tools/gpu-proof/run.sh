#!/usr/bin/env bash
# gpu-proof: what the kit says about the cuda backend, checked on a real
# NVIDIA GPU in one command of at most 8 minutes (docs/gpu-proof.md).
#
#   tools/gpu-proof/run.sh [OUTDIR]        OUTDIR defaults to $OUT
#
# The steps, in order, each under a time limit of its own:
#   build       configure build-gpu/ for this GPU (-DCMAKE_CUDA_ARCHITECTURES=native,
#               cuda backend required) and build, on every core, the programs the
#               steps below run
#   ctest       ctest -L '^cuda$': every failure, and every skip (a skip counts as
#               a failure here), with its output
#   grade       gpulab-grade --backend cuda --compare: the whole table as JSON
#   demos       every lab's demo on the cuda backend, solutions then starters
#   sanitizer   compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on
#               each lab solution, and on the check-mode corpus
#               (sim/tests/check) built with nvcc: per program, what it
#               reports beside the simulator's expected reports
#   ncu         global load sectors and requests of lab 04's three mat-vec
#               kernels and lab 03's vector add, beside the simulator's counts
#   modelcheck  model-check-cuda (measured vs modeled, every case), the
#               operations of the published rows of docs/model-validation.md
#               measured here (PyTorch, and bandwidthTest where the toolkit has
#               it), and the corpus's cases measured and modeled
#               (corpus-measured.tsv, corpus-modeled.tsv)
#   train       lab 05's device trainer, one epoch at batch 256, beside PyTorch
#               training the same network on the same images on the same GPU
#
# What it leaves in OUTDIR: summary.json and report.md (report.py writes
# both after every step, so a run cut short still leaves them) and
# logs.tar.gz (every step's logs). Working files go to $GPU_PROOF_WORK
# (default /tmp/gpulab-gpu-proof), which is emptied first.
#
# Exit status: 0 every step passed; 1 a step failed or ran out of time (the
# report says which and why); 2 bad usage; 77 no usable NVIDIA GPU (one line
# says why, before any work is done).
#
# Time: the steps share GPU_PROOF_BUDGET seconds (default 465). Each may run
# up to its cap (table below) but never into the reserves of the steps after
# it, so a slow step cannot eat the others; `timeout` stops it and every
# process it started.
#
# Packages: the Debian packages prepare.sh fetched into tools/gpu-proof/debs/
# (GPU_PROOF_DEBS) are unpacked with dpkg -x into a private prefix under the
# work folder, never into /, and CMake is pointed at them. Nothing here needs
# the network.
#
# Environment, for tests and special cases: GPU_PROOF_NVIDIA_SMI (the
# nvidia-smi to ask), GPU_PROOF_STEPS (which steps, in order),
# GPU_PROOF_BUILD_DIR (default build-gpu), GPU_PROOF_BUILD_ALL=1 (build every
# target), PYTHON (the Python with PyTorch; default python3).
# GPU_PROOF_STEPS=selftest runs a step that only sleeps GPU_PROOF_SELFTEST_SLEEP
# seconds under a limit of GPU_PROOF_SELFTEST_LIMIT: test.sh proves with it
# that a limit stops a step, and that the report says so.
# shellcheck disable=SC2317 # the steps are functions called by name ("step_$2")
set -uo pipefail

# ---- settings ----------------------------------------------------------------

# Builtins only up to the GPU check, which must work on any PATH.
self=${BASH_SOURCE[0]}
[[ $self == */* ]] || self=./$self
here=$(cd "${self%/*}" && pwd)
self=$here/${self##*/}
root=$(cd "$here/../.." && pwd)
work=${GPU_PROOF_WORK:-/tmp/gpulab-gpu-proof}
build=${GPU_PROOF_BUILD_DIR:-$root/build-gpu}
bin=$build/bin
python=${PYTHON:-python3}
tools4="memcheck racecheck synccheck initcheck"

# Caps and reserves, in seconds. A step's limit is its cap, or less: what is
# left of the budget after the reserves of the steps still to come.
declare -A cap=([compile]=270 [ctest]=150 [grade]=120 [demos]=90 [sanitizer]=120
    [ncu]=90 [modelcheck]=120 [train]=60 [selftest]=${GPU_PROOF_SELFTEST_LIMIT:-2})
declare -A reserve=([compile]=0 [ctest]=60 [grade]=35 [demos]=30 [sanitizer]=40
    [ncu]=25 [modelcheck]=30 [train]=20 [selftest]=0)

# The CUDA tools are often outside PATH.
for d in /usr/local/cuda/bin /opt/nvidia/nsight-compute/*; do
    [ -d "$d" ] && case ":$PATH:" in *":$d:"*) ;; *) PATH=$PATH:$d ;; esac
done
export PATH

# require_gpu: exits 77 with one line saying why when nvidia-smi is missing,
# fails, or lists no GPU.
require_gpu() {
    local smi=${GPU_PROOF_NVIDIA_SMI:-nvidia-smi} gpus
    if ! command -v "$smi" >/dev/null 2>&1; then
        echo "gpu-proof: skipped: no $smi on PATH, so no NVIDIA driver here" >&2
        exit 77
    fi
    if ! gpus=$("$smi" -L 2>&1); then
        echo "gpu-proof: skipped: $smi -L failed: ${gpus%%$'\n'*}" >&2
        exit 77
    fi
    case $'\n'"$gpus" in
    *$'\n'"GPU "[0-9]*) ;;
    *)
        gpus=${gpus%%$'\n'*}
        echo "gpu-proof: skipped: $smi -L lists no GPU: ${gpus:-(it printed nothing)}" >&2
        exit 77
        ;;
    esac
}

# Seconds left before this step's deadline (exported by the step runner), less a margin.
left() { echo $((GPU_PROOF_STEP_DEADLINE - $(date +%s) - ${1:-5})); }
# The smaller of two numbers.
min() { echo $(($1 < $2 ? $1 : $2)); }

# run_parallel N: runs each line of stdin, a shell command, at most N at a time.
run_parallel() {
    local n=$1 line
    while IFS= read -r line; do
        while [ "$(jobs -rp | wc -l)" -ge "$n" ]; do wait -n; done
        bash -c "$line" &
    done
    wait
}

# ---- step 1: configure and build -----------------------------------------------

# Paths under the build folder that the cuda-labelled tests' commands name,
# one a line (read from ctest's JSON).
cuda_test_paths() {
    ctest --test-dir "$build" -L '^cuda$' --show-only=json-v1 2>/dev/null | "$python" -c '
import json, re, sys
build = sys.argv[1]
for test in json.load(sys.stdin).get("tests", []):
    for arg in test.get("command", []):
        for path in re.findall(re.escape(build) + r"/[^;=\s\"]+", arg):
            print(path)' "$build" | sort -u
}

# The targets the steps need, one a line: the programs the cuda-labelled tests
# name, and those the other steps run.
needed_targets() {
    cuda_test_paths | while read -r path; do basename "$path"; done
    printf '%s\n' gpulab-grade bench-lab05-cpu model-check-cuda model-check-sim \
        model-check-sim.check lab03-sim-solution lab03-sim-solution.check \
        lab04-sim-solution lab04-sim-solution.check
    for n in 1 2 3 4 5; do printf 'lab0%s-cuda-solution\nlab0%s-cuda-student\n' "$n" "$n"; done
}

# Programs under the build folder that the cuda-labelled tests name and that
# do not exist (after the build: what it failed to make, or left out).
missing_programs() {
    cuda_test_paths | while read -r path; do
        case "$path" in
        "$build"/bin/* | "$build"/tests/*) [ -e "$path" ] || printf '%s\n' "$path" ;;
        esac
    done
}

step_compile() {
    local d=$1 jobs gen=() keep=() extra=() known
    jobs=$(nproc)
    read -ra extra <<<"${GPU_PROOF_CMAKE_ARGS:-}"
    # A folder configured before keeps its generator; a new one gets Ninja when there is one.
    if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
    echo "configure: $build (log: configure.log)"
    if ! cmake -S "$root" -B "$build" "${gen[@]}" -DGPULAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=native \
        -DGPULAB_DOCS=OFF "${extra[@]}" >"$d/configure.log" 2>&1; then
        echo "configure failed:"
        tail -40 "$d/configure.log"
        return 1
    fi
    # What to build: every target the steps need, or everything when that
    # list cannot be made (or GPU_PROOF_BUILD_ALL=1). Ninja's help target
    # lists no programs; its own tool lists every target.
    if grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja' "$build/CMakeCache.txt"; then
        keep=(-k 0)
        ninja -C "$build" -t targets all 2>/dev/null | sed 's/: .*//' | sort -u >"$d/known-targets.txt"
    else
        keep=(-k)
        cmake --build "$build" --target help 2>/dev/null | sed -e 's/^\.\.\. //' -e 's/: .*//' |
            sort -u >"$d/known-targets.txt"
    fi
    needed_targets | sort -u >"$d/wanted-targets.txt"
    comm -12 "$d/wanted-targets.txt" "$d/known-targets.txt" >"$d/targets.txt"
    local -a targets=()
    [ "${GPU_PROOF_BUILD_ALL:-0}" = 1 ] || mapfile -t targets <"$d/targets.txt"
    known=${#targets[@]}
    if [ "$known" -gt 0 ]; then
        echo "build: $known targets on $jobs cores (targets.txt; log: build.log)"
        cmake --build "$build" -j "$jobs" --target "${targets[@]}" -- "${keep[@]}" >"$d/build.log" 2>&1
    else
        echo "build: every target on $jobs cores (log: build.log)"
        cmake --build "$build" -j "$jobs" -- "${keep[@]}" >"$d/build.log" 2>&1
    fi
    local rc=$?
    # A program the tests run that is missing though no target of the list
    # makes it (not one that failed to compile): build everything.
    missing_programs >"$d/missing.txt"
    sed 's|.*/||' "$d/missing.txt" | sort -u | comm -23 - "$d/targets.txt" >"$d/unlisted.txt"
    if [ -s "$d/unlisted.txt" ] && [ "$known" -gt 0 ] && [ "$(left 20)" -gt 30 ]; then
        echo "build: $(wc -l <"$d/unlisted.txt") programs the cuda tests run are no target of the list (unlisted.txt); building everything"
        cmake --build "$build" -j "$jobs" -- "${keep[@]}" >>"$d/build.log" 2>&1
        rc=$?
        missing_programs >"$d/missing.txt"
    fi
    grep -E '(error|Error)[: ]' "$d/build.log" | grep -v '^-- ' | head -40 >"$d/errors.txt"
    [ -s "$d/missing.txt" ] && { echo "still missing:"; cat "$d/missing.txt"; }
    [ "$rc" -eq 0 ] || { echo "build failed (status $rc); first errors:"; cat "$d/errors.txt"; }
    return "$rc"
}

# ---- step 1 (continued): the cuda-labelled tests --------------------------------

step_ctest() {
    local d=$1 stop jobs size=() rc=0
    jobs=$(($(nproc) / 2))
    [ "$jobs" -ge 1 ] || jobs=1
    # CTest stops every test at this time of day and still writes its JUnit
    # file; the step's own limit is the backstop. Local time, no zone: CTest
    # ignores a stop time with one (seen with CTest 3.25).
    stop=$(date -d "@$((GPU_PROOF_STEP_DEADLINE - 15))" '+%H:%M:%S')
    # (grep without -q reads all: under pipefail an early exit would kill
    # ctest with SIGPIPE and fail the test at random.)
    ctest --help 2>/dev/null | grep -- --test-output-size-passed > /dev/null &&
        size=(--test-output-size-passed 200000 --test-output-size-failed 2000000)
    # model-check's GPU run times things: alone, after the others.
    echo "ctest -L '^cuda\$' on $jobs jobs, then model-check-cuda-quick alone; tests stop at $stop"
    ctest --test-dir "$build" -L '^cuda$' -E '^model-check-cuda-quick$' -j "$jobs" --no-tests=error \
        --output-on-failure --stop-time "$stop" --output-junit "$d/junit-main.xml" "${size[@]}" \
        >"$d/ctest-main.log" 2>&1 || rc=1
    tail -25 "$d/ctest-main.log"
    ctest --test-dir "$build" -L '^cuda$' -R '^model-check-cuda-quick$' --no-tests=error \
        --output-on-failure --stop-time "$stop" --output-junit "$d/junit-model.xml" "${size[@]}" \
        >"$d/ctest-model.log" 2>&1 || rc=1
    tail -8 "$d/ctest-model.log"
    return "$rc"
}

# ---- step 2: the grader ----------------------------------------------------------

step_grade() {
    local d=$1
    "$bin/gpulab-grade" --help >"$d/help.txt" 2>&1
    echo "gpulab-grade --backend cuda --compare (the table: grade.log; JSON: grades.json)"
    (cd "$d" && "$bin/gpulab-grade" --backend cuda --compare --quiet --json "$d/grades.json" \
        --summary "$d/summary.txt") >"$d/grade.log" 2>&1
    local rc=$?
    tail -30 "$d/grade.log"
    return "$rc"
}

# ---- step 3: the demos -------------------------------------------------------------

step_demos() {
    local d=$1 v n p t0 rc limit failed=0
    printf 'program\trc\tseconds\n' >"$d/demos.tsv"
    for v in solution student; do
        for n in 1 2 3 4 5; do
            p=lab0$n-cuda-$v
            limit=$(min "$([ "$v" = solution ] && echo 90 || echo 30)" "$(left)")
            if [ "$limit" -lt 3 ]; then
                printf '%s\tnot-run\t0\n' "$p" >>"$d/demos.tsv"
                continue
            fi
            mkdir -p "$d/$p.d"
            t0=$(date +%s)
            (cd "$d/$p.d" && timeout -k 5 "$limit" "$bin/$p") >"$d/$p.log" 2>&1
            rc=$?
            printf '%s\t%s\t%s\n' "$p" "$rc" "$(($(date +%s) - t0))" >>"$d/demos.tsv"
            echo "$p: exit $rc, $(grep -E '^(PASS|FAIL)' "$d/$p.log" | tail -1)"
            [ "$v" = solution ] && [ "$rc" -ne 0 ] && failed=1
        done
    done
    return "$failed"
}

# ---- step 4: compute-sanitizer -------------------------------------------------

# --sanitize-one LOG TOOL LIMIT PROGRAM [ARGS...]: one program under one tool,
# in a folder of its own; its output in LOG, "status seconds" in LOG.rc.
sanitize_one() {
    local log=$1 tool=$2 limit t0 opts
    limit=$(min "$3" "$(left 3)")
    shift 3
    opts=(--tool "$tool" --print-limit 20)
    case $tool in
    memcheck) opts+=(--leak-check full) ;;
    racecheck) opts+=(--racecheck-report all) ;;
    esac
    if [ "$limit" -lt 3 ]; then
        echo "not run: no time left" >"$log"
        echo "not-run 0" >"$log.rc"
        return
    fi
    mkdir -p "$log.d"
    t0=$(date +%s)
    (cd "$log.d" && timeout -k 5 "$limit" compute-sanitizer "${opts[@]}" "$@") >"$log" 2>&1
    echo "$? $(($(date +%s) - t0))" >"$log.rc"
}

step_sanitizer() {
    local d=$1 f name tools t lab args cores slots
    cores=$(nproc)
    slots=$(min 12 "$cores")
    [ "$slots" -ge 4 ] || slots=4
    command -v compute-sanitizer >/dev/null || { echo "no compute-sanitizer on PATH"; return 1; }
    compute-sanitizer --version >"$d/version.txt" 2>&1
    mkdir -p "$d/bin" "$d/expect" "$d/corpus" "$d/labs"
    # nvcc links cuBLAS without a run path: the toolkit's library folder for the runs.
    for f in "$(dirname "$(command -v nvcc)")/../lib64" /usr/local/cuda/lib64; do
        [ -d "$f" ] && LD_LIBRARY_PATH=$(cd "$f" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    done
    export LD_LIBRARY_PATH
    # The corpus, each program built with nvcc as its README says it can be,
    # with line information for the reports; its expectations copied beside.
    echo "building the check-mode corpus with nvcc ($(find "$root/sim/tests/check" -name '*.cu' | wc -l) programs)"
    for f in "$root"/sim/tests/check/*.cu; do
        name=$(basename "$f" .cu)
        grep -E '^// (CHECK-|DEVICES)' "$f" >"$d/expect/$name.txt"
        printf 'nvcc -O2 -g -lineinfo -arch=native -o %q %q -lcublas >%q 2>&1\n' \
            "$d/bin/$name" "$f" "$d/bin/$name.build.log"
    done | run_parallel "$cores"
    # The runs, longest first: each lab solution's demo, at its quick size,
    # under all four tools; each corpus program under its tools (CHECK-TOOL;
    # "all" is the four).
    {
        for lab in "lab01:" "lab02:" "lab03:--no-timing" "lab04:--validate" "lab05:--images 512 --no-sweep"; do
            args=${lab#*:}
            for t in $tools4; do
                # shellcheck disable=SC2086 # the lab's arguments are words
                printf 'bash %q --sanitize-one %q %q 90 %q %s\n' "$self" "$d/labs/${lab%%:*}.$t" "$t" \
                    "$bin/${lab%%:*}-cuda-solution" "$args"
            done
        done
        for f in "$d"/expect/*.txt; do
            name=$(basename "$f" .txt)
            tools=$(sed -n 's|^// CHECK-TOOL: *\([a-z,]*\).*|\1|p' "$f" | head -1)
            [ -z "$tools" ] || [ "$tools" = all ] && tools=$tools4
            [ -x "$d/bin/$name" ] || continue
            for t in ${tools//,/ }; do
                printf 'bash %q --sanitize-one %q %q 30 %q\n' "$self" "$d/corpus/$name.$t" "$t" "$d/bin/$name"
            done
        done
    } >"$d/jobs.txt"
    echo "compute-sanitizer: $(wc -l <"$d/jobs.txt") runs, $slots at a time"
    run_parallel "$slots" <"$d/jobs.txt"
    for f in "$d"/expect/*.txt; do
        name=$(basename "$f" .txt)
        [ -x "$d/bin/$name" ] || echo "nvcc could not build $name (bin/$name.build.log)"
    done
    # The step fails only when no run got as far as compute-sanitizer's summary.
    grep -qr "ERROR SUMMARY" "$d/corpus" "$d/labs"
}

# ---- step 5: ncu -----------------------------------------------------------------

# ncu_run NAME KERNEL_REGEX LAUNCHES PROGRAM [ARGS...]: the global-load metrics
# of the first LAUNCHES matching launches, saved, then exported as CSV (whose
# columns also give each launch's grid and block).
ncu_run() {
    local d=$GPU_PROOF_STEP_DIR name=$1 regex=$2 count=$3 limit
    shift 3
    limit=$(min 60 "$(left 10)")
    (cd "$d" && timeout -k 5 "$limit" ncu --clock-control none -f -o "$d/$name" -k "regex:$regex" \
        --launch-count "$count" --metrics "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum" \
        "$@") >"$d/$name.log" 2>&1
    echo "ncu $name: exit $?"
    ncu --import "$d/$name.ncu-rep" --csv --page raw --print-units base >"$d/$name.csv" 2>"$d/$name.import.log"
}

step_ncu() {
    local d=$1
    command -v ncu >/dev/null || { echo "no ncu on PATH"; return 1; }
    ncu --version >"$d/version.txt" 2>&1
    export GPU_PROOF_STEP_DIR=$d
    # The simulator's counts of the same launches, on the CPU meanwhile.
    (cd "$d" && GPULAB_SIM_MODEL=off GPULAB_SIM_STATS=1 timeout "$(left 3)" "$bin/lab04-sim-solution" \
        --count-sectors) >"$d/sim-lab04.txt" 2>&1 &
    (cd "$d" && GPULAB_SIM_MODEL=off GPULAB_SIM_STATS=1 timeout "$(left 3)" "$bin/lab03-sim-solution" \
        --no-timing) >"$d/sim-lab03.txt" 2>&1 &
    # Lab 04's demo validates each version first at the demo's shape (N =
    # 100000, M = 100), then at six awkward ones: 15 launches hold the first
    # of each version, the one the simulator counts with --count-sectors.
    ncu_run lab04 '^matvec_kernel[123]$' 15 "$bin/lab04-cuda-solution" --matmul-n 1024
    ncu_run lab03 '^vec_add_kernel$' 1 "$bin/lab03-cuda-solution" --no-timing
    wait
    grep -q '"ID"' "$d/lab04.csv" && grep -q '"ID"' "$d/lab03.csv"
}

# ---- step 6: the model against this GPU ---------------------------------------------

# The model's profile for this GPU's name (model_check.cu's list), or nothing.
gpu_profile() {
    case $("${GPU_PROOF_NVIDIA_SMI:-nvidia-smi}" --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) in
    *H200*) echo h200 ;; *"H100 PCIe"*) echo h100-pcie ;; *H100*) echo h100-sxm ;;
    *A100-PCIE-40GB*) echo a100-40gb-pcie ;; *"A100 80GB PCIe"*) echo a100-80gb-pcie ;;
    *A100*80GB*) echo a100-80gb ;; *A100*) echo a100-40gb ;; *T4*) echo t4 ;; *L4*) echo l4 ;;
    *V100-PCIE*) echo v100-pcie ;; *V100*) echo v100 ;; *4090*) echo rtx4090 ;;
    *3060*) echo rtx3060 ;; *"1650 SUPER"*) echo gtx1650-super ;; *1650*) echo gtx1650 ;;
    esac
}

step_modelcheck() {
    local d=$1 profile gpu=() rc bt
    profile=$(gpu_profile)
    [ -n "$profile" ] && gpu=(--gpu "$profile")
    echo "model-check-cuda ${gpu[*]} --out (log: model-check.log)"
    (cd "$d" && timeout -k 5 "$(min 90 "$(left 30)")" "$bin/model-check-cuda" "${gpu[@]}" --out "$d") \
        >"$d/model-check.log" 2>&1
    rc=$?
    echo "model-check-cuda: exit $rc"
    tail -15 "$d/model-check.log"
    # The published rows' operations, measured here with PyTorch (events).
    LD_LIBRARY_PATH=${GPU_PROOF_ORIG_LD_LIBRARY_PATH:-} timeout -k 5 "$(min 40 "$(left 15)")" \
        "$python" "$here/torch_ops.py" >"$d/ops.jsonl" 2>"$d/ops.log" ||
        tail -5 "$d/ops.log"
    echo "torch_ops.py: $(grep -c '"what"' "$d/ops.jsonl") operations measured"
    for bt in /usr/local/cuda/extras/demo_suite/bandwidthTest "$(command -v bandwidthTest)"; do
        [ -x "$bt" ] || continue
        { timeout 20 "$bt" --memory=pinned; timeout 20 "$bt" --memory=pageable; } >"$d/bandwidthTest.log" 2>&1
        break
    done
    [ -f "$d/bandwidthTest.log" ] || echo "no bandwidthTest in this CUDA toolkit" >"$d/bandwidthTest.log"
    # The model's side of the published rows, for the same profile.
    timeout -k 5 "$(min 60 "$(left 3)")" "$bin/model-check-sim" --published "${gpu[@]}" \
        >"$d/published-modeled.txt" 2>&1
    # The corpus's operations (tools/model-check/corpus.csv), measured here and
    # modeled for this GPU's profile: rows for the corpus from this board.
    "$python" -c 'import csv,sys; print("\n".join(sorted({r["case"] for r in csv.DictReader(open(sys.argv[1]))})))' \
        "$here/../model-check/corpus.csv" >"$d/corpus-cases.txt" 2>"$d/corpus.log"
    timeout -k 5 "$(min 60 "$(left 10)")" "$bin/model-check-cuda" --corpus "$d/corpus-cases.txt" \
        >"$d/corpus-measured.tsv" 2>>"$d/corpus.log"
    [ -n "$profile" ] && GPULAB_SIM_MODEL=$profile timeout -k 5 "$(min 60 "$(left 3)")" \
        "$bin/model-check-sim" --corpus "$d/corpus-cases.txt" >"$d/corpus-modeled.tsv" 2>>"$d/corpus.log"
    echo "corpus cases: $(grep -c '^case' "$d/corpus-measured.tsv") measured (corpus-measured.tsv)"
    return "$rc"
}

# ---- step 7: lab 05's trainer beside PyTorch ----------------------------------------

step_train() {
    local d=$1 demo=$work/demos/lab05-cuda-solution.log n
    # The device trainer's epoch: the demo's own (step 3), else run it here.
    if ! grep -q "the steps' device time" "$demo" 2>/dev/null; then
        echo "no device epoch in the demos' log: running the demo without its sweep"
        demo=$d/lab05-demo.log
        mkdir -p "$d/demo.d"
        (cd "$d/demo.d" && timeout -k 5 "$(min 60 "$(left 25)")" "$bin/lab05-cuda-solution" --batch 256 \
            --no-sweep) >"$demo" 2>&1
    else
        cp "$demo" "$d/lab05-demo.log"
    fi
    n=$(sed -n 's/^3\. One epoch .*: \([0-9]*\) images of .*/\1/p' "$d/lab05-demo.log" | head -1)
    echo "the demo's epoch: ${n:-?} images"
    # The same images for PyTorch (bench-lab05-cpu writes them as CIFAR-10 records).
    "$bin/bench-lab05-cpu" --images "${n:-10000}" --write "$d/images.bin" >"$d/bench-cpu.log" 2>&1 ||
        { echo "bench-lab05-cpu failed"; tail -5 "$d/bench-cpu.log"; return 1; }
    LD_LIBRARY_PATH=${GPU_PROOF_ORIG_LD_LIBRARY_PATH:-} timeout -k 5 "$(min 50 "$(left 3)")" \
        "$python" "$here/torch_lab05.py" "$d/images.bin" --batch 256 >"$d/torch.jsonl" 2>"$d/torch.log"
    local rc=$?
    rm -f "$d/images.bin"
    cat "$d/torch.jsonl"
    [ "$rc" -eq 0 ] || { echo "torch_lab05.py: exit $rc"; tail -5 "$d/torch.log"; }
    grep -q "the steps' device time" "$d/lab05-demo.log" && [ "$rc" -eq 0 ]
}

# ---- the self-test step (test.sh) -------------------------------------------------

# It says what the packages gave CMake, sleeps (its pid in sleep.pid, so
# that test.sh can see the limit ended it), and says when it is done.
step_selftest() {
    echo "selftest: cmake arguments: ${GPU_PROOF_CMAKE_ARGS:-none}"
    echo "selftest: sleeping ${GPU_PROOF_SELFTEST_SLEEP:-1} s"
    sleep "${GPU_PROOF_SELFTEST_SLEEP:-1}" &
    echo $! >"$1/sleep.pid"
    wait $!
    echo "selftest: done"
}

# ---- entry points for the step runner ------------------------------------------------

if [ "${1:-}" = "--step" ]; then
    "step_$2" "$3"
    exit $?
fi
if [ "${1:-}" = "--sanitize-one" ]; then
    shift
    sanitize_one "$@"
    exit 0
fi

# unpack_deb DEB DIR: the package's files under DIR (dpkg -x; without dpkg,
# its data member taken out with ar and unpacked with tar).
unpack_deb() {
    if command -v dpkg >/dev/null; then
        dpkg -x "$1" "$2"
        return
    fi
    local t member
    t=$(mktemp -d)
    member=$(cd "$t" && ar t "$1" | grep '^data\.tar') && (cd "$t" && ar x "$1" "$member") &&
        tar -xf "$t/$member" -C "$2"
    local rc=$?
    rm -rf "$t"
    return "$rc"
}

# ---- the run -----------------------------------------------------------------------

require_gpu
smi=${GPU_PROOF_NVIDIA_SMI:-nvidia-smi}
build=$(realpath -m "$build")
bin=$build/bin
export GPU_PROOF_BUILD_DIR=$build
out=${1:-${OUT:-}}
if [ -z "$out" ]; then
    echo "usage: $0 OUTDIR   (or set OUT)" >&2
    exit 2
fi
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
case $work in "" | / | "$root" | "$HOME") echo "gpu-proof: GPU_PROOF_WORK=$work: not a folder to empty" >&2; exit 2 ;; esac
case $out/ in "${work%/}"/*) echo "gpu-proof: $out is inside GPU_PROOF_WORK, which is emptied first" >&2; exit 2 ;; esac
rm -rf "$work"
mkdir -p "$work" || exit 2
start=$(date +%s)
deadline=$((start + ${GPU_PROOF_BUDGET:-465}))
read -ra steps <<<"${GPU_PROOF_STEPS:-compile ctest grade demos sanitizer ncu modelcheck train}"
for s in "${steps[@]}"; do
    [ -n "${cap[$s]:-}" ] || { echo "gpu-proof: no step '$s' (GPU_PROOF_STEPS)" >&2; exit 2; }
done
export GPU_PROOF_ORIG_LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}

# The carried packages, unpacked into a private prefix: the libraries under
# names CMake finds (the links Debian's maintainer scripts would make), the
# Fortran runtime only where the system has none.
debs=${GPU_PROOF_DEBS:-$here/debs}
prefix=$work/prefix
blas_note="OpenBLAS: the system's (no packages in $debs)"
if compgen -G "$debs/*.deb" >/dev/null; then
    mkdir -p "$prefix/root" "$prefix/lib"
    for f in "$debs"/*.deb; do unpack_deb "$f" "$prefix/root" || echo "gpu-proof: cannot unpack $f" >&2; done
    libdir=$(find "$prefix/root" -type d -path '*/lib/*' -name openblas-pthread | head -1)
    incdir=$(find "$prefix/root" -type d -path '*/include/*' -name openblas-pthread | head -1)
    if [ -n "$libdir" ] && [ -n "$incdir" ]; then
        ln -sf "$libdir"/libopenblas.so* "$prefix/lib/"
        ln -sfn "$incdir" "$prefix/include"
        for lib in libgfortran.so.5 libquadmath.so.0; do
            if ! { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -F "$lib " > /dev/null; then
                f=$(find "$prefix/root" -name "$lib" | head -1)
                [ -n "$f" ] && ln -sf "$f" "$prefix/lib/$lib"
            fi
        done
        export LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
        export GPU_PROOF_CMAKE_ARGS="-DGPULAB_CBLAS_INCLUDE_DIR=$prefix/include -DCMAKE_LIBRARY_PATH=$prefix/lib"
        blas_note="OpenBLAS: carried packages ($(cd "$debs" && echo *.deb)) in $prefix: $(cd "$prefix/lib" && echo *)"
    else
        blas_note="OpenBLAS: $debs has packages but no openblas-pthread library and headers in them"
    fi
    # The grader may run lab programs as an unprivileged user.
    chmod -R a+rX "$work"
fi

# The machine, for the report. version_of CMD ARGS...: CMD's version line, or why there is none.
version_of() {
    command -v "$1" >/dev/null 2>&1 || { echo "not on PATH"; return; }
    "$@" 2>&1 | grep -iE -m1 'version|release' || "$@" 2>&1 | head -1
}
{
    echo "date_utc: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(hostname 2>/dev/null) ($(uname -srm)), $(nproc) cores"
    echo "gpus: $("$smi" -L 2>&1 | head -4 | tr '\n' ';')"
    echo "gpu: $("$smi" --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>&1 | head -1)"
    echo "nvcc: $(version_of nvcc --version)"
    echo "compute-sanitizer: $(version_of compute-sanitizer --version)"
    echo "ncu: $(version_of ncu --version)"
    echo "cmake: $(version_of cmake --version)"
    echo "cc: $(version_of cc --version)"
    echo "python: $("$python" --version 2>&1)"
    echo "source: $(cat "$debs/SOURCE" 2>/dev/null || git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"
    echo "openblas: $blas_note"
    echo "budget_s: ${GPU_PROOF_BUDGET:-465}"
} >"$work/env.txt" 2>&1
cat "$work/env.txt"

# The steps. steps.tsv: name, status (ok, failed, timeout, not-run), exit
# status, seconds, limit.
printf 'step\tstatus\trc\tseconds\tlimit\n' >"$work/steps.tsv"
failed=0
for i in "${!steps[@]}"; do
    s=${steps[$i]}
    later=0
    for t in "${steps[@]:$((i + 1))}"; do later=$((later + reserve[$t])); done
    limit=$(min "${cap[$s]}" $((deadline - $(date +%s) - later)))
    mkdir -p "$work/$s"
    # Too little time left to start it (a step with a cap under 5 s, only the
    # self-test's, runs with what it has).
    if [ "$limit" -lt 1 ] || { [ "$limit" -lt 5 ] && [ "$limit" -lt "${cap[$s]}" ]; }; then
        printf '%s\tnot-run\t-\t0\t%s\n' "$s" "$limit" >>"$work/steps.tsv"
        echo "== $s: not run, no time left"
        failed=1
        continue
    fi
    echo "== $s (limit ${limit} s)"
    t0=$(date +%s)
    GPU_PROOF_STEP_DEADLINE=$((t0 + limit)) timeout -k 10 "$limit" bash "$self" --step "$s" "$work/$s" \
        >"$work/$s/step.log" 2>&1
    rc=$?
    secs=$(($(date +%s) - t0))
    case $rc in
    0) status=ok ;;
    124 | 137) status=timeout ;;
    *) status=failed ;;
    esac
    [ "$status" = ok ] || failed=1
    printf '%s\t%s\t%s\t%s\t%s\n' "$s" "$status" "$rc" "$secs" "$limit" >>"$work/steps.tsv"
    tail -12 "$work/$s/step.log" | sed 's/^/   /'
    echo "== $s: $status (exit $rc, $secs s)"
    "$python" "$here/report.py" "$work" "$out" >/dev/null || echo "gpu-proof: report.py failed" >&2
done

# Every log in one archive; the prefix, binaries and data left out. Under the
# 16 MiB a file the device call brings back, or again without ncu's reports.
skip=(--exclude=./prefix --exclude=./sanitizer/bin --exclude=./train/images.bin)
tar -C "$work" "${skip[@]}" -czf "$out/logs.tar.gz" . 2>/dev/null
if [ "$(stat -c %s "$out/logs.tar.gz")" -gt 15000000 ]; then
    tar -C "$work" "${skip[@]}" --exclude='*.ncu-rep' -czf "$out/logs.tar.gz" . 2>/dev/null
fi
"$python" "$here/report.py" "$work" "$out" || failed=1
echo "gpu-proof: $(($(date +%s) - start)) s; $out: $(cd "$out" && echo *)"
exit "$failed"
