// 61_textures — texture objects: a 2D float array read with point and
// linear filtering, in texel and normalized coordinates, with clamp, wrap,
// mirror and border addressing; a pitched 2D unsigned-int texture; uchar4
// texels read as normalized floats; tex1Dfetch from linear memory. Every
// expected value is computed on the host from the Programming Guide's
// texture-fetching rules (the linear weights used are exact in the
// hardware's 8 fractional bits).
#include "conformance.h"

#define W 8
#define H 6
#define PROBES 16

static float value(int x, int y)
{
    return (float)(x + 10 * y);
}

// out[k] = the texture read at coordinates (xs[k], ys[k]).
__global__ void read2d(cudaTextureObject_t t, const float *xs, const float *ys, float *out, int n)
{
    int k = threadIdx.x;
    if (k < n)
        out[k] = tex2D<float>(t, xs[k], ys[k]);
}

__global__ void read_uint(cudaTextureObject_t t, unsigned *out)
{
    int x = threadIdx.x, y = threadIdx.y;
    // Two texels past each edge: clamped.
    out[y * (W + 4) + x] = tex2D<unsigned>(t, (float)x - 2 + 0.5f, (float)y - 2 + 0.5f);
}

__global__ void read_uchar4(cudaTextureObject_t t, float4 *out)
{
    out[threadIdx.x] = tex2D<float4>(t, threadIdx.x + 0.5f, 0.5f);
}

__global__ void fetch1d(cudaTextureObject_t t, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(t, i - 1); // one before the start and past the end: 0
}

static cudaTextureObject_t make_tex(cudaArray_t a, cudaTextureFilterMode filter,
                                    cudaTextureAddressMode mode, int normalized)
{
    cudaResourceDesc res;
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = mode;
    td.filterMode = filter;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = normalized;
    cudaTextureObject_t t = 0;
    CHECK_CUDA(cudaCreateTextureObject(&t, &res, &td, NULL));
    return t;
}

// Reads PROBES coordinates through t and checks them against want.
static void probe(cudaTextureObject_t t, const float *xs, const float *ys, const float *want,
                  const char *what)
{
    float *dx, *dy, *dout, got[PROBES];
    CHECK_CUDA(cudaMalloc(&dx, sizeof(float) * PROBES));
    CHECK_CUDA(cudaMalloc(&dy, sizeof(float) * PROBES));
    CHECK_CUDA(cudaMalloc(&dout, sizeof(float) * PROBES));
    CHECK_CUDA(cudaMemcpy(dx, xs, sizeof(float) * PROBES, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dy, ys, sizeof(float) * PROBES, cudaMemcpyHostToDevice));
    read2d<<<1, PROBES>>>(t, dx, dy, dout, PROBES);
    CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
    for (int k = 0; k < PROBES; k++)
        conf_check(fabsf(got[k] - want[k]) < 1e-4f, "%s: at (%g, %g) read %g, expected %g", what,
                   xs[k], ys[k], got[k], want[k]);
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(dout);
}

static int clampi(int i, int n)
{
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

int main(void)
{
    conf_require_device();
    static float img[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x] = value(x, y);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    conf_check(fd.x == 32 && fd.y == 0 && fd.f == cudaChannelFormatKindFloat, "float channel desc");
    cudaArray_t arr;
    CHECK_CUDA(cudaMallocArray(&arr, &fd, W, H, 0));
    CHECK_CUDA(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H,
                                   cudaMemcpyHostToDevice));
    float xs[PROBES], ys[PROBES], want[PROBES];

    // Point filtering, texel coordinates, clamp: centres and outside.
    for (int k = 0; k < PROBES; k++) {
        int x = k % 10 - 1, y = k / 3 - 1;
        xs[k] = x + 0.5f;
        ys[k] = y + 0.5f;
        want[k] = value(clampi(x, W), clampi(y, H));
    }
    cudaTextureObject_t t = make_tex(arr, cudaFilterModePoint, cudaAddressModeClamp, 0);
    probe(t, xs, ys, want, "point, clamp");
    CHECK_CUDA(cudaDestroyTextureObject(t));

    // Linear filtering a quarter texel right and down of a centre.
    for (int k = 0; k < PROBES; k++) {
        int x = k % (W - 1), y = k % (H - 1);
        xs[k] = x + 0.75f;
        ys[k] = y + 0.75f;
        want[k] = 0.75f * 0.75f * value(x, y) + 0.25f * 0.75f * value(x + 1, y) +
                  0.75f * 0.25f * value(x, y + 1) + 0.25f * 0.25f * value(x + 1, y + 1);
    }
    t = make_tex(arr, cudaFilterModeLinear, cudaAddressModeClamp, 0);
    probe(t, xs, ys, want, "linear, clamp");
    CHECK_CUDA(cudaDestroyTextureObject(t));

    // Normalized coordinates: wrap one period to the right, mirror to the left.
    for (int k = 0; k < PROBES; k++) {
        int x = k % W, y = k % H;
        xs[k] = 1.0f + (x + 0.5f) / W;
        ys[k] = (y + 0.5f) / H;
        want[k] = value(x, y);
    }
    t = make_tex(arr, cudaFilterModePoint, cudaAddressModeWrap, 1);
    probe(t, xs, ys, want, "point, wrap");
    CHECK_CUDA(cudaDestroyTextureObject(t));
    for (int k = 0; k < PROBES; k++) {
        int x = k % W, y = k % H;
        xs[k] = -(x + 0.5f) / W; // the mirror image of texel x
        ys[k] = (y + 0.5f) / H;
        want[k] = value(x, y);
    }
    t = make_tex(arr, cudaFilterModePoint, cudaAddressModeMirror, 1);
    probe(t, xs, ys, want, "point, mirror");
    CHECK_CUDA(cudaDestroyTextureObject(t));
    // Border: outside reads the border colour (zero).
    for (int k = 0; k < PROBES; k++) {
        int x = k % 10 - 1, y = 2;
        xs[k] = x + 0.5f;
        ys[k] = y + 0.5f;
        want[k] = x < 0 || x >= W ? 0.0f : value(x, y);
    }
    t = make_tex(arr, cudaFilterModePoint, cudaAddressModeBorder, 0);
    probe(t, xs, ys, want, "point, border");
    CHECK_CUDA(cudaDestroyTextureObject(t));
    CHECK_CUDA(cudaFreeArray(arr));

    // A pitched 2D texture of unsigned ints, clamped.
    unsigned *pitched;
    size_t pitch;
    static unsigned hu[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            hu[y][x] = 1000u * y + x;
    CHECK_CUDA(cudaMallocPitch(&pitched, &pitch, W * sizeof(unsigned), H));
    CHECK_CUDA(cudaMemcpy2D(pitched, pitch, hu, W * sizeof(unsigned), W * sizeof(unsigned), H,
                            cudaMemcpyHostToDevice));
    cudaResourceDesc res;
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = pitched;
    res.res.pitch2D.desc = cudaCreateChannelDesc<unsigned>();
    res.res.pitch2D.width = W;
    res.res.pitch2D.height = H;
    res.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    CHECK_CUDA(cudaCreateTextureObject(&t, &res, &td, NULL));
    unsigned *du;
    static unsigned gu[(H + 4) * (W + 4)];
    CHECK_CUDA(cudaMalloc(&du, sizeof(gu)));
    read_uint<<<1, dim3(W + 4, H + 4)>>>(t, du);
    CHECK_CUDA(cudaMemcpy(gu, du, sizeof(gu), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < H + 4; y++)
        for (int x = 0; x < W + 4; x++)
            bad += gu[y * (W + 4) + x] != hu[clampi(y - 2, H)][clampi(x - 2, W)];
    conf_check(bad == 0, "pitched unsigned texture: %d wrong texels", bad);
    CHECK_CUDA(cudaDestroyTextureObject(t));
    CHECK_CUDA(cudaFree(du));
    CHECK_CUDA(cudaFree(pitched));

    // uchar4 texels read as normalized floats.
    uchar4 px[4] = { { 0, 255, 51, 102 }, { 255, 0, 0, 255 }, { 1, 2, 3, 4 }, { 128, 64, 32, 16 } };
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    conf_check(cd.x == 8 && cd.w == 8 && cd.f == cudaChannelFormatKindUnsigned, "uchar4 desc");
    CHECK_CUDA(cudaMallocArray(&arr, &cd, 4, 1, 0));
    CHECK_CUDA(
        cudaMemcpy2DToArray(arr, 0, 0, px, sizeof(px), sizeof(px), 1, cudaMemcpyHostToDevice));
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    td.readMode = cudaReadModeNormalizedFloat;
    CHECK_CUDA(cudaCreateTextureObject(&t, &res, &td, NULL));
    float4 *df4, got4[4];
    CHECK_CUDA(cudaMalloc(&df4, sizeof(got4)));
    read_uchar4<<<1, 4>>>(t, df4);
    CHECK_CUDA(cudaMemcpy(got4, df4, sizeof(got4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++)
        conf_check(fabsf(got4[i].x - px[i].x / 255.0f) < 1e-6f &&
                       fabsf(got4[i].w - px[i].w / 255.0f) < 1e-6f,
                   "uchar4 texel %d read as (%g, %g, %g, %g)", i, got4[i].x, got4[i].y, got4[i].z,
                   got4[i].w);
    CHECK_CUDA(cudaDestroyTextureObject(t));
    CHECK_CUDA(cudaFree(df4));
    CHECK_CUDA(cudaFreeArray(arr));

    // tex1Dfetch from linear memory: outside it, zero.
    float lin[8], got1[10], *dl, *d1;
    for (int i = 0; i < 8; i++)
        lin[i] = 1.5f * i + 1;
    CHECK_CUDA(cudaMalloc(&dl, sizeof(lin)));
    CHECK_CUDA(cudaMalloc(&d1, sizeof(got1)));
    CHECK_CUDA(cudaMemcpy(dl, lin, sizeof(lin), cudaMemcpyHostToDevice));
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = dl;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = sizeof(lin);
    td.readMode = cudaReadModeElementType;
    CHECK_CUDA(cudaCreateTextureObject(&t, &res, &td, NULL));
    fetch1d<<<1, 10>>>(t, d1, 10);
    CHECK_CUDA(cudaMemcpy(got1, d1, sizeof(got1), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 10; i++) {
        float w = i >= 1 && i <= 8 ? lin[i - 1] : 0.0f;
        conf_check(got1[i] == w, "tex1Dfetch(%d) read %g, expected %g", i - 1, got1[i], w);
    }
    CHECK_CUDA(cudaDestroyTextureObject(t));
    CHECK_CUDA(cudaFree(dl));
    CHECK_CUDA(cudaFree(d1));
    return conf_finish();
}
