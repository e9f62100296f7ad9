#!/usr/bin/env bash
# The `gpulab` instruments as a user meets them: `gpulab sanitizer` (options,
# reports, exit statuses, log file, print limit, objects compiled apart and
# linked later, bad input), `gpulab smi` (the table, -L, -q, CSV that
# Python's csv module reads, a running program's memory), `gpulab nsys`
# (a two-stream timeline read back with Python's json: rows, modeled times,
# an event's order, overlap; stats; an existing file; bad input) and
# `gpulab ncu` (sections, sectors per request, occupancy limited by shared
# memory, kernel filters, --csv read back with Python's csv; bad input).
#   test_gpulab_tools.sh BIN_DIR WORK_DIR
set -uo pipefail
bin=$(cd "$1" && pwd)
work=$2
here=$(cd "$(dirname "$0")" && pwd)
check="$here/../check"
gpulab="$bin/gpulab"
nvcc="$bin/gpulab-nvcc"
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
cd "$work" || exit 1
export XDG_RUNTIME_DIR="$work/run"
mkdir -p "$XDG_RUNTIME_DIR"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# has FILE REGEX WHAT
has() { grep -Eq -- "$2" "$1" || { fail "$3: no /$2/ in:"; sed 's/^/    /' "$1"; }; }
hasnt() { if grep -Eq -- "$2" "$1"; then fail "$3: /$2/ should not be in:"; sed 's/^/    /' "$1"; fi; }
status() { [ "$1" = "$2" ] || fail "$3: exit status $1, expected $2"; }

build() { "$nvcc" -O2 -g -o "$@" > build.log 2>&1 || { cat build.log; fail "building $*"; }; }
build oob "$check/mem_oob_write.cu"
build leak "$check/mem_leak.cu"
build race "$check/race_waw.cu"
build clean "$check/ok_vector_add.cu"
build two "$here/two_bugs.cu"
build hold "$here/hold_memory.cu"
# Compiled apart and linked later, as CMake and make do; and an object compiled
# without its check build.
"$nvcc" -O2 -g -c -o oob_apart.o "$check/mem_oob_write.cu" && "$nvcc" -o oob_apart oob_apart.o ||
  fail "compiling and linking apart"
"$nvcc" -O2 -g -c --no-check-twin -o oob_bare.o "$check/mem_oob_write.cu" &&
  "$nvcc" -o oob_bare oob_bare.o || fail "compiling without a check build"
build no_twin --no-check-twin "$check/mem_oob_write.cu"

# --- sanitizer: reports and statuses ---------------------------------------
"$gpulab" sanitizer ./oob > out 2> err; status $? 0 "sanitizer ./oob (the program's status)"
has err '^========= gpulab-sim check mode: memcheck$' "sanitizer ./oob"
has err 'Invalid __global__ write of size 4 bytes' "sanitizer ./oob"
has err 'at fill_kernel in .*mem_oob_write\.cu:24' "sanitizer ./oob"
has err 'ERROR SUMMARY: [1-9][0-9]* errors?' "sanitizer ./oob"
has out 'fill_kernel: cudaErrorLaunchFailure' "sanitizer ./oob (the program's own output)"
"$gpulab" sanitizer --error-exitcode 7 ./oob > /dev/null 2>&1; status $? 7 "--error-exitcode 7"
"$gpulab" sanitizer --error-exitcode=7 ./clean > out 2> err; status $? 0 "--error-exitcode=7 on a clean program"
has err 'ERROR SUMMARY: 0 errors' "clean program"
has out 'PASS' "clean program"
# The program's own status passes through (5), or N replaces it.
"$gpulab" sanitizer --tool initcheck ./two > out 2> err; status $? 5 "the program's own status"
has err 'Uninitialized __global__ memory read of size 4 bytes' "--tool initcheck"
hasnt err 'Leaked' "--tool initcheck (memcheck's leak check)"
"$gpulab" sanitizer --tool racecheck ./race > out 2> err
has err 'Race reported between' "--tool racecheck"
# Leaks: reported with --leak-check full only, as compute-sanitizer does.
"$gpulab" sanitizer ./leak > out 2> err; status $? 0 "leaks without --leak-check"
hasnt err 'Leaked' "leaks without --leak-check"
"$gpulab" sanitizer --leak-check full --error-exitcode 3 ./leak > out 2> err
status $? 3 "--leak-check full"
has err 'Leaked 256 bytes' "--leak-check full"
has err 'LEAK SUMMARY' "--leak-check full"
# --log-file: the reports in the file (%p: the pid), the program's output where it was.
"$gpulab" sanitizer --log-file "$work/log.%p.txt" ./oob > out 2> err
logs=("$work"/log.*.txt)
[ ${#logs[@]} = 1 ] && [ -f "${logs[0]}" ] || fail "--log-file: one log.<pid>.txt expected, found: ${logs[*]}"
[ -f "${logs[0]}" ] && has "${logs[0]}" 'Invalid __global__ write of size 4 bytes' "--log-file"
hasnt err '=========' "--log-file (standard error)"
has out 'fill_kernel' "--log-file (the program's output)"
# --print-limit: the reports after the first N are left out, still counted.
"$gpulab" sanitizer --print-limit 1 ./two > out 2> err
has err 'Invalid __global__ write' "--print-limit 1"
[ "$(grep -c 'Program hit' err)" = 0 ] || fail "--print-limit 1: more than one report printed"
has err 'ERROR SUMMARY: [0-9]+ errors \([0-9]+ reports? not printed: print limit 1\)' "--print-limit 1"
# Objects compiled apart carry their check build.
"$gpulab" sanitizer ./oob_apart > out 2> err
has err 'at fill_kernel in .*mem_oob_write\.cu:24' "an object compiled with -c, linked later"
# An object without one: said, counted, and never status 0.
"$gpulab" sanitizer ./oob_bare > out 2> err; status $? 2 "a kernel compiled without its check build"
has err 'Kernel not checked: fill_kernel' "a kernel compiled without its check build"

# --- sanitizer: bad input --------------------------------------------------
"$gpulab" sanitizer --bogus ./oob > out 2> err; status $? 2 "an unknown option"
has err 'unknown option --bogus' "an unknown option"
"$gpulab" sanitizer --tool nocheck ./oob > out 2> err; status $? 2 "an unknown tool"
has err 'unknown tool' "an unknown tool"
"$gpulab" sanitizer ./no-such-program > out 2> err; status $? 2 "a program that does not exist"
has err 'no such program' "a program that does not exist"
"$gpulab" sanitizer /bin/true > out 2> err; status $? 2 "a program not built for the simulator"
has err 'not a program built for gpulab' "a program not built for the simulator"
"$gpulab" sanitizer ./no_twin > out 2> err; status $? 2 "a program without a check build"
has err 'has no check build' "a program without a check build"
"$gpulab" sanitizer --log-file /no/such/dir/log ./oob > out 2> err; status $? 2 "an unwritable log file"
has err 'cannot write there' "an unwritable log file"
"$gpulab" sanitizer > out 2> err; status $? 2 "no program"
"$gpulab" nosuchtool > out 2> err; status $? 2 "an unknown tool name"
has err 'no such tool' "an unknown tool name"
"$gpulab" sanitizer --help > out; status $? 0 "sanitizer --help"
has out -- '--error-exitcode' "sanitizer --help"

# --- smi -------------------------------------------------------------------
GPULAB_SIM_DEVICES=2 GPULAB_SIM_MODEL=t4 "$gpulab" smi -L > out 2> err; status $? 0 "smi -L"
has out '^GPU 0: NVIDIA T4 \(modeled\) \(UUID: GPU-' "smi -L"
has out '^GPU 1: ' "smi -L"
[ -s err ] && { fail "smi -L wrote to standard error:"; cat err; }
# A program holding memory while smi looks.
exec 3> >(cd "$work" && GPULAB_SIM_DEVICES=2 ./hold > hold.out)
for _ in $(seq 100); do grep -q ready hold.out 2> /dev/null && break; sleep 0.1; done
has hold.out ready "the program holding memory"
GPULAB_SIM_DEVICES=2 "$gpulab" smi > out 2> err; status $? 0 "smi"
has out 'GPULAB-SMI' "smi"
has out '\| +0 +[0-9]+ +C +.*/hold +96MiB \|' "smi (the program on GPU 0)"
has out '\| +1 +[0-9]+ +C +.*/hold +32MiB \|' "smi (the program on GPU 1)"
has out '96MiB / [0-9]+MiB' "smi (memory used on GPU 0)"
GPULAB_SIM_DEVICES=2 GPULAB_SIM_MODEL=a100 "$gpulab" smi --query-gpu=index,name,memory.used,memory.total,compute_cap --format=csv > out
status $? 0 "smi --query-gpu"
python3 - out << 'PY' || fail "smi --query-gpu: the CSV does not read as expected"
import csv, sys
rows = list(csv.reader(open(sys.argv[1]), skipinitialspace=True))
assert rows[0] == ["index", "name", "memory.used [MiB]", "memory.total [MiB]", "compute_cap"], rows[0]
assert len(rows) == 3, rows
assert rows[1][:3] == ["0", "NVIDIA A100-SXM4-40GB", "96 MiB"], rows[1]
assert rows[2][2] == "32 MiB" and rows[2][4] == "8.0", rows[2]
PY
GPULAB_SIM_DEVICES=2 "$gpulab" smi -q -i 0 > out; status $? 0 "smi -q -i 0"
has out 'NVSMI LOG' "smi -q"
has out 'Used +: 96 MiB' "smi -q"
has out 'Name +: .*/hold' "smi -q (the process)"
exec 3>&-
for _ in $(seq 100); do [ -z "$(ls "$XDG_RUNTIME_DIR/gpulab-sim" 2> /dev/null)" ] && break; sleep 0.1; done
"$gpulab" smi > out; has out 'No running processes found' "smi after the program exited"
"$gpulab" smi --query-gpu=name,fan.speed --format=csv > out 2> err; status $? 2 "smi: an unknown field"
has err 'Field "fan.speed" is not a valid field to query' "smi: an unknown field"
"$gpulab" smi --bogus > out 2> err; status $? 2 "smi: an unknown option"
"$gpulab" smi -i 9 > out 2> err; status $? 6 "smi: a GPU that does not exist"
# A program killed without exiting leaves its file; smi removes it.
mkdir -p "$XDG_RUNTIME_DIR/gpulab-sim"
sh -c 'exit 0' & dead=$!; wait $dead
cp /dev/null "$XDG_RUNTIME_DIR/gpulab-sim/$dead"
"$gpulab" smi > /dev/null
[ ! -e "$XDG_RUNTIME_DIR/gpulab-sim/$dead" ] || fail "smi left a dead program's file"

# --- nsys ------------------------------------------------------------------
build streams "$here/streams_timeline.cu" -lnvToolsExt
"$gpulab" nsys profile -o "$work/tl" --svg ./streams > out 2> err; status $? 0 "nsys profile"
has out 'PASS streams_timeline' "nsys profile (the program's output)"
has out "Generated:" "nsys profile"
has out "$work/tl.json" "nsys profile"
[ -s "$work/tl.svg" ] || fail "nsys profile --svg: no tl.svg"
python3 - "$work/tl.json" << 'PY' || fail "nsys profile: the timeline does not read as expected"
import json, sys
text = open(sys.argv[1]).read()
events = json.loads(text)
rows = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
procs = {e["pid"]: e["args"]["name"] for e in events if e.get("name") == "process_name"}
x = [e for e in events if e["ph"] == "X"]
assert procs[1] == "GPU 0 (modeled NVIDIA T4)" and set(procs) == {1, 100}, procs
def on(kind, name_part, row):
    found = [e for e in x if e["cat"] == kind and name_part in e["name"] and rows[(e["pid"], e["tid"])] == row]
    assert found, (kind, name_part, row, [(e["name"], rows[(e["pid"], e["tid"])]) for e in x])
    return found
up_a, up_b = sorted(on("memcpy", "H2D pinned", "Stream 1"), key=lambda e: e["ts"])
kernel, = on("kernel", "scale", "Stream 2")
assert kernel["args"]["clock"] == "modeled NVIDIA T4" and kernel["args"]["grid"] == "(4096,1,1)"
# The event orders the kernel after a's copy; b's copy overlaps the kernel.
assert kernel["ts"] >= up_a["ts"] + up_a["dur"] - 1e-6, (kernel, up_a)
assert up_b["ts"] < kernel["ts"] + kernel["dur"] and kernel["ts"] < up_b["ts"] + up_b["dur"], (up_b, kernel)
# Both uploads take turns on the H2D engine's row.
engine = on("memcpy", "H2D", "Copy engine H2D")
assert len(engine) == 2
on("memcpy", "D2H pageable", "Default stream")
for e in x:
    if e["cat"] != "nvtx":
        assert e["dur"] > 0, e
# The event's record is a mark on stream 1, between the two uploads.
rec, = [e for e in events if e["ph"] == "i" and e["name"] == "cudaEventRecord"]
assert rows[(rec["pid"], rec["tid"])] == "Stream 1" and abs(rec["ts"] - (up_a["ts"] + up_a["dur"])) < 0.002, rec
# The host: CUDA API calls on the CPU clock, the launch naming its kernel.
host = [e for e in x if e["pid"] == 100]
assert "Host (CPU clock" in procs.get(100, ""), procs
api = [e for e in host if rows[(100, e["tid"])] == "CUDA API, thread 1"]
names = [e["name"] for e in api]
for call in ["cudaMallocHost", "cudaMemcpyAsync", "cudaEventRecord", "cudaStreamWaitEvent",
             "cudaLaunchKernel", "cudaDeviceSynchronize", "cudaMemcpy", "cudaFree"]:
    assert call in names, (call, names)
launch, = [e for e in api if e["name"] == "cudaLaunchKernel"]
assert launch["args"] == {"clock": "CPU", "what": "scale"}, launch
# NVTX: "kernel" inside "copies", around the launch; the mark between.
nvtx = {e["name"]: e for e in host if e["cat"] == "nvtx" and e["ph"] == "X"}
outer, inner = nvtx["copies"], nvtx["kernel"]
assert outer["ts"] <= inner["ts"] and inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"]
assert inner["ts"] <= launch["ts"] and launch["ts"] + launch["dur"] <= inner["ts"] + inner["dur"]
mark, = [e for e in events if e["ph"] == "i" and e["name"] == "queued"]
assert inner["ts"] + inner["dur"] <= mark["ts"] <= outer["ts"] + outer["dur"]
PY
"$gpulab" nsys stats "$work/tl.json" > out 2> err; status $? 0 "nsys stats"
has out 'CUDA GPU Kernel Summary \(cuda_gpu_kern_sum\)' "nsys stats"
has out '100\.0 +[0-9]+ +1 +.* scale$' "nsys stats (the kernel's row)"
has out '\[CUDA memcpy Host-to-Device\]' "nsys stats (memory operations)"
has out 'modeled NVIDIA T4' "nsys stats (the clock)"
has out 'CUDA API Summary \(cuda_api_sum\), CPU clock' "nsys stats (the API calls)"
has out ' cudaLaunchKernel$' "nsys stats (the API calls)"
has out 'NVTX Range Summary \(nvtx_sum\)' "nsys stats (NVTX)"
has out ' 1 .* copies$' "nsys stats (NVTX)"
# The same name again: refused, kept; replaced with --force-overwrite true.
"$gpulab" nsys profile -o "$work/tl" ./streams > out 2> err; status $? 2 "nsys profile over an existing file"
has err 'already exists' "nsys profile over an existing file"
GPULAB_SIM_MODEL=a100 "$gpulab" nsys profile -o "$work/tl" --force-overwrite true ./streams > out 2> err
status $? 0 "nsys profile --force-overwrite true"
grep -q 'modeled NVIDIA A100' "$work/tl.json" || fail "nsys profile: GPULAB_SIM_MODEL=a100 not used"
# A default name; bad input.
(cd "$work" && "$gpulab" nsys profile ./streams > out 2> err); status $? 0 "nsys profile (default name)"
[ -s "$work/report1.json" ] || fail "nsys profile: no report1.json"
"$gpulab" nsys profile --bogus ./streams > out 2> err; status $? 2 "nsys profile: an unknown option"
"$gpulab" nsys profile -o /no/such/dir/x ./streams > out 2> err; status $? 2 "nsys profile: an unwritable file"
has err 'cannot write there' "nsys profile: an unwritable file"
"$gpulab" nsys stats "$work/no-such.json" > out 2> err; status $? 2 "nsys stats: no such file"
printf 'not a timeline\n' > "$work/junk.json"
"$gpulab" nsys stats "$work/junk.json" > out 2> err; status $? 1 "nsys stats: not a timeline"
has err 'not a timeline' "nsys stats: not a timeline"
# A program that crashes keeps what it recorded (the closing bracket may be missing).
head -c -3 "$work/tl.json" > "$work/cut.json"
"$gpulab" nsys stats "$work/cut.json" > out 2> err; status $? 0 "nsys stats on a cut timeline"

# --- ncu -------------------------------------------------------------------
build ncuk "$here/ncu_kernels.cu"
"$gpulab" ncu ./ncuk > out 2> err; status $? 0 "ncu"
has out 'PASS ncu_kernels' "ncu (the program's output)"
has err '^==PROF== Connected to process [0-9]+ \(.*/ncuk\)$' "ncu"
has err '^==PROF== Disconnected from process [0-9]+$' "ncu"
has out '^\[[0-9]+\] ncuk \(every figure below is modeled' "ncu"
has out '^  copy_rows \(128,1,1\)x\(256,1,1\), Context 1, Default stream, Device 0, CC 7\.5 \(modeled NVIDIA T4\)$' "ncu (a launch's line)"
has out '^    Section: GPU Speed Of Light Throughput$' "ncu (the basic set)"
has out '^    Section: Occupancy$' "ncu (the basic set)"
hasnt out 'Section: Memory Workload Analysis' "ncu (not in the basic set)"
[ "$(grep -c '^  with_s' out)" = 2 ] && [ "$(grep -c '^  copy_' out)" = 4 ] ||
  fail "ncu: expected 6 launches in the report"
"$gpulab" ncu --bogus ./ncuk > out 2> err; status $? 2 "ncu: an unknown option"
"$gpulab" ncu --section Bogus ./ncuk > out 2> err; status $? 2 "ncu: an unknown section"
has err 'no such section' "ncu: an unknown section"
"$gpulab" ncu -o rep ./ncuk > out 2> err; status $? 2 "ncu -o"
has err 'not available' "ncu -o"
"$gpulab" ncu ./no-such > out 2> err; status $? 2 "ncu: no such program"
"$gpulab" ncu /bin/true > out 2> err; status $? 2 "ncu: a program not built for the simulator"
"$gpulab" ncu -k no_such_kernel ./ncuk > out 2> err; status $? 0 "ncu: no kernel chosen"
has err 'No kernels were profiled' "ncu: no kernel chosen"
# The full set as CSV on an A100: the counts and the occupancy calculator's figures.
GPULAB_SIM_MODEL=a100 "$gpulab" ncu --set full --csv ./ncuk > csv 2> err; status $? 0 "ncu --csv"
GPULAB_SIM_MODEL=a100 "$gpulab" ncu --csv --section LaunchStats -k regex:copy_ -s 1 -c 2 ./ncuk > csv2 2> err
status $? 0 "ncu --csv with filters"
python3 - csv csv2 << 'PY' || fail "ncu --csv: the report does not read as expected"
import csv, sys
def read(path):
    lines = [l for l in open(path) if l.startswith('"')]
    rows = list(csv.DictReader(lines))
    assert rows, path
    assert list(rows[0].keys()) == ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name",
        "Context", "Stream", "Block Size", "Grid Size", "Device", "CC", "Section Name",
        "Metric Name", "Metric Unit", "Metric Value"], rows[0].keys()
    return rows
rows = read(sys.argv[1])
def value(kernel_id, name):
    found = [r["Metric Value"] for r in rows if r["ID"] == str(kernel_id) and r["Metric Name"] == name]
    assert len(found) == 1, (kernel_id, name, found)
    return found[0]
names = {r["ID"]: r["Kernel Name"] for r in rows}
assert names == {"0": "copy_rows", "1": "copy_cols", "2": "copy_rows", "3": "copy_cols",
                 "4": "with_shared", "5": "with_static"}, names
assert {r["CC"] for r in rows} == {"8.0"}
assert {r["Section Name"] for r in rows} == {"GPU Speed Of Light Throughput", "Launch Statistics",
                                             "Occupancy", "Memory Workload Analysis"}
assert value(0, "Global Load Sectors Per Request") == "4.00", value(0, "Global Load Sectors Per Request")
assert value(1, "Global Load Sectors Per Request") == "32.00"
assert value(0, "Global Load Requests") == "1,024"  # 32768 threads: 1024 warps, one load each
# Occupancy: warps allow 8 blocks of 8 warps (64 a SM), 20 KiB + 1 KiB
# reserved allows 7: shared memory limits, 56 of 64 warps.
assert value(4, "Block Limit Warps") == "8" and value(4, "Block Limit Shared Mem") == "7"
assert value(4, "Theoretical Occupancy") == "87.50", value(4, "Theoretical Occupancy")
assert value(4, "Dynamic Shared Memory Per Block") == "20,480"
assert value(0, "Block Limit Shared Mem") == "32"  # 1 KiB reserved: 164, capped at the SM's 32
# Static shared memory, as the counted blocks touched it: 24 KiB + 1 reserved: 6 blocks.
assert value(5, "Static Shared Memory Per Block") == "24,576", value(5, "Static Shared Memory Per Block")
assert value(5, "Block Limit Shared Mem") == "6" and value(5, "Theoretical Occupancy") == "75.00"
assert value(0, "Static Shared Memory Per Block") == "0"
assert float(value(1, "Duration")) > float(value(0, "Duration"))  # strided is slower
filtered = read(sys.argv[2])
assert [(r["ID"], r["Kernel Name"]) for r in filtered if r["Metric Name"] == "Block Size"] == \
    [("0", "copy_cols"), ("1", "copy_rows")], filtered
assert {r["Section Name"] for r in filtered} == {"Launch Statistics"}
PY

# A program that aborts after a kernel: the report keeps the kernel, the
# status is the program's, and the tool says how it ended; one that hangs:
# nsys --duration stops it, and the timeline keeps what it did.
build stops "$here/stops_early.cu"
"$gpulab" ncu ./stops > out 2> err; status $? 134 "ncu on a program that aborts"
has out '^  before_the_end \(1,1,1\)x\(32,1,1\)' "ncu on a program that aborts (its kernel)"
has err '^==ERROR== The application was killed by signal 6 \(SIGABRT\)' "ncu on a program that aborts"
hasnt err 'Aborted' "ncu on a program that aborts (no shell job message)"
"$gpulab" nsys profile -o "$work/stops" ./stops > out 2> err; status $? 134 "nsys profile on a program that aborts"
has err 'killed by signal 6 \(SIGABRT\); the timeline keeps' "nsys profile on a program that aborts"
grep -q before_the_end "$work/stops.json" || fail "nsys profile on a program that aborts: its kernel is not in the timeline"
"$gpulab" nsys profile -d 2 -o "$work/hang" ./stops hang > out 2> err; status $? 124 "nsys profile -d 2 on a program that hangs"
has err 'was stopped \(SIGTERM\) after 2 s' "nsys profile -d 2 on a program that hangs"
"$gpulab" nsys stats "$work/hang.json" > out 2> err; status $? 0 "nsys stats on a stopped program's timeline"
has out ' before_the_end$' "nsys stats on a stopped program's timeline"
"$gpulab" nsys profile -d x ./stops > out 2> err; status $? 2 "nsys profile -d x"

if [ "$fails" -gt 0 ]; then
  echo "$fails checks failed"
  exit 1
fi
echo "gpulab tools: all checks passed"
