#!/usr/bin/env python3
"""The operations of the published rows of docs/model-validation.md, measured
on this GPU with PyTorch, for gpu-proof's model step: the same sizes as the
tools those rows quote, so that each modeled figure has a measured one beside
it (model-check-sim --published prints the modeled side).

    python3 torch_ops.py [--reps 20]

Each operation is timed with CUDA events around it, after warm-up runs; the
figure is the median over the repeats. Prints one JSON line per operation:
what, its size, microseconds and the rate, with how the rate counts (a
device-to-device copy counts its bytes read and written, as bandwidthTest
does). SGEMM runs in float32 with TF32 off, as cuBLAS SGEMM.
"""

import argparse
import json
import statistics
import sys

import torch


def median_us(fn, reps, warmup=3):
    """Median time of fn() in microseconds, CUDA events around each call."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    return statistics.median(times)


def copies(reps):
    """Host-device and device-device copies at the published tools' sizes."""
    rows = []
    for label, nbytes in (("32 MB", 32_000_000), ("512 MiB", 512 << 20)):
        dev = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
        kinds = [("pinned", True)] + ([("pageable", False)] if nbytes == 32_000_000 else [])
        for kind, pinned in kinds:
            host = torch.empty(nbytes, dtype=torch.uint8, pin_memory=pinned)
            host.fill_(1)
            us = median_us(lambda: dev.copy_(host, non_blocking=pinned), reps)
            rows.append({"what": f"H2D {kind}, {label}", "bytes": nbytes, "us": us})
            us = median_us(lambda: host.copy_(dev, non_blocking=pinned), reps)
            rows.append({"what": f"D2H {kind}, {label}", "bytes": nbytes, "us": us})
            del host
        del dev
    for label, nbytes in (("32 MB", 32_000_000), ("160 MB", 160_000_000)):
        src = torch.ones(nbytes, dtype=torch.uint8, device="cuda")
        dst = torch.empty_like(src)
        us = median_us(lambda: dst.copy_(src), reps)
        rows.append({"what": f"D2D, {label}, read + write counted", "bytes": 2 * nbytes, "us": us})
        del src, dst
    for r in rows:
        r["gb_per_s"] = r["bytes"] / (r["us"] * 1e3)
    return rows


def sgemm(reps):
    """cuBLAS SGEMM through torch.mm, M = 5120, N = K = 4096."""
    m, n, k = 5120, 4096, 4096
    a = torch.randn(m, k, device="cuda")
    b = torch.randn(k, n, device="cuda")
    c = torch.empty(m, n, device="cuda")
    us = median_us(lambda: torch.mm(a, b, out=c), reps)
    return {"what": f"SGEMM {m} x {n} x {k}, float32, TF32 off", "flops": 2 * m * n * k, "us": us,
            "tflop_per_s": 2 * m * n * k / (us * 1e6)}


def launch(reps):
    """A launch of a kernel with next to no work, events around it."""
    if hasattr(torch.cuda, "_sleep"):
        return {"what": "kernel launch (torch.cuda._sleep(0), events around it)",
                "us": median_us(lambda: torch.cuda._sleep(0), reps * 5)}
    t = torch.zeros(1, device="cuda")
    return {"what": "kernel launch (a one-element add, events around it)",
            "us": median_us(lambda: t.add_(1), reps * 5)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print(json.dumps({"error": "torch.cuda.is_available() is False", "torch": torch.__version__}))
        return 77
    torch.backends.cuda.matmul.allow_tf32 = False
    print(json.dumps({"torch": torch.__version__, "cuda": torch.version.cuda,
                      "device": torch.cuda.get_device_name(0), "reps": args.reps,
                      "timed_by": "CUDA events, median"}), flush=True)
    for row in copies(args.reps) + [sgemm(args.reps), launch(args.reps)]:
        print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
