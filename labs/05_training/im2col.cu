/*
 * im2col.cu - lab 05's im2col and col2im on the device (harness: you do not
 * edit it; device_train.cu calls them, im2col.h says what they compute).
 *
 * Kernels:
 *   im2col_kernel      cols (C*k*k, B*P; rows ld floats apart) from
 *                      x (B, C, H, W), B samples (a chunk); a thread per
 *                      column and four rows of an output plane writes each
 *                      pixel's k*k rows
 *   im2col_wide_kernel the same for 5 x 5 kernels over output rows of a
 *                      multiple of four floats (conv.0, conv.3, conv.5): a
 *                      thread per four pixels of a row, float4 stores
 *   col2im_kernel      dx (B, C, H, W) gathered from dcols; a thread per
 *                      column and four rows of an input plane, the four
 *                      sums side by side where the rows are inside
 *
 * The plain CPU loop im2col ports (the CPU trainer computes the same
 * products without building cols: cpu_train.c); col2im adds dcols back the
 * same way, each dx element summing the entries it was copied to:
 *
 *   for (b, c, oy, ox)                  // a thread per (c, b, ox, 4 oy)
 *       for (ki = 0; ki < k; ki++)
 *           for (kj = 0; kj < k; kj++) {
 *               iy = oy + ki - pad, ix = ox + kj - pad;
 *               cols[(c k + ki) k + kj][b P + oy OW + ox] =
 *                   inside(iy, ix) ? x[b][c][iy][ix] : 0;
 *           }
 */
#include "im2col.h"

#include "lab/check.h"

#include <cuda_runtime.h>

#define THREADS 256

/*
 * im2col and col2im run one thread per pixel column and four rows of a
 * plane: blockDim (width, R), grid (ceil(height / 4R), B, C); thread (x, y)
 * of block (i, b, c) does column x of rows 4(Ri + y) + j, j = 0..3. So
 * threadIdx and blockIdx give the column, row, sample and channel with no
 * division (five divisions per element cost more than the copy itself); at
 * each step the threads of a warp touch floats next to each other, as a
 * GPU's memory wants; and a thread's bookkeeping is shared by four pixels,
 * as the simulator (which runs each thread in turn) wants.
 */
#define L5_ROWS_PER_THREAD 4 /* col2im_kernel's four sums side by side assume 4 */

/* R rows of threads: at most THREADS in a block, and no more than a plane's
 * height needs (conv.8's 4 x 4 outputs get a block of 4 threads, not 256
 * with most of them idle). */
static dim3 plane_block(int width, int height)
{
    int rows = THREADS / width, need = (height + L5_ROWS_PER_THREAD - 1) / L5_ROWS_PER_THREAD;
    rows = rows < need ? rows : need;
    return dim3((unsigned int)width, (unsigned int)(rows > 0 ? rows : 1));
}

static dim3 plane_grid(dim3 block, int height, int B, int C)
{
    int rows = (int)block.y * L5_ROWS_PER_THREAD;
    return dim3((unsigned int)((height + rows - 1) / rows), (unsigned int)B, (unsigned int)C);
}

/* cols (C*k*k, B*P): one thread per output column ox and four rows of
 * sample b, channel c, writing each pixel's k*k rows (c, ki, kj). */
__global__ void im2col_kernel(float *cols, size_t BP, const float *x, int C, int H, int W, int k,
                              int pad, int OH, int OW)
{
    int ox = threadIdx.x, b = blockIdx.y, c = blockIdx.z;
    int ix0 = ox - pad, cols_in = ix0 >= 0 && ix0 + k <= W;
    const float *plane = x + ((size_t)b * C + c) * H * W;
    float *base = cols + (size_t)c * k * k * BP + (size_t)b * OH * OW + ox;
    for (int j = 0; j < L5_ROWS_PER_THREAD; j++) {
        int oy = (blockIdx.x * blockDim.y + threadIdx.y) * L5_ROWS_PER_THREAD + j;
        if (oy >= OH)
            return;
        int iy0 = oy - pad;
        float *out = base + oy * OW;
        if (cols_in && iy0 >= 0 && iy0 + k <= H) {
            /* the window wholly inside the input (every pixel of an
             * unpadded layer): a plain copy, no test per element */
            const float *in = plane + iy0 * W + ix0;
            for (int ki = 0; ki < k; ki++)
                for (int kj = 0; kj < k; kj++, out += BP)
                    *out = in[ki * W + kj];
            continue;
        }
        for (int ki = 0; ki < k; ki++) {
            int iy = iy0 + ki, row_ok = iy >= 0 && iy < H;
            for (int kj = 0; kj < k; kj++, out += BP) {
                int ix = ix0 + kj;
                *out = row_ok && ix >= 0 && ix < W ? plane[iy * W + ix] : 0.0f;
            }
        }
    }
}

/*
 * im2col for a 5 x 5 kernel over output rows of a multiple of four floats
 * (conv.0, conv.3, conv.5): a thread takes four output pixels ox0..ox0+3 of
 * a row, whose five windows span the input columns ox0-pad .. ox0-pad+7 of
 * each window row. Where the input rows and the padding are multiples of
 * four floats too (conv.0, conv.5) those eight are two aligned float4
 * loads; else (conv.3) eight loads of 4 bytes. Then five 16-byte stores,
 * one per cols row (floats kj..kj+3 of the eight), where the kernel above
 * makes 20 stores of 4 bytes for the same four pixels: fewer, wider
 * accesses on a GPU, and on the simulator (which runs one thread at a time)
 * a quarter of the threads and vector copies. blockDim (OW / 4, rows), grid
 * (ceil(OH / rows), B, C); the threads of a warp still touch neighbouring
 * floats.
 */
#define L5_K5 5

static int im2col_wide_fits(const l5_layer *l)
{
    return l->k == L5_K5 && l->ow % 4 == 0;
}

__global__ void im2col_wide_kernel(float *cols, size_t BP, const float *x, int C, int H, int W,
                                   int pad, int OH, int OW)
{
    int ox0 = threadIdx.x * 4, oy = blockIdx.x * blockDim.y + threadIdx.y;
    int b = blockIdx.y, c = blockIdx.z;
    if (oy >= OH)
        return;
    const float *plane = x + ((size_t)b * C + c) * H * W;
    float *out = cols + (size_t)c * L5_K5 * L5_K5 * BP + (size_t)b * OH * OW + oy * OW + ox0;
    int ix0 = ox0 - pad;
    /* rows and padding of a multiple of four floats: ix0 is one too, each
     * float4 of the input wholly inside a row or outside */
    int aligned = pad % 4 == 0 && W % 4 == 0;
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int ki = 0; ki < L5_K5; ki++, out += L5_K5 * BP) {
        int iy = oy - pad + ki;
        const float *row = plane + iy * W;
        int row_ok = iy >= 0 && iy < H;
        float4 a, e; /* columns ix0 .. ix0 + 3 and ix0 + 4 .. ix0 + 7 of the row */
        if (aligned) {
            a = row_ok && ix0 >= 0 && ix0 < W ? *(const float4 *)(row + ix0) : zero;
            e = row_ok && ix0 + 4 >= 0 && ix0 + 4 < W ? *(const float4 *)(row + ix0 + 4) : zero;
        } else {
            float v[8];
            for (int j = 0; j < 8; j++)
                v[j] = row_ok && ix0 + j >= 0 && ix0 + j < W ? row[ix0 + j] : 0.0f;
            a = make_float4(v[0], v[1], v[2], v[3]);
            e = make_float4(v[4], v[5], v[6], v[7]);
        }
        /* the five windows' rows (kj = 0..4): floats kj .. kj + 3 of a, e */
        *(float4 *)out = a;
        *(float4 *)(out + BP) = make_float4(a.y, a.z, a.w, e.x);
        *(float4 *)(out + 2 * BP) = make_float4(a.z, a.w, e.x, e.y);
        *(float4 *)(out + 3 * BP) = make_float4(a.w, e.x, e.y, e.z);
        *(float4 *)(out + 4 * BP) = e;
    }
}

/* Each input pixel (ix, iy) of sample b, channel c sums the dcols entries it
 * was copied to (no atomics); a thread does column ix of four rows. */
__global__ void col2im_kernel(float *dx, const float *dcols, size_t BP, int C, int H, int W, int k,
                              int pad, int OH, int OW)
{
    int ix = threadIdx.x, b = blockIdx.y, c = blockIdx.z;
    const float *rows = dcols + (size_t)c * k * k * BP + (size_t)b * OH * OW + ix + pad;
    float *out = dx + ((size_t)b * C + c) * H * W + ix;
    /* the output columns this input column reaches: ox = ix + pad - kj
     * inside [0, OW) for kj in [kj_lo, kj_hi]; the same for rows and ki.
     * Each pixel sums its terms in the order (ki, kj), skipping those
     * outside. */
    int kj_lo = ix + pad - OW + 1 > 0 ? ix + pad - OW + 1 : 0;
    int kj_hi = ix + pad < k - 1 ? ix + pad : k - 1;
    int iy0 = (blockIdx.x * blockDim.y + threadIdx.y) * L5_ROWS_PER_THREAD;
    int last = iy0 + L5_ROWS_PER_THREAD - 1;
    if (iy0 + pad >= k - 1 && last + pad <= OH - 1 && last < H) {
        /* all four rows reach k output rows: their sums side by side, each
         * in the same (ki, kj) order, four independent additions at a time
         * instead of one chain */
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        for (int ki = 0; ki < k; ki++) {
            const float *r = rows + (size_t)ki * k * BP + (iy0 + pad - ki) * OW;
            for (int kj = kj_lo; kj <= kj_hi; kj++) {
                const float *e = r + (size_t)kj * BP - kj; /* row j's term at e[j * OW] */
                s0 += e[0];
                s1 += e[OW];
                s2 += e[2 * OW];
                s3 += e[3 * OW];
            }
        }
        out[iy0 * W] = s0;
        out[(iy0 + 1) * W] = s1;
        out[(iy0 + 2) * W] = s2;
        out[(iy0 + 3) * W] = s3;
        return;
    }
    for (int j = 0; j < L5_ROWS_PER_THREAD; j++) {
        int iy = iy0 + j;
        if (iy >= H)
            return;
        int ki_lo = iy + pad - OH + 1 > 0 ? iy + pad - OH + 1 : 0;
        int ki_hi = iy + pad < k - 1 ? iy + pad : k - 1;
        float sum = 0.0f;
        for (int ki = ki_lo; ki <= ki_hi; ki++) {
            const float *r = rows + (size_t)ki * k * BP + (iy + pad - ki) * OW;
            for (int kj = kj_lo; kj <= kj_hi; kj++)
                sum += r[(size_t)kj * BP - kj];
        }
        out[iy * W] = sum;
    }
}

// ----------------------------------------------------------------------------
// launchers

void l5_im2col(float *cols, size_t ld, const l5_layer *l, const float *x, int Bc)
{
    if (im2col_wide_fits(l)) {
        /* a thread per four pixels of a row; at most a plane's height of rows */
        int quads = l->ow / 4, rows = THREADS / quads < l->oh ? THREADS / quads : l->oh;
        dim3 block((unsigned int)quads, (unsigned int)rows);
        dim3 grid((unsigned int)((l->oh + rows - 1) / rows), (unsigned int)Bc, (unsigned int)l->c);
        im2col_wide_kernel<<<grid, block>>>(cols, ld, x, l->c, l->h, l->w, l->pad, l->oh, l->ow);
    } else {
        dim3 block = plane_block(l->ow, l->oh);
        im2col_kernel<<<plane_grid(block, l->oh, Bc, l->c), block>>>(cols, ld, x, l->c, l->h, l->w,
                                                                     l->k, l->pad, l->oh, l->ow);
    }
    LAB_CHECK_LAUNCH();
}

void l5_col2im(float *dx, const float *dcols, size_t ld, const l5_layer *l, int Bc)
{
    dim3 block = plane_block(l->w, l->h);
    col2im_kernel<<<plane_grid(block, l->h, Bc, l->c), block>>>(dx, dcols, ld, l->c, l->h, l->w,
                                                                l->k, l->pad, l->oh, l->ow);
    LAB_CHECK_LAUNCH();
}
