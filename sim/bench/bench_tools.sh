#!/usr/bin/env bash
# bench_tools.sh — what `gpulab nsys profile` and `gpulab ncu` add to a lab
# demo's wall time (a benchmark, not a test: timings are noisy). Runs each
# demo plain (with the model on, as the lab programs are), under nsys
# profile and under ncu, interleaved, N rounds, and prints the medians and
# the ratios; the aim is at most 2x.
#   bench_tools.sh BIN_DIR [ROUNDS] [PROGRAM...]
# Default programs: lab02 and lab04's sim programs (the solution where it was
# built, else the student's).
set -uo pipefail
bin=$(cd "${1:?usage: bench_tools.sh BIN_DIR [ROUNDS] [PROGRAM...]}" && pwd)
rounds=${2:-3}
shift $(($# >= 2 ? 2 : 1))
progs=("$@")
if [ ${#progs[@]} = 0 ]; then
  for lab in lab02 lab04; do
    for who in solution student; do
      if [ -x "$bin/$lab-sim-$who" ]; then progs+=("$bin/$lab-sim-$who"); break; fi
    done
  done
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-bench-tools.XXXXXX")
trap 'rm -rf "$work"' EXIT
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}'
}
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
echo "gpulab tools' cost: wall seconds, median of $rounds interleaved rounds ($(nproc) cores," \
  "load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-28s %8s %8s %8s %7s %7s\n' program plain nsys ncu nsys/x ncu/x
for p in "${progs[@]}"; do
  : > "$work/plain"; : > "$work/nsys"; : > "$work/ncu"
  for ((r = 0; r < rounds; r++)); do
    seconds "$p" >> "$work/plain"
    seconds "$bin/gpulab" nsys profile -f true -o "$work/t" "$p" >> "$work/nsys"
    seconds "$bin/gpulab" ncu "$p" >> "$work/ncu"
  done
  a=$(median < "$work/plain") b=$(median < "$work/nsys") c=$(median < "$work/ncu")
  awk -v n="$(basename "$p")" -v a="$a" -v b="$b" -v c="$c" \
    'BEGIN {printf "%-28s %8.2f %8.2f %8.2f %7.2f %7.2f\n", n, a, b, c, b / a, c / a}'
done
