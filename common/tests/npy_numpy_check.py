#!/usr/bin/env python3
"""NumPy interop test of lab/npy.h (CTest: unit-npy-numpy).

Usage: npy_numpy_check.py TEST_NPY

1. `TEST_NPY --write-for-numpy DIR` writes FILES with lab_npy_write; this
   script loads each with numpy.load and checks dtype, shape, values, the
   64-byte data alignment, and that the header dict is the text numpy.save
   writes for the same array.
2. This script saves FILES (plus a version 2.0 and a 3.0 file, and three
   arrays the C side must refuse: Fortran order, big-endian, complex) with
   NumPy; `TEST_NPY --read-from-numpy DIR` reads and checks them.

Values follow fill() in test_npy.c: element i is a function of i + 1.
Exit status: 0 pass, 1 fail, 77 skipped (this Python has no NumPy).
"""
import io
import os
import struct
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print(f"SKIPPED: {sys.executable} cannot import numpy")
    sys.exit(77)

# (file, dtype, shape): the same list as interop_files[] in test_npy.c.
FILES = [
    ("f32.npy", "float32", (3, 4)),
    ("f64.npy", "float64", (2, 3, 2)),
    ("i32.npy", "int32", (5,)),
    ("i64.npy", "int64", (2, 2)),
    ("u8.npy", "uint8", (4, 4)),
    ("scalar.npy", "float64", ()),
    ("empty.npy", "float32", (0, 3)),
    ("dims8.npy", "int32", (1, 2, 1, 2, 1, 2, 1, 2)),
]

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL {what}")


def expected(dtype, shape):
    n = int(np.prod(shape, dtype=np.int64))
    k = np.arange(1, n + 1, dtype=np.int64)
    if dtype == "float32":
        v = k.astype(np.float32) * np.float32(0.5) - np.float32(3.25)
    elif dtype == "float64":
        v = k / 3.0
    elif dtype == "int32":
        v = (k * 1000003 - 5000000).astype(np.int32)
    elif dtype == "int64":
        v = k * 3000000000001 - 4000000000000000000
    else:
        v = (k * 37 % 256).astype(np.uint8)
    return v.astype(dtype).reshape(shape)


def header_of(raw):
    """(data offset, header dict text without padding) of a .npy file's bytes."""
    if raw[6] == 1:
        (hlen,) = struct.unpack("<H", raw[8:10])
        start = 10
    else:
        (hlen,) = struct.unpack("<I", raw[8:12])
        start = 12
    return start + hlen, raw[start:start + hlen].rstrip().decode("latin1")


def numpy_header(arr):
    buf = io.BytesIO()
    np.save(buf, arr)
    return header_of(buf.getvalue())[1]


def check_c_files(d):
    for name, dtype, shape in FILES:
        path = os.path.join(d, name)
        try:
            a = np.load(path)
        except Exception as e:  # a file numpy cannot load is this test's failure
            check(False, f"numpy.load {name}: {e}")
            continue
        want = expected(dtype, shape)
        check(a.dtype == np.dtype(dtype), f"{name}: dtype {a.dtype}, want {dtype}")
        check(a.shape == shape, f"{name}: shape {a.shape}, want {shape}")
        check(a.shape == shape and np.array_equal(a, want), f"{name}: values differ")
        with open(path, "rb") as f:
            raw = f.read()
        offset, text = header_of(raw)
        check(offset % 64 == 0, f"{name}: data starts at byte {offset}, not a multiple of 64")
        check(text == numpy_header(want),
              f"{name}: header {text!r}, numpy.save writes {numpy_header(want)!r}")
        print(f"ok   numpy.load {name}: {a.dtype} {a.shape}")


def save_numpy_files(d):
    for name, dtype, shape in FILES:
        np.save(os.path.join(d, name), expected(dtype, shape))
    want = expected("float32", (3, 4))
    for version in (2, 3):
        with open(os.path.join(d, f"v{version}.npy"), "wb") as f:
            np.lib.format.write_array(f, want, version=(version, 0))
    fortran = np.asfortranarray(expected("float32", (2, 3)))
    np.save(os.path.join(d, "fortran.npy"), fortran)
    check("'fortran_order': True" in numpy_header(fortran),
          "numpy did not save fortran.npy in Fortran order")
    np.save(os.path.join(d, "big_endian.npy"), want.astype(">f4"))
    np.save(os.path.join(d, "complex.npy"), want.astype("<c8"))


def run(args):
    print("$", " ".join(args), flush=True)
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(r.stdout, end="", flush=True)
    check(r.returncode == 0, f"{' '.join(args)} exited {r.returncode}")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    exe = sys.argv[1]
    print(f"NumPy {np.__version__} ({sys.executable})")
    with tempfile.TemporaryDirectory(prefix="npy-numpy-") as tmp:
        from_c = os.path.join(tmp, "from_c")
        from_numpy = os.path.join(tmp, "from_numpy")
        os.mkdir(from_c)
        os.mkdir(from_numpy)
        run([exe, "--write-for-numpy", from_c])
        check_c_files(from_c)
        save_numpy_files(from_numpy)
        run([exe, "--read-from-numpy", from_numpy])
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
