/* options.c — gpulab-grade's command line: its usage text and getopt_long
 * parsing, where every value goes after a space or an '=' (--lab lab03,
 * --lab=lab03). See grade.h. */
#define _POSIX_C_SOURCE 200809L
#include "grade.h"
#include "labs.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int grade_kit_has_solutions(const char *source)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof(path), "%s/solutions", source);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* What --labs, --solutions and --compare grade, in the words of this kit. */
static const char *what_is_graded(int has_solutions)
{
    if (has_solutions)
        return "  --labs           the student programs built beside gpulab-grade (default)\n"
               "  --solutions      the reference solutions; --compare both side by side\n";
    return "  --labs           your lab programs, built from labs/ beside gpulab-grade (default)\n"
           "  --compare        the same in this kit (make grade uses it): it has no reference\n"
           "                   solutions to grade beside yours\n";
}

/* The labs --lab takes, "lab01 ... lab05": the first and last declared (the build's own fixture
 * lab left out). */
static void lab_range(char *out, size_t cap)
{
    int n;
    const grade_lab *labs = grade_labs(&n);
    const char *first = NULL, *last = NULL;
    for (int i = 0; i < n; i++)
        if (!grade_lab_internal(&labs[i])) {
            first = first ? first : labs[i].name;
            last = labs[i].name;
        }
    if (!first)
        snprintf(out, cap, "none in this build");
    else if (first == last)
        snprintf(out, cap, "%s", first);
    else
        snprintf(out, cap, "%s ... %s", first, last);
}

void grade_usage(FILE *f, int has_solutions)
{
    char labs[64];
    lab_range(labs, sizeof(labs));
    fprintf(f,
            "usage: gpulab-grade [--labs | %s--compare] [OPTIONS]\n"
            "       gpulab-grade --submission DIR [OPTIONS]\n"
            "       gpulab-grade --batch DIR [--jobs N] [--out DIR] [OPTIONS]\n"
            "       gpulab-grade --package-gradescope DIR [--seed N] [--backend B]\n"
            "what is graded:\n"
            "%s"
            "  --submission DIR a student's copy of labs/ (DIR holds 01_devices/ ...), built\n"
            "                   out of tree against this kit, then graded\n"
            "  --batch DIR      every submission folder in DIR (each a labs/ copy, or holding\n"
            "                   one); one row per submission in OUT/grades.csv\n"
            "options (a value goes after a space or an '=': --lab lab03, --lab=lab03):\n"
            "  --backend B      auto (the default: cuda when the kit's GPU query finds a usable\n"
            "                   GPU, else sim; the table's first line says which and why),\n"
            "                   cuda or sim\n"
            "  --seed N         inputs from seed N (default: the public seed %llu); keep\n"
            "                   a seed of your own for hidden tests\n"
            "  --lab NAME       one lab only (%s)\n"
            "  --check TEXT     only the checks whose name contains TEXT (with --lab: one\n"
            "                   check, as when looking into a failed one)\n"
            "  --time-limit S   seconds of wall time for every run (default: per check)\n"
            "  --bin DIR        where the lab programs are (default: beside gpulab-grade)\n"
            "  --source DIR     the kit's sources, for --submission and --batch (default: %s)\n"
            "  --build-dir DIR  where --submission builds (default: a fresh temporary one);\n"
            "                   with --batch, where its slots build (DIR/slot0 ...), kept\n"
            "  --build-cpu-limit S, --build-memory-limit MIB   a submission's build: CPU\n"
            "                   seconds and MiB of memory per compiler (defaults %d s and\n"
            "                   the machine's memory shared by the jobs, %d to %d MiB)\n"
            "  --build-time-limit S   seconds for its configure, and for its build (default %d)\n"
            "  --share N        graded runs share the machine's memory N ways: each may map\n"
            "                   1/N of it (default 1; --batch passes its number of slots)\n"
            "  --jobs N         processes at a time in all (default %d): --batch grades up to\n"
            "                   N submissions at a time, whose builds share the N; a\n"
            "                   --submission builds with N compilers\n"
            "  --out DIR        --batch: where grades.csv and each submission's report go\n"
            "                   (default: ./grades)\n"
            "  --json FILE, --junit FILE, --gradescope FILE   the report in those formats\n"
            "  --summary FILE   one line per lab: lab, score, maximum (for scripts)\n"
            "  --quiet          no progress display\n"
            "exit status: 0 graded (whatever the scores), 2 bad usage or the grading could\n"
            "not be done (a submission that does not configure, a report not written)\n",
            has_solutions ? "--solutions | " : "", what_is_graded(has_solutions),
            GRADE_DEFAULT_SEED, labs, GPULAB_SOURCE_DIR, GRADE_BUILD_CPU_DEFAULT,
            GRADE_BUILD_MEMORY_MIN_MIB, GRADE_BUILD_MEMORY_MAX_MIB, GRADE_BUILD_TIME_DEFAULT,
            grade_default_jobs());
}

int grade_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 2 ? (int)(n / 2) : 1;
}

/* The long options; a value goes after a space or an '=' (--lab lab03, --lab=lab03). */
enum {
    OPT_LABS = 256,
    OPT_SOLUTIONS,
    OPT_COMPARE,
    OPT_QUIET,
    OPT_BACKEND,
    OPT_SEED,
    OPT_JOBS,
    OPT_TIME_LIMIT,
    OPT_BIN,
    OPT_LAB,
    OPT_CHECK,
    OPT_JSON,
    OPT_JUNIT,
    OPT_GRADESCOPE,
    OPT_SUMMARY,
    OPT_SUBMISSION,
    OPT_BATCH,
    OPT_PACKAGE,
    OPT_SOURCE,
    OPT_BUILD_DIR,
    OPT_OUT,
    OPT_BUILD_CPU,
    OPT_BUILD_MEMORY,
    OPT_BUILD_TIME,
    OPT_SHARE
};

static const struct option long_options[] = {
    { "labs", no_argument, NULL, OPT_LABS },
    { "solutions", no_argument, NULL, OPT_SOLUTIONS },
    { "compare", no_argument, NULL, OPT_COMPARE },
    { "quiet", no_argument, NULL, OPT_QUIET },
    { "help", no_argument, NULL, 'h' },
    { "backend", required_argument, NULL, OPT_BACKEND },
    { "seed", required_argument, NULL, OPT_SEED },
    { "jobs", required_argument, NULL, OPT_JOBS },
    { "time-limit", required_argument, NULL, OPT_TIME_LIMIT },
    { "bin", required_argument, NULL, OPT_BIN },
    { "lab", required_argument, NULL, OPT_LAB },
    { "check", required_argument, NULL, OPT_CHECK },
    { "json", required_argument, NULL, OPT_JSON },
    { "junit", required_argument, NULL, OPT_JUNIT },
    { "gradescope", required_argument, NULL, OPT_GRADESCOPE },
    { "summary", required_argument, NULL, OPT_SUMMARY },
    { "submission", required_argument, NULL, OPT_SUBMISSION },
    { "batch", required_argument, NULL, OPT_BATCH },
    { "package-gradescope", required_argument, NULL, OPT_PACKAGE },
    { "source", required_argument, NULL, OPT_SOURCE },
    { "build-dir", required_argument, NULL, OPT_BUILD_DIR },
    { "out", required_argument, NULL, OPT_OUT },
    { "build-cpu-limit", required_argument, NULL, OPT_BUILD_CPU },
    { "build-memory-limit", required_argument, NULL, OPT_BUILD_MEMORY },
    { "build-time-limit", required_argument, NULL, OPT_BUILD_TIME },
    { "share", required_argument, NULL, OPT_SHARE },
    { NULL, 0, NULL, 0 },
};

/* The option as typed, for a message: "--lab" from "--lab=x". */
static void option_typed(char *buf, size_t len, const char *arg)
{
    snprintf(buf, len, "%.*s", (int)strcspn(arg, "="), arg);
}

/* A positive number for --jobs or --time-limit; -1 with a message when v is none. */
static double positive(const char *name, const char *v)
{
    char *end = NULL;
    double x = strtod(v, &end);
    if (*end || end == v || !(x > 0)) {
        fprintf(stderr, "gpulab-grade: --%s %s: expected a positive number\n", name, v);
        return -1;
    }
    return x;
}

/* Sets what one option says; returns 0, or -1 with a message. */
static int set_option(options *o, int opt, const char *v)
{
    char *end = NULL;
    switch (opt) {
    case OPT_LABS:
        o->student = 1, o->solution = 0;
        break;
    case OPT_SOLUTIONS:
        o->student = 0, o->solution = 1;
        break;
    case OPT_COMPARE:
        o->student = 1, o->solution = 1;
        break;
    case OPT_QUIET:
        o->quiet = 1;
        break;
    case OPT_BACKEND:
        if (strcmp(v, "auto") && strcmp(v, "cuda") && strcmp(v, "sim")) {
            fprintf(stderr, "gpulab-grade: --backend %s: expected auto, cuda or sim\n", v);
            return -1;
        }
        snprintf(o->backend, sizeof(o->backend), "%s", v);
        break;
    case OPT_SEED:
        errno = 0;
        o->seed = strtoull(v, &end, 10);
        if (errno || *end || *v == '-' || end == v) {
            fprintf(stderr, "gpulab-grade: --seed %s: expected a whole number\n", v);
            return -1;
        }
        break;
    case OPT_JOBS:
    case OPT_SHARE:
    case OPT_TIME_LIMIT: {
        double x = positive(opt == OPT_JOBS    ? "jobs"
                            : opt == OPT_SHARE ? "share"
                                               : "time-limit",
                            v);
        if (x < 0)
            return -1;
        if (opt == OPT_SHARE)
            o->share = (int)x;
        else if (opt == OPT_JOBS)
            o->jobs = (int)x;
        else
            o->time_limit = x;
        break;
    }
    case OPT_BUILD_CPU:
    case OPT_BUILD_MEMORY:
    case OPT_BUILD_TIME: {
        double x = positive(opt == OPT_BUILD_CPU      ? "build-cpu-limit"
                            : opt == OPT_BUILD_MEMORY ? "build-memory-limit"
                                                      : "build-time-limit",
                            v);
        if (x < 0)
            return -1;
        *(opt == OPT_BUILD_CPU      ? &o->build_cpu
          : opt == OPT_BUILD_MEMORY ? &o->build_memory_mib
                                    : &o->build_time) = x;
        break;
    }
    case OPT_BIN:
        snprintf(o->bin, sizeof(o->bin), "%s", v);
        break;
    case OPT_LAB:
        o->lab = v;
        break;
    case OPT_CHECK:
        o->check = v;
        break;
    case OPT_JSON:
        o->json = v;
        break;
    case OPT_JUNIT:
        o->junit = v;
        break;
    case OPT_GRADESCOPE:
        o->gradescope = v;
        break;
    case OPT_SUMMARY:
        o->summary = v;
        break;
    case OPT_SUBMISSION:
        o->submission = v;
        break;
    case OPT_BATCH:
        o->batch = v;
        break;
    case OPT_PACKAGE:
        o->package = v;
        break;
    case OPT_SOURCE:
        o->source = v;
        break;
    case OPT_BUILD_DIR:
        o->build_dir = v;
        break;
    case OPT_OUT:
        o->out = v;
        break;
    }
    return 0;
}

int grade_parse_options(options *o, int argc, char **argv)
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
    snprintf(o->self_dir, sizeof(o->self_dir), "%s", n > 0 ? self : ".");

    /* getopt_long: --opt value and --opt=value alike; errors are ours to word.
     * "+": stop at the first argument that is not an option (none is taken). */
    opterr = 0;
    optind = 1;
    for (;;) {
        int at = optind, opt = getopt_long(argc, argv, "+:h", long_options, NULL);
        char typed[64];
        if (opt == -1)
            break;
        option_typed(typed, sizeof(typed), at < argc ? argv[at] : "?");
        if (opt == 'h') {
            grade_usage(stdout, grade_kit_has_solutions(o->source));
            exit(0);
        } else if (opt == ':') {
            fprintf(stderr, "gpulab-grade: %s needs a value (%s VALUE or %s=VALUE)\n", typed, typed,
                    typed);
            return -1;
        } else if (opt == '?') {
            if (optopt && !strncmp(argv[at], "--", 2) && strchr(argv[at], '='))
                fprintf(stderr, "gpulab-grade: %s takes no value: %s\n", typed, argv[at]);
            else
                fprintf(stderr,
                        "gpulab-grade: unknown option %s (gpulab-grade --help lists them)\n",
                        argv[at]);
            return -1;
        } else if (optarg && (optarg[0] == '\0' ||
                              (optarg == argv[optind - 1] && !strncmp(optarg, "--", 2)))) {
            /* --lab= or --lab --quiet: the value is missing, not "" or "--quiet". */
            fprintf(stderr, "gpulab-grade: %s needs a value (%s VALUE or %s=VALUE)%s%s\n", typed,
                    typed, typed, optarg[0] ? "; found the option " : "", optarg);
            return -1;
        } else if (set_option(o, opt, optarg) != 0) {
            return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gpulab-grade: unexpected argument %s: options start with --\n",
                argv[optind]);
        return -1;
    }
    if (!!o->submission + !!o->batch + !!o->package > 1) {
        fprintf(stderr, "gpulab-grade: --submission, --batch and --package-gradescope exclude "
                        "each other\n");
        return -1;
    }
    if (o->submission || o->batch)
        o->student = 1, o->solution = 0;
    o->has_solutions = grade_kit_has_solutions(o->source);
    return 0;
}
