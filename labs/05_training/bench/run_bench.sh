#!/usr/bin/env bash
# Lab 05's benchmark: the C trainer (C + OpenBLAS) against PyTorch on the CPU,
# the seed's CNN, batch 256, Adam, on the same CIFAR-shaped images, one after
# the other in the same run. Not a test: it prints figures.
#
#   labs/05_training/bench/run_bench.sh BUILD/bin/bench-lab05-cpu
#   (or: cmake --build BUILD --target bench-lab05)
#
# Environment:
#   BENCH_IMAGES  images in the "epoch" (default 10000, a fifth of CIFAR-10's
#                 50000 training images; 50000 for a full epoch)
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
python=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
    if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
        export OPENBLAS_CORETYPE=SkylakeX
    elif grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
        export OPENBLAS_CORETYPE=Haswell
    fi
fi
echo "lab 05 benchmark: one epoch of ${images} CIFAR-shaped images, batch 256, Adam; $(nproc) CPU cores"
echo "OpenBLAS kernels: ${OPENBLAS_CORETYPE:-detected by OpenBLAS}"

data_args=()
[ -n "${BENCH_DATA:-}" ] && data_args=(--data "$BENCH_DATA")
c_all=$("$bench" --images "$images" "${data_args[@]}" --write "$tmp/images.bin")
echo "$c_all"
c_one=$(OPENBLAS_NUM_THREADS=1 "$bench" --images "$images" "${data_args[@]}")
echo "$c_one" | sed 's/^c_trainer /c_trainer_1thread /'

if ! "$python" -c "import torch" 2>/dev/null; then
    echo "PyTorch is not importable by $python: apt-get install python3-torch (Debian), or set PYTHON"
    exit 0
fi
t_out=$("$python" "$here/bench_torch.py" "$tmp/images.bin")
echo "$t_out"

rate() { sed -n 's/.*images_per_s=\([0-9.]*\).*/\1/p' <<<"$1" | tail -1; }
c_rate=$(rate "$c_all")
c1_rate=$(rate "$c_one")
t_rate=$(rate "$t_out")
awk -v c="$c_rate" -v c1="$c1_rate" -v t="$t_rate" 'BEGIN {
    best = c > c1 ? c : c1
    printf "C trainer %.0f images/s (OpenBLAS threads: default %.0f, one %.0f), PyTorch %.0f images/s: ratio %.2fx (target >= 1.5x)\n", best, c, c1, t, best / t
}'
echo "(times: CPU wall clock around the training steps of each; peak memory: peak_rss_mb of the C trainer's process, images included)"
