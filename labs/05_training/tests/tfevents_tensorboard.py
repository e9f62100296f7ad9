#!/usr/bin/env python3
"""TensorBoard itself reads lab 05's event files.

Usage: tfevents_tensorboard.py TEST_BINARY WORKDIR

Runs `TEST_BINARY --write WORKDIR/run` (test-lab05-tfevents, which writes the
scalars of its write_sample()), then loads the directory with TensorBoard's
EventAccumulator and checks every tag, step and value. Exits 77 (skipped) when
the `tensorboard` package cannot be imported: `pip install tensorboard`.
"""
import os
import shutil
import subprocess
import sys

SKIP = 77


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    binary, workdir = sys.argv[1], sys.argv[2]
    try:
        from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    except ImportError as e:
        print(f"skipped: the tensorboard package is not importable by {sys.executable} ({e}); "
              "pip install tensorboard to run this test")
        return SKIP

    run = os.path.join(workdir, "run")
    shutil.rmtree(run, ignore_errors=True)
    out = subprocess.run([binary, "--write", run], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"{binary} --write {run} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
        return 1
    path = out.stdout.strip()
    print(f"event file: {path}")

    acc = EventAccumulator(run, size_guidance={"scalars": 0})
    acc.Reload()
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    tags = sorted(acc.Tags()["scalars"])
    check(tags == ["accuracy/train", "big_step", "loss/train"], f"scalar tags: {tags}")
    steps = 5  # SAMPLE_STEPS in test_tfevents.c
    # float32 values: 2.5/(s+1) and 0.125*s as the C test computes them in float.
    import struct

    def f32(x):
        return struct.unpack("<f", struct.pack("<f", x))[0]

    want = {
        "loss/train": [(10 * s, f32(f32(2.5) / f32(s + 1))) for s in range(steps)],
        "accuracy/train": [(10 * s, 0.125 * s) for s in range(steps)],
        "big_step": [(5000000000, -1.5)],
    }
    for tag, expected in want.items():
        if tag not in tags:
            continue
        got = [(e.step, e.value) for e in acc.Scalars(tag)]
        check(len(got) == len(expected), f"{tag}: {len(got)} events, expected {len(expected)}")
        for (gs, gv), (ws, wv) in zip(got, expected):
            check(gs == ws, f"{tag}: step {gs}, expected {ws}")
            check(gv == wv, f"{tag} step {ws}: value {gv!r}, expected {wv!r}")
        walls = [e.wall_time for e in acc.Scalars(tag)]
        check(all(w > 1.5e9 for w in walls), f"{tag}: wall times {walls[:3]} are not clock times")
    check(acc.file_version == 2.0, f"file_version read as {acc.file_version!r}")

    for f in failures:
        print("FAIL", f)
    print(f"{'FAIL' if failures else 'PASS'}: TensorBoard read {len(tags)} scalar tags "
          f"from {os.path.basename(path)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
