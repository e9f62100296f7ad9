#!/usr/bin/env python3
"""The corpus of published measurements against the performance model.

tools/model-check/corpus.csv lists figures others measured on real GPUs and
published (bandwidthTest, transpose, ...), each with the operation that
reproduces its work (a `model-check --corpus` case, tools/model-check/corpus.cu)
and the profile of its board. This script runs model-check-sim once per
profile with the model on, turns each modeled time into the figure the
published tool prints, and writes the table, its statistics and the rankings
between the markers of docs/model-validation.md:

    corpus.py --sim build/bin/model-check-sim --write docs/model-validation.md
    corpus.py --sim build/bin/model-check-sim --check docs/model-validation.md

--check (a CTest) fails when the page differs from what the simulator gives
now: a change to the model must update the page.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile

BEGIN = "<!-- corpus:begin (written by tools/model-check/corpus.py; do not edit by hand) -->"
END = "<!-- corpus:end -->"
CATEGORIES = [
    "copies",
    "small operations",
    "bandwidth-bound kernels",
    "shared-memory/barrier kernels",
    "GEMM",
    "overlap",
]
FIELDS = ["id", "category", "profile", "board", "program", "variant", "size", "published",
          "unit", "case", "amount", "scale", "link", "source"]


def fail(msg):
    print("corpus.py: " + msg, file=sys.stderr)
    sys.exit(2)


def read_corpus(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail("%s: cannot read it (%s)" % (path, e.strerror))
    for n, r in enumerate(rows, 2):
        if list(r.keys()) != FIELDS:
            fail("%s: the columns must be %s" % (path, ",".join(FIELDS)))
        if r["category"] not in CATEGORIES or r["link"] not in ("full", "narrow"):
            fail("%s:%d: category %r or link %r is not one" % (path, n, r["category"], r["link"]))
        try:
            r["published"] = float(r["published"])
            r["amount"] = float(r["amount"])
            r["scale"] = float(r["scale"])
        except ValueError:
            fail("%s:%d: published, amount and scale must be numbers" % (path, n))
        if r["unit"] not in ("GB/s", "us", "ms") or r["published"] <= 0:
            fail("%s:%d: unit %r or published %r is not one" % (path, n, r["unit"], r["published"]))
    return rows


def model_times(sim, rows):
    """{(profile, case): modeled us}, one model-check run per profile."""
    times = {}
    for profile in sorted({r["profile"] for r in rows}):
        specs = sorted({r["case"] for r in rows if r["profile"] == profile})
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(specs) + "\n")
            spec_file = f.name
        env = dict(os.environ)
        for k in list(env):
            if k.startswith(("GPULAB_SIM_CHECK", "GPULAB_SIM_STATS", "GPULAB_SIM_HOST_LINK")):
                del env[k]
        env["GPULAB_SIM_MODEL"] = profile
        try:
            p = subprocess.run([sim, "--corpus", spec_file], env=env, capture_output=True,
                               text=True, timeout=900)
        except (OSError, subprocess.TimeoutExpired) as e:
            fail("%s --corpus (%s): %s" % (sim, profile, e))
        finally:
            os.unlink(spec_file)
        if p.returncode != 0:
            fail("%s --corpus with GPULAB_SIM_MODEL=%s exited %d:\n%s" %
                 (sim, profile, p.returncode, p.stderr))
        for line in p.stdout.splitlines():
            parts = line.split("\t")
            if len(parts) == 4 and parts[0] == "case":
                times[(profile, parts[2])] = float(parts[3])
        for s in specs:
            if (profile, s) not in times:
                fail("no modeled time for %r on %s" % (s, profile))
    return times


def figure(r, us):
    """The modeled figure in the row's unit, and the ratio modeled time / published time."""
    if r["unit"] == "GB/s":
        modeled = r["amount"] / (us * 1e-6) / r["scale"]
        return modeled, r["published"] / modeled
    published_us = r["published"] * (1000.0 if r["unit"] == "ms" else 1.0)
    modeled = us / (1000.0 if r["unit"] == "ms" else 1.0)
    return modeled, us / published_us


def fmt(x):
    return "%.0f" % x if x >= 100 else "%.1f" % x if x >= 10 else "%.2f" % x


def rankings(rows):
    """Pairs of rows of one program, size and board whose published figures
    differ by more than 10%: does the model order them the same way?"""
    groups = {}
    for r in rows:
        if r["program"].startswith(("transpose", "alignedTypes")):
            groups.setdefault((r["profile"], r["board"], r["program"], r["size"]), []).append(r)
    out = []
    for key, g in sorted(groups.items()):
        agree = total = 0
        wrong = []
        for i in range(len(g)):
            for j in range(i + 1, len(g)):
                a, b = g[i], g[j]
                fa, fb = a["published"], b["published"]
                if max(fa, fb) < 1.1 * min(fa, fb):
                    continue
                total += 1
                faster_pub = a if fa > fb else b
                slower_pub = b if faster_pub is a else a
                if faster_pub["modeled"] > slower_pub["modeled"]:
                    agree += 1
                else:
                    wrong.append("%s faster than %s" % (faster_pub["variant"], slower_pub["variant"]))
        out.append((key, agree, total, wrong))
    return out


def render(rows):
    lines = [BEGIN, ""]
    lines.append("| # | category | board (profile) | program, variant, size | published | modeled | "
                 "ratio | source |")
    lines.append("|---|---|---|---|---:|---:|---:|---|")
    for r in sorted(rows, key=lambda r: (CATEGORIES.index(r["category"]), int(r["id"]))):
        mark = " !" if not (1 / 1.5 <= r["ratio"] <= 1.5) else ""
        link = " (narrow host link)" if r["link"] == "narrow" else ""
        lines.append("| %s | %s | %s (%s)%s | %s, %s, %s | %s %s | %s %s | %.2f%s | %s |" % (
            r["id"], r["category"], r["board"], r["profile"], link, r["program"], r["variant"],
            r["size"], fmt(r["published"]), r["unit"], fmt(r["modeled"]), r["unit"], r["ratio"],
            mark, r["source"]))
    lines.append("")
    full = [r for r in rows if r["link"] == "full"]
    lines.append("Statistics of the %d rows whose host gives the GPU its full link (the %d "
                 "others are listed above, marked, and left out: the model cannot know a "
                 "host's link unless `GPULAB_SIM_HOST_LINK` says it). Ratio: modeled time / "
                 "published time; within 1.5x means 0.67 to 1.5." % (len(full), len(rows) - len(full)))
    lines.append("")
    lines.append("| category | rows | within 1.5x | beyond 2x | median ratio | worst ratio |")
    lines.append("|---|---:|---:|---:|---:|---:|")

    def worst(rs):
        return max((r["ratio"] for r in rs), key=lambda x: max(x, 1 / x))

    for cat in CATEGORIES + ["all"]:
        rs = full if cat == "all" else [r for r in full if r["category"] == cat]
        if not rs:
            continue
        within = sum(1 for r in rs if 1 / 1.5 <= r["ratio"] <= 1.5)
        beyond = sum(1 for r in rs if not 0.5 <= r["ratio"] <= 2.0)
        lines.append("| %s | %d | %d (%.0f%%) | %d | %.2f | %.2f |" % (
            "**all**" if cat == "all" else cat, len(rs), within, 100.0 * within / len(rs), beyond,
            statistics.median(r["ratio"] for r in rs), worst(rs)))
    lines.append("")
    lines.append("Rankings (pairs of variants whose published figures differ by more than 10%):")
    lines.append("")
    for (profile, board, program, size), agree, total, wrong in rankings(rows):
        lines.append("- %s (%s), %s, %s: the model orders %d of %d pairs as measured%s" % (
            board, profile, program, size, agree, total,
            "" if not wrong else "; not: " + "; ".join(wrong)))
    lines.append("")
    lines.append(END)
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", required=True, help="model-check-sim")
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "corpus.csv"))
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", metavar="PAGE", help="write the table into PAGE")
    g.add_argument("--check", metavar="PAGE", help="fail unless PAGE holds the table as it is now")
    g.add_argument("--print", action="store_true", help="print the table")
    a = ap.parse_args()
    if not os.access(a.sim, os.X_OK):
        fail("--sim %s: not a program" % a.sim)
    rows = read_corpus(a.corpus)
    times = model_times(a.sim, rows)
    for r in rows:
        r["modeled"], r["ratio"] = figure(r, times[(r["profile"], r["case"])])
    table = render(rows)
    if a.print:
        print(table)
        return 0
    page = a.write or a.check
    try:
        with open(page) as f:
            text = f.read()
    except OSError as e:
        fail("%s: cannot read it (%s)" % (page, e.strerror))
    if BEGIN not in text or END not in text:
        fail("%s has no corpus markers (%s ... %s)" % (page, BEGIN, END))
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    new = head + table + tail
    if a.write:
        with open(page, "w") as f:
            f.write(new)
        print("corpus.py: wrote %d rows into %s" % (len(rows), page))
        return 0
    if new != text:
        old_lines = text.split(BEGIN, 1)[1].split(END, 1)[0].splitlines()
        new_lines = table.splitlines()[1:-1]
        diff = [l for l in new_lines if l not in old_lines][:10]
        print("corpus.py: %s is out of date with the model; rewrite it with\n"
              "  tools/model-check/corpus.py --sim build/bin/model-check-sim --write %s\n"
              "First lines that differ:\n%s" % (page, page, "\n".join(diff)), file=sys.stderr)
        return 1
    print("corpus.py: %s holds the corpus table as the model gives it (%d rows)" % (page, len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
