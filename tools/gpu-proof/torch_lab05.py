#!/usr/bin/env python3
"""PyTorch's side of gpu-proof's last step: lab 05's CNN (the network of
labs/05_training/torch_nets.py, layer for layer the lab's) trained one epoch
on the GPU, batch 256, Adam with PyTorch's defaults, cross-entropy, over the
images of a CIFAR-10 binary file that bench-lab05-cpu --write made from the
same images, in the same order, as the device trainer's epoch.

    python3 torch_lab05.py FILE [--batch 256] [--warmup 3]

Prints one JSON line per way of feeding the GPU:
  like_the_lab  each batch copied from host memory as its step starts and its
                loss read back after it (loss.item()), as lab 05's device
                trainer does each step
  resident      every image on the GPU before the epoch, no read-back until
                its end: the most PyTorch can do
Each epoch is timed with the CPU wall clock between two synchronizations and
with CUDA events around it. Float32 throughout: TF32 is off for cuDNN's
convolutions and for matmuls, as in the lab's cuBLAS SGEMMs. A few warm-up
steps on a model of their own run first, so that one-time start-up (cuDNN
and cuBLAS handles, kernel loading) is not in either time.
"""

import argparse
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "labs", "05_training"))
from torch_nets import CNN  # noqa: E402


def load(path):
    """Images (n, 3, 32, 32) scaled as the lab scales them, and labels (n,)."""
    raw = np.fromfile(path, dtype=np.uint8).reshape(-1, 3073)
    y = torch.from_numpy(raw[:, 0].astype(np.int64))
    x = torch.from_numpy(((raw[:, 1:].astype(np.float32) / 255.0 - 0.5) / 0.5).reshape(-1, 3, 32, 32))
    return x, y


def epoch(x, y, batch, resident, dev):
    """One epoch from a fresh model; returns the timings and the losses."""
    model = CNN().to(dev)
    opt = torch.optim.Adam(model.parameters())
    loss_fn = torch.nn.CrossEntropyLoss()
    if resident:
        x, y = x.to(dev), y.to(dev)
    losses = []
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    start.record()
    for at in range(0, x.shape[0], batch):
        xb, yb = x[at:at + batch].to(dev), y[at:at + batch].to(dev)
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.detach() if resident else loss.item())
    end.record()
    torch.cuda.synchronize()
    wall = time.perf_counter() - t0
    losses = [float(v) for v in losses]
    return wall, start.elapsed_time(end) / 1e3, losses


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--warmup", type=int, default=3)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print(json.dumps({"error": "torch.cuda.is_available() is False", "torch": torch.__version__}))
        return 77
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    x, y = load(args.file)
    n = x.shape[0]
    # Warm-up: a model of its own, a few steps, both ways of feeding.
    warm = min(n, args.warmup * args.batch)
    epoch(x[:warm], y[:warm], args.batch, False, dev)
    epoch(x[:warm], y[:warm], args.batch, True, dev)
    for mode, resident in (("like_the_lab", False), ("resident", True)):
        wall, events, losses = epoch(x, y, args.batch, resident, dev)
        tenth = max(1, len(losses) // 10)  # first/last loss as the demo reports them
        print(json.dumps({
            "mode": mode, "images": n, "batch": args.batch, "steps": len(losses),
            "seconds_wall": round(wall, 4), "images_per_s_wall": round(n / wall, 1),
            "seconds_events": round(events, 4), "images_per_s_events": round(n / events, 1),
            "first_loss": round(sum(losses[:tenth]) / tenth, 4),
            "last_loss": round(sum(losses[-tenth:]) / tenth, 4),
            "tf32": False, "torch": torch.__version__, "cuda": torch.version.cuda,
            "device": torch.cuda.get_device_name(0)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
