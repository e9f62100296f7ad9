/*
 * Lab 03 — what a wrong c says about its cause. Part of the harness (you do
 * not edit it): the demo (main.c) prints it under a failing row, and the
 * grader (grader_checks.c) gives it as a failed check's reason, so
 * both say the same thing.
 *
 * The harness fills every element of c with a marker (a NaN that no a + b
 * produces) before the kernel runs, so an element still holding it was
 * written by no thread. From which elements were written, and whether the
 * launched threads cover the data at all, the diagnosis tells apart:
 *   - a grid too small for the data (TODO 1 or 5): the uncovered elements,
 *     and only those, are unwritten;
 *   - a grid that covers the data but an index formula that maps threads to
 *     the wrong elements (TODO 2, 3 or 4): it names the first unwritten
 *     element and the block and thread that should have written it, and
 *     recognises blockIdx and threadIdx (or row and column) swapped;
 *   - elements written with a wrong value.
 */
#ifndef LAB03_DIAGNOSE_H
#define LAB03_DIAGNOSE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The marker c holds before the kernel runs (and the guard elements after
 * c[n-1] hold throughout): a quiet NaN with a payload of its own. */
#define LAB03_MARKER_BITS 0x7fc0deadu

enum { LAB03_OP_VEC_ADD = 1, LAB03_OP_GRID_STRIDE = 2, LAB03_OP_MAT_ADD = 3 };

/* One run: the data's shape and the launch the launcher reported. */
typedef struct lab03_run {
    int op;           /* LAB03_OP_* */
    long long n;      /* elements of c */
    long long h, w;   /* rows and columns (mat_add) */
    long long gx, gy; /* blocks in the grid */
    long long bx, by; /* threads in a block */
} lab03_run;

/* Whether x still holds the marker: no thread wrote it. */
static inline int lab03_unwritten(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof(bits));
    return bits == LAB03_MARKER_BITS;
}

/* Marks in `mask` (n bytes, zeroed) the elements the run's threads would
 * write with a swapped index: i = threadIdx.x * blockDim.x + blockIdx.x in
 * 1-D, row and column exchanged in 2-D (with the bounds check kept). */
static inline void lab03_swapped_set(const lab03_run *r, unsigned char *mask)
{
    if (r->op == LAB03_OP_MAT_ADD) {
        for (long long y = 0; y < r->gy * r->by; y++)
            for (long long x = 0; x < r->gx * r->bx; x++) /* row from x, column from y */
                if (x < r->h && y < r->w)
                    mask[x * r->w + y] = 1;
        return;
    }
    for (long long b = 0; b < r->gx; b++)
        for (long long t = 0; t < r->bx; t++) {
            long long i = t * r->bx + b;
            if (i < r->n)
                mask[i] = 1;
        }
}

/* Whether exactly the elements a swapped index writes were written (and
 * that is not every element, which a right index writes too). */
static inline int lab03_looks_swapped(const lab03_run *r, const float *c)
{
    unsigned char *mask = (unsigned char *)calloc((size_t)(r->n ? r->n : 1), 1);
    int same = mask != NULL, all = 1;
    if (!mask)
        return 0;
    lab03_swapped_set(r, mask);
    for (long long i = 0; same && i < r->n; i++) {
        same = mask[i] == !lab03_unwritten(c[i]);
        all = all && mask[i];
    }
    free(mask);
    return same && !all;
}

/* The block and thread that own element i with the right index, as text. */
static inline void lab03_owner(char *buf, size_t len, const lab03_run *r, long long i)
{
    if (r->op == LAB03_OP_MAT_ADD) {
        long long row = i / r->w, col = i % r->w;
        snprintf(buf, len, "block (%lld, %lld), thread (%lld, %lld)", col / r->bx, row / r->by,
                 col % r->bx, row % r->by);
    } else if (r->op == LAB03_OP_GRID_STRIDE) {
        long long s = r->gx * r->bx, k = i % s;
        snprintf(buf, len,
                 "block %lld, thread %lld (on its loop's step %lld, i = %lld + %lld * %lld)",
                 k / r->bx, k % r->bx, i / s, k, i / s, s);
    } else {
        snprintf(buf, len,
                 "block %lld, thread %lld: i = blockIdx.x * blockDim.x + threadIdx.x = %lld * %lld "
                 "+ %lld",
                 i / r->bx, i % r->bx, i / r->bx, r->bx, i % r->bx);
    }
}

/*
 * Compares c with want (an element is right when |c - want| <= rtol |want|)
 * and says what the difference shows: `brief` for a table cell ("ok" when
 * every element is right), `detail` one or two sentences with the evidence
 * and the TODO it points at ("" when right). Returns 1 when every element is
 * right.
 */
static inline int lab03_diagnose(const lab03_run *r, const float *c, const float *want, double rtol,
                                 char *brief, size_t brief_len, char *detail, size_t detail_len)
{
    const int op = r->op;
    const char *kernel = op == LAB03_OP_VEC_ADD       ? "TODO 2, vec_add_kernel"
                         : op == LAB03_OP_GRID_STRIDE ? "TODO 3, vec_add_grid_stride_kernel"
                                                      : "TODO 4, mat_add_kernel";
    const char *todo = op == LAB03_OP_VEC_ADD       ? "TODO 2"
                       : op == LAB03_OP_GRID_STRIDE ? "TODO 3"
                                                    : "TODO 4";
    long long bad = 0, unwritten = 0, first_unwritten = -1, first_wrong = -1;
    long long launched = r->gx * r->gy * r->bx * r->by;
    /* The part of c the grid reaches with one element per thread: a prefix
     * in 1-D, a top-left rectangle in 2-D (the grid-stride loop reaches all). */
    long long reach_x = r->gx * r->bx, reach_y = r->gy * r->by, outside = 0, outside_bad = 0;
    char who[160];

    for (long long i = 0; i < r->n; i++) {
        int out = op == LAB03_OP_VEC_ADD   ? i >= launched
                  : op == LAB03_OP_MAT_ADD ? (i % r->w >= reach_x || i / r->w >= reach_y)
                                           : 0;
        outside += out;
        if (fabs((double)c[i] - (double)want[i]) <= rtol * fabs((double)want[i]))
            continue;
        bad++;
        if (lab03_unwritten(c[i])) {
            unwritten++;
            if (first_unwritten < 0 && !out)
                first_unwritten = i;
            outside_bad += out;
        } else if (first_wrong < 0) {
            first_wrong = i;
        }
    }
    detail[0] = '\0';
    if (bad == 0) {
        snprintf(brief, brief_len, "ok");
        return 1;
    }

    /* Nothing written at all. */
    if (unwritten == r->n && launched == 0) {
        snprintf(brief, brief_len, "WRONG: nothing launched (%s)",
                 op == LAB03_OP_MAT_ADD ? "TODO 5" : "TODO 1");
        snprintf(detail, detail_len,
                 "no thread was launched (a grid of %lld x %lld blocks) for %lld elements, so "
                 "no element of c was written: %s",
                 r->gx, r->gy, r->n,
                 op == LAB03_OP_MAT_ADD ? "the grid must be ceil(w / 16) x ceil(h / 16) (TODO 5)"
                                        : "blocks = ceil(n / threads) must round up (TODO 1, "
                                          "ceil_div)");
        return 0;
    }
    if (unwritten == r->n) {
        snprintf(brief, brief_len, "WRONG: no thread wrote c (%s)", todo);
        snprintf(detail, detail_len,
                 "%lld threads were launched, but no element of c was written (every one still "
                 "holds the harness's fill): is the kernel still the stub (%s)?",
                 launched, kernel);
        return 0;
    }

    /* A grid too small, and nothing else wrong: exactly the elements it
     * does not reach are unwritten. */
    if (outside > 0 && outside_bad == outside && bad == outside) {
        if (op == LAB03_OP_MAT_ADD) {
            snprintf(brief, brief_len, "WRONG: grid too small (TODO 5)");
            snprintf(detail, detail_len,
                     "the %lld x %lld grid of %lld x %lld blocks reaches only columns 0..%lld and "
                     "rows 0..%lld of the (%lld, %lld) matrix, and exactly the %lld elements "
                     "outside were never written: the grid must be ceil(w / 16) x ceil(h / 16) = "
                     "%lld x %lld (TODO 5, mat_add_grid)",
                     r->gx, r->gy, r->bx, r->by, (reach_x < r->w ? reach_x : r->w) - 1,
                     (reach_y < r->h ? reach_y : r->h) - 1, r->h, r->w, outside,
                     (r->w + r->bx - 1) / r->bx, (r->h + r->by - 1) / r->by);
        } else {
            snprintf(brief, brief_len, "WRONG: grid too small (TODO 1)");
            snprintf(detail, detail_len,
                     "c[%lld] .. c[%lld] were never written: %lld blocks x %lld threads = %lld "
                     "threads reach only the first %lld of %lld elements; blocks must be "
                     "ceil(%lld / %lld) = %lld (TODO 1, ceil_div)",
                     launched, r->n - 1, r->gx, r->bx, launched, launched, r->n, r->n, r->bx,
                     (r->n + r->bx - 1) / r->bx);
        }
        return 0;
    }

    /* The grid reaches the element, yet it is unwritten or wrong: the
     * kernel maps its threads to the wrong elements. */
    size_t at = 0;
    if (outside > 0)
        at = (size_t)snprintf(detail, detail_len,
                              "the grid is too small (%lld elements out of its reach: %s), and "
                              "besides, ",
                              outside, op == LAB03_OP_MAT_ADD ? "TODO 5" : "TODO 1");
    if (at >= detail_len)
        at = detail_len - 1;
    if (first_unwritten >= 0) {
        lab03_owner(who, sizeof(who), r, first_unwritten);
        snprintf(brief, brief_len, "WRONG: %lld never written (%s)", unwritten - outside_bad, todo);
        int swapped = lab03_looks_swapped(r, c);
        if (op == LAB03_OP_MAT_ADD)
            snprintf(detail + at, detail_len - at,
                     "%lld elements were never written although the grid reaches them: the index "
                     "maps threads to the wrong elements. C[%lld][%lld] belongs to %s: column "
                     "from the x parts, row from the y parts, C[row * w + col] (%s)%s",
                     unwritten - outside_bad, first_unwritten / r->w, first_unwritten % r->w, who,
                     kernel,
                     swapped ? "; the elements written are exactly those with row and column "
                               "swapped"
                             : "");
        else if (op == LAB03_OP_GRID_STRIDE)
            snprintf(detail + at, detail_len - at,
                     "%lld elements were never written, first c[%lld]: the grid's %lld threads "
                     "must cover every element by striding; c[%lld] belongs to %s: start at "
                     "blockIdx.x * blockDim.x + threadIdx.x and step by blockDim.x * gridDim.x "
                     "while i < n (%s)",
                     unwritten, first_unwritten, launched, first_unwritten, who, kernel);
        else
            snprintf(detail + at, detail_len - at,
                     "%lld elements were never written although the %lld x %lld = %lld threads "
                     "%s: the index maps threads to the wrong elements. c[%lld] belongs to %s "
                     "(%s)%s",
                     unwritten - outside_bad, r->gx, r->bx, launched,
                     outside ? "reach them" : "cover all of c", first_unwritten, who, kernel,
                     swapped ? "; the elements written are exactly those of threadIdx.x * "
                               "blockDim.x + blockIdx.x: blockIdx.x and threadIdx.x are swapped"
                             : "");
        return 0;
    }
    lab03_owner(who, sizeof(who), r, first_wrong);
    snprintf(brief, brief_len, "WRONG: %lld of %lld wrong (%s)", bad, r->n, todo);
    if (op == LAB03_OP_MAT_ADD)
        snprintf(detail + at, detail_len - at,
                 "%lld of %lld elements hold a wrong value; the first, C[%lld][%lld], is %.9g, "
                 "want %.9g: %s must add A and B at the row * w + col it writes (%s)",
                 bad, r->n, first_wrong / r->w, first_wrong % r->w, c[first_wrong],
                 want[first_wrong], who, kernel);
    else
        snprintf(detail + at, detail_len - at,
                 "%lld of %lld elements hold a wrong value; the first, c[%lld], is %.9g, want "
                 "%.9g: %s must add a[i] and b[i] for the i it writes (%s)",
                 bad, r->n, first_wrong, c[first_wrong], want[first_wrong], who, kernel);
    return 0;
}

#endif
