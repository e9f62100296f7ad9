/*
 * model-check's reports: the modeled times (the sim build run once per
 * profile with GPULAB_SIM_MODEL set, its cases read from a pipe), the
 * lessons' rankings, and the tables: printed, and as Markdown with --out.
 */
#include "model_check.h"

#include "lab/cuda_timer.h"

#include <cuda_runtime.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ; /* POSIX: the environment the sim build is started with */

/* ---------------------------------------------------------------------------
 * The modeled times: the sim build, run once per profile
 */

/* Runs `program --tsv [--quick | --published --gpu key]` with
 * GPULAB_SIM_MODEL=key and stores the times it prints in column col of the
 * cases (adding cases when add is set). Returns 0, or -1 after saying why. */
static int read_model(const char *program, const char *key, const mc_options *opt, int col, int add)
{
    int fd[2];
    if (pipe(fd) != 0) {
        fprintf(stderr, "model-check: pipe: %s\n", strerror(errno));
        return -1;
    }
    /* Everything the child needs is built here: after fork() in a program
     * with threads (the CUDA runtime's) only exec and async-signal-safe calls
     * are safe. The environment: ours, less the simulator's tool settings,
     * with GPULAB_SIM_MODEL set to the profile. */
    char *argv[] = { (char *)program,
                     (char *)"--tsv",
                     opt->published ? (char *)"--published"
                     : opt->quick   ? (char *)"--quick"
                                    : NULL,
                     (char *)"--gpu",
                     (char *)key,
                     NULL };
    if (!opt->published && !opt->quick) /* no flag: --gpu key moves up */
        argv[2] = argv[3], argv[3] = argv[4], argv[4] = NULL;
    size_t n = 0;
    while (environ[n])
        n++;
    char **envp = (char **)calloc(n + 2, sizeof(char *));
    char model[64];
    snprintf(model, sizeof(model), "GPULAB_SIM_MODEL=%s", key);
    if (!envp) {
        fprintf(stderr, "model-check: out of memory\n");
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "GPULAB_SIM_MODEL", 16) != 0 &&
            strncmp(environ[i], "GPULAB_SIM_CHECK=", 17) != 0 &&
            strncmp(environ[i], "GPULAB_SIM_STATS=", 17) != 0)
            envp[m++] = environ[i];
    envp[m++] = model;
    envp[m] = NULL;
    static const char exec_failed[] = "model-check: cannot run the sim build (execve failed)\n";
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "model-check: fork: %s\n", strerror(errno));
        free(envp);
        return -1;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execve(program, argv, envp);
        ssize_t w = write(2, exec_failed, sizeof(exec_failed) - 1);
        (void)w;
        _exit(127);
    }
    free(envp);
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    char line[512];
    int rows = 0, bad = 0;
    while (f && fgets(line, sizeof(line), f)) {
        char *type = strtok(line, "\t\n");
        char *lab = strtok(NULL, "\t\n");
        char *what = strtok(NULL, "\t\n");
        char *us = strtok(NULL, "\t\n");
        char *amount = strtok(NULL, "\t\n");
        char *unit = strtok(NULL, "\t\n");
        if (!type || !lab || !what || !us)
            continue;
        if (strcmp(type, "rank") == 0) {
            if (add)
                add_rank(lab, what, us); /* faster, slower */
            continue;
        }
        if (strcmp(type, "case") != 0)
            continue;
        int i = case_index(lab, what);
        if (i < 0 && add && ncases < MC_MAX_CASES) {
            i = ncases++;
            snprintf(cases[i].lab, sizeof(cases[i].lab), "%s", lab);
            snprintf(cases[i].what, sizeof(cases[i].what), "%s", what);
        }
        if (i < 0) {
            fprintf(stderr, "model-check: %s printed a case this program does not run: %s %s\n",
                    program, lab, what);
            bad = 1;
            continue;
        }
        cases[i].us[col] = strtod(us, NULL);
        if (amount && unit && strcmp(unit, "-") != 0) {
            cases[i].amount = strtod(amount, NULL);
            snprintf(cases[i].unit, sizeof(cases[i].unit), "%s", unit);
        }
        rows++;
    }
    if (f)
        fclose(f);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || rows == 0 || bad) {
        fprintf(stderr, "model-check: the model run of %s for %s failed (exit %d, %d rows)\n",
                program, key, WIFEXITED(status) ? WEXITSTATUS(status) : -1, rows);
        return -1;
    }
    return 0;
}

static void self_path(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    buf[n > 0 ? n : 0] = '\0';
}

/* ---------------------------------------------------------------------------
 * Rankings and tables
 */

/* Whether every ranking holds in column col; prints each when print is set. */
static int ranks_hold(int col, const char *label, int print)
{
    int all = 1;
    for (int r = 0; r < nranks; r++) {
        int f = case_index(ranks[r].lab, ranks[r].faster);
        int s = case_index(ranks[r].lab, ranks[r].slower);
        int holds = f >= 0 && s >= 0 && cases[f].us[col] < cases[s].us[col];
        all &= holds;
        if (print)
            printf("  %-5s %s < %s: %s (%s)\n", ranks[r].lab, ranks[r].faster, ranks[r].slower,
                   holds ? "holds" : "DOES NOT HOLD", label);
    }
    return all;
}

static FILE *open_out(const mc_options *opt)
{
    if (!opt->out)
        return NULL;
    FILE *f = fopen(opt->out_path, "w");
    if (!f)
        fprintf(stderr, "model-check: cannot write %s: %s\n", opt->out_path, strerror(errno));
    return f;
}

/* Closes the --out file and says where the table went; -1 if writing failed. */
static int close_out(FILE *f, const mc_options *opt)
{
    if (fclose(f) != 0) {
        fprintf(stderr, "model-check: writing %s failed\n", opt->out_path);
        return -1;
    }
    printf("Table written to %s\n", opt->out_path);
    return 0;
}

/* Resolves --out (a folder gets a file named after stem) and finds out now,
 * before any work, whether it can be written. */
int settle_out(mc_options *opt, const char *stem)
{
    if (!opt->out)
        return 0;
    struct stat st;
    if (stat(opt->out, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(opt->out_path, sizeof(opt->out_path), "%s/model-validation-%s.md", opt->out, stem);
    else
        snprintf(opt->out_path, sizeof(opt->out_path), "%s", opt->out);
    FILE *f = fopen(opt->out_path, "a");
    if (!f) {
        fprintf(stderr,
                "model-check: --out %s: cannot write %s: %s (give a file in a folder that "
                "exists and you may write to)\n",
                opt->out, opt->out_path, strerror(errno));
        return -1;
    }
    fclose(f);
    return 0;
}

static void today(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%d", &tm);
}

#if MC_SIM
/* --published: the modeled side of the comparisons with published
 * measurements, one child per profile, each with its own rows. */
int report_published(mc_options *opt, const int *cols, int ncols)
{
    char self[PATH_MAX];
    self_path(self, sizeof(self));
    for (int c = 0; c < ncols; c++)
        if (read_model(self, profiles[cols[c]].key, opt, 0, 1) != 0)
            return 1;
    printf("model-check --published: the cases of the comparison with published measurements\n"
           "(docs/model-validation.md) at the sizes they used, timed with CUDA events on the\n"
           "simulator with the performance model on: modeled, never measured.\n\n");
    printf("%-8s %-52s %12s %16s\n", "profile", "what", "modeled us", "modeled rate");
    for (int i = 0; i < ncases; i++) {
        printf("%-8s %-52s %12.2f", cases[i].lab, cases[i].what, cases[i].us[0]);
        if (cases[i].unit[0] && cases[i].us[0] > 0) {
            double scale = strcmp(cases[i].unit, "TFLOP/s") == 0 ? 1e6 : 1e3;
            printf(" %8.2f %-7s", cases[i].amount / cases[i].us[0] / scale, cases[i].unit);
        }
        printf("\n");
    }
    return 0;
}

/* The sim backend: the model alone, a column per profile. */
int report_sim(mc_options *opt, const int *cols, int ncols)
{
    char self[PATH_MAX];
    self_path(self, sizeof(self));
    for (int c = 0; c < ncols; c++)
        if (read_model(self, profiles[cols[c]].key, opt, c, c == 0) != 0)
            return 1;
    printf("model-check: every lab kernel, copy and cuBLAS call, timed with CUDA events on the\n"
           "simulator with the performance model on: each figure is the modeled time in us\n"
           "(median of one run; the model is deterministic), never a measurement.\n\n");
    printf("%-5s  %-52s", "lab", "what");
    for (int c = 0; c < ncols; c++)
        printf(" %10s", profiles[cols[c]].key);
    printf("\n%-5s  %-52s", "", "");
    for (int c = 0; c < ncols; c++)
        printf(" %10s", "modeled us");
    printf("\n");
    for (int i = 0; i < ncases; i++) {
        printf("%-5s  %-52s", cases[i].lab, cases[i].what);
        for (int c = 0; c < ncols; c++)
            printf(" %10.2f", cases[i].us[c]);
        printf("\n");
    }
    printf("\nThe lessons' rankings, on the model of each GPU:\n");
    int all = 1;
    for (int c = 0; c < ncols; c++) {
        char label[64];
        snprintf(label, sizeof(label), "modeled %s", profiles[cols[c]].key);
        all &= ranks_hold(c, label, 1);
    }
    printf("%s\n", all ? "Every ranking holds on every modeled GPU."
                       : "model-check: some rankings do not hold (above).");
    FILE *f = open_out(opt);
    if (opt->out && !f)
        return 1;
    if (f) {
        char date[16];
        today(date, sizeof(date));
        fprintf(f, "# Modeled times of the lab cases (no GPU)\n\n");
        fprintf(f,
                "Written by `model-check-sim%s` on %s: each figure is the performance "
                "model's time in microseconds for the GPU of its column (CUDA events on the "
                "simulator with `GPULAB_SIM_MODEL` set), not a measurement. "
                "docs/model-validation.md explains the cases.\n\n",
                opt->quick ? " --quick" : "", date);
        fprintf(f, "| lab | what |");
        for (int c = 0; c < ncols; c++)
            fprintf(f, " modeled %s, us |", profiles[cols[c]].key);
        fprintf(f, "\n|---|---|");
        for (int c = 0; c < ncols; c++)
            fprintf(f, "---:|");
        fprintf(f, "\n");
        for (int i = 0; i < ncases; i++) {
            fprintf(f, "| %s | %s |", cases[i].lab, cases[i].what);
            for (int c = 0; c < ncols; c++)
                fprintf(f, " %.2f |", cases[i].us[c]);
            fprintf(f, "\n");
        }
        fprintf(f, "\nRankings of the lessons: %s.\n",
                all ? "every one holds on every modeled GPU" : "some do not hold");
        if (close_out(f, opt) != 0)
            return 1;
    }
    return all ? 0 : 1;
}

#else
/* The cuda backend: measured (column 0) against modeled (column 1). */
int report_cuda(mc_options *opt, const char *device, int prof)
{
    run_all(opt);
    int have_model = prof >= 0;
    if (have_model) {
        char sim[PATH_MAX + 32];
        if (opt->sim) {
            snprintf(sim, sizeof(sim), "%s", opt->sim);
        } else {
            char self[PATH_MAX];
            self_path(self, sizeof(self));
            char *slash = strrchr(self, '/');
            if (slash)
                *slash = '\0';
            snprintf(sim, sizeof(sim), "%s/model-check-sim", self);
        }
        if (access(sim, X_OK) != 0) {
            fprintf(stderr,
                    "model-check: no modeled times: %s is not there (%s); build it with "
                    "`cmake --build build --target model-check-sim` or give --sim PROGRAM\n",
                    sim, strerror(errno));
            have_model = 0;
        } else if (read_model(sim, profiles[prof].key, opt, 1, 0) != 0) {
            have_model = 0;
        }
    }
    /* "CUDA events" on a GPU; the GPU path's test build on the simulator says
     * what its events read instead ("modeled NVIDIA T4"). */
    const char *clock = lab_cuda_timer_clock_name();
    printf("model-check on %s: each case timed with %s (median of %d runs after %d "
           "warm-up)%s%s\n\n",
           device, clock, opt->reps, opt->warmup, have_model ? ", against the model of " : "",
           have_model ? profiles[prof].key : "");
    printf("%-5s  %-52s %12s %12s %9s\n", "lab", "what", "measured us", "modeled us", "mod/meas");
    int within = 0;
    for (int i = 0; i < ncases; i++) {
        printf("%-5s  %-52s %12.2f", cases[i].lab, cases[i].what, cases[i].us[0]);
        if (have_model) {
            double ratio = cases[i].us[1] / cases[i].us[0];
            int ok = ratio <= 1.5 && ratio >= 1 / 1.5;
            within += ok;
            printf(" %12.2f %8.2fx%s", cases[i].us[1], ratio, ok ? "" : " !");
        }
        printf("\n");
    }
    printf("\n(measured: %s on %s; modeled: the performance model of profile %s)\n", clock, device,
           have_model ? profiles[prof].key : "(none)");
    printf("\nThe lessons' rankings:\n");
    int measured_ok = ranks_hold(0, "measured", 1);
    int modeled_ok = have_model ? ranks_hold(1, "modeled", 1) : 0;
    /* The model must rank each pair as the GPU does. */
    int agree = have_model;
    for (int r = 0; r < nranks && have_model; r++) {
        int a = case_index(ranks[r].lab, ranks[r].faster);
        int b = case_index(ranks[r].lab, ranks[r].slower);
        agree &= (cases[a].us[0] < cases[b].us[0]) == (cases[a].us[1] < cases[b].us[1]);
    }
    if (have_model)
        printf("%d of %d cases modeled within 1.5x of measured; rankings %s on the GPU, %s on "
               "the model: the model ranks %s\n",
               within, ncases, measured_ok ? "hold" : "do not all hold",
               modeled_ok ? "hold" : "do not all hold",
               agree ? "every pair as the GPU does" : "some pairs unlike the GPU");
    FILE *f = open_out(opt);
    if (opt->out && !f)
        return 1;
    if (f) {
        char date[16];
        int rt = 0, drv = 0;
        cudaRuntimeGetVersion(&rt);
        cudaDriverGetVersion(&drv);
        today(date, sizeof(date));
        fprintf(f, "# Model validation: %s\n\n", device);
        fprintf(f,
                "Measured on %s on %s with `model-check-cuda%s` (CUDA runtime %d.%d, driver "
                "%d.%d): each case timed with %s, median of %d runs after %d warm-up; "
                "modeled: the performance model's profile `%s`. docs/model-validation.md "
                "explains the cases.\n\n",
                device, date, opt->quick ? " --quick" : "", rt / 1000, rt % 1000 / 10, drv / 1000,
                drv % 1000 / 10, clock, opt->reps, opt->warmup,
                have_model ? profiles[prof].key : "(none)");
        fprintf(f,
                "| lab | what | measured (%s), us | modeled, us | modeled / measured |\n"
                "|---|---|---:|---:|---:|\n",
                clock);
        for (int i = 0; i < ncases; i++) {
            fprintf(f, "| %s | %s | %.2f |", cases[i].lab, cases[i].what, cases[i].us[0]);
            if (have_model)
                fprintf(f, " %.2f | %.2f |\n", cases[i].us[1], cases[i].us[1] / cases[i].us[0]);
            else
                fprintf(f, " - | - |\n");
        }
        fprintf(f, "\n| lab | ranking | measured | modeled |\n|---|---|---|---|\n");
        for (int r = 0; r < nranks; r++) {
            int a = case_index(ranks[r].lab, ranks[r].faster);
            int b = case_index(ranks[r].lab, ranks[r].slower);
            fprintf(f, "| %s | %s faster than %s | %s | %s |\n", ranks[r].lab, ranks[r].faster,
                    ranks[r].slower, cases[a].us[0] < cases[b].us[0] ? "holds" : "does not hold",
                    !have_model                       ? "-"
                    : cases[a].us[1] < cases[b].us[1] ? "holds"
                                                      : "does not hold");
        }
        if (have_model)
            fprintf(f, "\n%d of %d cases modeled within 1.5x of measured.\n", within, ncases);
        if (close_out(f, opt) != 0)
            return 1;
    }
    return agree ? 0 : 1;
}

#endif
