#!/usr/bin/env bash
# Checks for, or installs, what gpulab needs to build and test.
#
#   cmake/deps.sh check     list what is missing; exit 1 if anything is
#   cmake/deps.sh install   install what is missing with apt-get (as root, or
#                           through sudo when it needs no password); otherwise
#                           print the exact command to run and exit 1
#
# The CUDA toolkit is optional and never installed here: without it only the
# sim backend is built.
set -euo pipefail

# Debian/Ubuntu package : what it provides
packages=(
  cmake            # CMake >= 3.25
  make
  gcc
  g++
  pkg-config
  libopenblas-dev  # cblas.h + libopenblas: CPU reference BLAS
  doxygen          # the docs target
  python3          # the NumPy interoperability test
  python3-numpy
)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == *"install ok installed"* ]] || missing+=("$p")
  done
else
  for tool in cmake make cc c++ pkg-config doxygen python3; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  pkg-config --exists openblas 2>/dev/null || missing+=("openblas")
fi

cmake_too_old() {
  command -v cmake >/dev/null 2>&1 || return 1
  local v
  v=$(cmake --version | sed -n 1p | sed 's/[^0-9.]*\([0-9.]*\).*/\1/')
  [ "$(printf '%s\n3.25\n' "$v" | sort -V | head -1)" != "3.25" ]
}

mode=${1:-check}
if cmake_too_old; then
  echo "gpulab needs CMake >= 3.25; this one is $(cmake --version | sed -n 1p)." >&2
  echo "Install a newer one, e.g.: python3 -m pip install --user 'cmake>=3.25'" >&2
  exit 1
fi
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "gpulab: missing: ${missing[*]}" >&2
  echo "Install them with your system's package manager (OpenBLAS with cblas.h, Doxygen," >&2
  echo "NumPy for Python 3, CMake >= 3.25, a C11/C++17 compiler), then run make again." >&2
  exit 1
fi

command_line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$mode" != "install" ]; then
  echo "gpulab: missing packages: ${missing[*]}" >&2
  echo "Install them with 'make deps', or: sudo $command_line" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  echo "gpulab: missing packages: ${missing[*]}" >&2
  echo "Installing them needs root. Run:" >&2
  echo "  sudo apt-get update && sudo $command_line" >&2
  exit 1
fi

echo "gpulab: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
# shellcheck disable=SC2086
"${sudo[@]}" $command_line
