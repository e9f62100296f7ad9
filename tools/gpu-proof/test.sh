#!/usr/bin/env bash
# gpu-proof's own tests, without a GPU (CTest: gpu-proof; docs/gpu-proof.md),
# so that the one run on a GPU machine is not the script's first:
#   1. no GPU: run.sh exits 77 with one line saying why, and does no work,
#      when nvidia-smi is not on PATH, when it fails, and when it lists no GPU;
#   2. the report writer on the made-up fixture (tests/fixture): what it finds,
#      in summary.json and in report.md;
#   3. a time limit stops a step: a step that would sleep 30 s is ended at
#      2 s, its process is gone, the run goes on to its report, which says so;
#   4. the carried packages: a made-up package with OpenBLAS's layout is
#      unpacked into the private prefix and CMake is pointed at it (where
#      dpkg-deb exists);
#   5. bash -n on the scripts, shellcheck where it is installed, and Python's
#      parser on the Python files.
# Needs bash, coreutils and Python 3 (PYTHON); no build of the kit, no GPU,
# no network.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The caller's settings for run.sh must not leak into these runs.
for v in $(compgen -e); do [[ $v == GPU_PROOF_* ]] && unset "$v"; done
failures=0

# check WHAT COMMAND...: runs the command, prints ok or FAIL and what.
check() {
    local what=$1
    shift
    if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}
# contains FILE TEXT: whether FILE holds TEXT (fixed string).
contains() { grep -qF -- "$2" "$1"; }
# lacks FILE TEXT: whether FILE does not hold TEXT.
lacks() { ! grep -qF -- "$2" "$1"; }
# one_line FILE: whether FILE holds exactly one line.
one_line() { [ "$(wc -l <"$1")" -eq 1 ]; }
# gone PID: whether process PID has ended (no such process, or a zombie
# that nobody has reaped yet).
gone() {
    local state
    state=$(ps -o stat= -p "$1" 2>/dev/null)
    [ -z "$state" ] || [[ $state == Z* ]]
}

# Stand-in nvidia-smi programs, each alone in a folder of its own.
mkdir -p "$tmp/empty" "$tmp/fail" "$tmp/none" "$tmp/nogpu" "$tmp/gpu"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver."\nexit 9\n' \
    >"$tmp/fail/nvidia-smi"
printf '#!/bin/sh\necho "No devices were found"\nexit 6\n' >"$tmp/none/nvidia-smi"
printf '#!/bin/sh\necho "No devices were found"\n' >"$tmp/nogpu/nvidia-smi"
cat >"$tmp/gpu/nvidia-smi" <<'EOF'
#!/bin/sh
# A made-up GPU for the tests: no device is behind it.
case "$*" in
*--query-gpu*) echo "Made-up GPU (test.sh)" ;;
*) echo "GPU 0: Made-up GPU (test.sh) (UUID: GPU-test)" ;;
esac
EOF
chmod +x "$tmp"/*/nvidia-smi

# ---- 1. no GPU -----------------------------------------------------------------------

# no_gpu NAME EXPECTED_TEXT ENV...: run.sh under env -i ENV must exit 77 with
# one line holding EXPECTED_TEXT, and create neither its output nor its work folder.
no_gpu() {
    local name=$1 text=$2 rc
    shift 2
    env -i HOME="$tmp" GPU_PROOF_WORK="$tmp/work-$name" "$@" "$BASH" "$here/run.sh" "$tmp/out-$name" \
        >"$tmp/$name.txt" 2>&1
    rc=$?
    check "no GPU ($name): exit status 77 (got $rc)" [ "$rc" -eq 77 ]
    check "no GPU ($name): one line saying why" one_line "$tmp/$name.txt"
    check "no GPU ($name): the line says: $text" contains "$tmp/$name.txt" "$text"
    check "no GPU ($name): no work done" [ ! -e "$tmp/out-$name" ] && [ ! -e "$tmp/work-$name" ]
}
no_gpu no-nvidia-smi "skipped: no nvidia-smi on PATH" PATH="$tmp/empty"
no_gpu smi-fails "nvidia-smi -L failed: NVIDIA-SMI has failed" PATH="$tmp/fail"
no_gpu no-device "nvidia-smi -L failed: No devices were found" PATH="$tmp/none"
no_gpu no-gpu-listed "lists no GPU: No devices were found" PATH="$tmp/nogpu"
no_gpu smi-override "skipped: no $tmp/empty/nvidia-smi on PATH" PATH="$PATH" \
    GPU_PROOF_NVIDIA_SMI="$tmp/empty/nvidia-smi"

# ---- 2. the report writer on the fixture ------------------------------------------------

"$python" "$here/report.py" "$here/tests/fixture" "$tmp/report" >"$tmp/report.txt" 2>&1
check "report.py on the fixture: exit status 0" [ $? -eq 0 ]
"$python" - "$tmp/report/summary.json" <<'EOF' || failures=$((failures + $?))
import json, sys
s = json.load(open(sys.argv[1]))
corpus = {p["program"]: p for p in s["sanitizer"]["corpus"]}
ncu = {k["kernel"]: k for k in s["ncu"]}
checks = [
    ("flags the fixture as made-up input", s["fixture"] is True),
    ("steps: ncu timed out, not all ok", s["steps"]["ncu"]["status"] == "timeout" and not s["all_steps_ok"]),
    ("ctest: 5 selected, 3 passed", (s["ctest"]["selected"], s["ctest"]["passed"]) == (5, 3)),
    ("ctest: the failure and the skip, each named",
     [t["name"] for t in s["ctest"]["failed"]] == ["lab04-cuda-solution-demo", "conf-fixture-cuda"]),
    ("ctest: a skip says it was not run", "notrun" in s["ctest"]["failed"][1]["why"]),
    ("ctest: a failure keeps its output", "u differs" in s["ctest"]["failed"][0]["output"]),
    ("grade: lab03's solution 15 of 20", s["grade"]["labs"]["lab03"]["solution"] == {"points": 15, "max": 20}),
    ("grade: solutions not at full marks, the lost check named",
     not s["grade"]["solutions_full_marks"] and [x["check"] for x in s["grade"]["solution_lost"]] == ["fixture check b"]),
    ("demos: the verdict lines", [d["verdict"][:4] for d in s["demos"]] == ["PASS", "FAIL"]),
    ("sanitizer: an out-of-bounds write found where expected", corpus["mem_oob_write"]["verdict"] == "agrees"),
    ("sanitizer: a race at another line differs", corpus["race_war"]["verdict"] == "differs"
     and "line" in corpus["race_war"]["why"]),
    ("sanitizer: a race reported as a warning (0 errors) where expected agrees", corpus["race_waw"]["verdict"] == "agrees"),
    ("sanitizer: a correct program with no report agrees", corpus["ok_vector_add"]["verdict"] == "agrees"),
    ("sanitizer: a run stopped at its limit has no result", corpus["sync_divergent_block"]["verdict"] == "no result"),
    ("sanitizer: a program nvcc could not build", corpus["init_global"]["verdict"] == "not built"),
    ("sanitizer: 3 of 6 agree", (s["sanitizer"]["corpus_agrees"], s["sanitizer"]["corpus_programs"]) == (3, 6)),
    ("sanitizer: lab 02's API error counted", [x["errors"] for x in s["sanitizer"]["labs"]] == [1, 0]),
    ("ncu: first launch of v1 only, 32 sectors a request",
     ncu["matvec_kernel1"]["gpu"]["requests"] == 1000 and ncu["matvec_kernel1"]["gpu_per_request"] == 32),
    ("ncu: the simulator's v1 count beside it", ncu["matvec_kernel1"]["sim_per_request"] == 31),
    ("ncu: vector add on both", ncu["vec_add_kernel"]["gpu_per_request"] == 4 == ncu["vec_add_kernel"]["sim_per_request"]),
    ("model-check: its exit status and its table", s["modelcheck"]["rc"] == 1 and "fixture case" in s["modelcheck"]["table"]),
    ("model-check: the measured operations", [o["what"][:3] for o in s["modelcheck"]["ops"]] == ["H2D", "SGE"]),
    ("lab 05: the demo's epoch read", (s["train"]["images"], s["train"]["batch"]) == (1000, 256)),
    ("lab 05: device trainer / PyTorch as the lab feeds it = 2", s["train"]["lab_over_torch_wall"] == 2.0),
]
for name, ok in checks:
    print(("ok   " if ok else "FAIL ") + "report.py: " + name)
sys.exit(sum(1 for _, ok in checks if not ok))
EOF
md=$tmp/report/report.md
check "report.md: made-up input said at the top" contains "$md" "MADE-UP TEST INPUT"
check "report.md: a timed-out step says so" contains "$md" "| 5. ncu: global loads | timed out (stopped at its limit) |"
check "report.md: the failed test with its output" contains "$md" "### lab04-cuda-solution-demo: fail"
check "report.md: solutions not at full marks" contains "$md" "Solutions at full marks: NO."
check "report.md: the corpus count" contains "$md" "3 of 6 programs agree"
check "report.md: the ncu row of v1" contains "$md" "| matvec_kernel1 | (391, 1, 1) / (256, 1, 1) | 1000 | 32000 | 32.00 | 1000 | 31000 | 31.00 |"
check "report.md: the lab 05 ratio" contains "$md" "2.00x"

# ---- 3. a time limit stops a step ------------------------------------------------------

start=$(date +%s)
env PATH="$tmp/gpu:$PATH" GPU_PROOF_WORK="$tmp/work" GPU_PROOF_DEBS="$tmp/no-debs" GPU_PROOF_STEPS=selftest \
    GPU_PROOF_SELFTEST_SLEEP=30 GPU_PROOF_SELFTEST_LIMIT=2 PYTHON="$python" \
    "$BASH" "$here/run.sh" "$tmp/out" >"$tmp/timeout.txt" 2>&1
rc=$?
took=$(($(date +%s) - start))
check "time limit: run.sh exits 1 after a step timed out (got $rc)" [ "$rc" -eq 1 ]
check "time limit: the run took under 20 s, not 30 ($took s)" [ "$took" -lt 20 ]
check "time limit: steps.tsv says timeout, status 124" contains "$tmp/work/steps.tsv" $'selftest\ttimeout\t124'
check "time limit: the step never finished" lacks "$tmp/work/selftest/step.log" "selftest: done"
check "time limit: its sleep was killed" gone "$(cat "$tmp/work/selftest/sleep.pid" 2>/dev/null || echo 0)"
check "time limit: the report says it" contains "$tmp/out/report.md" "| self-test step (test.sh only) | timed out (stopped at its limit) | "
check "time limit: summary.json says it" "$python" -c \
    'import json,sys; sys.exit(json.load(open(sys.argv[1]))["steps"]["selftest"]["status"] != "timeout")' "$tmp/out/summary.json"
check "time limit: OUTDIR holds the three files" [ "$(cd "$tmp/out" && echo *)" = "logs.tar.gz report.md summary.json" ]
check "time limit: logs.tar.gz holds the step's log" contains <(tar tzf "$tmp/out/logs.tar.gz") "./selftest/step.log"

# ---- 4. the carried packages ------------------------------------------------------------

if command -v dpkg-deb >/dev/null && command -v dpkg >/dev/null; then
    pkg=$tmp/pkg
    lib=$pkg/usr/lib/x86_64-linux-gnu/openblas-pthread
    inc=$pkg/usr/include/x86_64-linux-gnu/openblas-pthread
    mkdir -p "$pkg/DEBIAN" "$lib" "$inc" "$tmp/debs"
    printf 'Package: gpu-proof-test-data\nVersion: 0\nArchitecture: all\nMaintainer: test.sh\nDescription: made-up test input with the layout of OpenBLAS (no library in it)\n' \
        >"$pkg/DEBIAN/control"
    echo "made-up test input, not a library" >"$lib/libopenblas.so.0"
    ln -s libopenblas.so.0 "$lib/libopenblas.so"
    touch "$inc/cblas.h" "$inc/openblas_config.h"
    dpkg-deb --root-owner-group --build "$pkg" "$tmp/debs/test.deb" >/dev/null 2>&1 ||
        dpkg-deb --build "$pkg" "$tmp/debs/test.deb" >/dev/null
    env PATH="$tmp/gpu:$PATH" GPU_PROOF_WORK="$tmp/work2" GPU_PROOF_DEBS="$tmp/debs" GPU_PROOF_STEPS=selftest \
        GPU_PROOF_SELFTEST_SLEEP=0 GPU_PROOF_SELFTEST_LIMIT=5 PYTHON="$python" \
        "$BASH" "$here/run.sh" "$tmp/out2" >"$tmp/debs.txt" 2>&1
    check "packages: the run passes (exit $?)" contains "$tmp/work2/steps.tsv" $'selftest\tok\t0'
    check "packages: unpacked into the private prefix" [ -f "$tmp/work2/prefix/root/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0" ]
    check "packages: the library under the name CMake finds" contains "$tmp/work2/prefix/lib/libopenblas.so" "made-up test input"
    check "packages: the headers where CMake is told" [ -f "$tmp/work2/prefix/include/cblas.h" ]
    check "packages: CMake is pointed at them" contains "$tmp/work2/selftest/step.log" \
        "-DGPULAB_CBLAS_INCLUDE_DIR=$tmp/work2/prefix/include -DCMAKE_LIBRARY_PATH=$tmp/work2/prefix/lib"
    check "packages: the report's machine lines name them" contains "$tmp/work2/env.txt" "carried packages (test.deb)"
else
    echo "skip packages: no dpkg-deb here"
fi

# ---- 5. the scripts parse -----------------------------------------------------------------

for f in run.sh prepare.sh test.sh; do
    check "bash -n $f" bash -n "$here/$f"
done
if command -v shellcheck >/dev/null; then
    check "shellcheck" shellcheck "$here/run.sh" "$here/prepare.sh" "$here/test.sh"
else
    echo "skip shellcheck: not installed"
fi
for f in report.py torch_lab05.py torch_ops.py; do
    check "Python parses $f" "$python" -c 'import ast, sys; ast.parse(open(sys.argv[1]).read())' "$here/$f"
done

if [ "$failures" -ne 0 ]; then
    echo "gpu-proof tests: $failures failed"
    exit 1
fi
echo "gpu-proof tests: all passed"
