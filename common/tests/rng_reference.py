#!/usr/bin/env python3
"""Independent Python implementation of gpulab's lab/rng.h, for the
unit-rng-reference test.

Run with no arguments, it prints one line per generated value:

    u32 CASE INDEX HEX         32-bit draws of PCG32
    below BOUND INDEX VALUE    lab_rng_below
    uniform 0 INDEX HEX        float bits of lab_rng_uniform
    range CASE INDEX HEX       float bits of lab_rng_uniform_range
    normal CASE INDEX HEX      float bits of lab_rng_normal
    log XHEX RESULTHEX         double bits of lab_rng_log(x)

`test-rng --check-python THIS_SCRIPT` prints the same lines from the C library
and compares them: they must agree bit for bit. Python integers are exact and
Python floats are IEEE doubles with correctly rounded + - * / and sqrt, so
this is the same arithmetic as the C code, written a second time from the
algorithm's description (O'Neill's pcg32_srandom_r / pcg32_random_r /
pcg32_boundedrand_r, Marsaglia's polar method, ln m = 2 atanh((m-1)/(m+1))).
Keep the case tables in step with emit_reference() in test_rng.c.
"""

import math
import struct
import sys

MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1
PCG_MULT = 6364136223846793005

# (seed, stream, count)
U32_CASES = [
    (42, 54, 1000),
    (0, 0, 100),
    (MASK64, (1 << 63) - 1, 100),
    (12345, (1 << 63) + 5, 100),
]
BELOW_BOUNDS = [1, 2, 3, 7, 10, 1000, 0x80000001, 0xFFFFFFFF, 0]
# (lo, hi) as float32 bit patterns
RANGE_CASES = [
    (0xBF800000, 0x3F800000),  # -1, 1
    (0x00000000, 0x3A800000),  # 0, 2^-10
    (0xC0A00000, 0x40600000),  # -5, 3.5
    (0x3F800000, 0x3F800001),  # 1, 1 + 2^-23 (one ulp wide: exercises the clamp)
    (0x40000000, 0x40000000),  # 2, 2 (empty)
    (0x40400000, 0xC0400000),  # 3, -3 (reversed)
]
# (mean, stddev, count) as float32 bit patterns
NORMAL_CASES = [
    (0x00000000, 0x3F800000, 1000),  # 0, 1
    (0x40600000, 0x3E800000, 100),  # 3.5, 0.25
    (0xC0000000, 0x41200000, 100),  # -2, 10
]
LOG_SPECIAL = [
    0x3FF0000000000000,  # 1
    0x3FE0000000000000,  # 0.5
    0x4000000000000000,  # 2
    0x3FE6A09E667F3BCD,  # sqrt(1/2), rounded
    0x3FE6A09E667F3BCC,  # just below it
    0x3FF6A09E667F3BCD,  # sqrt(2), rounded
    0x3FF0000000000001,  # 1 + 2^-52
    0x3FEFFFFFFFFFFFFF,  # 1 - 2^-53
    0x3FB999999999999A,  # 0.1
    0x4024000000000000,  # 10
    0x01A56E1FC2F8F359,  # 1e-300
    0x0000000000000001,  # smallest subnormal
    0x0010000000000000,  # smallest normal
    0x7FEFFFFFFFFFFFFF,  # largest finite
]
LOG_RANDOM = 2000
LN2_HI = float.fromhex("0x1.62e42feep-1")
LN2_LO = float.fromhex("0x1.a39ef35793c76p-33")
SQRT_HALF = float.fromhex("0x1.6a09e667f3bcdp-1")
LOG_TERMS = 11


class Pcg32:
    def __init__(self, seed, stream):
        self.state = 0
        self.inc = ((stream << 1) | 1) & MASK64
        self.u32()
        self.state = (self.state + seed) & MASK64
        self.u32()

    def u32(self):
        old = self.state
        self.state = (old * PCG_MULT + self.inc) & MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & MASK32

    def below(self, bound):
        if bound == 0:
            return 0
        threshold = (2**32 - bound) % bound
        while True:
            r = self.u32()
            if r >= threshold:
                return r % bound


def f32(x):
    """Rounds a double to the nearest float32 (ties to even), as a C cast."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f64_from_bits(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def nextafterf(x, toward):
    if x == toward:
        return toward
    if x == 0.0:
        return f32_from_bits(1) if toward > 0 else f32_from_bits(0x80000001)
    b = f32_bits(x)
    if (x < toward) == (x > 0):
        b += 1
    else:
        b -= 1
    return f32_from_bits(b)


def uniform(rng):
    return float(rng.u32() >> 8) * 2.0**-24


def uniform_range(rng, lo, hi):
    u = uniform(rng)
    if not hi > lo:
        return lo
    r = f32(lo + (hi - lo) * u)
    if r >= hi:
        r = nextafterf(hi, lo)
    return r


def log_series(t):
    t2 = t * t
    p = 1.0 / (2 * LOG_TERMS - 1)
    for k in range(LOG_TERMS - 2, -1, -1):
        p = 1.0 / (2 * k + 1) + t2 * p
    return 2.0 * (t * p)


def portable_log(x):
    m, e = math.frexp(x)
    if m < SQRT_HALF:
        m *= 2.0
        e -= 1
    t = (m - 1.0) / (m + 1.0)
    return float(e) * LN2_HI + (float(e) * LN2_LO + log_series(t))


def signed_unit(rng):
    return float(rng.u32()) * 2.0**-31 - 1.0


def normal(rng, mean, stddev):
    while True:
        u = signed_unit(rng)
        v = signed_unit(rng)
        s = u * u + v * v
        if s < 1.0 and s != 0.0:
            break
    z = u * math.sqrt(-2.0 * portable_log(s) / s)
    return f32(mean + stddev * z)


def log_inputs():
    xs = list(LOG_SPECIAL)
    rng = Pcg32(7, 11)
    while len(xs) < len(LOG_SPECIAL) + LOG_RANDOM:
        bits = ((rng.u32() << 32) | rng.u32()) & 0x7FFFFFFFFFFFFFFF
        if bits != 0 and (bits >> 52) != 0x7FF:
            xs.append(bits)
    return xs


def emit(out):
    for c, (seed, stream, count) in enumerate(U32_CASES):
        rng = Pcg32(seed, stream)
        for i in range(count):
            out.append(f"u32 {c} {i} {rng.u32():08x}")
    rng = Pcg32(2024, 7)
    for bound in BELOW_BOUNDS:
        for i in range(50):
            out.append(f"below {bound} {i} {rng.below(bound)}")
    rng = Pcg32(42, 54)
    for i in range(200):
        out.append(f"uniform 0 {i} {f32_bits(uniform(rng)):08x}")
    rng = Pcg32(42, 54)
    for c, (lo, hi) in enumerate(RANGE_CASES):
        for i in range(100):
            r = uniform_range(rng, f32_from_bits(lo), f32_from_bits(hi))
            out.append(f"range {c} {i} {f32_bits(r):08x}")
    for c, (mean, stddev, count) in enumerate(NORMAL_CASES):
        rng = Pcg32(42, 54)
        for i in range(count):
            r = normal(rng, f32_from_bits(mean), f32_from_bits(stddev))
            out.append(f"normal {c} {i} {f32_bits(r):08x}")
    for bits in log_inputs():
        out.append(f"log {bits:016x} {f64_bits(portable_log(f64_from_bits(bits))):016x}")


def main():
    lines = []
    emit(lines)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
