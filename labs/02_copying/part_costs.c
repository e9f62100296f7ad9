/*
 * Lab 02's harness (students do not edit it): parts 3 and 4 of the run, what
 * copies cost — the bandwidth sweep, pageable against pinned, one copy
 * against 4 KiB pieces (a table and bandwidth.svg), and the log kept on the
 * device against a norm copied to the host every step (costs.cu). Every time
 * says what produced it (lab02_clock_label).
 */
#include "copying.h"
#include "harness.h"

#include "lab/compare.h"
#include "lab/device.h"
#include "lab/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * 3. what copies cost
 */

/* Seconds for one copy_in_pieces on the lab02_run's clock, the least of `reps`
 * runs after one warm-up; *wall (if not NULL) gets the least CPU wall clock. */
static double time_copy(const lab02_run *r, void *dst, const void *src, size_t bytes, size_t piece,
                        enum cudaMemcpyKind kind, int reps, cudaError_t *e, double *wall)
{
    double best = INFINITY, best_wall = INFINITY;
    *e = copy_in_pieces(dst, src, bytes, piece, kind);
    for (int i = 0; i < reps && *e == cudaSuccess; i++) {
        lab02_stopwatch w;
        double cpu;
        lab02_stopwatch_start(&w, r);
        *e = copy_in_pieces(dst, src, bytes, piece, kind);
        double t = lab02_stopwatch_stop(&w, &cpu);
        best = t < best ? t : best;
        best_wall = cpu < best_wall ? cpu : best_wall;
    }
    if (wall)
        *wall = *e == cudaSuccess ? best_wall : NAN;
    return *e == cudaSuccess ? best : NAN;
}

/* The four columns of the sweep, in the order of sweep.npy. */
static const char *const column_names[4] = { "H2D pageable", "H2D pinned", "D2H pageable",
                                             "D2H pinned" };

void lab02_part_bandwidth(lab02_run *r, const size_t *sizes, int n, size_t pieces_bytes,
                          const char *svg_path, double *sweep /* n x 5, or NULL */)
{
    size_t max = pieces_bytes;
    for (int i = 0; i < n; i++)
        if (sizes[i] > max)
            max = sizes[i];
    printf("\n== 3. what copies cost (%s)\n", lab02_clock_label(r));
    void *h_page = host_alloc(max, 0), *h_pin = host_alloc(max, 1), *d_buf = NULL;
    void *h_check = malloc(max);
    cudaError_t e = cudaMalloc(&d_buf, max);
    if (!h_page || !h_pin || !h_check || e != cudaSuccess) {
        printf("  cannot allocate %zu bytes on the host and the device\n", max);
        r->failed = 1;
        goto free_all;
    }
    for (size_t i = 0; i < max; i++) /* touch every page, and a pattern to check */
        ((unsigned char *)h_page)[i] = ((unsigned char *)h_pin)[i] = (unsigned char)(i * 131 + 7);

    struct cudaPointerAttributes attr;
    int pinned_ok =
        cudaPointerGetAttributes(&attr, h_pin) == cudaSuccess && attr.type == cudaMemoryTypeHost;
    cudaGetLastError();
    lab02_fact_bool(r, "pinned_is_pinned", pinned_ok);
    lab02_expect(
        r, pinned_ok, "pinned buffer",
        "host_alloc(bytes, 1) in costs.cu must use cudaMallocHost (cudaPointerGetAttributes "
        "says the buffer is not pinned)");

    double *secs = calloc((size_t)n * 4, sizeof(double));
    double *gbs[4];
    double *xs = calloc((size_t)n, sizeof(double));
    for (int c = 0; c < 4; c++)
        gbs[c] = calloc((size_t)n, sizeof(double));
    if (!secs || !xs || !gbs[0] || !gbs[1] || !gbs[2] || !gbs[3]) {
        r->failed = 1;
        goto free_sweep;
    }
    char label[32];
    if (r->gpu)
        printf("  (modeled: each copy's bytes over the %s's PCIe link - pinned at 80%% of\n"
               "  it, pageable at half that, as it is staged - plus a cost per call; see\n"
               "  docs/model.md. GPULAB_SIM_MODEL=off shows the simulator's CPU figures)\n",
               r->gpu);
    printf("  %-9s %14s %14s %14s %14s   (GB/s = 1e9 bytes/s; least time of several runs)\n",
           "size", column_names[0], column_names[1], column_names[2], column_names[3]);
    for (int i = 0; i < n && e == cudaSuccess; i++) {
        size_t b = sizes[i];
        size_t budget = r->sim ? ((size_t)32 << 20) : ((size_t)512 << 20);
        int reps = (int)(budget / b);
        reps = reps < 3 ? 3 : reps > 30 ? 30 : reps;
        for (int c = 0; c < 4 && e == cudaSuccess; c++) {
            void *host = (c & 1) ? h_pin : h_page;
            int h2d = c < 2;
            secs[i * 4 + c] =
                time_copy(r, h2d ? d_buf : host, h2d ? host : d_buf, b, b,
                          h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, reps, &e, NULL);
            gbs[c][i] = b / secs[i * 4 + c] / 1e9;
        }
        xs[i] = (double)b;
        lab_plot_format_bytes(label, sizeof(label), (double)b);
        printf("  %-9s %14.2f %14.2f %14.2f %14.2f\n", label, gbs[0][i], gbs[1][i], gbs[2][i],
               gbs[3][i]);
        if (sweep) {
            sweep[i * 5] = (double)b;
            for (int c = 0; c < 4; c++)
                sweep[i * 5 + 1 + c] = secs[i * 4 + c];
        }
    }
    if (r->sim && !r->facts && n > 0 && sizes[n - 1] < ((size_t)256 << 20))
        printf("  (to %s on the simulator, to keep the demo short; --big sweeps to 256 MiB)\n",
               label);
    if (e != cudaSuccess) {
        printf("  a copy failed: %s\n", cudaGetErrorName(e));
        lab02_expect(r, 0, "sweep", "copy_in_pieces in costs.cu returned an error");
    }

    /* The plot. */
    lab_plot_series series[4] = { { column_names[0], "#1f77b4", gbs[0] },
                                  { column_names[1], "#ff7f0e", gbs[1] },
                                  { column_names[2], "#2ca02c", gbs[2] },
                                  { column_names[3], "#d62728", gbs[3] } };
    char title[160], note[256];
    lab_device_info info;
    if (lab_device_info_query(&info, 0, NULL) != LAB_OK)
        snprintf(info.name, sizeof(info.name), "device 0");
    snprintf(title, sizeof(title), "Host-device copy bandwidth, %s backend", lab_backend_name());
    if (r->gpu)
        snprintf(note, sizeof(note),
                 "SIMULATOR with its performance model: MODELED %.60s figures, not measured;\n"
                 "see docs/model.md (GPULAB_SIM_MODEL=off shows the simulator's CPU figures)",
                 r->gpu);
    else if (r->sim)
        snprintf(note, sizeof(note),
                 "SIMULATOR FIGURES, not a GPU's: CPU memcpy inside one process, timed by the\n"
                 "CPU wall clock (%.60s); no PCIe bus is involved",
                 info.name);
    else
        snprintf(note, sizeof(note),
                 "%.80s: cudaMemcpy timed by the CPU wall clock\n(least time of several runs)",
                 info.name);
    lab_plot_spec spec = { title,
                           note,
                           "transfer size (bytes, log scale)",
                           "bandwidth (GB/s, 1 GB = 10^9 bytes)",
                           LAB_PLOT_X_BYTES,
                           0,
                           xs,
                           n,
                           series,
                           4 };
    lab_error perr;
    if (lab_plot_svg(svg_path, &spec, &perr) == LAB_OK) {
        char where[4200];
        lab_plot_where(where, sizeof(where), svg_path);
        printf("  plot: %s (open it in a web browser)\n", where);
    } else
        lab02_expect(r, 0, "plot", perr.msg);

    /* One copy vs the same bytes in pieces (pinned, host to device). */
    if (e == cudaSuccess) {
        cudaError_t e1, e2;
        double one_wall, many_wall;
        double one = time_copy(r, d_buf, h_pin, pieces_bytes, pieces_bytes, cudaMemcpyHostToDevice,
                               3, &e1, &one_wall);
        cudaMemset(d_buf, 0, pieces_bytes);
        double many = time_copy(r, d_buf, h_pin, pieces_bytes, LAB02_PIECE, cudaMemcpyHostToDevice,
                                2, &e2, &many_wall);
        int same =
            e2 == cudaSuccess &&
            cudaMemcpy(h_check, d_buf, pieces_bytes, cudaMemcpyDeviceToHost) == cudaSuccess &&
            memcmp(h_check, h_pin, pieces_bytes) == 0;
        lab_plot_format_bytes(label, sizeof(label), (double)pieces_bytes);
        printf("  %s host -> device, pinned: one cudaMemcpy %.3f ms; %zu pieces of %d bytes "
               "%.3f ms (%.1fx)\n",
               label, one * 1e3, (pieces_bytes + LAB02_PIECE - 1) / LAB02_PIECE, LAB02_PIECE,
               many * 1e3, many / one);
        if (r->gpu)
            printf("  (modeled %s; the same copies took %.3f ms and %.3f ms of CPU wall clock)\n",
                   r->gpu, one_wall * 1e3, many_wall * 1e3);
        lab02_fact_number(r, "one_copy_s", one);
        lab02_fact_number(r, "pieces_s", many);
        lab02_fact_int(r, "pieces_bytes", (long long)pieces_bytes);
        lab02_fact_bool(r, "pieces_correct", same);
        lab02_expect(r, same, "copy in pieces",
                     "copy_in_pieces in costs.cu must copy every byte, piece by piece");
        lab02_expect(r, e1 == cudaSuccess && many > one, "pieces cost more",
                     "the same bytes in many copies should take longer than in one");
    }
    lab02_fact_string(r, "clock", lab02_clock_label(r));
free_sweep:
    for (int c = 0; c < 4; c++)
        free(gbs[c]);
    free(xs);
    free(secs);
free_all:
    free(h_check);
    cudaFree(d_buf);
    if (h_pin)
        host_free(h_pin, 1);
    if (h_page)
        host_free(h_page, 0);
}

/* ---------------------------------------------------------------------------
 * 4. logging: every step vs on the device
 */

/* A = s (I - 2uu')(I - 2vv') for unit u, v: an orthogonal matrix times s, so
 * each product multiplies the Frobenius norm by exactly s (up to rounding). */
void lab02_make_log_matrix(float *A, int n, float s, lab_rng *rng)
{
    double u[LAB02_LOG_N], v[LAB02_LOG_N], nu = 0, nv = 0, uv = 0;
    for (int i = 0; i < n; i++) {
        u[i] = lab_rng_normal(rng, 0.0f, 1.0f);
        v[i] = lab_rng_normal(rng, 0.0f, 1.0f);
        nu += u[i] * u[i];
        nv += v[i] * v[i];
    }
    for (int i = 0; i < n; i++) {
        u[i] /= sqrt(nu);
        v[i] /= sqrt(nv);
        uv += u[i] * v[i];
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i * n + j] =
                (float)(s * ((i == j) - 2 * u[i] * u[j] - 2 * v[i] * v[j] + 4 * uv * u[i] * v[j]));
}

void lab02_part_logging(lab02_run *r, const float *h_A, const float *h_X0, int n, int steps,
                        float *h_every, float *h_device)
{
    cublasHandle_t handle;
    float *d_A = NULL, *d_X = NULL, *d_Y = NULL;
    size_t bytes = (size_t)n * n * sizeof(float);
    printf("\n== 4. logging: %d products of %dx%d matrices, Frobenius norm of each (%s)\n", steps,
           n, n, lab02_clock_label(r));
    lab02_fill_nan(h_every, (size_t)steps);
    lab02_fill_nan(h_device, (size_t)steps);
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS ||
        cudaMalloc((void **)&d_A, bytes) != cudaSuccess ||
        cudaMalloc((void **)&d_X, bytes) != cudaSuccess ||
        cudaMalloc((void **)&d_Y, bytes) != cudaSuccess) {
        printf("  cannot set up cuBLAS and the matrices\n");
        r->failed = 1;
        return;
    }
    cudaMemcpy(d_A, h_A, bytes, cudaMemcpyHostToDevice);

    lab02_stopwatch w;
    double every_wall, ondev_wall;
    cudaMemcpy(d_X, h_X0, bytes, cudaMemcpyHostToDevice);
    lab02_stopwatch_start(&w, r);
    cudaError_t e1 = norms_every_step(h_every, handle, d_A, d_X, d_Y, n, steps);
    double every = lab02_stopwatch_stop(&w, &every_wall);

    cudaMemcpy(d_X, h_X0, bytes, cudaMemcpyHostToDevice);
    lab02_stopwatch_start(&w, r);
    cudaError_t e2 = norms_on_device(h_device, handle, d_A, d_X, d_Y, n, steps);
    cudaDeviceSynchronize();
    double ondev = lab02_stopwatch_stop(&w, &ondev_wall);

    lab_compare_report rep;
    int agree = lab_allclose_f32(&rep, h_device, h_every, (size_t)steps, 0.0, 1e-5, 0);
    printf("  norm copied to the host every step : %8.2f ms   (%s)\n", every * 1e3,
           cudaGetErrorName(e1));
    printf("  log kept on the device, copied once: %8.2f ms   (%s)  %.2fx\n", ondev * 1e3,
           cudaGetErrorName(e2), every / ondev);
    if (r->gpu)
        printf("  (modeled %s; CPU wall clock: every step %.2f ms, on the device %.2f ms)\n",
               r->gpu, every_wall * 1e3, ondev_wall * 1e3);
    printf("  norms: step 1 %.4f, step %d %.4f; the two logs %s\n", h_every[0], steps,
           h_every[steps - 1], agree ? "agree" : "DIFFER");
    if (!agree)
        lab_compare_print(stdout, &rep, "norms_on_device vs norms_every_step");
    lab02_fact_number(r, "log_every_step_s", every);
    lab02_fact_number(r, "log_on_device_s", ondev);
    lab02_fact_string(r, "log_every_step_error", cudaGetErrorName(e1));
    lab02_fact_string(r, "log_on_device_error", cudaGetErrorName(e2));
    lab02_expect(r, e1 == cudaSuccess && e2 == cudaSuccess && agree, "logging methods agree",
                 "norms_on_device in costs.cu must log the same norms as norms_every_step");
    cudaFree(d_A);
    cudaFree(d_X);
    cudaFree(d_Y);
    cublasDestroy(handle);
}
