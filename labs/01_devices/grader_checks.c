/* Lab 01 — "Do I have a GPU?" (labs/01_devices): the checks.
 *
 * Expected facts come from the grader's reference tool,
 * <bin>/lab01-<backend>-reference (labs/01_devices/reference.c): the kit's
 * own device query (lab/device.h), built for the same backend, run by the
 * grader under the same environment as the student's program
 * (GPULAB_SIM_DEVICES=1, 2, 4 or 0 on sim; CUDA_VISIBLE_DEVICES=-1 hides
 * every GPU on cuda), writing the same result.json keys. No student code is
 * in it, and its answer never reaches the student's directory. A judge then
 * compares the student's result.json with it key by key. The simulated
 * memory size (GPULAB_SIM_MEMORY_MB) follows the seed, so a report with
 * numbers typed in from the handout does not pass. */
#define _POSIX_C_SOURCE 200809L
#include "labs.h"
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the judge compares, and against what. */
typedef struct lab01_ctx {
    grade_json_object ref; /* the reference tool's facts */
    char setting[96];      /* the environment, for messages */
    int fields;            /* 2: every device field too; 1: count and status only; 0: none */
    int no_gpu;            /* 1: the reason must be named */
    int try_gpu, try_all;  /* 1: judge try_gpu.npy / try_all_gpus.npy */
    int probe[8];          /* the device numbers of probe.npy */
} lab01_ctx;

static void ctx_free(void *p)
{
    lab01_ctx *x = p;
    grade_json_free(&x->ref);
    free(x);
}

/* Runs the reference tool under envp and parses its reference.json into *out. */
static int run_reference(grade_json_object *out, const grade_env *env, const char *const *envp,
                         char *why, size_t len)
{
    char tool[4200], path[4300], detail[256];
    static char text[65536];
    grade_run run;
    lab_error err;
    grade_limits l;
    int rc = -1;

    snprintf(tool, sizeof(tool), "%s/lab01-%s-reference", env->bin, env->backend);
    if (access(tool, X_OK) != 0) {
        snprintf(why, len,
                 "the reference tool %s is not built (cmake --build <build> --target lab01)", tool);
        return -1;
    }
    memset(&l, 0, sizeof(l));
    l.wall_seconds = 60;
    l.cpu_seconds = 60;
    l.address_space = strcmp(env->backend, "cuda") == 0 ? 0 : (size_t)64 << 30;
    l.file_size = (size_t)1 << 20;
    l.max_processes = 256;
    l.output_bytes = 16 * 1024;
    const char *argv[] = { tool, NULL };
    grade_run_program(&run, &err, argv, envp, &l, NULL);
    if (run.end != GRADE_EXITED || run.exit_status != 0) {
        snprintf(why, len, "the reference tool failed: %.300s %.100s", run.reason,
                 run.err ? run.err : "");
        goto free_run;
    }
    snprintf(path, sizeof(path), "%s/reference.json", run.workdir);
    int fd = open(path, O_RDONLY | O_NOFOLLOW);
    ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);
    if (fd >= 0)
        close(fd);
    if (n < 0) {
        snprintf(why, len, "the reference tool wrote no reference.json: %s", strerror(errno));
        goto free_run;
    }
    if (grade_json_parse_object(out, text, (size_t)n, detail, sizeof(detail)) != 0) {
        snprintf(why, len, "the reference tool's reference.json is not JSON: %s", detail);
        goto free_run;
    }
    rc = 0;
free_run:
    grade_run_free(&run);
    return rc;
}

/* Where each field comes from, for the reason of a mismatch. */
static const char *field_hint(const char *key)
{
    static const struct {
        const char *suffix, *hint;
    } hints[] = {
        { "_name", "TODO 2: cudaDeviceProp.name" },
        { "_cc_major", "TODO 2: cudaDeviceProp.major" },
        { "_cc_minor", "TODO 2: cudaDeviceProp.minor" },
        { "_sm_count", "TODO 2: cudaDeviceProp.multiProcessorCount" },
        { "_max_threads_per_block", "TODO 2: cudaDeviceProp.maxThreadsPerBlock" },
        { "_warp_size", "TODO 2: cudaDeviceProp.warpSize" },
        { "_global_mem_bytes", "TODO 2: cudaDeviceProp.totalGlobalMem" },
        { "_shared_mem_per_block", "TODO 2: cudaDeviceProp.sharedMemPerBlock" },
        { "_l2_cache_bytes", "TODO 2: cudaDeviceProp.l2CacheSize" },
        { "_memory_clock_khz", "TODO 2: cudaDeviceGetAttribute(cudaDevAttrMemoryClockRate)" },
        { "_memory_bus_width_bits", "TODO 2: cudaDeviceProp.memoryBusWidth" },
        { "_mem_total_bytes", "TODO 2: cudaMemGetInfo after cudaSetDevice(i)" },
        { "_mem_free_bytes", "TODO 2: cudaMemGetInfo after cudaSetDevice(i)" },
        { "_mem_used_bytes", "TODO 2: cudaMemGetInfo after cudaSetDevice(i)" },
        { "_error", "TODO 2: device_query must succeed for every counted device" },
        { "device_count", "TODO 1: cudaGetDeviceCount" },
        { "gpu_usable", "TODO 1: cudaGetDeviceCount" },
        { "status", "TODO 1: classify the error of cudaGetDeviceCount" },
        { "runtime_version", "TODO 1: cudaRuntimeGetVersion" },
        { "driver_version", "TODO 1: cudaDriverGetVersion" },
    };
    size_t kl = strlen(key);
    for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
        size_t sl = strlen(hints[i].suffix);
        if (kl >= sl && strcmp(key + kl - sl, hints[i].suffix) == 0)
            return hints[i].hint;
    }
    return "see devices.h";
}

static int is_device_key(const char *key)
{
    return strncmp(key, "device", 6) == 0 && key[6] >= '0' && key[6] <= '9';
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Numbers compare as numbers; free and used memory within 64 MiB + 2% of the total
 * (other programs allocate between the two runs); the rest exactly. */
static int same_value(const grade_json_object *ref, const char *key, const char *got,
                      const char *want)
{
    char *e1, *e2;
    double a = strtod(got, &e1), b = strtod(want, &e2);
    int numbers = e1 != got && !*e1 && e2 != want && !*e2;
    if (!numbers)
        return strcmp(got, want) == 0;
    if (ends_with(key, "_mem_free_bytes") || ends_with(key, "_mem_used_bytes")) {
        char total_key[64];
        snprintf(total_key, sizeof(total_key), "%.*s_mem_total_bytes",
                 (int)(strchr(key, '_') - key), key);
        const char *t = grade_json_get(ref, total_key);
        double total = t ? strtod(t, NULL) : 0;
        double slack = 64.0 * 1024 * 1024 + total / 50;
        return a >= b - slack && a <= b + slack;
    }
    return a == b;
}

static int ref_devices(const lab01_ctx *x)
{
    const char *v = grade_json_get(&x->ref, "device_count");
    return v ? atoi(v) : 0;
}

/* "cpu" or "cuda:i" for the encoded device (-1: the CPU). */
static const char *dev_name(char *buf, size_t len, int enc)
{
    if (enc < 0)
        snprintf(buf, len, "cpu");
    else
        snprintf(buf, len, "cuda:%d", enc);
    return buf;
}

/* Reads outdir/<name>.npy as int32 of one dimension; 0 with why when it is not. */
static int read_i32(lab_npy_array *a, const char *outdir, const char *name, char *why, size_t len)
{
    char path[4200];
    lab_error err;
    snprintf(path, sizeof(path), "%s/%s.npy", outdir, name);
    if (lab_npy_read(a, path, &err) != LAB_OK) {
        snprintf(why, len, "%s.npy: %.300s", name, err.msg);
        return 0;
    }
    if (a->dtype != LAB_DTYPE_I32 || a->ndim != 1) {
        snprintf(why, len, "%s.npy must be a 1-D int32 array", name);
        lab_npy_free(a);
        return 0;
    }
    return 1;
}

static int judge_try_gpu(const lab01_ctx *x, const char *outdir, char *why, size_t len)
{
    lab_npy_array a;
    char g[32], w[32];
    int n = ref_devices(x), ok = 1;
    if (!read_i32(&a, outdir, "try_gpu", why, len))
        return 0;
    if (a.count != 8) {
        snprintf(why, len, "try_gpu.npy has %zu entries, expected 8 (one per probe)", a.count);
        ok = 0;
    }
    for (size_t k = 0; ok && k < 8; k++) {
        int got = ((const int *)a.data)[k], i = x->probe[k];
        int want = i >= 0 && i < n ? i : -1;
        if (got != want) {
            snprintf(why, len,
                     "try_gpu(%d) gave %s, expected %s: there %s %d GPU%s%s — TODO 3 in devices.c",
                     i, dev_name(g, sizeof(g), got), dev_name(w, sizeof(w), want),
                     n == 1 ? "is" : "are", n, n == 1 ? "" : "s", x->setting);
            ok = 0;
        }
    }
    lab_npy_free(&a);
    return ok;
}

static int judge_try_all(const lab01_ctx *x, const char *outdir, char *why, size_t len)
{
    lab_npy_array a;
    char want[160] = "", got[160] = "", name[32];
    int n = ref_devices(x), m = n > 0 ? n : 1;
    size_t wl = 0, gl = 0;
    if (!read_i32(&a, outdir, "try_all_gpus", why, len))
        return 0;
    int ok = a.count == (size_t)m;
    for (int k = 0; k < m && wl < sizeof(want); k++)
        wl += (size_t)snprintf(want + wl, sizeof(want) - wl, "%s%s", k ? ", " : "",
                               dev_name(name, sizeof(name), n > 0 ? k : -1));
    for (size_t k = 0; k < a.count && gl < sizeof(got); k++) {
        int v = ((const int *)a.data)[k];
        gl += (size_t)snprintf(got + gl, sizeof(got) - gl, "%s%s", k ? ", " : "",
                               dev_name(name, sizeof(name), v));
        if (ok && v != (n > 0 ? (int)k : -1))
            ok = 0;
    }
    if (!ok)
        snprintf(why, len, "try_all_gpus() gave [%s], expected [%s]%s — TODO 4 in devices.c", got,
                 want, x->setting);
    lab_npy_free(&a);
    return ok;
}

static int judge(const grade_case *c, const grade_json_object *result, const char *outdir,
                 const char *out_text, const char *err_text, char *why, size_t len)
{
    const lab01_ctx *x = c->ctx;
    (void)out_text;
    (void)err_text;
    for (size_t i = 0; i < x->ref.n; i++) {
        const char *key = x->ref.members[i].key, *want = x->ref.members[i].value;
        if (!x->fields || !strcmp(key, "reason") || (x->fields < 2 && is_device_key(key)))
            continue;
        const char *got = grade_json_get(result, key);
        if (!got) {
            snprintf(why, len, "result.json has no \"%s\" (%s); the reference query reads %.60s%s",
                     key, field_hint(key), want, x->setting);
            return 0;
        }
        if (!same_value(&x->ref, key, got, want)) {
            snprintf(why, len, "\"%s\" is %.80s, the reference query reads %.80s%s — %s", key, got,
                     want, x->setting, field_hint(key));
            return 0;
        }
    }
    if (x->no_gpu) {
        char *reason = grade_json_get_string(result, "reason");
        size_t n = reason ? strlen(reason) : 0;
        free(reason);
        if (n < 15) {
            snprintf(why, len,
                     "no GPU%s, but the reason is %s: gpu_check must say why in "
                     "out->reason (TODO 1: lab_gpu_explain)",
                     x->setting, n ? "too short to tell" : "empty");
            return 0;
        }
    }
    if (x->try_gpu && !judge_try_gpu(x, outdir, why, len))
        return 0;
    if (x->try_all && !judge_try_all(x, outdir, why, len))
        return 0;
    return 1;
}

/* Sets the environment of the case and of the reference run, runs the reference. */
static int prepare_ref(grade_case *c, const grade_env *env, const char *sim_devices, int fields,
                       int no_gpu, char *why, size_t len)
{
    char mem[32];
    const char *envp[4];
    int n = 0;
    lab01_ctx *x = calloc(1, sizeof(*x));
    if (!x) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    /* 1 to 4.5 GiB of simulated memory per device, from the seed. */
    snprintf(mem, sizeof(mem), "GPULAB_SIM_MEMORY_MB=%llu", 1024 + 512 * (env->seed % 8));
    grade_case_setenv(c, "GPULAB_SIM_DEVICES", sim_devices);
    grade_case_setenv(c, "GPULAB_SIM_MEMORY_MB", mem + strlen("GPULAB_SIM_MEMORY_MB="));
    char devs[48];
    snprintf(devs, sizeof(devs), "GPULAB_SIM_DEVICES=%s", sim_devices);
    envp[n++] = devs;
    envp[n++] = mem;
    if (no_gpu) {
        grade_case_setenv(c, "CUDA_VISIBLE_DEVICES", "-1");
        envp[n++] = "CUDA_VISIBLE_DEVICES=-1";
    }
    envp[n] = NULL;
    if (!strcmp(env->backend, "sim"))
        snprintf(x->setting, sizeof(x->setting), " with GPULAB_SIM_DEVICES=%s", sim_devices);
    else if (no_gpu)
        snprintf(x->setting, sizeof(x->setting), " with CUDA_VISIBLE_DEVICES=-1");
    x->fields = fields;
    x->no_gpu = no_gpu;
    c->ctx = x;
    c->ctx_free = ctx_free;
    c->judge = judge;
    return run_reference(&x->ref, env, envp, why, len);
}

/* probe.npy, the input every run reads: device numbers for try_gpu. */
static int write_probe(grade_case *c, const grade_env *env, int judge_it, char *why, size_t len)
{
    lab01_ctx *x = c->ctx;
    int probe[8] = { 0, 1, 2, 3, -1, -2, 5 + (int)(env->seed % 11), 1000 };
    size_t shape[1] = { 8 };
    memcpy(x->probe, probe, sizeof(probe));
    x->try_gpu = judge_it;
    return grade_write_input(env, "probe", LAB_DTYPE_I32, 1, shape, probe, why, len);
}

static int expect_try_all(grade_case *c, char *why, size_t len)
{
    lab01_ctx *x = c->ctx;
    (void)why;
    (void)len;
    x->try_all = 1;
    return 0;
}

static int found(grade_case *c, const grade_env *env, char *why, size_t len)
{
    if (prepare_ref(c, env, "1", 1, 0, why, len))
        return -1;
    return write_probe(c, env, 0, why, len);
}

/* The report of every device; the row's argument: .s = the device count. */
static int fields_n(grade_case *c, const grade_env *env, char *why, size_t len)
{
    if (prepare_ref(c, env, c->arg.s, 2, 0, why, len))
        return -1;
    return write_probe(c, env, 0, why, len);
}

static int try_gpu(grade_case *c, const grade_env *env, char *why, size_t len)
{
    if (prepare_ref(c, env, "2", 0, 0, why, len))
        return -1;
    return write_probe(c, env, 1, why, len);
}

static int try_all(grade_case *c, const grade_env *env, char *why, size_t len)
{
    if (prepare_ref(c, env, "4", 0, 0, why, len) || write_probe(c, env, 0, why, len))
        return -1;
    return expect_try_all(c, why, len);
}

static int no_gpu(grade_case *c, const grade_env *env, char *why, size_t len)
{
    if (prepare_ref(c, env, "0", 1, 1, why, len) || write_probe(c, env, 1, why, len))
        return -1;
    grade_expect_fact_bool(c, "gpu_usable", 0, "every GPU is hidden");
    grade_expect_fact_int(c, "device_count", 0, "every GPU is hidden");
    return expect_try_all(c, why, len);
}

// clang-format off
static const grade_check checks[] = {
    { "a GPU is found and counted (GPULAB_SIM_DEVICES=1 on sim)", 2, 60, found },
    { "device report matches the reference query, 1 device", 3, 60, fields_n, { .s = "1" } },
    { "device report matches the reference query, 2 devices (sim)", 3, 60, fields_n, { .s = "2" } },
    { "device report matches the reference query, 4 devices (sim)", 3, 60, fields_n, { .s = "4" } },
    { "try_gpu(i) within and beyond the device count (2 on sim)", 3, 60, try_gpu },
    { "try_all_gpus() lists every device (4 on sim)", 2, 60, try_all },
    { "no GPU: falls back to the CPU and names the reason", 4, 60, no_gpu },
};
// clang-format on

const grade_lab grade_lab_lab01 = {
    .name = "lab01",
    .title = "Do I have a GPU? (device query and fallbacks)",
    .checks = checks,
    .n_checks = GRADE_COUNT(checks),
    .dir = "01_devices",
};
