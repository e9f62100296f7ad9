/*
 * model-check: the performance model (docs/model.md) against a GPU.
 *
 * It runs every lab kernel (the solutions' own: lab 03's vector adds, lab
 * 04's mat-vec versions, lab 05's layer kernels), lab 02's copies and the
 * cuBLAS calls of labs 04 and 05, each timed with CUDA events (warm-up, then
 * several runs, the median), and checks the rankings the lab lessons teach
 * (pinned beats pageable, one copy beats many pieces, v2 and v3 beat v1).
 *
 *   cuda backend  measures each on the GPU it finds, matches the device's name
 *                 to a profile of the model (--gpu to choose one), runs the
 *                 sim build (model-check-sim, beside this program) on that
 *                 profile for the modeled times, and prints measured, modeled
 *                 and their ratio; --out writes the table as Markdown.
 *   sim backend   reports the model alone: it runs itself once per profile
 *                 with GPULAB_SIM_MODEL set (the events then read the modeled
 *                 clock), one column per GPU.
 *
 * One source for both backends, built as model-check-cuda and model-check-sim
 * (tools/model-check/CMakeLists.txt): this file (profiles, options, main),
 * cases.cu (the timed cases) and report.cu (the model's side, the tables);
 * model_check.h holds what they share. `make model-check` runs the GPU
 * comparison and writes docs/model-validation-<profile>.md. docs/model-validation.md
 * explains it.
 */
#include "model_check.h"

#include "lab/check.h"
#include "lab/cuda_timer.h"
#include "lab/device.h"
#include "lab/protocol.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <string.h>

/* The model's profiles (sim/runtime/model.cpp) and the boards they match. */
const mc_profile profiles[] = {
    { "gtx1650", { "NVIDIA GeForce GTX 1650", NULL, NULL } },
    { "gtx1650-gddr6", { NULL, NULL, NULL } }, /* the same name: chosen with --gpu */
    { "gtx1650-super", { "NVIDIA GeForce GTX 1650 SUPER", NULL, NULL } },
    { "t4", { "Tesla T4", "NVIDIA T4", NULL } },
    { "l4", { "NVIDIA L4", NULL, NULL } },
    { "v100", { "Tesla V100-SXM2-16GB", "Tesla V100-SXM2-32GB", NULL } },
    { "v100-pcie", { "Tesla V100-PCIE-16GB", "Tesla V100-PCIE-32GB", NULL } },
    { "rtx3060", { "NVIDIA GeForce RTX 3060", NULL, NULL } },
    { "rtx4090", { "NVIDIA GeForce RTX 4090", NULL, NULL } },
    { "a100-40gb", { "NVIDIA A100-SXM4-40GB", NULL, NULL } },
    { "a100-80gb", { "NVIDIA A100-SXM4-80GB", NULL, NULL } },
    { "a100-40gb-pcie", { "NVIDIA A100-PCIE-40GB", NULL, NULL } },
    { "a100-80gb-pcie", { "NVIDIA A100 80GB PCIe", NULL, NULL } },
    { "h100-sxm", { "NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5", NULL } },
    { "h100-pcie", { "NVIDIA H100 PCIe", NULL, NULL } },
    { "h200", { "NVIDIA H200", NULL, NULL } },
};
/* Earlier names of profiles, as the model accepts them too. */
static const char *const aliases[][2] = {
    { "a100", "a100-40gb" },
    { "h100", "h100-sxm" },
    { "v100-sxm2", "v100" },
};
const int mc_profile_count = (int)(sizeof(profiles) / sizeof(profiles[0]));

mc_case cases[MC_MAX_CASES];
int ncases;
mc_rank ranks[16];
int nranks;

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--quick] [--gpu PROFILE] [--out FILE|DIR] [--reps N] [--sim PROGRAM]\n"
            "       %s --published [--gpu PROFILE]\n"
            "       %s --corpus FILE\n"
            "  Times every lab kernel, copy and cuBLAS call with CUDA events and compares\n"
            "  them with the performance model (docs/model-validation.md).\n"
            "  --quick       small sizes (seconds on the simulator)\n"
            "  --gpu P       cuda: compare with profile P instead of the one matching the\n"
            "                device; sim: model P only (default: every profile)\n"
            "  --out F       also write the table as Markdown to F; a folder gets\n"
            "                model-validation-<profile>.md (cuda) or model-validation-sim.md\n"
            "  --reps N      timed runs per case on a GPU (default 10, after 2 warm-up runs)\n"
            "  --sim P       cuda: the sim build to read modeled times from\n"
            "                (default: model-check-sim beside this program)\n"
            "  --published   sim: the modeled side of the comparisons with published\n"
            "                measurements in docs/model-validation.md\n"
            "  --corpus F    the corpus cases F lists, one a line (tools/model-check/corpus.cu),\n"
            "                as tab-separated lines: modeled on sim (GPULAB_SIM_MODEL set),\n"
            "                measured on a GPU; tools/model-check/corpus.py runs it\n"
            "  profiles:",
            argv0, argv0, argv0);
    for (int p = 0; p < MC_PROFILES; p++)
        fprintf(f, " %s", profiles[p].key);
    fprintf(f, "\n");
}

int profile_index(const char *key)
{
    for (size_t a = 0; a < sizeof(aliases) / sizeof(aliases[0]); a++)
        if (strcmp(aliases[a][0], key) == 0)
            key = aliases[a][1];
    for (int p = 0; p < MC_PROFILES; p++)
        if (strcmp(profiles[p].key, key) == 0)
            return p;
    return -1;
}

#if !MC_SIM
static int profile_of_device(const char *name)
{
    for (int p = 0; p < MC_PROFILES; p++)
        for (int i = 0; i < 3 && profiles[p].names[i]; i++)
            if (strcmp(profiles[p].names[i], name) == 0)
                return p;
    return -1;
}
#endif

int case_index(const char *lab, const char *what)
{
    for (int i = 0; i < ncases; i++)
        if (strcmp(cases[i].lab, lab) == 0 && strcmp(cases[i].what, what) == 0)
            return i;
    return -1;
}

void add_rank(const char *lab, const char *faster, const char *slower)
{
    if (nranks >= (int)(sizeof(ranks) / sizeof(ranks[0])))
        return;
    mc_rank *r = &ranks[nranks++];
    snprintf(r->lab, sizeof(r->lab), "%s", lab);
    snprintf(r->faster, sizeof(r->faster), "%s", faster);
    snprintf(r->slower, sizeof(r->slower), "%s", slower);
}

int main(int argc, char **argv)
{
    mc_options opt;
    memset(&opt, 0, sizeof(opt));
    opt.reps = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(a, "--quick") == 0) {
            opt.quick = 1;
        } else if (strcmp(a, "--tsv") == 0) {
            opt.tsv = 1;
        } else if (strcmp(a, "--published") == 0) {
            opt.published = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, argv[0]);
            return 0;
        } else if (has_value && strcmp(a, "--gpu") == 0) {
            opt.gpu = argv[++i];
        } else if (has_value && strcmp(a, "--out") == 0) {
            opt.out = argv[++i];
        } else if (has_value && strcmp(a, "--corpus") == 0) {
            opt.corpus = argv[++i];
        } else if (has_value && strcmp(a, "--sim") == 0) {
            opt.sim = argv[++i];
        } else if (has_value && strcmp(a, "--reps") == 0) {
            char *end;
            long r = strtol(argv[++i], &end, 10);
            if (*end || r < 1 || r > 1000) {
                fprintf(stderr, "model-check: --reps %s: give a whole number from 1 to 1000\n",
                        argv[i]);
                return 2;
            }
            opt.reps = (int)r;
        } else {
            fprintf(stderr, "model-check: %s: %s\n", a,
                    a[0] == '-' && !has_value ? "unknown option, or its value is missing"
                                              : "unknown argument");
            usage(stderr, argv[0]);
            return 2;
        }
    }
    if (opt.gpu && strcmp(opt.gpu, "all") != 0 && profile_index(opt.gpu) < 0) {
        fprintf(stderr, "model-check: --gpu %s: no such profile; the profiles are", opt.gpu);
        for (int p = 0; p < MC_PROFILES; p++)
            fprintf(stderr, " %s", profiles[p].key);
        fprintf(stderr, "%s\n", MC_SIM ? " (or all)" : "");
        return 2;
    }
    if (opt.corpus) {
        /* The corpus cases, as lines for tools/model-check/corpus.py: modeled
         * on sim (one run: the model is deterministic), measured on a GPU. */
        if (MC_SIM && !lab_cuda_timer_modeled_gpu()) {
            fprintf(stderr, "model-check: --corpus needs the performance model on "
                            "(GPULAB_SIM_MODEL=<profile>)\n");
            return 2;
        }
        if (MC_SIM) {
            opt.reps = 1;
            opt.warmup = 0;
        } else {
            if (lab_skip_without_gpu("model-check"))
                return LAB_EXIT_SKIP;
            opt.reps = opt.reps < 0 ? 10 : opt.reps;
            opt.warmup = 2;
        }
        if (corpus_cases(&opt, opt.corpus) != 0)
            return 2;
        for (int i = 0; i < ncases; i++)
            printf("case\t%s\t%s\t%.4f\n", cases[i].lab, cases[i].what, cases[i].us[0]);
        return 0;
    }
#if MC_SIM
    if (opt.tsv) {
        /* One profile, chosen by GPULAB_SIM_MODEL: the lines the caller reads. */
        if (!lab_cuda_timer_modeled_gpu()) {
            fprintf(stderr, "model-check: --tsv needs the performance model on "
                            "(GPULAB_SIM_MODEL=<profile>)\n");
            return 2;
        }
        opt.reps = 1;
        opt.warmup = 0;
        if (opt.published)
            published_cases(&opt);
        else
            run_all(&opt);
        for (int i = 0; i < ncases; i++)
            printf("case\t%s\t%s\t%.4f\t%.0f\t%s\n", cases[i].lab, cases[i].what, cases[i].us[0],
                   cases[i].amount, cases[i].unit[0] ? cases[i].unit : "-");
        for (int r = 0; r < nranks; r++)
            printf("rank\t%s\t%s\t%s\n", ranks[r].lab, ranks[r].faster, ranks[r].slower);
        return 0;
    }
    int cols[MC_MAX_PROFILES], ncols = 0;
    if (!opt.gpu || strcmp(opt.gpu, "all") == 0)
        for (int p = 0; p < MC_PROFILES; p++)
            cols[ncols++] = p;
    else
        cols[ncols++] = profile_index(opt.gpu);
    if (opt.reps > 0)
        fprintf(stderr, "model-check: --reps is for a GPU; the model needs one run\n");
    if (opt.published) {
        if (opt.out) {
            fprintf(stderr, "model-check: --published prints its table; it writes no --out\n");
            return 2;
        }
        return report_published(&opt, cols, ncols);
    }
    if (settle_out(&opt, ncols == 1 ? profiles[cols[0]].key : "sim") != 0)
        return 2;
    /* The cases and the rankings come from the runs (read_model): this process
     * runs no device work itself. */
    return report_sim(&opt, cols, ncols);
#else
    if (opt.tsv || opt.published) {
        fprintf(stderr, "model-check: %s is the sim build's (model-check-sim)\n",
                opt.tsv ? "--tsv" : "--published");
        return 2;
    }
    if (opt.gpu && strcmp(opt.gpu, "all") == 0) {
        fprintf(stderr, "model-check: --gpu all is the sim build's; on a GPU give one profile\n");
        return 2;
    }
    if (opt.reps < 0)
        opt.reps = 10;
    opt.warmup = 2;
    if (lab_skip_without_gpu("model-check"))
        return LAB_EXIT_SKIP;
    struct cudaDeviceProp prop;
    int dev = 0;
    LAB_CHECK(cudaGetDevice(&dev));
    LAB_CHECK(cudaGetDeviceProperties(&prop, dev));
    int prof = opt.gpu ? profile_index(opt.gpu) : profile_of_device(prop.name);
    if (prof < 0)
        fprintf(stderr,
                "model-check: the model has no profile for \"%s\"; measuring only (compare "
                "with a profile anyway with --gpu PROFILE)\n",
                prop.name);
    if (settle_out(&opt, prof >= 0 ? profiles[prof].key : "unknown-gpu") != 0)
        return 2;
    return report_cuda(&opt, prop.name, prof);
#endif
}
