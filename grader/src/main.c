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
 * Gradescope autograder bundle. Options: options.c; the backend: backend.c;
 * limits of a run and a build: limits.c; a run's words in a reason: said.c;
 * docs/grading.md.
 */
#define _XOPEN_SOURCE 700
#include "grade.h"
#include "json.h"
#include "labs.h"
#include "limits.h"
#include "report.h"
#include "runner.h"
#include "said.h"
#include "sim_report.h"
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

/* Whether a run with this environment has the simulator instrument its kernels: a check tool
 * (GPULAB_SIM_CHECK), the counts (GPULAB_SIM_STATS=1) or the performance model (GPULAB_SIM_MODEL
 * naming a GPU). */
static int sim_instrumented(const char *const *envp)
{
    for (; *envp; envp++) {
        const char *e = *envp;
        if ((!strncmp(e, "GPULAB_SIM_CHECK=", 17) && e[17]) || !strcmp(e, "GPULAB_SIM_STATS=1") ||
            (!strncmp(e, "GPULAB_SIM_MODEL=", 17) && e[17] && strcmp(e + 17, "off") != 0))
            return 1;
    }
    return 0;
}

/* A graded run's environment: the check's variables, then what the grader adds for the
 * simulator (the model off unless the check sets it, its check tools, the key that marks its
 * own lines, the device memory the run's limits allow). The strings live in @p e. */
typedef struct run_environment {
    const char *envp[GRADE_MAX_ENV + 5];
    char key_var[64];
    char mem_env[64];
} run_environment;

static void make_environment(run_environment *e, grade_case *c, const char *backend,
                             unsigned long long sim_mb)
{
    int n = 0, sets_model = 0, sim = !strcmp(backend, "sim");
    for (int i = 0; i < c->n_env; i++) {
        e->envp[n++] = c->env[i];
        sets_model |= !strncmp(c->env[i], "GPULAB_SIM_MODEL=", 17);
    }
    /* Graded runs time nothing a check scores: the performance model (on by
     * default in the labs' sim programs) would only slow them down. */
    if (!sets_model)
        e->envp[n++] = "GPULAB_SIM_MODEL=off";
    if (c->memcheck && sim)
        e->envp[n++] = c->memcheck > 1 ? "GPULAB_SIM_CHECK=all" : "GPULAB_SIM_CHECK=memcheck";
    /* The simulator marks its own lines with this key, which the program cannot read
     * (sim_report.h): judges count only lines that carry it. */
    if (sim && grade_sim_report_key(c->sim_key, sizeof(c->sim_key)) == 0) {
        snprintf(e->key_var, sizeof(e->key_var), "GPULAB_SIM_REPORT_KEY=%s", c->sim_key);
        e->envp[n++] = e->key_var;
    }
    if (sim_mb) {
        snprintf(e->mem_env, sizeof(e->mem_env), "GPULAB_SIM_MEMORY_MB=%llu", sim_mb);
        e->envp[n++] = e->mem_env;
    }
    e->envp[n] = NULL;
}

/* Why a finished run cannot be judged on its outputs (written to res->reason), or 0 when it
 * can: it exited with the status the check expects, within its limits, and the simulator's
 * check tools (when the check asked for them) ran and reported nothing. */
static int run_not_judgeable(grade_result *res, const grade_run *run, const grade_case *c,
                             const char *backend)
{
    char why[512], said[440];
    grade_last_line(why, sizeof(why), run->err ? run->err : "");
    grade_program_said(said, sizeof(said), why);
    if (run->dir_full) {
        snprintf(res->reason, sizeof(res->reason),
                 "filled its run directory (the limit is %d files and folders, %zu MiB, its "
                 "inputs included): a graded run must not litter",
                 GRADE_DIR_ENTRIES, GRADE_DIR_BYTES >> 20);
    } else if (run->end != GRADE_EXITED) {
        char sim_line[300];
        if (grade_sim_said(sim_line, sizeof(sim_line), run->err))
            snprintf(res->reason, sizeof(res->reason), "%.180s; its stderr: \"%.290s\"",
                     run->reason, sim_line);
        else
            snprintf(res->reason, sizeof(res->reason), "%.500s", run->reason);
    } else if (run->exit_status == 77) {
        snprintf(res->reason, sizeof(res->reason), "skipped: %s", said);
    } else if (run->out_truncated || run->err_truncated) {
        snprintf(res->reason, sizeof(res->reason),
                 "printed more than %d MiB to %s: a graded run must not flood its output",
                 GRADE_OUTPUT_KEPT >> 20, run->out_truncated ? "stdout" : "stderr");
    } else if (c->memcheck && grade_memcheck_report(why, sizeof(why), run->err, c->sim_key)) {
        grade_sim_short_paths(why);
        snprintf(res->reason, sizeof(res->reason), "%s: %.*s%s%.200s",
                 c->memcheck > 1 ? "memcheck, racecheck, synccheck, initcheck" : "memcheck",
                 c->check_hint[0] ? 260 : 440, why, c->check_hint[0] ? " — " : "", c->check_hint);
    } else if (c->memcheck && !strcmp(backend, "sim") &&
               !grade_memcheck_ran(why, sizeof(why), run->err, c->sim_key)) {
        snprintf(res->reason, sizeof(res->reason), "%.500s", why);
    } else if (run->exit_status != c->expect_status) {
        snprintf(res->reason, sizeof(res->reason), "exited with status %d: %s", run->exit_status,
                 said);
    } else {
        return 0;
    }
    return 1;
}

/* The judgement of a run that can be judged: every output within its tolerance, every fact of
 * result.json, then the check's own judge. Sets res->passed, points and reason. */
static void judge_run(grade_result *res, const grade_run *run, grade_case *c,
                      const grade_check *check, int attempt)
{
    char why[512] = "";
    int ok = 1;
    grade_json_object obj = { NULL, 0 };
    for (int i = 0; ok && i < c->n_outputs; i++) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/%s.npy", run->workdir, c->outputs[i].name);
        ok = grade_judge_output(path, &c->outputs[i], why, sizeof(why));
    }
    ok = ok && judge_result_json(run, c, &obj, why, sizeof(why));
    if (ok && c->judge)
        ok = c->judge(c, &obj, run->workdir, run->out ? run->out : "", run->err ? run->err : "",
                      why, sizeof(why));
    grade_json_free(&obj);
    res->passed = ok;
    res->points = ok ? check->points : 0;
    if (ok)
        res->reason[0] = '\0'; /* an earlier attempt's reason does not stay on a pass */
    else if (attempt > 1)
        snprintf(res->reason, sizeof(res->reason), "in each of %d runs; the last: %.460s", attempt,
                 why);
    else if (!ok)
        snprintf(res->reason, sizeof(res->reason), "%.500s", why);
}

/* One check of one lab program, in steps: the program, the inputs (prepare), the run's
 * environment and limits, the runs (a check that judges measured times may run again), and the
 * judgement of each; then the inputs' folder goes. */
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
    c.arg = check->arg;
    if (check->prepare(&c, &env, why, sizeof(why)) != 0 || c.failed) {
        snprintf(res->reason, sizeof(res->reason), "grader: cannot make the inputs: %.400s",
                 c.failed ? "too many facts or variables in one check" : why);
        goto remove_setup;
    }
    unsigned long long sim_mb = 0;
    grade_limits l = grade_run_limits_for(o, check, &c, backend, &sim_mb);
    run_environment e;
    make_environment(&e, &c, backend, sim_mb);
    /* A run the simulator instruments (a check tool, its counts, the model) needs the program's
     * check twin (<program>.check), which the plain program would start by its path; that path
     * may be covered in the run's mounts (hide_kit), so the twin is run itself. */
    const char *argv[] = { program, "--in", ".", "--out", ".", NULL };
    char twin[4320];
    if (!strcmp(backend, "sim") && sim_instrumented(e.envp)) {
        snprintf(twin, sizeof(twin), "%s.check", program);
        if (access(twin, X_OK) == 0)
            argv[0] = twin;
    }
    /* A check that judges measured times may run again before it fails (c.attempts): a busy
     * machine must not fail correct code. Each attempt is a fresh run from the same inputs. */
    for (int attempt = 1;; attempt++) {
        grade_run_program(&run, &err, argv, e.envp, &l, setup);
        res->seconds = run.wall_seconds;
        if (!run_not_judgeable(res, &run, &c, backend))
            judge_run(res, &run, &c, check, attempt);
        if (res->passed || attempt >= c.attempts || run.end != GRADE_EXITED)
            break;
        grade_run_free(&run);
    }
    grade_run_free(&run);
remove_setup:
    grade_case_free(&c);
    if (grade_tree_remove(setup) != 0)
        fprintf(stderr, "gpulab-grade: could not remove %s: %s\n", setup, strerror(errno));
}

int grade_wanted(const options *o, const grade_lab *lab)
{
    return o->lab ? strcmp(o->lab, lab->name) == 0 : !grade_lab_internal(lab);
}

/* Whether to grade check: every one, or those whose name holds --check's text. */
static int grade_check_wanted(const options *o, const grade_check *check)
{
    return !o->check || strstr(check->name, o->check) != NULL;
}

/* Whether the lab's solution program is in o->bin for backend. */
static int solution_built(const options *o, const char *backend, const grade_lab *lab)
{
    char program[4300];
    snprintf(program, sizeof(program), "%s/%s-%s-solution", o->bin, lab->name, backend);
    return access(program, X_OK) == 0;
}

/* Whether to grade lab's solution program: asked for, and this kit has one.
 * A student's kit has no solutions/: --compare grades the student's programs
 * only, and the progress count leaves the solutions out. */
static int grade_solution(const options *o, const char *backend, const grade_lab *lab)
{
    return o->solution && (o->has_solutions || !o->student || solution_built(o, backend, lab));
}

/* Grades the programs in o->bin into report; a lab whose program is missing
 * gets the build log's reason when build_log is given. */
static void grade_programs(const options *o, grade_report *report, const char *build_log)
{
    int n_labs, total = 0, done = 0, without_solutions = 0;
    const grade_lab *labs_ = grade_labs(&n_labs);
    for (int i = 0; i < n_labs; i++) {
        if (!grade_wanted(o, &labs_[i]))
            continue;
        int solution = grade_solution(o, report->backend, &labs_[i]);
        for (int k = 0; k < labs_[i].n_checks; k++)
            total += grade_check_wanted(o, &labs_[i].checks[k]) * (o->student + solution);
        without_solutions |= o->solution && !solution;
    }
    if (without_solutions && !o->quiet)
        fprintf(stderr, "gpulab-grade: grading your programs, built from labs/; this kit has no "
                        "reference solutions to grade beside them\n");
    double t0 = lab_wall_seconds();
    lab_progress *bar =
        o->quiet ? NULL
                 : lab_progress_create(stderr, "grading", (uint64_t)total, LAB_PROGRESS_AUTO);
    const char *variants[] = { "solution", "student" };
    for (int i = 0; i < n_labs; i++) {
        if (!grade_wanted(o, &labs_[i]))
            continue;
        for (int v = 0; v < 2; v++) {
            if ((v == 0 && !grade_solution(o, report->backend, &labs_[i])) ||
                (v == 1 && !o->student))
                continue;
            char built_why[400] = "";
            if (build_log)
                grade_build_failure(build_log, labs_[i].name, labs_[i].dir, built_why,
                                    sizeof(built_why));
            for (int k = 0; k < labs_[i].n_checks; k++) {
                if (!grade_check_wanted(o, &labs_[i].checks[k]))
                    continue;
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
    unsigned long long sim_mb;
    grade_limits l = grade_run_limits_for(o, &labs_[0].checks[0], NULL, "sim", &sim_mb);
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
    grade_build b = { o->source,
                      o->submission,
                      o->build_dir,
                      backend,
                      names,
                      n,
                      o->jobs > 0 ? o->jobs : 1,
                      log,
                      with_tests,
                      grade_build_limits_for(o, o->build_dir) };
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

/* Adds path's folder (whole = 1: path itself) to what graded programs must not see. */
static void hide_path(options *o, const char *path, int whole)
{
    char real[4096];
    int n = 0;
    while (o->hide[n])
        n++;
    char dir[4096];
    if (!path || n >= 8)
        return;
    snprintf(dir, sizeof(dir), "%s", path);
    if (!whole) { /* its folder: the file itself may not exist yet */
        char *slash = strrchr(dir, '/');
        if (!slash)
            snprintf(dir, sizeof(dir), ".");
        else
            slash[slash == dir] = '\0';
    }
    if (!realpath(dir, real))
        return;
    for (int i = 0; i < n; i++)
        if (strcmp(o->hide[i], real) == 0)
            return;
    snprintf(o->hide_store[n], sizeof(o->hide_store[n]), "%s", real);
    o->hide[n] = o->hide_store[n];
}

/* When grading a submission: the kit's sources (solutions/ among them), the build tree the
 * grader runs from (the solution programs, CMakeCache.txt), the submission's folder and the
 * reports'; a graded program sees none of them (the runner leaves out any folder a system one
 * is in). The kit's own programs, which --labs and --solutions grade, may run one another and
 * keep logs in the kit, so nothing is hidden from them. */
static void hide_kit(options *o)
{
    char tree[4200];
    if (!o->submission)
        return;
    hide_path(o, o->source, 1);
    snprintf(tree, sizeof(tree), "%s/../CMakeCache.txt", o->self_dir);
    if (access(tree, F_OK) == 0) {
        snprintf(tree, sizeof(tree), "%s/..", o->self_dir);
        hide_path(o, tree, 1);
    }
    hide_path(o, o->submission, 0);
    hide_path(o, o->json, 0);
    hide_path(o, o->junit, 0);
    hide_path(o, o->gradescope, 0);
    hide_path(o, o->summary, 0);
}

int main(int argc, char **argv)
{
    options o;
    grade_report report;
    char log[4400] = "", tmp_build[64] = "";
    int n_labs;
    if (grade_parse_options(&o, argc, argv) != 0) {
        grade_usage(stderr, grade_kit_has_solutions(o.source));
        return 2;
    }
    const grade_lab *labs_ = grade_labs(&n_labs);
    int found = 0, checks = 0;
    for (int i = 0; i < n_labs; i++) {
        if (!grade_wanted(&o, &labs_[i]))
            continue;
        found++;
        for (int k = 0; k < labs_[i].n_checks; k++)
            checks += grade_check_wanted(&o, &labs_[i].checks[k]);
    }
    if (found && o.check && !checks) {
        fprintf(stderr, "gpulab-grade: --check %s: no check's name contains it\n", o.check);
        return 2;
    }
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
    hide_kit(&o);
    grade_choose_backend(&report, &o);
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
        if (grade_tree_remove(tmp_build) != 0)
            fprintf(stderr, "gpulab-grade: could not remove %s: %s\n", tmp_build, strerror(errno));
    }
    return bad ? 2 : 0;
}
