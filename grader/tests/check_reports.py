"""Validates the grader's reports with Python's own parsers: report.json and
results.json must be UTF-8 JSON (results.json with Gradescope's fields),
report.xml well-formed JUnit XML with the attributes the Jenkins xunit schema
requires (errors included), whatever bytes the reasons came from.

Usage:
  check_reports.py TEST_REPORT_PROGRAM SCRATCH_DIR
      runs the report test program, which writes the three reports of a
      sample with a Latin-1 byte and control bytes in a reason, and checks them
  check_reports.py --files REPORT.json REPORT.xml RESULTS.json NEEDLE
      checks reports gpulab-grade wrote; NEEDLE must appear in a reason of
      each, with U+FFFD where the program or compiler printed bytes that are
      not UTF-8"""
import re
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

REPLACEMENT = "\ufffd"


def load_json(path):
    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")  # strict: raises on a byte that is not UTF-8
    return json.loads(text)


def check_json(path):
    report = load_json(path)
    for key in ("backend", "backend_reason", "isolation", "seed", "results"):
        assert key in report, (path, key)
    assert report["backend"] in ("sim", "cuda"), report["backend"]
    assert report["backend_reason"], "the report does not say why this backend"
    return report


def check_gradescope(path):
    gs = load_json(path)
    for key in ("score", "execution_time", "output", "tests"):
        assert key in gs, key
    for t in gs["tests"]:
        assert set(t) == {"name", "score", "max_score", "status", "output", "visibility"}, t
        assert t["status"] in ("passed", "failed") and t["visibility"] == "visible", t
    return gs


def check_junit(path):
    with open(path, "rb") as f:
        f.read().decode("utf-8")
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites", root.tag
    suites = root.findall("testsuite")
    assert suites, "no testsuite"
    for node in [root] + suites:
        for attr in ("tests", "failures", "errors", "time"):
            assert node.get(attr) is not None, (node.tag, attr, node.attrib)
    for suite in suites:
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases), suite.attrib
        assert int(suite.get("failures")) == len(suite.findall("testcase/failure"))
        assert int(suite.get("errors")) == len(suite.findall("testcase/error"))
    return root


def sample(prog, scratch):
    os.makedirs(scratch, exist_ok=True)
    subprocess.run([prog, scratch], check=True, stdout=subprocess.DEVNULL)
    report = check_json(os.path.join(scratch, "report.json"))
    assert len(report["results"]) == 4, report
    bad = report["results"][2]["reason"]
    assert "caf" + REPLACEMENT + ".cu" in bad and "\x01" in bad, bad
    assert "\xe9" not in bad, bad

    gs = check_gradescope(os.path.join(scratch, "results.json"))
    assert "no usable GPU" in gs["output"], gs["output"]

    root = check_junit(os.path.join(scratch, "report.xml"))
    assert root.get("failures") == "2" and root.get("errors") == "1", root.attrib
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 4 and cases[1].find("failure") is not None
    assert cases[3].find("error") is not None
    message = cases[2].find("failure").get("message")
    assert "caf" + REPLACEMENT + ".cu" in message, message
    assert not any(ord(c) < 0x20 for c in message), repr(message)


def replaced(text, needle):
    """Whether text holds needle and a U+FFFD where bytes were replaced. (clang
    leaves bytes that are not UTF-8 out of its diagnostics: then there is
    nothing to replace, and the text says "caf (a Latin-1 byte)".)"""
    return needle in text and (REPLACEMENT in text or re.search(r"caf\s*\(a Latin-1 byte\)", text))


def files(report_json, report_xml, results_json, needle):
    report = check_json(report_json)
    reasons = [r["reason"] for r in report["results"]]
    assert any(replaced(r, needle) for r in reasons), (needle, reasons)
    gs = check_gradescope(results_json)
    assert any(replaced(t["output"], needle) for t in gs["tests"]), gs["tests"]
    root = check_junit(report_xml)
    messages = [n.get("message") for n in root.iter() if n.tag in ("failure", "error")]
    assert any(replaced(m, needle) for m in messages), messages
    assert not any(ord(c) < 0x20 and c not in "\t\n\r" for m in messages for c in m), messages


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--files":
        files(*sys.argv[2:])
    elif len(sys.argv) == 3:
        sample(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
    print("reports are valid JSON, Gradescope and JUnit XML")
