/*
 * gpulab-grade — grades the lab programs: for each lab and check it makes the
 * inputs from a seed, runs the program in graded mode (--in . --out .) in a
 * fresh directory under limits, compares its outputs with the expected ones
 * it computed itself, and prints a table (and JSON, JUnit XML, Gradescope's
 * results.json on request). A crash, a hang, a bad file costs that check's
 * points with a reason; grading always goes on.
 *
 *   gpulab-grade [--labs | --solutions | --compare] [--backend auto|cuda|sim]
 *                [--seed N] [--bin DIR] [--lab NAME] [--json FILE]
 *                [--junit FILE] [--gradescope FILE]
 */
#define _POSIX_C_SOURCE 200809L
#include "json.h"
#include "labs.h"
#include "report.h"
#include "runner.h"

#include "lab/compare.h"
#include "lab/npy.h"
#include "lab/progress.h"
#include "lab/timer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_SEED 20261123ull

typedef struct options {
    int student, solution;
    char backend[16];
    unsigned long long seed;
    char bin[4096];
    const char *lab;
    const char *json, *junit, *gradescope;
    double time_limit; /* overrides every check's, when > 0 */
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpulab-grade [--labs | --solutions | --compare] [--backend auto|cuda|sim]\n"
            "                    [--seed N] [--bin DIR] [--lab NAME] [--json FILE]\n"
            "                    [--junit FILE] [--gradescope FILE]\n"
            "  --labs       grade the student programs (default); --solutions the reference\n"
            "               ones; --compare both side by side\n"
            "  --bin DIR    where the lab programs are (default: beside gpulab-grade)\n"
            "  --seed N     inputs from seed N (default: the public seed %llu)\n"
            "  --time-limit S  seconds of wall time for every run (default: per check)\n",
            DEFAULT_SEED);
}

static int parse(options *o, int argc, char **argv)
{
    memset(o, 0, sizeof(*o));
    o->student = 1;
    snprintf(o->backend, sizeof(o->backend), "auto");
    o->seed = DEFAULT_SEED;
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    self[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(o->bin, sizeof(o->bin), "%s", n > 0 ? self : ".");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--labs"))
            o->student = 1, o->solution = 0;
        else if (!strcmp(a, "--solutions"))
            o->student = 0, o->solution = 1;
        else if (!strcmp(a, "--compare"))
            o->student = 1, o->solution = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!v) {
            fprintf(stderr, "gpulab-grade: %s needs a value, or is unknown\n", a);
            usage(stderr);
            return -1;
        } else if (!strcmp(a, "--backend") &&
                   (!strcmp(v, "auto") || !strcmp(v, "cuda") || !strcmp(v, "sim")))
            snprintf(o->backend, sizeof(o->backend), "%s", argv[++i]);
        else if (!strcmp(a, "--seed"))
            o->seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--bin"))
            snprintf(o->bin, sizeof(o->bin), "%s", argv[++i]);
        else if (!strcmp(a, "--lab"))
            o->lab = argv[++i];
        else if (!strcmp(a, "--time-limit"))
            o->time_limit = strtod(argv[++i], NULL);
        else if (!strcmp(a, "--json"))
            o->json = argv[++i];
        else if (!strcmp(a, "--junit"))
            o->junit = argv[++i];
        else if (!strcmp(a, "--gradescope"))
            o->gradescope = argv[++i];
        else {
            fprintf(stderr, "gpulab-grade: unknown option %s %s\n", a, v);
            usage(stderr);
            return -1;
        }
    }
    return 0;
}

static double time_limit_override;

static grade_limits limits_for(const grade_check *c, const char *backend)
{
    grade_limits l;
    memset(&l, 0, sizeof(l));
    l.wall_seconds = time_limit_override > 0 ? time_limit_override : c->time_limit;
    l.cpu_seconds = 4 * l.wall_seconds;
    l.address_space = strcmp(backend, "cuda") == 0 ? 0 : (size_t)64 << 30;
    l.file_size = (size_t)256 << 20;
    l.max_processes = 256;
    l.output_bytes = 64 * 1024;
    return l;
}

/* The last non-empty line of s, for a reason. */
static void last_line(char *buf, size_t len, const char *s)
{
    const char *end = s + strlen(s);
    while (end > s && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    const char *start = end;
    while (start > s && start[-1] != '\n')
        start--;
    snprintf(buf, len, "%.*s", (int)(end - start), start);
}

static int judge_result_json(const grade_run *run, const grade_case *c, grade_json_object *obj,
                             char *why, size_t len)
{
    char path[4200], text[65536], detail[256];
    snprintf(path, sizeof(path), "%s/result.json", run->workdir);
    int fd = open(path, O_RDONLY | O_NOFOLLOW);
    if (fd < 0) {
        snprintf(why, len, "missing result.json");
        return 0;
    }
    ssize_t n = read(fd, text, sizeof(text) - 1);
    close(fd);
    if (n < 0 || grade_json_parse_object(obj, text, (size_t)n, detail, sizeof(detail)) != 0) {
        snprintf(why, len, "result.json is not JSON: %s", n < 0 ? strerror(errno) : detail);
        return 0;
    }
    return grade_judge_facts(c, obj, why, len);
}

/* The simulator's memcheck report in the run's stderr, as one line:
 * "Invalid __global__ write of size 4 bytes at k in f.cu:12 by thread (..)". */
static int memcheck_report(char *buf, size_t len, const char *err)
{
    const char *p = err ? strstr(err, "========= ") : NULL;
    size_t n = 0;
    buf[0] = '\0';
    for (int lines = 0; p && lines < 3; lines++) {
        p += strlen("========= ");
        while (*p == ' ')
            p++;
        const char *end = strchr(p, '\n');
        size_t k = end ? (size_t)(end - p) : strlen(p);
        if (strncmp(p, "ERROR SUMMARY", 13) == 0 || strncmp(p, "COMPUTE-SANITIZER", 17) == 0)
            break;
        n +=
            (size_t)snprintf(buf + n, len > n ? len - n : 0, "%s%.*s", lines ? " " : "", (int)k, p);
        if (n >= len || !end)
            break;
        p = strstr(end, "========= ");
    }
    return buf[0] != '\0';
}

static void grade_one(grade_result *res, const options *o, const char *backend,
                      const grade_lab *lab, const grade_check *check, const char *variant)
{
    char program[4300], setup[] = "/tmp/gpulab-grade-XXXXXX", why[512] = "";
    grade_case c;
    grade_run run;
    lab_error err;
    memset(res, 0, sizeof(*res));
    memset(&c, 0, sizeof(c));
    snprintf(res->lab, sizeof(res->lab), "%s", lab->name);
    snprintf(res->variant, sizeof(res->variant), "%s", variant);
    snprintf(res->check, sizeof(res->check), "%s", check->name);
    res->max_points = check->points;
    snprintf(program, sizeof(program), "%s/%s-%s-%s", o->bin, lab->name, backend, variant);
    if (access(program, X_OK) != 0) {
        snprintf(res->reason, sizeof(res->reason), "program not built: %.400s", program);
        return;
    }
    if (!mkdtemp(setup)) {
        snprintf(res->reason, sizeof(res->reason), "grader: cannot make a directory: %s",
                 strerror(errno));
        return;
    }
    grade_env env = { setup, o->seed, backend, o->bin };
    if (check->prepare(&c, &env, why, sizeof(why)) != 0 || c.failed) {
        snprintf(res->reason, sizeof(res->reason), "grader: cannot make the inputs: %.400s",
                 c.failed ? "too many facts or variables in one check" : why);
        goto remove_setup;
    }
    const char *argv[] = { program, "--in", ".", "--out", ".", NULL };
    const char *envp[GRADE_MAX_ENV + 2];
    int n_env = 0;
    for (int i = 0; i < c.n_env; i++)
        envp[n_env++] = c.env[i];
    if (c.memcheck && !strcmp(backend, "sim"))
        envp[n_env++] = "GPULAB_SIM_CHECK=memcheck";
    envp[n_env] = NULL;
    grade_limits l = limits_for(check, backend);
    grade_run_program(&run, &err, argv, envp, &l, setup);
    res->seconds = run.wall_seconds;
    if (run.end != GRADE_EXITED) {
        snprintf(res->reason, sizeof(res->reason), "%.500s", run.reason);
    } else if (run.exit_status == 77) {
        last_line(why, sizeof(why), run.err);
        snprintf(res->reason, sizeof(res->reason), "skipped: %.400s", why);
    } else if (c.memcheck && memcheck_report(why, sizeof(why), run.err)) {
        snprintf(res->reason, sizeof(res->reason), "memcheck: %.480s", why);
    } else if (run.exit_status != c.expect_status) {
        last_line(why, sizeof(why), run.err);
        snprintf(res->reason, sizeof(res->reason), "exited with status %d: %.400s", run.exit_status,
                 why);
    } else {
        int ok = 1;
        grade_json_object obj = { NULL, 0 };
        for (int i = 0; ok && i < c.n_outputs; i++) {
            char path[4200];
            snprintf(path, sizeof(path), "%s/%s.npy", run.workdir, c.outputs[i].name);
            ok = grade_judge_output(path, &c.outputs[i], why, sizeof(why));
        }
        ok = ok && judge_result_json(&run, &c, &obj, why, sizeof(why));
        if (ok && c.judge)
            ok = c.judge(&c, &obj, run.workdir, run.out ? run.out : "", run.err ? run.err : "", why,
                         sizeof(why));
        grade_json_free(&obj);
        res->passed = ok;
        res->points = ok ? check->points : 0;
        if (!ok)
            snprintf(res->reason, sizeof(res->reason), "%.500s", why);
    }
    grade_run_free(&run);
remove_setup:
    grade_case_free(&c);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", setup);
    if (system(cmd) != 0)
        fprintf(stderr, "gpulab-grade: could not remove %s\n", setup);
}

/* auto: cuda when its program runs (does not skip with 77), else sim. */
static void choose_backend(char *backend, size_t len, const options *o, const grade_lab *lab)
{
    if (strcmp(o->backend, "auto") != 0) {
        snprintf(backend, len, "%s", o->backend);
        return;
    }
    char program[4300];
    snprintf(program, sizeof(program), "%s/%s-cuda-solution", o->bin, lab->name);
    snprintf(backend, len, "sim");
    if (access(program, X_OK) != 0)
        return;
    const char *argv[] = { program, NULL };
    grade_limits l = limits_for(&lab->checks[0], "cuda");
    grade_run run;
    lab_error err;
    grade_run_program(&run, &err, argv, NULL, &l, NULL);
    if (run.end == GRADE_EXITED && run.exit_status != 77)
        snprintf(backend, len, "cuda");
    grade_run_free(&run);
}

int main(int argc, char **argv)
{
    options o;
    grade_report report;
    int n_labs, total = 0, done = 0;
    if (parse(&o, argc, argv) != 0)
        return 2;
    time_limit_override = o.time_limit;
    const grade_lab *labs_ = grade_labs(&n_labs);
    memset(&report, 0, sizeof(report));
    report.seed = o.seed;
    choose_backend(report.backend, sizeof(report.backend), &o, &labs_[0]);
    for (int i = 0; i < n_labs; i++)
        if (!o.lab || !strcmp(o.lab, labs_[i].name))
            total += labs_[i].n_checks * (o.student + o.solution);
    if (total == 0) {
        fprintf(stderr, "gpulab-grade: no lab named %s\n", o.lab ? o.lab : "?");
        return 2;
    }
    double t0 = lab_wall_seconds();
    lab_progress *bar = lab_progress_create(stderr, "grading", (uint64_t)total, LAB_PROGRESS_AUTO);
    const char *variants[] = { "solution", "student" };
    for (int i = 0; i < n_labs; i++) {
        if (o.lab && strcmp(o.lab, labs_[i].name))
            continue;
        for (int v = 0; v < 2; v++) {
            if ((v == 0 && !o.solution) || (v == 1 && !o.student))
                continue;
            for (int k = 0; k < labs_[i].n_checks; k++) {
                grade_result res;
                grade_one(&res, &o, report.backend, &labs_[i], &labs_[i].checks[k], variants[v]);
                grade_report_add(&report, &res);
                lab_progress_update(bar, (uint64_t)++done);
            }
        }
    }
    lab_progress_destroy(bar);
    report.seconds = lab_wall_seconds() - t0;
    /* What isolation was in force: ask the runner with a run of /bin/true. */
    const char *true_argv[] = { "/bin/true", NULL };
    grade_limits l = limits_for(&labs_[0].checks[0], "sim");
    grade_run probe;
    lab_error err;
    grade_run_program(&probe, &err, true_argv, NULL, &l, NULL);
    snprintf(report.isolation, sizeof(report.isolation), "%s", probe.isolation);
    grade_run_free(&probe);

    grade_report_table(stdout, &report);
    int bad = 0;
    if (o.json && grade_report_json(&report, o.json) != 0)
        bad = fprintf(stderr, "gpulab-grade: cannot write %s: %s\n", o.json, strerror(errno));
    if (o.junit && grade_report_junit(&report, o.junit) != 0)
        bad = fprintf(stderr, "gpulab-grade: cannot write %s: %s\n", o.junit, strerror(errno));
    if (o.gradescope &&
        grade_report_gradescope(&report, o.student ? "student" : "solution", o.gradescope) != 0)
        bad = fprintf(stderr, "gpulab-grade: cannot write %s: %s\n", o.gradescope, strerror(errno));
    grade_report_free(&report);
    return bad ? 2 : 0;
}
