#!/usr/bin/env bash
# The Gradescope bundle's CMake step, without a network: ensure-cmake.sh is
# sourced as setup.sh does (under set -euo pipefail) with stand-in cmake,
# python3 (pip) and apt-get on PATH, and must take PyPI's cmake when the
# system's is too old (Ubuntu 22.04: 3.22) or missing, and leave a new enough
# one alone. Also checks that setup.sh sources it before deps.sh and that
# run_autograder uses the CMake it chose.
#   check_ensure_cmake.sh GPULAB_GRADE SOURCE_DIR SCRATCH_DIR
set -euo pipefail
grade=$1 source=$2 scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
"$grade" --package-gradescope "$scratch/bundle" --source "$source" >/dev/null
ensure=$scratch/bundle/ensure-cmake.sh
failures=0

fail() {
  echo "FAIL $case: $*"
  echo "--- what it printed:"
  cat "$scratch/$case.out"
  echo "--- what the stand-ins were asked:"
  cat "$scratch/$case.log" 2>/dev/null || true
  failures=$((failures + 1))
}

# A stand-in cmake of a given version in folder $1.
fake_cmake() {
  mkdir -p "$1"
  printf '#!/bin/sh\necho "cmake version %s"\necho\necho "CMake suite maintained and supported by Kitware (kitware.com/cmake)."\n' \
    "$2" >"$1/cmake"
  chmod +x "$1/cmake"
}

# Stand-ins for python3 (its pip and the cmake module) and apt-get, logging to
# $FAKE/log. FAKE_PIP: "yes" pip is there, "apt" it comes with apt-get
# install python3-pip, "offline" it is there but cannot download (an old pip,
# without --break-system-packages); FAKE_PEP668: "yes" pip wants
# --break-system-packages.
make_fakes() {
  local bin=$1
  mkdir -p "$bin"
  cat >"$bin/python3" <<'PY'
#!/bin/bash
echo "python3 $*" >>"$FAKE/log"
if [ "$1 $2" = "-m pip" ]; then
  if [ "$FAKE_PIP" != yes ] && [ ! -e "$FAKE/pip-installed" ]; then
    echo "/usr/bin/python3: No module named pip" >&2
    exit 1
  fi
  [ "$3" = --version ] && { echo "pip 22.0.2"; exit 0; }
  if [ "$3 $4" = "help install" ]; then
    echo "  --user    Install to the Python user install directory."
    [ "$FAKE_PEP668" = yes ] && echo "  --break-system-packages    Allow pip to modify an EXTERNALLY-MANAGED Python."
    exit 0
  fi
  if [ "$3" = install ] && [ "$FAKE_PIP" = offline ]; then
    [[ " $* " == *" --break-system-packages "* ]] && { echo "no such option: --break-system-packages" >&2; exit 2; }
    echo "ERROR: No matching distribution found for cmake>=3.25" >&2
    exit 1
  fi
  if [ "$3" = install ]; then
    if [ "$FAKE_PEP668" = yes ] && [[ " $* " != *" --break-system-packages "* ]]; then
      echo "error: externally-managed-environment" >&2
      exit 1
    fi
    mkdir -p "$FAKE/pypi/bin"
    printf '#!/bin/sh\necho "cmake version 3.31.6"\n' >"$FAKE/pypi/bin/cmake"
    chmod +x "$FAKE/pypi/bin/cmake"
    exit 0
  fi
fi
if [ "$1" = -c ] && [[ "$2" == *CMAKE_BIN_DIR* ]]; then
  echo "$FAKE/pypi/bin"
  exit 0
fi
echo "stand-in python3: not expected: $*" >&2
exit 3
PY
  cat >"$bin/apt-get" <<'APT'
#!/bin/bash
echo "apt-get $*" >>"$FAKE/log"
[[ " $* " == *" python3-pip "* ]] && touch "$FAKE/pip-installed"
exit 0
APT
  chmod +x "$bin/python3" "$bin/apt-get"
}

# Sources ensure-cmake.sh as setup.sh does; prints which cmake is then first
# on PATH and its version (sed, not head: head may exit before cmake has
# written its other lines, and pipefail would then fail on its SIGPIPE).
# $1: the PATH to run with.
run_case() {
  local path=$1
  export FAKE=$scratch/$case
  mkdir -p "$FAKE"
  : >"$FAKE/log"
  set +e
  env -i PATH="$path" FAKE="$FAKE" FAKE_PIP="${FAKE_PIP:-yes}" FAKE_PEP668="${FAKE_PEP668:-no}" \
    GPULAB_CMAKE_PATH_FILE="$FAKE/cmake-bin-dir" \
    "$BASH" -c 'set -euo pipefail; . "$1"; echo "chosen: $(command -v cmake)"; cmake --version | sed -n 1p' \
    _ "$ensure" >"$scratch/$case.out" 2>&1
  rc=$?
  set -e
  cp "$FAKE/log" "$scratch/$case.log"
}

expect_pip_route() {
  [ "$rc" -eq 0 ] || fail "exit status $rc"
  grep -q "python3 -m pip install --quiet cmake>=3.25" "$scratch/$case.log" ||
    fail "pip was not asked for cmake>=3.25"
  grep -q "chosen: $FAKE/pypi/bin/cmake" "$scratch/$case.out" || fail "PyPI's cmake is not first on PATH"
  grep -q "cmake version 3.31.6" "$scratch/$case.out" || fail "the cmake in use is not PyPI's"
  [ "$(cat "$FAKE/cmake-bin-dir" 2>/dev/null)" = "$FAKE/pypi/bin" ] ||
    fail "its folder is not written for run_autograder"
}

# Only the tools ensure-cmake.sh uses, for a PATH without any cmake.
tools=$scratch/tools
mkdir -p "$tools"
for t in sed sort head cat mkdir chmod touch env; do
  ln -sf "$(command -v "$t")" "$tools/$t"
done

# 1. Ubuntu 22.04: cmake 3.22 from apt, pip there.
case=old
fake_cmake "$scratch/$case/bin" 3.22.1
make_fakes "$scratch/$case/bin"
run_case "$scratch/$case/bin:$tools"
expect_pip_route
grep -q "the system has 3.22.1: installing PyPI's cmake" "$scratch/$case.out" ||
  fail "it does not say why it installs cmake"
! grep -q "apt-get" "$scratch/$case.log" || fail "apt-get was run though pip was there"

# 2. A new enough cmake: left alone.
case=new
fake_cmake "$scratch/$case/bin" 3.28.3
make_fakes "$scratch/$case/bin"
run_case "$scratch/$case/bin:$tools"
[ "$rc" -eq 0 ] || fail "exit status $rc"
grep -q "cmake 3.28.3 is new enough" "$scratch/$case.out" || fail "3.28.3 was not accepted"
! grep -q "pip install" "$scratch/$case.log" || fail "pip was run for a new enough cmake"
[ ! -e "$FAKE/cmake-bin-dir" ] || fail "a folder was written though no cmake was installed"

# 3. No cmake at all, and no pip: pip comes from apt-get, then cmake from PyPI.
case=missing
make_fakes "$scratch/$case/bin"
FAKE_PIP=apt run_case "$scratch/$case/bin:$tools"
expect_pip_route
grep -q "the system has none" "$scratch/$case.out" || fail "it does not say there is no cmake"
grep -q "apt-get install -y -qq --no-install-recommends python3-pip" "$scratch/$case.log" ||
  fail "pip was not installed with apt-get"

# 4. A pip that refuses the system's Python (PEP 668): the second try passes
#    --break-system-packages.
case=pep668
fake_cmake "$scratch/$case/bin" 3.22.1
make_fakes "$scratch/$case/bin"
FAKE_PEP668=yes run_case "$scratch/$case/bin:$tools"
expect_pip_route
grep -q "pip install --quiet --break-system-packages cmake>=3.25" "$scratch/$case.log" ||
  fail "no second try with --break-system-packages"

# 5. pip cannot download (no network) and is too old to know
#    --break-system-packages: a clear message and a failing setup, without
#    a second try it would not understand.
case=offline
fake_cmake "$scratch/$case/bin" 3.22.1
make_fakes "$scratch/$case/bin"
FAKE_PIP=offline run_case "$scratch/$case/bin:$tools"
[ "$rc" -ne 0 ] || fail "setup went on without a CMake new enough"
grep -q "pip could not install cmake>=3.25 (see above); install CMake 3.25 or newer" \
  "$scratch/$case.out" || fail "no message saying what to do"
! grep -q -- "--break-system-packages cmake" "$scratch/$case.log" ||
  fail "retried with an option this pip does not know"

# 6. setup.sh sources it before deps.sh (which refuses an old cmake), and
#    run_autograder puts the chosen CMake first on PATH.
case=scripts
: >"$scratch/$case.out"
setup=$scratch/bundle/setup.sh
ensure_line=$(grep -n '^\. /autograder/source/ensure-cmake.sh$' "$setup" | cut -d: -f1)
deps_line=$(grep -n 'cmake/deps.sh install' "$setup" | cut -d: -f1)
[ -n "$ensure_line" ] && [ -n "$deps_line" ] && [ "$ensure_line" -lt "$deps_line" ] ||
  fail "setup.sh does not source ensure-cmake.sh before deps.sh"
grep -q 'cmake-bin-dir' "$scratch/bundle/run_autograder" ||
  fail "run_autograder does not use the CMake setup.sh chose"
bash -n "$setup" && bash -n "$ensure" || fail "a script does not parse"

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "ensure-cmake.sh: PyPI's cmake when the system's is 3.22 or missing (pip from apt, PEP 668"
echo "handled, a failed pip explained); a new enough cmake left alone; setup.sh and"
echo "run_autograder use it"
