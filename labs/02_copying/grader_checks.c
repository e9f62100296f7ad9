/* Lab 02 — "Copying" (labs/02_copying): the checks.
 *
 * The lab program runs each part whose inputs it finds (see its main.c):
 *   x.npy                  round trips      -> roundtrip_raw.npy, roundtrip_tensor.npy
 *   add_a.npy, add_b.npy   between devices  -> add.npy (and peer.npy with 2 devices)
 *   sizes.npy              what copies cost -> sweep.npy, bandwidth.svg
 *   log_a.npy, log_x0.npy  logging          -> norms_every_step.npy, norms_on_device.npy
 *   probe.npy              errors           -> facts only
 * Expected arrays are computed here: the round trips must return their input
 * bit for bit, the sums are the CPU's float sums (exact), and the logging
 * matrix is s times an orthogonal matrix, so the k-th norm is s^k ||X0||
 * (that check is in grader_checks_logging.c). */
#define _POSIX_C_SOURCE 200809L
#include "grader_checks.h"
#include "labs.h"

#include "lab/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const msg_prefix = "expected all tensors to be on the same device, but found at "
                                      "least two devices, ";

/* ---- shared helpers ------------------------------------------------------ */

/* Reads outdir/<name>.npy; 1 on success, else 0 with why. */
int lab02_read_output(lab_npy_array *a, const char *outdir, const char *name, char *why, size_t len)
{
    char path[4300];
    lab_error err;
    snprintf(path, sizeof(path), "%s/%s.npy", outdir, name);
    if (lab_npy_read(a, path, &err) != LAB_OK) {
        snprintf(why, len, "missing or unreadable %s.npy", name);
        return 0;
    }
    return 1;
}

/* The string fact key, or "" (never NULL); free with free(). */
static char *fact_text(const grade_json_object *r, const char *key)
{
    char *s = grade_json_get_string(r, key);
    return s ? s : calloc(1, 1);
}

static float *random_floats(size_t n, unsigned long long seed, unsigned long long stream, float lo,
                            float hi)
{
    lab_rng rng;
    float *x = malloc(sizeof(*x) * (n ? n : 1));
    if (!x)
        return NULL;
    lab_rng_seed(&rng, seed, stream);
    lab_rng_fill_uniform(&rng, x, n, lo, hi);
    return x;
}

/* ---- round trips --------------------------------------------------------- */

typedef struct roundtrip_ctx {
    size_t n;
    float x[]; /* the input, for the bit-for-bit comparison */
} roundtrip_ctx;

static int judge_roundtrip(const grade_case *c, const grade_json_object *r, const char *outdir,
                           const char *out, const char *err, char *why, size_t len)
{
    const roundtrip_ctx *x = c->ctx;
    const char *names[2] = { "roundtrip_raw", "roundtrip_tensor" };
    (void)r;
    (void)out;
    (void)err;
    for (int k = 0; k < 2; k++) {
        lab_npy_array a;
        if (!lab02_read_output(&a, outdir, names[k], why, len))
            return 0;
        int ok = a.count == x->n && memcmp(a.data, x->x, x->n * sizeof(float)) == 0;
        lab_npy_free(&a);
        if (!ok) {
            snprintf(why, len,
                     "%s.npy is close to the input but not bit for bit the same: a copy "
                     "must not change a single bit",
                     names[k]);
            return 0;
        }
    }
    return 1;
}

/* Task 1: x to the device and back. The row's argument: { n, under memcheck }. */
static int prepare_roundtrip(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const size_t n = (size_t)c->arg.i[0];
    c->memcheck = c->arg.i[1]; /* sim: no out-of-bounds access, no leak */
    size_t shape[1] = { n };
    float *x = random_floats(n, env->seed, 200 + n, -1e4f, 1e4f);
    roundtrip_ctx *ctx = malloc(sizeof(*ctx) + sizeof(float) * (n ? n : 1));
    float *w1 = malloc(sizeof(float) * n), *w2 = malloc(sizeof(float) * n);
    if (!x || !ctx || !w1 || !w2) {
        free(x);
        free(ctx);
        free(w1);
        free(w2);
        snprintf(why, len, "out of memory");
        return -1;
    }
    if (n >= 3) { /* values a careless copy (through double, or text) could change */
        x[1] = -0.0f;
        x[2] = 1e-40f; /* subnormal */
    }
    memcpy(w1, x, sizeof(float) * n);
    memcpy(w2, x, sizeof(float) * n);
    ctx->n = n;
    memcpy(ctx->x, x, sizeof(float) * n);
    c->ctx = ctx;
    c->judge = judge_roundtrip;
    int rc = grade_write_input(env, "x", LAB_DTYPE_F32, 1, shape, x, why, len);
    free(x);
    if (rc == 0)
        rc = grade_expect_output(c, "roundtrip_raw", LAB_DTYPE_F32, 1, shape, w1, 0, 0, why, len);
    else
        free(w1);
    if (rc == 0)
        rc =
            grade_expect_output(c, "roundtrip_tensor", LAB_DTYPE_F32, 1, shape, w2, 0, 0, why, len);
    else
        free(w2);
    grade_expect_fact_string(c, "roundtrip_raw_error", "cudaSuccess", "roundtrip_raw in copies.cu");
    grade_expect_fact_string(c, "roundtrip_tensor_status", "LAB_OK",
                             "roundtrip_tensor in copies.cu");
    return rc;
}

/* ---- between devices ----------------------------------------------------- */

typedef struct devices_ctx {
    size_t n;
    int sim;
    int want_devices; /* sim: the devices the run was given */
    float a[];        /* the input of the peer copy */
} devices_ctx;

static int judge_devices(const grade_case *c, const grade_json_object *r, const char *outdir,
                         const char *out, const char *err, char *why, size_t len)
{
    const devices_ctx *x = c->ctx;
    const char *dv = grade_json_get(r, "devices");
    int ndev = dv ? atoi(dv) : -1;
    char want[256];
    int ok = 1;
    (void)out;
    (void)err;
    if (x->sim && ndev != x->want_devices) {
        snprintf(why, len, "result.json: \"devices\" is %d; the run had %d simulated devices", ndev,
                 x->want_devices);
        return 0;
    }
    snprintf(want, sizeof(want), "%scuda:0 and %s", msg_prefix, ndev >= 2 ? "cuda:1" : "cpu");
    char *got = fact_text(r, "cross_device_error");
    if (strcmp(got, want) != 0) {
        snprintf(why, len,
                 "cross_device_error is \"%.100s\", expected \"%.180s\" — add_across_devices must "
                 "try the add first and keep its message",
                 got, want);
        ok = 0;
    }
    free(got);
    if (ok && ndev >= 2) {
        lab_npy_array p;
        if (!lab02_read_output(&p, outdir, "peer", why, len))
            return 0;
        ok = p.count == x->n && memcmp(p.data, x->a, x->n * sizeof(float)) == 0;
        lab_npy_free(&p);
        if (!ok)
            snprintf(why, len, "peer.npy is not add_a.npy bit for bit: peer_copy in copies.cu");
    }
    return ok;
}

/* Task 2: devices and the tensor. The row's argument: { simulated devices }. */
static int prepare_devices(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const int sim_devices = c->arg.i[0];
    const size_t n = 4099;
    size_t shape[1] = { n };
    float *a = random_floats(n, env->seed, 300, -10.0f, 10.0f);
    float *b = random_floats(n, env->seed, 301, -1.0f, 1.0f);
    float *sum = malloc(sizeof(float) * n);
    devices_ctx *ctx = malloc(sizeof(*ctx) + sizeof(float) * n);
    int rc = -1;
    if (!a || !b || !sum || !ctx) {
        snprintf(why, len, "out of memory");
        free(sum);
        free(ctx);
        goto free_ab;
    }
    for (size_t i = 0; i < n; i++)
        sum[i] = a[i] + b[i];
    ctx->n = n;
    ctx->sim = strcmp(env->backend, "sim") == 0;
    ctx->want_devices = sim_devices;
    memcpy(ctx->a, a, sizeof(float) * n);
    c->ctx = ctx;
    c->judge = judge_devices;
    if (ctx->sim) {
        char v[8];
        snprintf(v, sizeof(v), "%d", sim_devices);
        grade_case_setenv(c, "GPULAB_SIM_DEVICES", v);
    }
    if (grade_write_input(env, "add_a", LAB_DTYPE_F32, 1, shape, a, why, len) ||
        grade_write_input(env, "add_b", LAB_DTYPE_F32, 1, shape, b, why, len)) {
        free(sum);
        goto free_ab;
    }
    rc = grade_expect_output(c, "add", LAB_DTYPE_F32, 1, shape, sum, 0, 0, why, len);
    grade_expect_fact(c, "devices", "the harness writes it");
    grade_expect_fact_string(c, "cross_device_add_status", "LAB_OK",
                             "add_across_devices: move b to a's device, then add");
    if (sim_devices >= 2)
        grade_expect_fact_string(c, "peer_copy_error", "cudaSuccess", "peer_copy in copies.cu");
    grade_expect_fact_bool(c, "to_same_device_is_same", 1,
                           "lab_tensor_to on a tensor's own device must return that tensor");
free_ab:
    free(a);
    free(b);
    return rc;
}

/* ---- errors -------------------------------------------------------------- */

static int write_probe(grade_case *c, const grade_env *env, char *why, size_t len)
{
    lab_rng rng;
    size_t shape[1] = { 1 };
    lab_rng_seed(&rng, env->seed, 500);
    float probe = (float)(int)lab_rng_uniform_range(&rng, 10.0f, 1000.0f) + 0.25f;
    if (strcmp(env->backend, "sim") == 0)
        grade_case_setenv(c, "GPULAB_SIM_DEVICES", "1");
    return grade_write_input(env, "probe", LAB_DTYPE_F32, 0, shape, &probe, why, len);
}

static int judge_host_read(const grade_case *c, const grade_json_object *r, const char *outdir,
                           const char *out, const char *err, char *why, size_t len)
{
    char *outcome = fact_text(r, "host_read_outcome"), *sig = fact_text(r, "host_read_signal");
    const char *v = grade_json_get(r, "host_read_value"),
               *p = grade_json_get(r, "host_read_expected");
    int sim = c->ctx != NULL, ok = 0;
    (void)outdir;
    (void)out;
    (void)err;
    if (!strcmp(outcome, "value") && v && p && strtod(v, NULL) == strtod(p, NULL))
        ok = !sim; /* a system whose CPU can read GPU memory */
    else if (!strcmp(outcome, "signal") && (!strcmp(sig, "SIGSEGV") || !strcmp(sig, "SIGBUS")))
        ok = 1; /* a PCIe GPU, and the simulator */
    if (!ok) {
        if (!strcmp(outcome, "value") && sim)
            snprintf(why, len,
                     "host_reads_device returned %.40s without reading device memory (on the "
                     "simulator, as on a GPU, that read kills the process with SIGSEGV) — it "
                     "must return d_x[0]",
                     v ? v : "nothing");
        else if (!strcmp(outcome, "value"))
            snprintf(why, len,
                     "host_reads_device returned %.40s, but the device holds %.40s — it must "
                     "return d_x[0]",
                     v ? v : "nothing", p ? p : "?");
        else
            snprintf(why, len,
                     "host read: outcome \"%.40s\"%s%.40s — host_reads_device in "
                     "errors.cu must return d_x[0]",
                     outcome, sig[0] ? ", signal " : "", sig);
    }
    free(outcome);
    free(sig);
    return ok;
}

static int errors_host_read(grade_case *c, const grade_env *env, char *why, size_t len)
{
    c->judge = judge_host_read;
    if (strcmp(env->backend, "sim") == 0) {
        c->ctx = malloc(1); /* non-NULL: on the simulator the read must fault */
        if (!c->ctx) {
            snprintf(why, len, "out of memory");
            return -1;
        }
    }
    grade_expect_fact(c, "host_read_outcome", "host_reads_device in errors.cu");
    return write_probe(c, env, why, len);
}

static int errors_copies(grade_case *c, const grade_env *env, char *why, size_t len)
{
    grade_expect_fact_string(c, "wrong_direction", "cudaErrorInvalidValue",
                             "provoke_wrong_direction in errors.cu");
    grade_expect_fact_string(c, "copy_too_large", "cudaErrorInvalidValue",
                             "provoke_copy_too_large in errors.cu");
    grade_expect_fact_string(c, "use_after_free", "cudaErrorInvalidValue",
                             "provoke_use_after_free in errors.cu");
    grade_expect_fact_string(c, "missing_device", "cudaErrorInvalidDevice",
                             "provoke_missing_device in errors.cu");
    return write_probe(c, env, why, len);
}

static int judge_sticky(const grade_case *c, const grade_json_object *r, const char *outdir,
                        const char *out, const char *err, char *why, size_t len)
{
    const char *pg = grade_json_get(r, "pageable_memory_access");
    /* A GPU that can use pageable host memory (HMM/ATS) runs the kernel fine. */
    const char *want =
        pg && !strcmp(pg, "true") && !c->ctx ? "cudaSuccess" : "cudaErrorIllegalAddress";
    const char *keys[3] = { "kernel_host_pointer", "sticky_later_call", "after_reset" };
    const char *wants[3] = { want, want, "cudaSuccess" };
    const char *hints[3] = {
        "launch write_ids_kernel with h_p, then cudaDeviceSynchronize",
        "a cudaMalloc after the fault must fail with the same (sticky) error",
        "cudaDeviceReset, then cudaMalloc must work again",
    };
    (void)outdir;
    (void)out;
    (void)err;
    for (int k = 0; k < 3; k++) {
        char *got = fact_text(r, keys[k]);
        int ok = !strcmp(got, wants[k]);
        if (!ok)
            snprintf(why, len, "result.json: \"%s\" is \"%.60s\", expected \"%s\" — %s", keys[k],
                     got, wants[k], hints[k]);
        free(got);
        if (!ok)
            return 0;
    }
    return 1;
}

static int errors_sticky(grade_case *c, const grade_env *env, char *why, size_t len)
{
    c->judge = judge_sticky;
    if (strcmp(env->backend, "sim") == 0) {
        c->ctx = malloc(1); /* non-NULL: the simulator always faults */
        if (!c->ctx) {
            snprintf(why, len, "out of memory");
            return -1;
        }
    }
    grade_expect_fact(c, "kernel_host_pointer", "provoke_kernel_host_pointer in errors.cu");
    return write_probe(c, env, why, len);
}

/* ---- what copies cost ---------------------------------------------------- */

#define N_SIZES 6 /* 4 KiB, 16 KiB, ..., 4 MiB */

static const char *const columns[4] = { "H2D pageable", "H2D pinned", "D2H pageable",
                                        "D2H pinned" };

static int judge_sweep(const grade_case *c, const grade_json_object *r, const char *outdir,
                       const char *out, const char *err, char *why, size_t len)
{
    lab_npy_array s;
    int ok = 1;
    (void)c;
    (void)r;
    (void)out;
    (void)err;
    if (!lab02_read_output(&s, outdir, "sweep", why, len))
        return 0;
    if (s.dtype != LAB_DTYPE_F64 || s.ndim != 2 || s.shape[0] != N_SIZES || s.shape[1] != 5) {
        snprintf(why, len, "sweep.npy must be float64 of shape (%d, 5)", N_SIZES);
        lab_npy_free(&s);
        return 0;
    }
    const double *t = s.data;
    for (int i = 0; ok && i < N_SIZES; i++) {
        if (t[i * 5] != (double)(4096u << (2 * i))) {
            snprintf(why, len, "sweep.npy row %d is for %g bytes, not the %u of sizes.npy", i,
                     t[i * 5], 4096u << (2 * i));
            ok = 0;
        }
        for (int k = 1; ok && k < 5; k++)
            if (!(t[i * 5 + k] > 0 && isfinite(t[i * 5 + k]))) {
                snprintf(why, len, "sweep.npy: the %s time for %g bytes is %g, not a positive time",
                         columns[k - 1], t[i * 5], t[i * 5 + k]);
                ok = 0;
            }
    }
    /* Monotonic where it must be: from 256 KiB up, copying 4x the bytes
     * cannot take less time; and over the whole range the bandwidth must
     * grow (each copy's fixed cost is spread over more bytes). The times are
     * measured on a machine that may be busy: a 4x copy is allowed down to
     * 0.7 of the smaller one's time before it counts as faster, which a copy
     * of the whole size never is. */
    for (int k = 1; ok && k < 5; k++) {
        for (int i = 3; ok && i + 1 < N_SIZES; i++)
            if (t[(i + 1) * 5 + k] < 0.7 * t[i * 5 + k]) {
                snprintf(why, len,
                         "%s: copying %g bytes took less time (%.3g s) than %g bytes "
                         "(%.3g s) — is each size copied whole?",
                         columns[k - 1], t[(i + 1) * 5], t[(i + 1) * 5 + k], t[i * 5],
                         t[i * 5 + k]);
                ok = 0;
            }
        double bw0 = t[0] / t[k], bw1 = t[(N_SIZES - 1) * 5] / t[(N_SIZES - 1) * 5 + k];
        if (ok && !(bw1 > bw0)) {
            snprintf(why, len,
                     "%s: the bandwidth at 4 MiB (%.3g GB/s) is not above the one at 4 KiB "
                     "(%.3g GB/s)",
                     columns[k - 1], bw1 / 1e9, bw0 / 1e9);
            ok = 0;
        }
    }
    lab_npy_free(&s);
    return ok;
}

static int judge_plot(const grade_case *c, const grade_json_object *r, const char *outdir,
                      const char *out, const char *err, char *why, size_t len)
{
    char path[4300];
    static char text[1 << 16];
    const char *backend = c->ctx;
    (void)r;
    (void)out;
    (void)err;
    snprintf(path, sizeof(path), "%s/bandwidth.svg", outdir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, len, "no bandwidth.svg next to the outputs");
        return 0;
    }
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    char want[64];
    snprintf(want, sizeof(want), "%s backend", backend);
    if (!strstr(text, "<svg") || !strstr(text, "</svg>") || !strstr(text, "<polyline")) {
        snprintf(why, len, "bandwidth.svg is not a complete SVG chart");
        return 0;
    }
    if (!strstr(text, want) || !strstr(text, "GB/s") || !strstr(text, "bytes")) {
        snprintf(why, len, "bandwidth.svg must name the backend (\"%s\") and its units", want);
        return 0;
    }
    if (!strcmp(backend, "sim") && !strstr(text, "SIMULATOR")) {
        snprintf(why, len,
                 "bandwidth.svg made on the simulator must say its figures are simulated");
        return 0;
    }
    return 1;
}

static int write_sizes(const grade_env *env, char *why, size_t len)
{
    long long sizes[N_SIZES];
    size_t shape[1] = { N_SIZES };
    for (int i = 0; i < N_SIZES; i++)
        sizes[i] = 4096ll << (2 * i);
    return grade_write_input(env, "sizes", LAB_DTYPE_I64, 1, shape, sizes, why, len);
}

/* The timing checks: on sim the copies are timed on the performance model's
 * clock (a T4's: the same figures however busy the machine is); on a GPU they
 * are measured, and a check runs up to three times before it fails. */
static void timed(grade_case *c, const grade_env *env)
{
    c->attempts = 3;
    if (!strcmp(env->backend, "sim"))
        grade_case_setenv(c, "GPULAB_SIM_MODEL", "t4");
}

static int cost_sweep(grade_case *c, const grade_env *env, char *why, size_t len)
{
    timed(c, env);
    c->judge = judge_sweep;
    grade_expect_fact(c, "clock", "the harness says what measured the times");
    return write_sizes(env, why, len);
}

static int cost_pinned_pieces(grade_case *c, const grade_env *env, char *why, size_t len)
{
    grade_expect_fact_bool(c, "pinned_is_pinned", 1,
                           "host_alloc(bytes, 1) in costs.cu must use cudaMallocHost");
    grade_expect_fact_bool(c, "pieces_correct", 1,
                           "copy_in_pieces in costs.cu must copy every byte, piece by piece");
    /* 1024 copies of 4 KiB cannot beat one copy of 4 MiB: at least 2x slower. */
    grade_expect_fact(c, "one_copy_s", NULL);
    grade_expect_fact(c, "pieces_s", NULL);
    return write_sizes(env, why, len);
}

static int judge_pieces_slower(const grade_case *c, const grade_json_object *r, const char *outdir,
                               const char *out, const char *err, char *why, size_t len)
{
    const char *one = grade_json_get(r, "one_copy_s"), *many = grade_json_get(r, "pieces_s");
    (void)c;
    (void)outdir;
    (void)out;
    (void)err;
    if (!one || !many) {
        snprintf(why, len, "result.json lacks %s", one ? "pieces_s" : "one_copy_s");
        return 0;
    }
    double t_one = strtod(one, NULL), t_many = strtod(many, NULL);
    if (!(t_many > 2 * t_one)) {
        snprintf(why, len,
                 "4 KiB pieces took %.3g s against %.3g s for one copy: expected "
                 "clearly slower — copy_in_pieces must make one cudaMemcpy per piece",
                 t_many, t_one);
        return 0;
    }
    return 1;
}

static int cost_pieces(grade_case *c, const grade_env *env, char *why, size_t len)
{
    int rc = cost_pinned_pieces(c, env, why, len);
    timed(c, env);
    c->judge = judge_pieces_slower;
    return rc;
}

static int cost_plot(grade_case *c, const grade_env *env, char *why, size_t len)
{
    c->judge = judge_plot;
    c->ctx = strdup(env->backend);
    if (!c->ctx) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    return write_sizes(env, why, len);
}

/* One row per check: name, points, seconds, prepare, { its argument }. */
// clang-format off
static const grade_check checks[] = {
    { "round trip, n = 1, bit for bit", 2, 60, prepare_roundtrip, { { 1, 0 } } },
    { "round trip, n = 5467, bit for bit, under memcheck", 3, 120, prepare_roundtrip, { { 5467, 1 } } },
    { "round trip, n = 1000003, bit for bit", 3, 60, prepare_roundtrip, { { 1000003, 0 } } },
    { "cross-device add cuda:0 + cpu refused and fixed; no-op to", 3, 60, prepare_devices, { { 1 } } },
    { "peer copy and cross-device add on 2 devices", 4, 60, prepare_devices, { { 2 } } },
    { "error: host code reads a device pointer", 3, 60, errors_host_read },
    { "errors: wrong direction, too large, freed, no such device", 4, 60, errors_copies },
    { "error: kernel given a host pointer, sticky, reset", 4, 60, errors_sticky },
    { "bandwidth sweep 4 KiB..4 MiB present and monotonic", 3, 120, cost_sweep },
    { "pinned buffer, one copy vs 4 KiB pieces", 3, 120, cost_pieces },
    { "bandwidth plot (SVG: axes, units, backend)", 2, 120, cost_plot },
    { "logging: norms every step and on the device agree", 5, 120, lab02_logging },
};
// clang-format on

const grade_lab grade_lab_lab02 = {
    .name = "lab02",
    .title = "copying: data on devices, the errors, what copies cost",
    .checks = checks,
    .n_checks = GRADE_COUNT(checks),
    .dir = "02_copying",
};
