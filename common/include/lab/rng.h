/**
 * @file rng.h
 * @brief Deterministic random numbers: PCG32 and the distributions built on it.
 *
 * The grader and the lab programs make their inputs from a seed, so a given
 * (seed, stream) pair must give the same numbers on every machine and with
 * every compiler. The generator is PCG32 (XSH RR 64/32) exactly as in
 * M. E. O'Neill's reference `pcg32_srandom_r` / `pcg32_random_r`, and every
 * distribution is computed with IEEE basic operations only (+, -, *, /,
 * sqrt), never with libm functions whose last bit differs between libraries:
 * normals use Marsaglia's polar method in double precision with the portable
 * logarithm lab_rng_log().
 *
 * Typical use:
 * @code
 * lab_rng rng;
 * lab_rng_seed(&rng, 42, 54);
 * lab_rng_fill_uniform(&rng, x, n, -1.0f, 1.0f);
 * @endcode
 *
 * A lab_rng is plain data: copy it to fork a stream at its current position.
 * None of these functions can fail; none allocates.
 */
#ifndef LAB_RNG_H
#define LAB_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief State of one PCG32 generator (plain data, copyable). */
typedef struct lab_rng {
    uint64_t state; /**< Current 64-bit LCG state. */
    uint64_t inc;   /**< Stream increment; always odd. */
} lab_rng;

/**
 * @brief Seeds a generator, as the reference `pcg32_srandom_r(rng, seed, stream)`.
 *
 * Generators with the same seed and different streams give unrelated
 * sequences. Seed 42, stream 54 gives 0xa15c02b7, 0x7b47f409, 0xba1d3330, ...
 * @param[out] rng  Generator to initialize.
 * @param seed      Starting state (any value).
 * @param stream    Stream selector (any value; only its low 63 bits count).
 */
void lab_rng_seed(lab_rng *rng, uint64_t seed, uint64_t stream);

/**
 * @brief Next 32 uniformly distributed bits (reference `pcg32_random_r`).
 * @param rng Generator to advance.
 * @return A value in [0, 2^32).
 */
uint32_t lab_rng_u32(lab_rng *rng);

/**
 * @brief Unbiased integer in [0, @p bound) (reference `pcg32_boundedrand_r`).
 *
 * Draws are rejected below `2^32 mod bound` so that every result is equally
 * likely; on average fewer than two draws are used.
 * @param rng   Generator to advance.
 * @param bound Exclusive upper limit; 0 returns 0 without advancing @p rng.
 * @return A value in [0, @p bound).
 */
uint32_t lab_rng_below(lab_rng *rng, uint32_t bound);

/**
 * @brief Uniform float in [0, 1) with 24 random bits (one draw).
 * @param rng Generator to advance.
 * @return `(lab_rng_u32() >> 8) * 2^-24`, exactly representable, never 1.
 */
float lab_rng_uniform(lab_rng *rng);

/**
 * @brief Uniform float in [@p lo, @p hi) (one draw).
 *
 * Computed as `lo + (hi - lo) * u` in double and rounded to float; a result
 * that rounds up to @p hi is replaced by the largest float below it.
 * @param rng Generator to advance.
 * @param lo  Inclusive lower limit.
 * @param hi  Exclusive upper limit; @p hi <= @p lo returns @p lo (still one draw).
 * @return A value in [@p lo, @p hi).
 */
float lab_rng_uniform_range(lab_rng *rng, float lo, float hi);

/**
 * @brief Normally distributed float (Marsaglia's polar method, in double).
 *
 * Each call draws pairs of 32-bit values until a point falls strictly inside
 * the unit circle (about 2.55 draws on average) and returns one of the two
 * normals the pair yields; the other is discarded, so that a call depends on
 * nothing but the generator state.
 * @param rng    Generator to advance.
 * @param mean   Mean of the distribution.
 * @param stddev Standard deviation of the distribution.
 * @return `mean + stddev * z` with z standard normal, rounded to float.
 */
float lab_rng_normal(lab_rng *rng, float mean, float stddev);

/**
 * @brief Fills an array with lab_rng_uniform_range() values, in index order.
 * @param rng      Generator to advance.
 * @param[out] out Array of @p n floats.
 * @param n        Number of values; 0 does nothing.
 * @param lo       Inclusive lower limit.
 * @param hi       Exclusive upper limit.
 */
void lab_rng_fill_uniform(lab_rng *rng, float *out, size_t n, float lo, float hi);

/**
 * @brief Fills an array with lab_rng_normal() values, in index order.
 *
 * The result equals @p n successive calls of lab_rng_normal().
 * @param rng      Generator to advance.
 * @param[out] out Array of @p n floats.
 * @param n        Number of values; 0 does nothing.
 * @param mean     Mean of the distribution.
 * @param stddev   Standard deviation of the distribution.
 */
void lab_rng_fill_normal(lab_rng *rng, float *out, size_t n, float mean, float stddev);

/**
 * @brief Natural logarithm from IEEE basic operations only, identical everywhere.
 *
 * The logarithm behind lab_rng_normal(), public so that it can be tested and
 * reproduced (common/tests/rng_reference.py computes the same bits in Python).
 * Within a few units in the last place of the exact result for every
 * positive finite @p x.
 * @param x Argument.
 * @return ln(@p x); -inf for 0, NaN for negative or NaN @p x, +inf for +inf.
 */
double lab_rng_log(double x);

#ifdef __cplusplus
}
#endif

#endif /* LAB_RNG_H */
