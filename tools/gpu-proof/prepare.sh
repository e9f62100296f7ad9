#!/usr/bin/env bash
# Run here, on a machine with a Debian/Ubuntu package registry, before the
# one call on the GPU machine (which has none): fetches the Debian packages
# run.sh unpacks there (OpenBLAS, which the kit needs, and the Fortran
# runtime it links, for a machine that lacks it) into tools/gpu-proof/debs/,
# an ignored folder the call carries, notes which commit they go with, and
# prints the call to make. docs/gpu-proof.md explains the whole procedure.
#
#   tools/gpu-proof/prepare.sh
#
# Doxygen is not fetched: run.sh configures with -DGPULAB_DOCS=OFF, since the
# documentation does not depend on the GPU.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
debs=$here/debs
packages=(libopenblas0-pthread libopenblas-pthread-dev libgfortran5 libquadmath0)

command -v apt-get >/dev/null || { echo "prepare.sh: needs apt-get (Debian or Ubuntu)" >&2; exit 1; }
mkdir -p "$debs"
rm -f "$debs"/*.deb
# The GPU machine is x86-64; elsewhere, fetch amd64 packages through lists of their own.
apt_opts=()
if [ "$(dpkg --print-architecture)" != amd64 ]; then
    lists=$(mktemp -d)
    mkdir -p "$lists/partial"
    apt_opts=(-o APT::Architecture=amd64 -o APT::Architectures=amd64 -o "Dir::State::Lists=$lists")
    apt-get "${apt_opts[@]}" update
fi
(cd "$debs" && apt-get "${apt_opts[@]}" download "${packages[@]}")
# Which kit the packages were fetched for: run.sh puts it in the report.
{
    git -C "$root" describe --always --dirty 2>/dev/null || echo "unknown commit"
} | sed "s/\$/ (debs fetched $(date -u +%Y-%m-%dT%H:%M:%SZ))/" >"$debs/SOURCE"

# What travels: the working tree git does not ignore, plus the carried folder.
tree=$(cd "$root" && git ls-files -z -co --exclude-standard 2>/dev/null | xargs -0 -r du -cb 2>/dev/null | tail -1 | cut -f1)
carried=$(du -sb "$debs" | cut -f1)
echo
echo "fetched into tools/gpu-proof/debs/: $(cd "$debs" && echo *.deb)"
echo "what travels: working tree $((${tree:-0} / 1048576)) MiB + debs $((carried / 1048576)) MiB (the limit is 64 MiB)"
[ $((${tree:-0} + carried)) -lt $((60 * 1048576)) ] || echo "WARNING: close to or over the 64 MiB a call may carry"
cat <<'EOF'

The call on the GPU machine (one command; it ends within 8 minutes):
  carry:     ["tools/gpu-proof/debs"]
  command:   bash tools/gpu-proof/run.sh "$OUT"
  timeout_s: 540
It brings back $OUT/summary.json, $OUT/report.md and $OUT/logs.tar.gz.
EOF
