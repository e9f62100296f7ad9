#!/usr/bin/env python3
"""gpu-proof's report writer: reads the logs run.sh left in its work folder
and writes OUTDIR/summary.json and OUTDIR/report.md (standard library only).

    python3 report.py WORK OUTDIR

run.sh calls it after every step, so a run cut short still has a report, and
once more at the end. Every figure in the report is read from WORK: nothing
is computed here but sums, ratios and comparisons. A WORK folder holding a
file named FIXTURE is made-up test input (tests/fixture, for test.sh): the
report then says so at the top, in both files, and is no measurement.

What it reads, by step (run.sh says how each file is made):
  env.txt, steps.tsv                 the machine, and each step's status
  compile/ errors.txt missing.txt targets.txt
  ctest/   junit-main.xml junit-model.xml (ctest-*.log when a JUnit file is missing)
  grade/   grades.json (gpulab-grade's --json)
  demos/   demos.tsv, <program>.log
  sanitizer/ expect/<program>.txt (the corpus's CHECK- lines), corpus/<program>.<tool>
           and labs/<lab>.<tool> (compute-sanitizer's output, with .rc: status,
           seconds), bin/<program> (built or not)
  ncu/     lab04.csv lab03.csv (ncu --csv --page raw), sim-lab04.txt sim-lab03.txt
  modelcheck/ model-check.log, model-validation-*.md, ops.jsonl, published-modeled.txt,
           corpus-measured.tsv, corpus-modeled.tsv (the corpus cases),
           bandwidthTest.log
  train/   lab05-demo.log, torch.jsonl, bench-cpu.log
"""

import csv
import glob
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

STEPS = [
    ("compile", "1. Configure and build (cuda backend, native architecture)"),
    ("ctest", "1. ctest -L '^cuda$'"),
    ("grade", "2. gpulab-grade --backend cuda --compare"),
    ("demos", "3. The lab demos on the cuda backend"),
    ("sanitizer", "4. compute-sanitizer"),
    ("ncu", "5. ncu: global loads"),
    ("modelcheck", "6. model-check and the published rows"),
    ("train", "7. Lab 05: device trainer beside PyTorch"),
    ("selftest", "self-test step (test.sh only)"),
]
TOOLS = ["memcheck", "racecheck", "synccheck", "initcheck"]
# compute-sanitizer's lines that open no report of their own.
NOT_REPORTS = ("COMPUTE-SANITIZER", "LEAK SUMMARY", "RACECHECK SUMMARY", "Target application returned an error")


def read(path, default=None):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


def tail(text, n):
    lines = (text or "").rstrip("\n").split("\n")
    return "\n".join(lines[-n:])


def rows(path):
    """A tab-separated file with a header line, as dicts; [] when missing.
    Lines starting with # are comments."""
    lines = [l for l in (read(path) or "").splitlines() if l.strip() and not l.startswith("#")]
    if not lines:
        return []
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:]]


# ---- the machine and the steps --------------------------------------------------------

def parse_env(work):
    env = {}
    for line in (read(os.path.join(work, "env.txt")) or "").splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            env[key.strip()] = value.strip()
    return env


def parse_steps(work):
    return {r["step"]: r for r in rows(os.path.join(work, "steps.tsv"))}


# ---- 1. build and ctest ---------------------------------------------------------------

def parse_build(d):
    if not os.path.isdir(d):
        return None
    lines = lambda name: [l for l in (read(os.path.join(d, name)) or "").splitlines() if l.strip()]
    return {"targets": len(lines("targets.txt")), "errors": lines("errors.txt")[:40],
            "missing_programs": lines("missing.txt")}


def parse_junit(path):
    """Each test case of a CTest JUnit file: name, passed, why not, output."""
    root = ET.parse(path).getroot()
    tests = []
    for case in root.iter("testcase"):
        out = case.find("system-out")
        status = case.get("status", "")
        problems = [c for c in case if c.tag in ("failure", "error", "skipped")]
        passed = status == "run" and not problems
        why = "" if passed else ", ".join(
            [status or "no status"] + ["%s: %s" % (c.tag, c.get("message", "")) for c in problems])
        tests.append({"name": case.get("name"), "passed": passed, "why": why,
                      "seconds": float(case.get("time") or 0), "output": (out.text or "") if out is not None else ""})
    return tests


def parse_ctest(d):
    if not os.path.isdir(d):
        return None
    tests, notes = [], []
    for part in ("main", "model"):
        junit = os.path.join(d, "junit-%s.xml" % part)
        if os.path.exists(junit):
            try:
                tests += parse_junit(junit)
                continue
            except ET.ParseError as e:
                notes.append("junit-%s.xml does not parse (%s)" % (part, e))
        log = read(os.path.join(d, "ctest-%s.log" % part))
        if log is None:
            continue
        notes.append("no JUnit file from the %s run: the failures below are read from its log" % part)
        for m in re.finditer(r"^\s*\d+ - (\S+) \(([^)]*)\)", log.split("The following tests FAILED:")[-1]
                             if "The following tests FAILED:" in log else "", re.M):
            tests.append({"name": m.group(1), "passed": False, "why": m.group(2), "seconds": 0,
                          "output": "(see ctest-%s.log)" % part})
    failed = [t for t in tests if not t["passed"]]
    return {"selected": len(tests), "passed": len(tests) - len(failed), "failed": failed,
            "all_passed": bool(tests) and not failed, "notes": notes}


# ---- 2. grades ------------------------------------------------------------------------

def parse_grade(d):
    text = read(os.path.join(d, "grades.json"))
    if text is None:
        return None
    g = json.loads(text)
    labs = {}
    for r in g.get("results", []):
        v = labs.setdefault(r["lab"], {}).setdefault(r["variant"], {"points": 0.0, "max": 0.0})
        v["points"] += r["points"]
        v["max"] += r["max_points"]
    lost = [{"lab": r["lab"], "check": r["check"], "points": r["points"], "max": r["max_points"],
             "reason": r.get("reason", "")}
            for r in g.get("results", []) if r["variant"] == "solution" and r["points"] < r["max_points"]]
    sol = [r for r in g.get("results", []) if r["variant"] == "solution"]
    return {"backend": g.get("backend"), "backend_reason": g.get("backend_reason"),
            "isolation": g.get("isolation"), "seconds": g.get("seconds"), "labs": labs,
            "solution_checks": len(sol), "solution_lost": lost,
            "solutions_full_marks": bool(sol) and not lost}


# ---- 3. demos -------------------------------------------------------------------------

def parse_demos(d):
    out = []
    for r in rows(os.path.join(d, "demos.tsv")):
        log = read(os.path.join(d, r["program"] + ".log")) or ""
        verdict = [l for l in log.splitlines() if re.match(r"^(PASS|FAIL|skipped)", l)]
        out.append({"program": r["program"], "rc": r["rc"], "seconds": r.get("seconds"),
                    "verdict": verdict[-1] if verdict else tail(log, 1)})
    return out


# ---- 4. compute-sanitizer ------------------------------------------------------------

def norm(text):
    """A report's class in comparable words: no 'Error:', nothing from ' at ' on,
    numbers and addresses as n, punctuation as spaces, lower case."""
    text = re.sub(r"^(error|warning):\s*", "", text.strip(), flags=re.I)
    text = text.split(" at ", 1)[0].lower()
    text = re.sub(r"0x[0-9a-f]+|[0-9]+", "n", text)
    return re.sub(r"\s+", " ", re.sub(r"[^a-z_n ]", " ", text)).strip()


def unregex(pattern):
    """A CHECK-EXPECT regex as readable text."""
    text = pattern.replace("[^=]*", "").replace("0x[0-9a-f]+", "0x...")
    text = re.sub(r"\[[^\]]*\]\+?", "N", text)
    return re.sub(r"\\(.)", r"\1", text)


def parse_expect(text):
    tool, expects, clean, devices = "all", [], False, 1
    for line in text.splitlines():
        if line.startswith("// CHECK-TOOL:"):
            tool = line.split(":", 1)[1].split()[0]
        elif line.startswith("// CHECK-EXPECT:"):
            expects.append(line.split(":", 1)[1].strip())
        elif line.startswith("// CHECK-CLEAN"):
            clean = True
        elif line.startswith("// DEVICES:"):
            devices = int(line.split(":", 1)[1].split()[0])
    tools = TOOLS if tool == "all" else [t for t in tool.split(",") if t]
    where = []  # (file, {lines}) from "file\.cu:27" or "file\.cu:(27|29)"
    for e in expects:
        for m in re.finditer(r"(\w+)\\?\.cu:\(?([0-9|]+)\)?", e):
            where.append((m.group(1) + ".cu", set(int(x) for x in m.group(2).split("|") if x)))
    first = unregex(expects[0]) if expects else ""
    hazard = next((m.group(1) for e in expects for m in [re.search(r"\b(RAW|WAR|WAW) hazard", e)] if m), None)
    return {"tools": tools, "clean": clean, "devices": devices, "expects": expects,
            "class": first.split(" at ", 1)[0] if first else "", "where": where, "hazard": hazard}


def parse_sanitizer_log(text):
    """compute-sanitizer's output: the ERROR SUMMARY count, and each report's
    class (its first line, up to " at ") and first file:line. A report's first
    line has one space after the =========, its details more. Racecheck's races
    are warnings: reported, but not in the ERROR SUMMARY count."""
    errors = None
    reports, current = [], None
    for line in text.splitlines():
        if not line.startswith("========="):
            continue
        body = line[9:]
        m = re.match(r"\s*ERROR SUMMARY: (\d+) error", body)
        if m:
            errors = int(m.group(1))
            continue
        if re.match(r" \S", body) and not body.strip().startswith(NOT_REPORTS):
            head, _, where = body.strip().partition(" at ")
            current = {"class": head, "where": None}
            reports.append(current)
            body = where
        if current is not None and current["where"] is None:
            w = re.search(r"([\w.+-]+\.cu):(\d+)", body)
            if w:
                current["where"] = "%s:%s" % (os.path.basename(w.group(1)), w.group(2))
    return {"errors": errors, "reports": reports}


def run_result(base):
    """One compute-sanitizer run: its parsed log, status and seconds."""
    rc = (read(base + ".rc") or "").split()
    res = parse_sanitizer_log(read(base) or "")
    res["rc"] = rc[0] if rc else "missing"
    res["seconds"] = int(rc[1]) if len(rc) > 1 and rc[1].isdigit() else None
    res["timed_out"] = res["rc"] in ("124", "137")
    return res


def judge_corpus(exp, runs):
    """Whether compute-sanitizer agrees with the simulator's expected reports."""
    if any(r["timed_out"] or r["rc"] in ("missing", "not-run") for r in runs.values()):
        return "no result", "a run timed out or did not run"
    errors = sum(r["errors"] or 0 for r in runs.values())
    reports = sum(len(r["reports"]) for r in runs.values())
    if exp["clean"]:
        if errors == 0 and reports == 0:
            return "agrees", "no report, as expected"
        return "differs", "%d errors, %d reports on a correct program" % (errors, reports)
    found = {r["where"] for run in runs.values() for r in run["reports"] if r["where"]}
    classes = [r["class"] for run in runs.values() for r in run["reports"]]
    lines_ok = all(any("%s:%d" % (f, l) in found for l in ls) for f, ls in exp["where"])
    if exp["hazard"]:
        class_ok = any(exp["hazard"].lower() in c.lower() for c in classes)
    else:
        want = norm(exp["class"])
        class_ok = bool(want) and any(want in norm(c) or (norm(c) and norm(c) in want) for c in classes)
    if errors == 0 and reports == 0:
        return "differs", "nothing reported"
    why = [] if lines_ok else ["expected line not reported"]
    why += [] if class_ok else ["expected class not reported"]
    return ("agrees", "class and line as expected") if not why else ("differs", "; ".join(why))


def parse_sanitizer(d):
    if not os.path.isdir(d):
        return None
    corpus = []
    for path in sorted(glob.glob(os.path.join(d, "expect", "*.txt"))):
        name = os.path.basename(path)[:-4]
        exp = parse_expect(read(path) or "")
        entry = {"program": name, "expected": {k: exp[k] for k in ("tools", "clean", "devices", "class")},
                 "expected_where": ["%s:%s" % (f, "|".join(map(str, sorted(ls)))) for f, ls in exp["where"]]}
        if not os.path.exists(os.path.join(d, "bin", name)):
            entry.update(verdict="not built", why=tail(read(os.path.join(d, "bin", name + ".build.log")), 3))
            corpus.append(entry)
            continue
        runs = {t: run_result(os.path.join(d, "corpus", "%s.%s" % (name, t))) for t in exp["tools"]}
        entry["verdict"], entry["why"] = judge_corpus(exp, runs)
        entry["reported"] = {t: {"errors": r["errors"], "rc": r["rc"], "reports": r["reports"][:5]} for t, r in runs.items()}
        corpus.append(entry)
    labs = []
    for base in sorted(p for p in glob.glob(os.path.join(d, "labs", "*.*")) if p.rsplit(".", 1)[-1] in TOOLS):
        lab, tool = os.path.basename(base).rsplit(".", 1)
        r = run_result(base)
        labs.append({"lab": lab, "tool": tool, "errors": r["errors"], "rc": r["rc"],
                     "timed_out": r["timed_out"], "reports": r["reports"][:5]})
    agree = sum(1 for c in corpus if c.get("verdict") == "agrees")
    return {"corpus": corpus, "labs": labs, "corpus_agrees": agree, "corpus_programs": len(corpus)}


# ---- 5. ncu ---------------------------------------------------------------------------

SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
KERNELS = ["matvec_kernel1", "matvec_kernel2", "matvec_kernel3", "vec_add_kernel"]


def number(text):
    try:
        return float((text or "").replace(",", ""))
    except ValueError:
        return None


def parse_ncu_csv(text):
    """The first profiled launch of each kernel: sectors, requests, grid, block."""
    lines = (text or "").splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return {}
    first = {}
    for row in csv.DictReader(lines[start:]):
        if not (row.get("ID") or "").strip().isdigit():
            continue  # the units row
        m = re.match(r"\w+", row.get("Kernel Name") or "")
        name = m.group(0) if m else "?"
        if name not in first:
            first[name] = {"sectors": number(row.get(SECTORS)), "requests": number(row.get(REQUESTS)),
                           "grid": row.get("Grid Size") or row.get("launch__grid_size"),
                           "block": row.get("Block Size") or row.get("launch__block_size")}
    return first


def parse_sim_counts(lab04, lab03):
    sim = {}
    for m in re.finditer(r"^sectors v(\d) (\d+) (\d+) (\d+) (\d+)", lab04 or "", re.M):
        sim["matvec_kernel" + m.group(1)] = {"requests": float(m.group(2)), "sectors": float(m.group(3))}
    m = re.search(r"gpulab-sim stats: kernel vec_add_kernel .*?\n=+\s+(\d+) threads.*?\n=+\s+global load "
                  r"requests (\d+): (\d+) sectors", lab03 or "", re.S)
    if m:
        sim["vec_add_kernel"] = {"threads": int(m.group(1)), "requests": float(m.group(2)), "sectors": float(m.group(3))}
    return sim


def per_request(c):
    return c["sectors"] / c["requests"] if c and c.get("sectors") is not None and c.get("requests") else None


def parse_ncu(d):
    if not os.path.isdir(d):
        return None
    gpu = {}
    for lab in ("lab04", "lab03"):
        gpu.update(parse_ncu_csv(read(os.path.join(d, lab + ".csv"))))
    sim = parse_sim_counts(read(os.path.join(d, "sim-lab04.txt")), read(os.path.join(d, "sim-lab03.txt")))
    out = []
    for k in KERNELS:
        g, s = gpu.get(k), sim.get(k)
        out.append({"kernel": k, "gpu": g, "sim": s, "gpu_per_request": per_request(g),
                    "sim_per_request": per_request(s)})
    return out


# ---- 6. model-check ---------------------------------------------------------------------

def jsonl(path):
    out = []
    for line in (read(path) or "").splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out


def parse_modelcheck(d):
    if not os.path.isdir(d):
        return None
    step_log = read(os.path.join(d, "step.log")) or ""
    m = re.search(r"model-check-cuda: exit (\d+)", step_log)
    tables = sorted(glob.glob(os.path.join(d, "model-validation-*.md")))
    ops = jsonl(os.path.join(d, "ops.jsonl"))
    return {"rc": int(m.group(1)) if m else None,
            "log_tail": tail(read(os.path.join(d, "model-check.log")), 25),
            "table_file": os.path.basename(tables[0]) if tables else None,
            "table": read(tables[0]) if tables else None,
            "ops": [o for o in ops if "what" in o], "ops_header": next((o for o in ops if "what" not in o), None),
            "published_modeled": tail(read(os.path.join(d, "published-modeled.txt")), 60),
            "bandwidth_test": tail(read(os.path.join(d, "bandwidthTest.log")), 40)}


# ---- 7. lab 05 ----------------------------------------------------------------------------

def parse_train(d):
    if not os.path.isdir(d):
        return None
    demo = read(os.path.join(d, "lab05-demo.log")) or ""
    res = {"images": None, "data": None, "batch": None, "lab_wall": None, "lab_events": None, "cpu": None}
    m = re.search(r"^3\. One epoch .*?: (\d+) images of (.*?), batch (\d+)", demo, re.M)
    if m:
        res.update(images=int(m.group(1)), data=m.group(2), batch=int(m.group(3)))
    m = re.search(r"^\s+CPU\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+CPU wall clock \(C", demo, re.M)
    if m:
        res["cpu"] = {"seconds": float(m.group(1)), "images_per_s": float(m.group(2))}
    m = re.search(r"^\s+device\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+CPU wall clock around", demo, re.M)
    if m:
        res["lab_wall"] = {"seconds": float(m.group(1)), "images_per_s": float(m.group(2)),
                           "first_loss": float(m.group(3)), "last_loss": float(m.group(4))}
    m = re.search(r"^\s+device\s+([\d.]+)\s+(\d+)\s+(.*?): the steps' device time", demo, re.M)
    if m:
        res["lab_events"] = {"seconds": float(m.group(1)), "images_per_s": float(m.group(2)),
                             "clock": m.group(3).strip()}
    res["torch"] = [t for t in jsonl(os.path.join(d, "torch.jsonl")) if "mode" in t]
    like = next((t for t in res["torch"] if t["mode"] == "like_the_lab"), None)
    if like and res["lab_wall"]:
        res["lab_over_torch_wall"] = res["lab_wall"]["images_per_s"] / like["images_per_s_wall"]
    return res


# ---- the report ------------------------------------------------------------------------

def fmt(x, digits=2):
    if x is None:
        return "-"
    if isinstance(x, float):
        return ("%." + str(digits) + "f") % x
    return str(x)


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def code(text):
    return "```\n%s\n```" % (text or "").rstrip()


def markdown(s):
    out = ["# gpulab on a GPU: gpu-proof report", ""]
    if s["fixture"]:
        out += ["**MADE-UP TEST INPUT (a fixture of tools/gpu-proof/tests): no GPU ran, and no figure "
                "below is a measurement.**", ""]
    env = s["environment"]
    out += ["Written by tools/gpu-proof/report.py from the logs of one run of tools/gpu-proof/run.sh.", ""]
    out += ["- %s: %s" % (k, env[k]) for k in ("date_utc", "gpu", "gpus", "host", "nvcc", "compute-sanitizer",
                                              "ncu", "cmake", "cc", "python", "source", "openblas") if k in env]
    out += ["", "| step | status | seconds | limit |", "|---|---|---|---|"]
    for name, title in STEPS:
        st = s["steps"].get(name)
        if st:
            status = {"timeout": "timed out (stopped at its limit)", "not-run": "not run (no time left)"}.get(
                st["status"], st["status"])
            out.append("| %s | %s | %s | %s |" % (title, status, st["seconds"], st["limit"]))
    out.append("")

    b, c = s.get("compile"), s.get("ctest")
    if b or c:
        out += ["## 1. Build and ctest -L '^cuda$'", ""]
    if b:
        out.append("Targets built: %d (the programs the steps run; see compile/targets.txt)." % b["targets"])
        if b["errors"]:
            out += ["", "First build errors:", code("\n".join(b["errors"][:20]))]
        if b["missing_programs"]:
            out += ["", "Programs the cuda tests run that were not built:", code("\n".join(b["missing_programs"]))]
        out.append("")
    if c:
        out.append("%d tests selected, %d passed, %d failed or skipped (a skip counts as a failure here)."
                   % (c["selected"], c["passed"], len(c["failed"])))
        out += ["- " + n for n in c["notes"]]
        for t in c["failed"]:
            out += ["", "### %s: %s" % (t["name"], t["why"]), code(tail(t["output"], 40))]
        out.append("")

    g = s.get("grade")
    if g:
        out += ["## 2. Grades on the %s backend" % g["backend"], "",
                "Backend: %s (%s); isolation: %s; %s s." % (g["backend"], g["backend_reason"], g["isolation"], g["seconds"]),
                "", "| lab | solution | student |", "|---|---|---|"]
        for lab in sorted(g["labs"]):
            v = g["labs"][lab]
            out.append("| %s | %s | %s |" % (lab, *("%g / %g" % (v[k]["points"], v[k]["max"]) if k in v else "-"
                                                  for k in ("solution", "student"))))
        out.append("")
        out.append("Solutions at full marks: %s." % ("yes" if g["solutions_full_marks"] else "NO"))
        if g["solution_lost"]:
            out += ["", "| lab | check (solution) | points | reason |", "|---|---|---|---|"]
            out += ["| %s | %s | %g / %g | %s |" % (x["lab"], cell(x["check"]), x["points"], x["max"], cell(x["reason"]))
                    for x in g["solution_lost"]]
        out.append("")

    if s.get("demos"):
        out += ["## 3. Demos on the cuda backend", "", "| program | exit | seconds | last verdict line |", "|---|---|---|---|"]
        out += ["| %s | %s | %s | %s |" % (x["program"], x["rc"], x["seconds"], cell(x["verdict"])) for x in s["demos"]]
        out += ["", "Full output: demos/<program>.log in logs.tar.gz.", ""]

    z = s.get("sanitizer")
    if z:
        out += ["## 4. compute-sanitizer", "",
                "The check-mode corpus built with nvcc: %d of %d programs agree with the simulator's expected "
                "reports (class and line)." % (z["corpus_agrees"], z["corpus_programs"]), "",
                "| program | tools | expected (simulator) | compute-sanitizer | verdict |", "|---|---|---|---|---|"]
        for p in z["corpus"]:
            e = p["expected"]
            want = "no report" if e["clean"] else "%s @ %s" % (e["class"], ", ".join(p["expected_where"]) or "-")
            got = "; ".join("%s: %s errors%s" % (t, fmt(r["errors"]), "".join(
                " / %s @ %s" % (x["class"][:70], x["where"] or "-") for x in r["reports"][:2]))
                for t, r in p.get("reported", {}).items())
            out.append("| %s | %s | %s | %s | %s: %s |" % (p["program"], ",".join(e["tools"]), cell(want),
                                                          cell(got or "-"), p["verdict"], cell(p["why"])))
        out += ["", "The lab solutions' demos (at their quick sizes):", "",
                "| lab | tool | exit | errors | first reports |", "|---|---|---|---|---|"]
        for x in z["labs"]:
            first = "; ".join("%s @ %s" % (r["class"][:80], r["where"] or "-") for r in x["reports"][:3])
            out.append("| %s | %s | %s%s | %s | %s |" % (x["lab"], x["tool"], x["rc"], " (timed out)" if x["timed_out"] else "",
                                                         fmt(x["errors"]), cell(first or "-")))
        out.append("")

    n = s.get("ncu")
    if n:
        out += ["## 5. ncu: global loads, beside the simulator's counts", "",
                "First launch of each kernel (lab 04: the demo's shape, N = 100000, M = 100).", "",
                "| kernel | grid / block (GPU) | requests GPU | sectors GPU | per request GPU | requests sim | sectors sim | per request sim |",
                "|---|---|---|---|---|---|---|---|"]
        for k in n:
            g, m = k["gpu"] or {}, k["sim"] or {}
            out.append("| %s | %s / %s | %s | %s | %s | %s | %s | %s |" % (
                k["kernel"], g.get("grid", "-"), g.get("block", "-"), fmt(g.get("requests"), 0), fmt(g.get("sectors"), 0),
                fmt(k["gpu_per_request"]), fmt(m.get("requests"), 0), fmt(m.get("sectors"), 0), fmt(k["sim_per_request"])))
        out.append("")

    mc = s.get("modelcheck")
    if mc:
        out += ["## 6. model-check on this GPU", "", "model-check-cuda exit status: %s." % fmt(mc["rc"]), ""]
        out += [mc["table"].rstrip(), ""] if mc["table"] else ["No table was written; the end of its log:", code(mc["log_tail"]), ""]
        if mc["ops"]:
            h = mc["ops_header"] or {}
            out += ["The published rows' operations measured here (PyTorch %s, %s, %s):" % (
                h.get("torch", "?"), h.get("device", "?"), h.get("timed_by", "?")), "",
                "| operation | microseconds | rate |", "|---|---|---|"]
            for o in mc["ops"]:
                rate = "%.2f GB/s" % o["gb_per_s"] if "gb_per_s" in o else (
                    "%.2f TFLOP/s" % o["tflop_per_s"] if "tflop_per_s" in o else "-")
                out.append("| %s | %.2f | %s |" % (o["what"], o["us"], rate))
            out.append("")
        out += ["The model's side of the published rows (model-check-sim --published):", code(mc["published_modeled"]),
                "", "bandwidthTest:", code(mc["bandwidth_test"]), ""]

    t = s.get("train")
    if t:
        out += ["## 7. Lab 05: one epoch at batch %s, device trainer beside PyTorch" % fmt(t["batch"]), "",
                "%s images of %s." % (fmt(t["images"]), t["data"] or "?"), "",
                "| who | timed by | seconds | images/s | first loss | last loss |", "|---|---|---|---|---|---|"]
        if t["lab_wall"]:
            w = t["lab_wall"]
            out.append("| lab 05 device trainer | CPU wall clock around the steps | %.3f | %.0f | %.4f | %.4f |" % (
                w["seconds"], w["images_per_s"], w["first_loss"], w["last_loss"]))
        if t["lab_events"]:
            e = t["lab_events"]
            out.append("| lab 05 device trainer | %s (sum of the steps) | %.4f | %.0f | | |" % (e["clock"], e["seconds"], e["images_per_s"]))
        if t["cpu"]:
            out.append("| lab 05 CPU trainer | CPU wall clock | %.3f | %.0f | | |" % (t["cpu"]["seconds"], t["cpu"]["images_per_s"]))
        for x in t["torch"]:
            out.append("| PyTorch %s, %s (%s) | CPU wall clock | %.3f | %.0f | %.4f | %.4f |" % (
                x.get("torch", "?"), x["mode"], x.get("device", "?"), x["seconds_wall"], x["images_per_s_wall"],
                x["first_loss"], x["last_loss"]))
        if t.get("lab_over_torch_wall"):
            out += ["", "Device trainer / PyTorch fed as the lab is (images/s, wall clock): %.2fx." % t["lab_over_torch_wall"]]
        out.append("")
    return "\n".join(out) + "\n"


def summarize(work):
    s = {"fixture": os.path.exists(os.path.join(work, "FIXTURE")),
         "environment": parse_env(work), "steps": parse_steps(work)}
    parsers = {"compile": parse_build, "ctest": parse_ctest, "grade": parse_grade, "demos": parse_demos,
               "sanitizer": parse_sanitizer, "ncu": parse_ncu, "modelcheck": parse_modelcheck, "train": parse_train}
    for name, parse in parsers.items():
        d = os.path.join(work, name)
        if os.path.isdir(d):
            try:
                s[name] = parse(d)
            except Exception as e:  # one unreadable log must not cost the whole report
                s[name] = None
                s.setdefault("report_errors", []).append("%s: %s: %s" % (name, type(e).__name__, e))
    st = s["steps"].values()
    s["all_steps_ok"] = bool(st) and all(x["status"] == "ok" for x in st)
    return s


def main(argv):
    if len(argv) != 3:
        print("usage: report.py WORK OUTDIR", file=sys.stderr)
        return 2
    work, out = argv[1], argv[2]
    s = summarize(work)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(s, f, indent=1, sort_keys=True, default=list)
    md = markdown(s)
    if s.get("report_errors"):
        md += "\nThe report writer could not read: %s\n" % "; ".join(s["report_errors"])
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
