#!/usr/bin/env bash
# Test of tools/fetch_cifar10.sh without the network: a small fake archive
# served through a file:// address (CIFAR10_URL, CIFAR10_MD5), then a wrong
# checksum, an archive placed by hand, and a download that fails.
#
#   fetch_cifar10_test.sh SCRIPT WORKDIR        exit 0 pass, 1 fail, 77 skipped
set -uo pipefail

script="$1"
work="$2"
command -v curl >/dev/null 2>&1 || { echo "skipped: curl is not installed"; exit 77; }
command -v md5sum >/dev/null 2>&1 || { echo "skipped: md5sum is not installed"; exit 77; }

rm -rf "$work"
mkdir -p "$work/src/cifar-10-batches-bin"
for f in data_batch_1 data_batch_2 data_batch_3 data_batch_4 data_batch_5 test_batch; do
  head -c $((2 * 3073)) /dev/zero >"$work/src/cifar-10-batches-bin/$f.bin"
done
tar -czf "$work/fake.tar.gz" -C "$work/src" cifar-10-batches-bin
md5=$(md5sum "$work/fake.tar.gz" | cut -d' ' -f1)
failures=0

expect() { # expect NAME WANT_RC WANT_TEXT -- command...
  local name="$1" want_rc="$2" want_text="$3"
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc -ne $want_rc || "$out" != *"$want_text"* ]]; then
    echo "FAIL $name: exit $rc (want $want_rc), output must contain '$want_text':"
    echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

export CIFAR10_URL="file://$work/fake.tar.gz"

CIFAR10_MD5="$md5" expect "download, check, unpack" 0 \
  "export GPULAB_CIFAR10=$work/d1/cifar-10-batches-bin" -- "$script" "$work/d1"
[[ -f "$work/d1/cifar-10-batches-bin/test_batch.bin" ]] ||
  { echo "FAIL: test_batch.bin not unpacked"; failures=$((failures + 1)); }
CIFAR10_MD5="$md5" expect "second run finds it" 0 "already unpacked" -- "$script" "$work/d1"
CIFAR10_DIR="$work/d2" CIFAR10_MD5="$md5" expect "directory from CIFAR10_DIR" 0 \
  "ready in $work/d2/cifar-10-batches-bin" -- "$script"

CIFAR10_MD5=0123456789abcdef0123456789abcdef expect "wrong MD5 refused" 1 \
  "expected 0123456789abcdef0123456789abcdef" -- "$script" "$work/d3"
[[ ! -e "$work/d3/cifar-10-binary.tar.gz" && ! -e "$work/d3/cifar-10-binary.tar.gz.part" ]] ||
  { echo "FAIL: a damaged download was kept"; failures=$((failures + 1)); }

mkdir -p "$work/d4" && cp "$work/fake.tar.gz" "$work/d4/cifar-10-binary.tar.gz"
CIFAR10_URL="file://$work/nothing-here.tar.gz" CIFAR10_MD5="$md5" \
  expect "archive copied by hand, no network" 0 "MD5 $md5 ok" -- "$script" "$work/d4"

CIFAR10_URL="file://$work/nothing-here.tar.gz" CIFAR10_MD5="$md5" \
  expect "failed download explained" 1 "On a machine with internet" -- "$script" "$work/d5"

# A truncated archive (right name, wrong bytes) in place is replaced.
mkdir -p "$work/d6" && head -c 100 "$work/fake.tar.gz" >"$work/d6/cifar-10-binary.tar.gz"
CIFAR10_MD5="$md5" expect "damaged archive fetched again" 0 "fetching it again" -- "$script" "$work/d6"

echo "$failures failed"
[[ $failures -eq 0 ]]
