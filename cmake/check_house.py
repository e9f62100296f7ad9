#!/usr/bin/env python3
"""The kit's house rules that a machine can check (docs/style.md).

  check_house.py ROOT links      every relative link in a Markdown file, every
                                 kit path named in a Markdown file or a source
                                 comment, and every file named alone in
                                 backquotes in Markdown, is a file that exists
  check_house.py ROOT sim-free   no file under labs/ or solutions/ includes a
                                 simulator header or tests GPULAB_BACKEND_SIM
  check_house.py ROOT sizes      no source file outside tests passes about 600
                                 lines unless its opening comment says why
                                 (a line containing "longer than 600 lines")
  check_house.py ROOT labs       every lab folder (labs/NN_name/) declares
                                 labNN, has its handout, and has its row in
                                 the README's table of labs
  check_house.py ROOT all        all four
  check_house.py --self-test     proof that each check can fail: a made-up
                                 kit with one fault of each kind

Each problem is printed as FILE:LINE: what is wrong; the exit status is 1 when
there is any, 0 when there is none, 2 for bad usage. Files are those git
tracks when ROOT is a git checkout, else every file under ROOT (a student's
unpacked kit), build directories left out.
"""

import os
import re
import subprocess
import sys

SOURCE_EXT = (".c", ".h", ".cu", ".cuh", ".cpp", ".hpp", ".in", ".cmake", ".py", ".sh")
SIZE_LIMIT = 600
SIZE_SLACK = 20  # "about 600"
TOP_DIRS = ("labs", "solutions", "common", "sim", "grader", "docs", "cmake", ".ci")
# A path the kit names: one of its top folders, then path parts, ending in a
# file name with an extension or a slash.
PATH_RE = re.compile(
    r"(?<![\w./-])((?:%s)/[A-Za-z0-9_./-]*[A-Za-z0-9_])(?![\w/<{-])" % "|".join(re.escape(d) for d in TOP_DIRS)
)
LINK_RE = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
# A file named alone in Markdown (`kernels.cu`) must be some file of the kit's,
# unless it is one the kit writes when it runs.
BARE_NAME_RE = re.compile(r"`([A-Za-z0-9_.-]+\.(?:c|h|cu|cuh|cpp|hpp|cmake|py|sh))`")
# (and files of other projects that the docs name: cuda-samples' run_tests.py,
# cuBLAS's cublasXt.h, which the simulator lacks).
GENERATED_NAMES = {"setup.sh", "run_autograder", "ensure-cmake.sh", "grade_lab_list.h",
                   "run_tests.py", "cublasXt.h"}
SIM_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"](gpulab_sim/[^>"]+)[>"]')
SIM_MACRO_RE = re.compile(r"\bGPULAB_BACKEND_SIM\b")


def kit_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True)
        files = [f for f in out.stdout.decode().split("\0") if f]
        if files:
            return sorted(f for f in files if os.path.isfile(os.path.join(root, f)))
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not (d.startswith("build") or d.startswith(".") and d != ".ci")]
        for name in filenames:
            files.append(os.path.relpath(os.path.join(dirpath, name), root))
    return sorted(files)


_basenames = {}


def kit_basenames(files):
    key = id(files)
    if key not in _basenames:
        _basenames[key] = {os.path.basename(f) for f in files}
    return _basenames[key]


def read_lines(root, rel):
    try:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return None


def named_path_exists(root, path):
    path = path.rstrip(".")
    # A glob or a placeholder (labs/NN_x/...) names no one file.
    if any(c in path for c in "*?") or re.search(r"\bNN\b|NN_|<|>", path):
        return True
    # The student's kit has no solutions/: what names them is the instructor's.
    if path.startswith("solutions/") and not os.path.isdir(os.path.join(root, "solutions")):
        return True
    # Instructor-only paths are optional and never in the student's kit.
    if "instructor" in path.lower():
        return True
    return os.path.exists(os.path.join(root, path))


def comment_text(line, ext):
    """The comment part of a source line (roughly: after // or # or inside /* */)."""
    if ext in (".py", ".sh", ".cmake", ".in"):
        i = line.find("#")
        return line[i:] if i >= 0 else ""
    for mark in ("//", "/*", " * ", "*/"):
        i = line.find(mark)
        if i >= 0:
            return line[i:]
    return line if line.lstrip().startswith("*") else ""


def check_links(root, files):
    problems = []
    for rel in files:
        ext = os.path.splitext(rel)[1]
        is_md = ext == ".md"
        if not (is_md or ext in SOURCE_EXT):
            continue
        lines = read_lines(root, rel)
        if lines is None:
            continue
        in_fence = False
        for n, line in enumerate(lines, 1):
            if is_md:
                if line.lstrip().startswith("```"):
                    in_fence = not in_fence
                if not in_fence:
                    for target in LINK_RE.findall(line):
                        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                            continue
                        path = target.split("#", 1)[0]
                        full = os.path.normpath(os.path.join(os.path.dirname(rel), path))
                        if full.startswith("solutions") and not os.path.isdir(os.path.join(root, "solutions")):
                            continue
                        if not os.path.exists(os.path.join(root, full)):
                            problems.append("%s:%d: dead link (%s): no file %s" % (rel, n, target, full))
                    basenames = kit_basenames(files)
                    for name in BARE_NAME_RE.findall(line):
                        # A file made at configure time from NAME.in counts.
                        if (name not in basenames and name + ".in" not in basenames
                                and name not in GENERATED_NAMES):
                            problems.append("%s:%d: names `%s`, which is no file of the kit" % (rel, n, name))
                text = line
            else:
                text = comment_text(line, ext)
            for path in PATH_RE.findall(text):
                if not named_path_exists(root, path):
                    problems.append("%s:%d: names %s, which does not exist" % (rel, n, path))
    return problems


def check_sim_free(root, files):
    problems = []
    for rel in files:
        if not (rel.startswith("labs/") or rel.startswith("solutions/")):
            continue
        if os.path.splitext(rel)[1] not in (".c", ".h", ".cu", ".cuh"):
            continue
        for n, line in enumerate(read_lines(root, rel) or [], 1):
            m = SIM_INCLUDE_RE.match(line)
            if m:
                problems.append("%s:%d: includes the simulator's %s (labs speak only the kit's API)" % (rel, n, m.group(1)))
            elif SIM_MACRO_RE.search(line):
                problems.append("%s:%d: tests GPULAB_BACKEND_SIM (only the build may know the simulator)" % (rel, n))
    return problems


def check_sizes(root, files):
    problems = []
    for rel in files:
        if os.path.splitext(rel)[1] not in (".c", ".h", ".cu", ".cuh", ".cpp", ".hpp"):
            continue
        if "/tests/" in "/" + rel or "/bench/" in "/" + rel:
            continue
        lines = read_lines(root, rel) or []
        if len(lines) <= SIZE_LIMIT + SIZE_SLACK:
            continue
        head = "\n".join(lines[:40]).lower()
        if "longer than 600 lines" not in head:
            problems.append(
                "%s:1: %d lines, over about %d, and its opening comment does not say why "
                '(a line with "longer than 600 lines")' % (rel, len(lines), SIZE_LIMIT)
            )
    return problems


LAB_FOLDER_RE = re.compile(r"^labs/(([0-9][0-9])_[A-Za-z0-9_]+)/CMakeLists\.txt$")


def check_labs(root, files):
    """Every lab folder (labs/NN_name/ with a CMakeLists.txt) declares lab<NN>, has its handout,
    and has its row in the README's table of labs: the README is the one list a person reads."""
    problems = []
    readme = "\n".join(read_lines(root, "README.md") or [])
    for rel in files:
        m = LAB_FOLDER_RE.match(rel)
        if not m:
            continue
        folder, number = m.group(1), m.group(2)
        cmake = "\n".join(read_lines(root, rel) or [])
        decl = re.search(r"gpulab_add_lab\(\s*(\S+)", cmake)
        if not decl:
            problems.append("%s:1: declares no lab (gpulab_add_lab)" % rel)
        elif decl.group(1) != "lab" + number:
            problems.append("%s:1: declares %s; the lab in %s is lab%s" % (rel, decl.group(1), folder, number))
        if "labs/%s/README.md" % folder not in files:
            problems.append("labs/%s/: no handout (README.md)" % folder)
        if not re.search(r"^\|[^\n]*\(labs/%s/README\.md\)" % re.escape(folder), readme, re.M):
            problems.append("README.md: the table of labs has no row for labs/%s" % folder)
    return problems


CHECKS = {"links": check_links, "sim-free": check_sim_free, "sizes": check_sizes, "labs": check_labs}


def self_test():
    import tempfile

    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)

        write("docs/a.md", "[ok](b.md) [dead](gone.md) `labs/01_x/none.c` `nosuch.cu` `main.c`\n")
        write("docs/b.md", "fine\n")
        write("labs/01_x/main.c", '#include "gpulab_sim/stats.h"\n#ifdef GPULAB_BACKEND_SIM\n#endif\n')
        write("common/src/big.c", "/* big.c */\n" + "int x;\n" * 700)
        write("README.md", "| 01 | [x](labs/01_x/README.md) | x |\n")
        write("labs/01_x/README.md", "# x\n")
        write("labs/01_x/CMakeLists.txt", "gpulab_add_lab(lab01 DIR 01_x)\n")
        write("labs/02_y/CMakeLists.txt", "gpulab_add_lab(lab05 DIR 02_y)\n")
        write("common/src/long_ok.c", "/* long_ok.c: longer than 600 lines because ... */\n" + "int y;\n" * 700)
        files = kit_files(root)
        want = {
            "links": ["docs/a.md:1: dead link (gone.md)", "names labs/01_x/none.c", "names `nosuch.cu`"],
            "sim-free": ["labs/01_x/main.c:1: includes", "labs/01_x/main.c:2: tests GPULAB_BACKEND_SIM"],
            "sizes": ["common/src/big.c:1: 701 lines"],
            "labs": ["labs/02_y/CMakeLists.txt:1: declares lab05", "labs/02_y/: no handout",
                     "README.md: the table of labs has no row for labs/02_y"],
        }
        failed = 0
        for name, expected in want.items():
            got = CHECKS[name](root, files)
            for e in expected:
                if not any(e in g for g in got):
                    print("self-test: %s did not report %r; it reported %r" % (name, e, got))
                    failed += 1
            if len(got) != len(expected):
                print("self-test: %s reported %d problems, want %d: %r" % (name, len(got), len(expected), got))
                failed += 1
        print("check_house self-test: %s" % ("FAIL" if failed else "every check found its fault"))
        return 1 if failed else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 3 or argv[2] not in list(CHECKS) + ["all"] or not os.path.isdir(argv[1]):
        sys.stderr.write("usage: check_house.py ROOT {%s|all}\n" % "|".join(CHECKS))
        return 2
    root, which = argv[1], argv[2]
    files = kit_files(root)
    problems = []
    for name, check in CHECKS.items():
        if which in (name, "all"):
            problems += check(root, files)
    for p in problems:
        print(p)
    print("check_house %s: %d file(s) read, %d problem(s)" % (which, len(files), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
