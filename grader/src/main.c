/*
 * gpulab-grade — grades the lab programs: for each lab and check it makes the
 * inputs from a seed, runs the program in graded mode (--in . --out .) in a
 * fresh directory under limits, compares its outputs with the expected ones
 * it computed itself, and prints a table (and JSON, JUnit XML, Gradescope's
 * results.json on request). A crash, a hang, a bad file costs that check's
 * points with a reason; grading always goes on.
 *
 * What it grades: the programs built beside it (--labs, --solutions,
 * --compare), a student's copy of labs/ built out of tree (--submission), or
 * every submission in a folder (--batch). --package-gradescope writes a
 * Gradescope autograder bundle. See usage() and docs/grading.md.
 */
#define _POSIX_C_SOURCE 200809L
#include "grade.h"
#include "json.h"
#include "labs.h"
#include "report.h"
#include "runner.h"
#include "submit.h"

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

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpulab-grade [--labs | --solutions | --compare] [OPTIONS]\n"
            "       gpulab-grade --submission DIR [OPTIONS]\n"
            "       gpulab-grade --batch DIR [--jobs N] [--out DIR] [OPTIONS]\n"
            "       gpulab-grade --package-gradescope DIR [--seed N] [--backend B]\n"
            "what is graded:\n"
            "  --labs           the student programs built beside gpulab-grade (default)\n"
            "  --solutions      the reference solutions; --compare both side by side\n"
            "  --submission DIR a student's copy of labs/ (DIR holds 01_devices/ ...), built\n"
            "                   out of tree against this kit, then graded\n"
            "  --batch DIR      every submission folder in DIR (each a labs/ copy, or holding\n"
            "                   one); one row per submission in OUT/grades.csv\n"
            "options:\n"
            "  --backend B      auto (cuda when a GPU is usable, else sim), cuda or sim\n"
            "  --seed N         inputs from seed N (default: the public seed %llu); keep\n"
            "                   a seed of your own for hidden tests\n"
            "  --lab NAME       one lab only (lab01 ... lab05)\n"
            "  --time-limit S   seconds of wall time for every run (default: per check)\n"
            "  --bin DIR        where the lab programs are (default: beside gpulab-grade)\n"
            "  --source DIR     the kit's sources, for --submission and --batch (default: %s)\n"
            "  --build-dir DIR  where --submission builds (default: a fresh temporary one)\n"
            "  --jobs N         --batch: submissions graded at a time (default %d)\n"
            "  --out DIR        --batch: where grades.csv and each submission's report go\n"
            "                   (default: ./grades)\n"
            "  --json FILE, --junit FILE, --gradescope FILE   the report in those formats\n"
            "  --summary FILE   one line per lab: lab, score, maximum (for scripts)\n"
            "  --quiet          no progress display\n"
            "exit status: 0 graded (whatever the scores), 2 bad usage or the grading could\n"
            "not be done (a submission that does not configure, a report not written)\n",
            GRADE_DEFAULT_SEED, GPULAB_SOURCE_DIR, grade_default_jobs());
}

int grade_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 2 ? (int)(n / 2) : 1;
}

static int parse(options *o, int argc, char **argv)
{
    memset(o, 0, sizeof(*o));
    o->student = 1;
    snprintf(o->backend, sizeof(o->backend), "auto");
    o->seed = GRADE_DEFAULT_SEED;
    o->jobs = grade_default_jobs();
    o->source = GPULAB_SOURCE_DIR;
    o->out = "grades";
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    self[n > 0 ? n : 0] = '\0';
    snprintf(o->self, sizeof(o->self), "%s", n > 0 ? self : argv[0]);
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(o->bin, sizeof(o->bin), "%s", n > 0 ? self : ".");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--labs"))
            o->student = 1, o->solution = 0;
        else if (!strcmp(a, "--solutions"))
            o->student = 0, o->solution = 1;
        else if (!strcmp(a, "--compare"))
            o->student = 1, o->solution = 1;
        else if (!strcmp(a, "--quiet"))
            o->quiet = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!v) {
            fprintf(stderr, "gpulab-grade: %s needs a value, or is unknown\n", a);
            return -1;
        } else if (!strcmp(a, "--backend")) {
            if (strcmp(v, "auto") && strcmp(v, "cuda") && strcmp(v, "sim")) {
                fprintf(stderr, "gpulab-grade: --backend %s: expected auto, cuda or sim\n", v);
                return -1;
            }
            snprintf(o->backend, sizeof(o->backend), "%s", argv[++i]);
        } else if (!strcmp(a, "--seed")) {
            errno = 0;
            o->seed = strtoull(v, &end, 10);
            if (errno || *end || *v == '-' || end == v) {
                fprintf(stderr, "gpulab-grade: --seed %s: expected a whole number\n", v);
                return -1;
            }
            i++;
        } else if (!strcmp(a, "--jobs") || !strcmp(a, "--time-limit")) {
            double x = strtod(v, &end);
            if (*end || end == v || !(x > 0)) {
                fprintf(stderr, "gpulab-grade: %s %s: expected a positive number\n", a, v);
                return -1;
            }
            if (a[2] == 'j')
                o->jobs = (int)x;
            else
                o->time_limit = x;
            i++;
        } else if (!strcmp(a, "--bin"))
            snprintf(o->bin, sizeof(o->bin), "%s", argv[++i]);
        else if (!strcmp(a, "--lab"))
            o->lab = argv[++i];
        else if (!strcmp(a, "--json"))
            o->json = argv[++i];
        else if (!strcmp(a, "--junit"))
            o->junit = argv[++i];
        else if (!strcmp(a, "--gradescope"))
            o->gradescope = argv[++i];
        else if (!strcmp(a, "--summary"))
            o->summary = argv[++i];
        else if (!strcmp(a, "--submission"))
            o->submission = argv[++i];
        else if (!strcmp(a, "--batch"))
            o->batch = argv[++i];
        else if (!strcmp(a, "--package-gradescope"))
            o->package = argv[++i];
        else if (!strcmp(a, "--source"))
            o->source = argv[++i];
        else if (!strcmp(a, "--build-dir"))
            o->build_dir = argv[++i];
        else if (!strcmp(a, "--out"))
            o->out = argv[++i];
        else {
            fprintf(stderr, "gpulab-grade: unknown option %s\n", a);
            return -1;
        }
    }
    if (!!o->submission + !!o->batch + !!o->package > 1) {
        fprintf(stderr, "gpulab-grade: --submission, --batch and --package-gradescope exclude "
                        "each other\n");
        return -1;
    }
    if (o->submission || o->batch)
        o->student = 1, o->solution = 0;
    return 0;
}

/* Output kept of each of stdout and stderr; a run that prints more fails its check. */
#define GRADE_OUTPUT_KEPT (16 << 20)

static grade_limits limits_for(const options *o, const grade_check *c, const char *backend)
{
    grade_limits l;
    memset(&l, 0, sizeof(l));
    l.wall_seconds = o->time_limit > 0 ? o->time_limit : c->time_limit;
    l.cpu_seconds = 4 * l.wall_seconds;
    l.address_space = strcmp(backend, "cuda") == 0 ? 0 : (size_t)64 << 30;
    l.file_size = (size_t)256 << 20;
    l.max_processes = 256;
    l.output_bytes = GRADE_OUTPUT_KEPT;
    return l;
}

/* The last non-empty line of s, for a reason; the simulator's check-mode
 * lines ("========= ERROR SUMMARY: 0 errors") are passed over. */
static void last_line(char *buf, size_t len, const char *s)
{
    const char *end = s + strlen(s);
    buf[0] = '\0';
    while (end > s) {
        while (end > s && (end[-1] == '\n' || end[-1] == ' '))
            end--;
        const char *start = end;
        while (start > s && start[-1] != '\n')
            start--;
        if (start < end && strncmp(start, "=========", 9) != 0) {
            snprintf(buf, len, "%.*s", (int)(end - start), start);
            return;
        }
        end = start;
    }
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
        if (strncmp(p, "gpulab-sim check mode", 21) == 0) { /* the banner, not a report */
            p = end ? strstr(end, "========= ") : NULL;
            lines--;
            continue;
        }
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
    grade_limits l = limits_for(o, check, backend);
    grade_run_program(&run, &err, argv, envp, &l, setup);
    res->seconds = run.wall_seconds;
    if (run.end != GRADE_EXITED) {
        snprintf(res->reason, sizeof(res->reason), "%.500s", run.reason);
    } else if (run.exit_status == 77) {
        last_line(why, sizeof(why), run.err);
        snprintf(res->reason, sizeof(res->reason), "skipped: %.400s", why);
    } else if (run.out_truncated || run.err_truncated) {
        snprintf(res->reason, sizeof(res->reason),
                 "printed more than %d MiB to %s: a graded run must not flood its output",
                 GRADE_OUTPUT_KEPT >> 20, run.out_truncated ? "stdout" : "stderr");
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
    if (access(program, X_OK) != 0)
        snprintf(program, sizeof(program), "%s/%s-cuda-student", o->bin, lab->name);
    snprintf(backend, len, "sim");
    if (access(program, X_OK) != 0)
        return;
    const char *argv[] = { program, NULL };
    grade_limits l = limits_for(o, &lab->checks[0], "cuda");
    grade_run run;
    lab_error err;
    grade_run_program(&run, &err, argv, NULL, &l, NULL);
    if (run.end == GRADE_EXITED && run.exit_status != 77)
        snprintf(backend, len, "cuda");
    grade_run_free(&run);
}

int grade_wanted(const options *o, const grade_lab *lab)
{
    return o->lab ? strcmp(o->lab, lab->name) == 0 : !grade_lab_internal(lab);
}

/* Whether this kit was built with solutions/ (a student's handout has none). */
#ifndef GPULAB_KIT_HAS_SOLUTIONS
#define GPULAB_KIT_HAS_SOLUTIONS 0
#endif

/* Whether the lab's solution program is in o->bin for backend. */
static int solution_built(const options *o, const char *backend, const grade_lab *lab)
{
    char program[4300];
    snprintf(program, sizeof(program), "%s/%s-%s-solution", o->bin, lab->name, backend);
    return access(program, X_OK) == 0;
}

/* Grades the programs in o->bin into report; a lab whose program is missing
 * gets the build log's reason when build_log is given. */
static void grade_programs(const options *o, grade_report *report, const char *build_log)
{
    int n_labs, total = 0, done = 0, quiet_about_solutions = 0;
    const grade_lab *labs_ = grade_labs(&n_labs);
    for (int i = 0; i < n_labs; i++)
        if (grade_wanted(o, &labs_[i]))
            total += labs_[i].n_checks * (o->student + o->solution);
    double t0 = lab_wall_seconds();
    lab_progress *bar =
        o->quiet ? NULL
                 : lab_progress_create(stderr, "grading", (uint64_t)total, LAB_PROGRESS_AUTO);
    const char *variants[] = { "solution", "student" };
    for (int i = 0; i < n_labs; i++) {
        if (!grade_wanted(o, &labs_[i]))
            continue;
        for (int v = 0; v < 2; v++) {
            if ((v == 0 && !o->solution) || (v == 1 && !o->student))
                continue;
            if (v == 0 && o->student && !GPULAB_KIT_HAS_SOLUTIONS &&
                !solution_built(o, report->backend, &labs_[i])) {
                /* A student's kit has no solutions/: compare with nothing, say so once. */
                if (!quiet_about_solutions++)
                    fprintf(stderr, "gpulab-grade: no reference solutions in this build (a "
                                    "student's kit has no solutions/): grading labs/ only\n");
                done += labs_[i].n_checks;
                continue;
            }
            char built_why[400] = "";
            if (build_log)
                grade_build_failure(build_log, labs_[i].name, labs_[i].dir, built_why,
                                    sizeof(built_why));
            for (int k = 0; k < labs_[i].n_checks; k++) {
                grade_result res;
                grade_one(&res, o, report->backend, &labs_[i], &labs_[i].checks[k], variants[v]);
                if (built_why[0] && !strncmp(res.reason, "program not built", 17))
                    snprintf(res.reason, sizeof(res.reason), "%s", built_why);
                grade_report_add(report, &res);
                if (bar)
                    lab_progress_update(bar, (uint64_t)++done);
            }
        }
    }
    lab_progress_destroy(bar);
    report->seconds = lab_wall_seconds() - t0;
    /* What isolation was in force: ask the runner with a run of /bin/true. */
    const char *true_argv[] = { "/bin/true", NULL };
    grade_limits l = limits_for(o, &labs_[0].checks[0], "sim");
    grade_run probe;
    lab_error err;
    grade_run_program(&probe, &err, true_argv, NULL, &l, NULL);
    snprintf(report->isolation, sizeof(report->isolation), "%s", probe.isolation);
    grade_run_free(&probe);
}

/* The lab names to build for a submission (one, or all). */
static int lab_names(const options *o, const char **names, int cap)
{
    int n_labs, n = 0;
    const grade_lab *labs_ = grade_labs(&n_labs);
    for (int i = 0; i < n_labs && n < cap; i++)
        if (grade_wanted(o, &labs_[i]))
            names[n++] = labs_[i].name;
    return n;
}

/* --submission: build the student's labs/ copy, then grade it from its build. */
static int build_submission(options *o, const char *backend, char *log, size_t log_len,
                            char *tmp_build, size_t tmp_len)
{
    const char *names[32];
    char why[600];
    struct stat st;
    if (stat(o->submission, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "gpulab-grade: --submission %s: not a directory\n", o->submission);
        return -1;
    }
    if (!o->build_dir) {
        snprintf(tmp_build, tmp_len, "/tmp/gpulab-submission-XXXXXX");
        /* 0755: the programs built in it run as an unprivileged user under root. */
        if (!mkdtemp(tmp_build) || chmod(tmp_build, 0755) != 0) {
            fprintf(stderr, "gpulab-grade: cannot make a build directory: %s\n", strerror(errno));
            return -1;
        }
        o->build_dir = tmp_build;
    } else if (mkdir(o->build_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "gpulab-grade: --build-dir %s: %s\n", o->build_dir, strerror(errno));
        return -1;
    }
    snprintf(log, log_len, "%s/submission-build.log", o->build_dir);
    unlink(log);
    int n = lab_names(o, names, 32), with_tests = 0;
    int n_labs;
    const grade_lab *labs_ = grade_labs(&n_labs);
    for (int i = 0; i < n_labs; i++)
        with_tests |= grade_lab_internal(&labs_[i]) && grade_wanted(o, &labs_[i]);
    grade_build b = {
        o->source, o->submission, o->build_dir, backend, names, n, o->jobs > 1 ? o->jobs : 2,
        log,       with_tests
    };
    if (!o->quiet)
        fprintf(stderr, "gpulab-grade: building %s (%s backend) in %s\n", o->submission, backend,
                o->build_dir);
    if (grade_build_submission(&b, why, sizeof(why)) != 0) {
        fprintf(stderr, "gpulab-grade: %s\n", why);
        return -1;
    }
    snprintf(o->bin, sizeof(o->bin), "%s/bin", o->build_dir);
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    grade_report report;
    char log[4400] = "", tmp_build[64] = "";
    int n_labs;
    if (parse(&o, argc, argv) != 0) {
        usage(stderr);
        return 2;
    }
    const grade_lab *labs_ = grade_labs(&n_labs);
    int found = 0;
    for (int i = 0; i < n_labs; i++)
        found += grade_wanted(&o, &labs_[i]);
    if (!found) {
        fprintf(stderr, "gpulab-grade: no lab named %s; the labs are:", o.lab);
        for (int i = 0; i < n_labs; i++)
            fprintf(stderr, " %s", labs_[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    if (o.package)
        return grade_package_gradescope(&o);
    if (o.batch)
        return grade_batch(&o);
    memset(&report, 0, sizeof(report));
    report.seed = o.seed;
    /* auto: the kit's own programs beside gpulab-grade say whether cuda runs here. */
    int first = 0;
    while (!grade_wanted(&o, &labs_[first]))
        first++;
    choose_backend(report.backend, sizeof(report.backend), &o, &labs_[first]);
    if (o.submission &&
        build_submission(&o, report.backend, log, sizeof(log), tmp_build, sizeof(tmp_build)) != 0)
        return 2;
    grade_programs(&o, &report, log[0] ? log : NULL);

    grade_report_table(stdout, &report);
    int bad = 0;
    const char *variant = o.student ? "student" : "solution";
    if (o.json && grade_report_json(&report, o.json) != 0)
        bad = fprintf(stderr, "gpulab-grade: cannot write %s: %s\n", o.json, strerror(errno));
    if (o.junit && grade_report_junit(&report, o.junit) != 0)
        bad = fprintf(stderr, "gpulab-grade: cannot write %s: %s\n", o.junit, strerror(errno));
    if (o.gradescope && grade_report_gradescope(&report, variant, o.gradescope) != 0)
        bad = fprintf(stderr, "gpulab-grade: cannot write %s: %s\n", o.gradescope, strerror(errno));
    if (o.summary && grade_report_summary(&report, variant, o.summary) != 0)
        bad = fprintf(stderr, "gpulab-grade: cannot write %s: %s\n", o.summary, strerror(errno));
    grade_report_free(&report);
    if (tmp_build[0]) {
        char cmd[128];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_build);
        if (system(cmd) != 0)
            fprintf(stderr, "gpulab-grade: could not remove %s\n", tmp_build);
    }
    return bad ? 2 : 0;
}
