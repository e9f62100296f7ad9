#!/usr/bin/env bash
# Downloads the CIFAR-10 binary version, checks it, and unpacks it for lab 05.
#
#   labs/05_training/tools/fetch_cifar10.sh [DIR]      (or: make data-cifar10 CIFAR10_DIR=DIR)
#
# DIR: the argument, else $CIFAR10_DIR, else ~/.cache/gpulab/cifar10. The
# archive (cifar-10-binary.tar.gz, 162 MB) is saved there, its MD5 is checked
# against the published one, and it is unpacked to DIR/cifar-10-batches-bin/:
# data_batch_1.bin ... data_batch_5.bin and test_batch.bin, 10000 records of
# 3073 bytes each. Then point the lab at it:
#
#   export GPULAB_CIFAR10=DIR/cifar-10-batches-bin     (or --data DIR/...)
#
# Without internet: download the archive on another machine, copy it to
# DIR/cifar-10-binary.tar.gz and run this again; it checks and unpacks it.
# Without any of this the lab uses its synthetic CIFAR-shaped set.
#
# For tests only: CIFAR10_URL and CIFAR10_MD5 replace the official address
# and checksum.
set -euo pipefail

url="${CIFAR10_URL:-https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz}"
md5="${CIFAR10_MD5:-c32a1d4ab5d03f1284b67883e8d87530}"
dir="${1:-${CIFAR10_DIR:-${HOME:-.}/.cache/gpulab/cifar10}}"
archive="$dir/cifar-10-binary.tar.gz"
batches="$dir/cifar-10-batches-bin"
files=(data_batch_1.bin data_batch_2.bin data_batch_3.bin data_batch_4.bin data_batch_5.bin
       test_batch.bin)

say() { printf 'data-cifar10: %s\n' "$*"; }
die() { printf 'data-cifar10: error: %s\n' "$*" >&2; exit 1; }

md5_of() {
  if command -v md5sum >/dev/null 2>&1; then
    md5sum "$1" | cut -d' ' -f1
  elif command -v md5 >/dev/null 2>&1; then
    md5 -q "$1"
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c 'import hashlib,sys; h=hashlib.md5()
with open(sys.argv[1],"rb") as f:
    for b in iter(lambda: f.read(1<<20), b""): h.update(b)
print(h.hexdigest())' "$1"
  else
    die "no md5sum, md5 or python3 to check the archive with"
  fi
}

# Whether every batch file is there and is whole records of 3073 bytes.
batches_ok() {
  local f size
  for f in "${files[@]}"; do
    [[ -f "$batches/$f" ]] || return 1
    size=$(wc -c <"$batches/$f")
    ((size > 0 && size % 3073 == 0)) || return 1
  done
}

done_message() {
  say "CIFAR-10 is ready in $batches"
  say "use it with:  export GPULAB_CIFAR10=$batches   (or the lab program's --data $batches)"
}

if batches_ok; then
  say "already unpacked: ${files[*]} in $batches"
  done_message
  exit 0
fi

mkdir -p "$dir" || die "cannot create $dir"

if [[ -f "$archive" ]]; then
  say "found $archive; checking its MD5"
  got=$(md5_of "$archive")
  if [[ "$got" != "$md5" ]]; then
    say "its MD5 is $got, not the published $md5 (an interrupted download?); fetching it again"
    rm -f "$archive"
  fi
fi

if [[ ! -f "$archive" ]]; then
  say "downloading $url"
  say "to $archive (about 162 MB)"
  part="$archive.part"
  rm -f "$part"
  if command -v curl >/dev/null 2>&1; then
    fetch=(curl -fL --retry 2 --connect-timeout 20 -o "$part" "$url")
  elif command -v wget >/dev/null 2>&1; then
    fetch=(wget --tries=3 --timeout=20 -O "$part" "$url")
  else
    die "neither curl nor wget is installed (apt install curl), so nothing can be downloaded"
  fi
  if ! "${fetch[@]}"; then
    rm -f "$part"
    die "could not download $url (no internet on this machine, or the site is down).
  On a machine with internet, download that file and copy it to
    $archive
  then run this again: it checks the MD5 and unpacks it. Without CIFAR-10 the lab
  uses its synthetic CIFAR-shaped set, so nothing else is blocked."
  fi
  got=$(md5_of "$part")
  if [[ "$got" != "$md5" ]]; then
    rm -f "$part"
    die "the downloaded file's MD5 is $got, expected $md5: the download is damaged or
  is not the CIFAR-10 binary archive; it was deleted. Run this again to retry."
  fi
  mv "$part" "$archive"
fi

say "MD5 $md5 ok; unpacking into $dir"
tar -xzf "$archive" -C "$dir" || die "cannot unpack $archive (disk full?); delete it and run this again"
batches_ok || die "$archive unpacked, but $batches does not hold ${files[*]} as whole 3073-byte records"
done_message
