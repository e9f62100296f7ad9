#!/usr/bin/env bash
# Lab 05's benchmark: the C trainer (C + OpenBLAS) against PyTorch on the CPU,
# the lab's CNN, batch 256, Adam, on the same CIFAR-shaped images, in the
# same run. Not a test: it prints figures.
#
#   labs/05_training/bench/run_bench.sh BUILD/bin/bench-lab05-cpu
#   (or: cmake --build BUILD --target bench-lab05)
#
# Each round runs, one after the other: the C trainer on 1 thread, PyTorch on
# 1 thread, the C trainer on every core, PyTorch on every core. Interleaving
# the rounds spreads whatever else the machine is doing over every
# configuration; the summary gives each one's median over the rounds and the
# ratio C / PyTorch for the same number of threads on both sides.
#
# Threads are pinned on both sides, not only asked for: Debian's PyTorch links
# OpenBLAS, whose own pool (one thread per core) ignores torch.set_num_threads,
# so PyTorch runs with OPENBLAS_NUM_THREADS=1 and OMP_NUM_THREADS=MKL_NUM_THREADS=N
# besides --threads N; the C trainer with GPULAB_LAB05_THREADS=N and
# OPENBLAS_NUM_THREADS=1. Each run reports the CPU it used over its training
# steps (cpu_pct: CPU time / wall time, 100 per busy core), and the summary
# prints it: N threads that had the machine to themselves show about N x 100%;
# much less means other work shared the cores, and then images per CPU-second
# (also printed) compare the two sides better than images/s.
#
# PyTorch also runs with OMP_WAIT_POLICY=PASSIVE: by default its OpenMP
# threads wait for each other by spinning, which on cores shared with other
# programs burns CPU time for nothing (on this kit's 2-core machine under
# load: 1150 images per CPU-second on 2 threads against 5667 with PASSIVE).
# The C trainer's threads never spin (pthread_join), so this is the fair
# setting; set BENCH_OMP_WAIT_POLICY=ACTIVE to see PyTorch's default.
#
# Environment:
#   BENCH_IMAGES  images in the "epoch" (default 10000, a fifth of CIFAR-10's
#                 50000 training images; 50000 for a full epoch)
#   BENCH_ROUNDS  rounds (default 3)
#   BENCH_OMP_WAIT_POLICY  PyTorch's OMP_WAIT_POLICY (default PASSIVE, see above)
#   BENCH_DATA    a CIFAR-10 binary directory (default: the synthetic set)
#   PYTHON        the Python with torch (default: /usr/bin/python3, where
#                 Debian's python3-torch installs it)
#
# OpenBLAS picks its kernels from the CPU's name; on virtual CPUs it can fall
# back to its oldest ones (PRESCOTT, SSE3 only). When OPENBLAS_CORETYPE is not
# set, this script sets it from the CPU's flags (SkylakeX with AVX-512,
# Haswell with AVX2) and says so.
set -euo pipefail
bench=${1:?usage: run_bench.sh BUILD/bin/bench-lab05-cpu}
here=$(cd "$(dirname "$0")" && pwd)
images=${BENCH_IMAGES:-10000}
rounds=${BENCH_ROUNDS:-3}
python=${PYTHON:-/usr/bin/python3}
cores=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
    if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
        export OPENBLAS_CORETYPE=SkylakeX
    elif grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
        export OPENBLAS_CORETYPE=Haswell
    fi
fi
echo "lab 05 benchmark: one epoch of ${images} CIFAR-shaped images, batch 256, Adam; ${cores} CPU cores, ${rounds} rounds"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "OpenBLAS kernels: ${OPENBLAS_CORETYPE:-detected by OpenBLAS}; PyTorch's OMP_WAIT_POLICY=${BENCH_OMP_WAIT_POLICY:-PASSIVE}"

data_args=()
[ -n "${BENCH_DATA:-}" ] && data_args=(--data "$BENCH_DATA")
# The images for PyTorch, the same bytes the C trainer trains on.
"$bench" --images "$images" "${data_args[@]}" --write "$tmp/images.bin" >/dev/null

have_torch=1
if ! "$python" -c "import torch" 2>/dev/null; then
    echo "PyTorch is not importable by $python: apt-get install python3-torch (Debian), or set PYTHON"
    have_torch=0
fi

# run NAME COMMAND...: runs it, prints its output, keeps its result line as NAME.
run() {
    local name=$1 out
    shift
    out=$("$@")
    printf '%s\n' "$out" | sed "s/^/  [$name] /"
    printf '%s\n' "$out" | tail -1 >>"$tmp/$name"
}

# c N / torch N: one run of each side pinned to N threads.
c() {
    env GPULAB_LAB05_THREADS="$1" OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS="$1" \
        "$bench" --images "$images" "${data_args[@]}"
}
torch() {
    env OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS="$1" MKL_NUM_THREADS="$1" \
        OMP_WAIT_POLICY="${BENCH_OMP_WAIT_POLICY:-PASSIVE}" \
        "$python" "$here/bench_torch.py" "$tmp/images.bin" --threads "$1"
}
for r in $(seq "$rounds"); do
    echo "round $r of $rounds"
    run c_1 c 1
    [ "$have_torch" = 1 ] && run torch_1 torch 1
    if [ "$cores" -gt 1 ]; then
        run c_all c "$cores"
        [ "$have_torch" = 1 ] && run torch_all torch "$cores"
    fi
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
rate() { [ -f "$tmp/$1" ] && sed -n 's/.* images_per_s=\([0-9.]*\).*/\1/p' "$tmp/$1" | median; }
threads() { [ -f "$tmp/$1" ] && sed -n 's/.* threads=\([0-9]*\).*/\1/p' "$tmp/$1" | tail -1; }
peak() { [ -f "$tmp/$1" ] && sed -n 's/.*peak_rss_mb=\([0-9.]*\).*/\1/p' "$tmp/$1" | median; }
cpu_pct() { [ -f "$tmp/$1" ] && sed -n 's/.*cpu_pct=\([0-9.]*\).*/\1/p' "$tmp/$1" | median; }
cpu_rate() { [ -f "$tmp/$1" ] && sed -n 's/.*cpu_images_per_s=\([0-9.]*\).*/\1/p' "$tmp/$1" | median; }

echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "medians over ${rounds} rounds (CPU wall clock and process CPU time around the training steps of each):"
printf '  %-12s %8s %10s %8s %16s %12s\n' configuration threads images/s "CPU %" "images/CPU-s" "peak RSS MB"
for name in c_1 torch_1 c_all torch_all; do
    [ -f "$tmp/$name" ] || continue
    printf '  %-12s %8s %10.0f %8.0f %16.0f %12.1f\n' "$name" "$(threads "$name")" "$(rate "$name")" \
        "$(cpu_pct "$name")" "$(cpu_rate "$name")" "$(peak "$name")"
    awk -v p="$(cpu_pct "$name")" -v t="$(threads "$name")" -v n="$name" 'BEGIN {
        if (p < 90 * t) printf "    %s used %.0f%% CPU on %d threads (< 90%% per thread): the cores were shared\n", n, p, t }'
done
echo "  (the C trainer's peak RSS includes its $(sed -n 's/.*data_mb=\([0-9.]*\).*/\1/p' "$tmp/c_1" | tail -1) MB of images as floats; PyTorch's includes the interpreter and libtorch)"

ratio() { # ratio LABEL C_NAME TORCH_NAME
    local c t cc tc
    c=$(rate "$2")
    t=$(rate "$3")
    cc=$(cpu_rate "$2")
    tc=$(cpu_rate "$3")
    [ -n "$c" ] && [ -n "$t" ] && awk -v l="$1" -v c="$c" -v t="$t" -v cc="$cc" -v tc="$tc" \
        'BEGIN { printf "  %-20s images/s: C %6.0f / PyTorch %6.0f = %.2fx;  per CPU-second: %.2fx (target >= 1.5x)\n", l, c, t, c / t, cc / tc }'
    return 0
}
if [ "$have_torch" = 1 ]; then
    echo "C trainer / PyTorch, the same number of threads on both sides:"
    ratio "1 thread each:" c_1 torch_1
    [ -f "$tmp/torch_all" ] && ratio "${cores} threads each:" c_all torch_all
fi
