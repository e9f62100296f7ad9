"""Checks a GPULAB_SIM_MODEL_REPORT written by sim_only/model_timing.cu.

usage: model_report_check.py REPORT.json PROGRAM_OUTPUT

The report must be a JSON array with every documented field in each object,
and say what the program's work is: the strided kernel touches 4.5 times the
coalesced one's sectors and is modeled slower (by about that ratio when both
are memory bound); pinned H2D is modeled faster than pageable and than the
same bytes in 4 KiB pieces; the program's event times are the report's.
"""
import json
import sys

FIELDS = {"name": str, "kind": str, "launches": int, "grid": list, "block": list,
          "modeled_us": (int, float), "bound": str, "bytes": (int, float),
          "sectors": (int, float), "gpu": str}
KINDS = {"kernel", "memcpy", "memset", "cublas"}
BOUNDS = {"memory", "latency", "compute", "shared memory", "launch", "pcie"}


def fail(msg):
    print("model report check: " + msg)
    sys.exit(1)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        rows = json.load(f)
    printed = {}
    for line in sys.argv[2].splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == "ms":
            printed[parts[0]] = float(parts[1])
    if not isinstance(rows, list) or not rows:
        fail("not a non-empty JSON array")
    by_name = {}
    for r in rows:
        for key, kind in FIELDS.items():
            if key not in r or not isinstance(r[key], kind):
                fail("entry %r lacks %s or has the wrong type" % (r.get("name"), key))
        if r["kind"] not in KINDS or r["bound"] not in BOUNDS:
            fail("entry %r: kind %r, bound %r" % (r["name"], r["kind"], r["bound"]))
        if r["modeled_us"] <= 0 or not r["gpu"].startswith(("NVIDIA ", "Tesla ")):
            fail("entry %r: modeled_us %r, gpu %r" % (r["name"], r["modeled_us"], r["gpu"]))
        by_name[r["name"]] = r
    co, st = by_name.get("copy_coalesced"), by_name.get("copy_strided")
    if not co or not st or co["kind"] != "kernel" or co["block"] != [256, 1, 1]:
        fail("the two kernels are missing or wrong")
    if co["sectors"] != 2 * (1 << 20) * 4 // 32 or st["sectors"] != co["sectors"] * 4.5:
        fail("sectors: coalesced %r, strided %r" % (co["sectors"], st["sectors"]))
    if not co["modeled_us"] < st["modeled_us"]:
        fail("the strided kernel is not modeled slower")
    if co["bound"] == "memory" and st["bound"] == "memory":
        # The launch latency, in both, brings the ratio of the sectors' 4.5
        # down most on the GPUs with the most bandwidth (2.9 on an A100 80GB).
        ratio = st["modeled_us"] / co["modeled_us"]
        if not 2.5 < ratio < 4.6:
            fail("strided/coalesced %.2f, expected about the sectors' 4.5" % ratio)
    pinned = by_name.get("cudaMemcpy H2D pinned")
    pageable = by_name.get("cudaMemcpy H2D pageable")
    pieces = by_name.get("cudaMemcpyAsync H2D pinned")
    if not pinned or not pageable or not pieces or pieces["launches"] != 1024:
        fail("the copies are missing")
    if not pinned["modeled_us"] < pageable["modeled_us"] < 4 * pinned["modeled_us"]:
        fail("pinned %r vs pageable %r" % (pinned["modeled_us"], pageable["modeled_us"]))
    if not pinned["modeled_us"] < pieces["modeled_us"]:
        fail("one copy %r vs pieces %r" % (pinned["modeled_us"], pieces["modeled_us"]))
    for name, key in (("copy_coalesced", "copy_coalesced"), ("copy_strided", "copy_strided"),
                      ("cudaMemcpy H2D pinned", "h2d_pinned"),
                      ("cudaMemcpy H2D pageable", "h2d_pageable"),
                      ("cudaMemcpyAsync H2D pinned", "h2d_pieces")):
        want = by_name[name]["modeled_us"] / 1e3
        if abs(printed.get(key, -1) - want) > 1e-5 + 1e-4 * want:
            fail("event time of %s %r ms, report %r ms" % (key, printed.get(key), want))
    print("model report check: %d entries, all checks passed (%s)" % (len(rows), co["gpu"]))


main()
