"""Validates the grader's reports with Python's own parsers: report.json and
results.json must be JSON (results.json with Gradescope's fields), report.xml
well-formed JUnit XML. Usage: check_reports.py TEST_REPORT_PROGRAM SCRATCH_DIR"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

prog, scratch = sys.argv[1], sys.argv[2]
os.makedirs(scratch, exist_ok=True)
subprocess.run([prog, scratch], check=True, stdout=subprocess.DEVNULL)

report = json.load(open(os.path.join(scratch, "report.json")))
assert report["backend"] == "sim" and len(report["results"]) == 2, report

gs = json.load(open(os.path.join(scratch, "results.json")))
for key in ("score", "execution_time", "output", "tests"):
    assert key in gs, key
for t in gs["tests"]:
    assert set(t) == {"name", "score", "max_score", "status", "output", "visibility"}, t
    assert t["status"] in ("passed", "failed") and t["visibility"] == "visible", t

root = ET.parse(os.path.join(scratch, "report.xml")).getroot()
assert root.tag == "testsuites" and root.get("failures") == "1", root.attrib
cases = root.findall("./testsuite/testcase")
assert len(cases) == 2 and cases[1].find("failure") is not None
print("reports are valid JSON, Gradescope and JUnit XML")
