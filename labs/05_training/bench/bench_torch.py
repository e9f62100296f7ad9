#!/usr/bin/env python3
"""PyTorch's side of lab 05's benchmark: the lab's CNN trained one epoch on
the CPU with Adam (defaults), batch 256, over the images of a CIFAR-10 binary
batch file (written by bench-lab05-cpu --write, so both train on the same
bytes), in the plain training loop: for each batch, forward, cross-entropy
loss, zero_grad, backward, step.

    python3 bench_torch.py FILE [--batch 256] [--threads N]

Prints `torch images_per_s=... seconds=... threads=... cpu_pct=...
cpu_images_per_s=... peak_rss_mb=...`: CPU wall clock (time.perf_counter)
around the training steps only; building tensors from the file is excluded,
as data loading is excluded from the C trainer's time. cpu_pct is the
process's CPU time over the same steps (time.process_time, every thread,
OpenBLAS's and OpenMP's included) as a share of that wall time, 100 per core
kept busy; cpu_images_per_s is images per second of that CPU time.

torch.set_num_threads sets only PyTorch's own (OpenMP) threads. Debian's
PyTorch also links OpenBLAS, which starts its own pool of one thread per core
unless OPENBLAS_NUM_THREADS says otherwise, before this script can call
anything: run_bench.sh sets OPENBLAS_NUM_THREADS=1 and OMP_NUM_THREADS to the
thread count, and the first line printed shows what was in effect.
"""

import argparse
import os
import sys
import resource
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from torch_nets import CNN  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    raw = np.fromfile(args.file, dtype=np.uint8).reshape(-1, 3073)
    y = torch.from_numpy(raw[:, 0].astype(np.int64))
    x = torch.from_numpy(((raw[:, 1:].astype(np.float32) / 255.0 - 0.5) / 0.5).reshape(-1, 3, 32, 32))
    torch.manual_seed(1)
    model = CNN()
    opt = torch.optim.Adam(model.parameters())
    loss_fn = torch.nn.CrossEntropyLoss()
    n = x.shape[0]
    first = last = None
    c0, t0 = time.process_time(), time.perf_counter()
    for at in range(0, n, args.batch):
        xb, yb = x[at:at + args.batch], y[at:at + args.batch]
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        last = loss.item()
        if first is None:
            first = last
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    env = " ".join(f"{k}={os.environ.get(k, '(unset)')}"
                   for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"))
    print(f"# torch {torch.__version__}, {torch.get_num_threads()} threads, {env}, "
          f"{len(os.listdir('/proc/self/task'))} threads in the process; {n} images, "
          f"batch {args.batch}; loss {first:.4f} -> {last:.4f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(f"torch images_per_s={n / secs:.1f} seconds={secs:.3f} threads={torch.get_num_threads()} "
          f"cpu_pct={100 * cpu / secs:.0f} cpu_images_per_s={n / cpu:.1f} peak_rss_mb={peak:.1f}")


if __name__ == "__main__":
    main()
